#include "endpoint_link.h"

#include "clock.h"

namespace mantra::udp {

bool EndpointLink::pump(Time now, const std::function<void(Time, Datagram&)>& before_send) {
  if (endpoint_ == nullptr) return false;
  Time t = clock(now);
  const Time horizon = now + kGranularity;
  std::vector<Outgoing> out;
  std::vector<Ecn> ecns;
  wires_.resize(kBurst);
  int n = 0;
  while (n < kBurst) {
    if (auto due = endpoint_->poll_timeout(); due && *due <= t) endpoint_->handle_timeout(t);
    auto d = endpoint_->poll_transmit(t);
    if (!d) {  // nothing due by t: step to the next send time if it is within the granularity
      const auto next = endpoint_->poll_timeout();
      if (next && *next > t && *next <= horizon) {
        t = *next;
        continue;
      }
      break;
    }
    const bool data = d->kind == DatagramKind::kData;
    if (data && before_send) before_send(now, *d);  // stamped with the real clock, not the endpoint's
    std::vector<uint8_t>& wire = wires_[static_cast<size_t>(n)];
    wire = std::move(d->bytes);
    append_trailer(wire, {token_, data ? WireKind::kCoreData : WireKind::kCoreOther});
    counters_.wire_bytes_sent += static_cast<int64_t>(wire.size());
    counters_.trailer_bytes_sent += static_cast<int64_t>(kTrailerBytes);
    log_.write(now, "tx", data ? "data" : "control", wire.size(), static_cast<int>(d->ecn));
    ecns.push_back(d->ecn);
    ++n;
  }
  endpoint_now_ = t;
  out.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back({wires_[static_cast<size_t>(i)], peer_, ecns[static_cast<size_t>(i)]});
  socket_.send(out);
  return n == kBurst;
}

std::optional<Time> EndpointLink::deadline() const {
  return endpoint_ != nullptr ? endpoint_->poll_timeout() : std::nullopt;
}

std::optional<std::pair<WireKind, std::span<const uint8_t>>> EndpointLink::accept(Time now, const Received& r) {
  const auto split = split_trailer(r.bytes);
  const char* verdict = nullptr;
  if (!(r.from == peer_)) {
    ++counters_.foreign_address;
    verdict = "foreign";
  } else if (!split) {
    ++counters_.no_trailer;
    verdict = "foreign";
  } else if (split->first.token != token_) {
    ++counters_.foreign_token;
    verdict = "foreign";
  }
  if (verdict != nullptr) {
    log_.write(now, "rx", verdict, r.bytes.size(), static_cast<int>(r.ecn));
    return std::nullopt;
  }
  counters_.wire_bytes_received += static_cast<int64_t>(r.bytes.size());
  return std::make_pair(split->first.kind, split->second);
}

void EndpointLink::send_session(Time now, WireKind kind, std::vector<uint8_t> body) {
  append_trailer(body, {token_, kind});
  counters_.wire_bytes_sent += static_cast<int64_t>(body.size());
  counters_.trailer_bytes_sent += static_cast<int64_t>(kTrailerBytes);
  log_.write(now, "tx", "session", body.size(), 0);
  const Outgoing o{body, peer_, Ecn::kNotEct};
  socket_.send({&o, 1});
}

Ready EndpointLink::wait_and_hear(Poller& poller, std::optional<Time> deadline, std::vector<Heard>& heard,
                                  std::string& error) {
  heard.clear();
  const Ready ready = poller.wait(deadline);
  if (ready.socket_error()) socket_.read_errors();
  if (!ready.socket()) return ready;
  if (error = socket_.receive(batch_); !error.empty()) return ready;
  const Time now = monotonic_now();
  for (const Received& r : batch_) {
    if (const auto got = accept(now, r)) heard.push_back({got->first, got->second, r.ecn, r.ttl, now});
  }
  return ready;
}

}  // namespace mantra::udp
