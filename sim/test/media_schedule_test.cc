// The media application's rules (media/media_schedule.h) and the record of
// each frame's fate (media/media_log.h), without ns-3: the rung at the
// boundary, the header's overhead, the layered budget of a known GOP, the
// chunks of a frame, the loop's offsets and the deadlines.
#include "media/media_schedule.h"

#include <gtest/gtest.h>

#include <memory>

#include "media/media_log.h"

namespace mantra::sim {
namespace {

// A video of `n` frames at `fps`, one rung per rate, every frame `bytes` at
// the lowest rung and scaled with the rate above it; frame d captured at
// d/fps and due at the same time.
std::shared_ptr<MediaSpec> video(std::vector<int64_t> rates, int64_t n, double fps, int64_t bytes,
                                 std::vector<int64_t> gop_starts = {0}) {
  auto m = std::make_shared<MediaSpec>();
  m->fps = fps;
  m->playout_delay_s = 0.5;
  m->start_s = 0;
  m->gop_starts = std::move(gop_starts);
  for (int64_t rate : rates) {
    MediaRepresentation r;
    r.rate_bps = rate;
    for (int64_t d = 0; d < n; ++d) {
      const double t = static_cast<double>(d) / fps;
      r.frames.push_back({bytes * rate / rates.front(), 0, t, t, {}});
    }
    m->representations.push_back(r);
  }
  return m;
}

TEST(MediaSchedule, TheLadderTakesTheHighestRungThatFitsWithTheHeaderCounted) {
  // 1000-byte datagrams with a 40-byte header: 960 bytes of video in each,
  // so a rung of 96 kb/s needs 100 kb/s of the transport, 192 kb/s needs 200.
  MediaSchedule s(video({96000, 192000, 288000}, 10, 10, 100), 1000, 40);
  EXPECT_DOUBLE_EQ(s.overhead(), 1000.0 / 960.0);
  EXPECT_EQ(s.ladder_rung(200000), 1);  // exactly at the allowed rate: it fits
  EXPECT_EQ(s.ladder_rung(199999), 0);  // just above: the rung below
  EXPECT_EQ(s.ladder_rung(300000), 2);
  EXPECT_EQ(s.ladder_rung(299999), 1);
  EXPECT_EQ(s.ladder_rung(1e9), 2);
  EXPECT_EQ(s.ladder_rung(99999), 0);  // none fits: the lowest rung all the same
  EXPECT_EQ(s.ladder_rung(0), 0);
}

TEST(MediaSchedule, AByteStreamCountsNoOverhead) {
  MediaSchedule stream(video({100000, 200000}, 10, 10, 100), 1000, 0);
  EXPECT_DOUBLE_EQ(stream.overhead(), 1.0);
  EXPECT_EQ(stream.ladder_rung(200000), 1);
  MediaSchedule datagrams(video({100000, 200000}, 10, 10, 100), 1000, 40);
  EXPECT_EQ(datagrams.ladder_rung(200000), 0);  // 200 kb/s of video takes 208.3 kb/s in datagrams
  EXPECT_EQ(datagrams.ladder_rung(208334), 1);
}

TEST(MediaSchedule, TheRungIsChosenAtEachGopsFirstFrameAndKeptThroughTheGop) {
  MediaSchedule s(video({100000, 200000}, 8, 8, 100, {0, 4}), 1000, 0);
  const FrameDecision first = s.next(150000);
  EXPECT_TRUE(first.gop_start);
  EXPECT_EQ(first.rep, 0);
  const FrameDecision second = s.next(1e9);  // the rate rose within the GOP: the rung stays
  EXPECT_FALSE(second.gop_start);
  EXPECT_EQ(second.rep, 0);
  s.next(1e9);
  s.next(1e9);
  const FrameDecision next_gop = s.next(1e9);
  EXPECT_TRUE(next_gop.gop_start);
  EXPECT_EQ(next_gop.frame, 4);
  EXPECT_EQ(next_gop.rep, 1);
  EXPECT_EQ(next_gop.bytes, 200);  // the frame's size at its rung
}

// One GOP of 10 frames at 10 frames/s (1 s): an I frame of 2000 bytes, then
// enhancement frames of 1000 bytes (odd frames) between base frames of 500.
// Base layer: 2000 + 4 x 500 = 4000 bytes, 32 kb/s; rung 1 doubles every frame.
std::shared_ptr<MediaSpec> layered_video() {
  auto m = std::make_shared<MediaSpec>();
  m->mode = MediaMode::kLayered;
  m->fps = 10;
  m->playout_delay_s = 1;
  m->gop_starts = {0};
  for (int64_t scale : {1, 2}) {
    MediaRepresentation r;
    r.rate_bps = 64000 * scale;
    for (int d = 0; d < 10; ++d) {
      const int64_t bytes = d == 0 ? 2000 : d % 2 == 1 ? 1000 : 500;
      r.frames.push_back({bytes * scale, d % 2, d / 10.0, d / 10.0, {}});
    }
    m->representations.push_back(r);
  }
  return m;
}

std::vector<int> reps_of_loop(MediaSchedule& s, double allowed_bps) {
  std::vector<int> reps;
  for (int i = 0; i < 10; ++i) reps.push_back(s.next(allowed_bps).rep);
  return reps;
}

TEST(MediaSchedule, LayeredSendsTheBaseAndTheEnhancementFramesTheBudgetHolds) {
  MediaSchedule s(layered_video(), 1000, 0);
  EXPECT_EQ(s.base_bytes(0, 0), 4000);
  EXPECT_EQ(s.base_bytes(1, 0), 8000);
  EXPECT_DOUBLE_EQ(s.gop_duration_s(0), 1.0);
  EXPECT_EQ(s.layered_rung(0, 64000), 1);  // rung 1's base: exactly 64 kb/s
  EXPECT_EQ(s.layered_rung(0, 63999), 0);
  // 56 kb/s: rung 1's base does not fit; rung 0's leaves 7000 - 4000 = 3000
  // bytes for enhancement frames 1, 3 and 5; 7 and 9 are left out.
  EXPECT_EQ(reps_of_loop(s, 56000), (std::vector<int>{0, 0, 0, 0, 0, 0, 0, -1, 0, -1}));
  EXPECT_DOUBLE_EQ(s.budget_bytes(), 0);
  // The next loop's GOP has a budget of its own: at 200 kb/s rung 1 with
  // 25000 - 8000 bytes, every enhancement frame.
  EXPECT_EQ(reps_of_loop(s, 200000), (std::vector<int>(10, 1)));
  // Below every base the lowest rung's base is sent, no enhancement frame.
  EXPECT_EQ(reps_of_loop(s, 8000), (std::vector<int>{0, -1, 0, -1, 0, -1, 0, -1, 0, -1}));
}

TEST(MediaSchedule, TheLayeredBudgetCountsTheHeaderToo) {
  // With 40 of every 1000 bytes the header: the base takes 4000 x 1000/960 =
  // 4166.7 of the 7000 bytes; each enhancement frame 1041.7: two fit.
  MediaSchedule s(layered_video(), 1000, 40);
  EXPECT_EQ(reps_of_loop(s, 56000), (std::vector<int>{0, 0, 0, 0, 0, -1, 0, -1, 0, -1}));
  EXPECT_NEAR(s.budget_bytes(), 7000 - 4000 * 1000.0 / 960 - 2 * 1000 * 1000.0 / 960, 1e-9);
}

// A decision to send frame g of `bytes` at rung 0.
FrameDecision sent(int64_t g, int64_t bytes) {
  FrameDecision d;
  d.frame = g;
  d.rep = 0;
  d.bytes = bytes;
  return d;
}

TEST(MediaSchedule, AFrameIsCutIntoDatagramsOfPacketMinusHeaderBytes) {
  MediaSchedule s(video({100000}, 10, 10, 100), 1000, 40);
  const auto chunks = s.chunks(sent(7, 2500));
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].payload_bytes, 960);
  EXPECT_EQ(chunks[1].payload_bytes, 960);
  EXPECT_EQ(chunks[2].payload_bytes, 580);
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(MediaSchedule::frame_of(chunks[i].app_id), 7);
    EXPECT_EQ(MediaSchedule::chunk_of(chunks[i].app_id), static_cast<int64_t>(i));
    EXPECT_EQ(chunks[i].offset_bytes, 960 * static_cast<int64_t>(i));
  }
  EXPECT_EQ(s.chunks(sent(0, 960)).size(), 1u);
  EXPECT_EQ(s.chunks(sent(0, 961)).size(), 2u);
  EXPECT_EQ(s.chunks(sent(0, 1))[0].payload_bytes, 1);
  const int64_t big = (int64_t{1} << 38) + 5;  // ids stay apart far into a run
  EXPECT_EQ(MediaSchedule::frame_of(MediaSchedule::app_id(big, 9999999)), big);
  EXPECT_EQ(MediaSchedule::chunk_of(MediaSchedule::app_id(big, 9999999)), 9999999);
}

