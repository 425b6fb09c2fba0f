#include "apps/flow_apps.h"

#include <ns3/object.h>

#include <stdexcept>

#include "apps/endpoint_app.h"
#include "apps/tcp_flow.h"
#include "mantra/registry.h"

namespace mantra::sim {
namespace {

ns3::Ptr<FlowApp> core_app(const FlowKind& kind, const FlowContext& c, EndpointApp::Role role) {
  // The spec parser already built both endpoints once: their parameters hold.
  ns3::Ptr<EndpointApp> app;
  if (role == EndpointApp::Role::kSender) {
    auto made = mantra::make_sender(kind.name, c.flow.sender_params());
    if (!made.endpoint) throw std::runtime_error("flow endpoints: " + made.error);
    app = ns3::CreateObject<EndpointApp>(std::move(made.endpoint), role, c.port, c.destination, c.metrics, c.index,
                                         c.oracle);
  } else {
    auto made = mantra::make_receiver(kind.name, c.flow.receiver_params);
    if (!made.endpoint) throw std::runtime_error("flow endpoints: " + made.error);
    app = ns3::CreateObject<EndpointApp>(std::move(made.endpoint), role, c.port, ns3::Ipv4Address(), c.metrics, c.index,
                                         c.oracle);
  }
  if (c.media) app->carry_media(c.media, c.flow.media, c.flow.packet_size);
  return app;
}

}  // namespace

ns3::Ptr<FlowApp> make_sender_app(const FlowKind& kind, const FlowContext& context) {
  if (kind.tcp()) return ns3::CreateObject<TcpSourceApp>(context, kind);
  return core_app(kind, context, EndpointApp::Role::kSender);
}

ns3::Ptr<FlowApp> make_receiver_app(const FlowKind& kind, const FlowContext& context) {
  if (kind.tcp()) return ns3::CreateObject<TcpSinkApp>(context, kind);
  return core_app(kind, context, EndpointApp::Role::kReceiver);
}

}  // namespace mantra::sim
