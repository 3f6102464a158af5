// netsched-ns3 — a trimmed switch: a node with point-to-point ports and no
// Internet stack, whose ports hand every arriving IPv4 packet straight to
// the output port towards its destination machine. What ns-3's IP
// forwarding does at a switch (Ipv4L3Protocol::Receive, a route lookup,
// IpForward, the traffic-control layer, the device) in one table look-up:
// the same output port, the same drop-tail device queue of the declared
// size, the same events in the same order, so the same results (tests/
// cli_ns3.sh compares against NETSCHED_NS3_STOCK=1, where switches run
// ns-3's IPv4 routing). The TTL is not decremented: no switch reads it.
#ifndef NETSCHED_NS3_SWITCH_FORWARDING_H
#define NETSCHED_NS3_SWITCH_FORWARDING_H

#include <cstdint>
#include <vector>

#include "ns3/address.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

namespace netsched_ns3 {

struct Network;

class SwitchForwarding {
public:
  // A switch of `net` (which outlives it) with no route yet.
  explicit SwitchForwarding(const Network &net);
  // Packets to machine `dest` leave by `port`.
  void add(int dest, ns3::Ptr<ns3::NetDevice> port);
  // Makes `port` (one of the switch's) forward what it receives.
  void attach(ns3::Ptr<ns3::NetDevice> port);
  // The port packets to `to` leave by; null when none (the packet is
  // dropped, as IP drops what it has no route for).
  ns3::NetDevice *port_to(ns3::Ipv4Address to) const;

private:
  bool forward_arrival(ns3::Ptr<ns3::NetDevice> in, ns3::Ptr<const ns3::Packet> packet,
                       uint16_t protocol, const ns3::Address &from);
  const Network &net_;
  std::vector<ns3::NetDevice *> out_;  // destination machine -> port (owned by the node)
};

}  // namespace netsched_ns3

#endif
