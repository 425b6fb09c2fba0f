#include "measurement/flow_groups.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "common/throughput_equation.h"
#include "measurement/flow_metrics.h"

namespace mantra::sim {
namespace {

double value_at(const nlohmann::json& j, const nlohmann::json::json_pointer& at) {
  return j.contains(at) && j[at].is_number() ? j[at].get<double>() : 0.0;
}

}  // namespace

nlohmann::json ecn_model(const FlowSpec& flow, const nlohmann::json& summary) {
  const double rtt_s = value_at(summary, "/diagnostics/sender/rtt_mean_s"_json_pointer);
  if (rtt_s <= 0) return nullptr;
  const double sent = value_at(summary, "/sent"_json_pointer);
  const double reductions = value_at(summary, "/diagnostics/sender/ecn_reductions"_json_pointer);
  const double received = value_at(summary, "/diagnostics/receiver/data_received"_json_pointer);
  const double marks = value_at(summary, "/diagnostics/receiver/ce_received"_json_pointer);
  const double s = flow.packet_size;
  nlohmann::json out = {{"rtt_s", rtt_s}};
  const auto reading = [&](const char* name, double p) {
    out[std::string("p_m_") + name] = p;
    const auto kbps = [](double bytes_per_s) {
      return std::isfinite(bytes_per_s) ? nlohmann::json(bytes_per_s * 8 / 1e3) : nlohmann::json(nullptr);
    };
    out[std::string("refined_kbps_") + name] = kbps(mantra::refined_ecn_rate(s, rtt_s, p));
    out[std::string("floyd_kbps_") + name] = kbps(mantra::floyd_rate(s, rtt_s, p));
  };
  reading("reductions", sent > 0 ? reductions / sent : 0);
  reading("marks", received > 0 ? marks / received : 0);
  return out;
}

namespace {

// The mean of a flow's receive-rate series over (from, to]; nullopt if it has no interval there.
std::optional<double> series_mean(const nlohmann::json& series, double from, double to) {
  double total = 0;
  int count = 0;
  for (size_t k = 0; k < series["t"].size(); ++k) {
    const double at = series["t"][k].get<double>();
    if (at > from && at <= to) {
      total += series["rx_kbps"][k].get<double>();
      ++count;
    }
  }
  if (!count) return std::nullopt;
  return total / count;
}

}  // namespace

nlohmann::json phase_totals(const Spec& spec, const std::vector<FlowSpec>& flows,
                            const std::vector<nlohmann::json>& summaries) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [phase, window] : spec.phases) {
    std::vector<double> rates_kbps;  // the mean receive rate of each flow active in the phase
    for (size_t i = 0; i < flows.size(); ++i) {
      if (const auto mean = series_mean(summaries[i]["series"], window.first, window.second)) {
        rates_kbps.push_back(*mean);
      }
    }
    double aggregate = 0;
    for (double x : rates_kbps) aggregate += x;
    const auto active = static_cast<double>(rates_kbps.size());
    const auto jain = jain_index(rates_kbps);
    out[phase] = {{"flows", rates_kbps.size()},
                  {"aggregate_kbps", aggregate},
                  {"fair_share_kbps", active > 0 ? nlohmann::json(aggregate / active) : nlohmann::json(nullptr)},
                  {"jain", jain ? nlohmann::json(*jain) : nlohmann::json(nullptr)}};
  }
  return out;
}

nlohmann::json flow_groups(const Spec& spec, const std::vector<FlowSpec>& flows,
                           const std::vector<nlohmann::json>& summaries) {
  std::map<std::string, std::vector<size_t>> members;
  for (size_t i = 0; i < flows.size(); ++i) members[flows[i].group].push_back(i);
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, ids] : members) {
    const auto n = static_cast<double>(ids.size());
    double sum = 0, lo = 0, hi = 0;
    for (size_t k = 0; k < ids.size(); ++k) {
      const double x = value_at(summaries[ids[k]], "/throughput_kbps"_json_pointer);
      sum += x;
      lo = k == 0 ? x : std::min(lo, x);
      hi = k == 0 ? x : std::max(hi, x);
    }
    nlohmann::json g = {{"flows", ids.size()}, {"throughput_kbps", sum / n}, {"min_kbps", lo}, {"max_kbps", hi}};
    // The mean series over the group: flows active at different times share the clock.
    std::map<double, std::pair<double, int>> by_t;
    for (size_t id : ids) {
      const nlohmann::json& series = summaries[id]["series"];
      for (size_t k = 0; k < series["t"].size(); ++k) {
        auto& [total, count] = by_t[series["t"][k].get<double>()];
        total += series["rx_kbps"][k].get<double>();
        ++count;
      }
    }
    nlohmann::json t = nlohmann::json::array(), rx = nlohmann::json::array();
    for (const auto& [at, sum_count] : by_t) {
      t.push_back(at);
      rx.push_back(sum_count.first / sum_count.second);
    }
    g["series"] = {{"t", t}, {"rx_kbps", rx}};
    if (!spec.phases.empty()) {
      nlohmann::json phases;
      for (const auto& [phase, window] : spec.phases) {
        double total = 0;
        int count = 0;
        for (const auto& [at, sum_count] : by_t) {
          if (at > window.first && at <= window.second) {
            total += sum_count.first / sum_count.second;
            ++count;
          }
        }
        phases[phase] = {{"throughput_kbps", count ? nlohmann::json(total / count) : nlohmann::json(nullptr)}};
      }
      g["phases"] = phases;
    }
    // ECN-TCP flows: means of the model check, and prediction / measurement.
    std::map<std::string, std::pair<double, int>> model;
    for (size_t id : ids) {
      const nlohmann::json& m = summaries[id].value("ecn_model", nlohmann::json());
      if (!m.is_object()) continue;
      for (const auto& [key, value] : m.items()) {
        if (!value.is_number()) continue;
        auto& [total, count] = model[key];
        total += value.get<double>();
        ++count;
      }
    }
    if (!model.empty()) {
      nlohmann::json means;
      for (const auto& [key, sum_count] : model) means[key] = sum_count.first / sum_count.second;
      g["ecn_model"] = means;
      for (const char* model_name : {"refined", "floyd"}) {
        for (const char* reading : {"reductions", "marks"}) {
          const std::string key = std::string(model_name) + "_kbps_" + reading;
          g[std::string("model_ratio_") + model_name + "_" + reading] =
              means.contains(key) && sum > 0 ? nlohmann::json(means[key].get<double>() / (sum / n))
                                             : nlohmann::json(nullptr);
        }
      }
    }
    out[name] = g;
  }
  return out;
}

}  // namespace mantra::sim
