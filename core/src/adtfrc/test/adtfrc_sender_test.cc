// ADTFRC sender: Algorithm 1 (rate per reported state) and Algorithm 2
// (probing on a timeout outside congestion), and TFRC behaviour without
// state reports (backward compatibility, §IV).
#include "adtfrc/adtfrc_sender.h"

#include <gtest/gtest.h>

#include "adtfrc/adtfrc_wire.h"
#include "common/throughput_equation.h"

namespace mantra::adtfrc {
namespace {

Time ms(int64_t v) { return Time::from_us(v * 1000); }

std::vector<uint8_t> report(Time sent, double x_recv, double p, std::optional<NetworkState> state) {
  tfrc::Feedback f;
  f.t_recvdata = sent;
  f.x_recv_bytes_per_s = static_cast<uint32_t>(x_recv);
  f.p = p;
  if (state) f.options.push_back(encode_state_option({*state, false}));
  return tfrc::encode_feedback(f);
}

int send_due(RateSender& s, Time now, int* probes = nullptr) {
  int data = 0;
  while (auto d = s.poll_transmit(now)) {
    if (d->kind == DatagramKind::kData) ++data;
    if (d->kind == DatagramKind::kProbe && probes) ++*probes;
  }
  return data;
}

// Sender at 40 kB/s after a first report (RTT 100 ms) and paced until
// 300 ms, when the next report (echoing 200 ms) is due; the tests' reports
// with p = 1 % then put it on the equation.
void to_equation(RateSender& s, std::optional<NetworkState> first_state = NetworkState::kNormal) {
  send_due(s, ms(0));
  s.handle_datagram(ms(100), report(ms(0), 0, 0, first_state), Ecn::kNotEct);
  for (int t = 100; t < 300; ++t) send_due(s, ms(t));
}

constexpr double kP = 0.01;

TEST(Algorithm1, CongestionTakesTheSmallerOfEquationAndReceiveRate) {
  AdtfrcSender s;
  to_equation(s);
  s.handle_datagram(ms(300), report(ms(200), 20000, kP, NetworkState::kCongestion), Ecn::kNotEct);
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), 20000.0);  // TFRC would allow 2 * 20000
  tfrc::TfrcSender plain;
  to_equation(plain);
  plain.handle_datagram(ms(300), report(ms(200), 20000, kP, std::nullopt), Ecn::kNotEct);
  EXPECT_DOUBLE_EQ(plain.law().rate_bytes_per_s(), 40000.0);
}

TEST(Algorithm1, RouteChangeKeepsThePreviousRate) {
  AdtfrcSender s;
  to_equation(s);
  const double before = s.law().rate_bytes_per_s();
  s.handle_datagram(ms(300), report(ms(200), 5000, 0.2, NetworkState::kRouteChange), Ecn::kNotEct);
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), before);
}

TEST(Algorithm1, ChannelErrorAndNormalFollowTfrc) {
  for (auto state : {NetworkState::kChannelError, NetworkState::kNormal}) {
    AdtfrcSender s;
    tfrc::TfrcSender plain;
    to_equation(s);
    to_equation(plain, std::nullopt);
    s.handle_datagram(ms(300), report(ms(200), 30000, kP, state), Ecn::kNotEct);
    plain.handle_datagram(ms(300), report(ms(200), 30000, kP, std::nullopt), Ecn::kNotEct);
    EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), plain.law().rate_bytes_per_s()) << state_name(state);
    EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), std::min(tfrc_rate(1000, 0.1, kP), 60000.0));
  }
}

TEST(BackwardCompatibility, WithoutStateReportsItIsTfrc) {
  AdtfrcSender a;
  tfrc::TfrcSender t;
  to_equation(a, std::nullopt);
  to_equation(t, std::nullopt);
  int sent_a = 0, sent_t = 0;
  for (int step = 0; step < 60; ++step) {  // feedback for a while, then silence
    const Time now = ms(300 + 100 * step);
    if (step < 20) {
      a.handle_datagram(now, report(now - Duration::millis(100), 30000, kP, std::nullopt), Ecn::kNotEct);
      t.handle_datagram(now, report(now - Duration::millis(100), 30000, kP, std::nullopt), Ecn::kNotEct);
    }
    for (int k = 0; k < 100; ++k) {
      const Time at = now + Duration::millis(k);
      if (auto d = a.poll_timeout(); d && *d <= at) a.handle_timeout(at);
      if (auto d = t.poll_timeout(); d && *d <= at) t.handle_timeout(at);
      sent_a += send_due(a, at);
      sent_t += send_due(t, at);
    }
    ASSERT_DOUBLE_EQ(a.law().rate_bytes_per_s(), t.law().rate_bytes_per_s()) << step;
  }
  EXPECT_EQ(sent_a, sent_t);
  EXPECT_FALSE(a.law().probing());
}

