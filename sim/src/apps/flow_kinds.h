// Flow kinds: every transport a flow of a run spec can use, registered once.
//
// A flow names its sender's kind (`protocol`) and, where it differs, its
// receiver's (`receiver`; default: the sender kind's own receiver), so a
// receiver-side variant can pair with an unmodified sender. A kind says
// which of a flow's keys it takes, how it installs each side's app, and
// whether it counts among the elastic flows (fairness, flow means); how each
// transport's apps are installed is flow_apps.h. This catalogue uses no ns-3,
// so the spec reader (and its fuzzer) can check names against it. Adding a
// kind is one entry in flow_kinds.cc plus its own files:
//   - a core protocol: its registry line in core/ is enough (make_core_kinds
//     lists every core protocol);
//   - a TCP variant: an entry naming ns-3's congestion control TypeId, or its
//     own TcpCongestionOps / TcpSocketBase subclass;
//   - a TCP receiver variant (rsc-var): a receiver-only entry and its socket.
#pragma once

#include <string>
#include <string_view>

namespace mantra::sim {

enum class Transport { kCore, kTcp };

struct FlowKind {
  std::string name;
  Transport transport = Transport::kCore;
  std::string tcp_congestion_type;  // kTcp: ns-3 TypeId name of the congestion control
  std::string alias_of;             // empty, or the kind this name stands for ("tcp" -> "newreno")
  bool takes_rate = false;          // cbr: a fixed rate, required
  bool elastic = true;              // adapts its rate: counted in fairness and flow means
  bool tcp_reno = false;            // kTcp: fast recovery ends on the first new ACK (true Reno)
  bool tcp_freeze_probing = false;  // kTcp: Freeze-Probing's freeze on its own losses
  bool tcp_takes_elfn = false;      // kTcp: the elfn modifier composes with it
  bool receiver_only = false;       // a receiver-side variant: a flow's `receiver`, never its `protocol`
  bool tcp_rsc_var = false;         // kTcp receiver: RSC-VAR's ACK pacing (tcp/rsc_var_tcp_socket.h)

  bool tcp() const { return transport == Transport::kTcp; }
};

// The kind of this name (aliases resolved), or nullptr.
const FlowKind* find_flow_kind(std::string_view name);
// Whether a receiver of kind `receiver` can serve a sender of kind `sender`:
// the same transport, and for core protocols the same protocol.
bool can_pair(const FlowKind& sender, const FlowKind& receiver);
// The names a flow may give as its protocol, in registration order ("tfrc,
// adtfrc, ..."), and with `receivers` the receiver-only kinds too.
std::string flow_kind_names(bool receivers);

}  // namespace mantra::sim
