// netsched-ns3 — a trimmed switch (see switch_forwarding.h).
#include "switch_forwarding.h"
#include "network.h"

#include "ns3/callback.h"

namespace netsched_ns3 {

namespace {
constexpr uint16_t kIpv4 = 0x0800;  // the protocol number the ports carry
}

SwitchForwarding::SwitchForwarding(const Network &net) : net_(net), out_((size_t)net.p(), nullptr) {}

void SwitchForwarding::add(int dest, ns3::Ptr<ns3::NetDevice> port) { out_[(size_t)dest] = ns3::PeekPointer(port); }

void SwitchForwarding::attach(ns3::Ptr<ns3::NetDevice> port) {
  // Replaces the node's callback (Node::AddDevice): no protocol handler,
  // no traffic-control layer, no IP.
  port->SetReceiveCallback(ns3::MakeCallback(&SwitchForwarding::forward_arrival, this));
}

ns3::NetDevice *SwitchForwarding::port_to(ns3::Ipv4Address to) const {
  int m = net_.machine_at_address(to);
  return m < 0 ? nullptr : out_[(size_t)m];
}

bool SwitchForwarding::forward_arrival(ns3::Ptr<ns3::NetDevice>,
                                       ns3::Ptr<const ns3::Packet> packet, uint16_t protocol,
                                       const ns3::Address &) {
  // The IPv4 header starts the packet (the port removed PPP's): the
  // destination is its bytes 16..19, in network order.
  uint8_t header[20];
  if (protocol != kIpv4 || packet->CopyData(header, sizeof header) != sizeof header)
    return false;
  ns3::Ipv4Address to((uint32_t)header[16] << 24 | (uint32_t)header[17] << 16 |
                      (uint32_t)header[18] << 8 | header[19]);
  ns3::NetDevice *out = port_to(to);
  if (out == nullptr)
    return false;
  // A full port's drop-tail queue drops it (counted by the queue).
  // Point-to-point ports ignore the link-layer destination.
  // The packet itself, not a copy: the arrival port hands over a packet of
  // its own (PointToPointNetDevice::Receive keeps a copy for its traces)
  // and never reads it after this callback, so nothing else sees it change.
  static const ns3::Address kAnyone;
  out->Send(ns3::ConstCast<ns3::Packet>(packet), kAnyone, kIpv4);
  return true;
}

}  // namespace netsched_ns3