TEST(MediaSchedule, WithSlicesAFrameGoesInTheTracesDatagramsWhateverThePacketSize) {
  // Frame 1 of the loop in slices: datagrams of 900, 300 and 700 bytes (the
  // packetiser's whole slices), not cut to 960; the second loop's frame 1 too.
  auto m = video({100000}, 3, 10, 1900);
  m->slices = true;
  for (auto& f : m->representations[0].frames) f.datagram_bytes = {1900};
  m->representations[0].frames[1].datagram_bytes = {900, 300, 700};
  MediaSchedule s(m, 1000, 40);
  for (const int64_t g : {1, 4}) {
    const auto chunks = s.chunks(sent(g, 1900));
    ASSERT_EQ(chunks.size(), 3u);
    EXPECT_EQ(chunks[1].payload_bytes, 300);
    EXPECT_EQ(chunks[1].offset_bytes, 900);
    EXPECT_EQ(chunks[2].offset_bytes, 1200);
    EXPECT_EQ(MediaSchedule::chunk_of(chunks[2].app_id), 2);
    EXPECT_EQ(MediaSchedule::frame_of(chunks[2].app_id), g);
  }
  EXPECT_EQ(m->largest_datagram_bytes(), 1900);
}

TEST(MediaSchedule, TheVideoLoopsAndEachFrameIsDueAfterThePlayoutDelay) {
  // 4 frames at 4 frames/s (a loop of 1 s) from 10 s; decode order I P B B:
  // captured as the encoder emits them, due in display order.
  auto m = std::make_shared<MediaSpec>();
  m->fps = 4;
  m->playout_delay_s = 0.5;
  m->start_s = 10;
  m->gop_starts = {0};
  m->representations.push_back(
      {100000, {{900, 0, 0.0, 0.0, {}}, {300, 0, 0.75, 0.75, {}}, {100, 0, 0.75, 0.25, {}}, {100, 0, 0.75, 0.5, {}}}});
  MediaSchedule s(m, 1000, 40);
  EXPECT_DOUBLE_EQ(s.loop_s(), 1.0);
  EXPECT_DOUBLE_EQ(s.capture_s(0), 10.0);
  EXPECT_DOUBLE_EQ(s.capture_s(2), 10.75);
  EXPECT_DOUBLE_EQ(s.capture_s(5), 11.75);  // loop 1, frame 1
  EXPECT_DOUBLE_EQ(s.capture_s(8), 12.0);   // loop 2, frame 0
  std::vector<FrameDecision> d;
  for (int i = 0; i < 8; ++i) d.push_back(s.next(1e6));
  EXPECT_DOUBLE_EQ(d[0].deadline_s, 10.5);
  EXPECT_DOUBLE_EQ(d[2].deadline_s, 10.75);  // 10 + 0.5 + 0.25
  EXPECT_DOUBLE_EQ(d[6].deadline_s, 11.75);  // loop 1: 10 + 1 + 0.5 + 0.25
  EXPECT_DOUBLE_EQ(d[6].capture_s, 11.75);
  EXPECT_TRUE(d[4].gop_start);
  EXPECT_EQ(d[4].bytes, 900);
  EXPECT_EQ(s.next_frame(), 8);
}

