// A network of our AODV agents (aodv/aodv_agent.h) with no radio: links are
// up or down, a transmission takes 1 ms, a broadcast reaches every linked
// neighbour, a data packet over a link that is down fails at the sender (the
// MAC's retry limit, reported to its agent), AODV's own unicast messages over
// one are lost silently (ns-2 asked no MAC feedback for them). Every agent's
// purge runs at 0, 0.5, 1, ... s, in lockstep as in ns-2. Events run in time
// order, ties in the order they were made; jitter is half its bound.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "aodv/aodv_agent.h"
#include "toy_links.h"

namespace mantra::sim::aodv::toy {

inline constexpr double kAirS = 0.001;

struct Sent {
  double at_s;
  int from;
  Address to;
  uint8_t ttl;
  Message message;
};

class ToyNet : public mantra::sim::toy::ToyLinks {
 public:
  // `nodes` agents; with `chained`, node i linked to node i + 1.
  explicit ToyNet(int nodes, bool chained = false) {
    for (int i = 0; i < nodes; ++i) {
      hosts_.push_back(std::make_unique<Host>(*this, i));
      agents_.push_back(std::make_unique<AodvAgent>(address(i), *hosts_.back()));
      purge_at(i, 0);
    }
    for (int i = 0; chained && i + 1 < nodes; ++i) link(i, i + 1);
  }
  ToyNet(const ToyNet&) = delete;  // hosts and events point into it
  ToyNet& operator=(const ToyNet&) = delete;

  // A data packet from `from` to `to`, originated at `at_s`.
  void send(int from, int to, double at_s) {
    at(at_s, [this, from, to] {
      DataPacket p;
      p.source = address(from);
      p.destination = address(to);
      p.payload = std::make_shared<Payload>();
      AodvAgent& a = *agents_[from];
      if (auto next = a.route_output(p.destination)) {
        hosts_[from]->forward(std::move(p), *next, 0);
      } else {
        a.route(std::move(p));
      }
    });
  }

  AodvAgent& agent(int node) { return *agents_[node]; }
  const std::vector<DataPacket>& delivered(int node) const { return hosts_[node]->delivered; }
  const std::vector<std::pair<DataPacket, DropReason>>& dropped(int node) const { return hosts_[node]->dropped; }
  const std::vector<Sent>& messages() const { return messages_; }

  // Route requests `node` originated, in the order they left.
  std::vector<Sent> requests_from(int node) const {
    std::vector<Sent> out;
    for (const Sent& m : messages_) {
      const auto* q = std::get_if<RouteRequest>(&m.message);
      if (m.from == node && q && q->originator == address(node)) out.push_back(m);
    }
    return out;
  }
  template <typename M>
  int count_from(int node) const {
    int n = 0;
    for (const Sent& m : messages_) n += m.from == node && std::holds_alternative<M>(m.message);
    return n;
  }

 private:
  struct Host : AodvHost {
    Host(ToyNet& net, int node) : net(net), node(node) {}
    double now_s() const override { return net.now_s_; }
    double uniform_s(double max_s) override { return max_s / 2; }
    void send_message(const Message& m, Address to, uint8_t ttl, double delay_s) override {
      net.at(net.now_s_ + delay_s, [this, m, to, ttl] {
        net.messages_.push_back({net.now_s_, node, to, ttl, m});
        for (int other = 0; other < static_cast<int>(net.agents_.size()); ++other) {
          if (other == node || !net.linked(node, other)) continue;
          if (to != kBroadcast && to != address(other)) continue;
          net.at(net.now_s_ + kAirS, [this, m, other, ttl] { net.agents_[other]->receive(m, address(node), ttl); });
        }
      });
    }
    void forward(DataPacket p, Address next_hop, double delay_s) override {
      net.at(net.now_s_ + delay_s, [this, p = std::move(p), next_hop]() mutable {
        const int to = node_of(next_hop);
        if (!net.linked(node, to)) {
          net.at(net.now_s_ + kAirS, [this, p = std::move(p), next_hop]() mutable {
            net.agents_[node]->link_failed(std::move(p), next_hop);
          });
          return;
        }
        net.at(net.now_s_ + kAirS, [this, p = std::move(p), to]() mutable {
          ++p.hops_travelled;
          if (p.destination == address(to)) {
            net.hosts_[to]->delivered.push_back(std::move(p));
          } else {
            net.agents_[to]->route(std::move(p));
          }
        });
      });
    }
    void drop(const DataPacket& p, DropReason why) override { dropped.emplace_back(p, why); }
    std::vector<DataPacket> take_queued(Address) override { return {}; }

    ToyNet& net;
    int node;
    std::vector<DataPacket> delivered;
    std::vector<std::pair<DataPacket, DropReason>> dropped;
  };

  void purge_at(int node, double t_s) {
    at(t_s, [this, node] { purge_at(node, now_s_ + agents_[node]->purge()); });
  }

  std::vector<std::unique_ptr<Host>> hosts_;
  std::vector<std::unique_ptr<AodvAgent>> agents_;
  std::vector<Sent> messages_;
};

}  // namespace mantra::sim::aodv::toy
