#include "network/channel_error.h"

#include <ns3/core-module.h>
#include <ns3/error-model.h>
#include <ns3/wifi-mac-header.h>
#include <ns3/wifi-module.h>

#include <map>
#include <memory>
#include <set>
#include <utility>

namespace mantra::sim {
namespace {

using namespace ns3;

// Which node each device's MAC address belongs to, and which links have error.
struct Links {
  std::map<Mac48Address, uint32_t> node_of;
  std::set<std::pair<uint32_t, uint32_t>> listed;  // (low, high); empty: every link
  bool has(uint32_t a, uint32_t b) const { return listed.empty() || listed.count(std::minmax(a, b)) > 0; }
};

// A bad/good channel per link, shared by both ends: its state at `now` is
// drawn lazily, sojourn by sojourn, from exponential periods.
class GilbertLinks {
 public:
  GilbertLinks(double rate, double burst_s, int64_t stream) : bad_mean_s_(burst_s) {
    good_mean_s_ = burst_s * (1.0 - rate) / rate;
    draw_ = CreateObject<ExponentialRandomVariable>();
    draw_->SetStream(stream);
    start_ = CreateObject<UniformRandomVariable>();
    start_->SetStream(stream + 1);
    rate_ = rate;
  }
  bool bad(uint32_t a, uint32_t b, double now_s) {
    auto [it, fresh] = state_.try_emplace(std::minmax(a, b));
    State& s = it->second;
    if (fresh) {  // the stationary start: bad with probability rate
      s.bad = start_->GetValue() < rate_;
      s.until_s = draw_->GetValue(s.bad ? bad_mean_s_ : good_mean_s_, 0);
    }
    while (s.until_s <= now_s) {
      s.bad = !s.bad;
      s.until_s += draw_->GetValue(s.bad ? bad_mean_s_ : good_mean_s_, 0);
    }
    return s.bad;
  }

 private:
  struct State {
    bool bad = false;
    double until_s = 0;
  };
  double bad_mean_s_, good_mean_s_ = 0, rate_ = 0;
  Ptr<ExponentialRandomVariable> draw_;
  Ptr<UniformRandomVariable> start_;
  std::map<std::pair<uint32_t, uint32_t>, State> state_;
};

// Frame and bursty error on chosen links, as the last stage of the channel's
// propagation: a frame the error hits arrives at `hit_dbm`, strong enough to
// hold the medium but too weak to decode (a frame that fails its check, as
// ns-2's error model makes it). Every frame crossing the link counts, control
// frames (RTS, CTS, ACK) included; each receiver of a broadcast draws apart.
class LinkErrorLoss : public PropagationLossModel {
 public:
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("mantra::sim::LinkErrorLoss").SetParent<PropagationLossModel>();
    return tid;
  }
  std::shared_ptr<const Links> links;
  std::shared_ptr<GilbertLinks> gilbert;  // bursty; else Bernoulli with `rate`
  double rate = 0;
  double hit_dbm = 0;
  Ptr<UniformRandomVariable> coin;
  int64_t* dropped = nullptr;

 private:
  double DoCalcRxPower(double rx_dbm, Ptr<MobilityModel> a, Ptr<MobilityModel> b) const override {
    const uint32_t from = a->GetObject<Node>()->GetId(), to = b->GetObject<Node>()->GetId();
    if (!links->has(from, to)) return rx_dbm;
    const bool hit = gilbert ? gilbert->bad(from, to, Simulator::Now().GetSeconds()) : coin->GetValue() < rate;
    if (!hit || rx_dbm <= hit_dbm) return rx_dbm;
    if (dropped != nullptr) ++*dropped;
    return hit_dbm;
  }
  int64_t DoAssignStreams(int64_t) override { return 0; }
};

// Every frame a PHY receives fails with probability `rate`: ns-3's
// RateErrorModel (per packet), draw for draw, with a count of its hits.
class FrameErrorModel : public ErrorModel {
 public:
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("mantra::sim::FrameErrorModel").SetParent<ErrorModel>();
    return tid;
  }
  double rate = 0;
  Ptr<UniformRandomVariable> coin;
  int64_t* dropped = nullptr;

