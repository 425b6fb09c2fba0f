// `mantra-udp send`: a core sender of any registered protocol to a receiver
// across a real UDP path (docs/udp.md).
//
//   hello (every 250 ms) ──accept──► running ──source done / --duration / SIGINT──► bye (every 200 ms) ──bye-ack / 2
//   s──► result
//        └─refuse / no answer in 10 s──► error, exit 1
#pragma once

#include "options.h"

namespace mantra::udp {

// The process's exit status: 0 done, 1 a failure (printed, one line).
int run_send(const SendOptions& options);

}  // namespace mantra::udp
