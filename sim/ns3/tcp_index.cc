// netsched-ns3 — ns-3's TCP with an index of its connections (see tcp_index.h).
#include "tcp_index.h"

#include "ns3/ipv4-end-point.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"

namespace netsched_ns3 {

NS_OBJECT_ENSURE_REGISTERED(IndexedTcp);

namespace {

// The endpoint of a TCP socket: a protected member ns-3 gives no getter
// for, reached through a member pointer named in a derived class.
struct EndPointOf : ns3::TcpSocketBase {
  static ns3::Ipv4EndPoint *get(ns3::TcpSocketBase &s) { return s.*(&EndPointOf::m_endPoint); }
};

}  // namespace

ns3::TypeId IndexedTcp::GetTypeId() {
  static ns3::TypeId tid = ns3::TypeId("netsched_ns3::IndexedTcp")
                               .SetParent<ns3::TcpL4Protocol>()
                               .SetGroupName("Internet")
                               .AddConstructor<IndexedTcp>();
  return tid;
}

void IndexedTcp::index(ns3::Ptr<ns3::Socket> s) {
  auto tcp = s->GetNode()->GetObject<IndexedTcp>();
  auto base = ns3::DynamicCast<ns3::TcpSocketBase>(s);
  ns3::Ipv4EndPoint *e = base ? EndPointOf::get(*base) : nullptr;
  if (tcp && e)
    tcp->sockets_[endpoint_key(e->GetPeerAddress().Get(), e->GetPeerPort(),
                               e->GetLocalPort())] = base;
}

// ns-3's TcpL4Protocol::Receive with a hash lookup first. The endpoint
// found must pass the tests of the scan's exact match (receiving, same
// four addresses and ports); if it does not, or none is indexed, the scan.
// The look-up reads the two ports from the segment's first bytes instead of
// deserializing its header (TcpL4Protocol::PacketReceived): ns-3 makes an
// Object for each TCP option it reads (TcpOption::CreateOption), and the
// socket reads the header twice more. PacketReceived's only other work is
// the checksum, which ns-3 checks only with checksums enabled (then the
// child takes ns-3's path).
ns3::IpL4Protocol::RxStatus IndexedTcp::Receive(ns3::Ptr<ns3::Packet> packet,
                                                const ns3::Ipv4Header &ip,
                                                ns3::Ptr<ns3::Ipv4Interface> itf) {
  uint8_t ports[4];  // source port, destination port, in network order
  if (ns3::Node::ChecksumEnabled() || packet->CopyData(ports, sizeof ports) != sizeof ports)
    return ns3::TcpL4Protocol::Receive(packet, ip, itf);
  uint16_t source_port = (uint16_t)(ports[0] << 8 | ports[1]);
  uint16_t destination_port = (uint16_t)(ports[2] << 8 | ports[3]);
  auto it = sockets_.find(endpoint_key(ip.GetSource().Get(), source_port, destination_port));
  if (it != sockets_.end()) {
    ns3::Ipv4EndPoint *e = EndPointOf::get(*it->second);
    if (e != nullptr && e->IsRxEnabled() && !e->GetBoundNetDevice() &&
        e->GetLocalAddress() == ip.GetDestination() && e->GetLocalPort() == destination_port &&
        e->GetPeerAddress() == ip.GetSource() && e->GetPeerPort() == source_port) {
      e->ForwardUp(packet, ip, source_port, itf);
      return ns3::IpL4Protocol::RX_OK;
    }
  }
  return ns3::TcpL4Protocol::Receive(packet, ip, itf);
}

}  // namespace netsched_ns3