 private:
  bool DoCorrupt(Ptr<Packet>) override {
    const bool hit = coin->GetValue() < rate;
    if (hit && dropped != nullptr) ++*dropped;
    return hit;
  }
  void DoReset() override {}
};

// Reaches WifiNetDevice::ForwardUp (protected), the MAC's hand-over to the
// layers above, to put the packet placement between the two.
struct ForwardUpAccess : WifiNetDevice {
  static constexpr auto kForwardUp = &ForwardUpAccess::ForwardUp;
};

}  // namespace

int64_t install_channel_error(const ChannelErrorSpec& error, NetDeviceContainer& devices, double hit_dbm,
                              int64_t stream, ChannelErrorDrops* dropped) {
  int64_t* counter = dropped != nullptr ? &dropped->count : nullptr;
  if (!error.on()) return stream;
  auto links = std::make_shared<Links>();
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    links->node_of[Mac48Address::ConvertFrom(devices.Get(i)->GetAddress())] = devices.Get(i)->GetNode()->GetId();
  }
  for (const auto& [a, b] : error.links) {
    links->listed.insert(std::minmax(static_cast<uint32_t>(a), static_cast<uint32_t>(b)));
  }
  if (error.placement == "frame" && error.links.empty()) {
    // Every frame of every link: an error model on each receiving PHY, as
    // ns-2's IncomingErrProc (and the runs before placements existed, stream
    // for stream).
    for (uint32_t i = 0; i < devices.GetN(); ++i) {
      auto em = CreateObject<FrameErrorModel>();
      em->rate = error.rate;
      em->coin = CreateObject<UniformRandomVariable>();
      em->coin->SetStream(stream++);
      em->dropped = counter;
      DynamicCast<WifiNetDevice>(devices.Get(i))->GetPhy()->SetPostReceptionErrorModel(em);
    }
    return stream;
  }
  auto coin = CreateObject<UniformRandomVariable>();
  coin->SetStream(stream++);
  if (error.placement == "packet") {
    // Between the MAC (which has acknowledged the frame) and IP.
    for (uint32_t i = 0; i < devices.GetN(); ++i) {
      Ptr<WifiNetDevice> device = DynamicCast<WifiNetDevice>(devices.Get(i));
      const uint32_t receiver = device->GetNode()->GetId();
      std::shared_ptr<const Links> l = links;
      const double rate = error.rate;
      device->GetMac()->SetForwardUpCallback(WifiMac::ForwardUpCallback(
          [device, receiver, l, rate, coin, dropped](Ptr<const Packet> p, Mac48Address from, Mac48Address to) {
            auto sender = l->node_of.find(from);
            if (sender != l->node_of.end() && l->has(sender->second, receiver) && coin->GetValue() < rate) {
              if (dropped != nullptr) {
                ++dropped->count;
                for (const auto& observer : dropped->packet_observers) observer(receiver, p);
              }
              return;
            }
            ((*device).*ForwardUpAccess::kForwardUp)(p, from, to);
          }));
    }
    return stream;
  }
  auto loss = CreateObject<LinkErrorLoss>();
  loss->links = links;
  loss->rate = error.rate;
  loss->hit_dbm = hit_dbm;
  loss->coin = coin;
  loss->dropped = counter;
  if (error.placement == "bursty") {
    loss->gilbert = std::make_shared<GilbertLinks>(error.rate, error.burst_s, stream);
    stream += 2;
  }
  auto channel = DynamicCast<YansWifiChannel>(devices.Get(0)->GetChannel());
  PointerValue model;
  channel->GetAttribute("PropagationLossModel", model);
  Ptr<PropagationLossModel> last = model.Get<PropagationLossModel>();
  while (last->GetNext()) last = last->GetNext();
  last->SetNext(loss);
  return stream;
}

}  // namespace mantra::sim
