// A network of DSR agents (dsr/dsr_agent.h) with no radio: links are up or
// down, a transmission takes 1 ms, a unicast over a link that is down fails
// at the sender (the MAC's retry limit) and a unicast over one that is up is
// also heard by the sender's other neighbours. Events run in time order, ties
// in the order they were made; jitter is half its bound. Enough to drive
// every rule of the agent to the state it must reach, with no ns-3.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "dsr/dsr_agent.h"
#include "toy_links.h"

namespace mantra::sim::dsr::toy {

inline constexpr double kAirS = 0.001;

class Bytes : public Payload {
 public:
  explicit Bytes(uint32_t n) : n_(n) {}
  uint32_t bytes() const override { return n_; }

 private:
  uint32_t n_;
};

struct Sent {
  double at_s;
  int from;
  Address next_hop;
  Packet packet;
};

class ToyNet : public mantra::sim::toy::ToyLinks {
 public:
  explicit ToyNet(int nodes, DsrOptions options = {}) {
    for (int i = 0; i < nodes; ++i) {
      hosts_.push_back(std::make_unique<Host>(*this, i));
      agents_.push_back(std::make_unique<DsrAgent>(address(i), *hosts_.back(), options));
      check_buffer_at(i, 0.01);
    }
  }

  // A transport packet of `bytes` from `from` to `to`, sent at `at_s`.
  void send(int from, int to, double at_s, uint32_t bytes = 1000) {
    at(at_s, [this, from, to, bytes] {
      Packet p;
      p.source = address(from);
      p.destination = address(to);
      p.ttl = 64;
      p.header.next_header = 17;
      p.payload = std::make_shared<Bytes>(bytes);
      agents_[from]->send(std::move(p));
    });
  }

  DsrAgent& agent(int node) { return *agents_[node]; }
  const std::vector<Packet>& delivered(int node) const { return hosts_[node]->delivered; }
  const std::vector<std::pair<Packet, DropReason>>& dropped(int node) const { return hosts_[node]->dropped; }
  const std::vector<Sent>& sent() const { return sent_; }

  // Transmissions by `node` of requests; `propagating` picks the kind.
  std::vector<Sent> requests_from(int node, bool propagating) const {
    std::vector<Sent> out;
    for (const Sent& s : sent_) {
      if (s.from == node && s.packet.header.request && s.packet.source == address(node) &&
          (s.packet.ttl > 1) == propagating) {
        out.push_back(s);
      }
    }
    return out;
  }

 private:
  struct Host : DsrHost {
    Host(ToyNet& net, int node) : net(net), node(node) {}
    double now_s() const override { return net.now_s_; }
    double uniform_s(double max_s) override { return max_s / 2; }
    void transmit(Packet p, Address next_hop, double delay_s) override {
      net.at(net.now_s_ + delay_s, [this, p = std::move(p), next_hop]() mutable {
        net.sent_.push_back({net.now_s_, node, next_hop, p});
        net.air(node, std::move(p), next_hop);
      });
    }
    void deliver(Packet p) override { delivered.push_back(std::move(p)); }
    void drop(const Packet& p, DropReason why) override { dropped.emplace_back(p, why); }
    std::vector<Packet> take_queued(Address) override { return {}; }

    ToyNet& net;
    int node;
    std::vector<Packet> delivered;
    std::vector<std::pair<Packet, DropReason>> dropped;
  };

  void check_buffer_at(int node, double t_s) {
    at(t_s, [this, node] { check_buffer_at(node, now_s_ + agents_[node]->check_send_buffer()); });
  }

  void air(int from, Packet p, Address next_hop) {
    at(now_s_ + kAirS, [this, from, p = std::move(p), next_hop] {
      const int n = static_cast<int>(agents_.size());
      if (next_hop == kBroadcast) {
        for (int to = 0; to < n; ++to) {
          if (to != from && linked(from, to)) agents_[to]->receive(p);
        }
        return;
      }
      const int to = node_of(next_hop);
      if (!linked(from, to)) {
        agents_[from]->transmit_failed(p);
        return;
      }
      for (int other = 0; other < n; ++other) {
        if (other != from && other != to && linked(from, other)) agents_[other]->overhear(p);
      }
      agents_[to]->receive(p);
    });
  }

  std::vector<std::unique_ptr<Host>> hosts_;
  std::vector<std::unique_ptr<DsrAgent>> agents_;
  std::vector<Sent> sent_;
};

}  // namespace mantra::sim::dsr::toy
