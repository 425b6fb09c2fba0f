#include "cbr/cbr.h"

#include <cmath>

#include "common/floor_report.h"
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

std::string CbrReceiver::parse(const Params& params, Config&) {
  ParamReader r(params);
  read_floor_report(r);  // CBR sends no feedback: no report to carry it
  return r.finish();
}

std::string CbrLaw::parse(const Params& params, CbrConfig& out) {
  out = {};  // every parameter not given takes its default
  ParamReader r(params);
  SendingConfig::parse(r, kHeaderBytes, out.sending);
  // At its rate: its own packets, or an application's offered ones (a media
  // trace over a fixed-rate pipe), never a second rate.
  r.require(out.sending.source.kind != SourceKind::kConstant, "cbr sends at its rate: it takes no source_rate_bps");
  r.require(r.has("rate_bps"), "cbr needs a rate");
  out.rate = Rate::bps(static_cast<int64_t>(r.get("rate_bps", 0)));
  r.require(out.rate > Rate::zero(), "cbr rate must be positive");
  const double ecn = r.get("ecn", 0);
  r.require(ecn == 0 || ecn == 1 || ecn == 2, "ecn must be 0 (Not-ECT), 1 (ECT(1)) or 2 (ECT(0))");
  out.ecn = ecn == 1 ? Ecn::kEct1 : ecn == 2 ? Ecn::kEct0 : Ecn::kNotEct;
  out.interval_jitter = r.get("interval_jitter", 0);
  r.require(out.interval_jitter >= 0 && out.interval_jitter < 1, "interval_jitter must be at least 0 and below 1");
  const double seed = r.get("jitter_seed", 0);
  const bool whole = seed >= 0 && seed < 0x1.0p53 && seed == std::floor(seed);
  r.require(whole, "jitter_seed must be a whole number from 0 to 2^53 - 1");
  out.jitter_seed = whole ? static_cast<uint64_t>(seed) : 0;
  return r.finish();
}

Duration CbrLaw::next_gap(Duration nominal) {
  if (config_.interval_jitter == 0) return nominal;
  return nominal * (1 + config_.interval_jitter * (2 * jitter_.uniform01() - 1));
}

void CbrLaw::write_data(const DataStamp& stamp, const SendState& /*state*/, std::vector<uint8_t>& out) {
  Writer w(out);
  w.u8(static_cast<uint8_t>(PacketType::kCbrData));
  w.u8(0);
  w.u16(0);
  w.u32(stamp.seq);
  w.u64(static_cast<uint64_t>(stamp.now.us()));
  w.zeros(static_cast<size_t>(stamp.bytes) - kHeaderBytes);
}

void CbrReceiver::handle_datagram(Time, std::span<const uint8_t> bytes, Ecn ecn) {
  if (!decode(bytes)) {
    ++stats_.datagrams_rejected;
    return;
  }
  stats_.count_received(bytes.size(), ecn);
}

}  // namespace mantra::cbr
