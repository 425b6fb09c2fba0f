// Endpoints are made by protocol name; bad names and parameters are errors.
#include "mantra/registry.h"

#include <gtest/gtest.h>

namespace mantra {
namespace {

TEST(Registry, MakesEveryRegisteredProtocol) {
  for (const auto& name : protocol_names()) {
    Params p;
    if (name == "cbr") p["rate_bps"] = 100000;
    auto s = make_sender(name, p);
    EXPECT_TRUE(s.endpoint) << name << ": " << s.error;
    auto r = make_receiver(name, {});
    EXPECT_TRUE(r.endpoint) << name << ": " << r.error;
  }
}

TEST(Registry, UnknownProtocolIsAnError) {
  auto s = make_sender("tcp-vegas", {});
  EXPECT_FALSE(s.endpoint);
  EXPECT_EQ(s.error, "unknown protocol 'tcp-vegas'");
}

TEST(Registry, UnknownParameterIsNamed) {
  auto s = make_sender("tfrc", {{"pakcet_size", 1000}});
  EXPECT_FALSE(s.endpoint);
  EXPECT_EQ(s.error, "unknown parameter 'pakcet_size'");
}

TEST(Registry, ConstraintViolationIsNamed) {
  auto s = make_sender("tfrc", {{"packet_size", 4}});
  EXPECT_FALSE(s.endpoint);
  EXPECT_NE(s.error.find("packet_size"), std::string::npos);
  auto c = make_sender("cbr", {});
  EXPECT_FALSE(c.endpoint);
  EXPECT_NE(c.error.find("rate"), std::string::npos);
}

TEST(Registry, ParametersReachTheEndpoint) {
  auto s = make_sender("cbr", {{"rate_bps", 160000}, {"packet_size", 500}});
  ASSERT_TRUE(s.endpoint);
  EXPECT_EQ(s.endpoint->allowed_rate(), Rate::bps(160000));
  auto d = s.endpoint->poll_transmit(Time::zero());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->bytes.size(), 500u);
}

TEST(Registry, OnlyCbrSendsAtAGivenRate) {
  for (const std::string& name : protocol_names()) EXPECT_EQ(is_fixed_rate(name), name == "cbr") << name;
  EXPECT_FALSE(is_fixed_rate("dccp"));
}

}  // namespace
}  // namespace mantra
