#include "spec.h"

#include <cmath>
#include <regex>
#include <algorithm>
#include <set>

#include "core_bridge.h"

namespace mantra::sim {
namespace {

using nlohmann::json;

// Rejects keys outside `allowed`, naming the first offender.
void check_keys(const json& obj, const std::string& where, const std::set<std::string>& allowed) {
  if (!obj.is_object()) throw SpecError(where, "must be an object");
  for (const auto& [key, value] : obj.items()) {
    if (!allowed.count(key)) throw SpecError(where.empty() ? key : where + "." + key, "unknown key");
  }
}

std::string path(const std::string& where, const std::string& key) { return where.empty() ? key : where + "." + key; }

const json& required(const json& obj, const std::string& where, const std::string& key) {
  if (!obj.contains(key)) throw SpecError(path(where, key), "missing required field");
  return obj.at(key);
}

double number(const json& v, const std::string& key) {
  if (!v.is_number()) throw SpecError(key, "must be a number");
  return v.get<double>();
}

int integer(const json& v, const std::string& key) {
  if (!v.is_number_integer()) throw SpecError(key, "must be an integer");
  return v.get<int>();
}

double non_negative(double x, const std::string& key) {
  if (!(x >= 0) || !std::isfinite(x)) throw SpecError(key, "must not be negative");
  return x;
}

double positive(double x, const std::string& key) {
  if (!(x > 0) || !std::isfinite(x)) throw SpecError(key, "must be positive");
  return x;
}

double probability(const json& v, const std::string& key) {
  const double p = number(v, key);
  if (!(p >= 0 && p < 1)) throw SpecError(key, "must be a probability in [0, 1)");
  return p;
}

bool boolean(const json& v, const std::string& key) {
  if (!v.is_boolean()) throw SpecError(key, "must be true or false");
  return v.get<bool>();
}

RadioSpec parse_radio(const json& v) {
  RadioSpec r;
  std::string preset;
  if (v.is_string()) {
    preset = v.get<std::string>();
  } else {
    check_keys(v, "radio", {"preset", "rx_range", "cs_range", "queue", "rts"});
    const json& p = required(v, "radio", "preset");
    if (!p.is_string()) throw SpecError("radio.preset", "must be a preset name");
    preset = p.get<std::string>();
  }
  if (preset != "ns2-80211b") throw SpecError("radio.preset", "unknown preset '" + preset + "' (known: ns2-80211b)");
  r.preset = preset;
  if (v.is_object()) {
    if (v.contains("rx_range")) r.rx_range_m = positive(number(v["rx_range"], "radio.rx_range"), "radio.rx_range");
    if (v.contains("cs_range")) r.cs_range_m = positive(number(v["cs_range"], "radio.cs_range"), "radio.cs_range");
    if (v.contains("queue")) r.queue_packets = static_cast<int>(positive(integer(v["queue"], "radio.queue"), "radio.queue"));
    if (v.contains("rts")) r.rts = boolean(v["rts"], "radio.rts");
  }
  if (r.cs_range_m < r.rx_range_m) throw SpecError("radio.cs_range", "must not be below radio.rx_range");
  return r;
}

// A list of at least `min` [x, y] pairs in metres.
std::vector<std::pair<double, double>> positions(const json& list, const std::string& key, size_t min) {
  if (!list.is_array() || list.size() < min) {
    throw SpecError(key, "must list at least " + std::to_string(min) + " [x, y] pair" + (min == 1 ? "" : "s"));
  }
  std::vector<std::pair<double, double>> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = key + "[" + std::to_string(i) + "]";
    if (!list[i].is_array() || list[i].size() != 2) throw SpecError(at, "must be [x, y] in metres");
    out.emplace_back(number(list[i][0], at), number(list[i][1], at));
  }
  return out;
}

TopologySpec parse_topology(const json& v) {
  TopologySpec t;
  if (!v.is_object()) throw SpecError("topology", "must be an object");
  const json& kind = required(v, "topology", "kind");
  const std::string k = kind.is_string() ? kind.get<std::string>() : "";
  if (k == "chain") {
    check_keys(v, "topology", {"kind", "hops", "spacing"});
    t.kind = TopologyKind::kChain;
    t.hops = integer(required(v, "topology", "hops"), "topology.hops");
    if (t.hops < 1) throw SpecError("topology.hops", "must be at least 1");
    if (v.contains("spacing")) t.spacing_m = positive(number(v["spacing"], "topology.spacing"), "topology.spacing");
  } else if (k == "p2p") {
    check_keys(v, "topology", {"kind", "hops", "bandwidth", "delay", "loss", "queue"});
    t.kind = TopologyKind::kP2p;
    t.hops = v.contains("hops") ? integer(v["hops"], "topology.hops") : 1;
    if (t.hops < 1) throw SpecError("topology.hops", "must be at least 1");
    t.bandwidth_bps = parse_rate(required(v, "topology", "bandwidth"), "topology.bandwidth");
    t.delay_s = parse_duration(required(v, "topology", "delay"), "topology.delay");
    if (v.contains("loss")) t.loss = probability(v["loss"], "topology.loss");
    if (v.contains("queue")) t.queue_packets = static_cast<int>(positive(integer(v["queue"], "topology.queue"), "topology.queue"));
  } else if (k == "manet") {
    check_keys(v, "topology", {"kind", "nodes", "width", "height", "fixed"});
    t.kind = TopologyKind::kManet;
    t.nodes = integer(required(v, "topology", "nodes"), "topology.nodes");
    if (t.nodes < 2) throw SpecError("topology.nodes", "must be at least 2");
    t.width_m = positive(number(required(v, "topology", "width"), "topology.width"), "topology.width");
    t.height_m = positive(number(required(v, "topology", "height"), "topology.height"), "topology.height");
    if (v.contains("fixed")) {
      t.positions = positions(v["fixed"], "topology.fixed", 1);
      if (static_cast<int>(t.positions.size()) >= t.nodes) {
        throw SpecError("topology.fixed", "must leave at least one node to move (" + std::to_string(t.nodes) + " nodes)");
      }
      for (size_t i = 0; i < t.positions.size(); ++i) {
        const auto [x, y] = t.positions[i];
        if (x < 0 || x > t.width_m || y < 0 || y > t.height_m) {
          throw SpecError("topology.fixed[" + std::to_string(i) + "]", "lies outside the width x height area");
        }
      }
    }
  } else if (k == "grid") {
    check_keys(v, "topology", {"kind", "rows", "cols", "spacing"});
    t.kind = TopologyKind::kGrid;
    t.rows = integer(required(v, "topology", "rows"), "topology.rows");
    t.cols = integer(required(v, "topology", "cols"), "topology.cols");
    if (t.rows < 1 || t.cols < 1 || t.rows * t.cols < 2) throw SpecError("topology.rows", "a grid needs at least 2 nodes");
    if (v.contains("spacing")) t.spacing_m = positive(number(v["spacing"], "topology.spacing"), "topology.spacing");
  } else if (k == "positions") {
    check_keys(v, "topology", {"kind", "positions"});
    t.kind = TopologyKind::kPositions;
    t.positions = positions(required(v, "topology", "positions"), "topology.positions", 2);
  } else {
    throw SpecError("topology.kind", "unknown kind '" + k + "' (known: chain, p2p, manet, grid, positions)");
  }
  return t;
}

MobilitySpec parse_mobility(const json& v) {
  MobilitySpec m;
  check_keys(v, "mobility", {"model", "speed", "pause"});
  const json& model = required(v, "mobility", "model");
  m.model = model.is_string() ? model.get<std::string>() : "";
  if (m.model == "static") {
    if (v.contains("speed") || v.contains("pause")) throw SpecError("mobility.speed", "a static model takes no speed or pause");
    return m;
  }
  if (m.model != "rwp") throw SpecError("mobility.model", "unknown model '" + m.model + "' (known: static, rwp)");
  const json& speed = required(v, "mobility", "speed");
  if (speed.is_array()) {
    if (speed.size() != 2) throw SpecError("mobility.speed", "must be a number or [min, max]");
    m.min_speed = number(speed[0], "mobility.speed");
    m.max_speed = number(speed[1], "mobility.speed");
  } else {
    m.min_speed = m.max_speed = number(speed, "mobility.speed");
  }
  // A zero minimum speed has no steady state: random waypoint decays.
  if (!(m.min_speed > 0)) throw SpecError("mobility.speed", "must be above 0 (use model: static for no movement)");
  if (m.max_speed < m.min_speed) throw SpecError("mobility.speed", "max must not be below min");
  if (v.contains("pause")) m.pause_s = parse_duration(v["pause"], "mobility.pause");
  return m;
}

FlowSpec parse_flow(const json& v, size_t index, const Spec& spec, int nodes) {
  const std::string where = "flows[" + std::to_string(index) + "]";
  check_keys(v, where, {"protocol", "src", "dst", "min_hops", "start", "stop", "packet_size", "rate", "max_window",
                        "params", "receiver_params"});
  FlowSpec f;
  const json& proto = required(v, where, "protocol");
  if (!proto.is_string()) throw SpecError(where + ".protocol", "must be a protocol name");
  f.protocol = proto.get<std::string>();
  const auto known = core_protocol_names();
  if (f.protocol != "tcp" && std::find(known.begin(), known.end(), f.protocol) == known.end()) {
    std::string list = "tcp";
    for (const auto& n : known) list += ", " + n;
    throw SpecError(where + ".protocol", "unknown protocol '" + f.protocol + "' (known: " + list + ")");
  }
  const json& src = required(v, where, "src");
  const json& dst = required(v, where, "dst");
  const auto is_random = [](const json& x) { return x.is_string() && x.get<std::string>() == "random"; };
  if (is_random(src) || is_random(dst)) {
    if (!is_random(src) || !is_random(dst)) throw SpecError(where + ".dst", "src and dst are random together or not at all");
    if (spec.topology.kind == TopologyKind::kP2p) throw SpecError(where + ".src", "random pairs need a wireless topology");
    f.src = f.dst = -1;
    f.min_hops = v.contains("min_hops") ? integer(v["min_hops"], where + ".min_hops") : 1;
    if (f.min_hops < 1) throw SpecError(where + ".min_hops", "must be at least 1");
  } else {
    if (v.contains("min_hops")) throw SpecError(where + ".min_hops", "only random pairs take min_hops");
    f.src = integer(src, where + ".src");
    f.dst = integer(dst, where + ".dst");
    for (auto [key, node] : {std::pair{"src", f.src}, std::pair{"dst", f.dst}}) {
      if (node < 0 || node >= nodes) {
        throw SpecError(where + "." + key, "node " + std::to_string(node) + " out of range (nodes 0.." + std::to_string(nodes - 1) + ")");
      }
    }
    if (f.src == f.dst) throw SpecError(where + ".dst", "must differ from src");
  }
  f.start_s = v.contains("start") ? parse_duration(v["start"], where + ".start") : 0.0;
  f.stop_s = v.contains("stop") ? parse_duration(v["stop"], where + ".stop") : spec.duration_s;
  if (f.stop_s <= f.start_s) throw SpecError(where + ".stop", "must be after start");
  if (f.stop_s > spec.duration_s) throw SpecError(where + ".stop", "must not be after the run's duration");
  if (v.contains("packet_size")) f.packet_size = integer(v["packet_size"], where + ".packet_size");
  if (f.packet_size < 64 || f.packet_size > 1460) throw SpecError(where + ".packet_size", "must be between 64 and 1460 bytes");
  if (f.protocol == "cbr") {
    f.rate_bps = parse_rate(required(v, where, "rate"), where + ".rate");
  } else if (v.contains("rate")) {
    throw SpecError(where + ".rate", "only cbr flows take a rate");
  }
  if (v.contains("max_window")) {
    if (f.protocol != "tcp") throw SpecError(where + ".max_window", "only tcp flows take a max_window");
    f.max_window = integer(v["max_window"], where + ".max_window");
    if (f.max_window < 1) throw SpecError(where + ".max_window", "must be at least 1 packet");
  }
  if (f.protocol == "tcp" && f.max_window > 10000) {
    throw SpecError(where + ".max_window", "must be at most 10000 packets");
  }
  for (const char* key : {"params", "receiver_params"}) {
    if (!v.contains(key)) continue;
    if (f.protocol == "tcp") throw SpecError(where + "." + key, "tcp flows take no core parameters");
    CoreParams& out = std::string(key) == "params" ? f.params : f.receiver_params;
    if (!v[key].is_object()) throw SpecError(where + "." + key, "must be an object of numbers");
    for (const auto& [name, value] : v[key].items()) {
      if (!value.is_number() && !value.is_boolean()) throw SpecError(where + "." + key + "." + name, "must be a number");
      out[name] = value.is_boolean() ? (value.get<bool>() ? 1.0 : 0.0) : value.get<double>();
    }
  }
  if (f.protocol != "tcp") {  // the core checks its own parameters
    std::string error;
    if (!make_core_sender(f.protocol, f.sender_params(), error)) throw SpecError(where + ".params", error);
    if (!make_core_receiver(f.protocol, f.receiver_params, error)) throw SpecError(where + ".receiver_params", error);
  }
  return f;
}

}  // namespace

