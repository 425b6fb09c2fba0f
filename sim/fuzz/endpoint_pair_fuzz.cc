// libFuzzer target that drives whole endpoints (issue 29): a sender and a
// receiver of one registered protocol, made through the registry with its
// defaults, talk over a channel the input controls. Each step of the input
// advances the clock, delivers the next datagram either way (as sent, or with
// one byte changed, or cut short), or hands either side bytes of its own. After
// every step both sides run their timers and hand over what they want to send.
// Nothing may crash or trip a sanitizer, and an endpoint's counters (stats())
// only grow. No per-protocol code: a protocol added to the registry is
// fuzzed here as it is. Seed corpus: sim/fuzz/endpoint-corpus/.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "mantra/registry.h"

namespace {

using mantra::Datagram;
using mantra::Duration;
using mantra::Ecn;
using mantra::Endpoint;
using mantra::EndpointStats;
using mantra::Time;

constexpr size_t kMaxQueued = 256;    // datagrams in flight each way; the oldest go first
constexpr int kMaxPollsPerStep = 64;  // poll_transmit calls per side and step

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::span<const uint8_t> bytes(size_t n) {
    n = std::min(n, size_ - at_);
    std::span<const uint8_t> s(data_ + at_, n);
    at_ += n;
    return s;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

struct Side {
  Endpoint* endpoint;
  std::deque<Datagram> outbox;  // what it sent, not yet delivered
  EndpointStats last;
};

void check_counters_grow(Side& side) {
  const EndpointStats now = side.endpoint->stats();
  if (now.datagrams_sent < side.last.datagrams_sent || now.bytes_sent < side.last.bytes_sent ||
      now.datagrams_received < side.last.datagrams_received || now.bytes_received < side.last.bytes_received ||
      now.datagrams_rejected < side.last.datagrams_rejected)
    __builtin_trap();
  side.last = now;
}

// Runs the side's timer if due and collects what it wants to send now.
void run(Side& side, Time now) {
  const auto deadline = side.endpoint->poll_timeout();
  if (deadline && *deadline <= now) side.endpoint->handle_timeout(now);
  for (int i = 0; i < kMaxPollsPerStep; ++i) {
    auto d = side.endpoint->poll_transmit(now);
    if (!d) break;
    side.outbox.push_back(std::move(*d));
    if (side.outbox.size() > kMaxQueued) side.outbox.pop_front();
  }
  check_counters_grow(side);
}

// Delivers `from`'s oldest datagram to `to`: as sent, with one byte changed,
// or cut short, as the input says, with an IP TTL of 60 to 63 (the path's
// hop count changes as the input says).
void deliver(Side& from, Side& to, Time now, Input& in) {
  if (from.outbox.empty()) return;
  Datagram d = std::move(from.outbox.front());
  from.outbox.pop_front();
  const uint8_t how = in.byte();
  std::vector<uint8_t>& b = d.bytes;
  if (!b.empty() && how % 4 == 1) b[in.byte() % b.size()] ^= static_cast<uint8_t>(in.byte() | 1);
  if (!b.empty() && how % 4 == 2) b.resize(in.byte() % b.size());
  const Ecn ecn = how % 4 == 3 ? Ecn::kCe : d.ecn;
  to.endpoint->handle_datagram_with_ttl(now, b, ecn, static_cast<uint8_t>(60 + (how >> 6)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string> names = mantra::protocol_names();
  Input in(data, size);
  const std::string& protocol = names[in.byte() % names.size()];
  mantra::Params sender_params;  // a fixed-rate sender must be given its rate; the rest take defaults
  if (mantra::is_fixed_rate(protocol)) sender_params["rate_bps"] = 200000;
  auto sender = mantra::make_sender(protocol, sender_params);
  auto receiver = mantra::make_receiver(protocol, {});
  if (!sender.endpoint || !receiver.endpoint) {  // a protocol's defaults must make it
    std::fprintf(stderr, "%s: %s%s\n", protocol.c_str(), sender.error.c_str(), receiver.error.c_str());
    __builtin_trap();
  }
  Side tx{sender.endpoint.get(), {}, {}};
  Side rx{receiver.endpoint.get(), {}, {}};

  Time now = Time::from_us(1000000);
  run(tx, now);
  run(rx, now);
  while (!in.empty()) {
    const uint8_t op = in.byte();
    switch (op % 5) {
      case 0:  // time passes: 1 to 256 ms
        now = now + Duration::millis(1 + in.byte());
        break;
      case 1:  // time passes to the sender's next deadline
        if (auto t = tx.endpoint->poll_timeout(); t && *t > now && *t - now <= Duration::seconds(60)) now = *t;
        break;
      case 2:
        deliver(tx, rx, now, in);
        break;
      case 3:
        deliver(rx, tx, now, in);
        break;
      case 4: {  // bytes of the input's own, to either side
        Side& to = (op & 0x80) ? tx : rx;
        const auto bytes = in.bytes(in.byte());
        to.endpoint->handle_datagram(now, bytes, static_cast<Ecn>(op >> 5 & 3));
        break;
      }
    }
    run(tx, now);
    run(rx, now);
  }
  return 0;
}
