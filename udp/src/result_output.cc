#include "result_output.h"

#include <cstdio>
#include <fstream>
#include <utility>

#include "mantra_version.h"

namespace mantra::udp {

nlohmann::json clock_json(const ClockSync& clock) {
  if (clock.same_host) return {{"delay", "monotonic, one host"}, {"offset_us", 0}, {"error_us", 0}};
  return {{"delay", "offset measured by the hello/accept exchange"},
          {"offset_us", clock.offset_us},
          {"error_us", clock.error_us}};
}

nlohmann::json link_json(const LinkCounters& link, const SocketCounters& socket) {
  nlohmann::json errors = nlohmann::json::object();
  for (const auto& [name, count] : socket.errors) errors[name] = count;
  return {{"wire_bytes_sent", link.wire_bytes_sent},
          {"wire_bytes_received", link.wire_bytes_received},
          {"trailer_bytes_sent", link.trailer_bytes_sent},
          {"dropped",
           {{"foreign_address", link.foreign_address},
            {"foreign_token", link.foreign_token},
            {"no_trailer", link.no_trailer}}},
          {"socket",
           {{"datagrams_received", socket.received},
            {"datagrams_sent", socket.sent},
            {"truncated", socket.truncated},
            {"send_would_block", socket.send_would_block},
            {"kernel_drops", socket.kernel_drops},
            {"gso_sends", socket.gso_sends},
            {"errors", errors}}}};
}

nlohmann::json stats_json(const EndpointStats& s) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : s.named_values()) j[name] = value;
  return j;
}

nlohmann::json provenance_json(double wall_s) {
  return {{"commit", kMantraCommit},
          {"ns3_version", nullptr},
          {"seed", nullptr},
          {"wall_s", wall_s},
          {"driver", "mantra-udp"}};
}

nlohmann::json sender_result_json(const SenderResult& r, nlohmann::json media) {
  const SendOptions& o = *r.options;
  nlohmann::json params = nlohmann::json::object(), receiver_params = nlohmann::json::object();
  for (const auto& [k, v] : r.params) params[k] = v;
  for (const auto& [k, v] : r.receiver_params) receiver_params[k] = v;
  nlohmann::json j;
  j["schema"] = "mantra-udp-sender/1";
  j["spec"] = {{"protocol", o.protocol},
               {"params", params},
               {"receiver_params", receiver_params},
               {"peer", o.peer.text()},
               {"local", r.local.text()}};
  j["flow"] = {{"protocol", o.protocol},
               {"sent", r.data_packets},
               {"sent_bytes", r.core_bytes},
               {"duration_s", r.duration_s},
               {"sent_kbps", r.duration_s > 0 ? static_cast<double>(r.core_bytes) * 8 / r.duration_s / 1e3 : 0.0},
               {"diagnostics", {{"sender", stats_json(r.stats)}}}};
  j["app"] =
      r.app_bytes ? nlohmann::json{{"bytes", *r.app_bytes}, {"complete", r.app_complete}} : nlohmann::json(nullptr);
  j["session"] = {{"bye_acknowledged", r.bye_acknowledged}, {"loop_wakeups", r.loop_wakeups}};
  j["session"].update(link_json(r.link, r.socket));
  j["clock"] = clock_json(r.clock);
  j["clock"]["data_start_us"] = r.data_start_us;
  j["media"] = std::move(media);
  j["provenance"] = provenance_json(r.wall_s);
  return j;
}

std::string write_result(const std::string& path, const nlohmann::json& result) {
  const std::string text = result.dump(2) + "\n";
  if (path.empty()) {
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
    return {};
  }
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) return "--result " + path + ": cannot write it";
  return {};
}

}  // namespace mantra::udp
