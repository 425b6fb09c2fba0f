// The run spec's documented ranges (docs/run-spec.md, "Ranges") and the readers
// of its typed values: numbers, integers, booleans, durations and rates (plain
// numbers in the base unit or strings with units, "200ms", "2Mbps").
//
// Every reader takes the JSON value as given and either returns it, checked
// against its Range, or raises SpecError naming `key` and the range as
// printed. Nothing else escapes: NaN, infinities, 1e400, 2^64 and integral
// floats are checked before any conversion, so nothing wraps into range.
//
// The core and nlohmann only, never ns-3 (the spec fuzzer builds this file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace mantra::sim::spec_detail {

// -- ranges (docs/run-spec.md, "Ranges") ----------------------------------------

struct Range {
  double lo, hi;
  const char* text;      // as printed: "(1 ms .. 1000000 s)"
  bool lo_open = false;  // lo itself excluded
  bool hi_open = false;  // hi itself excluded
  bool holds(double x) const { return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi); }
};

// Any time or duration: 11.6 days, 1000 x the longest paper run, far inside
// ns-3's Time (int64 ns, +-292 years).
inline constexpr double kMaxTimeS = 1e6;
// Any topology: building the network is quadratic in the nodes; 2000 manet
// nodes build in about 30 s (docs).
inline constexpr int kMaxNodes = 2000;
// Each flow has its own applications, metrics and UDP port (5000 + index).
inline constexpr size_t kMaxFlows = 1000;
// flows x (stop - start) / interval: the result keeps two 8-byte counters per
// flow and interval, so 10^7 samples are 160 MB.
inline constexpr double kMaxSeriesSamples = 1e7;
// |core parameter|: the core's casts to int stay defined.
inline constexpr double kMaxCoreParam = 1e9;

