// The core as the simulator sees it: plain integers and byte vectors.
//
// ns-3.37's headers compile only as C++17, the core is C++20; this header is
// valid in both and is the only core interface the sim includes. Its
// implementation (core_bridge.cc) is compiled as C++20 against the core.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mantra::sim {

struct BridgeDatagram {
  std::vector<uint8_t> bytes;
  bool is_data = true;  // media data, as opposed to feedback or probes
  uint8_t ecn = 0;      // IP ECN codepoint to send with
  int64_t seq = -1;     // data sequence number, for the loss oracle; -1: none
};

// A receiver's verdict on why one of its packets was lost (ADTFRC).
struct BridgeLossVerdict {
  int64_t seq = 0;
  std::string detector;  // the identification rule
  std::string state;     // cong | rtchg | cherr | normal
  bool acted_on = false; // the rule the receiver acted on
};

class CoreEndpoint {
 public:
  virtual ~CoreEndpoint() = default;
  virtual void handle_datagram(int64_t now_us, const uint8_t* bytes, size_t size, uint8_t ecn) = 0;
  virtual void handle_timeout(int64_t now_us) = 0;
  virtual std::optional<BridgeDatagram> poll_transmit(int64_t now_us) = 0;
  virtual std::optional<int64_t> poll_timeout_us() const = 0;
  // The endpoint's datagram counters, then its protocol-specific values.
  virtual std::vector<std::pair<std::string, double>> diagnostics() const = 0;
  // Loss verdicts given since the last call (receivers that identify causes).
  virtual std::vector<BridgeLossVerdict> take_loss_verdicts() = 0;
};

using CoreParams = std::map<std::string, double>;

// The LATP node agent (core/src/latp/node_agent.h) of one node, fed by the
// node's PHY and MAC traces and shown every LATP packet leaving the node.
class CoreNodeAgent {
 public:
  virtual ~CoreNodeAgent() = default;
  virtual void on_channel_busy(int64_t start_us, int64_t duration_us) = 0;
  virtual void on_transmit(int64_t start_us, int64_t duration_us) = 0;
  virtual void on_mac_acked(int64_t ready_us, int64_t acked_us, int64_t bytes) = 0;
  // The LATP datagram (UDP payload) leaving the node; true if R was rewritten.
  virtual bool on_egress(uint8_t* bytes, size_t size) = 0;
  virtual std::vector<std::pair<std::string, double>> diagnostics() const = 0;
};

// Bytes of the LATP data header that on_egress() may rewrite (latp_wire.h).
size_t latp_data_header_bytes();

// On bad parameters returns null and sets `error`.
std::unique_ptr<CoreNodeAgent> make_core_node_agent(const CoreParams& params, std::string& error);

// Make a core sender or receiver by protocol name; on failure returns null
// and sets `error` to the core's one-line reason.
std::unique_ptr<CoreEndpoint> make_core_sender(const std::string& protocol, const CoreParams& params,
                                               std::string& error);
std::unique_ptr<CoreEndpoint> make_core_receiver(const std::string& protocol, const CoreParams& params,
                                                 std::string& error);
std::vector<std::string> core_protocol_names();

}  // namespace mantra::sim
