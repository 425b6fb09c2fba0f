// The ranking rule of ranker.h (ADTFRC Table II's HIGH / LOW as the top /
// bottom 30 %), for both rankers: RankAllSamples (every sample since the
// start) and RankWindow (the latest samples), each checked against a brute-
// force scan of the samples it holds.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/rank_all_samples.h"
#include "common/rank_window.h"

namespace mantra {
namespace {

constexpr size_t kAll = std::numeric_limits<size_t>::max();  // a window that never drops a sample

// The rule by definition: count the samples held strictly below and above x.
class BruteForceRank {
 public:
  BruteForceRank(size_t capacity, double fraction, size_t min_samples)
      : capacity_(capacity), fraction_(fraction), min_samples_(min_samples) {}

  Level classify_and_add(double x) {
    Level level = Level::kMiddle;
    if (held_.size() >= min_samples_) {
      size_t below = 0, above = 0;
      for (double s : held_) {
        below += s < x;
        above += s > x;
      }
      const double needed = (1.0 - fraction_) * static_cast<double>(held_.size());
      if (static_cast<double>(below) >= needed)
        level = Level::kHigh;
      else if (static_cast<double>(above) >= needed)
        level = Level::kLow;
    }
    held_.push_back(x);
    if (held_.size() > capacity_) held_.pop_front();
    return level;
  }

 private:
  size_t capacity_;
  double fraction_;
  size_t min_samples_;
  std::deque<double> held_;
};

// Either ranker, holding everything it is given in these tests (at most 100 samples).
enum class Kind { kAllSamples, kWindow };

std::unique_ptr<Ranker> make(Kind kind, size_t min_samples = 10) {
  if (kind == Kind::kWindow) return std::make_unique<RankWindow>(100, 0.3, min_samples);
  return std::make_unique<RankAllSamples>(0.3, min_samples);
}

class RankRule : public ::testing::TestWithParam<Kind> {
 protected:
  std::unique_ptr<Ranker> filled(std::initializer_list<double> xs) {
    auto r = make(GetParam());
    for (double x : xs) r->classify_and_add(x);
    return r;
  }
};

TEST_P(RankRule, NothingIsExtremeBeforeTheMinimumSampleCount) {
  auto r = make(GetParam());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(r->classify_and_add(i * 100.0), Level::kMiddle) << i;
  EXPECT_EQ(r->size(), 10u);
  EXPECT_EQ(r->classify_and_add(1e9), Level::kHigh);
  EXPECT_EQ(r->classify_and_add(-1e9), Level::kLow);
}

TEST_P(RankRule, TopAndBottomThirtyPercentOfTenSamples) {
  // Against 1..10, a HIGH value needs 7 samples strictly below it, a LOW one 7 strictly above.
  const std::initializer_list<double> one_to_ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(11), Level::kHigh);
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(8), Level::kHigh);      // 7 below
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(7.5), Level::kHigh);    // 7 below
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(7), Level::kMiddle);    // 6 below: 7 itself is not
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(6.5), Level::kMiddle);  // 6 below
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(5.5), Level::kMiddle);
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(4), Level::kMiddle);  // 6 above
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(3.5), Level::kLow);   // 7 above
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(3), Level::kLow);     // 7 above
  EXPECT_EQ(filled(one_to_ten)->classify_and_add(0), Level::kLow);
}

