#include "adtfrc/adtfrc_wire.h"

#include <cstdint>
#include <string>

#include "common/packet_type.h"

namespace mantra::adtfrc {
namespace {

constexpr uint8_t kStateMask = 0x03;
constexpr uint8_t kUrgentBit = 0x80;

}  // namespace

WireOption encode_state_option(const StateReport& report) {
  const uint8_t bits = static_cast<uint8_t>(static_cast<uint8_t>(report.state) | (report.urgent ? kUrgentBit : 0));
  return WireOption{kStateOptionType, {bits}};
}

std::optional<StateReport> find_state_option(const std::vector<WireOption>& options) {
  for (const auto& o : options) {
    if (o.type != kStateOptionType) continue;
    if (o.value.size() != 1) return std::nullopt;
    return StateReport{static_cast<NetworkState>(o.value[0] & kStateMask), (o.value[0] & kUrgentBit) != 0};
  }
  return std::nullopt;
}

std::vector<uint8_t> encode_probe(const Probe& p) {
  std::vector<uint8_t> out;
  out.reserve(kProbeBytes);
  Writer w(out);
  w.u8(static_cast<uint8_t>(PacketType::kAdtfrcProbe));
  w.u8(0);
  w.u16(0);
  w.u32(p.number);
  w.u64(static_cast<uint64_t>(p.timestamp.us()));
  w.u32(static_cast<uint32_t>(p.sender_rtt.us()));
  return out;
}

DecodeResult<Probe> decode_probe(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  uint8_t type = 0, reserved8 = 0;
  uint16_t reserved16 = 0;
  if (!r.u8(type)) return DecodeResult<Probe>::failure("adtfrc probe: empty datagram");
  if (type != static_cast<uint8_t>(PacketType::kAdtfrcProbe)) {
    return DecodeResult<Probe>::failure("adtfrc probe: unexpected packet type " + std::to_string(type));
  }
  Probe p;
  uint64_t ts = 0;
  uint32_t rtt = 0;
  if (!r.u8(reserved8) || !r.u16(reserved16) || !r.u32(p.number) || !r.u64(ts) || !r.u32(rtt)) {
    return DecodeResult<Probe>::failure("adtfrc probe: truncated header");
  }
  if (ts > static_cast<uint64_t>(INT64_MAX))
    return DecodeResult<Probe>::failure("adtfrc probe: timestamp out of range");
  p.timestamp = Time::from_us(static_cast<int64_t>(ts));
  p.sender_rtt = Duration::micros(rtt);
  return p;
}

}  // namespace mantra::adtfrc