TEST(MediaLog, AFrameIsWholeWhenItsLastDatagramArrivesAndEachArrivalIsKept) {
  auto spec = video({100000}, 10, 10, 100);
  MediaLog log(*spec, true);
  MediaSchedule s(spec, 1000, 40);
  FrameDecision d = sent(0, 2500);
  d.gop_start = true;
  log.on_frame(d);
  log.on_chunks(0, s.chunks(d));  // 3 datagrams
  log.on_frame(sent(1, 1500));
  log.on_chunks(1, s.chunks(sent(1, 1500)));  // 2
  d = sent(2, 100);
  d.rep = -1;  // left out
  log.on_frame(d);
  log.on_datagram(MediaSchedule::app_id(0, 0), 1.0);
  log.on_datagram(MediaSchedule::app_id(0, 2), 1.2);
  log.on_datagram(MediaSchedule::app_id(1, 0), 1.3);
  EXPECT_EQ(log.frames()[0].complete_s, -1);  // one still missing
  log.on_datagram(MediaSchedule::app_id(0, 1), 1.4);
  log.on_datagram(MediaSchedule::app_id(0, 1), 1.45);  // a copy: the first one counts
  log.on_datagram(MediaSchedule::app_id(0, 7), 1.46);  // no such chunk: ignored
  log.on_datagram(MediaSchedule::app_id(99, 0), 1.5);  // not a frame of the log: ignored
  const nlohmann::json r = log.report();
  EXPECT_EQ(r["frames"], nlohmann::json::parse("[[0, 1.4, [1.0, 1.4, 1.2]], [0, -1, [1.3, -1]], [-1, -1, []]]"));
  EXPECT_EQ(r["gop_reps"], nlohmann::json::parse("[0]"));
  EXPECT_EQ(r["frames_captured"], 3);
  EXPECT_EQ(r["frames_left_out"], 1);
  EXPECT_TRUE(r.contains("packets_sent"));
  EXPECT_FALSE(r.contains("bytes_written"));
}

