#include "dsr/dsr_header.h"

#include <cassert>

namespace mantra::sim::dsr {
namespace {

enum OptionType : uint8_t {
  kPadN = 0,
  kRequest = 1,
  kReply = 2,
  kError = 3,
  kSourceRoute = 96,
  kPad1 = 224,
};
constexpr uint8_t kNodeUnreachable = 1;
constexpr size_t kFixedBytes = 4;
constexpr size_t kRequestFixedBytes = 8;  // type, length, identification, target
constexpr size_t kReplyFixedBytes = 3;    // type, length, L|reserved
constexpr size_t kErrorBytes = 16;        // type, length, error type, reserved|salvage, 3 addresses
constexpr size_t kSourceRouteFixedBytes = 4;
// The most nodes an option may list: a route has at most kMaxRouteNodes, one
// of which (the initiator, the requester or the IP source) the option omits.
constexpr size_t kMaxListed = kMaxRouteNodes - 1;

void put16(std::vector<uint8_t>& out, uint16_t v) {
  out.push_back(static_cast<uint8_t>(v >> 8));
  out.push_back(static_cast<uint8_t>(v));
}

void put32(std::vector<uint8_t>& out, Address v) {
  put16(out, static_cast<uint16_t>(v >> 16));
  put16(out, static_cast<uint16_t>(v));
}

void put_addresses(std::vector<uint8_t>& out, const std::vector<Address>& addresses) {
  for (Address a : addresses) put32(out, a);
}

uint8_t option_length(size_t total_bytes) {  // the Opt Data Len field: bytes after type and length
  assert(total_bytes >= 2 && total_bytes - 2 <= 255);
  return static_cast<uint8_t>(total_bytes - 2);
}

// Reads big-endian fields from one option's data.
class Reader {
 public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  uint8_t u8() { return bytes_[at_++]; }
  uint16_t u16() {
    const uint16_t hi = u8();
    return static_cast<uint16_t>(hi << 8 | u8());
  }
  Address u32() {
    const Address hi = u16();
    return hi << 16 | u16();
  }
  std::vector<Address> addresses(size_t n) {
    std::vector<Address> out(n);
    for (Address& a : out) a = u32();
    return out;
  }

