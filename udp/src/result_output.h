// The results mantra-udp prints when a flow ends (docs/result-schema.md,
// "mantra-udp"): the receiver's is mantra-sim's result with one flow, the
// sender's what its side knows. Both carry the session's wire counts, the
// socket's counters, the delay clock used and the provenance.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "endpoint_link.h"
#include "mantra/endpoint.h"
#include "mantra/params.h"
#include "options.h"
#include "reassembly.h"
#include "udp_socket.h"

namespace mantra::udp {

// How the receiver's clock relates to the sender's.
struct ClockSync {
  bool same_host = true;  // one boot of one host: one monotonic clock, offset 0
  int64_t offset_us = 0;  // receiver clock - sender clock (NTP's estimate from hello/accept)
  int64_t error_us = 0;   // half the exchange's round trip: the estimate's bound
};

nlohmann::json clock_json(const ClockSync& clock);
nlohmann::json link_json(const LinkCounters& link, const SocketCounters& socket);
nlohmann::json stats_json(const EndpointStats& stats);
nlohmann::json provenance_json(double wall_s);

struct SenderResult {
  const SendOptions* options = nullptr;
  Params params, receiver_params;  // as the hello carried them
  Address local;
  ClockSync clock;
  uint64_t data_packets = 0, core_bytes = 0;
  std::optional<uint64_t> app_bytes;
  bool app_complete = false;
  double duration_s = 0;
  bool bye_acknowledged = false;
  EndpointStats stats;
  LinkCounters link;
  SocketCounters socket;
  int64_t loop_wakeups = 0;
  double wall_s = 0;
  int64_t data_start_us = 0;  // the first data's time on the receiver's clock (the media's schedule second 0)
};

// `media`: a live video's report (LiveVideo::report()), or null.
nlohmann::json sender_result_json(const SenderResult& r, nlohmann::json media);

// Writes the result, indented, to `path` ("" : standard output); an error
// line when the file cannot be written.
std::string write_result(const std::string& path, const nlohmann::json& result);

}  // namespace mantra::udp
