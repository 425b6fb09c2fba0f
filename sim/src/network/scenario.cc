#include "network/scenario.h"

#include <ns3/aodv-module.h>
#include <ns3/core-module.h>
#include <ns3/dsr-module.h>
#include <ns3/internet-module.h>
#include <ns3/mobility-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>
#include <ns3/traffic-control-module.h>
#include <ns3/wifi-module.h>

#include <cstring>
#include <stdexcept>

#include "aodv/aodv_routing.h"
#include "apps/tcp_flow.h"
#include "dsr/dsr_routing.h"
#include "network/oracle_routing.h"
#include "network/pri_queue_disc.h"
#include "network/queues.h"
#include "network/radio.h"
#include "network/random_streams.h"

namespace mantra::sim {
namespace {

using namespace ns3;

// The random stream blocks: network/random_streams.h.
constexpr int64_t kMobilityStreams = streams::kMobility;
constexpr int64_t kRadioStreams = streams::kRadio;
constexpr int64_t kRoutingStreams = streams::kRouting;
constexpr int64_t kWiredStreams = streams::kWired;

constexpr int kRadioQueuePackets = 50;     // ns-2's interface queue
constexpr int kWiredQueuePackets = 50;     // a wired link's drop-tail default
constexpr int kAccessQueuePackets = 1000;  // a dumbbell's access links: never the bottleneck
constexpr int kNs2ArpWaitMs = 100;         // ARP's wait for a reply under `arp: ns2` (set_arp)
constexpr int kDsrAckTimeoutMs = 500;      // DSR's passive-acknowledgement timeout (below)
constexpr double kNeverS = 1e9;            // s: beyond any run (a duration is at most 10^6 s, spec_values.h)

// ns-3's DSR scans its send buffer at t = 100 s (fixed in its constructor),
// then every SendBuffInterval (500 s), and parses every buffered packet that
// now has a route as if it began with a DSR header. A buffered packet is the
// transport's own (TCP or UDP header first): read as DSR's fixed header, a
// TCP segment's sequence number gives a payload length past the packet's
// end, and ns-3 aborts reading it (issue 27: Freeze-Probing over DSR at
// 20 m/s, seed 2, at t = 100 s; any run with a TCP segment in a send buffer
// at that instant). The scan is moved beyond any run (SendBuffTimerExpire,
// public, re-arms the timer at SendBuffInterval and scans an empty buffer at
// t = 0). A packet waiting for a route is sent when a route reply arrives,
// as before, or dropped after the send buffer's timeout (30 s).
void stop_dsr_send_buffer_scan(const NodeContainer& nodes) {
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    Ptr<ns3::dsr::DsrRouting> dsr = nodes.Get(i)->GetObject<ns3::dsr::DsrRouting>();
    NS_ABORT_MSG_IF(!dsr, "DSR is not installed on node " << i);
    dsr->SetAttribute("SendBuffInterval", TimeValue(Seconds(kNeverS)));
    Simulator::ScheduleNow(&ns3::dsr::DsrRouting::SendBuffTimerExpire, dsr);
  }
}

// ns-2's setdest (CMU), as Broch et al. (MobiCom 1998) describe their runs:
// each node starts where a standing manet's node would (the same draw), stays
// there for `pause`, walks to a uniform random point of the area at a speed uniform
// from 0 to the maximum, pauses again, and so on. No warm-up: the slow legs
// last longest, so the mean speed decays over the run (the steady-state
// `rwp` model does not). ns-3's RandomWaypointMobilityModel moves this way
// (a pause first); each node draws its destinations from its own allocator.
void walk_as_setdest(const Spec& spec, const NodeContainer& walkers, const std::vector<Vector>& starts) {
  const TopologySpec& t = spec.topology;
  for (uint32_t k = 0; k < walkers.GetN(); ++k) {
    auto destinations = CreateObject<RandomRectanglePositionAllocator>();
    destinations->SetX(
        CreateObjectWithAttributes<UniformRandomVariable>("Min", DoubleValue(0), "Max", DoubleValue(t.width_m)));
    destinations->SetY(
        CreateObjectWithAttributes<UniformRandomVariable>("Min", DoubleValue(0), "Max", DoubleValue(t.height_m)));
    auto walk = CreateObject<RandomWaypointMobilityModel>();
    walk->SetAttribute("Speed", PointerValue(CreateObjectWithAttributes<UniformRandomVariable>(
                                    "Min", DoubleValue(0), "Max", DoubleValue(spec.mobility.max_speed))));
    walk->SetAttribute("Pause", PointerValue(CreateObjectWithAttributes<ConstantRandomVariable>(
                                    "Constant", DoubleValue(spec.mobility.pause_s))));
    walk->SetAttribute("PositionAllocator", PointerValue(destinations));
    walkers.Get(k)->AggregateObject(walk);
    walk->SetPosition(starts[k]);
  }
  MobilityHelper().AssignStreams(walkers, kMobilityStreams + 2);
}

// Positions (or random motion) for every node no script moves.
void place_unscripted(const Spec& spec, NodeContainer& nodes) {
  const auto scripted = [&](uint32_t i) { return spec.mobility.scripted(static_cast<int>(i)); };
  // Nodes first..first+at.size()-1 stand at `at` through `helper`, each
  // unless a script moves it.
  const auto stand = [&](MobilityHelper& helper, uint32_t first, const std::vector<Vector>& at) {
    auto positions = CreateObject<ListPositionAllocator>();
    NodeContainer standing;
    for (uint32_t k = 0; k < at.size(); ++k) {
      if (scripted(first + k)) continue;
      positions->Add(at[k]);
      standing.Add(nodes.Get(first + k));
    }
    helper.SetPositionAllocator(positions);
    helper.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    helper.Install(standing);
  };
  const TopologySpec& t = spec.topology;
  MobilityHelper fixed;
  std::vector<Vector> at;
  for (const auto& [px, py] : t.positions) at.emplace_back(px, py, 0);
  if (t.kind == TopologyKind::kManet) {
    // Nodes 0..k-1 stand where the spec puts them; the others are placed (or
    // move) at random over the area.
    stand(fixed, 0, at);
    const auto first_free = static_cast<uint32_t>(t.positions.size());
    NodeContainer free_nodes;
    for (uint32_t i = first_free; i < nodes.GetN(); ++i) {
      if (!scripted(i)) free_nodes.Add(nodes.Get(i));
    }
    MobilityHelper mobility;
    if (spec.mobility.model == "rwp") {
      // Steady-state random waypoint (Navidi & Camp): positions, speeds and
      // pauses start from the stationary distribution, so the mean speed does
      // not decay over the run.
      mobility.SetMobilityModel(
          "ns3::SteadyStateRandomWaypointMobilityModel", "MinSpeed", DoubleValue(spec.mobility.min_speed), "MaxSpeed",
          DoubleValue(spec.mobility.max_speed), "MinPause", DoubleValue(spec.mobility.pause_s), "MaxPause",
          DoubleValue(spec.mobility.pause_s), "MinX", DoubleValue(0), "MaxX", DoubleValue(t.width_m), "MinY",
          DoubleValue(0), "MaxY", DoubleValue(t.height_m), "Z", DoubleValue(0));
      mobility.Install(free_nodes);
      mobility.AssignStreams(free_nodes, kMobilityStreams);
      return;
    }
    // Every free node's place is drawn, scripted or not, so a script on one
    // node leaves the others where they were.
    auto x = CreateObject<UniformRandomVariable>();
    auto y = CreateObject<UniformRandomVariable>();
    x->SetStream(kMobilityStreams);
    y->SetStream(kMobilityStreams + 1);
    std::vector<Vector> drawn;
    for (uint32_t i = first_free; i < nodes.GetN(); ++i) {
      drawn.emplace_back(x->GetValue(0, t.width_m), y->GetValue(0, t.height_m), 0);
    }
    if (spec.mobility.model == "setdest") {
      std::vector<Vector> starts;
      for (uint32_t i = first_free; i < nodes.GetN(); ++i) {
        if (!scripted(i)) starts.push_back(drawn[i - first_free]);
      }
      walk_as_setdest(spec, free_nodes, starts);
    } else {
      stand(mobility, first_free, drawn);
    }
    return;
  }
  if (t.kind == TopologyKind::kDumbbell) {
    // Only the radio segment's nodes have radios: the gateway at the origin,
    // relay k at k spacings, the wireless receivers together one spacing past
    // the last relay; the wired nodes stand at the origin (no radio: unused).
    at.assign(static_cast<size_t>(t.node_count()), Vector(0, 0, 0));
    for (int k = 0; k < t.radio_hops; ++k)
      at[static_cast<size_t>(t.gateway() + k)] = Vector(k * t.radio_spacing_m, 0, 0);
    for (size_t i = 0; i < spec.flows.size(); ++i) {
      if (spec.flows[i].wireless)
        at[static_cast<size_t>(spec.flows[i].dst)] = Vector(t.radio_hops * t.radio_spacing_m, 0, 0);
    }
  } else if (t.kind == TopologyKind::kGrid) {
    for (int r = 0; r < t.rows; ++r) {
      for (int c = 0; c < t.cols; ++c) at.emplace_back(c * t.spacing_m, r * t.spacing_m, 0);
    }
  } else if (t.kind != TopologyKind::kPositions) {  // chain, and the wired line (positions unused)
    // A wired head (node 0, no radio) stands one spacing before the chain.
    const int first = t.wired_head ? -1 : 0;
    for (int i = first; i <= t.hops; ++i) at.emplace_back(i * t.spacing_m, 0, 0);
  }
  stand(fixed, 0, at);
}

// The nodes a script moves: straight legs between the spec's waypoints
// (ns-3's WaypointMobilityModel), or an ns-2 movement file replayed by ns-3's
// Ns2MobilityHelper on the nodes it names.
void place_scripted(const Spec& spec, NodeContainer& nodes) {
  const MobilitySpec& m = spec.mobility;
  if (m.model == "waypoints") {
    for (const auto& [node, points] : m.waypoints) {
      auto model = CreateObject<WaypointMobilityModel>();
      model->SetPosition(Vector(points.front().x_m, points.front().y_m, 0));  // until the first waypoint
      for (const Waypoint& w : points) model->AddWaypoint(ns3::Waypoint(Seconds(w.t_s), Vector(w.x_m, w.y_m, 0)));
      nodes.Get(static_cast<uint32_t>(node))->AggregateObject(model);
    }
  } else if (m.model == "ns2") {
    // The helper reads $node_(i) as the i-th node of the range it is given:
    // all of them, in id order. It moves only those the file names.
    Ns2MobilityHelper(m.ns2_file).Install(nodes.Begin(), nodes.End());
  }
}

void count_queue_drops(NetDeviceContainer& devices, Scenario& s) {
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    Ptr<NetDevice> dev = devices.Get(i);
    Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> qd = tc->GetRootQueueDiscOnDevice(dev);
    const uint32_t node = dev->GetNode()->GetId();
    // Overflows (and RED's drops) come before the enqueue, but for the tail
    // packet a routing packet pushed out (network/pri_queue_disc.h); any
    // other drop after the dequeue is the link-failure flush, counted apart.
    qd->TraceConnectWithoutContext(
        "DropBeforeEnqueue",
        MakeBoundCallback(
            +[](int64_t* counter, Ptr<const QueueDiscItem>, const char*) { ++*counter; }, &s.drops.ifq_per_node[node]));
    qd->TraceConnectWithoutContext("DropAfterDequeue",
                                   MakeBoundCallback(
                                       +[](int64_t* counter, Ptr<const QueueDiscItem>, const char* reason) {
                                         if (std::strcmp(reason, kRoutingFirstOverflow) == 0) ++*counter;
                                       },
                                       &s.drops.ifq_per_node[node]));
  }
}

