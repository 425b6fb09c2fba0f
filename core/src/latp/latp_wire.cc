#include "latp/latp_wire.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace mantra::latp {
namespace {

// Sequence (24) | type (4) | flag (1) | reserved (3), as one 32-bit word.
uint32_t pack_word(uint32_t seq, LatpType type, bool flag) {
  return ((seq & kSeqMask) << 8) | (static_cast<uint32_t>(type) << 4) | (flag ? 0x8u : 0u);
}

struct Word {
  uint32_t seq;
  uint8_t type;
  bool flag;
};
Word unpack_word(uint32_t w) { return {w >> 8, static_cast<uint8_t>((w >> 4) & 0xF), (w & 0x8u) != 0}; }

void put_i32(Writer& w, int32_t v) { w.u32(static_cast<uint32_t>(v)); }
int32_t as_i32(uint32_t v) { return static_cast<int32_t>(v); }

}  // namespace

void encode_data(const DataHeader& h, size_t packet_bytes, std::vector<uint8_t>& out) {
  Writer w(out);
  w.u16(h.src_port);
  w.u16(h.dst_port);
  w.u32(pack_word(h.seq, LatpType::kData, h.urgent));
  w.u16(h.timestamp_ms);
  w.u16(h.rtt_ms);
  put_i32(w, h.rate_feedback_Bps);
  w.zeros(packet_bytes > kDataHeaderBytes ? packet_bytes - kDataHeaderBytes : 0);
}

std::vector<uint8_t> encode_feedback(const Feedback& f) {
  std::vector<uint8_t> out;
  Writer w(out);
  w.u16(f.src_port);
  w.u16(f.dst_port);
  w.u32(pack_word(f.feedback_id, LatpType::kFeedback, f.loss_detected));
  w.u16(f.timestamp_echo_ms);
  w.u16(f.elapsed_ms);
  put_i32(w, f.rate_feedback_Bps);
  w.u32(f.receive_rate_Bps);
  if (f.floor_loss_ppb) w.u32(*f.floor_loss_ppb);
  return out;
}

int64_t extend_sequence(uint32_t wire, int64_t highest) {
  if (highest < 0) return wire;
  constexpr int64_t kSpan = int64_t{1} << 24;
  const int64_t base = highest & ~(kSpan - 1);
  int64_t best = base + wire;
  for (int64_t candidate : {base - kSpan + wire, base + kSpan + wire}) {
    if (candidate >= 0 && std::llabs(candidate - highest) < std::llabs(best - highest)) best = candidate;
  }
  return best;
}

std::optional<LatpType> peek_type(std::span<const uint8_t> bytes) {
  if (bytes.size() < 8) return std::nullopt;
  return static_cast<LatpType>((bytes[7] >> 4) & 0xF);
}

DecodeResult<DataHeader> decode_data(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  DataHeader h;
  uint32_t word = 0, rate = 0;
  r.u16(h.src_port);
  r.u16(h.dst_port);
  r.u32(word);
  r.u16(h.timestamp_ms);
  r.u16(h.rtt_ms);
  r.u32(rate);
  if (!r.ok())
    return DecodeResult<DataHeader>::failure("latp data: truncated header (" + std::to_string(bytes.size()) +
                                             " of 16 bytes)");
  const Word wd = unpack_word(word);
  if (wd.type != static_cast<uint8_t>(LatpType::kData)) {
    return DecodeResult<DataHeader>::failure("latp data: packet type " + std::to_string(wd.type) + " is not data (1)");
  }
  h.seq = wd.seq;
  h.urgent = wd.flag;
  h.rate_feedback_Bps = as_i32(rate);
  return h;
}

DecodeResult<Feedback> decode_feedback(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  Feedback f;
  uint32_t word = 0, rate = 0;
  r.u16(f.src_port);
  r.u16(f.dst_port);
  r.u32(word);
  r.u16(f.timestamp_echo_ms);
  r.u16(f.elapsed_ms);
  r.u32(rate);
  r.u32(f.receive_rate_Bps);
  if (!r.ok())
    return DecodeResult<Feedback>::failure("latp feedback: truncated (" + std::to_string(bytes.size()) +
                                           " of 20 bytes)");
  const Word wd = unpack_word(word);
  if (wd.type != static_cast<uint8_t>(LatpType::kFeedback)) {
    return DecodeResult<Feedback>::failure("latp feedback: packet type " + std::to_string(wd.type) +
                                           " is not feedback (2)");
  }
  f.feedback_id = wd.seq;
  f.loss_detected = wd.flag;
  f.rate_feedback_Bps = as_i32(rate);
  if (r.remaining() == 4) {
    uint32_t ppb = 0;
    r.u32(ppb);
    f.floor_loss_ppb = ppb;
  } else if (r.remaining() != 0) {
    return DecodeResult<Feedback>::failure("latp feedback: " + std::to_string(r.remaining()) +
                                           " bytes after the 20 (0, or 4 of the floor report)");
  }
  return f;
}

bool stamp_rate_feedback(std::span<uint8_t> bytes, double permissible_Bps) {
  if (bytes.size() < kDataHeaderBytes || peek_type(bytes) != LatpType::kData) return false;
  const auto clamped = static_cast<int32_t>(
      std::clamp(std::floor(permissible_Bps), static_cast<double>(INT32_MIN), static_cast<double>(INT32_MAX)));
  std::span<uint8_t> field = bytes.subspan(kRateFieldOffset, 4);
  const int32_t current =
      as_i32((uint32_t{field[0]} << 24) | (uint32_t{field[1]} << 16) | (uint32_t{field[2]} << 8) | field[3]);
  if (clamped >= current) return false;
  const auto u = static_cast<uint32_t>(clamped);
  for (int i = 0; i < 4; ++i) field[static_cast<size_t>(i)] = static_cast<uint8_t>(u >> (24 - 8 * i));
  return true;
}

}  // namespace mantra::latp
