#include "spec.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>

#include "latp/node_agent.h"
#include "mantra/registry.h"

namespace mantra::sim {
namespace {

using nlohmann::json;

// -- one line of text ---------------------------------------------------------

// Length in bytes of the valid UTF-8 sequence at s[i], or 0 if it is not one.
size_t utf8_length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  uint32_t cp = 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  return n;
}

// `s` as printable UTF-8 on one line: control characters, invalid bytes and the
// code points that some readers take as line breaks (U+0085, U+2028, U+2029)
// escaped; cut to about `max` bytes with "..." (at a character boundary).
std::string one_line(std::string_view s, size_t max) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = utf8_length(s, i);
    const std::string_view seq = s.substr(i, n == 0 ? 1 : n);
    if (n == 1 && c >= 0x20 && c != 0x7F) {
      out += static_cast<char>(c);
    } else if (n == 1 && c == '\n') {
      out += "\\n";
    } else if (n == 1 && c == '\t') {
      out += "\\t";
    } else if (n <= 1) {  // another control character, or a byte that is not UTF-8
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(seq[1]) < 0xA0) {  // C1 controls, U+0085 among them
      out += "\\u00";
      out += hex[static_cast<unsigned char>(seq[1]) >> 4];
      out += hex[seq[1] & 15];
    } else if (seq == "\xE2\x80\xA8" || seq == "\xE2\x80\xA9") {  // line and paragraph separators
      out += seq[2] == '\xA8' ? "\\u2028" : "\\u2029";
    } else {
      out += seq;
    }
    i += seq.size();
  }
  return out;
}

constexpr size_t kShown = 60;  // bytes of a user's value shown in a message

// A value as the user wrote it, short: strings without quotes, the rest as JSON.
std::string shown(const json& v) {
  if (v.is_string()) return one_line(v.get_ref<const std::string&>(), kShown);
  return one_line(v.dump(-1, ' ', false, json::error_handler_t::replace), kShown);
}

// A key as part of a dotted path: quoted unless it is a plain name.
std::string key_text(const std::string& key) {
  const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  return plain ? key : "'" + one_line(key, kShown) + "'";
}

std::string path(const std::string& where, const std::string& key) {
  return where.empty() ? key_text(key) : where + "." + key_text(key);
}

std::string at(const std::string& where, size_t i) { return where + "[" + std::to_string(i) + "]"; }

// -- ranges (docs/run-spec.md, "Ranges") ----------------------------------------

struct Range {
  double lo, hi;
  const char* text;      // as printed: "(1 ms .. 1000000 s)"
  bool lo_open = false;  // lo itself excluded
  bool hi_open = false;  // hi itself excluded
  bool holds(double x) const { return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi); }
};

constexpr double kMaxTimeS = 1e6;        // any time or duration: 11.6 days, 1000 x the longest paper run
constexpr int kMaxNodes = 2000;          // any topology: 2000 manet nodes build in about 30 s (docs)
constexpr size_t kMaxFlows = 1000;
constexpr double kMaxSeriesSamples = 1e7;  // flows x (stop - start) / interval, 16 bytes each
constexpr double kMaxCoreParam = 1e9;    // |core parameter|: the core's casts to int stay defined

const Range kDuration{1e-3, kMaxTimeS, "(1 ms .. 1000000 s)"};
const Range kInterval{1e-3, kMaxTimeS, "(1 ms .. 1000000 s)"};
const Range kTime{0, kMaxTimeS, "(0 .. 1000000 s)"};  // start, stop, pause, measure, link delay
const Range kRate{1, 1e10, "(1 bps .. 10 Gbps)"};
const Range kProbability{0, 1, "(0 .. below 1)", false, true};
const Range kArea{1, 1e5, "(1 .. 100000 m)"};       // manet width, height
const Range kRadioRange{1, 1e5, "(1 .. 100000 m)"};  // rx_range, cs_range
const Range kSpacing{0, 1e5, "(above 0 .. 100000 m)", true};
const Range kCoordinate{-1e5, 1e5, "(-100000 .. 100000 m)"};
const Range kSpeed{0.01, 1000, "(0.01 .. 1000 m/s; model: static for no movement)"};
const Range kQueue{1, 1e5, "(1 .. 100000 packets)"};
const Range kSeed{1, 9223372036854775807.0, "(1 .. 9223372036854775807)"};
const Range kChainHops{1, kMaxNodes - 1, "(1 .. 1999)"};
const Range kManetNodes{2, kMaxNodes, "(2 .. 2000)"};
const Range kGridSide{1, kMaxNodes, "(1 .. 2000, rows x cols 2 .. 2000)"};
const Range kPacketSize{64, 1460, "(64 .. 1460 bytes)"};
const Range kMaxWindow{1, 10000, "(1 .. 10000 packets)"};
const Range kCoreParam{-kMaxCoreParam, kMaxCoreParam, "(-1e9 .. 1e9; the protocol checks its own range)"};

