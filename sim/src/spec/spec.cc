#include "spec/spec.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "apps/flow_kinds.h"
#include "latp/node_agent.h"
#include "mantra/registry.h"
#include "spec/flow_draws.h"
#include "spec/message_text.h"
#include "spec/ns2_movement.h"
#include "spec/spec_values.h"

namespace mantra::sim {

// The one-line text helpers (message_text.h) and the ranges and value readers
// (spec_values.h) this parser is built from.
using namespace spec_detail;

namespace {

using nlohmann::json;

// -- sections ------------------------------------------------------------------

// A queue: a number (drop-tail packets) or {kind, limit, ...} (docs/run-spec.md, "Queues").
QueueSpec parse_queue(const json& v, const std::string& key) {
  QueueSpec q;
  if (!v.is_object()) {
    q.limit = small_integer(v, key, kQueue);
    return q;
  }
  check_keys(v, key, {"kind", "limit", "min_th", "max_th", "max_p", "w_q", "gentle", "hard_drop", "ecn"});
  const std::string kind = name_of(required(v, key, "kind"));
  if (kind != "droptail" && kind != "red") {
    throw SpecError(key + ".kind", "unknown queue kind '" + one_line(kind, kShown) + "' (known: droptail, red)");
  }
  q.red = kind == "red";
  if (v.contains("limit")) q.limit = small_integer(v["limit"], key + ".limit", kQueue);
  for (const char* red_key : {"min_th", "max_th", "max_p", "w_q", "gentle", "hard_drop", "ecn"}) {
    if (v.contains(red_key) && !q.red)
      throw SpecError(key + "." + red_key, std::string("only a red queue takes ") + red_key);
  }
  if (v.contains("min_th")) q.min_th = number(v["min_th"], key + ".min_th", kQueueThreshold);
  if (v.contains("max_th")) q.max_th = number(v["max_th"], key + ".max_th", kQueueThreshold);
  if (v.contains("max_p")) q.max_p = number(v["max_p"], key + ".max_p", kMaxP);
  if (v.contains("w_q")) q.w_q = number(v["w_q"], key + ".w_q", kMaxP);
  if (v.contains("gentle")) q.gentle = boolean(v["gentle"], key + ".gentle");
  if (v.contains("hard_drop")) q.hard_drop = boolean(v["hard_drop"], key + ".hard_drop");
  if (v.contains("ecn")) q.ecn = boolean(v["ecn"], key + ".ecn");
  if (q.min_th >= 0 && q.max_th >= 0 && q.max_th <= q.min_th) throw SpecError(key + ".max_th", "must be above min_th");
  if (q.limit > 0 && q.max_th > q.limit) throw SpecError(key + ".max_th", "must not be above the limit");
  return q;
}

RadioSpec parse_radio(const json& v) {
  RadioSpec r;
  std::string preset;
  if (v.is_string()) {
    preset = v.get<std::string>();
  } else {
    check_keys(v, "radio", {"preset", "rx_range", "cs_range", "queue", "rts", "routing_first", "broadcast_rate"});
    const json& p = required(v, "radio", "preset");
    if (!p.is_string()) throw SpecError("radio.preset", "must be a preset name");
    preset = p.get<std::string>();
  }
  if (preset == "qualnet-80211b") {  // the RSC-VAR paper's QualNet 4.0: about 340 m and 540 m
    r.rx_range_m = 340;
    r.cs_range_m = 540;
  } else if (preset != "ns2-80211b") {
    throw SpecError("radio.preset",
                    "unknown preset '" + one_line(preset, kShown) + "' (known: ns2-80211b, qualnet-80211b)");
  }
  r.preset = preset;
  if (v.is_object()) {
    if (v.contains("rx_range")) r.rx_range_m = number(v["rx_range"], "radio.rx_range", kRadioRange);
    if (v.contains("cs_range")) r.cs_range_m = number(v["cs_range"], "radio.cs_range", kRadioRange);
    if (v.contains("queue")) r.queue = parse_queue(v["queue"], "radio.queue");
    if (v.contains("rts")) r.rts = boolean(v["rts"], "radio.rts");
    r.routing_first = !r.queue.red;
    if (v.contains("routing_first")) {
      r.routing_first = boolean(v["routing_first"], "radio.routing_first");
      if (r.routing_first && r.queue.red)
        throw SpecError("radio.routing_first", "needs a drop-tail interface queue (ns-2's PriQueue), not RED");
    }
    if (v.contains("broadcast_rate")) {
      const int64_t bps = rate(v["broadcast_rate"], "radio.broadcast_rate");
      r.broadcast_bps = bps;
      if (bps != 1'000'000 && bps != 2'000'000 && bps != 5'500'000 && bps != 11'000'000)
        throw SpecError("radio.broadcast_rate", "must be an 802.11b DSSS rate: 1Mbps, 2Mbps, 5.5Mbps or 11Mbps");
    }
  }
  if (r.cs_range_m < r.rx_range_m) throw SpecError("radio.cs_range", "must not be below radio.rx_range");
  return r;
}

// A list of `min`..kMaxNodes [x, y] pairs in metres, each inside `x_range` x `y_range`.
std::vector<std::pair<double, double>> positions(const json& list, const std::string& key, size_t min, size_t max,
                                                 const Range& x_range, const Range& y_range) {
  if (!list.is_array() || list.size() < min) {
    throw SpecError(key, "must list at least " + std::to_string(min) + " [x, y] pair" + (min == 1 ? "" : "s"));
  }
  if (list.size() > max) {
    throw SpecError(key, "lists " + std::to_string(list.size()) + " positions, at most " + std::to_string(max));
  }
  std::vector<std::pair<double, double>> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string where = at(key, i);
    if (!list[i].is_array() || list[i].size() != 2) throw SpecError(where, "must be [x, y] in metres");
    out.emplace_back(number(list[i][0], where, x_range), number(list[i][1], where, y_range));
  }
  return out;
}

TopologySpec parse_topology(const json& v) {
  TopologySpec t;
  if (!v.is_object()) throw SpecError("topology", "must be an object");
  const json& kind = required(v, "topology", "kind");
  const std::string k = name_of(kind);
  if (k == "chain") {
    check_keys(v, "topology", {"kind", "hops", "spacing", "wired"});
    t.kind = TopologyKind::kChain;
    t.hops = small_integer(required(v, "topology", "hops"), "topology.hops", kChainHops);
    if (v.contains("spacing")) t.spacing_m = number(v["spacing"], "topology.spacing", kSpacing);
    if (v.contains("wired")) {  // a wired link to the chain's first node (RSC-VAR Fig. 5)
      const json& w = v["wired"];
      if (!w.is_object()) throw SpecError("topology.wired", "must be {bandwidth, delay, queue}");
      check_keys(w, "topology.wired", {"bandwidth", "delay", "queue"});
      t.wired_head = true;
      t.head_bandwidth_bps = rate(required(w, "topology.wired", "bandwidth"), "topology.wired.bandwidth");
      t.head_delay_s = duration(required(w, "topology.wired", "delay"), "topology.wired.delay", kTime);
      if (w.contains("queue")) t.head_queue = parse_queue(w["queue"], "topology.wired.queue");
      if (t.hops + 2 > kMaxNodes) {
        throw SpecError("topology.hops", "a wired head and " + std::to_string(t.hops) + " hops make more than " +
                                             std::to_string(kMaxNodes) + " nodes");
      }
    }
  } else if (k == "p2p") {
    check_keys(v, "topology", {"kind", "hops", "bandwidth", "delay", "loss", "queue"});
    t.kind = TopologyKind::kP2p;
    t.hops = v.contains("hops") ? small_integer(v["hops"], "topology.hops", kChainHops) : 1;
    t.bandwidth_bps = rate(required(v, "topology", "bandwidth"), "topology.bandwidth");
    t.delay_s = duration(required(v, "topology", "delay"), "topology.delay", kTime);
    if (v.contains("loss")) t.loss = probability(v["loss"], "topology.loss");
    if (v.contains("queue")) t.queue = parse_queue(v["queue"], "topology.queue");
  } else if (k == "dumbbell") {
    check_keys(
        v, "topology",
        {"kind", "bandwidth", "delay", "queue", "access_bandwidth", "access_delay", "radio_hops", "radio_spacing"});
    t.kind = TopologyKind::kDumbbell;
    t.bandwidth_bps = rate(required(v, "topology", "bandwidth"), "topology.bandwidth");
    t.delay_s = duration(required(v, "topology", "delay"), "topology.delay", kTime);
    if (v.contains("queue")) t.queue = parse_queue(v["queue"], "topology.queue");
    t.access_bandwidth_bps = v.contains("access_bandwidth")
                                 ? rate(v["access_bandwidth"], "topology.access_bandwidth")
                                 : std::min<int64_t>(10 * t.bandwidth_bps, static_cast<int64_t>(kRate.hi));
    if (v.contains("access_delay")) t.access_delay_s = duration(v["access_delay"], "topology.access_delay", kTime);
    if (v.contains("radio_hops")) t.radio_hops = small_integer(v["radio_hops"], "topology.radio_hops", kChainHops);
    if (v.contains("radio_spacing")) {
      if (t.radio_hops == 0) throw SpecError("topology.radio_spacing", "needs topology.radio_hops (a radio segment)");
      t.radio_spacing_m = number(v["radio_spacing"], "topology.radio_spacing", kSpacing);
    }
  } else if (k == "manet") {
    check_keys(v, "topology", {"kind", "nodes", "width", "height", "fixed"});
    t.kind = TopologyKind::kManet;
    t.nodes = small_integer(required(v, "topology", "nodes"), "topology.nodes", kManetNodes);
    t.width_m = number(required(v, "topology", "width"), "topology.width", kArea);
    t.height_m = number(required(v, "topology", "height"), "topology.height", kArea);
    if (v.contains("fixed")) {
      const json& fixed = v["fixed"];
      if (fixed.is_array() && fixed.size() >= static_cast<size_t>(t.nodes)) {
        throw SpecError("topology.fixed",
                        "must leave at least one node to move (" + std::to_string(t.nodes) + " nodes)");
      }
      t.positions = positions(fixed, "topology.fixed", 1, static_cast<size_t>(t.nodes) - 1, kCoordinate, kCoordinate);
      for (size_t i = 0; i < t.positions.size(); ++i) {
        const auto [x, y] = t.positions[i];
        if (x < 0 || x > t.width_m || y < 0 || y > t.height_m) {
          throw SpecError(at("topology.fixed", i), "lies outside the width x height area (x 0 .. " + shown(v["width"]) +
                                                       ", y 0 .. " + shown(v["height"]) + " m)");
        }
      }
    }
  } else if (k == "grid") {
    check_keys(v, "topology", {"kind", "rows", "cols", "spacing"});
    t.kind = TopologyKind::kGrid;
    t.rows = small_integer(required(v, "topology", "rows"), "topology.rows", kGridSide);
    t.cols = small_integer(required(v, "topology", "cols"), "topology.cols", kGridSide);
    const int64_t n = static_cast<int64_t>(t.rows) * t.cols;  // both <= 2000: no overflow
    if (n < 2) throw SpecError("topology.rows", "a grid needs at least 2 nodes");
    if (n > kMaxNodes) {
      throw SpecError("topology.rows",
                      "rows x cols = " + std::to_string(n) + " nodes, at most " + std::to_string(kMaxNodes));
    }
    if (v.contains("spacing")) t.spacing_m = number(v["spacing"], "topology.spacing", kSpacing);
  } else if (k == "positions") {
    check_keys(v, "topology", {"kind", "positions"});
    t.kind = TopologyKind::kPositions;
    t.positions =
        positions(required(v, "topology", "positions"), "topology.positions", 2, kMaxNodes, kCoordinate, kCoordinate);
  } else {
    throw SpecError("topology.kind",
                    "unknown kind '" + one_line(k, kShown) + "' (known: chain, p2p, dumbbell, manet, grid, positions)");
  }
  return t;
}

// channel_error: a probability (per frame, every link), or
// {placement, rate, burst, links}.
ChannelErrorSpec parse_channel_error(const json& v, int nodes) {
  ChannelErrorSpec c;
  if (!v.is_object()) {
    c.rate = probability(v, "channel_error");
    return c;
  }
  check_keys(v, "channel_error", {"placement", "rate", "burst", "links"});
  c.placement = name_of(required(v, "channel_error", "placement"));
  if (c.placement != "frame" && c.placement != "packet" && c.placement != "bursty") {
    throw SpecError("channel_error.placement",
                    "unknown placement '" + one_line(c.placement, kShown) + "' (known: frame, packet, bursty)");
  }
  c.rate = probability(required(v, "channel_error", "rate"), "channel_error.rate");
  if (v.contains("burst")) {
    if (c.placement != "bursty") throw SpecError("channel_error.burst", "only the bursty placement takes a burst");
    c.burst_s = duration(v["burst"], "channel_error.burst", kTcpTimer);
  }
  if (v.contains("links")) {
    const json& links = v["links"];
    if (!links.is_array() || links.empty()) throw SpecError("channel_error.links", "must list [a, b] node pairs");
    const std::string nodes_text = "(nodes 0.." + std::to_string(nodes - 1) + ")";
    const Range r{0, static_cast<double>(nodes - 1), nodes_text.c_str()};
    for (size_t i = 0; i < links.size(); ++i) {
      const std::string k = "channel_error.links[" + std::to_string(i) + "]";
      if (!links[i].is_array() || links[i].size() != 2) throw SpecError(k, "must be [a, b]");
      const int a = small_integer(links[i][0], k, r), b = small_integer(links[i][1], k, r);
      if (a == b) throw SpecError(k, "a link joins two different nodes");
      c.links.emplace_back(a, b);
    }
  }
  return c;
}

// waypoints: {"<node>": [[t, x, y], ...], ...}, times strictly increasing.
std::map<int, std::vector<Waypoint>> parse_waypoints(const json& v, int nodes) {
  if (!v.is_object() || v.empty()) throw SpecError("mobility.waypoints", "must map node numbers to [[t, x, y], ...]");
  std::map<int, std::vector<Waypoint>> out;
  const std::string nodes_text = "(nodes 0.." + std::to_string(nodes - 1) + ")";
  for (const auto& [name, list] : v.items()) {
    const std::string key = "mobility.waypoints." + one_line(name, kShown);
    int node = -1;
    if (!name.empty() && name.size() <= 6 && name.find_first_not_of("0123456789") == std::string::npos) {
      node = std::stoi(name);
    }
    if (node < 0 || node >= nodes) throw SpecError(key, "not a node number " + nodes_text);
    if (!list.is_array() || list.empty()) throw SpecError(key, "must be a list of [t, x, y]");
    if (list.size() > kMaxWaypoints) throw SpecError(key, "more than 100000 waypoints");
    std::vector<Waypoint>& points = out[node];
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string k = key + "[" + std::to_string(i) + "]";
      if (!list[i].is_array() || list[i].size() != 3) throw SpecError(k, "must be [t, x, y]");
      Waypoint w{duration(list[i][0], k, kTime), number(list[i][1], k, kCoordinate),
                 number(list[i][2], k, kCoordinate)};
      if (!points.empty() && w.t_s <= points.back().t_s) throw SpecError(k, "times must increase");
      points.push_back(w);
    }
  }
  return out;
}

