#include "udp_socket.h"

#include <fcntl.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

namespace mantra::udp {
namespace {

bool set_int(int fd, int level, int name, int value) { return setsockopt(fd, level, name, &value, sizeof value) == 0; }

// The control bytes one received datagram can carry with the options enabled
// in open(): its TOS or traffic class and its TTL or hop limit (an int at
// most each), a timestamp and a drop count. Both cmsgs of each pair are
// counted although one datagram has one.
size_t control_space() {
  return 4 * CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(timespec)) + CMSG_SPACE(sizeof(uint32_t));
}

}  // namespace

std::string errno_name(int error) {
  switch (error) {
    case ECONNREFUSED:
      return "ECONNREFUSED";
    case EMSGSIZE:
      return "EMSGSIZE";
    case EHOSTUNREACH:
      return "EHOSTUNREACH";
    case ENETUNREACH:
      return "ENETUNREACH";
    case ENOBUFS:
      return "ENOBUFS";
    case EPERM:
      return "EPERM";
    case EINVAL:
      return "EINVAL";
    case EAFNOSUPPORT:
      return "EAFNOSUPPORT";
    default:
      return "errno " + std::to_string(error);
  }
}

UdpSocket::~UdpSocket() {
  if (fd_ >= 0) close(fd_);
}

std::string UdpSocket::open(const Address& bind) {
  fd_ = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0 && errno == EAFNOSUPPORT && (bind.is_v4_mapped() || IN6_IS_ADDR_UNSPECIFIED(&bind.v6.sin6_addr))) {
    v6_ = false;
    fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  }
  if (fd_ < 0) return "socket: " + std::string(std::strerror(errno));
  const bool ok = (!v6_ || set_int(fd_, IPPROTO_IPV6, IPV6_V6ONLY, 0)) && set_int(fd_, IPPROTO_IP, IP_RECVTOS, 1) &&
                  (!v6_ || set_int(fd_, IPPROTO_IPV6, IPV6_RECVTCLASS, 1)) && set_int(fd_, IPPROTO_IP, IP_RECVTTL, 1) &&
                  (!v6_ || set_int(fd_, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, 1)) &&
                  set_int(fd_, SOL_SOCKET, SO_TIMESTAMPNS, 1) && set_int(fd_, SOL_SOCKET, SO_RXQ_OVFL, 1) &&
                  set_int(fd_, IPPROTO_IP, IP_RECVERR, 1) && (!v6_ || set_int(fd_, IPPROTO_IPV6, IPV6_RECVERR, 1)) &&
                  set_int(fd_, IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_PROBE) &&
                  (!v6_ || (set_int(fd_, IPPROTO_IPV6, IPV6_MTU_DISCOVER, IPV6_PMTUDISC_PROBE) &&
                            set_int(fd_, IPPROTO_IPV6, IPV6_DONTFRAG, 1)));
  if (!ok) return "setsockopt: " + std::string(std::strerror(errno));
  // Larger buffers where the system allows (clamped to net.core.[rw]mem_max).
  set_int(fd_, SOL_SOCKET, SO_RCVBUF, 4 << 20);
  set_int(fd_, SOL_SOCKET, SO_SNDBUF, 4 << 20);
  int rc;
  if (v6_) {
    rc = ::bind(fd_, reinterpret_cast<const sockaddr*>(&bind.v6), sizeof bind.v6);
  } else {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = bind.v6.sin6_port;
    std::memcpy(&a.sin_addr, &bind.v6.sin6_addr.s6_addr[12], 4);
    rc = ::bind(fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a);
  }
  if (rc != 0) return "bind " + bind.text() + ": " + std::strerror(errno);
  // GSO (UDP_SEGMENT, Linux 4.18) where the kernel takes the option; a send
  // it then refuses turns it off (send()).
  int segment = 0;
  socklen_t segment_len = sizeof segment;
  gso_ = getsockopt(fd_, SOL_UDP, UDP_SEGMENT, &segment, &segment_len) == 0;
  control_bytes_ = control_space();
  buffers_.resize(kBatch * kMaxDatagram);
  controls_.resize(kBatch * control_bytes_);
  return {};
}

Address UdpSocket::local() const {
  sockaddr_storage s{};
  socklen_t len = sizeof s;
  getsockname(fd_, reinterpret_cast<sockaddr*>(&s), &len);
  return from_sockaddr(s);
}

