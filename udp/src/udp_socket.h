// One non-blocking UDP socket with what a media transport needs from Linux:
//
//   - dual stack: an AF_INET6 socket with IPV6_V6ONLY off carries IPv4 peers
//     as ::ffff:a.b.c.d (an AF_INET socket where the host has no IPv6);
//   - ECN both ways: IP_RECVTOS and IPV6_RECVTCLASS on receive (an IPv4 peer
//     on a v6 socket comes only through IP_RECVTOS, as a 1-byte cmsg; IPv6 as
//     a 4-byte int), and per datagram an IP_TOS cmsg to an IPv4 peer or an
//     IPV6_TCLASS cmsg to an IPv6 one (IPV6_TCLASS to a mapped address is
//     ignored by the kernel);
//   - receive timestamps (SO_TIMESTAMPNS, CLOCK_REALTIME, handed on as is);
//   - socket drops (SO_RXQ_OVFL), ICMP and local errors (IP_RECVERR /
//     IPV6_RECVERR, read from the error queue), don't-fragment
//     (IP_PMTUDISC_PROBE, IPV6_DONTFRAG);
//   - batches: recvmmsg / sendmmsg of up to kBatch datagrams, non-blocking
//     (driven by epoll: a blocking recvmmsg can wait forever, recvmmsg(2));
//     in a batch, a run of equal-size datagrams to one peer with one ECN
//     codepoint goes as one UDP GSO send (UDP_SEGMENT, at most 64 segments,
//     the last may be shorter) where the kernel takes it: probed at open,
//     turned off for good when a send is refused (EIO or EINVAL).
// The control buffer is the sum of CMSG_SPACE over every enabled option; a
// datagram that comes with MSG_CTRUNC (its ECN byte may be gone) is an error,
// not a datagram.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "address.h"
#include "mantra/endpoint.h"

namespace mantra::udp {

struct Received {
  std::span<const uint8_t> bytes;  // valid until the next receive()
  Address from;
  Ecn ecn = Ecn::kNotEct;
  uint8_t ttl = 0;                            // IP_TTL or IPV6_HOPLIMIT as it arrived; 0: not read
  std::optional<int64_t> kernel_realtime_ns;  // SO_TIMESTAMPNS
};

struct Outgoing {
  std::span<const uint8_t> bytes;
  Address to;
  Ecn ecn = Ecn::kNotEct;
};

struct SocketCounters {
  int64_t received = 0;
  int64_t sent = 0;
  int64_t truncated = 0;                  // larger than the receive buffer (MSG_TRUNC): dropped
  int64_t send_would_block = 0;           // the send buffer was full: dropped here, as a full queue would
  int64_t kernel_drops = 0;               // SO_RXQ_OVFL: dropped by the kernel before we read them
  int64_t gso_sends = 0;                  // sends that carried several datagrams as GSO segments
  std::map<std::string, int64_t> errors;  // from the error queue and failed sends, by errno name
};

class UdpSocket {
 public:
  static constexpr int kBatch = 32;
  static constexpr size_t kMaxDatagram = 65535;
  static constexpr size_t kMaxGsoSegments = 64;  // the older kernels' limit (128 since 2024)

  // Binds to `bind` (port 0: any free port); an empty error on success.
  std::string open(const Address& bind);
  ~UdpSocket();
  UdpSocket() = default;
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;

  int fd() const { return fd_; }
  Address local() const;
  size_t control_bytes() const { return control_bytes_; }

  // Reads up to kBatch datagrams that are waiting; an empty batch when none.
  // A truncated control buffer is an error (the one-line text).
  std::string receive(std::vector<Received>& out);
  // Sends the datagrams; one that finds the send buffer full is dropped and
  // counted. An error other than a full buffer is counted by name.
  void send(std::span<const Outgoing> datagrams);
  // Drains the error queue (IP_RECVERR), counting each error by name.
  void read_errors();

  const SocketCounters& counters() const { return counters_; }
  bool gso() const { return gso_; }
  void disable_gso() { gso_ = false; }

 private:
  // How many of `datagrams` (from the first) go as one GSO send.
  size_t gso_run(std::span<const Outgoing> datagrams) const;

  int fd_ = -1;
  bool v6_ = true;
  bool gso_ = false;
  std::vector<std::vector<uint8_t>> gso_buffers_;
  size_t control_bytes_ = 0;
  std::vector<uint8_t> buffers_;   // kBatch x kMaxDatagram
  std::vector<uint8_t> controls_;  // kBatch x control_bytes_
  uint32_t last_overflow_ = 0;
  SocketCounters counters_;
};

std::string errno_name(int error);

}  // namespace mantra::udp