MobilitySpec parse_mobility(const json& v, int nodes) {
  MobilitySpec m;
  check_keys(v, "mobility", {"model", "speed", "pause", "waypoints", "file"});
  const json& model = required(v, "mobility", "model");
  m.model = name_of(model);
  const auto refuse_others = [&](std::initializer_list<const char*> allowed) {
    for (const char* key : {"speed", "pause", "waypoints", "file"}) {
      if (!v.contains(key)) continue;
      bool ok = false;
      for (const char* a : allowed) ok = ok || std::string(a) == key;
      if (!ok) throw SpecError(std::string("mobility.") + key, "the " + m.model + " model takes no " + key);
    }
  };
  if (m.model == "static") {
    refuse_others({});
    return m;
  }
  if (m.model == "waypoints") {
    refuse_others({"waypoints"});
    m.waypoints = parse_waypoints(required(v, "mobility", "waypoints"), nodes);
    return m;
  }
  if (m.model == "ns2") {
    refuse_others({"file"});
    const json& file = required(v, "mobility", "file");
    if (!file.is_string() || file.get<std::string>().empty()) throw SpecError("mobility.file", "must be a file path");
    m.ns2_file = file.get<std::string>();
    m.ns2_nodes = check_ns2_movement_file(m.ns2_file, nodes);
    return m;
  }
  if (m.model != "rwp" && m.model != "setdest") {
    throw SpecError("mobility.model",
                    "unknown model '" + one_line(m.model, kShown) + "' (known: static, rwp, setdest, waypoints, ns2)");
  }
  refuse_others({"speed", "pause"});
  const json& speed = required(v, "mobility", "speed");
  if (m.model == "setdest") {  // speed: the maximum; each leg's is uniform from 0 to it
    if (!speed.is_number()) throw SpecError("mobility.speed", "setdest takes one number, the maximum speed");
    m.max_speed = number(speed, "mobility.speed", kSpeed);
  } else if (speed.is_array()) {
    if (speed.size() != 2) throw SpecError("mobility.speed", "must be a number or [min, max]");
    m.min_speed = number(speed[0], "mobility.speed", kSpeed);
    m.max_speed = number(speed[1], "mobility.speed", kSpeed);
  } else {
    m.min_speed = m.max_speed = number(speed, "mobility.speed", kSpeed);
  }
  if (m.max_speed < m.min_speed) throw SpecError("mobility.speed", "max must not be below min");
  if (v.contains("pause")) m.pause_s = duration(v["pause"], "mobility.pause", kTime);
  return m;
}