namespace {

struct Unit {
  const char* suffix;
  double scale;  // to the base unit (seconds, bit/s)
};

// A number in the base unit, or a string "<number><unit>" from `units`.
double parse_quantity(const json& v, const std::string& key, const std::vector<Unit>& units, const char* kind,
                      const char* example) {
  if (v.is_number()) return v.get<double>();
  if (!v.is_string()) throw SpecError(key, std::string("must be a ") + kind + " (" + example + ")");
  static const std::regex re(R"(^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z]*)\s*$)");
  std::smatch m;
  const std::string text = v.get<std::string>();
  if (std::regex_match(text, m, re)) {
    const std::string suffix = m[2];
    if (suffix.empty()) return std::stod(m[1]);
    for (const Unit& u : units) {
      if (suffix == u.suffix) return std::stod(m[1]) * u.scale;
    }
  }
  throw SpecError(key, "'" + text + "' is not a " + kind + " (" + example + ")");
}

}  // namespace

double parse_duration(const json& v, const std::string& key) {
  static const std::vector<Unit> units = {{"us", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"min", 60}};
  return non_negative(parse_quantity(v, key, units, "duration", "e.g. 200ms, 1.5s, 3"), key);
}

int64_t parse_rate(const json& v, const std::string& key) {
  static const std::vector<Unit> units = {{"bps", 1}, {"kbps", 1e3}, {"Kbps", 1e3}, {"Mbps", 1e6}, {"Gbps", 1e9}};
  return static_cast<int64_t>(std::llround(positive(parse_quantity(v, key, units, "rate", "e.g. 180kbps, 2Mbps"), key)));
}

