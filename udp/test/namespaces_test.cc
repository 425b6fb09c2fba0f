// A flow between two network namespaces through mantra-relay in the root
// namespace, over veth pairs: real interfaces, real routes, real ECN bits on
// the wire. Needs root (CAP_SYS_ADMIN for the namespaces, CAP_NET_ADMIN for
// the links) and a kernel with veth; skipped with one line otherwise.
//
//   netns A: sender 10.201.P.1 ═veth═ 10.201.P.2 root: relay ═veth═ 10.201.Q.2 ... 10.201.Q.1 netns B: receiver
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "flow_harness.h"
#include "recv_command.h"
#include "relay_command.h"
#include "send_command.h"

namespace mantra::udp::test {
namespace {

bool run(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()) == 0; }

// Two namespaces, each joined to the root namespace by a veth pair; removed
// again (with their links) at the end.
class Namespaces {
 public:
  Namespaces() : tag_(std::to_string(getpid() % 100000)), a_("mua" + tag_), b_("mub" + tag_) {
    const int p = 1 + getpid() % 200;  // a /24 of our own per process
    subnet_a_ = "10.201." + std::to_string(p);
    subnet_b_ = "10.202." + std::to_string(p);
    ok_ = link(a_, subnet_a_) && link(b_, subnet_b_);
  }
  ~Namespaces() {
    run("ip netns del " + a_);
    run("ip netns del " + b_);
  }
  bool ok() const { return ok_; }
  std::string host(bool a, int n) const { return (a ? subnet_a_ : subnet_b_) + "." + std::to_string(n); }
  // Moves the calling thread into namespace A or B.
  bool enter(bool a) const {
    const int fd = open(("/var/run/netns/" + (a ? a_ : b_)).c_str(), O_RDONLY | O_CLOEXEC);
    const bool entered = fd >= 0 && setns(fd, CLONE_NEWNET) == 0;
    if (fd >= 0) close(fd);
    return entered;
  }

 private:
  static bool link(const std::string& ns, const std::string& subnet) {
    const std::string inner = ns + "i", outer = ns + "o";
    return run("ip netns add " + ns) && run("ip link add " + inner + " type veth peer name " + outer) &&
           run("ip link set " + inner + " netns " + ns) &&
           run("ip netns exec " + ns + " ip addr add " + subnet + ".1/24 dev " + inner) &&
           run("ip netns exec " + ns + " ip link set " + inner + " up") &&
           run("ip netns exec " + ns + " ip link set lo up") && run("ip addr add " + subnet + ".2/24 dev " + outer) &&
           run("ip link set " + outer + " up");
  }
  std::string tag_, a_, b_, subnet_a_, subnet_b_;
  bool ok_ = false;
};

TEST(Namespaces, AFileCrossesTheRelayBetweenTwoNamespacesWithItsEcn) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root for network namespaces and veth pairs";
  if (!run("ip -V")) GTEST_SKIP() << "needs iproute2's ip";
  Namespaces ns;
  if (!ns.ok()) GTEST_SKIP() << "cannot make network namespaces and veth pairs here (a container without them)";
  TempDir dir;
  const auto bytes = random_bytes(400000, 21);
  write_file(dir.path / "in.bin", bytes);

  RelayOptions relay;
  relay.listen = parse_address(ns.host(true, 2) + ":7100").address;
  relay.to = parse_address(ns.host(false, 1) + ":7200").address;
  relay.forward.rate_bps = 8e6;
  relay.forward.delay = Duration::millis(5);
  relay.reverse = relay.forward;
  relay.quiet = true;
  relay.summary = (dir.path / "relay.json").string();
  RecvOptions r;
  r.bind = relay.to;
  r.out = (dir.path / "out.bin").string();
  r.result = (dir.path / "recv.json").string();
  r.quiet = true;
  r.wait_s = 20;
  SendOptions s = file_flow("tfwmfc", dir.path / "in.bin");
  s.peer = relay.listen;
  s.result = (dir.path / "send.json").string();
  s.quiet = true;

  int relay_rc = -1, recv_rc = -1, send_rc = -1;
  std::thread relay_thread([&] { relay_rc = run_relay(relay); });
  std::thread receiver([&] { recv_rc = ns.enter(false) ? run_recv(r) : 99; });
  std::thread sender([&] {
    usleep(200000);
    send_rc = ns.enter(true) ? run_send(s) : 99;
  });
  sender.join();
  receiver.join();
  pthread_kill(relay_thread.native_handle(), SIGTERM);
  relay_thread.join();
  ASSERT_EQ(send_rc, 0);
  ASSERT_EQ(recv_rc, 0);
  ASSERT_EQ(relay_rc, 0);
  const auto received = read_json(dir.path / "recv.json");
  const auto summary = read_json(dir.path / "relay.json");
  const auto& flow = received["flows"][0];
  EXPECT_EQ(summary["sender"].get<std::string>().rfind(ns.host(true, 1) + ":", 0), 0u);  // it came from namespace A
  // The veth pairs lose nothing: the data the receiver missed are the relay's
  // drops (its queue), less the few session datagrams among them.
  int64_t dropped = 0;
  for (const auto& [why, n] : summary["forward"]["dropped"].items()) dropped += n.get<int64_t>();
  const int64_t missed = flow["sent"].get<int64_t>() - flow["received"].get<int64_t>();
  EXPECT_LE(missed, dropped);
  EXPECT_GE(missed, dropped - 10);
  EXPECT_EQ(misplaced_bytes(received["app"]["loss_map"], bytes, read_file(dir.path / "out.bin")), 0u);
  // TF-WMFC's ECT(0) crossed both veth pairs and the relay.
  EXPECT_EQ(flow["diagnostics"]["receiver"]["ect_received"].get<double>(), flow["received"].get<double>());
}

}  // namespace
}  // namespace mantra::udp::test