// Core parameters: finite numbers (or booleans, as 1 and 0) in kCoreParam.
mantra::Params core_params(const json& v, const std::string& where) {
  if (!v.is_object()) throw SpecError(where, "must be an object of numbers");
  mantra::Params out;
  for (const auto& [name, value] : v.items()) {
    out[name] = value.is_boolean() ? (value.get<bool>() ? 1.0 : 0.0) : number(value, path(where, name), kCoreParam);
  }
  return out;
}

// A flow kind's name at `key`, kept in `name`; its kind (never null).
// A sender's list leaves out the receiver-only kinds.
const FlowKind* flow_kind(const json& v, const std::string& key, std::string& name, bool receiver) {
  if (!v.is_string()) throw SpecError(key, "must be a protocol name");
  name = v.get<std::string>();
  const FlowKind* kind = find_flow_kind(name);
  if (!kind) {
    throw SpecError(key,
                    "unknown protocol '" + one_line(name, kShown) + "' (known: " + flow_kind_names(receiver) + ")");
  }
  return kind;
}

// The TCP sender's keys beyond max_window and receive_buffer, each refused
// where its kind has no use for it.
TcpFlowSpec parse_tcp_keys(const json& v, const std::string& where, const FlowKind& kind) {
  TcpFlowSpec t;
  const auto only = [&](const char* key, bool allowed, const char* who) {
    if (!v.contains(key)) return false;
    if (!allowed) throw SpecError(where + "." + key, std::string("only ") + who + " take " + key);
    return true;
  };
  if (only("elfn", kind.tcp_takes_elfn, "reno and newreno flows")) t.elfn = boolean(v["elfn"], where + ".elfn");
  if (only("frozen_timer", kind.tcp_freeze_probing, "freeze-probing flows")) {
    t.frozen_timer_s = duration(v["frozen_timer"], where + ".frozen_timer", kTcpTimer);
  }
  if (only("probe_interval", kind.tcp_freeze_probing || t.elfn, "freeze-probing flows and flows with elfn")) {
    t.probe_interval_s = duration(v["probe_interval"], where + ".probe_interval", kTcpTimer);
  }
  if (only("halve_on_resume", kind.tcp_freeze_probing, "freeze-probing flows")) {
    const json& h = v["halve_on_resume"];
    if (!h.is_string() || (h.get<std::string>() != "both" && h.get<std::string>() != "after_probing")) {
      throw SpecError(where + ".halve_on_resume", "must be \"both\" or \"after_probing\"");
    }
    t.halve_on_resume = h.get<std::string>();
  }
  if (only("limited_transmit", kind.tcp() && !kind.tcp_freeze_probing,
           "tcp flows but freeze-probing (whose machine counts its duplicate ACKs)")) {
    t.limited_transmit = boolean(v["limited_transmit"], where + ".limited_transmit");
  }
  if (only("min_rto", kind.tcp(), "tcp flows")) t.min_rto_s = duration(v["min_rto"], where + ".min_rto", kTcpTimer);
  if (only("clock_granularity", kind.tcp(), "tcp flows")) {
    t.clock_granularity_s = duration(v["clock_granularity"], where + ".clock_granularity", kClockGranularity);
  }
  return t;
}

