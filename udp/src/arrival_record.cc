#include "arrival_record.h"

#include <algorithm>

#include "measurement/flow_metrics.h"

namespace mantra::udp {

bool ArrivalRecord::on_data(uint64_t number, double sent_s, double received_s, int64_t bytes) {
  if (number < kMaxNumbers) {
    if (number >= seen_.size()) seen_.resize(std::max<size_t>(number + 1, 2 * seen_.size()), false);
    if (seen_[number]) {
      ++duplicates_;
      duplicate_times_.push_back(received_s);
      return false;
    }
    seen_[number] = true;
  }
  arrivals_.push_back({number, sent_s, received_s, bytes});
  return true;
}

nlohmann::json ArrivalRecord::summary(const std::string& protocol, int64_t packet_size, double measure_from_s,
                                      double end_s, const Bye* bye,
                                      std::vector<std::pair<std::string, double>> receiver_diagnostics) const {
  sim::FlowSpec flow;
  flow.protocol = protocol;
  flow.src = 0;
  flow.dst = 1;
  flow.start_s = 0;
  flow.stop_s = std::max(end_s, 1e-6);
  flow.packet_size = static_cast<int>(packet_size);
  sim::FlowMetrics metrics(flow, 1.0, 10.0, std::min(measure_from_s, flow.stop_s), flow.stop_s);

  // Sent: every arrival by its send time, then the datagrams that never
  // arrived, interpolated between the arrivals numbered around them.
  std::vector<Arrival> by_number = arrivals_;
  std::sort(by_number.begin(), by_number.end(), [](const Arrival& a, const Arrival& b) { return a.number < b.number; });
  int64_t arrived_bytes = 0;
  for (const Arrival& a : by_number) {
    metrics.on_sent(a.sent_s, a.bytes);
    arrived_bytes += a.bytes;
  }
  if (bye != nullptr && bye->data_packets > static_cast<uint64_t>(by_number.size()) &&
      bye->data_packets <= kMaxNumbers) {
    const uint64_t missing = bye->data_packets - by_number.size();
    const int64_t missing_bytes = std::max<int64_t>(0, static_cast<int64_t>(bye->core_bytes) - arrived_bytes);
    const double each = static_cast<double>(missing_bytes) / static_cast<double>(missing);
    double carried = 0;
    size_t next = 0;  // the first arrival numbered above the current number
    double before_s = 0;
    uint64_t before_n = 0;
    bool have_before = false;
    for (uint64_t n = 0; n < bye->data_packets; ++n) {
      while (next < by_number.size() && by_number[next].number < n) ++next;
      if (next < by_number.size() && by_number[next].number == n) {
        before_s = by_number[next].sent_s;
        before_n = n;
        have_before = true;
        continue;
      }
      double t = have_before ? before_s : 0;
      if (next < by_number.size()) {
        const Arrival& after = by_number[next];
        const double from_s = have_before ? before_s : 0;
        const double from_n = have_before ? static_cast<double>(before_n) : -1.0;
        t = from_s +
            (after.sent_s - from_s) * (static_cast<double>(n) - from_n) / (static_cast<double>(after.number) - from_n);
      }
      carried += each;
      const auto bytes = static_cast<int64_t>(carried);
      carried -= static_cast<double>(bytes);
      metrics.on_sent(t, bytes);
    }
  }
  std::vector<Arrival> by_arrival = arrivals_;  // already in arrival order
  for (const Arrival& a : by_arrival) {
    metrics.on_arrival(a.received_s, a.sent_s);
    metrics.on_goodput(a.received_s, a.bytes);
  }
  for (double t : duplicate_times_) metrics.on_duplicate(t);
  if (bye != nullptr) metrics.set_diagnostics("sender", bye->diagnostics);
  metrics.set_diagnostics("receiver", std::move(receiver_diagnostics));
  return metrics.summary();
}

}  // namespace mantra::udp