std::string UdpSocket::receive(std::vector<Received>& out) {
  out.clear();
  mmsghdr msgs[kBatch] = {};
  iovec iovs[kBatch];
  sockaddr_storage froms[kBatch];
  for (int i = 0; i < kBatch; ++i) {
    iovs[i] = {buffers_.data() + i * kMaxDatagram, kMaxDatagram};
    msgs[i].msg_hdr.msg_iov = &iovs[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_name = &froms[i];
    msgs[i].msg_hdr.msg_namelen = sizeof froms[i];
    msgs[i].msg_hdr.msg_control = controls_.data() + i * control_bytes_;
    msgs[i].msg_hdr.msg_controllen = control_bytes_;
  }
  const int n = recvmmsg(fd_, msgs, kBatch, MSG_DONTWAIT, nullptr);
  if (n < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return {};
    if (errno == ECONNREFUSED || errno == EHOSTUNREACH || errno == ENETUNREACH) {  // an ICMP error, reported here
      ++counters_.errors[errno_name(errno)];
      return {};
    }
    return "recvmmsg: " + std::string(std::strerror(errno));
  }
  for (int i = 0; i < n; ++i) {
    msghdr& h = msgs[i].msg_hdr;
    if (h.msg_flags & MSG_CTRUNC) {
      return "recvmmsg: control data truncated (MSG_CTRUNC) in a " + std::to_string(control_bytes_) +
             "-byte buffer: the datagram's ECN codepoint may be lost";
    }
    ++counters_.received;
    if (h.msg_flags & MSG_TRUNC) {
      ++counters_.truncated;
      continue;
    }
    Received r;
    r.bytes = {buffers_.data() + i * kMaxDatagram, msgs[i].msg_len};
    r.from = from_sockaddr(froms[i]);
    for (cmsghdr* c = CMSG_FIRSTHDR(&h); c != nullptr; c = CMSG_NXTHDR(&h, c)) {
      if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS && c->cmsg_len >= CMSG_LEN(1)) {
        r.ecn = static_cast<Ecn>(*CMSG_DATA(c) & 0x3);  // one byte (verified on Linux)
      } else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_TCLASS && c->cmsg_len >= CMSG_LEN(sizeof(int))) {
        int tclass = 0;
        std::memcpy(&tclass, CMSG_DATA(c), sizeof tclass);
        r.ecn = static_cast<Ecn>(tclass & 0x3);
      } else if ((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TTL) ||
                 (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_HOPLIMIT)) {
        int ttl = 0;  // an int for both (ip(7), ipv6(7))
        if (c->cmsg_len >= CMSG_LEN(sizeof ttl)) std::memcpy(&ttl, CMSG_DATA(c), sizeof ttl);
        r.ttl = static_cast<uint8_t>(std::clamp(ttl, 0, 255));
      } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
        timespec ts{};
        std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
        r.kernel_realtime_ns = int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
      } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
        uint32_t dropped = 0;
        std::memcpy(&dropped, CMSG_DATA(c), sizeof dropped);
        counters_.kernel_drops += static_cast<uint32_t>(dropped - last_overflow_);
        last_overflow_ = dropped;
      }
    }
    out.push_back(r);
  }
  return {};
}

size_t UdpSocket::gso_run(std::span<const Outgoing> datagrams) const {
  if (!gso_ || datagrams.size() < 2) return 1;
  const Outgoing& first = datagrams[0];
  const size_t size = first.bytes.size();
  size_t n = 1, total = size;
  for (; n < datagrams.size() && n < kMaxGsoSegments; ++n) {
    const Outgoing& d = datagrams[n];
    // Equal segments to the same peer with the same codepoint; only the last may be shorter.
    if (!(d.to == first.to) || d.ecn != first.ecn || d.bytes.size() > size || total + d.bytes.size() > kMaxDatagram)
      break;
    total += d.bytes.size();
    if (d.bytes.size() < size) {
      ++n;
      break;
    }
  }
  return n;
}

