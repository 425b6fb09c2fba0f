#include "measurement/flow_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mantra::sim {
namespace {

// Linear interpolation between closest ranks, as numpy's default percentile;
// `sorted` is ascending and not empty.
double percentile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

}  // namespace

FlowMetrics::FlowMetrics(const FlowSpec& flow, double interval_s, double smoothness_window_s, double measure_from_s,
                         double measure_to_s)
    : flow_(flow),
      interval_s_(interval_s),
      smoothness_window_s_(smoothness_window_s),
      from_s_(std::max(flow.start_s, measure_from_s)),
      to_s_(std::min(flow.stop_s, measure_to_s)) {
  const auto bins = static_cast<size_t>(std::ceil((flow.stop_s - flow.start_s) / interval_s - 1e-9));
  rx_bytes_.assign(std::max<size_t>(bins, 1), 0);
  tx_bytes_.assign(rx_bytes_.size(), 0);
}

size_t FlowMetrics::bin(double now_s) const {
  const double offset = std::max(0.0, now_s - flow_.start_s);
  return static_cast<size_t>(offset / interval_s_);
}

void FlowMetrics::on_sent(double now_s, int64_t bytes) {
  if (size_t b = bin(now_s); b < tx_bytes_.size()) tx_bytes_[b] += bytes;
  if (!measured(now_s)) return;
  ++sent_packets_;
  sent_bytes_ += bytes;
}

void FlowMetrics::on_arrival(double now_s, std::optional<double> sent_s) {
  if (!measured(sent_s.value_or(now_s))) return;
  ++arrivals_;
  if (sent_s) delays_s_.push_back(now_s - *sent_s);
}

void FlowMetrics::on_duplicate(double now_s) {
  if (measured(now_s)) ++duplicates_;
}

void FlowMetrics::on_goodput(double now_s, int64_t bytes) {
  if (size_t b = bin(now_s); b < rx_bytes_.size()) rx_bytes_[b] += bytes;
  delivered_ever_bytes_ += bytes;
  if (!measured(now_s)) return;
  goodput_bytes_ += bytes;
  const double gap = now_s - last_goodput_s_.value_or(from_s_);
  if (gap > longest_stall_s_) {
    longest_stall_s_ = gap;
    longest_stall_end_s_ = now_s;
  }
  last_goodput_s_ = now_s;
}

void FlowMetrics::on_hop_sample(std::optional<int> hops) {
  ++hop_samples_;
  if (hops) {
    hop_sum_ += *hops;
    if (hop_samples_ > 1 && delivered_ever_bytes_ == delivered_at_last_sample_) ++hop_samples_blocked_;
  } else {
    ++hop_samples_unreachable_;
  }
  delivered_at_last_sample_ = delivered_ever_bytes_;
}

void FlowMetrics::on_routed_hops(int hops) {
  ++routed_packets_;
  routed_hop_sum_ += hops;
}

void FlowMetrics::set_diagnostics(std::string side, std::vector<std::pair<std::string, double>> values) {
  nlohmann::json d = nlohmann::json::object();
  for (auto& [k, v] : values) d[k] = v;
  diagnostics_[side] = d;
}

double FlowMetrics::throughput_kbps() const {
  return static_cast<double>(goodput_bytes_) * 8.0 / (to_s_ - from_s_) / 1e3;
}

double FlowMetrics::smoothness() const {
  const auto per_window = static_cast<size_t>(std::llround(smoothness_window_s_ / interval_s_));
  double sum = 0;
  int windows = 0;
  // Whole intervals inside the measurement window, grouped from its start.
  const auto first = static_cast<size_t>(std::ceil((from_s_ - flow_.start_s) / interval_s_ - 1e-9));
  const auto end =
      std::min(rx_bytes_.size(), static_cast<size_t>(std::floor((to_s_ - flow_.start_s) / interval_s_ + 1e-9)));
  for (size_t from = first; from + per_window <= end; from += per_window) {
    const auto [lo, hi] = std::minmax_element(rx_bytes_.begin() + from, rx_bytes_.begin() + from + per_window);
    if (*hi == 0) continue;  // nothing received: no ratio to take
    sum += static_cast<double>(*lo) / static_cast<double>(*hi);
    ++windows;
  }
  return windows ? sum / windows : 0.0;
}

