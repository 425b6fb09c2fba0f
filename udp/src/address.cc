#include "address.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>

namespace mantra::udp {

bool Address::is_v4_mapped() const { return IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr); }

uint16_t Address::port() const { return ntohs(v6.sin6_port); }

std::string Address::text() const {
  char host[INET6_ADDRSTRLEN] = {};
  if (is_v4_mapped()) {
    inet_ntop(AF_INET, &v6.sin6_addr.s6_addr[12], host, sizeof host);
    return std::string(host) + ":" + std::to_string(port());
  }
  inet_ntop(AF_INET6, &v6.sin6_addr, host, sizeof host);
  return "[" + std::string(host) + "]:" + std::to_string(port());
}

bool Address::operator==(const Address& o) const {
  return v6.sin6_port == o.v6.sin6_port && std::memcmp(&v6.sin6_addr, &o.v6.sin6_addr, sizeof v6.sin6_addr) == 0;
}

ParsedAddress parse_address(std::string_view text) {
  ParsedAddress out;
  const auto fail = [&](const std::string& why) {
    out.error = "address '" + std::string(text) + "': " + why;
    return out;
  };
  std::string_view host, port;
  if (!text.empty() && text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
      return fail("an IPv6 address is written [ADDR]:PORT");
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) return fail("expected HOST:PORT");
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) return fail("an IPv6 address is written [ADDR]:PORT");
  }
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || value > 65535)
    return fail("the port must be a number from 0 to 65535");
  sockaddr_in6& a = out.address.v6;
  a.sin6_family = AF_INET6;
  a.sin6_port = htons(static_cast<uint16_t>(value));
  const std::string h = host == "localhost" ? "127.0.0.1" : std::string(host);
  if (h.empty()) {
    a.sin6_addr = in6addr_any;
    return out;
  }
  in_addr v4{};
  if (inet_pton(AF_INET, h.c_str(), &v4) == 1) {
    a.sin6_addr.s6_addr[10] = 0xff;
    a.sin6_addr.s6_addr[11] = 0xff;
    std::memcpy(&a.sin6_addr.s6_addr[12], &v4, 4);
    return out;
  }
  if (inet_pton(AF_INET6, h.c_str(), &a.sin6_addr) == 1) return out;
  return fail("'" + h + "' is not an IPv4 or IPv6 address (no name lookup)");
}

Address any_address(uint16_t port) {
  Address a;
  a.v6.sin6_family = AF_INET6;
  a.v6.sin6_addr = in6addr_any;
  a.v6.sin6_port = htons(port);
  return a;
}

Address from_sockaddr(const sockaddr_storage& from) {
  Address out;
  out.v6.sin6_family = AF_INET6;
  if (from.ss_family == AF_INET6) {
    const auto& s = reinterpret_cast<const sockaddr_in6&>(from);
    out.v6.sin6_addr = s.sin6_addr;
    out.v6.sin6_port = s.sin6_port;
  } else if (from.ss_family == AF_INET) {
    const auto& s = reinterpret_cast<const sockaddr_in&>(from);
    out.v6.sin6_addr.s6_addr[10] = 0xff;
    out.v6.sin6_addr.s6_addr[11] = 0xff;
    std::memcpy(&out.v6.sin6_addr.s6_addr[12], &s.sin_addr, 4);
    out.v6.sin6_port = s.sin_port;
  }
  return out;
}

}  // namespace mantra::udp