[[noreturn]] void out_of_range(const json& v, const std::string& key, const Range& r) {
  throw SpecError(key, shown(v) + " is out of range " + r.text);
}

// A finite JSON number inside `r`.
double number(const json& v, const std::string& key, const Range& r) {
  if (!v.is_number()) throw SpecError(key, "must be a number " + std::string(r.text));
  const double x = v.get<double>();
  if (!std::isfinite(x)) throw SpecError(key, "must be a finite number " + std::string(r.text));
  if (!r.holds(x)) out_of_range(v, key, r);
  return x;
}

// A JSON integer inside `r` (an integral float such as 4.0 counts). Checked
// before any conversion, so 1e20 or 2^64 never wraps into range.
int64_t integer(const json& v, const std::string& key, const Range& r) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (static_cast<double>(u) > r.hi || u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) out_of_range(v, key, r);
    const auto i = static_cast<int64_t>(u);
    if (!r.holds(static_cast<double>(i))) out_of_range(v, key, r);
    return i;
  }
  if (v.is_number_integer()) {
    const auto i = v.get<int64_t>();
    if (!r.holds(static_cast<double>(i))) out_of_range(v, key, r);
    return i;
  }
  if (!v.is_number()) throw SpecError(key, "must be an integer " + std::string(r.text));
  const double x = v.get<double>();
  if (!std::isfinite(x)) throw SpecError(key, "must be a finite number " + std::string(r.text));
  if (x != std::floor(x)) throw SpecError(key, shown(v) + " is not an integer " + std::string(r.text));
  // Integral doubles in range: r.hi of an int range is at most 2^63 - 1, so
  // a double that passes holds() and is below 2^63 converts exactly.
  if (!r.holds(x) || x >= 9223372036854775808.0) out_of_range(v, key, r);
  return static_cast<int64_t>(x);
}

int small_integer(const json& v, const std::string& key, const Range& r) { return static_cast<int>(integer(v, key, r)); }

double probability(const json& v, const std::string& key) { return number(v, key, kProbability); }

bool boolean(const json& v, const std::string& key) {
  if (!v.is_boolean()) throw SpecError(key, "must be true or false");
  return v.get<bool>();
}

// -- quantities with units ---------------------------------------------------------

struct Unit {
  const char* suffix;
  double scale;  // to the base unit (seconds, bit/s)
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// "<number><unit>": [0-9]*.?[0-9]+ with an optional exponent, then letters,
// blanks around. A loop, not std::regex (whose matcher recurses per character).
bool split_quantity(const std::string& text, std::string& number_part, std::string& suffix) {
  size_t i = 0;
  const size_t n = text.size();
  while (i < n && is_space(text[i])) ++i;
  const size_t begin = i;
  while (i < n && is_digit(text[i])) ++i;
  if (i < n && text[i] == '.') {
    ++i;
    const size_t frac = i;
    while (i < n && is_digit(text[i])) ++i;
    if (i == frac) return false;
  } else if (i == begin) {
    return false;
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < n && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < n && is_digit(text[j])) {
      while (j < n && is_digit(text[j])) ++j;
      i = j;
    }
  }
  number_part = text.substr(begin, i - begin);
  while (i < n && is_space(text[i])) ++i;
  const size_t unit = i;
  while (i < n && is_letter(text[i])) ++i;
  suffix = text.substr(unit, i - unit);
  while (i < n && is_space(text[i])) ++i;
  return i == n;
}

// A number in the base unit, or a string "<number><unit>" from `units`, inside `r`.
double quantity(const json& v, const std::string& key, const std::vector<Unit>& units, const char* kind,
                const char* example, const Range& r) {
  if (v.is_number()) return number(v, key, r);
  if (!v.is_string()) throw SpecError(key, std::string("must be a ") + kind + " (" + example + ") " + r.text);
  const std::string& text = v.get_ref<const std::string&>();
  std::string digits, suffix;
  if (text.size() <= 1000 && split_quantity(text, digits, suffix)) {
    double scale = suffix.empty() ? 1 : 0;
    for (const Unit& u : units) {
      if (suffix == u.suffix) scale = u.scale;
    }
    if (scale > 0) {
      // strtod: no exceptions; "1e400" gives inf, "1e-400" gives 0 (both out of range).
      const double x = std::strtod(digits.c_str(), nullptr) * scale;
      if (!std::isfinite(x) || !r.holds(x)) out_of_range(v, key, r);
      return x;
    }
  }
  throw SpecError(key, "'" + shown(v) + "' is not a " + kind + " (" + example + ")");
}