 private:
  std::span<const uint8_t> bytes_;
  size_t at_ = 0;
};

// The addresses an option of `data_bytes` after its `fixed` data bytes lists,
// or an error.
std::optional<size_t> listed(size_t data_bytes, size_t fixed_data_bytes) {
  if (data_bytes < fixed_data_bytes || (data_bytes - fixed_data_bytes) % 4 != 0) return std::nullopt;
  return (data_bytes - fixed_data_bytes) / 4;
}

// One option's data (after type and length) into `header`; an error text or "".
std::string read_option(uint8_t type, std::span<const uint8_t> data, DsrHeader& header) {
  Reader r(data);
  switch (type) {
    case kRequest: {
      const auto n = listed(data.size(), kRequestFixedBytes - 2);
      if (!n) return "route request: length " + std::to_string(data.size()) + " is not 6 + 4n";
      if (*n > kMaxListed - 1) return "route request: records " + std::to_string(*n) + " nodes, at most 14";
      if (header.request) return "two route requests";
      RouteRequest request;
      request.identification = r.u16();
      request.target = r.u32();
      request.recorded = r.addresses(*n);
      header.request = std::move(request);
      return "";
    }
    case kReply: {
      const auto n = listed(data.size(), kReplyFixedBytes - 2);
      if (!n || *n == 0) return "route reply: length " + std::to_string(data.size()) + " is not 1 + 4n, n >= 1";
      if (*n > kMaxListed) return "route reply: lists " + std::to_string(*n) + " nodes, at most 15";
      if (header.reply) return "two route replies";
      r.u8();  // L (last hop external) and reserved: always 0 here
      header.reply = RouteReply{r.addresses(*n)};
      return "";
    }
    case kError: {
      if (data.size() != kErrorBytes - 2) return "route error: length " + std::to_string(data.size()) + ", not 14";
      if (header.errors.size() == kMaxRouteErrors) return "more than 3 route errors";
      if (r.u8() != kNodeUnreachable) return "route error: type other than node unreachable";
      RouteError e;
      e.salvage = r.u8() & 0x0f;
      e.error_source = r.u32();
      e.error_destination = r.u32();
      e.unreachable = r.u32();
      header.errors.push_back(e);
      return "";
    }
    case kSourceRoute: {
      const auto n = listed(data.size(), kSourceRouteFixedBytes - 2);
      if (!n) return "source route: length " + std::to_string(data.size()) + " is not 2 + 4n";
      if (*n > kMaxListed - 1) return "source route: lists " + std::to_string(*n) + " hops, at most 14";
      if (header.source_route) return "two source routes";
      const uint16_t flags = r.u16();  // F, L, 4 reserved, 4 salvage, 6 segments left
      SourceRoute route;
      route.salvage = static_cast<uint8_t>(flags >> 6 & 0x0f);
      route.segments_left = static_cast<uint8_t>(flags & 0x3f);
      if (route.segments_left > *n) return "source route: segments left exceeds the hops listed";
      route.hops = r.addresses(*n);
      header.source_route = std::move(route);
      return "";
    }
    case kPadN:
      return "";
    default:
      return "unknown option type " + std::to_string(type);
  }
}

}  // namespace

size_t DsrHeader::size_bytes() const {
  size_t bytes = kFixedBytes;
  if (request) bytes += kRequestFixedBytes + 4 * request->recorded.size();
  if (reply) bytes += kReplyFixedBytes + 4 * reply->route.size();
  bytes += kErrorBytes * errors.size();
  if (source_route) bytes += kSourceRouteFixedBytes + 4 * source_route->hops.size();
  return bytes;
}

std::vector<uint8_t> encode(const DsrHeader& header) {
  std::vector<uint8_t> out;
  out.reserve(header.size_bytes());
  out.push_back(header.next_header);
  out.push_back(0);  // F (flow state) and reserved
  put16(out, static_cast<uint16_t>(header.size_bytes() - kFixedBytes));
  if (header.request) {
    out.push_back(kRequest);
    out.push_back(option_length(kRequestFixedBytes + 4 * header.request->recorded.size()));
    put16(out, header.request->identification);
    put32(out, header.request->target);
    put_addresses(out, header.request->recorded);
  }
  if (header.reply) {
    out.push_back(kReply);
    out.push_back(option_length(kReplyFixedBytes + 4 * header.reply->route.size()));
    out.push_back(0);
    put_addresses(out, header.reply->route);
  }
  for (const RouteError& e : header.errors) {
    out.push_back(kError);
    out.push_back(option_length(kErrorBytes));
    out.push_back(kNodeUnreachable);
    out.push_back(e.salvage & 0x0f);
    put32(out, e.error_source);
    put32(out, e.error_destination);
    put32(out, e.unreachable);
  }
  if (header.source_route) {
    const SourceRoute& sr = *header.source_route;
    assert(sr.segments_left <= sr.hops.size());
    out.push_back(kSourceRoute);
    out.push_back(option_length(kSourceRouteFixedBytes + 4 * sr.hops.size()));
    put16(out, static_cast<uint16_t>((sr.salvage & 0x0f) << 6 | (sr.segments_left & 0x3f)));
    put_addresses(out, sr.hops);
  }
  assert(out.size() == header.size_bytes());
  return out;
}

Decoded decode(std::span<const uint8_t> bytes) {
  Decoded d;
  if (bytes.size() < kFixedBytes) {
    d.error = "shorter than the 4-byte fixed header";
    return d;
  }
  if (bytes[1] & 0x80) {
    d.error = "flow state header (F set) is not supported";
    return d;
  }
  const size_t options_bytes = static_cast<size_t>(bytes[2]) << 8 | bytes[3];
  if (kFixedBytes + options_bytes > bytes.size()) {
    d.error = "payload length " + std::to_string(options_bytes) + " runs past the packet's end";
    return d;
  }
  DsrHeader header;
  header.next_header = bytes[0];
  std::span<const uint8_t> options = bytes.subspan(kFixedBytes, options_bytes);
  while (!options.empty()) {
    const uint8_t type = options[0];
    if (type == kPad1) {
      options = options.subspan(1);
      continue;
    }
    if (options.size() < 2 || 2 + static_cast<size_t>(options[1]) > options.size()) {
      d.error = "option " + std::to_string(type) + " runs past the options' end";
      return d;
    }
    const size_t data_bytes = options[1];
    if (std::string error = read_option(type, options.subspan(2, data_bytes), header); !error.empty()) {
      d.error = std::move(error);
      return d;
    }
    options = options.subspan(2 + data_bytes);
  }
  d.header = std::move(header);
  d.consumed = kFixedBytes + options_bytes;
  return d;
}

}  // namespace mantra::sim::dsr
