// mantra-relay: a UDP relay between a sender and a receiver that emulates a
// link each way (link_model.h) and logs every decision.
//
//   sender ──► [listen socket] ──forward LinkModel──► [relay socket] ──► receiver (--to)
//   sender ◄── [listen socket] ◄──reverse LinkModel── [relay socket] ◄── receiver
//
// The first address that sends to the listen socket is the sender; datagrams
// from other addresses, or to the relay socket from anyone but the receiver,
// are counted and dropped. ECN codepoints are carried across (read through
// IP_RECVTOS / IPV6_RECVTCLASS, re-sent through IP_TOS / IPV6_TCLASS), and
// RED may set CE. Runs until --duration or SIGINT/SIGTERM, then prints its
// summary (or writes it to --summary).
#pragma once

#include "relay_options.h"

namespace mantra::udp {

int run_relay(const RelayOptions& options);

}  // namespace mantra::udp