TEST_P(RankRule, TheSampleIsRankedBeforeItIsAdded) {
  auto r = filled({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  EXPECT_EQ(r->classify_and_add(8), Level::kHigh);  // 7 of 10 below
  EXPECT_EQ(r->size(), 11u);
  EXPECT_EQ(r->classify_and_add(8), Level::kMiddle);  // 7 of 11 below: 7.7 needed
  EXPECT_EQ(r->classify_and_add(9), Level::kHigh);    // 10 of 12 below
}

TEST_P(RankRule, AUsuallyZeroMetricIsHighOnlyAboveZero) {
  auto r = filled({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(r->classify_and_add(0), Level::kMiddle);  // equal to all: neither extreme
  EXPECT_EQ(r->classify_and_add(0.1), Level::kHigh);
  EXPECT_EQ(r->classify_and_add(0), Level::kMiddle);  // 1 of 14 above
  EXPECT_EQ(r->classify_and_add(-0.1), Level::kLow);
}

TEST_P(RankRule, MinimumSampleCountOfZeroMakesTheFirstSampleHigh) {
  auto r = make(GetParam(), 0);
  EXPECT_EQ(r->classify_and_add(5), Level::kHigh);  // at least 0 of 0 below
  EXPECT_EQ(r->classify_and_add(5), Level::kMiddle);
  EXPECT_EQ(r->classify_and_add(6), Level::kHigh);
}

INSTANTIATE_TEST_SUITE_P(Rankers, RankRule, ::testing::Values(Kind::kAllSamples, Kind::kWindow),
                         [](const auto& info) { return info.param == Kind::kWindow ? "Window" : "AllSamples"; });

TEST(RankAllSamplesAndWindow, AgreeWhileTheWindowHoldsEverythingAndDifferOnceOldSamplesLeave) {
  RankAllSamples all(0.3, 10);
  RankWindow window(20, 0.3, 10);
  for (int i = 1; i <= 20; ++i) EXPECT_EQ(all.classify_and_add(i), window.classify_and_add(i)) << i;
  EXPECT_EQ(all.classify_and_add(30), Level::kHigh);
  EXPECT_EQ(window.classify_and_add(30), Level::kHigh);
  // A new regime of larger values pushes 1..20 out of the window.
  for (int i = 0; i < 20; ++i) {
    all.classify_and_add(100);
    window.classify_and_add(100);
  }
  EXPECT_EQ(all.size(), 41u);
  EXPECT_EQ(window.size(), 20u);
  EXPECT_EQ(all.classify_and_add(50), Level::kMiddle);  // 21 of 41 below, 20 above
  EXPECT_EQ(window.classify_and_add(50), Level::kLow);  // the window holds only 100s
}

// Every level of a few thousand random samples, against the brute-force scan:
// continuous values, small integers (many ties), a usually-zero metric, and a
// growing trend; several fractions and minimum sample counts.
TEST(RankAllSamplesAndWindow, AgreeWithABruteForceScanOnRandomSamples) {
  struct Source {
    std::string name;
    double (*draw)(std::mt19937_64&, int);
  };
  const std::vector<Source> sources = {
      {"uniform", [](std::mt19937_64& g, int) { return std::uniform_real_distribution<double>(-1, 1)(g); }},
      {"integers",
       [](std::mt19937_64& g, int) { return static_cast<double>(std::uniform_int_distribution<int>(0, 4)(g)); }},
      {"mostly zero",
       [](std::mt19937_64& g, int) {
         return std::bernoulli_distribution(0.9)(g) ? 0.0 : std::uniform_int_distribution<int>(1, 3)(g) / 10.0;
       }},
      {"trend", [](std::mt19937_64& g,
                   int i) { return static_cast<double>(i / 100 + std::uniform_int_distribution<int>(0, 2)(g)); }},
  };
  for (const auto& source : sources) {
    for (double fraction : {0.3, 0.1, 0.5, 0.0, 0.9}) {
      for (size_t min_samples : {size_t{0}, size_t{10}}) {
        for (size_t capacity : {kAll, size_t{50}}) {
          std::mt19937_64 g(7);
          BruteForceRank reference(capacity, fraction, min_samples);
          std::unique_ptr<Ranker> ranker;
          if (capacity == kAll)
            ranker = std::make_unique<RankAllSamples>(fraction, min_samples);
          else
            ranker = std::make_unique<RankWindow>(capacity, fraction, min_samples);
          int counts[3] = {};
          for (int i = 0; i < 3000; ++i) {
            const double x = source.draw(g, i);
            const Level expected = reference.classify_and_add(x);
            ASSERT_EQ(ranker->classify_and_add(x), expected)
                << source.name << ", fraction " << fraction << ", min_samples " << min_samples << ", "
                << (capacity == kAll ? "all samples" : "window") << ", sample " << i << " = " << x;
            ++counts[static_cast<int>(expected)];
          }
          EXPECT_EQ(ranker->size(), std::min<size_t>(capacity, 3000));
          if (fraction == 0.3) {  // the rule sees all three levels: the cross-check is not vacuous
            EXPECT_GT(counts[static_cast<int>(Level::kHigh)], 0) << source.name;
            EXPECT_GT(counts[static_cast<int>(Level::kMiddle)], 0) << source.name;
            if (source.name != "mostly zero" && source.name != "trend") {
              EXPECT_GT(counts[static_cast<int>(Level::kLow)], 0) << source.name;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace mantra
