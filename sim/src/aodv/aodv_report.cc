#include "aodv/aodv_report.h"

namespace mantra::sim::aodv {

nlohmann::json aodv_report(const std::vector<std::unique_ptr<AodvNode>>& nodes) {
  AodvCounters sum;
  std::array<int64_t, kDropReasons> drops{};
  int64_t malformed = 0, ttl = 0;
  for (const auto& node : nodes) {
    sum += node->agent().counters();
    for (size_t r = 0; r < kDropReasons; ++r) drops[r] += node->drops()[r];
    malformed += node->malformed();
    ttl += node->ttl_drops();
  }
  const auto dropped = [&](DropReason r) { return drops[static_cast<size_t>(r)]; };
  return {
      {"requests_sent", sum.requests_sent},
      {"requests_passed", sum.requests_passed},
      {"replies_sent", sum.replies_sent},
      {"table_replies", sum.table_replies},
      {"replies_passed", sum.replies_passed},
      {"replies_suppressed", sum.replies_suppressed},
      {"replies_stranded", sum.replies_stranded},
      {"errors_sent", sum.errors_sent},
      {"local_repairs", sum.local_repairs},
      {"discoveries_given_up", sum.discoveries_given_up},
      {"drops",
       {{"no_route", dropped(DropReason::kNoRoute)},
        {"queue_full", dropped(DropReason::kQueueFull)},
        {"queue_timeout", dropped(DropReason::kQueueTimeout)},
        {"link_broken", dropped(DropReason::kLinkBroken)},
        {"ttl", ttl},
        {"malformed", malformed}}},
  };
}

}  // namespace mantra::sim::aodv
