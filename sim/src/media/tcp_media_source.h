// A video over TCP (newreno, reno, freeze-probing, vegas, with elfn, to any
// sink, rsc-var's included): the source writes the stream at the video's
// pace instead of being greedy.
//
// At each GOP's first capture (media_schedule.h) the schedule picks the
// GOP's rung from the rate TcpVideoRate allows (tcp_video_rate.h: the
// socket's delivery-rate samples filtered and probed, capped by the window's
// min(cwnd, max_window) * 8 / sRTT bit/s; before any sample: rung 0); a byte
// stream carries no header per frame, so the overhead factor is 1. With the
// media's `tcp_rate: window`, the window's rate alone (the rule before issue
// 32, kept to compare against). The frame's bytes join an application queue,
// which is pushed into the socket as far as its send buffer takes them
// (GetTxAvailable), resuming on the socket's send callback. A frame whose
// first byte is not yet written when its deadline has passed is skipped
// whole (rung -1, frames_skipped): a live source drops stale frames. A frame
// begun is always finished: a byte stream cannot skip. The socket's send
// buffer holds one window (max_window segments), so what TCP has not sent
// waits in the application queue, where a stale frame can still be skipped
// (as TCP_NOTSENT_LOWAT lets a live sender do). The socket itself holds new
// data back in the disorder state (VariantTcpSocket::AvailableWindow). Each frame's byte
// chunks' byte ranges go into the flow's MediaLog as its first byte is
// written; the sink marks each chunk when the in-order bytes pass its end,
// and the frame whole with its last.
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
#include "media/tcp_video_rate.h"
#include "tcp/variant_tcp_socket.h"

namespace mantra::sim {

class TcpMediaSource {
 public:
  // `make_data`: a packet of that many bytes for the socket (the flow's tags on it).
  TcpMediaSource(MediaLog& log, std::shared_ptr<const MediaSpec> spec, int segment_bytes, int max_window_segments,
                 std::function<ns3::Ptr<ns3::Packet>(uint32_t)> make_data);

  // With the app, once its socket is connecting: follows the socket's window
  // and RTT, takes its send callback, and captures the first frame at the
  // video's start (or now, if later).
  void start(ns3::Ptr<VariantTcpSocket> socket);
  void stop();
  // The rate the window allows now, min(cwnd, max window) * 8 / sRTT bit/s
  // (0 before an RTT sample).
  double window_bps() const;
  // The flow's `media` result.
  nlohmann::json report();

 private:
  struct Queued {
    int64_t frame = 0;
    int64_t left = 0;  // bytes not yet written
    double deadline_s = 0;
    bool started = false;
    std::vector<MediaChunk> chunks;  // its pieces in the stream (media_schedule.h)
  };
  void capture();
  void schedule_next();
  void push();

  MediaLog& log_;
  TcpVideoRateRule rule_;
  MediaSchedule schedule_;
  double max_window_bytes_;
  std::function<ns3::Ptr<ns3::Packet>(uint32_t)> make_data_;
  ns3::Ptr<VariantTcpSocket> socket_;
  TcpVideoRate rate_;
  int64_t delivery_samples_ = 0;
  ns3::EventId event_;
  std::deque<Queued> queue_;
  int64_t stream_bytes_ = 0;  // written into the socket so far
};

}  // namespace mantra::sim