// Runs the sender's timers from `from` to `to` in 1 ms steps; counts data and probes.
void run(RateSender& s, Time from, Time to, int& data, int& probes) {
  for (Time t = from; t < to; t += Duration::millis(1)) {
    if (auto d = s.poll_timeout(); d && *d <= t) s.handle_timeout(t);
    data += send_due(s, t, &probes);
  }
}

TEST(Algorithm2, TimeoutOutsideCongestionFreezesAndProbes) {
  AdtfrcSender s;
  to_equation(s);
  s.handle_datagram(ms(300), report(ms(200), 30000, kP, NetworkState::kRouteChange), Ecn::kNotEct);
  const double frozen = s.law().rate_bytes_per_s();
  const Time deadline = *s.state().nofeedback_deadline();
  int data = 0, probes = 0;
  run(s, ms(301), deadline, data, probes);
  EXPECT_GT(data, 0);
  EXPECT_EQ(probes, 0);
  data = 0;
  run(s, deadline, deadline + Duration::millis(5500), data, probes);
  EXPECT_TRUE(s.law().probing());
  EXPECT_EQ(data, 0);    // data stops
  EXPECT_EQ(probes, 6);  // one at once, then one per second
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), frozen);
}

TEST(Algorithm2, FirstFeedbackEndsProbingAtTheFrozenRate) {
  AdtfrcSender s;
  to_equation(s);
  s.handle_datagram(ms(300), report(ms(200), 30000, kP, NetworkState::kNormal), Ecn::kNotEct);
  const double frozen = s.law().rate_bytes_per_s();
  int data = 0, probes = 0;
  run(s, ms(301), ms(3000), data, probes);
  ASSERT_TRUE(s.law().probing());
  // The answer to a probe: nothing was received for seconds (X_recv = 0).
  s.handle_datagram(ms(3000), report(ms(2900), 0, kP, NetworkState::kNormal), Ecn::kNotEct);
  EXPECT_FALSE(s.law().probing());
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), frozen);
  data = 0;
  run(s, ms(3000), ms(3100), data, probes);
  EXPECT_NEAR(data, frozen * 0.1 / 1000, 1.5);  // data at the frozen rate
  // Reports about the silence do not pull the rate down for the next RTT.
  s.handle_datagram(ms(3100), report(ms(3050), 2000, kP, NetworkState::kNormal), Ecn::kNotEct);
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), frozen);
}

TEST(Algorithm2, ClosesAfterMaxProbingLimit) {
  SenderConfig c;
  c.max_probing_limit = 4;
  AdtfrcSender s(c);
  to_equation(s);
  s.handle_datagram(ms(300), report(ms(200), 30000, kP, NetworkState::kChannelError), Ecn::kNotEct);
  int data = 0, probes = 0;
  run(s, ms(301), ms(20000), data, probes);
  EXPECT_TRUE(s.law().closed());
  EXPECT_EQ(probes, 4);
  EXPECT_FALSE(s.poll_timeout());
}

TEST(Algorithm2, TimeoutInCongestionIsTfrcsBackOff) {
  AdtfrcSender s;
  to_equation(s);
  s.handle_datagram(ms(300), report(ms(200), 30000, kP, NetworkState::kCongestion), Ecn::kNotEct);
  const double before = s.law().rate_bytes_per_s();
  const Time deadline = *s.state().nofeedback_deadline();
  int data = 0, probes = 0;
  // Two expiries: the first halves X_recv_set (X = 2 * X_recv/2 = X_recv, the
  // CONG rate already), the second halves X (RFC 5348 §4.4).
  run(s, ms(301), deadline + Duration::millis(450), data, probes);
  EXPECT_FALSE(s.law().probing());
  EXPECT_EQ(probes, 0);
  EXPECT_DOUBLE_EQ(s.law().rate_bytes_per_s(), before / 2);
  data = 0;
  run(s, deadline + Duration::millis(450), deadline + Duration::millis(650), data, probes);
  EXPECT_GT(data, 0);  // still sending data, slower
}

TEST(AdtfrcSenderParams, OwnAndTfrcParametersAreChecked) {
  SenderConfig c;
  EXPECT_EQ(AdtfrcLaw::parse({{"probing_period_s", 0.5}, {"max_probing_limit", 10}, {"packet_size", 500}}, c), "");
  EXPECT_EQ(c.probing_period, Duration::millis(500));
  EXPECT_EQ(c.max_probing_limit, 10);
  EXPECT_EQ(c.sending.packet_bytes, 500);
  EXPECT_NE(AdtfrcLaw::parse({{"probing_period_s", 0}}, c).find("probing_period_s"), std::string::npos);
  EXPECT_EQ(AdtfrcLaw::parse({{"probe", 1}}, c), "unknown parameter 'probe'");
}

}  // namespace
}  // namespace mantra::adtfrc
