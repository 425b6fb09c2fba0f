// The live video's sender side: the file `./mantra video-encode` writes is
// read strictly, each frame is offered in chunks cut as mantra-sim cuts them,
// and a datagram carries its own chunk's bytes at its offset in the frame.
// Over loopback a video arrives whole and the receiver logs each datagram.
#include "live_video.h"

#include <gtest/gtest.h>

#include <fstream>
#include <numeric>

#include "app_frame.h"
#include "flow_harness.h"
#include "mantra/registry.h"
#include "media/media_schedule.h"
#include "send_command.h"
#include "video_source.h"

namespace mantra::udp::test {
namespace {

using sim::MediaSchedule;

// Two rungs of four frames at 25 frames/s, GOPs from frames 0 and 2.
nlohmann::json media_block() {
  const auto frames = [](std::vector<int> bytes) {
    nlohmann::json out = nlohmann::json::array();
    for (size_t i = 0; i < bytes.size(); ++i)
      out.push_back({bytes[i], 0, 0.04 * static_cast<double>(i), 0.04 * static_cast<double>(i)});
    return out;
  };
  return {{"mode", "ladder"},
          {"fps", 25},
          {"playout_delay", 1},
          {"packetization", "frames"},
          {"gop_starts", {0, 2}},
          {"representations",
           {{{"rate_bps", 64000}, {"frames", frames({1500, 300, 1400, 200})}},
            {{"rate_bps", 128000}, {"frames", frames({3000, 600, 2800, 500})}}}}};
}

constexpr size_t kAllBytes = 1500 + 300 + 1400 + 200 + 3000 + 600 + 2800 + 500;

fs::path write_video(const TempDir& dir, const nlohmann::json& doc, size_t bin_bytes) {
  write_file(dir.path / "v.bin", random_bytes(bin_bytes, 9));
  const fs::path path = dir.path / "v.json";
  std::ofstream(path) << doc.dump();
  return path;
}

std::string open_error(const TempDir& dir, const nlohmann::json& doc, size_t bin_bytes) {
  VideoSource v;
  return v.open(write_video(dir, doc, bin_bytes).string(), 10);
}

TEST(VideoSource, NamesWhatIsWrongWithTheFile) {
  TempDir dir;
  const nlohmann::json good = {{"media", media_block()}, {"bytes", "v.bin"}};
  EXPECT_EQ(open_error(dir, good, kAllBytes), "");
  const std::string at = "--video " + (dir.path / "v.json").string();
  EXPECT_EQ(open_error(dir, good, kAllBytes - 1),
            at + ": bytes: " + (dir.path / "v.bin").string() + " holds " + std::to_string(kAllBytes - 1) +
                " bytes, the frames of media.representations " + std::to_string(kAllBytes));
  nlohmann::json extra = good;
  extra["speed"] = 2;
  EXPECT_EQ(open_error(dir, extra, kAllBytes), at + ": unknown key 'speed' (allowed: media, bytes)");
  nlohmann::json bad_mode = good;
  bad_mode["media"]["mode"] = "fast";
  EXPECT_EQ(open_error(dir, bad_mode, kAllBytes), at + ": media.mode: unknown mode 'fast' (known: ladder, layered)");
  EXPECT_EQ(open_error(dir, {{"media", media_block()}}, kAllBytes), at + ": bytes: must name the frames' file");
}

TEST(LiveVideo, OffersEachFrameInChunksAndCarriesEachChunksOwnBytes) {
  TempDir dir;
  VideoSource video;
  ASSERT_EQ(video.open(write_video(dir, {{"media", media_block()}, {"bytes", "v.bin"}}, kAllBytes).string(), 10), "");
  Made<Sender> made = make_sender("tfrc", {{"source_offered", 1}});
  ASSERT_TRUE(made.endpoint) << made.error;
  const Time epoch = Time::from_us(5000000);
  LiveVideo live(video, *made.endpoint, 1000, epoch);
  EXPECT_EQ(live.next_capture(), epoch);

  // At the start only frame 0 is due: rung 0 (TFRC's first rate is low), 1500 bytes in chunks of
  // 1000 - TFRC's header - the application frame.
  ASSERT_EQ(live.capture_due(epoch), "");
  EXPECT_EQ(live.next_capture(), epoch + Duration::millis(40));
  const auto room = static_cast<size_t>(app_room(1000, made.endpoint->data_header_bytes()));
  const auto frame0 = video.frame(0, 0);
  AppFrame second;
  live.on_sent(MediaSchedule::app_id(0, 1), second);
  EXPECT_EQ(second.offset, room);
  ASSERT_EQ(second.bytes.size(), 1500 - room);
  EXPECT_TRUE(std::equal(second.bytes.begin(), second.bytes.end(), frame0.begin() + static_cast<std::ptrdiff_t>(room)));
  // The first chunk went before it or was dropped by the source: it is no longer kept.
  AppFrame first;
  live.on_sent(MediaSchedule::app_id(0, 0), first);
  EXPECT_TRUE(first.bytes.empty());

  // One second on: frames 1 to 25 (the video loops every 4 frames) are captured too.
  ASSERT_EQ(live.capture_due(epoch + Duration::seconds(1)), "");
  const nlohmann::json report = live.report();
  EXPECT_EQ(report["frames_captured"], 26);
  EXPECT_EQ(report["frame_datagrams"].size(), 26u);
  EXPECT_EQ(report["frame_datagrams"][0], 2);
  EXPECT_EQ(report["packets_sent"], 1);
  const auto& counts = report["frame_datagrams"];
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), int64_t{0},
                            [](int64_t sum, const nlohmann::json& n) { return sum + n.get<int64_t>(); }),
            report["packets_offered"].get<int64_t>());
}

