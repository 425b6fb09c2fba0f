#include "spec/media_spec.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "spec/message_text.h"
#include "spec/spec.h"
#include "spec/spec_values.h"

namespace mantra::sim {

using namespace spec_detail;
using nlohmann::json;

namespace {

// Two capture times of one frame at two rungs: the same video, so the same
// time (to a microsecond, the resolution of the rest of the spec's times).
bool same_time(double a, double b) { return std::fabs(a - b) <= 1e-6; }

// Seconds as JSON writes them, without a trailing ".0" ("2 s", "0.25 s").
std::string seconds_text(double s) {
  std::string text = json(s).dump();
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text + " s";
}

// A slices frame's fifth element: its datagrams' video bytes, each at least
// 1, summing to the frame's bytes.
std::vector<int64_t> parse_datagrams(const json& list, const std::string& key, int64_t frame_bytes) {
  if (!list.is_array() || list.empty())
    throw SpecError(key, "must list the video bytes of each of the frame's datagrams");
  if (static_cast<int64_t>(list.size()) > frame_bytes) {
    throw SpecError(key, "lists " + std::to_string(list.size()) + " datagrams for a frame of " +
                             std::to_string(frame_bytes) + " bytes");
  }
  std::vector<int64_t> out;
  out.reserve(list.size());
  int64_t sum = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    out.push_back(integer(list[i], at(key, i), kMediaFrameBytes));
    sum += out.back();
  }
  if (sum != frame_bytes) {
    throw SpecError(key, "holds " + std::to_string(sum) + " bytes, the frame " + std::to_string(frame_bytes) +
                             " (its datagrams carry the whole frame)");
  }
  return out;
}

// representations[r].frames: N frames of [bytes, layer, capture_s, due_s]
// (slices: and [datagram bytes, ...]), captures non-decreasing, each at rung
// 0's capture time for r > 0.
std::vector<MediaFrame> parse_frames(const json& list, const std::string& key, const MediaRepresentation* first,
                                     bool slices) {
  const char* shape =
      slices ? "[bytes, layer, capture_s, due_s, [datagram bytes, ...]]" : "[bytes, layer, capture_s, due_s]";
  if (!list.is_array() || list.empty()) throw SpecError(key, std::string("must list the frames, ") + shape);
  if (list.size() > kMaxMediaFrames) {
    throw SpecError(key,
                    "lists " + std::to_string(list.size()) + " frames, at most " + std::to_string(kMaxMediaFrames));
  }
  if (first && list.size() != first->frames.size()) {
    throw SpecError(key, "lists " + std::to_string(list.size()) + " frames, representations[0] " +
                             std::to_string(first->frames.size()) + " (every rung has the same frames)");
  }
  std::vector<MediaFrame> frames;
  frames.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string k = at(key, i);
    const json& f = list[i];
    if (!f.is_array() || f.size() != (slices ? 5U : 4U)) throw SpecError(k, std::string("must be ") + shape);
    MediaFrame m;
    m.bytes = integer(f[0], k, kMediaFrameBytes);
    m.layer = small_integer(f[1], k, kMediaLayer);
    m.capture_s = number(f[2], k, kMediaCapture);
    m.due_s = number(f[3], k, kMediaDue);
    if (slices) m.datagram_bytes = parse_datagrams(f[4], at(k, 4), m.bytes);
    if (!frames.empty() && m.capture_s < frames.back().capture_s) {
      throw SpecError(k, "capture_s " + seconds_text(m.capture_s) + " is before the previous frame's " +
                             seconds_text(frames.back().capture_s) + " (decode order: captures never go back)");
    }
    if (first && !same_time(m.capture_s, first->frames[i].capture_s)) {
      throw SpecError(k, "capture_s " + seconds_text(m.capture_s) + " differs from representations[0]'s " +
                             seconds_text(first->frames[i].capture_s) +
                             " (one video: the same captures at every rung)");
    }
    frames.push_back(m);
  }
  return frames;
}

std::vector<MediaRepresentation> parse_representations(const json& list, const std::string& key, bool slices) {
  if (!list.is_array() || list.empty())
    throw SpecError(key, "must list at least one representation {rate_bps, frames}");
  if (list.size() > kMaxMediaRepresentations) {
    throw SpecError(key, "lists " + std::to_string(list.size()) + " representations, at most " +
                             std::to_string(kMaxMediaRepresentations));
  }
  std::vector<MediaRepresentation> reps;
  reps.reserve(list.size());
  for (size_t r = 0; r < list.size(); ++r) {
    const std::string k = at(key, r);
    check_keys(list[r], k, {"rate_bps", "frames"});
    MediaRepresentation rep;
    rep.rate_bps = rate(required(list[r], k, "rate_bps"), k + ".rate_bps");
    if (!reps.empty() && rep.rate_bps <= reps.back().rate_bps) {
      throw SpecError(k + ".rate_bps", std::to_string(rep.rate_bps) + " bps is not above representations[" +
                                           std::to_string(r - 1) + "]'s " + std::to_string(reps.back().rate_bps) +
                                           " bps (rungs in ascending rate)");
    }
    rep.frames =
        parse_frames(required(list[r], k, "frames"), k + ".frames", reps.empty() ? nullptr : &reps.front(), slices);
    reps.push_back(std::move(rep));
  }
  return reps;
}