CoreParams FlowSpec::sender_params() const {
  CoreParams p = params;
  p["packet_size"] = packet_size;
  if (protocol == "cbr") p["rate_bps"] = static_cast<double>(rate_bps);
  return p;
}

int TopologySpec::node_count() const {
  switch (kind) {
    case TopologyKind::kChain:
    case TopologyKind::kP2p: return hops + 1;
    case TopologyKind::kManet: return nodes;
    case TopologyKind::kPositions: return static_cast<int>(positions.size());
    case TopologyKind::kGrid: return rows * cols;
  }
  return 0;
}

Spec parse_spec(const json& j) {
  Spec s;
  s.source = j;
  check_keys(j, "", {"duration", "seed", "interval", "smoothness_window", "measure", "radio", "routing",
                     "channel_error", "topology", "mobility", "latp_agent", "flows"});
  s.duration_s = positive(parse_duration(required(j, "", "duration"), "duration"), "duration");
  const json& seed = required(j, "", "seed");
  if (!seed.is_number_integer() || seed.get<int64_t>() < 1) throw SpecError("seed", "must be an integer of at least 1");
  s.seed = seed.get<uint64_t>();
  if (j.contains("interval")) s.interval_s = positive(parse_duration(j["interval"], "interval"), "interval");
  if (j.contains("smoothness_window")) {
    s.smoothness_window_s = positive(parse_duration(j["smoothness_window"], "smoothness_window"), "smoothness_window");
  }
  if (s.smoothness_window_s < s.interval_s) throw SpecError("smoothness_window", "must not be shorter than interval");
  s.measure_to_s = s.duration_s;
  if (j.contains("measure")) {
    const json& m = j["measure"];
    if (!m.is_object()) throw SpecError("measure", "must be an object {from, to}");
    check_keys(m, "measure", {"from", "to"});
    if (m.contains("from")) s.measure_from_s = parse_duration(m["from"], "measure.from");
    if (m.contains("to")) s.measure_to_s = parse_duration(m["to"], "measure.to");
    if (s.measure_to_s > s.duration_s) throw SpecError("measure.to", "must not be after the run's duration");
    if (s.measure_to_s <= s.measure_from_s) throw SpecError("measure.to", "must be after measure.from");
  }
  if (j.contains("latp_agent")) {
    const json& a = j["latp_agent"];
    if (a.is_boolean()) {
      s.latp_agent = a.get<bool>();
    } else if (a.is_object()) {
      for (const auto& [name, value] : a.items()) {
        if (!value.is_number()) throw SpecError("latp_agent." + name, "must be a number");
        s.latp_agent_params[name] = value.get<double>();
      }
    } else {
      throw SpecError("latp_agent", "must be true, false or an object of agent parameters");
    }
    std::string error;
    if (!make_core_node_agent(s.latp_agent_params, error)) throw SpecError("latp_agent", error);
  }
  s.topology = parse_topology(required(j, "", "topology"));
  const bool wired = s.topology.kind == TopologyKind::kP2p;
  if (j.contains("radio")) {
    if (wired) throw SpecError("radio", "a p2p topology has no radio");
    s.radio = parse_radio(j["radio"]);
  }
  s.routing = wired ? "static" : "aodv";
  if (j.contains("routing")) {
    const json& r = j["routing"];
    s.routing = r.is_string() ? r.get<std::string>() : "";
    if (wired && s.routing != "static") throw SpecError("routing", "a p2p topology uses static routing");
    if (!wired && s.routing != "aodv" && s.routing != "dsr") {
      throw SpecError("routing", "unknown routing '" + s.routing + "' (known: aodv, dsr)");
    }
  }
  if (j.contains("channel_error")) {
    if (wired) throw SpecError("channel_error", "a p2p topology takes topology.loss instead");
    s.channel_error = probability(j["channel_error"], "channel_error");
  }
  if (j.contains("mobility")) {
    s.mobility = parse_mobility(j["mobility"]);
    if (s.mobility.model != "static" && s.topology.kind != TopologyKind::kManet) {
      throw SpecError("mobility.model", "only a manet topology can move");
    }
  }
  if (s.routing == "dsr" && s.mobility.model != "static") {
    // ns-3.37's DsrRouting aborts the run at the first link break (a fatal
    // error on its obsolete TxErrHeader trace source); refuse it up front.
    throw SpecError("routing", "dsr cannot run with moving nodes in ns-3.37 (DsrRouting aborts on its obsolete TxErrHeader trace)");
  }
  const json& flows = required(j, "", "flows");
  if (!flows.is_array() || flows.empty()) throw SpecError("flows", "must list at least one flow");
  const int nodes = s.topology.node_count();
  for (size_t i = 0; i < flows.size(); ++i) {
    FlowSpec f = parse_flow(flows[i], i, s, nodes);
    for (const auto& other : s.flows) {
      if (f.protocol == "tcp" && other.protocol == "tcp" && other.packet_size != f.packet_size) {
        throw SpecError("flows[" + std::to_string(i) + "].packet_size", "all tcp flows of a run share one packet size");
      }
      if (f.protocol == "tcp" && other.protocol == "tcp" && other.max_window != f.max_window) {
        throw SpecError("flows[" + std::to_string(i) + "].max_window", "all tcp flows of a run share one max_window");
      }
    }
    s.flows.push_back(f);
  }
  for (size_t i = 0; i < s.flows.size(); ++i) {
    const FlowSpec& f = s.flows[i];
    if (f.stop_s <= s.measure_from_s || f.start_s >= s.measure_to_s) {
      throw SpecError("flows[" + std::to_string(i) + "]", "does not run during the measure window");
    }
  }
  if (s.needs_latp_agents() && wired) throw SpecError("flows", "latp needs a wireless topology (its node agents read the radio)");
  return s;
}

bool Spec::needs_latp_agents() const {
  if (!latp_agent) return false;
  for (const auto& f : flows) {
    if (f.protocol == "latp") return true;
  }
  return false;
}

}  // namespace mantra::sim
