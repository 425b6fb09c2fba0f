// mantra-relay's command line (docs/udp.md, "The relay"), read strictly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "address.h"
#include "link_model.h"

namespace mantra::udp {

struct RelayOptions {
  Address listen;      // where the sender sends
  Address to;          // the receiver
  LinkConfig forward;  // listen -> to: every impairment
  LinkConfig reverse;  // to -> listen: rate, delay, jitter and queue; loss and outages with --impair-reverse
  uint64_t seed = 1;
  std::string log, summary;
  std::optional<double> duration_s;
  bool quiet = false;
};

// An empty error on success; `help` when asked for the usage.
std::string parse_relay(const std::vector<std::string>& args, RelayOptions& out, bool& help);

extern const char* const kRelayUsage;

}  // namespace mantra::udp
