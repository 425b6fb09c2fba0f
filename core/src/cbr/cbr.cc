#include "cbr/cbr.h"

#include "common/packet_type.h"

namespace mantra::cbr {

DecodeResult<CbrHeader> decode(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  uint8_t type = 0, reserved8 = 0;
  uint16_t reserved16 = 0;
  uint64_t ts = 0;
  CbrHeader h;
  if (!r.u8(type)) return DecodeResult<CbrHeader>::failure("cbr: empty datagram");
  if (type != static_cast<uint8_t>(PacketType::kCbrData))
    return DecodeResult<CbrHeader>::failure("cbr: unexpected packet type");
  if (!r.u8(reserved8) || !r.u16(reserved16) || !r.u32(h.seq) || !r.u64(ts)) {
    return DecodeResult<CbrHeader>::failure("cbr: truncated header");
  }
  if (ts > static_cast<uint64_t>(INT64_MAX)) return DecodeResult<CbrHeader>::failure("cbr: timestamp out of range");
  h.timestamp = Time::from_us(static_cast<int64_t>(ts));
  return h;
}

std::string CbrSender::parse(const Params& params, CbrConfig& out) {
  ParamReader r(params);
  out.packet_bytes = static_cast<int64_t>(r.get("packet_size", 1000));
  r.require(r.has("rate_bps"), "cbr needs a rate");
  out.rate = Rate::bps(static_cast<int64_t>(r.get("rate_bps", 0)));
  r.require(out.rate > Rate::zero(), "cbr rate must be positive");
  const double ecn = r.get("ecn", 0);
  r.require(ecn == 0 || ecn == 1 || ecn == 2, "ecn must be 0 (Not-ECT), 1 (ECT(1)) or 2 (ECT(0))");
  out.ecn = ecn == 1 ? Ecn::kEct1 : ecn == 2 ? Ecn::kEct0 : Ecn::kNotEct;
  r.require(out.packet_bytes >= static_cast<int64_t>(kHeaderBytes) && out.packet_bytes <= 65507,
            "packet_size must be between 16 and 65507 bytes");
  return r.finish();
}

std::optional<Datagram> CbrSender::poll_transmit(Time now) {
  if (!started_) {
    started_ = true;
    start_ = now;
  }
  if (auto due = poll_timeout(); !due || now < *due) return std::nullopt;
  Datagram d;
  d.seq = next_seq_;
  d.ecn = config_.ecn;
  Writer w(d.bytes);
  w.u8(static_cast<uint8_t>(PacketType::kCbrData));
  w.u8(0);
  w.u16(0);
  w.u32(next_seq_++);
  w.u64(static_cast<uint64_t>(now.us()));
  w.zeros(static_cast<size_t>(config_.packet_bytes) - kHeaderBytes);
  stats_.count_sent(d.bytes.size());
  return d;
}

std::optional<Time> CbrSender::poll_timeout() const {
  if (!started_) return std::nullopt;
  // Packet k leaves at start + k * s/rate, computed from the start to avoid drift.
  return start_ + (Bytes(config_.packet_bytes) / config_.rate) * static_cast<int64_t>(next_seq_);
}

void CbrReceiver::handle_datagram(Time, std::span<const uint8_t> bytes, Ecn ecn) {
  if (!decode(bytes)) {
    ++stats_.datagrams_rejected;
    return;
  }
  stats_.count_received(bytes.size(), ecn);
}

}  // namespace mantra::cbr