double duration(const json& v, const std::string& key, const Range& r) {
  static const std::vector<Unit> units = {{"us", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"min", 60}};
  return quantity(v, key, units, "duration", "e.g. 200ms, 1.5s, 3", r);
}

int64_t rate(const json& v, const std::string& key) {
  static const std::vector<Unit> units = {{"bps", 1}, {"kbps", 1e3}, {"Kbps", 1e3}, {"Mbps", 1e6}, {"Gbps", 1e9}};
  return std::llround(quantity(v, key, units, "rate", "e.g. 180kbps, 2Mbps", kRate));
}

// -- sections ------------------------------------------------------------------

// Rejects keys outside `allowed`, naming the first offender.
void check_keys(const json& obj, const std::string& where, const std::set<std::string>& allowed) {
  if (!obj.is_object()) throw SpecError(where, "must be an object");
  for (const auto& [key, value] : obj.items()) {
    if (!allowed.count(key)) throw SpecError(path(where, key), "unknown key");
  }
}

const json& required(const json& obj, const std::string& where, const std::string& key) {
  if (!obj.contains(key)) throw SpecError(path(where, key), "missing required field");
  return obj.at(key);
}

// A name from a fixed list: non-strings are shown as they are.
std::string name_of(const json& v) { return v.is_string() ? v.get<std::string>() : shown(v); }

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
  if (preset != "ns2-80211b") {
    throw SpecError("radio.preset", "unknown preset '" + one_line(preset, kShown) + "' (known: ns2-80211b)");
  }
  r.preset = preset;
  if (v.is_object()) {
    if (v.contains("rx_range")) r.rx_range_m = number(v["rx_range"], "radio.rx_range", kRadioRange);
    if (v.contains("cs_range")) r.cs_range_m = number(v["cs_range"], "radio.cs_range", kRadioRange);
    if (v.contains("queue")) r.queue_packets = small_integer(v["queue"], "radio.queue", kQueue);
    if (v.contains("rts")) r.rts = boolean(v["rts"], "radio.rts");
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
    check_keys(v, "topology", {"kind", "hops", "spacing"});
    t.kind = TopologyKind::kChain;
    t.hops = small_integer(required(v, "topology", "hops"), "topology.hops", kChainHops);
    if (v.contains("spacing")) t.spacing_m = number(v["spacing"], "topology.spacing", kSpacing);
  } else if (k == "p2p") {
    check_keys(v, "topology", {"kind", "hops", "bandwidth", "delay", "loss", "queue"});
    t.kind = TopologyKind::kP2p;
    t.hops = v.contains("hops") ? small_integer(v["hops"], "topology.hops", kChainHops) : 1;
    t.bandwidth_bps = rate(required(v, "topology", "bandwidth"), "topology.bandwidth");
    t.delay_s = duration(required(v, "topology", "delay"), "topology.delay", kTime);
    if (v.contains("loss")) t.loss = probability(v["loss"], "topology.loss");
    if (v.contains("queue")) t.queue_packets = small_integer(v["queue"], "topology.queue", kQueue);
  } else if (k == "manet") {
    check_keys(v, "topology", {"kind", "nodes", "width", "height", "fixed"});
    t.kind = TopologyKind::kManet;
    t.nodes = small_integer(required(v, "topology", "nodes"), "topology.nodes", kManetNodes);
    t.width_m = number(required(v, "topology", "width"), "topology.width", kArea);
    t.height_m = number(required(v, "topology", "height"), "topology.height", kArea);
    if (v.contains("fixed")) {
      const json& fixed = v["fixed"];
      if (fixed.is_array() && fixed.size() >= static_cast<size_t>(t.nodes)) {
        throw SpecError("topology.fixed", "must leave at least one node to move (" + std::to_string(t.nodes) + " nodes)");
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
      throw SpecError("topology.rows", "rows x cols = " + std::to_string(n) + " nodes, at most " + std::to_string(kMaxNodes));
    }
    if (v.contains("spacing")) t.spacing_m = number(v["spacing"], "topology.spacing", kSpacing);
  } else if (k == "positions") {
    check_keys(v, "topology", {"kind", "positions"});
    t.kind = TopologyKind::kPositions;
    t.positions = positions(required(v, "topology", "positions"), "topology.positions", 2, kMaxNodes, kCoordinate,
                            kCoordinate);
  } else {
    throw SpecError("topology.kind", "unknown kind '" + one_line(k, kShown) + "' (known: chain, p2p, manet, grid, positions)");
  }
  return t;
}

