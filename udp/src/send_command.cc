#include "send_command.h"

#include <sys/random.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "app_frame.h"
#include "byte_source.h"
#include "clock.h"
#include "endpoint_link.h"
#include "live_video.h"
#include "mantra/registry.h"
#include "mantra_version.h"
#include "poller.h"
#include "result_output.h"
#include "video_source.h"

namespace mantra::udp {
namespace {

constexpr Duration kHelloEvery = Duration::millis(250);
constexpr Duration kByeEvery = Duration::millis(200);
constexpr Duration kByeWait = Duration::seconds(2);
constexpr Duration kProgressEvery = Duration::seconds(1);
constexpr Duration kDefaultDuration = Duration::seconds(10);  // without a file
constexpr int64_t kMaxOutstanding = 64;  // offered, not yet sent: below the source's 100-packet bound

uint64_t random_token() {
  uint64_t t = 0;
  while (getrandom(&t, sizeof t, 0) != sizeof t) {
  }
  return t;
}

struct Chunk {
  uint64_t offset = 0;
  std::vector<uint8_t> bytes;
};

// The sender's parameters: the user's, the packet size made explicit (so the
// driver knows its datagrams' size) and the source the options name.
Params sender_params(const SendOptions& o, bool fixed_rate, std::string& error) {
  Params p = o.params;
  p.emplace("packet_size", 1000);  // mantra-sim's default (spec.h)
  if (fixed_rate) {
    if (o.source != SourceMode::kRate) error = "--rate: " + o.protocol + " sends at a given rate; give it";
    p["rate_bps"] = o.rate_bps;
  } else if (o.source == SourceMode::kRate) {
    p["source_rate_bps"] = o.rate_bps;
  }
  if (o.source == SourceMode::kFile || o.source == SourceMode::kStdin || o.source == SourceMode::kVideo)
    p["source_offered"] = 1;
  if (o.floor) p.emplace("safety_floor", 1);  // on a real path: on unless said otherwise
  return p;
}

}  // namespace

int run_send(const SendOptions& o) {
  const auto fail = [](const std::string& why) {
    std::fprintf(stderr, "mantra-udp send: %s\n", why.c_str());
    return 1;
  };
  std::string error;
  const Params params = sender_params(o, is_fixed_rate(o.protocol), error);
  if (!error.empty()) return fail(error);
  Made<Sender> made = make_sender(o.protocol, params);
  if (!made.endpoint) return fail("--protocol " + o.protocol + ": " + made.error);
  Sender& sender = *made.endpoint;
  const int64_t packet_bytes = static_cast<int64_t>(params.at("packet_size"));
  const int64_t header_bytes = sender.data_header_bytes();
  const int64_t room = app_room(packet_bytes, header_bytes);
  const bool carries_bytes = o.source == SourceMode::kFile || o.source == SourceMode::kStdin;
  const bool carries_video = o.source == SourceMode::kVideo;
  if (room < (carries_bytes || carries_video ? 1 : 0)) {
    return fail("--set packet_size=" + std::to_string(packet_bytes) + ": leaves no room for the " +
                std::to_string(kFrameBytes) + "-byte application frame after " + o.protocol + "'s " +
                std::to_string(header_bytes) + "-byte header");
  }

  VideoSource video;
  if (carries_video) {
    if (error = video.open(o.video, o.duration_s.value_or(kDefaultDuration.secs())); !error.empty()) return fail(error);
    if (video.spec()->largest_datagram_bytes() > room) {
      return fail("--set packet_size=" + std::to_string(packet_bytes) + ": leaves " + std::to_string(room) +
                  " bytes for video; " + o.video + "'s slices come in datagrams of up to " +
                  std::to_string(video.spec()->largest_datagram_bytes()));
    }
  }

  UdpSocket socket;
  if (error = socket.open(o.bind); !error.empty()) return fail(error);
  if (!o.gso) socket.disable_gso();
  Poller poller;
  if (error = poller.open({socket.fd()}); !error.empty()) return fail(error);
  const Time start = monotonic_now();
  PacketLog log;
  if (error = log.open(o.log, start); !error.empty()) return fail(error);
  ByteSource source;
  if (carries_bytes) {
    if (error = source.open(o.source == SourceMode::kFile ? o.file : "-"); !error.empty()) return fail(error);
    poller.watch_input(source.fd());
  }
  EndpointLink link(socket, log);
  link.connect(o.peer, random_token());

  // The hello, until the receiver accepts or refuses.
  Params receiver_params = o.receiver_params;
  if (o.floor) receiver_params.emplace("floor_report", 1);  // every registered receiver takes it
  const AppKind app = carries_video ? AppKind::kVideo : (carries_bytes ? AppKind::kBytes : AppKind::kNone);
  Hello hello{o.protocol, params, receiver_params, boot_id(), 0, static_cast<uint16_t>(header_bytes), app};
  std::optional<Accept> accepted;
  Time t3;
  std::vector<EndpointLink::Heard> heard;
  const Time give_up = start + Duration::from_seconds(o.handshake_timeout_s);
  Time next_hello = start;
  bool stop = false;
  while (!accepted && !stop) {
    Time now = monotonic_now();
    if (now >= give_up)
      return fail("no answer from " + o.peer.text() + " within " +
                  std::to_string(static_cast<int>(o.handshake_timeout_s)) + " s");
    if (now >= next_hello) {
      hello.t0_us = now.us();
      link.send_session(now, WireKind::kHello, encode_hello(hello));
      next_hello = now + kHelloEvery;
    }
    stop = link.wait_and_hear(poller, std::min(next_hello, give_up), heard, error).stop;
    if (!error.empty()) return fail(error);
    for (const auto& h : heard) {
      if (h.kind == WireKind::kRefuse) {
        const auto why = decode_refuse(h.body);
        return fail("the receiver refused: " + (why ? *why : why.error()));
      }
      if (h.kind != WireKind::kAccept) continue;
      const auto a = decode_accept(h.body);
      if (a && a->t0_us == hello.t0_us) {  // the answer to the latest hello: its round trip is known
        accepted = *a;
        t3 = h.at;
      }
    }
  }
  if (stop) return fail("stopped before the receiver answered");

  // The receiver's clock: the same one on one host, else NTP's offset estimate.
  ClockSync clock;
  clock.same_host = !hello.boot_id.empty() && hello.boot_id == accepted->boot_id;
  if (!clock.same_host) {
    clock.offset_us = ((accepted->t1_us - accepted->t0_us) + (accepted->t2_us - t3.us())) / 2;
    clock.error_us = ((t3.us() - accepted->t0_us) - (accepted->t2_us - accepted->t1_us)) / 2;
  }

  link.attach(&sender);
  const Time data_start = monotonic_now();
  const std::optional<Time> end = o.duration_s
                                      ? std::optional(data_start + Duration::from_seconds(*o.duration_s))
                                      : (carries_bytes ? std::nullopt : std::optional(data_start + kDefaultDuration));
  std::optional<LiveVideo> live;
  if (carries_video) live.emplace(video, sender, packet_bytes, data_start);
  std::map<int64_t, Chunk> chunks;  // offered, by app id
  int64_t offered = 0, app_sent = 0;
  uint64_t app_offset = 0;
  uint64_t data_packets = 0, core_bytes = 0;
  std::vector<uint8_t> read_buffer;
  bool input_waiting = carries_bytes;  // whether the input may have bytes now
  Time next_progress = data_start + kProgressEvery;

  const auto write_frame_into = [&](Time now, Datagram& d) {
    AppFrame f{data_packets++, now.us() + clock.offset_us, d.app_id, 0, {}};
    core_bytes += d.bytes.size();
    if (live) live->on_sent(d.app_id, f);
    auto chunk = chunks.find(d.app_id);
    if (chunk != chunks.end()) {
      f.offset = chunk->second.offset;
      f.bytes = chunk->second.bytes;
    }
    if (!write_frame(d.bytes, static_cast<size_t>(header_bytes), f)) f.bytes = {};  // cannot happen: sizes checked
    if (chunk != chunks.end()) {
      chunks.erase(chunk);
      ++app_sent;
    }
  };
  const auto source_losses = [&sender] {
    double lost = 0;
    for (const auto& [name, value] : sender.stats().diagnostics)
      if (name == "source_dropped" || name == "source_late") lost += value;
    return static_cast<int64_t>(lost);
  };

  while (!stop) {
    Time now = monotonic_now();
    if (end && now >= *end) break;
    while (input_waiting && offered - app_sent < kMaxOutstanding) {
      const auto r = source.read(static_cast<size_t>(room), read_buffer, error);
      if (!error.empty()) return fail(error);
      if (r != ByteSource::Read::kData) {
        input_waiting = false;
        if (r == ByteSource::Read::kEnd) poller.unwatch_input();
        break;
      }
      chunks[offered] = {app_offset, read_buffer};
      app_offset += read_buffer.size();
      sender.offer({packet_bytes, std::nullopt, offered});
      ++offered;
    }
    if (carries_bytes && source.ended() && app_sent + source_losses() >= offered) break;
    if (live) {
      if (error = live->capture_due(now); !error.empty()) return fail(error);
    }
    const bool more = link.pump(now, write_frame_into);
    if (now >= next_progress) {  // a quiet run keeps the clock too: a stale deadline would spin the loop
      if (!o.quiet) {
        std::fprintf(stderr, "mantra-udp send: %.0f s, %llu data datagrams, allowed %.3f Mb/s\n",
                     (now - data_start).secs(), static_cast<unsigned long long>(data_packets),
                     static_cast<double>(sender.allowed_rate().bits_per_sec()) / 1e6);
      }
      next_progress = now + kProgressEvery;
    }
    std::optional<Time> deadline = link.deadline();
    const std::optional<Time> capture = live ? std::optional(live->next_capture()) : std::nullopt;
    for (const std::optional<Time> t : {std::optional(next_progress), end, capture})
      if (t && (!deadline || *t < *deadline)) deadline = t;
    if (more) deadline = now;
    if (input_waiting && offered - app_sent < kMaxOutstanding) deadline = now;
    const Ready ready = link.wait_and_hear(poller, deadline, heard, error);
    if (!error.empty()) return fail(error);
    stop = ready.stop;
    if (ready.input) input_waiting = true;
    for (const auto& h : heard) {
      if (h.kind == WireKind::kCoreData || h.kind == WireKind::kCoreOther)
        sender.handle_datagram_with_ttl(link.clock(h.at), h.body, h.ecn, h.ttl);
    }
  }
  if (!source.ended() && carries_bytes) poller.unwatch_input();

  // The bye, until the receiver acknowledges it or kByeWait passes.
  Bye bye{data_packets, core_bytes, app_offset, carries_bytes && source.ended() && chunks.empty(),
          sender.stats().named_values()};
  const Time bye_start = monotonic_now();
  bool acknowledged = false;
  for (Time now = bye_start; !acknowledged && now - bye_start < kByeWait; now = monotonic_now()) {
    link.send_session(now, WireKind::kBye, encode_bye(bye));
    const Time next = std::min(now + kByeEvery, bye_start + kByeWait);
    while (!acknowledged && monotonic_now() < next) {
      link.wait_and_hear(poller, next, heard, error);
      if (!error.empty()) return fail(error);
      for (const auto& h : heard) acknowledged = acknowledged || h.kind == WireKind::kByeAck;
    }
  }

  SenderResult result;
  result.options = &o;
  result.params = params;
  result.receiver_params = receiver_params;
  result.local = socket.local();
  result.clock = clock;
  result.data_packets = data_packets;
  result.core_bytes = core_bytes;
  result.app_bytes = carries_bytes ? std::optional(app_offset) : std::nullopt;
  result.app_complete = bye.app_complete;
  result.duration_s = (bye_start - data_start).secs();
  result.bye_acknowledged = acknowledged;
  result.stats = sender.stats();
  result.link = link.counters();
  result.socket = socket.counters();
  result.loop_wakeups = poller.wakeups();
  result.wall_s = (monotonic_now() - start).secs();
  result.data_start_us = data_start.us() + clock.offset_us;
  nlohmann::json media = live ? live->report() : nlohmann::json(nullptr);
  if (error = write_result(o.result, sender_result_json(result, std::move(media))); !error.empty()) return fail(error);
  return 0;
}

}  // namespace mantra::udp
