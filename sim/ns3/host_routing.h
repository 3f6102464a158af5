// netsched-ns3 — IP routing by a table of host routes indexed by
// destination: what ns-3's Ipv4StaticRouting does with the same host
// routes, without its scan of every route for the longest prefix on each
// packet (Ipv4StaticRouting::LookupStatic: p + links entries on a switch
// of a p-machine star, every hop of every packet).
#ifndef NETSCHED_NS3_HOST_ROUTING_H
#define NETSCHED_NS3_HOST_ROUTING_H

#include <cstdint>
#include <unordered_map>

#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-helper.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"

namespace netsched_ns3 {

class HostRouting : public ns3::Ipv4RoutingProtocol {
public:
  static ns3::TypeId GetTypeId();
  // Packets to `dest` leave by `interface` (set up already) towards `gateway`.
  void add(ns3::Ipv4Address dest, ns3::Ipv4Address gateway, uint32_t interface);

  ns3::Ptr<ns3::Ipv4Route> RouteOutput(ns3::Ptr<ns3::Packet> p, const ns3::Ipv4Header &header,
                                       ns3::Ptr<ns3::NetDevice> oif,
                                       ns3::Socket::SocketErrno &sockerr) override;
  bool RouteInput(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header &header,
                  ns3::Ptr<const ns3::NetDevice> idev, UnicastForwardCallback ucb,
                  MulticastForwardCallback mcb, LocalDeliverCallback lcb,
                  ErrorCallback ecb) override;
  void NotifyInterfaceUp(uint32_t) override {}
  void NotifyInterfaceDown(uint32_t) override {}
  void NotifyAddAddress(uint32_t, ns3::Ipv4InterfaceAddress) override {}
  void NotifyRemoveAddress(uint32_t, ns3::Ipv4InterfaceAddress) override {}
  void SetIpv4(ns3::Ptr<ns3::Ipv4> ipv4) override { ipv4_ = ipv4; }
  void PrintRoutingTable(ns3::Ptr<ns3::OutputStreamWrapper> stream,
                         ns3::Time::Unit unit) const override;

protected:
  void DoDispose() override;

private:
  struct Hop {
    ns3::Ipv4Address gateway;
    uint32_t interface;
    // Made once: ns-3 reads a route it is given and never changes it, so
    // every packet to the destination can share one (no allocation, no
    // interface look-ups per packet).
    ns3::Ptr<ns3::Ipv4Route> route;
  };
  ns3::Ptr<ns3::Ipv4Route> route_to(ns3::Ipv4Address dest) const;
  ns3::Ptr<ns3::Ipv4> ipv4_;
  std::unordered_map<uint32_t, Hop> hops_;
};

// Installs a HostRouting on each node given an Internet stack: the machines
// (InternetStackHelper::SetRoutingHelper).
class HostRoutingHelper : public ns3::Ipv4RoutingHelper {
public:
  HostRoutingHelper *Copy() const override { return new HostRoutingHelper(*this); }
  ns3::Ptr<ns3::Ipv4RoutingProtocol> Create(ns3::Ptr<ns3::Node> node) const override;
};

}  // namespace netsched_ns3

#endif
