// What a rate sender's plumbing knows, as its rate law may read it: the
// start, the last send, the RTT estimate the law feeds, the nominal packet
// size s, the no-feedback timer and the record of which sends had more
// data waiting behind them (RFC 5348 §8.2.1's data-limited test).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

#include "common/rtt_estimator.h"
#include "mantra/units.h"

namespace mantra {

class SendState {
 public:
  explicit SendState(int64_t packet_bytes) : packet_bytes_(packet_bytes) {}

  // s: the packet size the rate law computes with. With a source of varying
  // sizes it is the mean size of the data packets sent so far (RFC 5348
  // §4.1: s is the average segment size); otherwise the nominal size.
  int64_t packet_bytes() const { return packet_bytes_; }

  bool started() const { return started_; }
  Time start() const { return start_; }
  Time last_send() const { return last_send_; }
  // Whether a data packet went out since the no-feedback timer was last set.
  bool sent_since_timer_set() const { return last_send_ >= timer_set_at_; }

  const RttEstimator& rtt() const { return rtt_; }
  bool has_rtt() const { return rtt_.has_sample(); }
  void add_rtt_sample(Duration sample) { rtt_.add_sample(sample); }

  std::optional<Time> nofeedback_deadline() const { return nofeedback_deadline_; }

  // RFC 5348 §8.2.1 reading: the interval [from, to] was data-limited if no
  // packet sent in it had more data waiting behind it. Kept only for laws
  // that ask (keep_send_log), trimmed by them (forget_sends_before).
  bool interval_was_data_limited(Time from, Time to) const;
  void forget_sends_before(Time t);

 private:
  friend class RateSender;  // the plumbing writes; a law reads, feeds RTT samples and trims the send log

  int64_t packet_bytes_;
  bool started_ = false;
  Time start_;
  Time last_send_;
  Time timer_set_at_;
  std::optional<Time> nofeedback_deadline_;
  RttEstimator rtt_;
  bool keep_send_log_ = false;
  std::deque<std::pair<Time, bool>> sends_;  // (send time, more data waiting)
  int64_t data_packets_sent_ = 0;
  int64_t data_bytes_sent_ = 0;
};

}  // namespace mantra