// The neighbour's address on a subnet `from` shares with it, and `from`'s interface on it.
std::pair<Ipv4Address, uint32_t> hop_towards(Ptr<Ipv4> from, Ptr<Ipv4> neighbour) {
  for (uint32_t k = 1; k < neighbour->GetNInterfaces(); ++k) {
    const Ipv4Address there = neighbour->GetAddress(k, 0).GetLocal();
    for (uint32_t m = 1; m < from->GetNInterfaces(); ++m) {
      const Ipv4InterfaceAddress here = from->GetAddress(m, 0);
      if (here.GetMask().IsMatch(here.GetLocal(), there)) return {there, m};
    }
  }
  throw std::logic_error("chain routes: a node shares no subnet with its neighbour");
}

// Static routes along a chain: node i reaches every node beyond it through
// i + 1 and every node before it through i - 1 (over the wired head's link
// between nodes 0 and 1 where there is one). No route discovery and no route
// errors: a broken link only loses what the MAC gives up on.
void add_chain_routes(Scenario& s) {
  Ipv4StaticRoutingHelper helper;
  const uint32_t n = s.nodes.GetN();
  for (uint32_t i = 0; i < n; ++i) {
    Ptr<Ipv4> ipv4 = s.nodes.Get(i)->GetObject<Ipv4>();
    Ptr<Ipv4StaticRouting> routes = helper.GetStaticRouting(ipv4);
    const auto towards = [&](uint32_t neighbour) {
      return hop_towards(ipv4, s.nodes.Get(neighbour)->GetObject<Ipv4>());
    };
    std::pair<Ipv4Address, uint32_t> back;
    std::pair<Ipv4Address, uint32_t> on;
    if (i > 0) back = towards(i - 1);
    if (i + 1 < n) on = towards(i + 1);
    for (uint32_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const auto& [via, interface] = j > i ? on : back;
      routes->AddHostRouteTo(s.addresses[j], via, interface);
    }
  }
}

