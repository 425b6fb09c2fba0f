// TCP throughput models that rate-based protocols use to stay TCP-friendly.
//
//   tfrc_rate     RFC 5348 §3.1 (the PFTK equation with b = 1):
//                   X = s / (R*sqrt(2bp/3) + t_RTO*(3*sqrt(3bp/8))*p*(1+32p^2))
//   floyd_rate    Floyd's periodic-loss model, X = K*s/(R*sqrt(p)), K = 1.22
//                 (TF-WMFC paper eq. 2).
//   refined_ecn_rate
//                 The refined ECN-TCP model of the TF-WMFC paper, eq. 3 / A.4,
//                   X = s / (p*(sqrt(2/(3p) + 25/36) + 7/6)*R)
//                 The extracted text garbles eq. 4; we use A.4, which the
//                 appendix derives from W = sqrt(8/(3p) + 25/9) - 5/3 and a
//                 cycle of 2 + W/2 RTTs (checked by re-deriving it).
//
// All rates are in bytes per second; s in bytes, R and t_RTO in seconds.
#pragma once

#include <functional>

namespace mantra {

constexpr double kFloydK = 1.22;  // periodic-loss constant, TF-WMFC §2.1

// RFC 5348 equation. t_rto_s <= 0 means the RFC's recommended 4R.
double tfrc_rate(double s_bytes, double rtt_s, double p, double t_rto_s = -1.0);

// The inverse used for the first loss interval (RFC 5348 §6.3.1): the loss
// event rate p at which tfrc_rate(s, R, p) equals x_bytes_per_s, found by
// bisection on (0, 1] (the equation decreases strictly in p). Returns 1 when
// even p = 1 allows more than x, and a tiny p when x is unreachable high.
double tfrc_loss_rate_for(double s_bytes, double rtt_s, double x_bytes_per_s);

// RFC 5348 §6.3.1: the synthetic first loss interval, in packets, at a
// receiver's first loss event: the interval for which the equation gives
// X_target, the receive rate over the last RTT, no less than 0.5 packets
// per RTT.
double synthetic_first_interval(double s_bytes, double rtt_s, double receive_rate_Bps);

// The p at which a model that falls strictly in p gives x_bytes_per_s, by
// bisection in log space on [1e-12, 1]: 1 when even p = 1 allows more than
// x, 1e-12 when x is beyond the model's rate there.
double loss_rate_for(const std::function<double(double)>& rate_of_p, double x_bytes_per_s);

double floyd_rate(double s_bytes, double rtt_s, double p, double k = kFloydK);

double refined_ecn_rate(double s_bytes, double rtt_s, double p);

}  // namespace mantra
