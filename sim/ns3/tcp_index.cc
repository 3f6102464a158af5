// netsched-ns3 — ns-3's TCP with an index of its connections (see tcp_index.h).
#include "tcp_index.h"

#include "ns3/ipv4-end-point.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/tcp-header.h"

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
ns3::IpL4Protocol::RxStatus IndexedTcp::Receive(ns3::Ptr<ns3::Packet> packet,
                                                const ns3::Ipv4Header &ip,
                                                ns3::Ptr<ns3::Ipv4Interface> itf) {
  ns3::TcpHeader h;
  ns3::IpL4Protocol::RxStatus status = PacketReceived(packet, h, ip.GetSource(), ip.GetDestination());
  if (status != ns3::IpL4Protocol::RX_OK)
    return status;
  auto it =
      sockets_.find(endpoint_key(ip.GetSource().Get(), h.GetSourcePort(), h.GetDestinationPort()));
  if (it != sockets_.end()) {
    ns3::Ipv4EndPoint *e = EndPointOf::get(*it->second);
    if (e != nullptr && e->IsRxEnabled() && !e->GetBoundNetDevice() &&
        e->GetLocalAddress() == ip.GetDestination() && e->GetLocalPort() == h.GetDestinationPort() &&
        e->GetPeerAddress() == ip.GetSource() && e->GetPeerPort() == h.GetSourcePort()) {
      e->ForwardUp(packet, ip, h.GetSourcePort(), itf);
      return ns3::IpL4Protocol::RX_OK;
    }
  }
  return ns3::TcpL4Protocol::Receive(packet, ip, itf);
}

}  // namespace netsched_ns3