NetDeviceContainer add_link(Scenario& s, uint32_t a, uint32_t b, int64_t bandwidth_bps, double delay_s,
                            const QueueSpec& queue, uint32_t subnet);

// The radio's interface queues (before any address is assigned) and the
// counters of their drops and of the MAC's given-up frames.
void equip_radio(const Spec& spec, NetDeviceContainer& devices, Scenario& s) {
  install_queue(devices, spec.radio.queue, kRadioDataRateBps, 0, kRadioQueuePackets,
                spec.needs_latp_agents() ? "mantra::LatpQueueDisc" : "mantra::PriQueueDisc",
                spec.radio.routing_first ? routing_packets_of(spec.routing) : RoutingPackets::kNone);
  count_queue_drops(devices, s);
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    auto mac = DynamicCast<WifiNetDevice>(devices.Get(i))->GetMac();
    mac->TraceConnectWithoutContext("DroppedMpdu",
                                    MakeBoundCallback(
                                        +[](int64_t* counter, WifiMacDropReason reason, Ptr<const WifiMpdu>) {
                                          if (reason == WIFI_MAC_DROP_REACHED_RETRY_LIMIT) ++*counter;
                                        },
                                        &s.drops.mac_retry));
  }
  if (spec.link_failure_flush) s.link_failure_flush.install(devices);
}

