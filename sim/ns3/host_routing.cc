// netsched-ns3 — host routes indexed by destination (see host_routing.h).
// RouteInput and RouteOutput decide as ns-3 3.37's Ipv4StaticRouting does
// for unicast host routes: local delivery first, then the error callback
// where the interface does not forward, then the route or none.
#include "host_routing.h"

#include <ostream>

#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"

namespace netsched_ns3 {

NS_OBJECT_ENSURE_REGISTERED(HostRouting);

ns3::TypeId HostRouting::GetTypeId() {
  static ns3::TypeId tid = ns3::TypeId("netsched_ns3::HostRouting")
                               .SetParent<ns3::Ipv4RoutingProtocol>()
                               .SetGroupName("Internet")
                               .AddConstructor<HostRouting>();
  return tid;
}

void HostRouting::add(ns3::Ipv4Address dest, ns3::Ipv4Address gateway, uint32_t interface) {
  auto route = ns3::Create<ns3::Ipv4Route>();
  route->SetDestination(dest);
  // One address per interface here: Ipv4StaticRouting's source selection
  // takes it too.
  route->SetSource(ipv4_->GetAddress(interface, 0).GetLocal());
  route->SetGateway(gateway);
  route->SetOutputDevice(ipv4_->GetNetDevice(interface));
  hops_[dest.Get()] = Hop{ gateway, interface, route };
}

ns3::Ptr<ns3::Ipv4Route> HostRouting::route_to(ns3::Ipv4Address dest) const {
  auto it = hops_.find(dest.Get());
  return it == hops_.end() ? nullptr : it->second.route;
}

ns3::Ptr<ns3::Ipv4Route> HostRouting::RouteOutput(ns3::Ptr<ns3::Packet>, const ns3::Ipv4Header &header,
                                                  ns3::Ptr<ns3::NetDevice>,
                                                  ns3::Socket::SocketErrno &sockerr) {
  ns3::Ptr<ns3::Ipv4Route> route = route_to(header.GetDestination());
  sockerr = route ? ns3::Socket::ERROR_NOTERROR : ns3::Socket::ERROR_NOROUTETOHOST;
  return route;
}

bool HostRouting::RouteInput(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header &header,
                             ns3::Ptr<const ns3::NetDevice> idev, UnicastForwardCallback ucb,
                             MulticastForwardCallback, LocalDeliverCallback lcb,
                             ErrorCallback ecb) {
  int32_t iif = ipv4_->GetInterfaceForDevice(idev);
  if (iif < 0 || header.GetDestination().IsMulticast())
    return false;
  if (ipv4_->IsDestinationAddress(header.GetDestination(), (uint32_t)iif)) {
    if (lcb.IsNull())
      return false;
    lcb(p, header, (uint32_t)iif);
    return true;
  }
  if (!ipv4_->IsForwarding((uint32_t)iif)) {
    ecb(p, header, ns3::Socket::ERROR_NOROUTETOHOST);
    return true;
  }
  ns3::Ptr<ns3::Ipv4Route> route = route_to(header.GetDestination());
  if (!route)
    return false;
  ucb(route, p, header);
  return true;
}

void HostRouting::PrintRoutingTable(ns3::Ptr<ns3::OutputStreamWrapper> stream, ns3::Time::Unit) const {
  std::ostream &os = *stream->GetStream();
  for (const auto &[dest, hop] : hops_)
    os << ns3::Ipv4Address(dest) << " via " << hop.gateway << " interface " << hop.interface << "\n";
}

void HostRouting::DoDispose() {
  ipv4_ = nullptr;
  hops_.clear();  // the routes hold the devices
  ns3::Ipv4RoutingProtocol::DoDispose();
}

ns3::Ptr<ns3::Ipv4RoutingProtocol> HostRoutingHelper::Create(ns3::Ptr<ns3::Node>) const {
  return ns3::CreateObject<HostRouting>();
}

}  // namespace netsched_ns3
