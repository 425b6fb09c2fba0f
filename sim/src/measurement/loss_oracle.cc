#include "measurement/loss_oracle.h"

#include <ns3/config.h>
#include <ns3/ipv4-l3-protocol.h>
#include <ns3/mobility-model.h>
#include <ns3/traffic-control-layer.h>
#include <ns3/wifi-module.h>

#include <map>
#include <string>

#include "measurement/measurement_tag.h"

namespace mantra::sim {
namespace {

using namespace ns3;

const char* cause_name(TrueCause c) {
  switch (c) {
    case TrueCause::kCongestion:
      return "cong";
    case TrueCause::kChannelError:
      return "cherr";
    case TrueCause::kRouteChange:
      break;
  }
  return "rtchg";
}

bool tagged(Ptr<const Packet> p, MeasurementTag& tag) { return p && p->PeekPacketTag(tag) && tag.seq >= 0; }

}  // namespace

LossOracle::LossOracle(const Spec& spec, NodeContainer& nodes)
    : rx_range_m_(spec.radio.rx_range_m),
      silent_losses_in_routing_(spec.routing == "dsr" || spec.routing == "dsr-ns3" || spec.routing == "aodv"),
      nodes_(nodes) {
  queues_.resize(nodes.GetN());
  hooks_.reserve(nodes.GetN());
  for (uint32_t i = 0; i < nodes.GetN(); ++i) hooks_.push_back({this, i});
  std::vector<Ptr<NetDevice>> wifi;
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    hook_node(i);
    Ptr<Node> node = nodes.Get(i);
    for (uint32_t d = 0; d < node->GetNDevices(); ++d) {
      if (DynamicCast<WifiNetDevice>(node->GetDevice(d))) wifi.push_back(node->GetDevice(d));
    }
  }
  hook_wifi(wifi);
}

void LossOracle::hook_node(uint32_t i) {
  Hook* hook = &hooks_[i];
  Ptr<Node> node = nodes_.Get(i);
  Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
  for (uint32_t d = 0; d < node->GetNDevices(); ++d) {
    Ptr<QueueDisc> qd = tc ? tc->GetRootQueueDiscOnDevice(node->GetDevice(d)) : nullptr;
    if (!qd) continue;
    queues_[i].push_back(qd);
    qd->TraceConnectWithoutContext(
        "Enqueue",
        MakeBoundCallback(
            +[](Hook* h, Ptr<const QueueDiscItem> item) { h->oracle->on_enqueue(h->node, item->GetPacket()); }, hook));
    // Overflows and RED's drops; the link-failure flush drops after the
    // dequeue and reports its packets itself (on_flushed).
    qd->TraceConnectWithoutContext("DropBeforeEnqueue", MakeBoundCallback(
                                                            +[](Hook* h, Ptr<const QueueDiscItem> item, const char*) {
                                                              h->oracle->on_drop(h->node, item->GetPacket(),
                                                                                 TrueCause::kCongestion);
                                                            },
                                                            hook));
  }
  if (auto ipv4 = node->GetObject<Ipv4L3Protocol>()) {
    ipv4->TraceConnectWithoutContext(
        "Drop", MakeBoundCallback(
                    +[](Hook* h, const Ipv4Header&, Ptr<const Packet> p, Ipv4L3Protocol::DropReason, Ptr<Ipv4>,
                        uint32_t) { h->oracle->on_drop(h->node, p, TrueCause::kRouteChange); },
                    hook));
  }
  auto route_drop = MakeBoundCallback(
      +[](Hook* h, Ptr<const Packet> p) { h->oracle->on_drop(h->node, p, TrueCause::kRouteChange); }, hook);
  const std::string at = "/NodeList/" + std::to_string(node->GetId());
  Config::ConnectWithoutContextFailSafe(at + "/$ns3::ArpL3Protocol/Drop", route_drop);
  Config::ConnectWithoutContextFailSafe(at + "/$ns3::ArpL3Protocol/CacheList/*/Drop", route_drop);
  Config::ConnectWithoutContextFailSafe(at + "/$ns3::dsr::DsrRouting/Drop", route_drop);
}