// ARP as ns-2's (`arp: ns2`): an entry never expires, and a neighbour that
// did not answer is not shunned (ns-3 drops everything to it for 100 s after
// three unanswered requests); each request waits 100 ms for its reply, not
// 1 s, so a failure is known within about 400 ms (ns-2 knew it at the third
// packet that found the neighbour unresolved). Our DSR and our AODV hear of a
// failure as a broken link. `arp: ns3` puts ns-3's own defaults back: they are
// process-wide, and a process may build runs of both kinds one after another.
// Set before any ARP cache exists.
void set_arp(const Spec& spec) {
  const std::pair<std::string, Time> ns2_values[] = {{"AliveTimeout", Seconds(kNeverS)},
                                                     {"DeadTimeout", Seconds(0)},
                                                     {"WaitReplyTimeout", MilliSeconds(kNs2ArpWaitMs)}};
  for (const auto& [name, ns2_value] : ns2_values) {
    if (spec.arp == "ns2") {
      Config::SetDefault("ns3::ArpCache::" + name, TimeValue(ns2_value));
      continue;
    }
    TypeId::AttributeInformation ns3;
    if (!ArpCache::GetTypeId().LookupAttributeByName(name, &ns3)) throw std::logic_error("ArpCache has no " + name);
    Config::SetDefault("ns3::ArpCache::" + name, *ns3.originalInitialValue);
  }
}