// rsc_var: Table 1's constants and the readings (tcp/rsc_var_machine.h), each optional.
RscVarConfig parse_rsc_var(const json& v, const std::string& where) {
  if (!v.is_object()) throw SpecError(where, "must be an object of RSC-VAR settings");
  RscVarConfig c;
  const auto key = [&](const char* name) { return where + "." + name; };
  for (const auto& [name, value] : v.items()) {
    const std::string k = key(name.c_str());
    if (name == "theta_ss_high")
      c.theta_ss_high = number(value, k, kRscVarLevel);
    else if (name == "theta_ss_low")
      c.theta_ss_low = number(value, k, kRscVarLevel);
    else if (name == "theta_ca_high")
      c.theta_ca_high = number(value, k, kRscVarLevel);
    else if (name == "theta_ca_low")
      c.theta_ca_low = number(value, k, kRscVarLevel);
    else if (name == "theta_co")
      c.theta_co = number(value, k, kRscVarLevel);
    else if (name == "k_normal")
      c.k_normal = small_integer(value, k, kRscVarCount);
    else if (name == "k_congestion")
      c.k_congestion = small_integer(value, k, kRscVarCount);
    else if (name == "n")
      c.n_average = small_integer(value, k, kRscVarCount);
    else if (name == "alpha")
      c.alpha = number(value, k, kRscVarShrink);
    else if (name == "beta")
      c.beta = number(value, k, kRscVarGrow);
    else if (name == "gamma")
      c.gamma_s = duration(value, k, kRscVarStep);
    else if (name == "delta")
      c.delta_s = duration(value, k, kRscVarStep);
    else if (name == "timeout")
      c.timeout_srtts = number(value, k, kRscVarSrtts);
    else if (name == "update")
      c.update_srtts = number(value, k, kRscVarSrtts);
    else if (name == "ss_stable_updates")
      c.ss_stable_updates = small_integer(value, k, kRscVarUpdates);
    else if (name == "dispersion") {
      const std::string d = name_of(value);
      if (d != "std" && d != "mean_abs") throw SpecError(k, "must be \"std\" or \"mean_abs\"");
      c.dispersion = d == "std" ? RscVarDispersion::kStdDev : RscVarDispersion::kMeanAbs;
    } else if (name == "k_from") {
      const std::string d = name_of(value);
      if (d != "long_term" && d != "last") throw SpecError(k, "must be \"long_term\" or \"last\"");
      c.k_from_long_term = d == "long_term";
    } else {
      throw SpecError(k, "unknown key");
    }
  }
  if (c.theta_ss_low > c.theta_ss_high) throw SpecError(key("theta_ss_low"), "must not exceed theta_ss_high");
  if (c.theta_ca_low > c.theta_ca_high) throw SpecError(key("theta_ca_low"), "must not exceed theta_ca_high");
  return c;
}

// phases: {name: [from, to], ...}, each window inside the run.
std::vector<std::pair<std::string, std::pair<double, double>>> parse_phases(const json& v, double duration_s) {
  if (!v.is_object() || v.empty() || v.size() > 100) throw SpecError("phases", "must map 1 to 100 names to [from, to]");
  std::vector<std::pair<std::string, std::pair<double, double>>> out;
  for (const auto& [name, window] : v.items()) {
    const std::string key = path("phases", name);
    if (name.empty() || name.size() > 64 ||
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
            std::string::npos) {
      throw SpecError(key, "a phase name is letters, digits, '-' and '_' (at most 64)");
    }
    if (!window.is_array() || window.size() != 2) throw SpecError(key, "must be [from, to]");
    const double from = duration(window[0], key, kTime), to = duration(window[1], key, kTime);
    if (to <= from) throw SpecError(key, "to must be after from");
    if (to > duration_s) throw SpecError(key, "must end by the run's duration");
    out.emplace_back(name, std::pair{from, to});
  }
  return out;
}

