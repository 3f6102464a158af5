// netsched-ns3 — ns-3's TCP with an index of its connections: an arriving
// segment of an indexed connection finds its socket by a hash of its ports
// and peer instead of ns-3's demultiplexer, which compares it with every
// endpoint of its node (Ipv4EndPointDemux::Lookup: 2p − 1 sockets per
// machine for an all-to-all, 46 % of the child's time on 64 machines).
// Whatever is not indexed (handshakes, listeners) takes ns-3's own path,
// so the segments reach the same sockets either way.
#ifndef NETSCHED_NS3_TCP_INDEX_H
#define NETSCHED_NS3_TCP_INDEX_H

#include <cstdint>
#include <unordered_map>

#include "ns3/socket.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"

namespace netsched_ns3 {

class IndexedTcp : public ns3::TcpL4Protocol {
public:
  static ns3::TypeId GetTypeId();
  // Adds the connection of s (open: its endpoint knows its peer). A socket
  // whose node's TCP is not an IndexedTcp is left to ns-3's scan.
  static void index(ns3::Ptr<ns3::Socket> s);

  using ns3::TcpL4Protocol::Receive;  // the IPv6 one
  ns3::IpL4Protocol::RxStatus Receive(ns3::Ptr<ns3::Packet> packet, const ns3::Ipv4Header &ip,
                                      ns3::Ptr<ns3::Ipv4Interface> itf) override;

private:
  // peer address, peer port, local port
  static uint64_t endpoint_key(uint32_t peer, uint16_t peer_port, uint16_t local_port) {
    return (uint64_t)peer << 32 | (uint64_t)peer_port << 16 | local_port;
  }
  std::unordered_map<uint64_t, ns3::Ptr<ns3::TcpSocketBase>> sockets_;
};

}  // namespace netsched_ns3

#endif