void build_wireless(const Spec& spec, Scenario& s) {
  const TopologySpec& t = spec.topology;
  // With a wired head (RSC-VAR Fig. 5) node 0 is a wired host and the radio
  // starts at node 1.
  NodeContainer radio_nodes;
  for (uint32_t i = t.wired_head ? 1 : 0; i < s.nodes.GetN(); ++i) radio_nodes.Add(s.nodes.Get(i));
  NetDeviceContainer devices =
      install_radio(spec.radio, spec.channel_error, &s.drops.channel_error, radio_nodes, kRadioStreams);
  InternetStackHelper internet;
  if (spec.routing == "aodv-ns3") {
    AodvHelper aodv;  // hellos on: one-way UDP needs them to see first-hop breaks
    internet.SetRoutingHelper(aodv);
    internet.Install(s.nodes);
    aodv.AssignStreams(s.nodes, kRoutingStreams);
  } else if (spec.routing == "static") {  // a chain: routes set below, once addresses exist
    internet.Install(s.nodes);
  } else if (spec.routing == "oracle") {  // shortest paths on the true positions (oracle_routing.h)
    internet.SetRoutingHelper(OracleRoutingHelper(std::make_shared<OracleRoutes>(s, spec.radio.rx_range_m)));
    internet.Install(s.nodes);
  } else if (spec.routing == "aodv") {  // ours (aodv/aodv_agent.h); its agents join once addresses exist
    internet.SetRoutingHelper(aodv::AodvRoutingHelper());
    internet.Install(s.nodes);
  } else if (spec.routing == "dsr") {  // ours (dsr/dsr_agent.h); its agents join once addresses exist
    internet.SetRoutingHelper(dsr::DsrRoutingHelper());
    internet.Install(s.nodes);
  } else {  // dsr-ns3
    // ns-3's DSR link acknowledgements are an oracle (the receiver cancels the
    // sender's timer directly) that resends copies after 100 ms of IFQ backlog;
    // off, DSR falls back to passive acknowledgements (ns3-notes.md §3). DSR
    // finds a broken link by that timeout, not from the MAC: a packet that
    // waits longer than it behind the 50-packet interface queue (about 6 ms a
    // packet at 2 Mb/s with RTS/CTS, plus retries) would break a working link,
    // so the timeout is 500 ms instead of ns-3's 100 ms; one try, then
    // MaintenanceRetries (2) network-layer retransmissions as ns-3 sets them.
    Config::SetDefault("ns3::dsr::DsrRouting::LinkAcknowledgment", BooleanValue(false));
    Config::SetDefault("ns3::dsr::DsrRouting::PassiveAckTimeout", TimeValue(MilliSeconds(kDsrAckTimeoutMs)));
    internet.Install(s.nodes);
    DsrHelper dsr;
    DsrMainHelper dsr_main;
    dsr_main.Install(dsr, s.nodes);
    stop_dsr_send_buffer_scan(s.nodes);
  }
  equip_radio(spec, devices, s);
  Ipv4AddressHelper ip;
  ip.SetBase("10.0.0.0", "255.255.0.0");
  Ipv4InterfaceContainer ifaces = ip.Assign(devices);
  if (t.wired_head) s.addresses.emplace_back();  // node 0's: its wired link's, below
  for (uint32_t i = 0; i < ifaces.GetN(); ++i) s.addresses.push_back(ifaces.GetAddress(i));
  if (t.wired_head) add_link(s, 0, 1, t.head_bandwidth_bps, t.head_delay_s, t.head_queue, 0);
  if (spec.routing == "static") add_chain_routes(s);
  if (spec.routing == "dsr") {
    s.dsr_nodes = dsr::install_dsr(radio_nodes, devices, dsr::DsrOptions{spec.dsr_cache_replies}, kRoutingStreams);
  }
  if (spec.routing == "aodv") s.aodv_nodes = aodv::install_aodv(radio_nodes, devices, kRoutingStreams);
}