// A flow's src and dst: node numbers, or random together.
void parse_endpoints(const json& v, const std::string& where, const Spec& spec, int nodes, FlowSpec& f) {
  const json& src = required(v, where, "src");
  const json& dst = required(v, where, "dst");
  const auto is_random = [](const json& x) { return x.is_string() && x.get<std::string>() == "random"; };
  const std::string nodes_text = "(nodes 0.." + std::to_string(nodes - 1) + ")";
  if (is_random(src) || is_random(dst)) {
    if (!is_random(src) || !is_random(dst))
      throw SpecError(where + ".dst", "src and dst are random together or not at all");
    if (spec.topology.wired()) throw SpecError(where + ".src", "random pairs need a wireless topology");
    f.src = f.dst = -1;
    const std::string hops_text = "(1 .. " + std::to_string(nodes - 1) + ", the network's nodes - 1)";
    const Range hops{1, static_cast<double>(nodes - 1), hops_text.c_str()};
    f.min_hops = v.contains("min_hops") ? small_integer(v["min_hops"], where + ".min_hops", hops) : 1;
  } else {
    if (v.contains("min_hops")) throw SpecError(where + ".min_hops", "only random pairs take min_hops");
    for (auto [key, node, out] : {std::tuple{"src", &src, &f.src}, std::tuple{"dst", &dst, &f.dst}}) {
      const std::string k = where + "." + key;
      if (!node->is_number()) throw SpecError(k, "must be a node number " + nodes_text + " or random");
      const Range r{0, static_cast<double>(nodes - 1), nodes_text.c_str()};
      if (node->is_number_integer() && !r.holds(node->get<double>())) {
        throw SpecError(k, "node " + shown(*node) + " out of range " + nodes_text);
      }
      *out = small_integer(*node, k, r);
    }
    if (f.src == f.dst) throw SpecError(where + ".dst", "must differ from src");
  }
}

// `start: {uniform: [earliest, latest]}`: the range each copy's start is drawn from.
struct StartRange {
  double earliest_s, latest_s;
};

// One entry of `flows`; a start range comes back in `start_range`, with the
// flow's start_s at its latest for the checks here.
FlowSpec parse_flow(const json& v, size_t index, const Spec& spec, int nodes, std::optional<StartRange>& start_range) {
  const std::string where = at("flows", index);
  check_keys(v, where,
             {"protocol",
              "receiver",
              "src",
              "dst",
              "min_hops",
              "start",
              "stop",
              "packet_size",
              "rate",
              "interval_jitter",
              "max_window",
              "receive_buffer",
              "elfn",
              "limited_transmit",
              "frozen_timer",
              "probe_interval",
              "halve_on_resume",
              "min_rto",
              "clock_granularity",
              "params",
              "receiver_params",
              "count",
              "group",
              "access_loss",
              "ecn",
              "wireless",
              "rsc_var",
              "media"});
  FlowSpec f;
  const FlowKind* kind = flow_kind(required(v, where, "protocol"), where + ".protocol", f.protocol, false);
  if (kind->receiver_only) {
    throw SpecError(where + ".protocol",
                    kind->name + " is a receiver: give a tcp sender as protocol and receiver: " + kind->name);
  }
  const FlowKind* receiver = kind;
  if (v.contains("receiver")) {
    receiver = flow_kind(v["receiver"], where + ".receiver", f.receiver, true);
    if (!can_pair(*kind, *receiver)) {
      throw SpecError(where + ".receiver",
                      "a " + receiver->name + " receiver cannot serve a " + kind->name + " sender");
    }
  }
  if (spec.topology.kind == TopologyKind::kDumbbell) {
    // Each flow has its own host pair: flow i runs from host 2 + i to host 2 + pairs + i.
    for (const char* key : {"src", "dst", "min_hops"}) {
      if (v.contains(key))
        throw SpecError(where + "." + key, "a dumbbell gives each flow its own hosts: no src or dst");
    }
    if (v.contains("access_loss")) f.access_loss = probability(v["access_loss"], where + ".access_loss");
    if (v.contains("wireless")) {
      f.wireless = boolean(v["wireless"], where + ".wireless");
      if (f.wireless && spec.topology.radio_hops == 0)
        throw SpecError(where + ".wireless", "needs a radio segment (topology.radio_hops)");
      if (f.wireless && f.access_loss > 0)
        throw SpecError(where + ".access_loss", "a wireless flow's last hop is the radio (use channel_error)");
    }
  } else {
    if (v.contains("access_loss")) throw SpecError(where + ".access_loss", "only dumbbell flows take an access_loss");
    if (v.contains("wireless")) throw SpecError(where + ".wireless", "only dumbbell flows take wireless");
    parse_endpoints(v, where, spec, nodes, f);
  }
  if (v.contains("group")) {
    const json& g = v["group"];
    if (!g.is_string() || g.get<std::string>().empty() || g.get<std::string>().size() > 64 ||
        g.get<std::string>().find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
            std::string::npos) {
      throw SpecError(where + ".group", "must be a name of letters, digits, '-' and '_' (at most 64)");
    }
    f.group = g.get<std::string>();
  } else {
    f.group = f.protocol;
  }
  if (v.contains("ecn")) {
    if (!kind->tcp()) throw SpecError(where + ".ecn", "only tcp flows take ecn (a core protocol asks for ECT itself)");
    f.ecn = boolean(v["ecn"], where + ".ecn");
  }
  if (v.contains("start") && v["start"].is_object()) {
    const json& u = v["start"];
    check_keys(u, where + ".start", {"uniform"});
    const json& range = required(u, where + ".start", "uniform");
    if (!range.is_array() || range.size() != 2)
      throw SpecError(where + ".start.uniform", "must be [earliest, latest], two durations");
    const double lo = duration(range[0], where + ".start.uniform[0]", kTime);
    const double hi = duration(range[1], where + ".start.uniform[1]", kTime);
    if (hi <= lo) throw SpecError(where + ".start.uniform", "the latest start must be after the earliest");
    if (v.contains("media")) throw SpecError(where + ".start", "a flow with media starts at a fixed time");
    start_range = StartRange{lo, hi};
    f.start_s = hi;
  } else {
    f.start_s = v.contains("start") ? duration(v["start"], where + ".start", kTime) : 0.0;
  }
  f.stop_s = v.contains("stop") ? duration(v["stop"], where + ".stop", kTime) : spec.duration_s;
  if (start_range && f.stop_s <= f.start_s)
    throw SpecError(where + ".start.uniform", "the latest start must be before the flow's stop");
  if (f.stop_s <= f.start_s) throw SpecError(where + ".stop", "must be after start");
  if (f.stop_s > spec.duration_s) throw SpecError(where + ".stop", "must not be after the run's duration");
  if (v.contains("packet_size")) f.packet_size = small_integer(v["packet_size"], where + ".packet_size", kPacketSize);
  if (kind->takes_rate) {
    f.rate_bps = rate(required(v, where, "rate"), where + ".rate");
  } else if (v.contains("rate")) {
    throw SpecError(where + ".rate", "only fixed-rate flows (cbr) take a rate");
  }
  if (v.contains("interval_jitter")) {
    if (!kind->takes_rate)
      throw SpecError(where + ".interval_jitter", "only fixed-rate flows (cbr) take an interval_jitter");
    f.interval_jitter = probability(v["interval_jitter"], where + ".interval_jitter");
  }
  if (v.contains("max_window")) {
    if (!kind->tcp()) throw SpecError(where + ".max_window", "only tcp flows take a max_window");
    f.max_window = small_integer(v["max_window"], where + ".max_window", kMaxWindow);
  }
  if (v.contains("receive_buffer")) {
    if (!kind->tcp()) throw SpecError(where + ".receive_buffer", "only tcp flows take a receive_buffer");
    f.receive_buffer = small_integer(v["receive_buffer"], where + ".receive_buffer", kMaxWindow);
  }
  f.tcp = parse_tcp_keys(v, where, *kind);
  if (v.contains("rsc_var")) {
    if (!receiver->tcp_rsc_var) throw SpecError(where + ".rsc_var", "only flows with receiver: rsc-var take rsc_var");
    f.tcp.rsc_var = parse_rsc_var(v["rsc_var"], where + ".rsc_var");
  }
  if (receiver->tcp_rsc_var && f.ecn) throw SpecError(where + ".ecn", "an rsc-var receiver paces ACKs without ECN");
  for (const char* key : {"params", "receiver_params"}) {
    if (!v.contains(key)) continue;
    if (kind->tcp()) throw SpecError(where + "." + key, "tcp flows take no core parameters");
    (std::string(key) == "params" ? f.params : f.receiver_params) = core_params(v[key], where + "." + key);
  }
  if (v.contains("media")) f.media = parse_media(v["media"], where + ".media", f.start_s, f.stop_s);
  if (f.media && f.media->tcp_rate_given && !kind->tcp()) {
    throw SpecError(where + ".media.tcp_rate", "only tcp flows take a tcp_rate");
  }
  // One place sets each: the flow's own keys, never a copy in params.
  for (const auto& [param, flow_key] :
       {std::pair{"packet_size", "packet_size"}, std::pair{"rate_bps", "rate"}, std::pair{"source_offered", "media"},
        std::pair{"interval_jitter", "interval_jitter"}, std::pair{"jitter_seed", "interval_jitter"}}) {
    if (f.params.count(param)) {
      throw SpecError(where + ".params." + param,
                      std::string("set by the flow's key '") + flow_key + "', not in params");
    }
  }
  if (!kind->tcp()) {  // the core checks its own parameters
    const auto sender = mantra::make_sender(f.protocol, f.sender_params());
    if (!sender.endpoint) throw SpecError(where + ".params", sender.error);
    const int64_t header_bytes = sender.endpoint->data_header_bytes();
    if (f.media && f.packet_size - header_bytes < 1) {
      throw SpecError(where + ".packet_size",
                      "leaves no room for video after the protocol's " + std::to_string(header_bytes) + "-byte header");
    }
    if (f.media && f.media->largest_datagram_bytes() > f.packet_size - header_bytes) {
      throw SpecError(where + ".packet_size", "leaves " + std::to_string(f.packet_size - header_bytes) +
                                                  " bytes for video after the protocol's " +
                                                  std::to_string(header_bytes) +
                                                  "-byte header; the video's slices come in datagrams of up to " +
                                                  std::to_string(f.media->largest_datagram_bytes()));
    }
    const auto receiver = mantra::make_receiver(f.protocol, f.receiver_params);
    if (!receiver.endpoint) throw SpecError(where + ".receiver_params", receiver.error);
  }
  return f;
}

