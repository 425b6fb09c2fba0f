#include "aodv/aodv_messages.h"

namespace mantra::sim::aodv {

namespace {

enum Type : uint8_t { kRequest = 1, kReply = 2, kError = 3 };

// Request flags (byte 1).
constexpr uint8_t kJoin = 0x80, kRepair = 0x40, kGratuitous = 0x20, kDestinationOnly = 0x10, kUnknownSeqno = 0x08;
// Reply flags (byte 1) and the prefix size (the low 5 bits of byte 2).
constexpr uint8_t kReplyRepair = 0x80, kAckRequired = 0x40, kPrefixMask = 0x1f;
// Error flag (byte 1).
constexpr uint8_t kNoDelete = 0x80;

void put32(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

uint32_t get32(std::span<const uint8_t> b, size_t at) {
  return static_cast<uint32_t>(b[at]) << 24 | static_cast<uint32_t>(b[at + 1]) << 16 |
         static_cast<uint32_t>(b[at + 2]) << 8 | b[at + 3];
}

uint8_t flag(bool on, uint8_t bit) { return on ? bit : 0; }

Decoded refuse(std::string why) { return {std::nullopt, std::move(why)}; }

}  // namespace

size_t size_bytes(const Message& message) {
  if (std::holds_alternative<RouteRequest>(message)) return kRequestBytes;
  if (std::holds_alternative<RouteReply>(message)) return kReplyBytes;
  return kErrorFixedBytes + kErrorDestinationBytes * std::get<RouteError>(message).unreachable.size();
}

std::vector<uint8_t> encode(const Message& message) {
  std::vector<uint8_t> out;
  out.reserve(size_bytes(message));
  if (const auto* q = std::get_if<RouteRequest>(&message)) {
    out.push_back(kRequest);
    out.push_back(flag(q->join, kJoin) | flag(q->repair, kRepair) | flag(q->gratuitous, kGratuitous) |
                  flag(q->destination_only, kDestinationOnly) | flag(q->unknown_seqno, kUnknownSeqno));
    out.push_back(0);
    out.push_back(q->hop_count);
    put32(out, q->id);
    put32(out, q->destination);
    put32(out, q->destination_seqno);
    put32(out, q->originator);
    put32(out, q->originator_seqno);
  } else if (const auto* p = std::get_if<RouteReply>(&message)) {
    out.push_back(kReply);
    out.push_back(flag(p->repair, kReplyRepair) | flag(p->ack_required, kAckRequired));
    out.push_back(p->prefix_size & kPrefixMask);
    out.push_back(p->hop_count);
    put32(out, p->destination);
    put32(out, p->destination_seqno);
    put32(out, p->originator);
    put32(out, p->lifetime_ms);
  } else {
    const auto& e = std::get<RouteError>(message);
    out.push_back(kError);
    out.push_back(flag(e.no_delete, kNoDelete));
    out.push_back(0);
    out.push_back(static_cast<uint8_t>(e.unreachable.size()));
    for (const auto& [destination, seqno] : e.unreachable) {
      put32(out, destination);
      put32(out, seqno);
    }
  }
  return out;
}

Decoded decode(std::span<const uint8_t> b) {
  if (b.empty()) return refuse("empty");
  switch (b[0]) {
    case kRequest: {
      if (b.size() != kRequestBytes) return refuse("a route request is 24 bytes, not " + std::to_string(b.size()));
      RouteRequest q;
      q.join = b[1] & kJoin;
      q.repair = b[1] & kRepair;
      q.gratuitous = b[1] & kGratuitous;
      q.destination_only = b[1] & kDestinationOnly;
      q.unknown_seqno = b[1] & kUnknownSeqno;
      q.hop_count = b[3];
      q.id = get32(b, 4);
      q.destination = get32(b, 8);
      q.destination_seqno = get32(b, 12);
      q.originator = get32(b, 16);
      q.originator_seqno = get32(b, 20);
      return {q, {}};
    }
    case kReply: {
      if (b.size() != kReplyBytes) return refuse("a route reply is 20 bytes, not " + std::to_string(b.size()));
      RouteReply p;
      p.repair = b[1] & kReplyRepair;
      p.ack_required = b[1] & kAckRequired;
      p.prefix_size = b[2] & kPrefixMask;
      p.hop_count = b[3];
      p.destination = get32(b, 4);
      p.destination_seqno = get32(b, 8);
      p.originator = get32(b, 12);
      p.lifetime_ms = get32(b, 16);
      return {p, {}};
    }
    case kError: {
      if (b.size() < kErrorFixedBytes) return refuse("a route error is cut short");
      const size_t count = b[3];
      if (count == 0) return refuse("a route error names no destination");
      if (b.size() != kErrorFixedBytes + kErrorDestinationBytes * count) {
        return refuse("a route error of " + std::to_string(count) + " destinations is " +
                      std::to_string(kErrorFixedBytes + kErrorDestinationBytes * count) + " bytes, not " +
                      std::to_string(b.size()));
      }
      RouteError e;
      e.no_delete = b[1] & kNoDelete;
      for (size_t i = 0; i < count; ++i) {
        const size_t at = kErrorFixedBytes + kErrorDestinationBytes * i;
        e.unreachable.emplace_back(get32(b, at), get32(b, at + 4));
      }
      return {e, {}};
    }
    default:
      return refuse("message type " + std::to_string(b[0]) + " is not a route request, reply or error");
  }
}

}  // namespace mantra::sim::aodv