// One point-to-point link between nodes a and b with `queue` at both ends and
// a one-packet device queue under it (so the queue disc holds the backlog),
// addressed in its own /24 subnet `subnet` (10.1.0.0 + 256 subnet).
NetDeviceContainer add_link(Scenario& s, uint32_t a, uint32_t b, int64_t bandwidth_bps, double delay_s,
                            const QueueSpec& queue, uint32_t subnet) {
  PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(bandwidth_bps))));
  p2p.SetChannelAttribute("Delay", TimeValue(Seconds(delay_s)));
  p2p.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1p")));
  NetDeviceContainer link = p2p.Install(s.nodes.Get(a), s.nodes.Get(b));
  install_queue(link, queue, static_cast<double>(bandwidth_bps), delay_s, kWiredQueuePackets);
  count_queue_drops(link, s);
  Ipv4AddressHelper ip;
  ip.SetBase(Ipv4Address((10u << 24) + (1u << 16) + (subnet << 8)), "255.255.255.0");
  Ipv4InterfaceContainer ifaces = ip.Assign(link);
  if (s.addresses[a] == Ipv4Address()) s.addresses[a] = ifaces.GetAddress(0);
  if (s.addresses[b] == Ipv4Address()) s.addresses[b] = ifaces.GetAddress(1);
  return link;
}

// Bernoulli loss of `rate` per packet arriving at `device`, each counted in `counter`.
void add_packet_loss(Ptr<NetDevice> device, double rate, int64_t stream, int64_t* counter) {
  auto em = CreateObject<RateErrorModel>();
  em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
  em->SetAttribute("ErrorRate", DoubleValue(rate));
  em->AssignStreams(stream);
  device->SetAttribute("ReceiveErrorModel", PointerValue(em));
  device->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(
                                                      +[](int64_t* n, Ptr<const Packet>) { ++*n; }, counter));
}

