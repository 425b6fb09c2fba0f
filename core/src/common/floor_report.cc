#include "common/floor_report.h"

#include <algorithm>
#include <cmath>

namespace mantra {

bool read_floor_report(ParamReader& r) {
  const double floor = r.get("floor_report", 0);
  r.require(floor == 0 || floor == 1, "floor_report must be 0 or 1");
  return floor == 1;
}

uint32_t floor_loss_ppb(double loss_event_rate) {
  return static_cast<uint32_t>(std::lround(std::clamp(loss_event_rate, 0.0, 1.0) * 1e9));
}

double floor_loss_from_ppb(uint32_t ppb) { return std::min(static_cast<double>(ppb) / 1e9, 1.0); }

WireOption encode_floor_loss_option(double loss_event_rate) {
  WireOption o;
  o.type = kFloorLossOptionType;
  Writer w(o.value);
  w.u32(floor_loss_ppb(loss_event_rate));
  return o;
}

std::optional<double> find_floor_loss(const std::vector<WireOption>& options) {
  for (const auto& o : options) {
    if (o.type != kFloorLossOptionType) continue;
    Reader r(o.value);
    uint32_t ppb = 0;
    if (!r.u32(ppb) || r.remaining() != 0) return std::nullopt;
    return floor_loss_from_ppb(ppb);
  }
  return std::nullopt;
}

}  // namespace mantra
