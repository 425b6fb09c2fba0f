// The command lines of `mantra-udp send` and `mantra-udp recv`, read
// strictly: an unknown option, a missing value or a bad number is a one-line
// error naming the option.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "address.h"
#include "mantra/params.h"

namespace mantra::udp {

enum class SourceMode : uint8_t { kGreedy, kFile, kStdin, kRate, kVideo };

struct SendOptions {
  Address peer;
  Address bind = any_address(0);
  std::string protocol;
  Params params;           // --set: the sender's
  Params receiver_params;  // --set-receiver
  SourceMode source = SourceMode::kGreedy;
  std::string file;   // --file
  std::string video;  // --video: the media block and bytes ./mantra video-encode writes
  double rate_bps = 0;
  std::optional<double> duration_s;  // default: 10 s without a file, none with one
  std::string log, result;
  bool quiet = false;
  bool gso = true;  // --no-gso: one datagram per send (benchmarks)
  // The core's safety floor (safety_floor on the sender, floor_report on the
  // receiver) unless --no-floor or the parameters are given.
  bool floor = true;
  double handshake_timeout_s = 10;
};

struct RecvOptions {
  Address bind = any_address(9000);
  std::string out;  // "" none, "-" standard output
  std::string log, result;
  bool quiet = false;
  std::optional<double> wait_s;  // give up when no session began within it
  double measure_from_s = 0;     // the summary counts from this long after the hello (mantra-sim's measure.from)
};

struct Parsed {
  std::string error;
  bool help = false;
};

Parsed parse_send(const std::vector<std::string>& args, SendOptions& out);
Parsed parse_recv(const std::vector<std::string>& args, RecvOptions& out);

extern const char* const kUsage;

}  // namespace mantra::udp
