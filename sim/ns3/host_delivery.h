// netsched-ns3 — a machine's port that hands the TCP segments addressed to
// the machine straight to its TCP: what ns-3 does with them (Node's
// protocol handlers, the traffic-control layer, Ipv4L3Protocol::Receive,
// the routing protocol's RouteInput, Ipv4L3Protocol::LocalDeliver) without
// the three packet copies, four callbacks made per packet and handler
// scans on the way. Every other packet (a segment to forward, UDP, a
// fragment, checksums enabled) takes ns-3's path from
// Ipv4L3Protocol::Receive on. No trace of that path is connected and a
// point-to-point interface has no ARP cache, so the segments reach the
// same sockets with the same headers, synchronously as before: the same
// events in the same order (tests/cli_ns3.sh compares against
// NETSCHED_NS3_STOCK=1, where ns-3's path takes every packet).
#ifndef NETSCHED_NS3_HOST_DELIVERY_H
#define NETSCHED_NS3_HOST_DELIVERY_H

#include <cstdint>

#include "ns3/address.h"
#include "ns3/ip-l4-protocol.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

namespace netsched_ns3 {

class HostDelivery {
public:
  // Makes `port`, interface `interface` (set up) of `ipv4` on a node whose
  // TCP is `tcp`, deliver as above; the objects outlive the simulation.
  HostDelivery(ns3::Ptr<ns3::NetDevice> port, uint32_t interface, ns3::Ptr<ns3::Ipv4L3Protocol> ipv4,
               ns3::Ptr<ns3::IpL4Protocol> tcp);

private:
  bool arrival(ns3::Ptr<ns3::NetDevice> port, ns3::Ptr<const ns3::Packet> packet, uint16_t protocol,
               const ns3::Address &from);
  uint32_t interface_;
  ns3::Ipv4L3Protocol *ipv4_;            // owned by the node
  ns3::IpL4Protocol *tcp_;               // owned by the node
  ns3::Ptr<ns3::Ipv4Interface> itf_;     // what LocalDeliver passes up
};

}  // namespace netsched_ns3

#endif