void LossOracle::hook_wifi(const std::vector<Ptr<NetDevice>>& devices) {
  for (const auto& dev : devices) mac_owner_[Mac48Address::ConvertFrom(dev->GetAddress())] = dev->GetNode()->GetId();
  for (const auto& dev : devices) {
    Hook* hook = &hooks_[dev->GetNode()->GetId()];
    DynamicCast<WifiNetDevice>(dev)->GetMac()->TraceConnectWithoutContext(
        "DroppedMpdu", MakeBoundCallback(
                           +[](Hook* h, WifiMacDropReason reason, Ptr<const WifiMpdu> mpdu) {
                             TrueCause cause = TrueCause::kCongestion;  // MAC queue overflow or lifetime
                             if (reason == WIFI_MAC_DROP_REACHED_RETRY_LIMIT) {
                               cause = TrueCause::kChannelError;
                               const auto& owner = h->oracle->mac_owner_;
                               auto next = owner.find(mpdu->GetHeader().GetAddr1());
                               if (next != owner.end()) {
                                 auto here = h->oracle->nodes_.Get(h->node)->GetObject<MobilityModel>();
                                 auto there = h->oracle->nodes_.Get(next->second)->GetObject<MobilityModel>();
                                 if (here->GetDistanceFrom(there) > h->oracle->rx_range_m_)
                                   cause = TrueCause::kRouteChange;
                               }
                             }
                             h->oracle->on_drop(h->node, mpdu->GetPacket(), cause, Origin::kMac);
                           },
                           hook));
  }
}

void LossOracle::on_sent(uint32_t flow, int64_t seq) {
  FlowRecord& r = flows_[flow];
  if (static_cast<int64_t>(r.status.size()) <= seq) {
    r.status.resize(static_cast<size_t>(seq) + 1, kUnknown);
    r.dropped.resize(static_cast<size_t>(seq) + 1, TrueCause::kCongestion);
  }
}

bool LossOracle::on_delivered(uint32_t flow, int64_t seq) {
  auto it = flows_.find(flow);
  if (it == flows_.end() || seq >= static_cast<int64_t>(it->second.status.size())) return false;
  FlowRecord& r = it->second;
  if (r.status[seq] == kUnknown) r.status[seq] = kDelivered;
  auto path = paths_.find(key(flow, seq));
  if (path == paths_.end()) return false;
  const bool changed = !r.last_path.empty() && path->second != r.last_path;
  if (changed) ++r.path_changes;
  r.last_path = std::move(path->second);
  paths_.erase(path);
  return changed;
}

void LossOracle::on_enqueue(uint32_t node, Ptr<const Packet> p) {
  MeasurementTag tag;
  if (!tagged(p, tag)) return;
  // A node that sends the packet again (DSR's retransmissions from its
  // maintenance buffer) queues it again: still one node of its path.
  std::vector<uint32_t>& path = paths_[key(tag.flow, tag.seq)];
  if (path.empty() || path.back() != node) path.push_back(node);
}

void LossOracle::on_flushed(uint32_t node, Ptr<const Packet> p) { on_drop(node, p, TrueCause::kRouteChange); }

void LossOracle::on_channel_error(uint32_t node, Ptr<const Packet> p) {
  on_drop(node, p, TrueCause::kChannelError, Origin::kAboveMac);
}

int64_t LossOracle::path_changes(uint32_t flow) const {
  auto it = flows_.find(flow);
  return it == flows_.end() ? 0 : it->second.path_changes;
}

bool LossOracle::queue_above_half(uint32_t node) const {
  for (const auto& qd : queues_[node]) {
    if (qd->GetNPackets() * 2 > qd->GetMaxSize().GetValue()) return true;
  }
  return false;
}

bool LossOracle::path_congested(uint64_t k, uint32_t node) const {
  if (queue_above_half(node)) return true;
  auto it = paths_.find(k);
  if (it == paths_.end()) return false;
  for (uint32_t n : it->second) {
    if (queue_above_half(n)) return true;
  }
  return false;
}

