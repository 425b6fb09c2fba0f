#include "options.h"

#include <charconv>
#include <cmath>

namespace mantra::udp {

const char* const kUsage =
    "usage: mantra-udp recv [--bind ADDR:PORT] [--out FILE|-] [--result FILE] [--log FILE] [--wait S]\n"
    "                       [--measure-from S] [--quiet]\n"
    "       mantra-udp send HOST:PORT --protocol P [--set key=value]... [--set-receiver key=value]...\n"
    "                       [--file F | --stdin | --rate BPS | --video FILE] [--duration S]\n"
    "                       [--bind ADDR:PORT] [--result FILE] [--log FILE] [--no-floor] [--no-gso]\n"
    "                       [--quiet]\n"
    "  (docs/udp.md)\n";

namespace {

bool to_double(const std::string& text, double& out) {
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc{} && p == end && std::isfinite(out);
}

// Walks the arguments; `value()` takes the option's value or records an error.
class Args {
 public:
  explicit Args(const std::vector<std::string>& args) : args_(args) {}
  bool more() const { return at_ < args_.size() && error_.empty(); }
  const std::string& next() { return args_[at_++]; }
  std::string value(const std::string& option) {
    if (at_ >= args_.size()) {
      fail(option + ": needs a value");
      return {};
    }
    return args_[at_++];
  }
  bool number(const std::string& option, double& out, double low) {
    const std::string v = value(option);
    if (!error_.empty()) return false;
    if (!to_double(v, out) || out < low) {
      fail(option + " " + v + ": must be a number no less than " + std::to_string(static_cast<int64_t>(low)));
      return false;
    }
    return true;
  }
  bool address(const std::string& option, Address& out) {
    const std::string v = value(option);
    if (!error_.empty()) return false;
    const ParsedAddress a = parse_address(v);
    if (!a.error.empty()) fail(option + ": " + a.error);
    out = a.address;
    return a.error.empty();
  }
  void key_value(const std::string& option, Params& into) {
    const std::string v = value(option);
    if (!error_.empty()) return;
    const size_t eq = v.find('=');
    double x = 0;
    if (eq == std::string::npos || eq == 0) return fail(option + " " + v + ": expected key=value");
    if (!to_double(v.substr(eq + 1), x)) return fail(option + " " + v + ": the value must be a number");
    if (!into.emplace(v.substr(0, eq), x).second)
      return fail(option + " " + v + ": '" + v.substr(0, eq) + "' given twice");
  }
  void fail(const std::string& why) {
    if (error_.empty()) error_ = why;
  }
  const std::string& error() const { return error_; }

 private:
  const std::vector<std::string>& args_;
  size_t at_ = 0;
  std::string error_;
};

}  // namespace

Parsed parse_send(const std::vector<std::string>& args, SendOptions& out) {
  Args a(args);
  bool have_peer = false;
  int sources = 0;
  double duration = 0;
  while (a.more()) {
    const std::string arg = a.next();
    if (arg == "-h" || arg == "--help") return {{}, true};
    if (arg == "--protocol") {
      out.protocol = a.value(arg);
    } else if (arg == "--set") {
      a.key_value(arg, out.params);
    } else if (arg == "--set-receiver") {
      a.key_value(arg, out.receiver_params);
    } else if (arg == "--file") {
      out.file = a.value(arg);
      out.source = SourceMode::kFile;
      ++sources;
    } else if (arg == "--video") {
      out.video = a.value(arg);
      out.source = SourceMode::kVideo;
      ++sources;
    } else if (arg == "--stdin") {
      out.source = SourceMode::kStdin;
      ++sources;
    } else if (arg == "--rate") {
      if (a.number(arg, out.rate_bps, 1)) out.source = SourceMode::kRate;
      ++sources;
    } else if (arg == "--duration") {
      if (a.number(arg, duration, 0) && duration <= 0) a.fail("--duration: must be above 0");
      out.duration_s = duration;
    } else if (arg == "--bind") {
      a.address(arg, out.bind);
    } else if (arg == "--result") {
      out.result = a.value(arg);
    } else if (arg == "--log") {
      out.log = a.value(arg);
    } else if (arg == "--quiet") {
      out.quiet = true;
    } else if (arg == "--no-gso") {
      out.gso = false;
    } else if (arg == "--no-floor") {
      out.floor = false;
    } else if (!arg.empty() && arg[0] != '-' && !have_peer) {
      const ParsedAddress p = parse_address(arg);
      if (!p.error.empty()) a.fail("HOST:PORT: " + p.error);
      out.peer = p.address;
      have_peer = true;
    } else {
      a.fail("unknown option '" + arg + "'");
    }
  }
  if (!a.error().empty()) return {a.error()};
  if (!have_peer) return {"send: the receiver's HOST:PORT is missing"};
  if (out.protocol.empty()) return {"send: --protocol is missing"};
  if (sources > 1) return {"send: give at most one of --file, --stdin, --rate and --video"};
  if (out.params.count("source_offered") || out.params.count("source_rate_bps"))
    return {"--set: source_offered and source_rate_bps are set by --file, --stdin, --rate and --video"};
  return {};
}

Parsed parse_recv(const std::vector<std::string>& args, RecvOptions& out) {
  Args a(args);
  double wait = 0;
  while (a.more()) {
    const std::string arg = a.next();
    if (arg == "-h" || arg == "--help") return {{}, true};
    if (arg == "--bind") {
      a.address(arg, out.bind);
    } else if (arg == "--out") {
      out.out = a.value(arg);
    } else if (arg == "--result") {
      out.result = a.value(arg);
    } else if (arg == "--log") {
      out.log = a.value(arg);
    } else if (arg == "--wait") {
      if (a.number(arg, wait, 0) && wait <= 0) a.fail("--wait: must be above 0");
      out.wait_s = wait;
    } else if (arg == "--measure-from") {
      a.number(arg, out.measure_from_s, 0);
    } else if (arg == "--quiet") {
      out.quiet = true;
    } else {
      a.fail("unknown option '" + arg + "'");
    }
  }
  if (a.error().empty() && out.out == "-" && out.result.empty())
    return {"--out -: the bytes take standard output; give the result a file (--result FILE)"};
  return {a.error()};
}

}  // namespace mantra::udp