void build_wired(const Spec& spec, Scenario& s) {
  const TopologySpec& t = spec.topology;
  InternetStackHelper internet;
  internet.Install(s.nodes);
  s.addresses.assign(s.nodes.GetN(), Ipv4Address());
  int64_t stream = kWiredStreams;
  for (int h = 0; h < t.hops; ++h) {
    const auto a = static_cast<uint32_t>(h);
    NetDeviceContainer link = add_link(s, a, a + 1, t.bandwidth_bps, t.delay_s, t.queue, a);
    if (t.loss > 0) {
      for (uint32_t d = 0; d < 2; ++d) add_packet_loss(link.Get(d), t.loss, stream++, &s.drops.channel_error.count);
    }
  }
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

// The dumbbell's radio segment (TF-WMFC Fig. 9 over 802.11): the gateway on
// an access link to router 1, then radio_hops - 1 relays, then the wireless
// flows' receivers (which have no access link). Static routes, which the
// nodes consult before global routing (InternetStackHelper's list routing:
// static at priority 0, global at -10): along the segment towards each
// wireless receiver, and back towards the gateway by default. Global routing
// reaches the segment's subnet through the gateway, the only radio node on a
// wire, but sees the radio as one shared link; the static routes keep packets
// to the segment's hops.
void add_radio_segment(const Spec& spec, Scenario& s) {
  const TopologySpec& t = spec.topology;
  NodeContainer segment;  // gateway and relays, in order
  for (int k = 0; k < t.radio_hops; ++k) segment.Add(s.nodes.Get(static_cast<uint32_t>(t.gateway() + k)));
  NodeContainer receivers;
  for (const FlowSpec& f : spec.flows) {
    if (f.wireless) receivers.Add(s.nodes.Get(static_cast<uint32_t>(f.dst)));
  }
  NodeContainer radio_nodes(segment, receivers);
  NetDeviceContainer devices =
      install_radio(spec.radio, spec.channel_error, &s.drops.channel_error, radio_nodes, kRadioStreams);
  equip_radio(spec, devices, s);
  Ipv4AddressHelper ip;
  ip.SetBase("10.0.0.0", "255.255.0.0");  // the wired links are in 10.1.0.0/16 and above
  Ipv4InterfaceContainer radio = ip.Assign(devices);
  for (uint32_t k = 0; k < radio_nodes.GetN(); ++k) s.addresses[radio_nodes.Get(k)->GetId()] = radio.GetAddress(k);
  QueueSpec access;
  access.limit = kAccessQueuePackets;
  add_link(s, 1, static_cast<uint32_t>(t.gateway()), t.access_bandwidth_bps, t.access_delay_s, access,
           1 + 2 * static_cast<uint32_t>(t.pairs));
  Ipv4StaticRoutingHelper helper;
  const auto hops = static_cast<uint32_t>(t.radio_hops);
  const auto routes = [&](uint32_t radio_index) {
    return helper.GetStaticRouting(radio_nodes.Get(radio_index)->GetObject<Ipv4>());
  };
  const auto interface = [&](uint32_t radio_index) {
    Ptr<Ipv4> ipv4 = radio_nodes.Get(radio_index)->GetObject<Ipv4>();
    return static_cast<uint32_t>(ipv4->GetInterfaceForDevice(devices.Get(radio_index)));
  };
  for (uint32_t k = 0; k < hops; ++k) {
    for (uint32_t r = hops; r < radio_nodes.GetN(); ++r) {
      const uint32_t next = k + 1 < hops ? k + 1 : r;
      routes(k)->AddHostRouteTo(radio.GetAddress(r), radio.GetAddress(next), interface(k));
    }
    if (k > 0) routes(k)->SetDefaultRoute(radio.GetAddress(k - 1), interface(k));
  }
  for (uint32_t r = hops; r < radio_nodes.GetN(); ++r)
    routes(r)->SetDefaultRoute(radio.GetAddress(hops - 1), interface(r));
}

// The dumbbell (TF-WMFC Figs. 3, 6, 9): routers 0 and 1 joined by the
// bottleneck (its queue at both ends); flow i's sender, host 2 + i, on an
// access link to router 0, its receiver, host 2 + pairs + i, on one to router
// 1. Access links have drop-tail queues of 1000 packets and 10x the
// bottleneck's rate by default, so they never bottleneck. A flow's
// access_loss drops packets by Bernoulli trials as they reach its receiver
// (the paper's lossy wireless hop; the reports going back are not lost).
void build_dumbbell(const Spec& spec, Scenario& s) {
  const TopologySpec& t = spec.topology;
  InternetStackHelper internet;
  internet.Install(s.nodes);
  // A router with hundreds of access links would look for a forwarded
  // packet's destination among all its interfaces' addresses (the weak end
  // system model), which took a third of the run; no packet is ever for a
  // router, and a host has one interface, so the strong model changes nothing.
  for (uint32_t router = 0; router < 2; ++router) {
    s.nodes.Get(router)->GetObject<Ipv4L3Protocol>()->SetAttribute("StrongEndSystemModel", BooleanValue(true));
  }
  s.addresses.assign(s.nodes.GetN(), Ipv4Address());
  add_link(s, 0, 1, t.bandwidth_bps, t.delay_s, t.queue, 0);
  QueueSpec access;
  access.limit = kAccessQueuePackets;
  const auto pairs = static_cast<uint32_t>(t.pairs);
  for (uint32_t i = 0; i < pairs; ++i) {
    add_link(s, 2 + i, 0, t.access_bandwidth_bps, t.access_delay_s, access, 1 + 2 * i);
    if (spec.flows[i].wireless) continue;  // its receiver is on the radio segment
    NetDeviceContainer last =
        add_link(s, 1, 2 + pairs + i, t.access_bandwidth_bps, t.access_delay_s, access, 2 + 2 * i);
    const double loss = spec.flows[i].access_loss;
    if (loss > 0) add_packet_loss(last.Get(1), loss, kWiredStreams + i, &s.drops.channel_error.count);
  }
  if (t.radio_hops > 0) add_radio_segment(spec, s);
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

// Counts the routing protocol's packets as each node's IP sends them (its Tx
// trace: every packet out of an interface, originated or forwarded).
void count_routing_traffic(Scenario& s, RoutingPackets kind) {
  s.routing_traffic.kind = kind;
  if (kind == RoutingPackets::kNone) return;
  for (uint32_t i = 0; i < s.nodes.GetN(); ++i) {
    s.nodes.Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "Tx", MakeBoundCallback(
                  +[](RoutingTraffic* traffic, Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t) {
                    // The IP header (20 bytes, no options) and the payload's first bytes, read in
                    // place: no copy of every packet every node sends.
                    constexpr size_t kIpHeaderBytes = 20;
                    uint8_t head[kIpHeaderBytes + kRoutingPacketHeadBytes];
                    const uint32_t n = packet->CopyData(head, sizeof head);
                    if (n < kIpHeaderBytes || head[0] != 0x45) return;
                    const std::span payload(head + kIpHeaderBytes, n - kIpHeaderBytes);
                    if (!is_routing_packet(traffic->kind, head[9], payload)) return;
                    ++traffic->packets;
                    traffic->bytes += packet->GetSize();
                  },
                  &s.routing_traffic));
  }
}

void count_route_drops(Scenario& s) {
  for (uint32_t i = 0; i < s.nodes.GetN(); ++i) {
    auto ipv4 = s.nodes.Get(i)->GetObject<Ipv4L3Protocol>();
    ipv4->TraceConnectWithoutContext(
        "Drop", MakeBoundCallback(
                    +[](int64_t* counter, const Ipv4Header&, Ptr<const Packet>, Ipv4L3Protocol::DropReason reason,
                        Ptr<Ipv4>, uint32_t) {
                      if (reason == Ipv4L3Protocol::DROP_NO_ROUTE || reason == Ipv4L3Protocol::DROP_ROUTE_ERROR)
                        ++*counter;
                    },
                    &s.drops.no_route));
    // ARP: packets to a neighbour that never answered, or beyond its pending queue.
    const auto count = MakeBoundCallback(
        +[](int64_t* counter, Ptr<const Packet>) { ++*counter; }, &s.drops.arp);
    s.nodes.Get(i)->GetObject<ArpL3Protocol>()->TraceConnectWithoutContext("Drop", count);
    for (uint32_t k = 0; k < ipv4->GetNInterfaces(); ++k) {
      if (Ptr<ArpCache> cache = ipv4->GetInterface(k)->GetArpCache()) cache->TraceConnectWithoutContext("Drop", count);
    }
  }
}

}  // namespace

void build_scenario(const Spec& spec, Scenario& s) {
  streams::seed_run(spec.seed);
  configure_tcp_defaults();
  s.nodes.Create(static_cast<uint32_t>(spec.topology.node_count()));
  s.drops.ifq_per_node.assign(s.nodes.GetN(), 0);
  place_unscripted(spec, s.nodes);
  place_scripted(spec, s.nodes);
  set_arp(spec);
  if (spec.topology.kind == TopologyKind::kP2p)
    build_wired(spec, s);
  else if (spec.topology.kind == TopologyKind::kDumbbell)
    build_dumbbell(spec, s);
  else
    build_wireless(spec, s);
  count_route_drops(s);
  count_routing_traffic(s, routing_packets_of(spec.routing));
}

}  // namespace mantra::sim
