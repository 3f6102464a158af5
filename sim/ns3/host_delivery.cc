// netsched-ns3 — a machine's port delivering its TCP segments (see
// host_delivery.h). The tests below are those of ns-3 3.37's path for a
// unicast segment on an interface that is up.
#include "host_delivery.h"

#include "ns3/callback.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"

namespace netsched_ns3 {

namespace {
constexpr uint16_t kIpv4 = 0x0800;  // the protocol number the ports carry
constexpr uint8_t kTcp = 6;
}  // namespace

HostDelivery::HostDelivery(ns3::Ptr<ns3::NetDevice> port, uint32_t interface,
                           ns3::Ptr<ns3::Ipv4L3Protocol> ipv4, ns3::Ptr<ns3::IpL4Protocol> tcp)
    : interface_(interface), ipv4_(ns3::PeekPointer(ipv4)), tcp_(ns3::PeekPointer(tcp)),
      itf_(ipv4->GetInterface(interface)) {
  // Replaces the node's callback (Node::AddDevice), which led to the
  // traffic-control layer and from there to Ipv4L3Protocol::Receive.
  port->SetReceiveCallback(ns3::MakeCallback(&HostDelivery::arrival, this));
}

bool HostDelivery::arrival(ns3::Ptr<ns3::NetDevice> port, ns3::Ptr<const ns3::Packet> packet,
                           uint16_t protocol, const ns3::Address &from) {
  if (protocol != kIpv4)
    return false;  // as the node: no handler but IPv4's on a point-to-point port
  // The IPv4 header starts the packet: version and length (byte 0), flags
  // and fragment offset (6, 7), protocol (9), destination (16..19).
  uint8_t h[20];
  bool local_tcp = !ns3::Node::ChecksumEnabled() && itf_->IsUp() &&
                   packet->CopyData(h, sizeof h) == sizeof h && h[0] == 0x45 && h[9] == kTcp &&
                   (h[6] & 0x3f) == 0 && h[7] == 0;  // neither a fragment nor more to come
  ns3::Ipv4Address to((uint32_t)h[16] << 24 | (uint32_t)h[17] << 16 | (uint32_t)h[18] << 8 | h[19]);
  if (!local_tcp || to.IsMulticast() || !ipv4_->IsDestinationAddress(to, interface_)) {
    ipv4_->Receive(port, packet, protocol, from, port->GetAddress(), ns3::NetDevice::PACKET_HOST);
    return true;
  }
  // The packet itself: the port hands over one of its own and never reads
  // it again (see switch_forwarding.cc).
  ns3::Ptr<ns3::Packet> p = ns3::ConstCast<ns3::Packet>(packet);
  ns3::Ipv4Header header;
  p->RemoveHeader(header);
  if (header.GetPayloadSize() < p->GetSize())  // a device's padding
    p->RemoveAtEnd(p->GetSize() - header.GetPayloadSize());
  // TCP answers RX_OK, RX_CSUM_FAILED or RX_ENDPOINT_CLOSED, on which
  // LocalDeliver does nothing more.
  tcp_->Receive(p, header, itf_);
  return true;
}

}  // namespace netsched_ns3
