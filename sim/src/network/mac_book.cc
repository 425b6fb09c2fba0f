#include "network/mac_book.h"

#include <ns3/ipv4.h>

namespace mantra::sim {

std::shared_ptr<const MacBook> mac_book_of(const ns3::NodeContainer& nodes, const ns3::NetDeviceContainer& devices) {
  auto book = std::make_shared<MacBook>();
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    ns3::Ptr<ns3::Ipv4> ipv4 = nodes.Get(i)->GetObject<ns3::Ipv4>();
    const ns3::Ipv4Address address = ipv4->GetAddress(ipv4->GetInterfaceForDevice(devices.Get(i)), 0).GetLocal();
    (*book)[address.Get()] = ns3::Mac48Address::ConvertFrom(devices.Get(i)->GetAddress());
  }
  return book;
}

}  // namespace mantra::sim