// duration: 1 ms is the shortest sampling interval.
inline constexpr Range kDuration{1e-3, kMaxTimeS, "(1 ms .. 1000000 s)"};
// interval, smoothness_window: with kMaxSeriesSamples over the flows.
inline constexpr Range kInterval{1e-3, kMaxTimeS, "(1 ms .. 1000000 s)"};
// start, stop, pause, measure, link delay: the same time scale.
inline constexpr Range kTime{0, kMaxTimeS, "(0 .. 1000000 s)"};
// cbr rate, p2p bandwidth: an integer number of bit/s above 0; 10 Gb/s is
// about 1000 x 802.11b's 11 Mb/s.
inline constexpr Range kRate{1, 1e10, "(1 bps .. 10 Gbps)"};
// channel_error, topology.loss: at 1 nothing is ever delivered.
inline constexpr Range kProbability{0, 1, "(0 .. below 1)", false, true};
// manet width, height: crossing the area at the top speed takes at least 1 ms,
// far above ns-3's 1 ns time step.
inline constexpr Range kArea{1, 1e5, "(1 .. 100000 m)"};
// rx_range, cs_range: the two-ray ground thresholds stay finite.
inline constexpr Range kRadioRange{1, 1e5, "(1 .. 100000 m)"};
// chain, grid spacing.
inline constexpr Range kSpacing{0, 1e5, "(above 0 .. 100000 m)", true};
// positions, fixed: 100 km is 400 radio ranges.
inline constexpr Range kCoordinate{-1e5, 1e5, "(-100000 .. 100000 m)"};
// rwp speed: above 0, or random waypoint never reaches a steady state (and a
// tiny speed overflows ns-3's Time on one leg); 1000 m/s is ten times a fast drone.
inline constexpr Range kSpeed{0.01, 1000, "(0.01 .. 1000 m/s; model: static for no movement)"};
// radio.queue, topology.queue: a queue's limit; ns-2 set-ups use 25-50, the
// TF-WMFC paper's RED up to 3200 (Table 1 at 128 Mb/s).
inline constexpr Range kQueue{1, 1e5, "(1 .. 100000 packets)"};
// red min_th, max_th: packets of the average queue, fractions allowed (Table 1 at 2 Mb/s: 0.625).
inline constexpr Range kQueueThreshold{0, 1e5, "(0 .. 100000 packets)"};
// red max_p, w_q: probabilities above 0.
inline constexpr Range kMaxP{0, 1, "(above 0 .. 1)", true};
// dumbbell flows: count of copies of one flow entry.
inline constexpr Range kFlowCount{1, 1000, "(1 .. 1000)"};
// seed: ns-3's RngRun is 64-bit; a JSON integer any parser reads exactly.
inline constexpr Range kSeed{1, 9223372036854775807.0, "(1 .. 9223372036854775807)"};
// chain, p2p hops: at most kMaxNodes nodes.
inline constexpr Range kChainHops{1, kMaxNodes - 1, "(1 .. 1999)"};
// manet nodes.
inline constexpr Range kManetNodes{2, kMaxNodes, "(2 .. 2000)"};
// grid rows, cols: each checked before multiplying.
inline constexpr Range kGridSide{1, kMaxNodes, "(1 .. 2000, rows x cols 2 .. 2000)"};
// packet_size: a UDP payload (TCP segment) that fits one Ethernet-sized frame
// with its headers.
inline constexpr Range kPacketSize{64, 1460, "(64 .. 1460 bytes)"};
// max_window, receive_buffer: ns-2's window_.
inline constexpr Range kMaxWindow{1, 10000, "(1 .. 10000 packets)"};
// mobility.waypoints: per node.
inline constexpr size_t kMaxWaypoints = 100000;
// frozen_timer, probe_interval, min_rto: TCP timers.
inline constexpr Range kTcpTimer{0.001, 600, "(1 ms .. 600 s)"};
// clock_granularity: ns-2's tcpTick_ was 0.1 s in its early versions, then 0.01 s.
inline constexpr Range kClockGranularity{1e-6, 1, "(1 us .. 1 s)"};
// rsc_var: thresholds and factors (Table 1's are 0.05 .. 1.2), steps (1 and 3 ms), counts (5, 50).
inline constexpr Range kRscVarLevel{0, 100, "(0 .. 100)"};
inline constexpr Range kRscVarShrink{0, 1, "(above 0 .. below 1)", true, true};
inline constexpr Range kRscVarGrow{1, 100, "(above 1 .. 100)", true};
inline constexpr Range kRscVarStep{0, 1, "(0 .. 1 s)"};
inline constexpr Range kRscVarCount{2, 10000, "(2 .. 10000)"};
inline constexpr Range kRscVarUpdates{1, 10000, "(1 .. 10000)"};
inline constexpr Range kRscVarSrtts{0.1, 1000, "(0.1 .. 1000 sRTTs)"};
// media.fps: above 0; 1000 frames/s is beyond any camera a trace comes from.
inline constexpr Range kMediaFps{0, 1000, "(above 0 .. 1000 frames/s)", true};
// media.playout_delay: above 0 (a player that needs each frame as it is captured plays nothing).
inline constexpr Range kMediaPlayoutDelay{0, kMaxTimeS, "(above 0 .. 1000000 s)", true};
// media frame bytes: at least one; 10 MB is several times a 4K intra frame,
// and keeps a frame's datagrams (at the smallest packet) near 230000.
inline constexpr Range kMediaFrameBytes{1, 1e7, "(frame bytes 1 .. 10000000)"};
// media frame layer: 0 base, 1 enhancement.
inline constexpr Range kMediaLayer{0, 1, "(layer 0 base or 1 enhancement)"};
// media frame capture_s, due_s: within a loop, on the spec's time scale.
inline constexpr Range kMediaCapture{0, kMaxTimeS, "(capture_s 0 .. 1000000 s)"};
inline constexpr Range kMediaDue{0, kMaxTimeS, "(due_s 0 .. 1000000 s)"};
// media.representations: rungs of a ladder.
inline constexpr size_t kMaxMediaRepresentations = 100;
// media representations[i].frames: one loop of the video (11 hours at 25 frames/s).
inline constexpr size_t kMaxMediaFrames = 1000000;
// Frames captured over all flows' active times: the result lists each one
// (rung and completion time) and the run keeps a record of each.
inline constexpr double kMaxMediaFramesCaptured = 1e7;
// params, receiver_params, latp_agent values.
inline constexpr Range kCoreParam{-kMaxCoreParam, kMaxCoreParam, "(-1e9 .. 1e9; the protocol checks its own range)"};

// -- sections ----------------------------------------------------------------------

// Rejects a non-object and keys outside `allowed`, naming the first offender.
void check_keys(const nlohmann::json& obj, const std::string& where, const std::set<std::string>& allowed);

// obj[key], or "<where>.<key>: missing required field".
const nlohmann::json& required(const nlohmann::json& obj, const std::string& where, const std::string& key);

// A name from a fixed list: non-strings are shown as they are.
std::string name_of(const nlohmann::json& v);

// -- typed values ------------------------------------------------------------------

// Raises "<key>: <v> is out of range <r.text>".
[[noreturn]] void out_of_range(const nlohmann::json& v, const std::string& key, const Range& r);

// A finite JSON number inside `r`.
double number(const nlohmann::json& v, const std::string& key, const Range& r);

// A JSON integer inside `r` (an integral float such as 4.0 counts). Checked
// before any conversion, so 1e20 or 2^64 never wraps into range.
int64_t integer(const nlohmann::json& v, const std::string& key, const Range& r);

// integer() for a range inside int.
int small_integer(const nlohmann::json& v, const std::string& key, const Range& r);

// A number in kProbability.
double probability(const nlohmann::json& v, const std::string& key);

// true or false (not 0 or 1).
bool boolean(const nlohmann::json& v, const std::string& key);

// Seconds: a number, or "<number><unit>" with us, ms, s or min, inside `r`.
double duration(const nlohmann::json& v, const std::string& key, const Range& r);

// Bit/s, rounded: a number, or "<number><unit>" with bps, kbps (Kbps), Mbps or
// Gbps, inside kRate.
int64_t rate(const nlohmann::json& v, const std::string& key);

}  // namespace mantra::sim::spec_detail
