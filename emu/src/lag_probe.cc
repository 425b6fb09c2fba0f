#include "lag_probe.h"

#include <ns3/realtime-simulator-impl.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mantra::emu {

using namespace ns3;

nlohmann::json lag_summary(std::vector<int64_t> lags_us) {
  nlohmann::json out = {{"samples", lags_us.size()}, {"median", nullptr}, {"p99", nullptr}, {"max", nullptr}};
  if (lags_us.empty()) return out;
  std::sort(lags_us.begin(), lags_us.end());
  const auto rank = [&](double q) {  // nearest rank: the ceil(q n)-th smallest
    const auto k = static_cast<size_t>(std::max(1.0, std::ceil(q * static_cast<double>(lags_us.size()))));
    return static_cast<double>(lags_us[k - 1]) / 1000.0;
  };
  out["median"] = rank(0.5);
  out["p99"] = rank(0.99);
  out["max"] = static_cast<double>(lags_us.back()) / 1000.0;
  return out;
}

LagProbe::LagProbe(Time interval, const std::atomic<bool>& stop_requested)
    : interval_(interval), stop_requested_(stop_requested) {
  if (!DynamicCast<RealtimeSimulatorImpl>(Simulator::GetImplementation())) {
    throw std::logic_error("LagProbe needs ns-3's real-time simulator");
  }
  Simulator::ScheduleNow(&LagProbe::sample, this);
}

void LagProbe::sample() {
  const auto rt = DynamicCast<RealtimeSimulatorImpl>(Simulator::GetImplementation());
  lags_us_.push_back((rt->RealtimeNow() - Simulator::Now()).GetMicroSeconds());
  if (stop_requested_.load()) {
    stopped_at_s_ = Simulator::Now().GetSeconds();
    Simulator::Stop();
    return;
  }
  Simulator::Schedule(interval_, &LagProbe::sample, this);
}

}  // namespace mantra::emu