nlohmann::json FlowMetrics::summary() const {
  nlohmann::json j;
  j["protocol"] = flow_.protocol;
  j["src"] = flow_.src;
  j["dst"] = flow_.dst;
  j["start"] = flow_.start_s;
  j["stop"] = flow_.stop_s;
  j["measured"] = {{"from", from_s_}, {"to", to_s_}};
  j["sent"] = sent_packets_;
  j["received"] = arrivals_;
  j["duplicates"] = duplicates_;
  j["sent_bytes"] = sent_bytes_;
  j["delivered_bytes"] = goodput_bytes_;
  j["throughput_kbps"] = throughput_kbps();
  j["sent_kbps"] = static_cast<double>(sent_bytes_) * 8.0 / (to_s_ - from_s_) / 1e3;
  const double tail = to_s_ - last_goodput_s_.value_or(from_s_);
  j["stall"] = tail > longest_stall_s_
                   ? nlohmann::json{{"longest_s", tail}, {"ends_s", to_s_}}
                   : nlohmann::json{{"longest_s", longest_stall_s_}, {"ends_s", longest_stall_end_s_}};
  // Delay statistics are undefined (null) without arrivals, jitter without two.
  j["delay_ms"] = {{"mean", nullptr}, {"p50", nullptr}, {"p95", nullptr}};
  j["delay_cdf_ms"] = nlohmann::json::array();
  if (!delays_s_.empty()) {
    std::vector<double> sorted = delays_s_;
    std::sort(sorted.begin(), sorted.end());
    const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
    j["delay_ms"] = {
        {"mean", mean * 1e3}, {"p50", percentile(sorted, 0.5) * 1e3}, {"p95", percentile(sorted, 0.95) * 1e3}};
    for (int pct = 0; pct <= 100; ++pct) j["delay_cdf_ms"].push_back(percentile(sorted, pct / 100.0) * 1e3);
  }
  j["jitter_ms"] = nullptr;
  if (delays_s_.size() > 1) {
    double jitter = 0;
    for (size_t i = 1; i < delays_s_.size(); ++i) jitter += std::abs(delays_s_[i] - delays_s_[i - 1]);
    j["jitter_ms"] = jitter / static_cast<double>(delays_s_.size() - 1) * 1e3;
  }
  j["plr"] = sent_packets_ > 0
                 ? std::max(0.0, 1.0 - static_cast<double>(arrivals_) / static_cast<double>(sent_packets_))
                 : 0.0;
  j["smoothness"] = smoothness();
  if (hop_samples_ > 0) {
    const int64_t reachable = hop_samples_ - hop_samples_unreachable_;
    j["path_hops"] = {{"mean", reachable > 0 ? nlohmann::json(static_cast<double>(hop_sum_) / reachable) : nullptr},
                      {"unreachable_share", static_cast<double>(hop_samples_unreachable_) / hop_samples_},
                      {"blocked_share", reachable > 1 ? nlohmann::json(static_cast<double>(hop_samples_blocked_) /
                                                                       static_cast<double>(reachable))
                                                      : nullptr},
                      {"samples", hop_samples_},
                      {"routed_mean", routed_packets_ > 0 ? nlohmann::json(static_cast<double>(routed_hop_sum_) /
                                                                           static_cast<double>(routed_packets_))
                                                          : nullptr},
                      {"routed_packets", routed_watched_ ? nlohmann::json(routed_packets_) : nullptr}};
  }
  nlohmann::json t = nlohmann::json::array(), rx = nlohmann::json::array(), tx = nlohmann::json::array();
  for (size_t i = 0; i < rx_bytes_.size(); ++i) {
    const double end = std::min(flow_.start_s + (i + 1) * interval_s_, flow_.stop_s);
    const double width = end - (flow_.start_s + i * interval_s_);
    t.push_back(end);
    rx.push_back(static_cast<double>(rx_bytes_[i]) * 8.0 / width / 1e3);
    tx.push_back(static_cast<double>(tx_bytes_[i]) * 8.0 / width / 1e3);
  }
  j["series"] = {{"t", t}, {"rx_kbps", rx}, {"tx_kbps", tx}};
  j["diagnostics"] = diagnostics_;
  return j;
}

std::optional<double> jain_index(const std::vector<double>& x) {
  double sum = 0, sq = 0;
  for (double v : x) {
    sum += v;
    sq += v * v;
  }
  if (sq == 0) return std::nullopt;
  return sum * sum / (static_cast<double>(x.size()) * sq);
}

}  // namespace mantra::sim
