#include "relay_command.h"

#include <array>
#include <cstdio>
#include <deque>
#include <map>
#include <nlohmann/json.hpp>

#include "clock.h"
#include "poller.h"
#include "result_output.h"
#include "udp_socket.h"

namespace mantra::udp {
namespace {

struct Held {
  Time release;
  std::vector<uint8_t> bytes;
  Ecn ecn;
};

// One direction: its model, what it holds until release, and its counts.
struct Direction {
  const char* name;
  LinkModel model;
  std::deque<Held> held;
  int64_t arrived = 0, forwarded = 0, marked = 0, bytes_forwarded = 0;
  std::map<std::string, int64_t> dropped;
  double queued_sum = 0;

  nlohmann::json summary() const {
    nlohmann::json drops = nlohmann::json::object();
    for (const auto& [why, n] : dropped) drops[why] = n;
    const LinkConfig& c = model.config();
    nlohmann::json red = nullptr;
    if (c.red) {
      red = {{"limit", c.red->limit},         {"min_th", c.red->min_th}, {"max_th", c.red->max_th},
             {"max_p", c.red->max_p},         {"w_q", c.red->w_q},       {"ecn", c.red->ecn},
             {"hard_drop", c.red->hard_drop}, {"gentle", c.red->gentle}};
    }
    nlohmann::json outages = nlohmann::json::array();
    for (const Outage& o : c.outages) outages.push_back({o.start_s, o.duration_s});
    return {{"link",
             {{"rate_bps", c.rate_bps},
              {"delay_ms", c.delay.ms()},
              {"jitter_ms", c.jitter.ms()},
              {"overhead_bytes", c.overhead_bytes},
              {"queue_packets", c.red ? nlohmann::json(nullptr) : nlohmann::json(c.queue_packets)},
              {"red", red},
              {"loss", c.loss},
              {"gilbert", c.gilbert ? nlohmann::json{c.gilbert->p_good_to_bad, c.gilbert->p_bad_to_good,
                                                     c.gilbert->loss_good, c.gilbert->loss_bad}
                                    : nlohmann::json(nullptr)},
              {"outages", outages}}},
            {"arrived", arrived},
            {"forwarded", forwarded},
            {"bytes_forwarded", bytes_forwarded},
            {"marked", marked},
            {"dropped", drops},
            {"mean_queued_on_arrival", arrived > 0 ? queued_sum / static_cast<double>(arrived) : 0.0}};
  }
};

}  // namespace

int run_relay(const RelayOptions& o) {
  const auto fail = [](const std::string& why) {
    std::fprintf(stderr, "mantra-relay: %s\n", why.c_str());
    return 1;
  };
  std::string error;
  UdpSocket listen, relay;
  if (error = listen.open(o.listen); !error.empty()) return fail(error);
  if (error = relay.open(any_address(0)); !error.empty()) return fail(error);
  Poller poller;
  if (error = poller.open({listen.fd(), relay.fd()}); !error.empty()) return fail(error);
  std::FILE* log = nullptr;
  if (!o.log.empty() && (log = std::fopen(o.log.c_str(), "w")) == nullptr)
    return fail("--log " + o.log + ": cannot open it");
  const Time start = monotonic_now();
  std::array<Direction, 2> dirs = {Direction{"forward", LinkModel(o.forward, o.seed, 0, start), {}, 0, 0, 0, 0, {}, 0},
                                   Direction{"reverse", LinkModel(o.reverse, o.seed, 1, start), {}, 0, 0, 0, 0, {}, 0}};
  std::optional<Address> sender;
  int64_t strays = 0;
  const std::optional<Time> end =
      o.duration_s ? std::optional(start + Duration::from_seconds(*o.duration_s)) : std::nullopt;
  if (!o.quiet) std::fprintf(stderr, "mantra-relay: %s -> %s\n", listen.local().text().c_str(), o.to.text().c_str());

  std::vector<Received> batch;
  std::vector<Outgoing> out;
  bool stop = false;
  while (!stop) {
    Time now = monotonic_now();
    if (end && now >= *end) break;
    // Release what is due, each direction through its far socket.
    for (int d = 0; d < 2; ++d) {
      out.clear();
      Direction& dir = dirs[d];
      size_t n = 0;
      for (; n < dir.held.size() && dir.held[n].release <= now; ++n) {
        const Address to = d == 0 ? o.to : *sender;
        out.push_back({dir.held[n].bytes, to, dir.held[n].ecn});
      }
      (d == 0 ? relay : listen).send(out);
      dir.held.erase(dir.held.begin(), dir.held.begin() + static_cast<std::ptrdiff_t>(n));
    }
    std::optional<Time> deadline = end;
    for (const Direction& dir : dirs)
      if (!dir.held.empty() && (!deadline || dir.held.front().release < *deadline)) deadline = dir.held.front().release;
    const Ready ready = poller.wait(deadline);
    stop = ready.stop;
    for (int s = 0; s < 2; ++s) {
      UdpSocket& socket = s == 0 ? listen : relay;
      if (ready.socket_error(s)) socket.read_errors();
      if (!ready.socket(s)) continue;
      if (error = socket.receive(batch); !error.empty()) return fail(error);
      const ClockPair clocks = sample_clocks();
      for (const Received& r : batch) {
        const bool from_sender = s == 0 && (!sender || r.from == *sender);
        const bool from_receiver = s == 1 && r.from == o.to && sender.has_value();
        if (!from_sender && !from_receiver) {
          ++strays;
          continue;
        }
        if (s == 0) sender = r.from;
        Direction& dir = dirs[s];
        const Time arrived =
            r.kernel_realtime_ns ? monotonic_from_realtime(*r.kernel_realtime_ns, clocks) : clocks.monotonic;
        const LinkDecision dec = dir.model.on_arrival(std::max(arrived, start), r.bytes.size(), r.ecn);
        ++dir.arrived;
        dir.queued_sum += static_cast<double>(dec.queued);
        if (dec.verdict == LinkVerdict::kForward) {
          ++dir.forwarded;
          dir.marked += dec.marked;
          dir.bytes_forwarded += static_cast<int64_t>(r.bytes.size());
          dir.held.push_back({dec.release, {r.bytes.begin(), r.bytes.end()}, dec.ecn});
        } else {
          ++dir.dropped[verdict_name(dec.verdict)];
        }
        if (log != nullptr) {
          std::fprintf(
              log,
              "{\"t_s\": %.6f, \"dir\": \"%s\", \"n\": %llu, \"bytes\": %zu, \"ecn_in\": %d, \"verdict\": \"%s\", "
              "\"marked\": %s, \"queued\": %lld, \"red_avg\": %.4f, \"release_s\": %.6f}\n",
              (arrived - start).secs(), dir.name, static_cast<unsigned long long>(dec.number), r.bytes.size(),
              static_cast<int>(r.ecn), verdict_name(dec.verdict), dec.marked ? "true" : "false",
              static_cast<long long>(dec.queued), dir.model.red_average(),
              dec.verdict == LinkVerdict::kForward ? (dec.release - start).secs() : -1.0);
        }
      }
    }
  }
  if (log != nullptr) std::fclose(log);
  nlohmann::json summary = {
      {"schema", "mantra-relay/1"},
      {"listen", listen.local().text()},
      {"to", o.to.text()},
      {"sender", sender ? nlohmann::json(sender->text()) : nlohmann::json(nullptr)},
      {"seed", o.seed},
      {"forward", dirs[0].summary()},
      {"reverse", dirs[1].summary()},
      {"strays", strays},
      {"held_at_exit", dirs[0].held.size() + dirs[1].held.size()},
      {"sockets",
       {{"listen", link_json({}, listen.counters())["socket"]}, {"relay", link_json({}, relay.counters())["socket"]}}},
      {"provenance", provenance_json((monotonic_now() - start).secs())}};
  if (error = write_result(o.summary, summary); !error.empty()) return fail(error);
  return 0;
}

}  // namespace mantra::udp