void UdpSocket::send(std::span<const Outgoing> datagrams) {
  constexpr size_t kControl = CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(uint16_t));
  size_t done = 0;
  while (done < datagrams.size()) {
    mmsghdr msgs[kBatch] = {};
    iovec iovs[kBatch];
    sockaddr_in v4[kBatch];
    size_t segments[kBatch] = {};
    alignas(cmsghdr) uint8_t controls[kBatch][kControl];
    gso_buffers_.resize(kBatch);
    size_t n = 0, taken = 0;
    for (; n < static_cast<size_t>(kBatch) && done + taken < datagrams.size(); ++n) {
      const std::span<const Outgoing> rest = datagrams.subspan(done + taken);
      segments[n] = gso_run(rest);
      const Outgoing& d = rest[0];
      if (segments[n] == 1) {
        iovs[n] = {const_cast<uint8_t*>(d.bytes.data()), d.bytes.size()};
      } else {  // one buffer for the kernel to cut into segments of the first's size
        std::vector<uint8_t>& buffer = gso_buffers_[n];
        buffer.clear();
        for (size_t k = 0; k < segments[n]; ++k)
          buffer.insert(buffer.end(), rest[k].bytes.begin(), rest[k].bytes.end());
        iovs[n] = {buffer.data(), buffer.size()};
      }
      taken += segments[n];
      msghdr& h = msgs[n].msg_hdr;
      h.msg_iov = &iovs[n];
      h.msg_iovlen = 1;
      if (v6_) {
        h.msg_name = const_cast<sockaddr_in6*>(&d.to.v6);
        h.msg_namelen = sizeof d.to.v6;
      } else {
        v4[n] = {};
        v4[n].sin_family = AF_INET;
        v4[n].sin_port = d.to.v6.sin6_port;
        std::memcpy(&v4[n].sin_addr, &d.to.v6.sin6_addr.s6_addr[12], 4);
        h.msg_name = &v4[n];
        h.msg_namelen = sizeof v4[n];
      }
      std::memset(controls[n], 0, kControl);
      h.msg_control = controls[n];
      h.msg_controllen = segments[n] > 1 ? kControl : CMSG_SPACE(sizeof(int));
      cmsghdr* c = CMSG_FIRSTHDR(&h);
      const bool to_v4 = d.to.is_v4_mapped();  // an IPV6_TCLASS cmsg to a mapped address is ignored
      c->cmsg_level = to_v4 ? IPPROTO_IP : IPPROTO_IPV6;
      c->cmsg_type = to_v4 ? IP_TOS : IPV6_TCLASS;
      c->cmsg_len = CMSG_LEN(sizeof(int));
      const int tos = static_cast<int>(d.ecn);
      std::memcpy(CMSG_DATA(c), &tos, sizeof tos);
      if (segments[n] > 1) {
        c = CMSG_NXTHDR(&h, c);
        c->cmsg_level = SOL_UDP;
        c->cmsg_type = UDP_SEGMENT;
        c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
        const auto segment = static_cast<uint16_t>(d.bytes.size());
        std::memcpy(CMSG_DATA(c), &segment, sizeof segment);
      }
    }
    const int sent = sendmmsg(fd_, msgs, static_cast<unsigned>(n), 0);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (segments[0] > 1 && (errno == EIO || errno == EINVAL)) {  // the kernel or device refuses GSO: send singly
        gso_ = false;
        ++counters_.errors["GSO refused (" + errno_name(errno) + "), off"];
        continue;
      }
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        counters_.send_would_block += static_cast<int64_t>(segments[0]);  // the first message is dropped
      } else {
        ++counters_.errors[errno_name(errno)];
      }
      done += segments[0];
      continue;
    }
    for (int i = 0; i < sent; ++i) {
      counters_.sent += static_cast<int64_t>(segments[i]);
      if (segments[i] > 1) ++counters_.gso_sends;
      done += segments[i];
    }
  }
}

void UdpSocket::read_errors() {
  for (;;) {
    uint8_t data[64];
    alignas(cmsghdr) uint8_t control[256];
    iovec iov{data, sizeof data};
    msghdr h{};
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    h.msg_control = control;
    h.msg_controllen = sizeof control;
    if (recvmsg(fd_, &h, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) return;
    bool named = false;
    for (cmsghdr* c = CMSG_FIRSTHDR(&h); c != nullptr; c = CMSG_NXTHDR(&h, c)) {
      if ((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVERR) ||
          (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_RECVERR)) {
        sock_extended_err e{};
        std::memcpy(&e, CMSG_DATA(c), sizeof e);
        ++counters_.errors[errno_name(static_cast<int>(e.ee_errno))];
        named = true;
      }
    }
    if (!named) ++counters_.errors["unnamed"];
  }
}

}  // namespace mantra::udp
