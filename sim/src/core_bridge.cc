// C++20 side of the bridge: wraps core endpoints behind core_bridge.h.
#include "core_bridge.h"

#include "latp/latp_wire.h"
#include "latp/node_agent.h"
#include "mantra/registry.h"

namespace mantra::sim {
namespace {

class Bridged : public CoreEndpoint {
 public:
  explicit Bridged(std::unique_ptr<Endpoint> e) : e_(std::move(e)) {}
  void handle_datagram(int64_t now_us, const uint8_t* bytes, size_t size, uint8_t ecn) override {
    e_->handle_datagram(Time::from_us(now_us), std::span<const uint8_t>(bytes, size), static_cast<Ecn>(ecn & 3));
  }
  void handle_timeout(int64_t now_us) override { e_->handle_timeout(Time::from_us(now_us)); }
  std::optional<BridgeDatagram> poll_transmit(int64_t now_us) override {
    auto d = e_->poll_transmit(Time::from_us(now_us));
    if (!d) return std::nullopt;
    return BridgeDatagram{std::move(d->bytes), d->kind == DatagramKind::kData, static_cast<uint8_t>(d->ecn), d->seq};
  }
  std::optional<int64_t> poll_timeout_us() const override {
    auto t = e_->poll_timeout();
    if (!t) return std::nullopt;
    return t->us();
  }
  std::vector<std::pair<std::string, double>> diagnostics() const override {
    const EndpointStats s = e_->stats();
    std::vector<std::pair<std::string, double>> d = {
        {"datagrams_sent", static_cast<double>(s.datagrams_sent)},
        {"datagrams_received", static_cast<double>(s.datagrams_received)},
        {"datagrams_rejected", static_cast<double>(s.datagrams_rejected)}};
    d.insert(d.end(), s.diagnostics.begin(), s.diagnostics.end());
    return d;
  }
  std::vector<BridgeLossVerdict> take_loss_verdicts() override {
    auto* receiver = dynamic_cast<Receiver*>(e_.get());
    if (!receiver) return {};
    std::vector<BridgeLossVerdict> out;
    for (auto& v : receiver->take_loss_verdicts()) out.push_back({v.seq, std::move(v.detector), std::move(v.state), v.acted_on});
    return out;
  }

 private:
  std::unique_ptr<Endpoint> e_;
};

template <typename T>
std::unique_ptr<CoreEndpoint> wrap(Made<T> made, std::string& error) {
  if (!made.endpoint) {
    error = made.error;
    return nullptr;
  }
  return std::make_unique<Bridged>(std::move(made.endpoint));
}

class BridgedNodeAgent : public CoreNodeAgent {
 public:
  explicit BridgedNodeAgent(latp::NodeAgentConfig c) : a_(c) {}
  void on_channel_busy(int64_t start_us, int64_t duration_us) override {
    a_.on_channel_busy(Time::from_us(start_us), Duration::micros(duration_us));
  }
  void on_transmit(int64_t start_us, int64_t duration_us) override {
    a_.on_transmit(Time::from_us(start_us), Duration::micros(duration_us));
  }
  void on_mac_acked(int64_t ready_us, int64_t acked_us, int64_t bytes) override {
    a_.on_mac_acked(Time::from_us(ready_us), Time::from_us(acked_us), Bytes(bytes));
  }
  bool on_egress(uint8_t* bytes, size_t size) override { return a_.on_egress(std::span<uint8_t>(bytes, size)); }
  std::vector<std::pair<std::string, double>> diagnostics() const override { return a_.diagnostics(); }

 private:
  latp::NodeAgent a_;
};

}  // namespace

size_t latp_data_header_bytes() { return latp::kDataHeaderBytes; }

std::unique_ptr<CoreNodeAgent> make_core_node_agent(const CoreParams& params, std::string& error) {
  latp::NodeAgentConfig config;
  error = latp::NodeAgent::parse(params, config);
  if (!error.empty()) return nullptr;
  return std::make_unique<BridgedNodeAgent>(config);
}

std::unique_ptr<CoreEndpoint> make_core_sender(const std::string& protocol, const CoreParams& params,
                                               std::string& error) {
  return wrap(make_sender(protocol, params), error);
}

std::unique_ptr<CoreEndpoint> make_core_receiver(const std::string& protocol, const CoreParams& params,
                                                 std::string& error) {
  return wrap(make_receiver(protocol, params), error);
}

std::vector<std::string> core_protocol_names() { return protocol_names(); }

}  // namespace mantra::sim
