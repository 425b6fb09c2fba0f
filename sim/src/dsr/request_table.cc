#include "dsr/request_table.h"

#include <algorithm>

namespace mantra::sim::dsr {

const RequestTable::Line* RequestTable::find(Address node) const {
  for (const Line& l : lines_) {
    if (l.used && l.node == node) return &l;
  }
  return nullptr;
}

RequestTable::Line& RequestTable::line(Address node) {
  if (const Line* found = find(node)) return const_cast<Line&>(*found);
  Line& fresh = lines_[next_];
  next_ = (next_ + 1) % lines_.size();
  fresh = Line{};
  fresh.node = node;
  fresh.used = true;
  return fresh;
}

bool RequestTable::seen(Address initiator, uint16_t identification) const {
  const Line* l = find(initiator);
  return l && l->seen_request && static_cast<int16_t>(identification - l->last_identification) <= 0;
}

void RequestTable::record(Address initiator, uint16_t identification) {
  Line& l = line(initiator);
  l.seen_request = true;
  l.last_identification = identification;
}

bool RequestTable::may_start_discovery(Address target, double now_s) {
  Line& l = line(target);
  const double period_s = std::min(kMaxRequestPeriodS, kRequestPeriodS * static_cast<double>(1 << (2 * l.discoveries)));
  if (l.last_discovery_s + period_s > now_s) return false;
  l.discoveries = std::min(l.discoveries + 1, 15);
  l.last_discovery_s = now_s;
  return true;
}

void RequestTable::reset_backoff(Address target) {
  Line& l = line(target);
  l.discoveries = 0;
  l.last_discovery_s = 0;
}

}  // namespace mantra::sim::dsr
