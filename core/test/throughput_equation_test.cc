// RFC 5348 §3.1 equation values, §6.3.1 inverse, and the TF-WMFC models.
// Expected values computed from the closed forms (b = 1, t_RTO = 4R).
#include "common/throughput_equation.h"

#include <gtest/gtest.h>

#include <cmath>

namespace mantra {
namespace {

struct EquationCase {
  double s, r, p, x;
};

TEST(Rfc5348Section3_1, EquationValuesAtSeveralSRP) {
  const EquationCase cases[] = {
      {1460, 0.1, 0.01, 164005.062},  {1460, 0.1, 0.001, 560411.702}, {1460, 0.1, 0.1, 25843.490},
      {1460, 0.05, 0.02, 213886.968}, {1000, 0.2, 0.05, 18429.427},   {1000, 0.02, 0.0001, 6118217.959},
      {100, 0.1, 0.01, 11233.223},    {1460, 0.1, 0.5, 609.348},      {1460, 0.1, 1.0, 60.004},
      {1200, 0.3, 0.03, 22135.547},
  };
  for (const auto& c : cases) {
    EXPECT_NEAR(tfrc_rate(c.s, c.r, c.p), c.x, 1e-3)  // the table keeps 3 decimals
        << "s=" << c.s << " R=" << c.r << " p=" << c.p;
  }
}

TEST(Rfc5348Section3_1, PacketsPerRttDependOnlyOnP) {
  // X*R/s = 1/f(p): 11.2332 packets per RTT at p = 1 %, whatever s and R.
  EXPECT_NEAR(tfrc_rate(1000, 0.25, 0.01) * 0.25 / 1000, 11.2332, 1e-3);
  EXPECT_NEAR(tfrc_rate(50, 0.002, 0.01) * 0.002 / 50, 11.2332, 1e-3);
}

TEST(Rfc5348Section3_1, ExplicitRtoOfOneSecond) { EXPECT_NEAR(tfrc_rate(1460, 0.1, 0.01, 1.0), 145883.849, 1e-2); }

TEST(Rfc5348Section3_1, DecreasesStrictlyInP) {
  double last = tfrc_rate(1000, 0.1, 1e-6);
  for (double p = 2e-6; p <= 1.0; p *= 1.5) {
    const double x = tfrc_rate(1000, 0.1, p);
    EXPECT_LT(x, last);
    last = x;
  }
}

TEST(Rfc5348Section6_3_1, InverseGivesSyntheticFirstInterval) {
  EXPECT_NEAR(tfrc_loss_rate_for(1460, 0.1, 100000), 0.0221223, 1e-6);
  EXPECT_NEAR(1.0 / tfrc_loss_rate_for(1000, 0.05, 200000), 82.15, 0.01);
  // First packet lost: X_target = 0.5 packets per RTT, so f(p) = 2.
  EXPECT_NEAR(tfrc_loss_rate_for(1000, 0.1, 0.5 * 1000 / 0.1), 0.2064289, 1e-6);
}

TEST(Rfc5348Section6_3_1, InverseRoundTripsTheEquation) {
  for (double p : {1e-5, 1e-3, 0.03, 0.3, 0.9}) {
    const double x = tfrc_rate(1000, 0.08, p);
    EXPECT_NEAR(tfrc_loss_rate_for(1000, 0.08, x) / p, 1.0, 1e-6);
  }
}

TEST(TfWmfcEquation2, FloydModel) {
  // K/sqrt(p) * s/R with K = 1.22: at p = 1 %, 12.2 packets per RTT.
  EXPECT_NEAR(floyd_rate(1000, 0.1, 0.01), 122000.0, 1e-6);
}

TEST(TfWmfcEquation3, RefinedModelByHand) {
  // s = 1000 B, R = 0.1 s, p = 0.01: sqrt(2/0.03 + 25/36) = 8.207381,
  // + 7/6 = 9.374048, x p x R = 0.00937405: Y = 106677.497 B/s.
  EXPECT_NEAR(refined_ecn_rate(1000, 0.1, 0.01), 106677.4975, 1e-3);
  EXPECT_NEAR(refined_ecn_rate(1000, 0.1, 0.05), 40716.3291, 1e-3);
  // The inverse the sender uses to start P_M[k] at its current rate.
  for (double p : {1e-4, 0.01, 0.2}) {
    const double y = refined_ecn_rate(1000, 0.05, p);
    EXPECT_NEAR(loss_rate_for([](double q) { return refined_ecn_rate(1000, 0.05, q); }, y) / p, 1.0, 1e-6);
  }
}

TEST(TfWmfcAppendixA, RefinedModelMatchesItsDerivation) {
  // Y = (3W^2/8 + 5W/4) s / ((2 + W/2) R) with W = sqrt(8/(3p) + 25/9) - 5/3.
  for (double p : {0.001, 0.01, 0.05, 0.2}) {
    const double w = std::sqrt(8.0 / (3.0 * p) + 25.0 / 9.0) - 5.0 / 3.0;
    const double y = (3 * w * w / 8 + 5 * w / 4) * 1000.0 / ((2 + w / 2) * 0.1);
    EXPECT_NEAR(refined_ecn_rate(1000, 0.1, p), y, y * 1e-9);
    // One mark per cycle of 1/p packets: the cycle carries exactly 1/p packets.
    EXPECT_NEAR(3 * w * w / 8 + 5 * w / 4, 1.0 / p, 1e-6 / p);
  }
  // The dormant RTT makes the refined model more conservative than Floyd's.
  EXPECT_LT(refined_ecn_rate(1000, 0.1, 0.01), floyd_rate(1000, 0.1, 0.01));
}

}  // namespace
}  // namespace mantra
