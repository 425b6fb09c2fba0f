// Datagrams per second through a protocol's sender and receiver over the
// in-memory test link (core/test/test_link.h): one flow alone on a 2 Gb/s,
// 1 ms link (a 50-packet drop-tail queue, no random loss), run for 20 s of
// simulated time and timed on the wall clock. A datagram is a data packet
// delivered to the receiver (its feedback, about one per RTT, is not
// counted). Prints one line per protocol, ADTFRC with each ranking of its
// receiver (the parameter `ranking`), and the ratio of each to TFRC; then
// ADTFRC with a passive receiver (it identifies every state but acts as
// TFRC's, so the flow sends as TFRC does): its time over TFRC's is the cost
// of the detection alone.
// ADTFRC alone overflows the queue and does not back off (its README's
// "self-inflicted congestion"): it sends about twice what it delivers, and
// the lines give the queue's drops.
//
//   mantra_core_bench [simulated_seconds]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "adtfrc/adtfrc_receiver.h"
#include "adtfrc/adtfrc_sender.h"
#include "test_link.h"
#include "tfrc/tfrc_receiver.h"
#include "tfrc/tfrc_sender.h"

namespace mantra {
namespace {

struct Result {
  int64_t datagrams = 0;
  int64_t dropped = 0;  // at the link's queue
  double wall_s = 0;
  double per_second() const { return static_cast<double>(datagrams) / wall_s; }
};

Result run(std::unique_ptr<Sender> sender, std::unique_ptr<Receiver> receiver, double seconds) {
  testlink::LinkConfig c;
  c.bandwidth = Rate::bps(2'000'000'000);
  c.delay = Duration::millis(1);
  testlink::TestLink link(c);
  link.add_flow(std::move(sender), std::move(receiver));
  const auto began = std::chrono::steady_clock::now();
  link.run(Time::zero() + Duration::from_seconds(seconds));
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - began;
  return {link.counters(0).data_delivered, link.counters(0).queue_drops, wall.count()};
}

Result run_adtfrc(adtfrc::Ranking ranking, bool passive, double seconds) {
  adtfrc::ReceiverConfig config;
  config.ranking = ranking;
  config.passive = passive;
  return run(std::make_unique<adtfrc::AdtfrcSender>(), std::make_unique<adtfrc::AdtfrcReceiver>(config), seconds);
}

void print(const char* name, const Result& r) {
  std::printf("%-20s %.3f M datagrams/s (%lld in %.4f s; %lld dropped at the queue)\n", name, r.per_second() / 1e6,
              static_cast<long long>(r.datagrams), r.wall_s, static_cast<long long>(r.dropped));
}

}  // namespace
}  // namespace mantra

int main(int argc, char** argv) {
  using mantra::adtfrc::Ranking;
  const double seconds = argc > 1 ? std::atof(argv[1]) : 20.0;
  if (!(seconds > 0)) {
    std::fprintf(stderr, "usage: mantra_core_bench [simulated_seconds > 0]\n");
    return 2;
  }
  std::printf("one flow, 2 Gb/s, 1 ms, %g s simulated\n", seconds);
  const auto tfrc = mantra::run(std::make_unique<mantra::tfrc::TfrcSender>(),
                                std::make_unique<mantra::tfrc::TfrcReceiver>(), seconds);
  mantra::print("tfrc", tfrc);
  const auto all = mantra::run_adtfrc(Ranking::kAllSamples, false, seconds);
  mantra::print("adtfrc all-samples", all);
  const auto window = mantra::run_adtfrc(Ranking::kWindow, false, seconds);
  mantra::print("adtfrc window", window);
  const auto passive = mantra::run_adtfrc(Ranking::kAllSamples, true, seconds);
  mantra::print("adtfrc passive", passive);
  std::printf("ratio adtfrc all-samples / tfrc %.3f\n", all.per_second() / tfrc.per_second());
  std::printf("ratio adtfrc window / tfrc %.3f\n", window.per_second() / tfrc.per_second());
  std::printf(
      "detection per packet (passive adtfrc - tfrc) %.0f ns\n",
      (passive.wall_s / static_cast<double>(passive.datagrams) - tfrc.wall_s / static_cast<double>(tfrc.datagrams)) *
          1e9);
  return 0;
}
