#include "dsr/dsr_report.h"

namespace mantra::sim::dsr {

nlohmann::json dsr_report(const std::vector<std::unique_ptr<DsrNode>>& nodes) {
  DsrCounters sum;
  std::array<int64_t, kDropReasons> drops{};
  int64_t delivered = 0, delivered_hops = 0;
  for (const auto& node : nodes) {
    const DsrCounters& c = node->agent().counters();
    sum.requests_sent += c.requests_sent;
    sum.replies_sent += c.replies_sent;
    sum.errors_sent += c.errors_sent;
    sum.request_bytes += c.request_bytes;
    sum.reply_bytes += c.reply_bytes;
    sum.error_bytes += c.error_bytes;
    sum.data_header_bytes += c.data_header_bytes;
    sum.discoveries += c.discoveries;
    sum.propagating_requests += c.propagating_requests;
    sum.route_errors += c.route_errors;
    sum.cache_replies += c.cache_replies;
    sum.gratuitous_replies += c.gratuitous_replies;
    sum.salvaged += c.salvaged;
    sum.duplicates_suppressed += c.duplicates_suppressed;
    for (size_t r = 0; r < kDropReasons; ++r) drops[r] += node->drops()[r];
    delivered += node->delivered();
    delivered_hops += node->delivered_hops();
  }
  auto dropped = [&](DropReason r) { return drops[static_cast<size_t>(r)]; };
  return {
      {"packets_sent", {{"request", sum.requests_sent}, {"reply", sum.replies_sent}, {"error", sum.errors_sent}}},
      {"bytes_sent",
       {{"request", sum.request_bytes},
        {"reply", sum.reply_bytes},
        {"error", sum.error_bytes},
        {"data_header", sum.data_header_bytes}}},
      {"discoveries", sum.discoveries},
      {"propagating_requests", sum.propagating_requests},
      {"route_errors", sum.route_errors},
      {"cache_replies", sum.cache_replies},
      {"gratuitous_replies", sum.gratuitous_replies},
      {"salvaged", sum.salvaged},
      {"duplicates_suppressed", sum.duplicates_suppressed},
      {"routed_hops_mean", delivered
                               ? nlohmann::json(static_cast<double>(delivered_hops) / static_cast<double>(delivered))
                               : nlohmann::json(nullptr)},
      {"drops",
       {{"send_buffer_timeout", dropped(DropReason::kSendBufferTimeout)},
        {"send_buffer_full", dropped(DropReason::kSendBufferFull)},
        {"no_route", dropped(DropReason::kNoRoute)},
        {"salvage_limit", dropped(DropReason::kSalvageLimit)},
        {"ttl", dropped(DropReason::kTtl)},
        {"duplicate", dropped(DropReason::kDuplicate)},
        {"malformed", dropped(DropReason::kMalformed)},
        {"stale_reply", dropped(DropReason::kStaleReply)}}},
  };
}

}  // namespace mantra::sim::dsr
