// What the end-to-end tests share: a temporary folder, files of random bytes,
// a free port, and a receiver and sender (and a relay) run as threads of the
// test process through the commands' own entry points.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "address.h"
#include "mantra/params.h"
#include "options.h"
#include "relay_options.h"

namespace mantra::udp::test {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir();
  ~TempDir();
};

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed);
void write_file(const fs::path& p, const std::vector<uint8_t>& b);
std::vector<uint8_t> read_file(const fs::path& p);
nlohmann::json read_json(const fs::path& p);

// Bytes of `received` that are not where they should be: the sender's bytes
// outside the loss map, zeros inside its holes; a received stream longer
// than the sent one counts its excess.
size_t misplaced_bytes(const nlohmann::json& loss_map, const std::vector<uint8_t>& sent,
                       const std::vector<uint8_t>& received);

// A free port on `host` (bound once, then released); nullopt when the host
// has no such address (no IPv6, say).
std::optional<Address> free_address(const std::string& host);

struct Pair {
  int send_rc = -1, recv_rc = -1;
  nlohmann::json sent, received;
};

// What to send: a file, or a greedy source for `duration_s`.
SendOptions file_flow(const std::string& protocol, const fs::path& file, Params params = {});
SendOptions greedy_flow(const std::string& protocol, double duration_s, Params params = {});

// A receiver bound at `receiver_at` and the sender `flow` sending to
// `send_to` (the receiver, or a relay before it); `during` runs beside them
// until the flow is over.
Pair run_pair(const TempDir& dir, const Address& receiver_at, const Address& send_to, SendOptions flow,
              const std::function<void(const Address&, std::atomic<bool>&)>& during = {}, double receiver_wait_s = 20);

// A relay with `options` (listen and to filled in here) between a sender and
// a receiver; its summary, read after it stopped (SIGTERM to its thread).
struct RelayedPair {
  Pair pair;
  int relay_rc = -1;
  nlohmann::json relay;
};
RelayedPair run_relayed_pair(const TempDir& dir, RelayOptions options, SendOptions flow);

}  // namespace mantra::udp::test
