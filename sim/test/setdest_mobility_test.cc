// ns-2 setdest's random waypoint (`mobility: {model: setdest}`, scenario.cc):
// every node stands still for the pause first, then walks at speeds uniform
// from 0 to the maximum, never faster, and with no warm-up the mean speed
// decays as the slow legs pile up (Broch et al.'s field: 50 nodes over
// 1500 m x 300 m at up to 20 m/s). The steady-state model keeps its mean.
#include <gtest/gtest.h>
#include <ns3/core-module.h>
#include <ns3/mobility-module.h>

#include <string>
#include <vector>

#include "network/scenario.h"
#include "spec/spec.h"

namespace mantra::sim {
namespace {

using namespace ns3;

constexpr double kMaxSpeed = 20;

// Mean speed of the 50 nodes of Broch et al.'s field over each window
// [from, to) of simulated seconds, sampled every 5 s; `fastest` the highest
// speed seen.
struct Window {
  double from_s, to_s;
};
std::vector<double> mean_speeds(const std::string& model, int seed, double pause_s, const std::vector<Window>& windows,
                                double* fastest) {
  const std::string speed = model == "rwp" ? "[0.1, 20]" : "20";
  const Spec spec = parse_spec(nlohmann::json::parse(R"({"duration": 900, "seed": )" + std::to_string(seed) +
                                                     R"(, "routing": "oracle",
      "topology": {"kind": "manet", "nodes": 50, "width": 1500, "height": 300},
      "mobility": {"model": ")" + model + R"(", "speed": )" +
                                                     speed + R"(, "pause": )" + std::to_string(pause_s) + R"(},
      "flows": [{"protocol": "cbr", "src": 0, "dst": 1, "rate": "1kbps", "start": 899}]})"));
  Scenario s;
  build_scenario(spec, s);
  std::vector<double> sums(windows.size(), 0);
  std::vector<int> counts(windows.size(), 0);
  double last_s = 0;
  for (size_t k = 0; k < windows.size(); ++k) {
    for (double t = windows[k].from_s; t < windows[k].to_s; t += 5) {
      Simulator::Schedule(Seconds(t), [&, k] {
        for (uint32_t i = 0; i < s.nodes.GetN(); ++i) {
          const double v = s.nodes.Get(i)->GetObject<MobilityModel>()->GetVelocity().GetLength();
          sums[k] += v;
          ++counts[k];
          *fastest = std::max(*fastest, v);
        }
      });
    }
    last_s = std::max(last_s, windows[k].to_s);
  }
  Simulator::Stop(Seconds(last_s));
  Simulator::Run();
  Simulator::Destroy();
  std::vector<double> means;
  for (size_t k = 0; k < windows.size(); ++k) means.push_back(sums[k] / counts[k]);
  return means;
}

TEST(SetdestMobility, NodesPauseFirstThenWalkNoFasterThanTheMaximumAndTheMeanSpeedDecays) {
  for (int seed = 1; seed <= 3; ++seed) {
    double fastest = 0;
    EXPECT_EQ(mean_speeds("setdest", seed, 30, {{0, 29}}, &fastest)[0], 0) << "seed " << seed << ": moved in its pause";
    const auto means = mean_speeds("setdest", seed, 0, {{1, 21}, {600, 900}}, &fastest);
    EXPECT_GT(means[0], 0.4 * kMaxSpeed) << "seed " << seed;  // each leg's speed uniform: mean near max / 2
    EXPECT_LT(means[1], 0.6 * means[0]) << "seed " << seed;   // the decay
    EXPECT_LE(fastest, kMaxSpeed);
  }
}

TEST(SetdestMobility, TheSteadyStateModelStartsAtItsLongRunMeanSpeed) {
  // Speed uniform in [0.1, 20] m/s, no pause: the time-average speed is (20 - 0.1) / ln(200) = 3.76 m/s.
  for (int seed = 1; seed <= 3; ++seed) {
    double fastest = 0;
    const auto means = mean_speeds("rwp", seed, 0, {{0, 300}, {600, 900}}, &fastest);
    EXPECT_NEAR(means[0], 3.76, 1.0) << "seed " << seed;
    EXPECT_NEAR(means[1], 3.76, 1.0) << "seed " << seed;
  }
}

}  // namespace
}  // namespace mantra::sim