// -- reading JSON ----------------------------------------------------------------

// Where the parser is, for naming the key of a number too large for a double
// ("1e400"), and the keys already seen per object (a key given twice is an error).
struct ParseFrame {
  bool array = false;
  size_t index = 0;  // array: elements completed
  std::string key;   // object: the current key
  std::set<std::string> keys;
};

std::string frames_path(const std::vector<ParseFrame>& frames) {
  std::string p;
  for (const auto& f : frames) {
    if (f.array)
      p = at(p, f.index);
    else if (!f.key.empty() || !f.keys.empty())
      p = path(p, f.key);
  }
  return p;
}

}  // namespace

SpecError::SpecError(const std::string& key, const std::string& what)
    : std::runtime_error(key.empty() ? one_line(what, 600) : one_line(key, 200) + ": " + one_line(what, 600)),
      key_(key.empty() ? "" : one_line(key, 200)),
      message_(one_line(what, 600)) {}

json read_spec_json(std::string_view text) {
  if (text.size() > kMaxSpecBytes) {
    throw SpecError("",
                    "the spec is " + std::to_string(text.size()) + " bytes, at most " + std::to_string(kMaxSpecBytes));
  }
  std::vector<ParseFrame> frames;
  const auto element_done = [&frames] {
    if (!frames.empty() && frames.back().array) ++frames.back().index;
  };
  const json::parser_callback_t track = [&](int depth, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        // depth: the containers around this one. Stop before going deeper, so
        // no later recursive pass (copy, dump, compare) can exhaust the stack.
        if (depth >= kMaxSpecDepth) {
          throw SpecError("", "the spec nests deeper than " + std::to_string(kMaxSpecDepth) + " levels");
        }
        frames.push_back({event == json::parse_event_t::array_start, 0, {}, {}});
        break;
      case json::parse_event_t::key: {
        ParseFrame& f = frames.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) throw SpecError(frames_path(frames), "given twice");
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames.pop_back();
        element_done();
        break;
      case json::parse_event_t::value:
        element_done();
        break;
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), track);
  } catch (const json::out_of_range& e) {  // 406: a number beyond double's range
    const std::string what = e.what();
    const size_t open = what.find('\''), close = what.rfind('\'');
    const std::string number =
        one_line(open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : what, kShown);
    const std::string key = frames_path(frames);
    throw SpecError(key.empty() ? "spec" : key, number + " is out of range (beyond any double)");
  } catch (const json::exception& e) {
    throw SpecError("", std::string("malformed JSON: ") + e.what());
  }
}

