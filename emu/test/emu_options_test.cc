#include "emu_options.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "lag_probe.h"

namespace mantra::emu {
namespace {

std::string error_of(const std::vector<std::string>& args) {
  try {
    parse_options(args);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(EmuOptions, ReadsEndpointsRealFlowsAndTheCommand) {
  const EmuOptions o = parse_options({"chain.json", "--endpoint", "0=ma", "--endpoint", "4=mb", "--real-flow", "0",
                                      "--max-lag-ms", "2.5", "--out", "r.json", "--", "ping", "-c", "3", "10.0.0.5"});
  ASSERT_EQ(o.endpoints.size(), 2u);
  EXPECT_EQ(o.endpoints[1].node, 4);
  EXPECT_EQ(o.endpoints[1].namespace_name, "mb");
  EXPECT_EQ(o.real_flows, std::set<size_t>{0});
  EXPECT_DOUBLE_EQ(o.max_lag_ms, 2.5);
  EXPECT_EQ(o.command, (std::vector<std::string>{"ping", "-c", "3", "10.0.0.5"}));
}

TEST(EmuOptions, BadInputIsOneLineNamingTheOption) {
  EXPECT_EQ(error_of({"s.json", "--endpoint", "x=ma"}), "--endpoint x=ma: NODE must be a node number (0, 1, ...)");
  EXPECT_EQ(error_of({"s.json", "--endpoint", "1"}), "--endpoint 1: must be NODE=NAMESPACE");
  EXPECT_EQ(error_of({"s.json", "--endpoint", "1=a/b"}),
            "--endpoint 1=a/b: NAMESPACE must be 1-32 of A-Z a-z 0-9 _ . -");
  EXPECT_EQ(error_of({"s.json", "--endpoint", "1=a", "--endpoint", "1=b"}), "--endpoint: node 1 is named twice");
  EXPECT_EQ(error_of({"s.json", "--endpoint", "1=a", "--endpoint", "2=a"}), "--endpoint: namespace a is named twice");
  EXPECT_EQ(error_of({"s.json", "--max-lag-ms", "0"}),
            "--max-lag-ms 0: must be a number of milliseconds above 0, at most 10000");
  EXPECT_EQ(error_of({"s.json", "--max-lag-ms", "nan"}),
            "--max-lag-ms nan: must be a number of milliseconds above 0, at most 10000");
  EXPECT_EQ(error_of({"s.json", "--real-flow", "-1"}), "--real-flow -1: must be a flow's index (0, 1, ...)");
  EXPECT_EQ(error_of({"s.json", "--", "ping"}),
            "--: a command runs in an endpoint's namespace; name one with --endpoint");
  EXPECT_EQ(error_of({"s.json", "--"}), "--: a command must follow");
  EXPECT_EQ(error_of({"s.json", "--out"}), "--out needs a value");
  EXPECT_EQ(error_of({"s.json", "--bogus"}), "unknown option --bogus");
  EXPECT_EQ(error_of({}), "no spec given");
}

sim::Spec chain_spec(const std::string& routing) {
  return sim::parse_spec(sim::read_spec_json(R"({"duration": 10, "seed": 1, "routing": ")" + routing + R"(",
    "topology": {"kind": "chain", "hops": 4, "spacing": 200},
    "flows": [{"protocol": "tfrc", "src": 0, "dst": 4}, {"protocol": "cbr", "src": 1, "dst": 3, "rate": 10000}]})"));
}

std::string spec_error_of(const std::vector<std::string>& args, const sim::Spec& spec) {
  try {
    check_against_spec(parse_options(args), spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(EmuOptions, ChecksTheEndpointsAndRealFlowsAgainstTheSpec) {
  const sim::Spec spec = chain_spec("aodv");
  EXPECT_EQ(spec_error_of({"s", "--endpoint", "0=a", "--endpoint", "4=b", "--real-flow", "0"}, spec), "");
  EXPECT_EQ(spec_error_of({"s", "--endpoint", "5=a"}, spec), "--endpoint 5=a: the spec has 5 nodes (0-4)");
  EXPECT_EQ(spec_error_of({"s", "--endpoint", "0=a", "--real-flow", "2"}, spec), "--real-flow 2: the spec has 2 flows");
  EXPECT_EQ(spec_error_of({"s", "--endpoint", "0=a", "--real-flow", "1"}, spec),
            "--real-flow 1: its nodes 1 and 3 must both be endpoints (--endpoint)");
  EXPECT_NE(spec_error_of({"s", "--endpoint", "0=a"}, chain_spec("dsr-ns3")).find("routing: dsr-ns3 cannot"),
            std::string::npos);
}

TEST(LagSummary, NearestRankPercentilesInMilliseconds) {
  std::vector<int64_t> lags_us;
  for (int i = 1; i <= 200; ++i) lags_us.push_back(i * 100);  // 0.1 ms .. 20 ms
  const nlohmann::json s = lag_summary(lags_us);
  EXPECT_EQ(s["samples"], 200);
  EXPECT_DOUBLE_EQ(s["median"].get<double>(), 10.0);  // the 100th of 200
  EXPECT_DOUBLE_EQ(s["p99"].get<double>(), 19.8);     // the 198th
  EXPECT_DOUBLE_EQ(s["max"].get<double>(), 20.0);
  EXPECT_TRUE(lag_summary({})["p99"].is_null());
}

}  // namespace
}  // namespace mantra::emu
