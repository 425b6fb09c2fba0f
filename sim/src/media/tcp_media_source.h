// A video over TCP (newreno, reno, freeze-probing, vegas, with elfn, to any
// sink, rsc-var's included): the source writes the stream at the video's
// pace instead of being greedy.
//
// At each frame's capture (media_schedule.h) the schedule picks the frame's
// rung from the rate the window allows, cwnd * 8 / sRTT bit/s (the socket's
// traced CongestionWindow and RTT; no RTT sample yet: rung 0), at most
// max_window segments per sRTT; a byte stream carries no header per frame,
// so the overhead factor is 1. The frame's bytes join an application queue,
// which is pushed into the socket as far as its send buffer takes them
// (GetTxAvailable), resuming on the socket's send callback. A frame whose
// first byte is not yet written when its deadline has passed is skipped
// whole (rung -1, frames_skipped): a live source drops stale frames. A frame
// begun is always finished: a byte stream cannot skip. The socket's send
// buffer holds one window (max_window segments), so what TCP has not sent
// waits in the application queue, where a stale frame can still be skipped
// (as TCP_NOTSENT_LOWAT lets a live sender do). Nothing is written while the
// socket is in the disorder state (duplicate ACKs before a fast retransmit):
// ns-3's TcpSocketBase without SACK or limited transmit asserts that no new
// data leaves then, which a greedy sender, its window full, never tries; the
// data goes as soon as the state changes. Each frame's byte
// range goes into the flow's MediaLog as its first byte is written; the sink
// marks a frame whole when its in-order bytes pass the range's end.
#pragma once

#include <ns3/event-id.h>
#include <ns3/nstime.h>
#include <ns3/packet.h>
#include <ns3/ptr.h>
#include <ns3/socket.h>
#include <ns3/tcp-socket-base.h>

#include <deque>
#include <functional>
#include <memory>

#include "media/media_log.h"
#include "media/media_schedule.h"

namespace mantra::sim {

class TcpMediaSource {
 public:
  // `make_data`: a packet of that many bytes for the socket (the flow's tags on it).
  TcpMediaSource(MediaLog& log, std::shared_ptr<const MediaSpec> spec, int segment_bytes, int max_window_segments,
                 std::function<ns3::Ptr<ns3::Packet>(uint32_t)> make_data);

  // With the app, once its socket is connecting: follows the socket's window
  // and RTT, takes its send callback, and captures the first frame at the
  // video's start (or now, if later).
  void start(ns3::Ptr<ns3::TcpSocketBase> socket);
  void stop();
  // The rate the window allows now, bit/s (0 before an RTT sample).
  double allowed_bps() const;
  // The flow's `media` result.
  nlohmann::json report();

 private:
  struct Queued {
    int64_t frame = 0;
    int64_t left = 0;  // bytes not yet written
    double deadline_s = 0;
    bool started = false;
  };
  static void on_cong_state(TcpMediaSource* self, ns3::TcpSocketState::TcpCongState_t before,
                            ns3::TcpSocketState::TcpCongState_t now);
  void capture();
  void schedule_next();
  void push();

  MediaLog& log_;
  MediaSchedule schedule_;
  double max_window_bytes_;
  std::function<ns3::Ptr<ns3::Packet>(uint32_t)> make_data_;
  ns3::Ptr<ns3::TcpSocketBase> socket_;
  ns3::EventId event_;
  std::deque<Queued> queue_;
  int64_t stream_bytes_ = 0;  // written into the socket so far
  uint32_t cwnd_bytes_ = 0;   // the socket's congestion window, as traced
  double srtt_s_ = 0;         // its smoothed RTT, as traced; 0: no sample yet
  ns3::Callback<void, uint32_t, uint32_t> cwnd_trace_;
  ns3::Callback<void, ns3::Time, ns3::Time> rtt_trace_;
  ns3::Callback<void, ns3::TcpSocketState::TcpCongState_t, ns3::TcpSocketState::TcpCongState_t> state_trace_;
  bool disorder_ = false;  // the socket is in CA_DISORDER: hold new data (on_cong_state)
};

}  // namespace mantra::sim