bool MobilitySpec::scripted(int node) const {
  if (model == "waypoints") return waypoints.count(node) > 0;
  if (model == "ns2") return std::binary_search(ns2_nodes.begin(), ns2_nodes.end(), node);
  return false;
}

mantra::Params FlowSpec::sender_params() const {
  mantra::Params p = params;
  p["packet_size"] = packet_size;
  if (find_flow_kind(protocol)->takes_rate) p["rate_bps"] = static_cast<double>(rate_bps);
  if (interval_jitter > 0) {
    p["interval_jitter"] = interval_jitter;
    p["jitter_seed"] = static_cast<double>(jitter_seed);
  }
  if (media) p["source_offered"] = 1;
  return p;
}

int TopologySpec::node_count() const {
  switch (kind) {
    case TopologyKind::kChain:
      return hops + 1 + (wired_head ? 1 : 0);
    case TopologyKind::kP2p:
      return hops + 1;
    case TopologyKind::kManet:
      return nodes;
    case TopologyKind::kPositions:
      return static_cast<int>(positions.size());
    case TopologyKind::kGrid:
      return rows * cols;
    case TopologyKind::kDumbbell:
      return 2 + 2 * pairs + radio_hops;
  }
  return 0;
}

Spec parse_spec(const json& j) {
  Spec s;
  if (!j.is_object()) throw SpecError("", "a spec must be a JSON object of keys, not " + std::string(j.type_name()));
  s.source = j;
  check_keys(j, "",
             {"duration", "seed", "interval", "smoothness_window", "hop_sampling", "measure", "phases", "radio",
              "routing", "dsr_cache_replies", "arp", "link_failure_flush", "channel_error", "topology", "mobility",
              "latp_agent", "flows"});
  s.duration_s = duration(required(j, "", "duration"), "duration", kDuration);
  s.seed = static_cast<uint64_t>(integer(required(j, "", "seed"), "seed", kSeed));
  if (j.contains("interval")) s.interval_s = duration(j["interval"], "interval", kInterval);
  if (j.contains("hop_sampling")) s.hop_sampling_s = duration(j["hop_sampling"], "hop_sampling", kInterval);
  if (j.contains("smoothness_window")) {
    s.smoothness_window_s = duration(j["smoothness_window"], "smoothness_window", kInterval);
  }
  if (s.smoothness_window_s < s.interval_s) throw SpecError("smoothness_window", "must not be shorter than interval");
  s.measure_to_s = s.duration_s;
  if (j.contains("measure")) {
    const json& m = j["measure"];
    if (!m.is_object()) throw SpecError("measure", "must be an object {from, to}");
    check_keys(m, "measure", {"from", "to"});
    if (m.contains("from")) s.measure_from_s = duration(m["from"], "measure.from", kTime);
    if (m.contains("to")) s.measure_to_s = duration(m["to"], "measure.to", kTime);
    if (s.measure_to_s > s.duration_s) throw SpecError("measure.to", "must not be after the run's duration");
    if (s.measure_to_s <= s.measure_from_s) throw SpecError("measure.to", "must be after measure.from");
  }
  if (j.contains("phases")) s.phases = parse_phases(j["phases"], s.duration_s);
  if (j.contains("latp_agent")) {
    const json& a = j["latp_agent"];
    if (a.is_boolean()) {
      s.latp_agent = a.get<bool>();
    } else if (a.is_object()) {
      for (const auto& [name, value] : a.items())
        s.latp_agent_params[name] = number(value, path("latp_agent", name), kCoreParam);
    } else {
      throw SpecError("latp_agent", "must be true, false or an object of agent parameters");
    }
    mantra::latp::NodeAgentConfig config;
    const std::string error = mantra::latp::NodeAgent::parse(s.latp_agent_params, config);
    if (!error.empty()) throw SpecError("latp_agent", error);
  }
  s.topology = parse_topology(required(j, "", "topology"));
  const bool wired = s.topology.wired();
  if (j.contains("radio")) {
    if (!s.topology.has_radio()) throw SpecError("radio", "a wired topology has no radio");
    s.radio = parse_radio(j["radio"]);
  }
  s.routing = wired ? "static" : "aodv";  // ns-2's AODV (ours), the papers' routing
  if (j.contains("routing")) {
    const json& r = j["routing"];
    s.routing = name_of(r);
    if (wired && s.routing != "static") throw SpecError("routing", "a wired topology uses static routing");
    if (!wired && s.routing != "aodv" && s.routing != "aodv-ns3" && s.routing != "dsr" && s.routing != "dsr-ns3" &&
        s.routing != "oracle" && s.routing != "static") {
      throw SpecError("routing", "unknown routing '" + one_line(s.routing, kShown) +
                                     "' (known: aodv, aodv-ns3, dsr, dsr-ns3, oracle, static)");
    }
    if (!wired && s.routing == "static" && s.topology.kind != TopologyKind::kChain) {
      throw SpecError("routing", "static routing on a radio needs a chain (each node forwards to its neighbour)");
    }
  }
  // Every radio runs on the papers' ns-2 stack unless the spec says otherwise (RadioSpec's and
  // Spec's defaults): routing packets first in a drop-tail interface queue, broadcasts at 2 Mb/s,
  // ns-2's ARP. ns-3's own stack is `radio: {routing_first: false, broadcast_rate: 1Mbps}` with
  // `arp: ns3`.
  if (j.contains("arp")) {
    if (!s.topology.has_radio())
      throw SpecError("arp", "a wired topology has no ARP to set (its links are point to point)");
    s.arp = name_of(j["arp"]);
    if (s.arp != "ns2" && s.arp != "ns3")
      throw SpecError("arp", "unknown ARP '" + one_line(s.arp, kShown) + "' (known: ns2, ns3)");
  }
  if (j.contains("dsr_cache_replies")) {
    s.dsr_cache_replies = boolean(j["dsr_cache_replies"], "dsr_cache_replies");
    if (s.routing != "dsr") throw SpecError("dsr_cache_replies", "is a setting of our DSR (routing: dsr)");
  }
  if (j.contains("link_failure_flush")) {
    s.link_failure_flush = boolean(j["link_failure_flush"], "link_failure_flush");
    if (s.link_failure_flush && s.routing == "dsr")
      throw SpecError("link_failure_flush", "our DSR takes what is queued for a broken link and salvages it itself");
    if (s.link_failure_flush && s.routing == "aodv")
      throw SpecError("link_failure_flush", "our AODV drops what is queued for a broken link itself, as ns-2's did");
    if (s.link_failure_flush && s.routing != "aodv-ns3" && s.routing != "dsr-ns3")
      throw SpecError("link_failure_flush", "needs a routing protocol that repairs routes (aodv-ns3 or dsr-ns3)");
  }
  if (s.topology.wired_head && s.routing != "static") {
    throw SpecError("routing", "a chain with a wired head uses static routing (routing: static)");
  }
  if (j.contains("channel_error")) {
    if (!s.topology.has_radio())
      throw SpecError("channel_error",
                      "a wired topology takes topology.loss (p2p) or a flow's access_loss (dumbbell) instead");
    // A dumbbell's nodes are counted from its flows: its channel error is read after them.
    if (s.topology.kind != TopologyKind::kDumbbell)
      s.channel_error = parse_channel_error(j["channel_error"], s.topology.node_count());
  }
  if (j.contains("mobility")) {
    s.mobility = parse_mobility(j["mobility"], s.topology.node_count());
    if ((s.mobility.model == "rwp" || s.mobility.model == "setdest") && s.topology.kind != TopologyKind::kManet) {
      throw SpecError("mobility.model", "random waypoint needs a manet topology (its area)");
    }
    if (s.mobility.model != "static" && wired) throw SpecError("mobility.model", "a wired topology cannot move");
  }
  const json& flows = required(j, "", "flows");
  if (!flows.is_array() || flows.empty()) throw SpecError("flows", "must list at least one flow");
  if (flows.size() > kMaxFlows) {
    throw SpecError("flows", "lists " + std::to_string(flows.size()) + " flows, at most " + std::to_string(kMaxFlows));
  }
  const int nodes = s.topology.node_count();
  double samples = 0;
  double media_frames = 0;  // frames captured over the flows' active times (at most one loop more)
  for (size_t i = 0; i < flows.size(); ++i) {
    std::optional<StartRange> start_range;
    FlowSpec f = parse_flow(flows[i], i, s, nodes, start_range);
    const int count =
        flows[i].contains("count") ? small_integer(flows[i]["count"], at("flows", i) + ".count", kFlowCount) : 1;
    if (s.flows.size() + static_cast<size_t>(count) > kMaxFlows) {
      throw SpecError(at("flows", i) + ".count", "makes more than " + std::to_string(kMaxFlows) + " flows in all");
    }
    for (int c = 0; c < count; ++c) {
      FlowSpec copy = f;
      if (start_range)
        copy.start_s = uniform_start_s(s.seed, s.flows.size(), start_range->earliest_s, start_range->latest_s);
      if (copy.interval_jitter > 0) copy.jitter_seed = jitter_seed(s.seed, s.flows.size());
      samples += std::ceil((copy.stop_s - copy.start_s) / s.interval_s);
      if (f.media) media_frames += (f.stop_s - f.media->start_s) * f.media->fps + f.media->frames_per_loop();
      s.flows.push_back(std::move(copy));
    }
    if (media_frames > kMaxMediaFramesCaptured) {
      throw SpecError(at("flows", i) + ".media", "gives about " + std::to_string(static_cast<int64_t>(media_frames)) +
                                                     " frames over the flows' active times, at most 10000000");
    }
  }
  if (s.topology.kind == TopologyKind::kDumbbell) {
    s.topology.pairs = static_cast<int>(s.flows.size());
    if (s.topology.node_count() > kMaxNodes) {
      throw SpecError("flows", "a dumbbell of " + std::to_string(s.flows.size()) + " flows needs " +
                                   std::to_string(s.topology.node_count()) + " nodes, at most " +
                                   std::to_string(kMaxNodes) + " (999 flows)");
    }
    if (s.topology.radio_hops > 0 &&
        std::none_of(s.flows.begin(), s.flows.end(), [](const FlowSpec& f) { return f.wireless; })) {
      throw SpecError("topology.radio_hops", "no flow crosses the radio segment (give a flow wireless: true)");
    }
    for (size_t i = 0; i < s.flows.size(); ++i) {
      s.flows[i].src = 2 + static_cast<int>(i);
      s.flows[i].dst = 2 + s.topology.pairs + static_cast<int>(i);
    }
  }
  if (j.contains("channel_error") && s.topology.kind == TopologyKind::kDumbbell)
    s.channel_error = parse_channel_error(j["channel_error"], s.topology.node_count());
  if (samples > kMaxSeriesSamples) {
    // FlowMetrics keeps two counters per flow and interval, and the result lists them.
    throw SpecError("interval",
                    "gives " + std::to_string(static_cast<int64_t>(samples)) +
                        " series samples over the flows' active times, at most 10000000 (use a longer interval)");
  }
  for (size_t i = 0; i < s.flows.size(); ++i) {
    const FlowSpec& f = s.flows[i];
    if (f.stop_s <= s.measure_from_s || f.start_s >= s.measure_to_s) {
      throw SpecError(at("flows", i), "does not run during the measure window");
    }
  }
  if (s.needs_latp_agents() && (wired || s.topology.wired_head))
    throw SpecError("flows", "latp needs a wireless topology (its node agents read the radio on every node)");
  if (s.needs_latp_agents() && s.radio.queue.red) {
    throw SpecError("radio.queue", "latp's node agents need drop-tail radio queues (they read their own queue disc)");
  }
  return s;
}

bool Spec::needs_latp_agents() const {
  if (!latp_agent) return false;
  bool latp = false, stamped = false;
  for (const auto& f : flows) {
    latp = latp || f.protocol == "latp";
    stamped = stamped || mantra::is_latp_stamped(f.protocol);
  }
  // LATP needs its agents (the checks above refuse a network without them);
  // mantra uses them where they can run: every node on the radio, drop-tail
  // queues.
  const bool agents_fit = !topology.wired() && !topology.wired_head && !radio.queue.red;
  return latp || (stamped && agents_fit);
}

}  // namespace mantra::sim
