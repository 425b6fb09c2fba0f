// The sans-IO endpoint contract every mantra protocol implements.
//
// An endpoint is a state machine fed with events and asked what to do. The
// driver (ns-3 app, UDP socket loop, in-memory test link) calls, in order:
//
//   handle_datagram(now, bytes, ecn)   a packet arrived for this endpoint
//     (or handle_datagram_with_ttl(now, bytes, ecn, ttl), from a driver
//     that reads the IP TTL it arrived with)
//   handle_timeout(now)                when now >= poll_timeout()
//   poll_transmit(now)                 repeatedly until it returns nullopt
//   poll_timeout()                     then sleeps until that time or a packet
//
// `now` never decreases between calls. The endpoint never reads a clock, owns
// no socket and never logs; what it knows it reports through stats().
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mantra/units.h"

namespace mantra {

// The two ECN bits of the IP header (RFC 3168).
enum class Ecn : uint8_t { kNotEct = 0, kEct1 = 1, kEct0 = 2, kCe = 3 };

// What a datagram carries, so a driver can account media data apart from
// control traffic without parsing the bytes.
enum class DatagramKind : uint8_t { kData, kFeedback, kProbe };

struct Datagram {
  std::vector<uint8_t> bytes;
  DatagramKind kind = DatagramKind::kData;
  Ecn ecn = Ecn::kNotEct;  // the codepoint to send with
  // Sequence number of a data datagram, so a driver can follow a packet for
  // ground truth (the loss oracle) without parsing the bytes; -1: none.
  int64_t seq = -1;
  // The application's id of the data it carries (AppPacket::app_id), so a
  // driver can follow media packets without parsing the bytes; -1: none.
  int64_t app_id = -1;
};

// A packet an application offers to a sender (Sender::offer): its size as a
// data datagram (the protocol's header included), when it must arrive, and
// the application's own id for it, which rides to the Datagram untouched.
struct AppPacket {
  int64_t bytes = 0;
  std::optional<Time> deadline;  // when it must arrive; none: never too late
  int64_t app_id = -1;           // the application's id; -1: none
};

// A receiver's verdict on why one of its data packets was lost, as a
// state-identifying protocol (ADTFRC) saw it when it declared the loss.
// `detector` names the rule that gave the verdict; a receiver may report
// several rules side by side for the same packet, one of which it acted on.
struct LossVerdict {
  int64_t seq = 0;
  std::string detector;
  std::string state;
  bool acted_on = false;
};

// Counters common to all endpoints plus protocol-specific named values.
struct EndpointStats {
  int64_t datagrams_sent = 0;
  int64_t bytes_sent = 0;
  int64_t datagrams_received = 0;
  int64_t bytes_received = 0;
  int64_t datagrams_rejected = 0;  // failed to decode
  int64_t ect_received = 0;        // accepted datagrams that came ECN-capable, ECT(0) or ECT(1)
  int64_t ce_received = 0;         // accepted datagrams that came marked CE (congestion experienced)
  // Protocol diagnostics, e.g. {"rate_bps", ...}, {"loss_event_rate", ...}.
  std::vector<std::pair<std::string, double>> diagnostics;

  void count_sent(size_t bytes) {
    ++datagrams_sent;
    bytes_sent += static_cast<int64_t>(bytes);
  }
  // The datagram counters by name, then the protocol's diagnostics: what a
  // driver reports of an endpoint (mantra-sim's and mantra-udp's results).
  std::vector<std::pair<std::string, double>> named_values() const {
    std::vector<std::pair<std::string, double>> d = {{"datagrams_sent", static_cast<double>(datagrams_sent)},
                                                     {"datagrams_received", static_cast<double>(datagrams_received)},
                                                     {"datagrams_rejected", static_cast<double>(datagrams_rejected)},
                                                     {"ect_received", static_cast<double>(ect_received)},
                                                     {"ce_received", static_cast<double>(ce_received)}};
    d.insert(d.end(), diagnostics.begin(), diagnostics.end());
    return d;
  }
  void count_received(size_t bytes, Ecn ecn) {
    ++datagrams_received;
    bytes_received += static_cast<int64_t>(bytes);
    if (ecn == Ecn::kEct0 || ecn == Ecn::kEct1) ++ect_received;
    if (ecn == Ecn::kCe) ++ce_received;
  }
};

class Endpoint {
 public:
  virtual ~Endpoint() = default;
  virtual void handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) = 0;
  // As handle_datagram, with the IP TTL (IPv6: hop limit) the datagram
  // arrived with, from a driver that can read it (mantra-sim, mantra-udp):
  // each router on the path lowers it by one, so a change of it is a change
  // of the path's hop count. An endpoint that uses it overrides this; the
  // rest ignore it.
  virtual void handle_datagram_with_ttl(Time now, std::span<const uint8_t> bytes, Ecn ecn, uint8_t /*ttl*/) {
    handle_datagram(now, bytes, ecn);
  }
  virtual void handle_timeout(Time now) = 0;
  virtual std::optional<Datagram> poll_transmit(Time now) = 0;
  virtual std::optional<Time> poll_timeout() const = 0;
  virtual EndpointStats stats() const = 0;
};

// The media source side: sends data, receives feedback.
class Sender : public Endpoint {
 public:
  // The rate the sender is currently allowed to send at.
  virtual Rate allowed_rate() const = 0;
  // The bytes of each data datagram that are the protocol's own (its
  // header), not the application's: an application that offers packets of
  // at most packet_size bytes fits packet_size - data_header_bytes() of its
  // data in each.
  virtual int64_t data_header_bytes() const = 0;
  // The application offers a packet; false (and nothing queued) for a sender
  // without an offered application source (a greedy or constant source makes
  // its own data).
  virtual bool offer(const AppPacket& /*packet*/) { return false; }
};

// The media sink side: receives data, sends feedback.
class Receiver : public Endpoint {
 public:
  // Whether this receiver identifies why its packets were lost (then a
  // driver scores its verdicts, even when it gave none).
  virtual bool identifies_loss_causes() const { return false; }
  // Verdicts given since the last call (none for protocols that do not
  // identify loss causes).
  virtual std::vector<LossVerdict> take_loss_verdicts() { return {}; }
};

}  // namespace mantra
