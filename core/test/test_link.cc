#include "test_link.h"

#include <algorithm>
#include <stdexcept>

namespace mantra::testlink {

TestLink::TestLink(LinkConfig config) : config_(config), rng_(config.seed) {}

size_t TestLink::add_flow(std::unique_ptr<Sender> sender, std::unique_ptr<Receiver> receiver, Time start) {
  flows_.push_back(Flow{std::move(sender), std::move(receiver), start, false, {}, {}});
  return flows_.size() - 1;
}

void TestLink::send_forward(size_t flow, Datagram d) {
  auto& c = flows_[flow].counters;
  if (d.kind == DatagramKind::kData) ++c.data_sent;
  while (!departures_.empty() && departures_.front() <= now_) departures_.pop_front();
  if (static_cast<int>(departures_.size()) >= config_.queue_packets) {
    ++c.queue_drops;
    return;
  }
  const Time start = std::max(now_, link_free_);
  link_free_ = start + Bytes(static_cast<int64_t>(d.bytes.size())) / config_.bandwidth;
  departures_.push_back(link_free_);
  if (uniform_(rng_) < config_.loss) {
    ++c.random_drops;
    return;
  }
  const bool ecn_capable = d.ecn == Ecn::kEct0 || d.ecn == Ecn::kEct1;
  if (config_.ce_mark > 0 && ecn_capable && uniform_(rng_) < config_.ce_mark) {
    d.ecn = Ecn::kCe;
    ++c.ce_marked;
  }
  in_flight_.push({link_free_ + config_.delay, flow, true, std::move(d), order_++});
}

void TestLink::send_reverse(size_t flow, Datagram d) {
  if (uniform_(rng_) < config_.reverse_loss) return;
  in_flight_.push({now_ + config_.delay, flow, false, std::move(d), order_++});
}

void TestLink::drain(size_t i) {
  Flow& f = flows_[i];
  if (!f.started) return;
  while (auto d = f.sender->poll_transmit(now_)) send_forward(i, std::move(*d));
  while (auto d = f.receiver->poll_transmit(now_)) send_reverse(i, std::move(*d));
}

Time TestLink::next_event() const {
  Time next = Time::never();
  if (!in_flight_.empty()) next = in_flight_.top().at;
  for (const auto& f : flows_) {
    if (!f.started) {
      next = std::min(next, f.start);
      continue;
    }
    if (auto t = f.sender->poll_timeout()) next = std::min(next, *t);
    if (auto t = f.receiver->poll_timeout()) next = std::min(next, *t);
  }
  return next;
}

void TestLink::run(Time until) {
  int64_t events_at_same_time = 0;
  Time last = now_;
  while (true) {
    const Time next = next_event();
    if (next > until) {
      now_ = until;
      break;
    }
    now_ = std::max(now_, next);
    if (now_ == last && ++events_at_same_time > 100000) throw std::logic_error("endpoint does not advance time");
    if (now_ != last) {
      events_at_same_time = 0;
      last = now_;
    }

    while (!in_flight_.empty() && in_flight_.top().at <= now_) {
      InFlight p = in_flight_.top();
      in_flight_.pop();
      Flow& f = flows_[p.flow];
      if (p.to_receiver) {
        if (p.datagram.kind == DatagramKind::kData) {
          ++f.counters.data_delivered;
          f.counters.bytes_delivered += static_cast<int64_t>(p.datagram.bytes.size());
          f.deliveries.emplace_back(now_, static_cast<int64_t>(p.datagram.bytes.size()));
        }
        f.receiver->handle_datagram(now_, p.datagram.bytes, p.datagram.ecn);
      } else {
        f.sender->handle_datagram(now_, p.datagram.bytes, p.datagram.ecn);
      }
    }
    for (auto& f : flows_) {
      if (!f.started && f.start <= now_) f.started = true;
      if (!f.started) continue;
      if (auto t = f.sender->poll_timeout(); t && *t <= now_) f.sender->handle_timeout(now_);
      if (auto t = f.receiver->poll_timeout(); t && *t <= now_) f.receiver->handle_timeout(now_);
    }
    for (size_t i = 0; i < flows_.size(); ++i) drain(i);
  }
}

Rate TestLink::delivered_rate(size_t i, Time from, Time to) const {
  int64_t bytes = 0;
  for (const auto& [t, b] : flows_[i].deliveries) {
    if (t >= from && t < to) bytes += b;
  }
  return Bytes(bytes) / (to - from);
}

}  // namespace mantra::testlink
