#include "flow_harness.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>
#include <thread>

#include "recv_command.h"
#include "relay_command.h"
#include "send_command.h"
#include "udp_socket.h"

namespace mantra::udp::test {

TempDir::TempDir() {
  char name[] = "/tmp/mantra-udp-test-XXXXXX";
  path = mkdtemp(name);
}

TempDir::~TempDir() { fs::remove_all(path); }

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::vector<uint8_t> b(n);
  for (auto& x : b) x = static_cast<uint8_t>(g());
  return b;
}

void write_file(const fs::path& p, const std::vector<uint8_t>& b) {
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

std::vector<uint8_t> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(std::ifstream(p)); }

size_t misplaced_bytes(const nlohmann::json& loss_map, const std::vector<uint8_t>& sent,
                       const std::vector<uint8_t>& received) {
  std::vector<bool> in_hole(sent.size(), false);
  for (const auto& h : loss_map) {
    const auto offset = h[0].get<uint64_t>(), length = h[1].get<uint64_t>();
    for (uint64_t i = offset; i < offset + length && i < sent.size(); ++i) in_hole[i] = true;
  }
  size_t wrong = received.size() > sent.size() ? received.size() - sent.size() : 0;
  for (size_t i = 0; i < std::min(received.size(), sent.size()); ++i)
    wrong += in_hole[i] ? received[i] != 0 : received[i] != sent[i];
  return wrong;
}

std::optional<Address> free_address(const std::string& host) {
  UdpSocket probe;
  const auto a = parse_address(host + ":0");
  if (!a.error.empty() || !probe.open(a.address).empty()) return std::nullopt;
  return probe.local();
}

SendOptions file_flow(const std::string& protocol, const fs::path& file, Params params) {
  SendOptions s;
  s.protocol = protocol;
  s.params = std::move(params);
  s.source = SourceMode::kFile;
  s.file = file.string();
  s.duration_s = 60;
  return s;
}

SendOptions greedy_flow(const std::string& protocol, double duration_s, Params params) {
  SendOptions s;
  s.protocol = protocol;
  s.params = std::move(params);
  s.duration_s = duration_s;
  return s;
}

Pair run_pair(const TempDir& dir, const Address& receiver_at, const Address& send_to, SendOptions s,
              const std::function<void(const Address&, std::atomic<bool>&)>& during, double receiver_wait_s) {
  RecvOptions r;
  r.bind = receiver_at;
  r.out = (dir.path / "out.bin").string();
  r.result = (dir.path / "recv.json").string();
  r.quiet = true;
  r.wait_s = receiver_wait_s;
  s.peer = send_to;
  s.result = (dir.path / "send.json").string();
  s.quiet = true;
  Pair out;
  std::atomic<bool> done{false};
  std::thread receiver([&] { out.recv_rc = run_recv(r); });
  std::thread side;
  if (during) side = std::thread([&] { during(receiver_at, done); });
  out.send_rc = run_send(s);
  receiver.join();
  done = true;
  if (side.joinable()) side.join();
  if (out.send_rc == 0) out.sent = read_json(s.result);
  if (out.recv_rc == 0) out.received = read_json(r.result);
  return out;
}

RelayedPair run_relayed_pair(const TempDir& dir, RelayOptions options, SendOptions flow) {
  RelayedPair out;
  const auto receiver_at = free_address("127.0.0.1");
  const auto relay_at = free_address("127.0.0.1");
  if (!receiver_at || !relay_at) return out;
  options.listen = *relay_at;
  options.to = *receiver_at;
  options.quiet = true;
  options.summary = (dir.path / "relay.json").string();
  std::thread relay([&] { out.relay_rc = run_relay(options); });
  out.pair = run_pair(dir, *receiver_at, *relay_at, std::move(flow));
  pthread_kill(relay.native_handle(), SIGTERM);  // blocked there and read by its signalfd: a clean stop
  relay.join();
  if (out.relay_rc == 0) out.relay = read_json(options.summary);
  return out;
}

}  // namespace mantra::udp::test
