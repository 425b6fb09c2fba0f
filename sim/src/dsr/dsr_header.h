// The DSR header on the air (RFC 4728, section 6, IPv4), written and read
// without ns-3 types so that its decoder can be fuzzed on its own
// (sim/fuzz/dsr_header_fuzz.cc). The header sits between the IP header
// (protocol 48) and the transport header; its sizes are the RFC's, so a
// source route costs on the air what it cost the papers' DSR.
//
//   fixed part        4 bytes: next header, F|reserved, payload length (the options' bytes)
//   Route Request     type 1:   8 + 4n bytes (identification, target, the n nodes recorded
//                               after the initiator, who is the IP source)
//   Route Reply       type 2:   3 + 4n bytes (the route after the requester, to the target)
//   Route Error       type 3:  16 bytes (node unreachable: error source and destination,
//                               the unreachable node, a salvage count)
//   Source Route      type 96:  4 + 4n bytes (the n hops between the IP source and the IP
//                               destination, segments left, salvage count)
//   Pad1 224 / PadN 0         read and skipped (alignment); never written
//
// A header holds at most one Route Request, one Route Reply and one Source
// Route, and up to three Route Errors (ns-2's MAX_ROUTE_ERRORS). Options are
// written in that order; any order is read. Anything else (an unknown option,
// a length that runs past the end, a route longer than ns-2's 16 nodes, an
// error of another type than node unreachable) is refused with a reason.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mantra::sim::dsr {

using Address = uint32_t;  // an IPv4 address, host byte order

inline constexpr uint8_t kIpProtocolDsr = 48;
inline constexpr uint8_t kNoNextHeader = 59;  // a DSR packet that carries no transport payload
inline constexpr size_t kMaxRouteNodes = 16;  // ns-2's MAX_SR_LEN: nodes in any route, ends included
inline constexpr size_t kMaxRouteErrors = 3;  // ns-2's MAX_ROUTE_ERRORS
inline constexpr uint8_t kMaxSalvage = 15;    // the 4-bit field; ns-2's dsr_salvage_max_attempts

struct RouteRequest {
  uint16_t identification = 0;
  Address target = 0;
  std::vector<Address> recorded;  // nodes after the initiator, in order
  bool operator==(const RouteRequest&) const = default;
};

struct RouteReply {
  std::vector<Address> route;  // the nodes after the requester, ending at the target
  bool operator==(const RouteReply&) const = default;
};

struct RouteError {  // type 1, node unreachable
  uint8_t salvage = 0;
  Address error_source = 0;       // the node that found the link broken
  Address error_destination = 0;  // the node to tell
  Address unreachable = 0;        // the node error_source could not reach
  bool operator==(const RouteError&) const = default;
};

struct SourceRoute {
  uint8_t salvage = 0;
  uint8_t segments_left = 0;  // hops listed in `hops` still to be visited
  std::vector<Address> hops;  // between the IP source and the IP destination
  bool operator==(const SourceRoute&) const = default;
};

struct DsrHeader {
  uint8_t next_header = kNoNextHeader;
  std::optional<RouteRequest> request;
  std::optional<RouteReply> reply;
  std::vector<RouteError> errors;
  std::optional<SourceRoute> source_route;

  bool operator==(const DsrHeader&) const = default;
  size_t size_bytes() const;  // on the air, fixed part included
};

std::vector<uint8_t> encode(const DsrHeader& header);

struct Decoded {
  std::optional<DsrHeader> header;  // empty when the bytes are refused
  size_t consumed = 0;              // bytes of header (the transport payload follows)
  std::string error;                // why they were refused
};

// Reads the header at the start of `bytes`; the rest is the payload.
Decoded decode(std::span<const uint8_t> bytes);

}  // namespace mantra::sim::dsr
