// Bad command lines get one line naming the option and what is wrong.
#include "options.h"

#include <gtest/gtest.h>

#include "relay_options.h"

namespace mantra::udp {
namespace {

std::string send_error(std::vector<std::string> args) {
  SendOptions o;
  return parse_send(args, o).error;
}

std::string recv_error(std::vector<std::string> args) {
  RecvOptions o;
  return parse_recv(args, o).error;
}

std::string relay_error(std::vector<std::string> args) {
  RelayOptions o;
  bool help = false;
  return parse_relay(args, o, help);
}

TEST(Options, SendReadsWhatItIsGiven) {
  SendOptions o;
  ASSERT_EQ(parse_send(
                {"127.0.0.1:9", "--protocol", "cbr", "--rate", "2e6", "--set", "packet_size=500", "--duration", "3"}, o)
                .error,
            "");
  EXPECT_EQ(o.peer.text(), "127.0.0.1:9");
  EXPECT_EQ(o.source, SourceMode::kRate);
  EXPECT_EQ(o.rate_bps, 2e6);
  EXPECT_EQ(o.params.at("packet_size"), 500);
  EXPECT_EQ(*o.duration_s, 3);
  ASSERT_EQ(parse_send({"[::1]:9", "--protocol", "tfrc"}, o).error, "");
  EXPECT_EQ(o.peer.text(), "[::1]:9");
}

TEST(Options, SendNamesWhatIsWrong) {
  EXPECT_EQ(send_error({"--protocol", "tfrc"}), "send: the receiver's HOST:PORT is missing");
  EXPECT_EQ(send_error({"127.0.0.1:9"}), "send: --protocol is missing");
  EXPECT_EQ(send_error({"127.0.0.1:9", "--protocol"}), "--protocol: needs a value");
  EXPECT_EQ(send_error({"127.0.0.1:9", "--protocol", "tfrc", "--set", "packet_size"}),
            "--set packet_size: expected key=value");
  EXPECT_EQ(send_error({"127.0.0.1:9", "--protocol", "tfrc", "--set", "packet_size=big"}),
            "--set packet_size=big: the value must be a number");
  EXPECT_EQ(send_error({"127.0.0.1:9", "--protocol", "tfrc", "--set", "a=1", "--set", "a=2"}),
            "--set a=2: 'a' given twice");
  EXPECT_EQ(send_error({"127.0.0.1:9", "--protocol", "tfrc", "--rate", "-5"}),
            "--rate -5: must be a number no less than 1");
  EXPECT_EQ(send_error({"127.0.0.1:9", "--protocol", "tfrc", "--duration", "0"}), "--duration: must be above 0");
  EXPECT_EQ(send_error({"127.0.0.1:9", "--protocol", "tfrc", "--file", "a", "--stdin"}),
            "send: give at most one of --file, --stdin, --rate and --video");
  EXPECT_EQ(send_error({"127.0.0.1:9", "--protocol", "tfrc", "--set", "source_offered=1"}),
            "--set: source_offered and source_rate_bps are set by --file, --stdin, --rate and --video");
  EXPECT_EQ(send_error({"127.0.0.1:70000", "--protocol", "tfrc"}),
            "HOST:PORT: address '127.0.0.1:70000': the port must be a number from 0 to 65535");
  EXPECT_EQ(send_error({"::1:9", "--protocol", "tfrc"}),
            "HOST:PORT: address '::1:9': an IPv6 address is written [ADDR]:PORT");
  EXPECT_EQ(send_error({"example.org:9", "--protocol", "tfrc"}),
            "HOST:PORT: address 'example.org:9': 'example.org' is not an IPv4 or IPv6 address (no name lookup)");
  EXPECT_EQ(send_error({"127.0.0.1:9", "--protocol", "tfrc", "--frobnicate"}), "unknown option '--frobnicate'");
}

TEST(Options, RecvNamesWhatIsWrong) {
  EXPECT_EQ(recv_error({"--out", "-"}),
            "--out -: the bytes take standard output; give the result a file (--result FILE)");
  EXPECT_EQ(recv_error({"--wait", "x"}), "--wait x: must be a number no less than 0");
  EXPECT_EQ(recv_error({"--bind", "1.2.3:4"}),
            "--bind: address '1.2.3:4': '1.2.3' is not an IPv4 or IPv6 address (no name lookup)");
  EXPECT_EQ(recv_error({"--measure-from"}), "--measure-from: needs a value");
  EXPECT_EQ(recv_error({"--bind", ":9000", "--measure-from", "5"}), "");
}

TEST(Options, RelayNamesWhatIsWrong) {
  const std::vector<std::string> ends = {"--listen", "127.0.0.1:1", "--to", "127.0.0.1:2"};
  const auto with = [&ends](std::vector<std::string> more) {
    more.insert(more.begin(), ends.begin(), ends.end());
    return relay_error(more);
  };
  EXPECT_EQ(relay_error({"--to", "127.0.0.1:2"}), "--listen is missing");
  EXPECT_EQ(with({"--red", "50,7,6,1", "--rate", "1e6"}), "--red 50,7,6,1: needs 0 <= MIN_TH < MAX_TH <= LIMIT");
  EXPECT_EQ(with({"--red", "50,1,6"}), "--red 50,1,6: expected LIMIT,MIN_TH,MAX_TH,MAX_P[,W_Q]");
  EXPECT_EQ(with({"--red", "50,1,6,1"}), "--red: needs --rate (a queue builds only behind a rate)");
  EXPECT_EQ(with({"--ecn"}), "--ecn and --no-hard-drop are RED's: give --red");
  EXPECT_EQ(with({"--loss", "1.5"}), "--loss 1.5: must be a probability in [0, 1]");
  EXPECT_EQ(with({"--loss", "0.1", "--gilbert", "0.1,0.5,0,1"}), "give --loss or --gilbert, not both");
  EXPECT_EQ(with({"--outage", "3"}), "--outage 3: expected START_S,DURATION_S (start >= 0, duration > 0)");
  EXPECT_EQ(with({"--delay-ms", "-1"}), "--delay-ms -1: must be milliseconds from 0 to 60000");
  EXPECT_EQ(with({"--queue-packets", "2.5"}), "--queue-packets 2.5: must be a whole number from 1 to 1000000");
  EXPECT_EQ(with({"--rate"}), "--rate: needs a value");
  EXPECT_EQ(with({"--rate", "2e6", "--loss", "0.01", "--outage", "1,2"}), "");
}

TEST(Options, TheRelayImpairsTheReverseDirectionOnlyWhenAsked) {
  RelayOptions o;
  bool help = false;
  ASSERT_EQ(parse_relay(
                {"--listen", "127.0.0.1:1", "--to", "127.0.0.1:2", "--rate", "1e6", "--loss", "0.1", "--outage", "1,2"},
                o, help),
            "");
  EXPECT_EQ(o.forward.loss, 0.1);
  EXPECT_EQ(o.reverse.loss, 0.0);
  EXPECT_TRUE(o.reverse.outages.empty());
  EXPECT_EQ(o.reverse.rate_bps, 1e6);  // the rate applies both ways
  ASSERT_EQ(
      parse_relay({"--listen", "127.0.0.1:1", "--to", "127.0.0.1:2", "--loss", "0.1", "--impair-reverse"}, o, help),
      "");
  EXPECT_EQ(o.reverse.loss, 0.1);
}

}  // namespace
}  // namespace mantra::udp
