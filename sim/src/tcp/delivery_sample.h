// A delivery-rate sample of a TCP sender (variant_tcp_socket.h takes them
// with ns-3's TcpRateLinux): the rate in bit/s over the sample's interval,
// and whether the data it times left while the sender was limited by its
// application (then it shows what was offered, not what the path carries).
// No ns-3 in it.
#pragma once

namespace mantra::sim {

struct DeliverySample {
  double rate_bps = 0;
  double interval_s = 0;
  bool app_limited = false;
};

}  // namespace mantra::sim
