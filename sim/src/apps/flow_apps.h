// Installs a flow's two sides: the app of its sender's kind on the source
// node and the app of its receiver's kind on the destination node. A core
// protocol's side is an EndpointApp around the core endpoint; a TCP
// variant's is a TcpSourceApp with the kind's congestion control, or a
// TcpSinkApp.
#pragma once

#include <ns3/ptr.h>

#include "apps/flow_app.h"
#include "apps/flow_kinds.h"

namespace mantra::sim {

ns3::Ptr<FlowApp> make_sender_app(const FlowKind& kind, const FlowContext& context);
ns3::Ptr<FlowApp> make_receiver_app(const FlowKind& kind, const FlowContext& context);

}  // namespace mantra::sim
