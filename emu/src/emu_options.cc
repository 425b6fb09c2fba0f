#include "emu_options.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "endpoint_namespace.h"

namespace mantra::emu {
namespace {

constexpr double kMaxLagBoundMs = 10000;  // beyond 10 s nothing real-time is left to bound

std::optional<long> whole_number(const std::string& text) {
  long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

Endpoint parse_endpoint(const std::string& value) {
  const size_t eq = value.find('=');
  if (eq == std::string::npos) throw std::invalid_argument("--endpoint " + value + ": must be NODE=NAMESPACE");
  const auto node = whole_number(value.substr(0, eq));
  if (!node || *node < 0 || *node > 100000) {
    throw std::invalid_argument("--endpoint " + value + ": NODE must be a node number (0, 1, ...)");
  }
  const std::string name = value.substr(eq + 1);
  if (!valid_namespace_name(name)) {
    throw std::invalid_argument("--endpoint " + value + ": NAMESPACE must be 1-32 of A-Z a-z 0-9 _ . -");
  }
  return {static_cast<int>(*node), name};
}

}  // namespace

EmuOptions parse_options(const std::vector<std::string>& args) {
  EmuOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw std::invalid_argument(arg + " needs a value");
      return args[++i];
    };
    if (arg == "--") {
      o.command.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      if (o.command.empty()) throw std::invalid_argument("--: a command must follow");
      break;
    } else if (arg == "--version") {
      o.version = true;
    } else if (arg == "--check") {
      o.check_only = true;
    } else if (arg == "--out") {
      o.out_path = value();
      if (o.out_path.empty()) throw std::invalid_argument("--out needs a file");
    } else if (arg == "--endpoint") {
      o.endpoints.push_back(parse_endpoint(value()));
    } else if (arg == "--real-flow") {
      const std::string& v = value();
      const auto index = whole_number(v);
      if (!index || *index < 0)
        throw std::invalid_argument("--real-flow " + v + ": must be a flow's index (0, 1, ...)");
      o.real_flows.insert(static_cast<size_t>(*index));
    } else if (arg == "--max-lag-ms") {
      const std::string& v = value();
      double ms = 0;
      const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), ms);
      if (error != std::errc() || end != v.data() + v.size() || !std::isfinite(ms) || ms <= 0 || ms > kMaxLagBoundMs) {
        throw std::invalid_argument("--max-lag-ms " + v + ": must be a number of milliseconds above 0, at most 10000");
      }
      o.max_lag_ms = ms;
    } else if (arg.rfind("--", 0) == 0) {
      throw std::invalid_argument("unknown option " + arg);
    } else if (o.spec_path.empty()) {
      o.spec_path = arg;
    } else {
      throw std::invalid_argument("more than one spec given (" + o.spec_path + ", " + arg + ")");
    }
  }
  if (o.version) return o;
  if (o.spec_path.empty()) throw std::invalid_argument("no spec given");
  for (size_t a = 0; a < o.endpoints.size(); ++a) {
    for (size_t b = 0; b < a; ++b) {
      if (o.endpoints[a].node == o.endpoints[b].node) {
        throw std::invalid_argument("--endpoint: node " + std::to_string(o.endpoints[a].node) + " is named twice");
      }
      if (o.endpoints[a].namespace_name == o.endpoints[b].namespace_name) {
        throw std::invalid_argument("--endpoint: namespace " + o.endpoints[a].namespace_name + " is named twice");
      }
    }
  }
  if (!o.command.empty() && o.endpoints.empty()) {
    throw std::invalid_argument("--: a command runs in an endpoint's namespace; name one with --endpoint");
  }
  return o;
}

void check_against_spec(const EmuOptions& o, const sim::Spec& spec) {
  const int nodes = spec.topology.node_count();
  const auto is_endpoint = [&](int node) {
    for (const Endpoint& e : o.endpoints) {
      if (e.node == node) return true;
    }
    return false;
  };
  for (const Endpoint& e : o.endpoints) {
    if (e.node >= nodes) {
      throw std::invalid_argument("--endpoint " + std::to_string(e.node) + "=" + e.namespace_name + ": the spec has " +
                                  std::to_string(nodes) + " nodes (0-" + std::to_string(nodes - 1) + ")");
    }
  }
  if (spec.routing == "dsr-ns3" && !o.endpoints.empty()) {
    throw std::invalid_argument(
        "routing: dsr-ns3 cannot have endpoints (ns-3's DSR delivers to the transports past the routing protocol, "
        "where mantra-emu takes the endpoints' packets); use dsr, ours");
  }
  for (size_t index : o.real_flows) {
    const std::string where = "--real-flow " + std::to_string(index);
    if (index >= spec.flows.size()) {
      throw std::invalid_argument(where + ": the spec has " + std::to_string(spec.flows.size()) + " flows");
    }
    const sim::FlowSpec& f = spec.flows[index];
    if (f.random_pair())
      throw std::invalid_argument(where + ": a real flow needs a fixed src and dst, not a random pair");
    if (!is_endpoint(f.src) || !is_endpoint(f.dst)) {
      throw std::invalid_argument(where + ": its nodes " + std::to_string(f.src) + " and " + std::to_string(f.dst) +
                                  " must both be endpoints (--endpoint)");
    }
  }
}

}  // namespace mantra::emu