void LossOracle::on_drop(uint32_t node, Ptr<const Packet> p, TrueCause cause, Origin origin) {
  MeasurementTag tag;
  if (!tagged(p, tag)) return;
  auto it = flows_.find(tag.flow);
  if (it == flows_.end() || tag.seq >= static_cast<int64_t>(it->second.status.size())) return;
  FlowRecord& r = it->second;
  if (r.status[tag.seq] != kUnknown) return;  // the first fate counts
  const uint64_t k = key(tag.flow, tag.seq);
  // A MAC loss within range on a loaded path is contention, not a random error.
  if (origin == Origin::kMac && cause == TrueCause::kChannelError && path_congested(k, node))
    cause = TrueCause::kCongestion;
  r.status[tag.seq] = kDropped;
  r.dropped[tag.seq] = cause;
  paths_.erase(k);
}

std::optional<TrueCause> LossOracle::cause(uint32_t flow, int64_t seq) const {
  auto it = flows_.find(flow);
  if (it == flows_.end() || seq < 0 || seq >= static_cast<int64_t>(it->second.status.size())) return std::nullopt;
  switch (it->second.status[seq]) {
    case kDropped:
      return it->second.dropped[seq];
    case kDelivered:
      return TrueCause::kRouteChange;  // declared lost, then delivered: reordered
    default:
      // DSR drops from its send and maintenance buffers without a trace: a
      // packet declared lost that no traced site dropped was lost there.
      if (silent_losses_in_routing_) return TrueCause::kRouteChange;
      return std::nullopt;
  }
}

nlohmann::json LossOracle::drop_causes(uint32_t flow) const {
  std::map<std::string, int64_t> counts = {{"cong", 0}, {"cherr", 0}, {"rtchg", 0}};
  if (auto it = flows_.find(flow); it != flows_.end()) {
    for (size_t s = 0; s < it->second.status.size(); ++s) {
      if (it->second.status[s] == kDropped) ++counts[cause_name(it->second.dropped[s])];
    }
  }
  return counts;
}

namespace {

nlohmann::json score_one(const std::vector<const mantra::LossVerdict*>& verdicts, const LossOracle& oracle,
                         uint32_t flow) {
  int64_t attributed = 0, inaccurate = 0, incompatible = 0;
  std::map<std::string, std::map<std::string, int64_t>> confusion;  // identified -> true -> count
  for (const char* s : {"cong", "rtchg", "cherr", "normal"}) confusion[s] = {{"cong", 0}, {"cherr", 0}, {"rtchg", 0}};
  for (const auto* v : verdicts) {
    const auto truth = oracle.cause(flow, v->seq);
    if (!truth) continue;
    ++attributed;
    const bool said_cong = v->state == "cong";
    const bool was_cong = *truth == TrueCause::kCongestion;
    inaccurate += said_cong != was_cong;
    incompatible += was_cong && !said_cong;
    ++confusion[v->state][cause_name(*truth)];
  }
  auto ratio = [&](int64_t n) {
    return attributed ? nlohmann::json(static_cast<double>(n) / attributed) : nlohmann::json(nullptr);
  };
  return {{"losses", static_cast<int64_t>(verdicts.size())},
          {"attributed", attributed},
          {"unattributed", static_cast<int64_t>(verdicts.size()) - attributed},
          {"inaccurate_ratio", ratio(inaccurate)},
          {"incompatible_ratio", ratio(incompatible)},
          {"confusion", confusion}};
}

}  // namespace

nlohmann::json score_detection(const std::vector<mantra::LossVerdict>& verdicts, const LossOracle& oracle,
                               uint32_t flow) {
  std::map<std::string, std::vector<const mantra::LossVerdict*>> by_rule;
  std::string detector;
  for (const auto& v : verdicts) {
    by_rule[v.detector].push_back(&v);
    if (v.acted_on) detector = v.detector;
  }
  nlohmann::json out = score_one(by_rule[detector], oracle, flow);
  out["detector"] = detector.empty() ? nlohmann::json(nullptr) : nlohmann::json(detector);
  out["by_detector"] = nlohmann::json::object();
  for (const auto& [rule, list] : by_rule) out["by_detector"][rule] = score_one(list, oracle, flow);
  return out;
}

}  // namespace mantra::sim
