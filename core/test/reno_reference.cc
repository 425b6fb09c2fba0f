#include "reno_reference.h"

#include <algorithm>

#include "mantra/wire.h"

namespace mantra::testlink {
namespace {

constexpr uint8_t kRenoData = 0x7F;
constexpr uint8_t kRenoAck = 0x7E;
constexpr Duration kMinRto = Duration::millis(200);

}  // namespace

Datagram RenoSender::make_data(uint32_t seq) {
  Datagram d;
  Writer w(d.bytes);
  w.u8(kRenoData);
  w.u32(seq);
  w.zeros(static_cast<size_t>(packet_bytes_) - 5);
  ++stats_.datagrams_sent;
  stats_.bytes_sent += packet_bytes_;
  return d;
}

std::optional<Datagram> RenoSender::poll_transmit(Time now) {
  if (retransmit_now_) {
    retransmit_now_ = false;
    retransmitted_.insert(snd_una_);
    if (!rto_deadline_) rto_deadline_ = now + rto_ * backoff_;
    return make_data(snd_una_);
  }
  const double window = std::min(cwnd_, max_window_);
  if (static_cast<double>(snd_nxt_ - snd_una_) >= window) return std::nullopt;
  const uint32_t seq = snd_nxt_++;
  if (sent_at_.count(seq) || seq < recover_)
    retransmitted_.insert(seq);
  else
    sent_at_[seq] = now;
  if (!rto_deadline_) rto_deadline_ = now + rto_ * backoff_;
  return make_data(seq);
}

void RenoSender::handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn) {
  Reader r(bytes);
  uint8_t type = 0;
  uint32_t ack = 0;
  if (!r.u8(type) || type != kRenoAck || !r.u32(ack)) {
    ++stats_.datagrams_rejected;
    return;
  }
  ++stats_.datagrams_received;
  const double flight = static_cast<double>(snd_nxt_ - snd_una_);
  if (ack > snd_una_) {
    if (auto it = sent_at_.find(ack - 1); it != sent_at_.end() && !retransmitted_.count(ack - 1)) {
      const Duration sample = now - it->second;
      if (rtt_.has_sample())
        rttvar_s_ = 0.75 * rttvar_s_ + 0.25 * std::abs(rtt_.smoothed_s() - sample.secs());
      else
        rttvar_s_ = sample.secs() / 2;
      rtt_.add_sample(sample);
      rto_ = std::max(kMinRto, Duration::from_seconds(rtt_.smoothed_s() + 4 * rttvar_s_));
    }
    sent_at_.erase(sent_at_.begin(), sent_at_.lower_bound(ack));
    backoff_ = 1;
    if (in_recovery_) {
      if (ack >= recover_) {
        in_recovery_ = false;
        cwnd_ = ssthresh_;
      } else {  // partial ACK: retransmit the next hole (NewReno)
        retransmit_now_ = true;
        cwnd_ = std::max(1.0, cwnd_ - (ack - snd_una_) + 1);
      }
    } else if (cwnd_ < ssthresh_) {
      cwnd_ += std::min<uint32_t>(ack - snd_una_, 2);  // appropriate byte counting, L = 2 (RFC 3465)
    } else {
      cwnd_ += 1.0 / cwnd_;
    }
    snd_una_ = ack;
    if (snd_nxt_ < snd_una_) snd_nxt_ = snd_una_;
    dupacks_ = 0;
    rto_deadline_ = snd_una_ < snd_nxt_ ? std::optional<Time>(now + rto_) : std::nullopt;
    return;
  }
  if (ack == snd_una_ && snd_nxt_ > snd_una_) {
    ++dupacks_;
    if (dupacks_ == 3 && !in_recovery_ && snd_una_ >= recover_) {  // not after an RTO (RFC 6582 §3.2)
      ssthresh_ = std::max(flight / 2.0, 2.0);
      cwnd_ = ssthresh_ + 3;
      recover_ = snd_nxt_;
      in_recovery_ = true;
      retransmit_now_ = true;
    } else if (in_recovery_) {
      cwnd_ += 1;
    }
  }
}

void RenoSender::handle_timeout(Time now) {
  if (!rto_deadline_ || now < *rto_deadline_) return;
  ssthresh_ = std::max(static_cast<double>(snd_nxt_ - snd_una_) / 2.0, 2.0);
  cwnd_ = 1;
  recover_ = snd_nxt_;
  snd_nxt_ = snd_una_;  // go back N
  in_recovery_ = false;
  dupacks_ = 0;
  backoff_ = std::min(backoff_ * 2, 64);
  ++timeouts_;
  rto_deadline_ = now + rto_ * backoff_;
}

Rate RenoSender::allowed_rate() const {
  if (!rtt_.has_sample()) return Rate::zero();
  return Rate::bytes_per_sec(std::min(cwnd_, max_window_) * packet_bytes_ / rtt_.smoothed_s());
}

void RenoReceiver::handle_datagram(Time, std::span<const uint8_t> bytes, Ecn) {
  Reader r(bytes);
  uint8_t type = 0;
  uint32_t seq = 0;
  if (!r.u8(type) || type != kRenoData || !r.u32(seq)) {
    ++stats_.datagrams_rejected;
    return;
  }
  ++stats_.datagrams_received;
  stats_.bytes_received += static_cast<int64_t>(bytes.size());
  if (seq >= next_expected_) out_of_order_.insert(seq);
  while (out_of_order_.count(next_expected_)) out_of_order_.erase(next_expected_++);
  ++pending_acks_;
}

std::optional<Datagram> RenoReceiver::poll_transmit(Time) {
  if (pending_acks_ == 0) return std::nullopt;
  --pending_acks_;
  Datagram d;
  d.kind = DatagramKind::kFeedback;
  Writer w(d.bytes);
  w.u8(kRenoAck);
  w.u32(next_expected_);
  ++stats_.datagrams_sent;
  return d;
}

}  // namespace mantra::testlink
