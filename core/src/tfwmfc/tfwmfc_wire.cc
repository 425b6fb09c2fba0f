#include "tfwmfc/tfwmfc_wire.h"

#include "common/packet_type.h"

namespace mantra::tfwmfc {
namespace {

// A timestamp in µs that fits the signed clock, or nullopt.
std::optional<Time> time_of(uint64_t us) {
  if (us > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return Time::from_us(static_cast<int64_t>(us));
}

bool has_type(std::span<const uint8_t> bytes, PacketType type) {
  return !bytes.empty() && bytes[0] == static_cast<uint8_t>(type);
}

}  // namespace

std::optional<Kind> peek_kind(std::span<const uint8_t> bytes) {
  if (has_type(bytes, PacketType::kTfwmfcData)) return Kind::kData;
  if (has_type(bytes, PacketType::kTfwmfcSenderReport)) return Kind::kSenderReport;
  if (has_type(bytes, PacketType::kTfwmfcReceiverReport)) return Kind::kReceiverReport;
  return std::nullopt;
}

std::vector<uint8_t> encode_data(const DataHeader& h, size_t packet_bytes) {
  std::vector<uint8_t> out;
  out.reserve(packet_bytes);
  Writer w(out);
  w.u8(static_cast<uint8_t>(PacketType::kTfwmfcData));
  w.u8(0);
  w.u16(0);
  w.u32(h.seq);
  w.u64(static_cast<uint64_t>(h.timestamp.us()));
  if (packet_bytes > w.size()) w.zeros(packet_bytes - w.size());
  return out;
}

DecodeResult<DataHeader> decode_data(std::span<const uint8_t> bytes) {
  using Result = DecodeResult<DataHeader>;
  if (!has_type(bytes, PacketType::kTfwmfcData)) return Result::failure("tfwmfc: not a data packet");
  Reader r(bytes);
  uint8_t type = 0, reserved8 = 0;
  uint16_t reserved16 = 0;
  uint64_t ts = 0;
  DataHeader h;
  if (!r.u8(type) || !r.u8(reserved8) || !r.u16(reserved16) || !r.u32(h.seq) || !r.u64(ts))
    return Result::failure("tfwmfc: truncated data header");
  const auto t = time_of(ts);
  if (!t) return Result::failure("tfwmfc: timestamp out of range");
  h.timestamp = *t;
  return h;
}

std::vector<uint8_t> encode_sender_report(const SenderReport& sr) {
  std::vector<uint8_t> out;
  Writer w(out);
  w.u8(static_cast<uint8_t>(PacketType::kTfwmfcSenderReport));
  w.u8(0);
  w.u16(0);
  w.u64(static_cast<uint64_t>(sr.t_s.us()));
  return out;
}

DecodeResult<SenderReport> decode_sender_report(std::span<const uint8_t> bytes) {
  using Result = DecodeResult<SenderReport>;
  if (!has_type(bytes, PacketType::kTfwmfcSenderReport)) return Result::failure("tfwmfc: not a sender report");
  Reader r(bytes);
  uint8_t type = 0, reserved8 = 0;
  uint16_t reserved16 = 0;
  uint64_t ts = 0;
  if (!r.u8(type) || !r.u8(reserved8) || !r.u16(reserved16) || !r.u64(ts))
    return Result::failure("tfwmfc: truncated sender report");
  const auto t = time_of(ts);
  if (!t) return Result::failure("tfwmfc: sender report timestamp out of range");
  return SenderReport{*t};
}

std::vector<uint8_t> encode_receiver_report(const ReceiverReport& rr) {
  std::vector<uint8_t> out;
  Writer w(out);
  w.u8(static_cast<uint8_t>(PacketType::kTfwmfcReceiverReport));
  w.u8(rr.t_s ? 1 : 0);
  w.u16(0);
  w.u32(rr.n_pkt);
  w.u32(rr.n_marked);
  w.u32(rr.n_lost);
  w.u64(rr.t_s ? static_cast<uint64_t>(rr.t_s->us()) : 0);
  const int64_t t_d = rr.t_d.us();
  w.u32(static_cast<uint32_t>(t_d < 0 ? 0 : t_d > UINT32_MAX ? UINT32_MAX : t_d));
  w.u32(0);
  return out;
}

DecodeResult<ReceiverReport> decode_receiver_report(std::span<const uint8_t> bytes) {
  using Result = DecodeResult<ReceiverReport>;
  if (!has_type(bytes, PacketType::kTfwmfcReceiverReport)) return Result::failure("tfwmfc: not a receiver report");
  Reader r(bytes);
  uint8_t type = 0, flags = 0;
  uint16_t reserved16 = 0;
  uint64_t ts = 0;
  uint32_t t_d = 0, reserved32 = 0;
  ReceiverReport rr;
  if (!r.u8(type) || !r.u8(flags) || !r.u16(reserved16) || !r.u32(rr.n_pkt) || !r.u32(rr.n_marked) ||
      !r.u32(rr.n_lost) || !r.u64(ts) || !r.u32(t_d) || !r.u32(reserved32))
    return Result::failure("tfwmfc: truncated receiver report");
  if (rr.n_marked > rr.n_pkt) return Result::failure("tfwmfc: more marked packets than received");
  if (flags & 1) {
    const auto t = time_of(ts);
    if (!t) return Result::failure("tfwmfc: echoed timestamp out of range");
    rr.t_s = *t;
  }
  rr.t_d = Duration::micros(t_d);
  return rr;
}

}  // namespace mantra::tfwmfc
