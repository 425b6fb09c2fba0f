#include "tfwmfc/tfwmfc_receiver.h"

#include <algorithm>

#include "common/floor_report.h"

namespace mantra::tfwmfc {

std::string TfwmfcReceiver::parse(const Params& params, ReceiverConfig& out) {
  out = {};
  ParamReader r(params);
  const double t = r.get("report_interval_s", out.report_interval.secs());
  r.require(t >= 0.001 && t <= 3600, "report_interval_s must be between 0.001 and 3600");
  out.report_interval = Duration::from_seconds(t);
  read_floor_report(r);  // taken, nothing to add: the reports carry n_pkt and n_lost
  return r.finish();
}

void TfwmfcReceiver::on_data(const DataHeader& h, Ecn ecn) {
  ++n_pkt_;
  if (ecn == Ecn::kCe) {
    ++n_marked_;
    ++marked_total_;
  }
  const auto seq = static_cast<int64_t>(h.seq);
  if (!base_seq_) base_seq_ = seq;
  max_seq_ = std::max(max_seq_, seq);
  ++received_;
  clock_.on_data();
}

void TfwmfcReceiver::handle_datagram(Time now, std::span<const uint8_t> bytes, Ecn ecn) {
  const auto kind = peek_kind(bytes);
  if (kind == Kind::kData) {
    if (const auto h = decode_data(bytes)) {
      stats_.count_received(bytes.size(), ecn);
      on_data(*h, ecn);
      return;
    }
  } else if (kind == Kind::kSenderReport) {
    if (const auto sr = decode_sender_report(bytes)) {
      stats_.count_received(bytes.size(), ecn);
      t_s_ = sr->t_s;
      t_s_arrival_ = now;
      return;
    }
  }
  ++stats_.datagrams_rejected;
}

std::optional<Datagram> TfwmfcReceiver::poll_transmit(Time now) {
  if (!clock_.due()) return std::nullopt;
  ReceiverReport rr;
  rr.n_pkt = n_pkt_;
  rr.n_marked = n_marked_;
  const int64_t expected = base_seq_ ? max_seq_ - *base_seq_ + 1 : 0;
  const int64_t lost = std::max<int64_t>(0, (expected - expected_prior_) - (received_ - received_prior_));
  rr.n_lost = static_cast<uint32_t>(std::min<int64_t>(lost, UINT32_MAX));
  expected_prior_ = expected;
  received_prior_ = received_;
  lost_total_ += lost;
  if (t_s_) {
    rr.t_s = t_s_;
    rr.t_d = now - t_s_arrival_;
  }
  n_pkt_ = 0;
  n_marked_ = 0;
  ++reports_;
  clock_.reported(now, config_.report_interval);
  Datagram d;
  d.kind = DatagramKind::kFeedback;
  d.bytes = encode_receiver_report(rr);
  stats_.count_sent(d.bytes.size());
  return d;
}

EndpointStats TfwmfcReceiver::stats() const {
  EndpointStats s = stats_;
  s.diagnostics = {{"receiver_reports", static_cast<double>(reports_)},
                   {"marked", static_cast<double>(marked_total_)},
                   {"lost", static_cast<double>(lost_total_)}};
  return s;
}

}  // namespace mantra::tfwmfc
