// A UDP endpoint's address: "HOST:PORT", "[V6]:PORT" or ":PORT", parsed into
// the form a dual-stack IPv6 socket uses (an IPv4 address as ::ffff:a.b.c.d),
// and back to text.
#pragma once

#include <netinet/in.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace mantra::udp {

struct Address {
  sockaddr_in6 v6{};  // AF_INET6; IPv4 addresses mapped

  bool is_v4_mapped() const;
  uint16_t port() const;
  std::string text() const;  // "1.2.3.4:5" or "[::1]:5"
  bool operator==(const Address& o) const;
};

struct ParsedAddress {
  Address address;
  std::string error;  // one line; empty when parsed
};

// Numeric hosts only (no name lookup): an IPv4 or IPv6 literal, "localhost",
// or nothing before the colon (any address, for binding).
ParsedAddress parse_address(std::string_view text);

// [::]:port: any address, IPv4 and IPv6 alike on a dual-stack socket.
Address any_address(uint16_t port);

// The sender side of a datagram from recvmsg, as an Address.
Address from_sockaddr(const sockaddr_storage& from);

}  // namespace mantra::udp
