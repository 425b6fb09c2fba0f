#include "tfrc/tfrc_wire.h"

#include <cmath>
#include <string>

#include "common/packet_type.h"

namespace mantra::tfrc {
namespace {

// Reads type, options length and the reserved field of both packet kinds.
bool read_prefix(Reader& r, PacketType expected, uint8_t& options_len, std::string& error) {
  uint8_t type = 0;
  uint16_t reserved = 0;
  if (!r.u8(type)) {
    error = "empty datagram";
    return false;
  }
  if (type != static_cast<uint8_t>(expected)) {
    error = "unexpected packet type " + std::to_string(type);
    return false;
  }
  if (!r.u8(options_len) || !r.u16(reserved)) {
    error = "truncated fixed header";
    return false;
  }
  return true;
}

void write_prefix(Writer& w, PacketType type, const std::vector<WireOption>& options) {
  size_t len = 0;
  for (const auto& o : options) len += 2 + o.value.size();
  w.u8(static_cast<uint8_t>(type));
  w.u8(static_cast<uint8_t>(len));
  w.u16(0);
}

}  // namespace

std::vector<uint8_t> encode_data(const DataHeader& h, size_t packet_bytes) {
  std::vector<uint8_t> out;
  out.reserve(packet_bytes);
  Writer w(out);
  write_prefix(w, PacketType::kTfrcData, h.options);
  w.u32(h.seq);
  w.u64(static_cast<uint64_t>(h.timestamp.us()));
  w.u32(static_cast<uint32_t>(h.sender_rtt.us()));
  encode_options(h.options, w);
  if (w.size() < packet_bytes) w.zeros(packet_bytes - w.size());
  return out;
}

DecodeResult<DataHeader> decode_data(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  std::string error;
  uint8_t options_len = 0;
  if (!read_prefix(r, PacketType::kTfrcData, options_len, error)) {
    return DecodeResult<DataHeader>::failure("tfrc data: " + error);
  }
  DataHeader h;
  uint64_t ts = 0;
  uint32_t rtt = 0;
  if (!r.u32(h.seq) || !r.u64(ts) || !r.u32(rtt))
    return DecodeResult<DataHeader>::failure("tfrc data: truncated fixed header");
  if (ts > static_cast<uint64_t>(INT64_MAX))
    return DecodeResult<DataHeader>::failure("tfrc data: timestamp out of range");
  h.timestamp = Time::from_us(static_cast<int64_t>(ts));
  h.sender_rtt = Duration::micros(rtt);
  auto options = decode_options(r, options_len);
  if (!options) return DecodeResult<DataHeader>::failure("tfrc data: " + options.error());
  h.options = options.value();
  return h;  // the rest is payload
}

std::vector<uint8_t> encode_feedback(const Feedback& f) {
  std::vector<uint8_t> out;
  Writer w(out);
  write_prefix(w, PacketType::kTfrcFeedback, f.options);
  w.u64(static_cast<uint64_t>(f.t_recvdata.us()));
  w.u32(static_cast<uint32_t>(f.t_delay.us()));
  w.u32(f.x_recv_bytes_per_s);
  w.u32(static_cast<uint32_t>(std::llround(f.p * kLossRateScale)));
  w.u32(f.highest_seq);
  encode_options(f.options, w);
  return out;
}

DecodeResult<Feedback> decode_feedback(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  std::string error;
  uint8_t options_len = 0;
  if (!read_prefix(r, PacketType::kTfrcFeedback, options_len, error)) {
    return DecodeResult<Feedback>::failure("tfrc feedback: " + error);
  }
  Feedback f;
  uint64_t ts = 0;
  uint32_t delay = 0, p_ppb = 0;
  if (!r.u64(ts) || !r.u32(delay) || !r.u32(f.x_recv_bytes_per_s) || !r.u32(p_ppb) || !r.u32(f.highest_seq)) {
    return DecodeResult<Feedback>::failure("tfrc feedback: truncated fixed fields");
  }
  if (ts > static_cast<uint64_t>(INT64_MAX))
    return DecodeResult<Feedback>::failure("tfrc feedback: timestamp out of range");
  if (p_ppb > kLossRateScale) return DecodeResult<Feedback>::failure("tfrc feedback: loss event rate above 1");
  f.t_recvdata = Time::from_us(static_cast<int64_t>(ts));
  f.t_delay = Duration::micros(delay);
  f.p = p_ppb / kLossRateScale;
  auto options = decode_options(r, options_len);
  if (!options) return DecodeResult<Feedback>::failure("tfrc feedback: " + options.error());
  f.options = options.value();
  if (r.remaining() != 0) return DecodeResult<Feedback>::failure("tfrc feedback: trailing bytes");
  return f;
}

}  // namespace mantra::tfrc