MobilitySpec parse_mobility(const json& v) {
  MobilitySpec m;
  check_keys(v, "mobility", {"model", "speed", "pause"});
  const json& model = required(v, "mobility", "model");
  m.model = name_of(model);
  if (m.model == "static") {
    if (v.contains("speed") || v.contains("pause")) throw SpecError("mobility.speed", "a static model takes no speed or pause");
    return m;
  }
  if (m.model != "rwp") throw SpecError("mobility.model", "unknown model '" + one_line(m.model, kShown) + "' (known: static, rwp)");
  const json& speed = required(v, "mobility", "speed");
  if (speed.is_array()) {
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

FlowSpec parse_flow(const json& v, size_t index, const Spec& spec, int nodes) {
  const std::string where = at("flows", index);
  check_keys(v, where, {"protocol", "src", "dst", "min_hops", "start", "stop", "packet_size", "rate", "max_window",
                        "receive_buffer", "params", "receiver_params"});
  FlowSpec f;
  const json& proto = required(v, where, "protocol");
  if (!proto.is_string()) throw SpecError(where + ".protocol", "must be a protocol name");
  f.protocol = proto.get<std::string>();
  const auto known = mantra::protocol_names();
  if (f.protocol != "tcp" && std::find(known.begin(), known.end(), f.protocol) == known.end()) {
    std::string list = "tcp";
    for (const auto& n : known) list += ", " + n;
    throw SpecError(where + ".protocol", "unknown protocol '" + one_line(f.protocol, kShown) + "' (known: " + list + ")");
  }
  const json& src = required(v, where, "src");
  const json& dst = required(v, where, "dst");
  const auto is_random = [](const json& x) { return x.is_string() && x.get<std::string>() == "random"; };
  const std::string nodes_text = "(nodes 0.." + std::to_string(nodes - 1) + ")";
  if (is_random(src) || is_random(dst)) {
    if (!is_random(src) || !is_random(dst)) throw SpecError(where + ".dst", "src and dst are random together or not at all");
    if (spec.topology.kind == TopologyKind::kP2p) throw SpecError(where + ".src", "random pairs need a wireless topology");
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
  f.start_s = v.contains("start") ? duration(v["start"], where + ".start", kTime) : 0.0;
  f.stop_s = v.contains("stop") ? duration(v["stop"], where + ".stop", kTime) : spec.duration_s;
  if (f.stop_s <= f.start_s) throw SpecError(where + ".stop", "must be after start");
  if (f.stop_s > spec.duration_s) throw SpecError(where + ".stop", "must not be after the run's duration");
  if (v.contains("packet_size")) f.packet_size = small_integer(v["packet_size"], where + ".packet_size", kPacketSize);
  if (f.protocol == "cbr") {
    f.rate_bps = rate(required(v, where, "rate"), where + ".rate");
  } else if (v.contains("rate")) {
    throw SpecError(where + ".rate", "only cbr flows take a rate");
  }
  if (v.contains("max_window")) {
    if (f.protocol != "tcp") throw SpecError(where + ".max_window", "only tcp flows take a max_window");
    f.max_window = small_integer(v["max_window"], where + ".max_window", kMaxWindow);
  }
  if (v.contains("receive_buffer")) {
    if (f.protocol != "tcp") throw SpecError(where + ".receive_buffer", "only tcp flows take a receive_buffer");
    f.receive_buffer = small_integer(v["receive_buffer"], where + ".receive_buffer", kMaxWindow);
  }
  for (const char* key : {"params", "receiver_params"}) {
    if (!v.contains(key)) continue;
    if (f.protocol == "tcp") throw SpecError(where + "." + key, "tcp flows take no core parameters");
    (std::string(key) == "params" ? f.params : f.receiver_params) = core_params(v[key], where + "." + key);
  }
  if (f.protocol != "tcp") {  // the core checks its own parameters
    const auto sender = mantra::make_sender(f.protocol, f.sender_params());
    if (!sender.endpoint) throw SpecError(where + ".params", sender.error);
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
  size_t index = 0;         // array: elements completed
  std::string key;          // object: the current key
  std::set<std::string> keys;
};

std::string frames_path(const std::vector<ParseFrame>& frames) {
  std::string p;
  for (const auto& f : frames) {
    if (f.array) p = at(p, f.index);
    else if (!f.key.empty() || !f.keys.empty()) p = path(p, f.key);
  }
  return p;
}

}  // namespace

SpecError::SpecError(const std::string& key, const std::string& what)
    : std::runtime_error(key.empty() ? one_line(what, 600) : one_line(key, 200) + ": " + one_line(what, 600)) {}

json read_spec_json(std::string_view text) {
  if (text.size() > kMaxSpecBytes) {
    throw SpecError("", "the spec is " + std::to_string(text.size()) + " bytes, at most " + std::to_string(kMaxSpecBytes));
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

double parse_duration(const json& v, const std::string& key) { return duration(v, key, kTime); }

int64_t parse_rate(const json& v, const std::string& key) { return rate(v, key); }

mantra::Params FlowSpec::sender_params() const {
  mantra::Params p = params;
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
  if (!j.is_object()) throw SpecError("", "a spec must be a JSON object of keys, not " + std::string(j.type_name()));
  s.source = j;
  check_keys(j, "", {"duration", "seed", "interval", "smoothness_window", "measure", "radio", "routing",
                     "channel_error", "topology", "mobility", "latp_agent", "flows"});
  s.duration_s = duration(required(j, "", "duration"), "duration", kDuration);
  s.seed = static_cast<uint64_t>(integer(required(j, "", "seed"), "seed", kSeed));
  if (j.contains("interval")) s.interval_s = duration(j["interval"], "interval", kInterval);
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
  if (j.contains("latp_agent")) {
    const json& a = j["latp_agent"];
    if (a.is_boolean()) {
      s.latp_agent = a.get<bool>();
    } else if (a.is_object()) {
      for (const auto& [name, value] : a.items()) s.latp_agent_params[name] = number(value, path("latp_agent", name), kCoreParam);
    } else {
      throw SpecError("latp_agent", "must be true, false or an object of agent parameters");
    }
    mantra::latp::NodeAgentConfig config;
    const std::string error = mantra::latp::NodeAgent::parse(s.latp_agent_params, config);
    if (!error.empty()) throw SpecError("latp_agent", error);
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
    s.routing = name_of(r);
    if (wired && s.routing != "static") throw SpecError("routing", "a p2p topology uses static routing");
    if (!wired && s.routing != "aodv" && s.routing != "dsr") {
      throw SpecError("routing", "unknown routing '" + one_line(s.routing, kShown) + "' (known: aodv, dsr)");
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
  const json& flows = required(j, "", "flows");
  if (!flows.is_array() || flows.empty()) throw SpecError("flows", "must list at least one flow");
  if (flows.size() > kMaxFlows) {
    throw SpecError("flows", "lists " + std::to_string(flows.size()) + " flows, at most " + std::to_string(kMaxFlows));
  }
  const int nodes = s.topology.node_count();
  double samples = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    FlowSpec f = parse_flow(flows[i], i, s, nodes);
    for (const auto& other : s.flows) {
      if (f.protocol == "tcp" && other.protocol == "tcp" && other.packet_size != f.packet_size) {
        throw SpecError(at("flows", i) + ".packet_size", "all tcp flows of a run share one packet size");
      }
      if (f.protocol == "tcp" && other.protocol == "tcp" && other.max_window != f.max_window) {
        throw SpecError(at("flows", i) + ".max_window", "all tcp flows of a run share one max_window");
      }
    }
    samples += std::ceil((f.stop_s - f.start_s) / s.interval_s);
    s.flows.push_back(f);
  }
  if (samples > kMaxSeriesSamples) {
    // FlowMetrics keeps two counters per flow and interval, and the result lists them.
    throw SpecError("interval", "gives " + std::to_string(static_cast<int64_t>(samples)) +
                                    " series samples over the flows' active times, at most 10000000 (use a longer interval)");
  }
  for (size_t i = 0; i < s.flows.size(); ++i) {
    const FlowSpec& f = s.flows[i];
    if (f.stop_s <= s.measure_from_s || f.start_s >= s.measure_to_s) {
      throw SpecError(at("flows", i), "does not run during the measure window");
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
