#include "relay_options.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace mantra::udp {

const char* const kRelayUsage =
    "usage: mantra-relay --listen ADDR:PORT --to HOST:PORT [--rate BPS] [--delay-ms MS] [--jitter-ms MS]\n"
    "                    [--queue-packets N | --red LIMIT,MIN_TH,MAX_TH,MAX_P[,W_Q] [--ecn] [--no-hard-drop]]\n"
    "                    [--loss P | --gilbert P_GB,P_BG,LOSS_GOOD,LOSS_BAD] [--outage START_S,DURATION_S]...\n"
    "                    [--impair-reverse] [--overhead-bytes N] [--seed N] [--duration S] [--log FILE]\n"
    "                    [--summary FILE] [--quiet]\n"
    "  (docs/udp.md)\n";

namespace {

bool number(const std::string& text, double& out) {
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, out);
  return !text.empty() && ec == std::errc{} && p == end && std::isfinite(out);
}

// "a,b,c": exactly `n` numbers (or n_max when given).
bool numbers(const std::string& text, size_t n_min, size_t n_max, std::vector<double>& out) {
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    double v = 0;
    if (!number(part, v)) return false;
    out.push_back(v);
  }
  return out.size() >= n_min && out.size() <= n_max;
}

bool probability(double p) { return p >= 0 && p <= 1; }

}  // namespace

std::string parse_relay(const std::vector<std::string>& args, RelayOptions& out, bool& help) {
  bool have_listen = false, have_to = false, impair_reverse = false, ecn = false, hard_drop = true;
  std::optional<std::vector<double>> red;
  LinkConfig& f = out.forward;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      help = true;
      return {};
    }
    if (arg == "--impair-reverse" || arg == "--ecn" || arg == "--no-hard-drop" || arg == "--quiet") {
      impair_reverse |= arg == "--impair-reverse";
      ecn |= arg == "--ecn";
      hard_drop &= arg != "--no-hard-drop";
      out.quiet |= arg == "--quiet";
      continue;
    }
    if (i + 1 >= args.size()) return arg + ": needs a value";
    const std::string& v = args[++i];
    std::string bad = arg;
    bad += " ";
    bad += v;
    bad += ": ";
    double x = 0;
    std::vector<double> xs;
    if (arg == "--listen" || arg == "--to") {
      const ParsedAddress a = parse_address(v);
      if (!a.error.empty()) return arg + ": " + a.error;
      (arg == "--listen" ? out.listen : out.to) = a.address;
      (arg == "--listen" ? have_listen : have_to) = true;
    } else if (arg == "--rate") {
      if (!number(v, x) || x <= 0) return bad + "must be a rate in bits per second above 0";
      f.rate_bps = x;
    } else if (arg == "--delay-ms" || arg == "--jitter-ms") {
      if (!number(v, x) || x < 0 || x > 60000) return bad + "must be milliseconds from 0 to 60000";
      (arg == "--delay-ms" ? f.delay : f.jitter) = Duration::from_seconds(x / 1e3);
    } else if (arg == "--queue-packets") {
      if (!number(v, x) || x < 1 || x > 1e6 || x != std::floor(x))
        return bad + "must be a whole number from 1 to 1000000";
      f.queue_packets = static_cast<int64_t>(x);
    } else if (arg == "--red") {
      if (!numbers(v, 4, 5, xs)) return bad + "expected LIMIT,MIN_TH,MAX_TH,MAX_P[,W_Q]";
      if (xs[0] < 1 || xs[0] != std::floor(xs[0])) return bad + "LIMIT must be a whole number of packets, at least 1";
      if (xs[1] < 0 || xs[2] <= xs[1] || xs[2] > xs[0]) return bad + "needs 0 <= MIN_TH < MAX_TH <= LIMIT";
      if (xs[3] <= 0 || xs[3] > 1) return bad + "MAX_P must be in (0, 1]";
      if (xs.size() == 5 && (xs[4] <= 0 || xs[4] > 1)) return bad + "W_Q must be in (0, 1]";
      red = xs;
    } else if (arg == "--loss") {
      if (!number(v, x) || !probability(x)) return bad + "must be a probability in [0, 1]";
      f.loss = x;
    } else if (arg == "--gilbert") {
      if (!numbers(v, 4, 4, xs) || !probability(xs[0]) || !probability(xs[1]) || !probability(xs[2]) ||
          !probability(xs[3]))
        return bad + "expected four probabilities P_GB,P_BG,LOSS_GOOD,LOSS_BAD";
      f.gilbert = Gilbert{xs[0], xs[1], xs[2], xs[3]};
    } else if (arg == "--outage") {
      if (!numbers(v, 2, 2, xs) || xs[0] < 0 || xs[1] <= 0)
        return bad + "expected START_S,DURATION_S (start >= 0, duration > 0)";
      f.outages.push_back({xs[0], xs[1]});
    } else if (arg == "--overhead-bytes") {
      if (!number(v, x) || x < 0 || x > 1000 || x != std::floor(x))
        return bad + "must be a whole number from 0 to 1000";
      f.overhead_bytes = static_cast<int64_t>(x);
    } else if (arg == "--seed") {
      if (!number(v, x) || x < 0 || x > 9.007e15 || x != std::floor(x)) return bad + "must be a whole number >= 0";
      out.seed = static_cast<uint64_t>(x);
    } else if (arg == "--duration") {
      if (!number(v, x) || x <= 0) return bad + "must be seconds above 0";
      out.duration_s = x;
    } else if (arg == "--log") {
      out.log = v;
    } else if (arg == "--summary") {
      out.summary = v;
    } else {
      return "unknown option '" + arg + "'";
    }
  }
  if (!have_listen) return "--listen is missing";
  if (!have_to) return "--to is missing";
  if (f.loss > 0 && f.gilbert) return "give --loss or --gilbert, not both";
  if (red) {
    if (f.rate_bps <= 0) return "--red: needs --rate (a queue builds only behind a rate)";
    RedConfig r;
    r.limit = static_cast<int64_t>((*red)[0]);
    r.min_th = (*red)[1];
    r.max_th = (*red)[2];
    r.max_p = (*red)[3];
    if (red->size() == 5) r.w_q = (*red)[4];
    r.ecn = ecn;
    r.hard_drop = hard_drop;
    r.link_bps = f.rate_bps;
    r.mean_packet_bytes = 1000;  // as mantra-sim sets it (sim/src/network/queues.cc)
    f.red = r;
  } else if (ecn || !hard_drop) {
    return "--ecn and --no-hard-drop are RED's: give --red";
  }
  out.reverse = f;
  if (!impair_reverse) {
    out.reverse.loss = 0;
    out.reverse.gilbert.reset();
    out.reverse.outages.clear();
  }
  return {};
}

}  // namespace mantra::udp
