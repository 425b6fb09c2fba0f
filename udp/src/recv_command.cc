#include "recv_command.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "app_frame.h"
#include "arrival_record.h"
#include "clock.h"
#include "endpoint_link.h"
#include "mantra/registry.h"
#include "poller.h"
#include "reassembly.h"
#include "result_output.h"

namespace mantra::udp {
namespace {

constexpr Duration kLinger = Duration::millis(300);
constexpr Duration kProgressEvery = Duration::seconds(1);

// Where the application's bytes go: a file, standard output, or nowhere.
class ByteSink {
 public:
  std::string open(const std::string& path) {
    if (path.empty()) return {};
    out_ = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
    owned_ = path != "-";
    if (out_ == nullptr) return "--out " + path + ": cannot open it";
    return {};
  }
  ~ByteSink() {
    if (owned_ && out_ != nullptr) std::fclose(out_);
  }
  void write(std::span<const uint8_t> bytes) {
    if (out_ != nullptr && std::fwrite(bytes.data(), 1, bytes.size(), out_) != bytes.size()) failed_ = true;
  }
  bool close() {
    if (out_ == nullptr) return true;
    const bool ok = std::fflush(out_) == 0 && !failed_;
    if (owned_) std::fclose(out_);
    out_ = nullptr;
    return ok;
  }

 private:
  std::FILE* out_ = nullptr;
  bool owned_ = false;
  bool failed_ = false;
};

nlohmann::json params_json(const Params& p) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : p) j[k] = v;
  return j;
}

}  // namespace

