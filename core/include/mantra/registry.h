// Makes endpoints by protocol name.
//
// Every protocol of mantra registers a factory for its sender and receiver.
// Drivers (the simulator, the UDP tools, tests) create endpoints only through
// make_sender / make_receiver, so adding a protocol touches one list here.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mantra/endpoint.h"
#include "mantra/params.h"

namespace mantra {

// Either an endpoint or a one-line error (unknown protocol, bad parameter).
template <typename T>
struct Made {
  std::unique_ptr<T> endpoint;
  std::string error;
};

Made<Sender> make_sender(std::string_view protocol, const Params& params);
Made<Receiver> make_receiver(std::string_view protocol, const Params& params);

// Whether a registered protocol sends at a rate it is given (its `rate_bps`
// parameter, required) instead of adapting one: cbr.
bool is_fixed_rate(std::string_view protocol);

// Whether a registered protocol's data packets carry LATP's rate field R
// (latp/latp_wire.h), which LATP's node agents lower on every node: latp,
// mantra.
bool is_latp_stamped(std::string_view protocol);

// Names of all registered protocols, in registration order.
std::vector<std::string> protocol_names();

}  // namespace mantra
