#include "knee/knee_wire.h"

#include <string>

namespace mantra::knee {
namespace {

// Sequence (24) | type (4) | L (1) | P (1) | C (1) | N (1), as LATP packs its word.
constexpr uint32_t kSeqMask = latp::kSeqMask;
constexpr uint32_t kLossBit = 0x8, kPeriodicBit = 0x4, kTtlChangedBit = 0x2, kNoDelayBit = 0x1;
uint32_t pack_word(const Report& r) {
  return ((r.highest_seq & kSeqMask) << 8) | (uint32_t{kReportType} << 4) | (r.loss_detected ? kLossBit : 0u) |
         (r.periodic ? kPeriodicBit : 0u) | (r.ttl_changed ? kTtlChangedBit : 0u) | (r.no_delay ? kNoDelayBit : 0u);
}

}  // namespace

void encode_data(const DataHeader& h, size_t packet_bytes, std::vector<uint8_t>& out) {
  latp::encode_data(h.latp, latp::kDataHeaderBytes, out);
  Writer w(out);
  w.u64(static_cast<uint64_t>(h.send_time_us));
  w.zeros(packet_bytes > kDataHeaderBytes ? packet_bytes - kDataHeaderBytes : 0);
}

std::vector<uint8_t> encode_report(const Report& r) {
  std::vector<uint8_t> out;
  Writer w(out);
  w.u16(r.src_port);
  w.u16(r.dst_port);
  w.u32(pack_word(r));
  w.u64(static_cast<uint64_t>(r.echo_send_time_us));
  w.u32(r.elapsed_us);
  w.u32(r.interval_us);
  w.u32(r.packets);
  w.u32(r.bytes);
  w.u32(r.ce_packets);
  w.u32(r.losses);
  w.u64(static_cast<uint64_t>(r.owd_min_us));
  w.u64(static_cast<uint64_t>(r.owd_mean_us));
  w.u32(static_cast<uint32_t>(r.r_min_Bps));
  w.u32(r.loss_event_rate_ppb);
  w.u32(uint32_t{r.ttl} << 24 | uint32_t{r.timed_bytes} << 8);
  return out;
}

DecodeResult<DataHeader> decode_data(std::span<const uint8_t> bytes) {
  const auto latp = latp::decode_data(bytes);
  if (!latp) return DecodeResult<DataHeader>::failure("mantra data: " + latp.error());
  Reader r(bytes.subspan(latp::kDataHeaderBytes));
  uint64_t send = 0;
  if (!r.u64(send)) {
    return DecodeResult<DataHeader>::failure("mantra data: truncated header (" + std::to_string(bytes.size()) + " of " +
                                             std::to_string(kDataHeaderBytes) + " bytes)");
  }
  return DataHeader{*latp, static_cast<int64_t>(send)};
}

DecodeResult<Report> decode_report(std::span<const uint8_t> bytes) {
  if (bytes.size() != kReportBytes) {
    return DecodeResult<Report>::failure("mantra report: " + std::to_string(bytes.size()) + " bytes, not " +
                                         std::to_string(kReportBytes));
  }
  Reader r(bytes);
  Report out;
  uint32_t word = 0, r_min = 0, ttl_word = 0;
  uint64_t echo = 0, owd_min = 0, owd_mean = 0;
  r.u16(out.src_port);
  r.u16(out.dst_port);
  r.u32(word);
  r.u64(echo);
  r.u32(out.elapsed_us);
  r.u32(out.interval_us);
  r.u32(out.packets);
  r.u32(out.bytes);
  r.u32(out.ce_packets);
  r.u32(out.losses);
  r.u64(owd_min);
  r.u64(owd_mean);
  r.u32(r_min);
  r.u32(out.loss_event_rate_ppb);
  r.u32(ttl_word);
  const uint8_t type = (word >> 4) & 0xF;
  if (type != kReportType) {
    return DecodeResult<Report>::failure("mantra report: packet type " + std::to_string(type) + " is not a report (" +
                                         std::to_string(kReportType) + ")");
  }
  out.highest_seq = word >> 8;
  out.loss_detected = (word & kLossBit) != 0;
  out.periodic = (word & kPeriodicBit) != 0;
  out.ttl_changed = (word & kTtlChangedBit) != 0;
  out.no_delay = (word & kNoDelayBit) != 0;
  out.ttl = static_cast<uint8_t>(ttl_word >> 24);
  out.timed_bytes = static_cast<uint16_t>(ttl_word >> 8);
  out.echo_send_time_us = static_cast<int64_t>(echo);
  out.owd_min_us = static_cast<int64_t>(owd_min);
  out.owd_mean_us = static_cast<int64_t>(owd_mean);
  out.r_min_Bps = static_cast<int32_t>(r_min);
  if (out.owd_min_us > out.owd_mean_us) {
    return DecodeResult<Report>::failure("mantra report: minimum one-way delay above the mean");
  }
  if (out.packets == 0 && out.bytes != 0) return DecodeResult<Report>::failure("mantra report: bytes without packets");
  if (out.ce_packets > out.packets) return DecodeResult<Report>::failure("mantra report: more CE marks than packets");
  return out;
}

}  // namespace mantra::knee
