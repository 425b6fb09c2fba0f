// `mantra-udp recv`: waits for one sender's hello, makes the receiver of the
// protocol it names, and runs it until the sender's bye (docs/udp.md).
//
//   waiting ──hello (protocol known, params good)──► accept, running ──bye──► bye-ack, lingering
//      │  └─hello refused (one-line why), still waiting            (0.3 s without data) ──► result
//      └─ --wait passes / SIGINT ──► exit 1            SIGINT while running ──► result (no bye)
//
// In `running`, only the sender's address with its token is heard (the rest
// is counted and dropped). Data datagrams carry the application frame at the
// hello's data_header_bytes; their bytes go to --out in order of offset.
#pragma once

#include "options.h"

namespace mantra::udp {

int run_recv(const RecvOptions& options);

}  // namespace mantra::udp
