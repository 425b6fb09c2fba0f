// One core endpoint on a UDP socket, talking to one peer under one session
// token, with no per-protocol code: what the endpoint has due is sent with
// the trailer (session_wire.h); what arrives is taken only from the peer's
// address with the token.
//
// Pacing by credit: the core paces by its own send times and keeps at most
// one packet of credit after a late wake-up (RFC 5348 §4.6), and this
// machine's timers wake 40-100 µs late on average (ms at worst). So a pump
// sends what is due within kGranularity of now, one send time after
// another, as one batch of at most kBurst datagrams: the endpoint's clock
// (the `now` it is given) runs up to kGranularity ahead of the monotonic
// clock, never behind what it was given before.
//
//   socket ──► accept(): foreign address / bad token / no trailer ──► counted, dropped
//                 │ ok
//                 ▼
//        (kind, body) to the command ──► endpoint.handle_datagram
//   endpoint.poll_transmit ──► before_send hook (frame) ──► trailer ──► socket
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "address.h"
#include "mantra/endpoint.h"
#include "packet_log.h"
#include "poller.h"
#include "session_wire.h"
#include "udp_socket.h"

namespace mantra::udp {

struct LinkCounters {
  int64_t wire_bytes_sent = 0;      // trailers included
  int64_t wire_bytes_received = 0;  // accepted datagrams, trailers included
  int64_t trailer_bytes_sent = 0;
  int64_t foreign_address = 0;  // from another address: dropped
  int64_t foreign_token = 0;    // from the peer's address with another token: dropped
  int64_t no_trailer = 0;       // too short or an unknown kind: dropped
};

class EndpointLink {
 public:
  static constexpr int kBurst = 32;
  static constexpr Duration kGranularity = Duration::micros(200);

  EndpointLink(UdpSocket& socket, PacketLog& log) : socket_(socket), log_(log) {}

  void connect(Address peer, uint64_t token) {
    peer_ = peer;
    token_ = token;
  }
  void attach(Endpoint* endpoint) { endpoint_ = endpoint; }
  const Address& peer() const { return peer_; }
  uint64_t token() const { return token_; }

  // Runs the endpoint's timer if due, then sends what it has due by now +
  // kGranularity (at most kBurst datagrams). `before_send` may write into a
  // data datagram; it is given the monotonic clock's `now`. True when it
  // stopped at kBurst with more due.
  bool pump(Time now, const std::function<void(Time, Datagram&)>& before_send);
  // The endpoint's clock at monotonic time `now`: never behind what it was
  // given before (a pump may have run it ahead by up to kGranularity).
  Time clock(Time now) const { return std::max(now, endpoint_now_); }
  // When the endpoint next wants to run (none: it waits for a datagram).
  std::optional<Time> deadline() const;

  // A datagram from the socket: its kind and body when it is the peer's, with
  // the token; otherwise counted and nullopt.
  std::optional<std::pair<WireKind, std::span<const uint8_t>>> accept(Time now, const Received& r);
  // Sends a session message to the peer.
  void send_session(Time now, WireKind kind, std::vector<uint8_t> body);

  // A datagram from the peer with the token: its kind, body (valid until the
  // next wait_and_hear), codepoint and TTL, and when it was read.
  struct Heard {
    WireKind kind;
    std::span<const uint8_t> body;
    Ecn ecn;
    uint8_t ttl;  // 0: not read
    Time at;
  };
  // Waits on `poller` until `deadline` (or the socket, the input, a signal),
  // drains the socket's error queue, and reads what the socket holds: the
  // peer's datagrams into `heard`, the rest counted and dropped. `error` is
  // set when the socket failed.
  Ready wait_and_hear(Poller& poller, std::optional<Time> deadline, std::vector<Heard>& heard, std::string& error);

  const LinkCounters& counters() const { return counters_; }

 private:
  UdpSocket& socket_;
  PacketLog& log_;
  Endpoint* endpoint_ = nullptr;
  Address peer_;
  uint64_t token_ = 0;
  LinkCounters counters_;
  Time endpoint_now_;
  std::vector<std::vector<uint8_t>> wires_;  // reused between calls
  std::vector<Received> batch_;
};

}  // namespace mantra::udp
