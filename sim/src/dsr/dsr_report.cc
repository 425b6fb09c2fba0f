#include "dsr/dsr_report.h"

namespace mantra::sim::dsr {

DsrCounters& DsrCounters::operator+=(const DsrCounters& o) {
  requests_sent += o.requests_sent;
  replies_sent += o.replies_sent;
  errors_sent += o.errors_sent;
  request_bytes += o.request_bytes;
  reply_bytes += o.reply_bytes;
  error_bytes += o.error_bytes;
  data_header_bytes += o.data_header_bytes;
  discoveries += o.discoveries;
  propagating_requests += o.propagating_requests;
  route_errors += o.route_errors;
  cache_replies += o.cache_replies;
  gratuitous_replies += o.gratuitous_replies;
  salvaged += o.salvaged;
  duplicates_suppressed += o.duplicates_suppressed;
  return *this;
}

nlohmann::json dsr_report(const std::vector<std::unique_ptr<DsrNode>>& nodes) {
  DsrCounters sum;
  std::array<int64_t, kDropReasons> drops{};
  int64_t delivered = 0, delivered_hops = 0;
  for (const auto& node : nodes) {
    sum += node->agent().counters();
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