TEST(MediaLog, OverAStreamEachChunkArrivesWhenTheInOrderBytesPassItsEnd) {
  auto spec = video({100000}, 10, 10, 100);
  MediaLog log(*spec, false);
  MediaSchedule s(spec, 600, 0);  // chunks of 600 bytes
  for (int g = 0; g < 3; ++g) log.on_frame(sent(g, 1000));
  log.on_chunks(0, s.chunks(sent(0, 1000)));
  log.on_written(0, 0, s.chunks(sent(0, 1000)));  // chunks end at 600 and 1000
  log.frame(1).rep = -1;                          // skipped as stale: never written
  log.on_chunks(2, s.chunks(sent(2, 500)));
  log.on_written(2, 1000, s.chunks(sent(2, 500)));
  log.on_stream(599, 2.0);
  log.on_stream(999, 2.05);
  log.on_stream(1200, 2.1);
  log.on_stream(1500, 2.2);
  const nlohmann::json r = log.report();
  EXPECT_EQ(r["frames"], nlohmann::json::parse("[[0, 2.1, [2.05, 2.1]], [-1, -1, []], [0, 2.2, [2.2]]]"));
  EXPECT_TRUE(r.contains("bytes_written"));
  EXPECT_FALSE(r.contains("packets_sent"));
}

}  // namespace
}  // namespace mantra::sim