// gop_starts: 0, then increasing decode-order indices below N.
std::vector<int64_t> parse_gop_starts(const json& list, const std::string& key, int64_t frames) {
  if (!list.is_array() || list.empty()) throw SpecError(key, "must list each GOP's first frame, from 0");
  const std::string range_text = "(0 .. " + std::to_string(frames - 1) + ", the frames of a loop)";
  const Range r{0, static_cast<double>(frames - 1), range_text.c_str()};
  std::vector<int64_t> starts;
  starts.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string k = at(key, i);
    const int64_t s = integer(list[i], k, r);
    if (i == 0 && s != 0) throw SpecError(k, "must be 0 (the first frame opens the first GOP)");
    if (!starts.empty() && s <= starts.back()) {
      throw SpecError(k, std::to_string(s) + " is not above the previous GOP's start " + std::to_string(starts.back()) +
                             " (GOPs in decode order)");
    }
    starts.push_back(s);
  }
  return starts;
}

// Layered mode sends each GOP's base layer whatever the budget: every GOP of
// every rung has one.
void check_layers(const MediaSpec& m, const std::string& key) {
  const auto n = static_cast<size_t>(m.frames_per_loop());
  for (size_t r = 0; r < m.representations.size(); ++r) {
    const auto& frames = m.representations[r].frames;
    for (size_t j = 0; j < m.gop_starts.size(); ++j) {
      const auto begin = static_cast<size_t>(m.gop_starts[j]);
      const size_t end = j + 1 < m.gop_starts.size() ? static_cast<size_t>(m.gop_starts[j + 1]) : n;
      bool base = false;
      for (size_t i = begin; i < end && !base; ++i) base = frames[i].layer == 0;
      if (!base) {
        throw SpecError(at(key + ".gop_starts", j),
                        "the GOP of frames " + std::to_string(begin) + " .. " + std::to_string(end - 1) +
                            " has no base-layer (layer 0) frame at representations[" + std::to_string(r) +
                            "] (layered mode always sends a GOP's base)");
      }
    }
  }
}

}  // namespace

int64_t MediaSpec::largest_datagram_bytes() const {
  int64_t most = 0;
  for (const MediaRepresentation& r : representations) {
    for (const MediaFrame& f : r.frames) {
      for (const int64_t b : f.datagram_bytes) most = std::max(most, b);
    }
  }
  return most;
}

std::shared_ptr<const MediaSpec> parse_media(const json& v, const std::string& key, double flow_start_s,
                                             double flow_stop_s) {
  check_keys(v, key,
             {"mode", "fps", "playout_delay", "start", "packetization", "tcp_rate", "gop_starts", "representations",
              "source"});
  auto m = std::make_shared<MediaSpec>();
  const std::string mode = name_of(required(v, key, "mode"));
  if (mode != "ladder" && mode != "layered") {
    throw SpecError(key + ".mode", "unknown mode '" + one_line(mode, kShown) + "' (known: ladder, layered)");
  }
  m->mode = mode == "layered" ? MediaMode::kLayered : MediaMode::kLadder;
  m->fps = number(required(v, key, "fps"), key + ".fps", kMediaFps);
  m->playout_delay_s = duration(required(v, key, "playout_delay"), key + ".playout_delay", kMediaPlayoutDelay);
  m->start_s = flow_start_s;
  if (v.contains("start")) {
    m->start_s = duration(v["start"], key + ".start", kTime);
    if (m->start_s < flow_start_s) {
      throw SpecError(key + ".start", "must not be before the flow's start (" + seconds_text(flow_start_s) + ")");
    }
    if (m->start_s >= flow_stop_s) {
      throw SpecError(key + ".start", "must be before the flow's stop (" + seconds_text(flow_stop_s) + ")");
    }
  }
  const std::string packetization = name_of(required(v, key, "packetization"));
  if (packetization != "slices" && packetization != "frames") {
    throw SpecError(key + ".packetization",
                    "unknown packetization '" + one_line(packetization, kShown) + "' (known: slices, frames)");
  }
  m->slices = packetization == "slices";
  if (v.contains("tcp_rate")) {
    const std::string rule = name_of(v["tcp_rate"]);
    if (rule != "delivery" && rule != "window") {
      throw SpecError(key + ".tcp_rate", "unknown rule '" + one_line(rule, kShown) + "' (known: delivery, window)");
    }
    m->tcp_rate = rule == "window" ? TcpVideoRateRule::kWindow : TcpVideoRateRule::kDelivery;
    m->tcp_rate_given = true;
  }
  m->representations = parse_representations(required(v, key, "representations"), key + ".representations", m->slices);
  m->gop_starts = parse_gop_starts(required(v, key, "gop_starts"), key + ".gop_starts", m->frames_per_loop());
  if (m->mode == MediaMode::kLayered) check_layers(*m, key);
  if (v.contains("source")) m->source = v["source"];
  return m;
}

}  // namespace mantra::sim