// The same video in slices: each frame's datagrams as the lab's packetiser
// would give them, 700 bytes of video at most.
nlohmann::json sliced_block() {
  nlohmann::json m = media_block();
  m["packetization"] = "slices";
  for (auto& rep : m["representations"]) {
    for (auto& f : rep["frames"]) {
      nlohmann::json datagrams = nlohmann::json::array();
      for (int left = f[0].get<int>(); left > 0; left -= 700) datagrams.push_back(std::min(left, 700));
      f.push_back(datagrams);
    }
  }
  return m;
}

TEST(LiveVideo, WithSlicesEachDatagramCarriesItsOwnSlicesBytes) {
  TempDir dir;
  VideoSource video;
  ASSERT_EQ(video.open(write_video(dir, {{"media", sliced_block()}, {"bytes", "v.bin"}}, kAllBytes).string(), 10), "");
  Made<Sender> made = make_sender("tfrc", {{"source_offered", 1}});
  ASSERT_TRUE(made.endpoint) << made.error;
  LiveVideo live(video, *made.endpoint, 1000, Time::from_us(0));
  ASSERT_EQ(live.capture_due(Time::from_us(0)), "");
  const auto frame0 = video.frame(0, 0);
  AppFrame third;
  live.on_sent(MediaSchedule::app_id(0, 2), third);  // 1500 bytes in 700, 700 and 100, not cut to the room
  EXPECT_EQ(third.offset, 1400u);
  ASSERT_EQ(third.bytes.size(), 100u);
  EXPECT_TRUE(std::equal(third.bytes.begin(), third.bytes.end(), frame0.begin() + 1400));
  EXPECT_EQ(live.report()["frame_datagrams"][0], 3);
}

TEST(LiveVideo, APacketTooSmallForTheSlicesIsRefusedBeforeSending) {
  TempDir dir;
  const fs::path file = write_video(dir, {{"media", sliced_block()}, {"bytes", "v.bin"}}, kAllBytes);
  SendOptions flow = greedy_flow("tfrc", 1, {{"packet_size", 700}});  // leaves 700 - 20 - 34 bytes
  flow.source = SourceMode::kVideo;
  flow.video = file.string();
  flow.result = (dir.path / "sent.json").string();
  testing::internal::CaptureStderr();
  EXPECT_NE(run_send(flow), 0);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("--set packet_size=700: leaves 646 bytes for video; " + file.string() +
                     "'s slices come in datagrams of up to 700"),
            std::string::npos)
      << err;
}

TEST(LiveVideo, ASenderWithoutAnOfferedSourceRefusesTheVideoInOneLine) {
  TempDir dir;
  VideoSource video;
  ASSERT_EQ(video.open(write_video(dir, {{"media", media_block()}, {"bytes", "v.bin"}}, kAllBytes).string(), 10), "");
  Made<Sender> made = make_sender("tfrc", {});
  ASSERT_TRUE(made.endpoint) << made.error;
  LiveVideo live(video, *made.endpoint, 1000, Time::from_us(0));
  EXPECT_EQ(live.capture_due(Time::from_us(0)), "the sender refused the video: it has no offered source");
}

TEST(LiveVideo, ArrivesOverLoopbackWithEveryDatagramLogged) {
  TempDir dir;
  const auto at = free_address("127.0.0.1");
  ASSERT_TRUE(at);
  const fs::path file = write_video(dir, {{"media", media_block()}, {"bytes", "v.bin"}}, kAllBytes);
  SendOptions flow = greedy_flow("tfrc", 3);
  flow.source = SourceMode::kVideo;
  flow.video = file.string();
  const Pair p = run_pair(dir, *at, *at, flow);
  ASSERT_EQ(p.send_rc, 0);
  ASSERT_EQ(p.recv_rc, 0);
  const auto& media = p.sent["media"];
  EXPECT_GE(media["frames_captured"].get<int64_t>(), 70);  // 3 s at 25 frames/s
  const int64_t sent = media["packets_sent"].get<int64_t>();
  EXPECT_GT(sent, 0);
  // Loopback loses nothing: every video datagram sent is logged once, with a frame the sender captured.
  EXPECT_TRUE(p.received["app"].is_null());  // no byte stream
  const auto& arrivals = p.received["media_arrivals"];
  ASSERT_EQ(static_cast<int64_t>(arrivals.size()), sent);
  for (const auto& a : arrivals) {
    EXPECT_LT(MediaSchedule::frame_of(a[0].get<int64_t>()), media["frames_captured"].get<int64_t>());
    EXPECT_GT(a[1].get<double>(), 0.0);
  }
  EXPECT_LE(p.sent["clock"]["data_start_us"].get<int64_t>() - p.received["clock"]["origin_us"].get<int64_t>(), 1000000);
  EXPECT_GE(p.sent["clock"]["data_start_us"].get<int64_t>(), p.received["clock"]["origin_us"].get<int64_t>());
}

}  // namespace
}  // namespace mantra::udp::test