int run_recv(const RecvOptions& o) {
  const auto fail = [](const std::string& why) {
    std::fprintf(stderr, "mantra-udp recv: %s\n", why.c_str());
    return 1;
  };
  std::string error;
  UdpSocket socket;
  if (error = socket.open(o.bind); !error.empty()) return fail(error);
  Poller poller;
  if (error = poller.open({socket.fd()}); !error.empty()) return fail(error);
  const Time start = monotonic_now();
  PacketLog log;
  if (error = log.open(o.log, start); !error.empty()) return fail(error);
  ByteSink sink;
  if (error = sink.open(o.out); !error.empty()) return fail(error);
  if (!o.quiet) std::fprintf(stderr, "mantra-udp recv: listening on %s\n", socket.local().text().c_str());

  EndpointLink link(socket, log);
  std::unique_ptr<Receiver> receiver;
  Hello hello;
  ClockSync clock;
  Time origin;  // the flow's time 0 on this clock: the sender's hello
  std::optional<Bye> bye;
  std::optional<Time> bye_at, last_data;
  ArrivalRecord record;
  std::vector<std::pair<int64_t, double>> media_arrivals;  // a video's: app id, s since the origin; first copies
  Reassembly stream([&sink](std::span<const uint8_t> b) { sink.write(b); });
  int64_t refused = 0, strays_before = 0;
  std::vector<Received> batch;
  const std::optional<Time> give_up =
      o.wait_s ? std::optional(start + Duration::from_seconds(*o.wait_s)) : std::nullopt;
  Time next_progress = start + kProgressEvery;
  bool stop = false;

  // A hello while waiting: make the receiver, or refuse in one line.
  const auto on_hello = [&](Time now, const Received& r, std::span<const uint8_t> body, uint64_t token) {
    const auto h = decode_hello(body);
    std::string why = h ? "" : h.error();
    Made<Receiver> made;
    if (h) {
      made = make_receiver(h->protocol, h->receiver_params);
      if (!made.endpoint) why = "protocol " + h->protocol + ": " + made.error;
    }
    link.connect(r.from, token);
    if (!why.empty()) {
      ++refused;
      link.send_session(now, WireKind::kRefuse, encode_refuse(why));
      if (!o.quiet) std::fprintf(stderr, "mantra-udp recv: refused %s: %s\n", r.from.text().c_str(), why.c_str());
      link.connect({}, 0);
      return;
    }
    hello = *h;
    receiver = std::move(made.endpoint);
    link.attach(receiver.get());
    clock.same_host = !hello.boot_id.empty() && hello.boot_id == boot_id();
    origin = now;
    if (!o.quiet) std::fprintf(stderr, "mantra-udp recv: %s from %s\n", hello.protocol.c_str(), r.from.text().c_str());
  };
  const auto answer_hello = [&](Time received, std::span<const uint8_t> body) {
    const auto h = decode_hello(body);
    if (!h) return;
    const Time now = monotonic_now();
    link.send_session(now, WireKind::kAccept, encode_accept({h->t0_us, received.us(), now.us(), boot_id()}));
  };

  while (!stop) {
    Time now = monotonic_now();
    if (bye_at && now - std::max(*bye_at, last_data.value_or(*bye_at)) >= kLinger) break;
    if (!receiver && give_up && now >= *give_up) return fail("no sender within --wait");
    const bool more = link.pump(now, nullptr);
    stream.tick(now);
    if (receiver && now >= next_progress) {  // a quiet run keeps the clock too: a stale deadline would spin
      if (!o.quiet) {
        std::fprintf(stderr, "mantra-udp recv: %.0f s, %lld data datagrams, %llu bytes in order\n",
                     (now - origin).secs(), static_cast<long long>(record.unique_arrivals()),
                     static_cast<unsigned long long>(stream.delivered()));
      }
      next_progress = now + kProgressEvery;
    }
    std::optional<Time> deadline = link.deadline();
    const auto consider = [&deadline](std::optional<Time> t) {
      if (t && (!deadline || *t < *deadline)) deadline = t;
    };
    consider(receiver ? std::optional(next_progress) : give_up);
    if (bye_at) consider(std::max(*bye_at, last_data.value_or(*bye_at)) + kLinger);
    if (receiver) consider(now + Reassembly::kReorderTime);
    if (more) deadline = now;
    const Ready ready = poller.wait(deadline);
    stop = ready.stop;
    if (ready.socket_error()) socket.read_errors();
    if (!ready.socket()) continue;
    if (error = socket.receive(batch); !error.empty()) return fail(error);
    const ClockPair clocks = sample_clocks();
    now = clocks.monotonic;
    for (const Received& r : batch) {
      if (!receiver) {  // waiting: only a hello is heard
        const auto split = split_trailer(r.bytes);
        if (split && split->first.kind == WireKind::kHello) {
          on_hello(now, r, split->second, split->first.token);
          if (receiver) answer_hello(now, split->second);
        } else {
          ++strays_before;
        }
        continue;
      }
      const auto got = link.accept(now, r);
      if (!got) continue;
      const auto [kind, body] = *got;
      if (kind == WireKind::kHello) {
        answer_hello(now, body);  // our accept was lost: answer again
      } else if (kind == WireKind::kBye) {
        if (const auto b = decode_bye(body); b && !bye) {
          bye = *b;
          bye_at = now;
        }
        link.send_session(now, WireKind::kByeAck, {});
      } else if (kind == WireKind::kCoreData) {
        const Time arrived = r.kernel_realtime_ns ? monotonic_from_realtime(*r.kernel_realtime_ns, clocks) : now;
        if (const auto f = read_frame(body, hello.data_header_bytes)) {
          const double sent_s = (Time::from_us(f->sent_us) - origin).secs();
          if (record.on_data(f->number, sent_s, (arrived - origin).secs(), static_cast<int64_t>(body.size()))) {
            if (hello.app == AppKind::kVideo) {
              if (f->app_id >= 0) media_arrivals.emplace_back(f->app_id, (arrived - origin).secs());
            } else {
              stream.add(now, f->offset, f->bytes);
            }
          }
          log.write(now, "rx", "data", r.bytes.size(), static_cast<int>(r.ecn), f->number);
        }
        last_data = now;
        receiver->handle_datagram_with_ttl(link.clock(now), body, r.ecn, r.ttl);
      } else if (kind == WireKind::kCoreOther) {
        receiver->handle_datagram_with_ttl(link.clock(now), body, r.ecn, r.ttl);
      }
    }
  }
  if (!receiver) return fail("stopped before a sender came");

  const Time end = bye_at.value_or(monotonic_now());
  if (bye) stream.finish(bye->app_bytes);
  const bool written = sink.close();
  const int64_t packet_size =
      hello.sender_params.count("packet_size") ? static_cast<int64_t>(hello.sender_params.at("packet_size")) : 1000;
  nlohmann::json flow = record.summary(hello.protocol, packet_size, o.measure_from_s, (end - origin).secs(),
                                       bye ? &*bye : nullptr, receiver->stats().named_values());
  nlohmann::json result;
  result["schema"] = "mantra-result/1";
  result["spec"] = {{"driver", "mantra-udp"},
                    {"protocol", hello.protocol},
                    {"params", params_json(hello.sender_params)},
                    {"receiver_params", params_json(hello.receiver_params)},
                    {"peer", link.peer().text()},
                    {"local", socket.local().text()},
                    // mantra-sim's window keys: seconds since the origin (the sender's hello)
                    {"duration", (end - origin).secs()},
                    {"measure", {{"from", o.measure_from_s}, {"to", (end - origin).secs()}}}};
  result["flows"] = nlohmann::json::array({flow});
  nlohmann::json holes = nlohmann::json::array();
  for (const Hole& h : stream.loss_map()) holes.push_back({h.offset, h.length});
  result["app"] = {{"bytes", bye ? nlohmann::json(bye->app_bytes) : nlohmann::json(nullptr)},
                   {"complete_at_sender", bye ? nlohmann::json(bye->app_complete) : nlohmann::json(nullptr)},
                   {"delivered_in_order", stream.delivered()},
                   {"late_bytes", stream.late_bytes()},
                   {"loss_map", holes},
                   {"written", written}};
  result["session"] = {{"bye_received", bye.has_value()},
                       {"refused_hellos", refused},
                       {"strays_before", strays_before},
                       {"loop_wakeups", poller.wakeups()}};
  result["session"].update(link_json(link.counters(), socket.counters()));
  result["clock"] = clock_json(clock);
  result["clock"]["origin_us"] = origin.us();
  if (!clock.same_host) {  // the sender measured the offset and shifted its stamps: its result gives it
    result["clock"]["offset_us"] = nullptr;
    result["clock"]["error_us"] = nullptr;
  }
  if (hello.app == AppKind::kVideo) {  // no byte stream: the video's datagrams instead
    result["app"] = nullptr;
    nlohmann::json& arrivals = result["media_arrivals"] = nlohmann::json::array();
    for (const auto& [app_id, t_s] : media_arrivals) arrivals.push_back({app_id, t_s});
  }
  result["provenance"] = provenance_json((monotonic_now() - start).secs());
  if (error = write_result(o.result, result); !error.empty()) return fail(error);
  if (!written) return fail("--out " + o.out + ": writing failed");
  return 0;
}

}  // namespace mantra::udp
