#include "common/throughput_equation.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mantra {

double tfrc_rate(double s_bytes, double rtt_s, double p, double t_rto_s) {
  if (p <= 0.0) return std::numeric_limits<double>::infinity();
  const double b = 1.0;  // packets acknowledged per ACK; RFC 5348 recommends 1
  if (t_rto_s <= 0.0) t_rto_s = 4.0 * rtt_s;
  const double denom =
      rtt_s * std::sqrt(2.0 * b * p / 3.0) + t_rto_s * (3.0 * std::sqrt(3.0 * b * p / 8.0)) * p * (1.0 + 32.0 * p * p);
  return s_bytes / denom;
}

double loss_rate_for(const std::function<double(double)>& rate_of_p, double x_bytes_per_s) {
  if (rate_of_p(1.0) >= x_bytes_per_s) return 1.0;
  double lo = 1e-12, hi = 1.0;  // rate(lo) > x >= ... > rate(hi)
  if (rate_of_p(lo) <= x_bytes_per_s) return lo;
  for (int i = 0; i < 200 && hi / lo > 1.0 + 1e-12; ++i) {
    const double mid = std::sqrt(lo * hi);  // bisect in log space: p spans decades
    if (rate_of_p(mid) > x_bytes_per_s)
      lo = mid;
    else
      hi = mid;
  }
  return std::sqrt(lo * hi);
}

double synthetic_first_interval(double s_bytes, double rtt_s, double receive_rate_Bps) {
  const double x_target = std::max(receive_rate_Bps, 0.5 * s_bytes / rtt_s);
  return 1.0 / tfrc_loss_rate_for(s_bytes, rtt_s, x_target);
}

double tfrc_loss_rate_for(double s_bytes, double rtt_s, double x_bytes_per_s) {
  return loss_rate_for([&](double p) { return tfrc_rate(s_bytes, rtt_s, p); }, x_bytes_per_s);
}

double floyd_rate(double s_bytes, double rtt_s, double p, double k) {
  if (p <= 0.0) return std::numeric_limits<double>::infinity();
  return k * s_bytes / (rtt_s * std::sqrt(p));
}

double refined_ecn_rate(double s_bytes, double rtt_s, double p) {
  if (p <= 0.0) return std::numeric_limits<double>::infinity();
  return s_bytes / (p * (std::sqrt(2.0 / (3.0 * p) + 25.0 / 36.0) + 7.0 / 6.0) * rtt_s);
}

}  // namespace mantra
