// netsched-ns3 — the network: ns-3 nodes for netsched's machines and
// switches, full-duplex point-to-point links with the declared bandwidth
// and latency, drop-tail device queues of the declared sizes, static host
// routes at machines and forwarding tables at switches so that every
// packet follows netsched's route for its pair (sim/ns3_net.h describes
// the input).
#ifndef NETSCHED_NS3_NETWORK_H
#define NETSCHED_NS3_NETWORK_H

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include "host_delivery.h"
#include "switch_forwarding.h"

namespace netsched_ns3 {

// An input the child cannot use, or a network it refuses to build:
// main() prints the message and exits 2.
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct NetOptions {
  uint32_t mtu = 1500;           // bytes of an IP packet on every link
  uint32_t switch_queue = 100;   // packets, switches that declare none
  uint32_t host_queue = 1000;    // packets, machines' interfaces (Linux's txqueuelen)
  // ns-3's own Ipv4StaticRouting, TCP demultiplexer, weak end systems,
  // IP receive path at machines and IP forwarding at switches instead of
  // host_routing.h, tcp_index.h, host_delivery.h and switch_forwarding.h:
  // the same results, slower (the environment's
  // NETSCHED_NS3_STOCK=1; tests check that the two agree)
  bool stock = false;
};

struct Network {
  struct NodeInfo {
    std::string name;
    bool machine;
    uint32_t queue;  // declared packets, 0: the default
  };
  struct LinkInfo {
    int a, b;
    double bandwidth, latency;
  };
  std::vector<NodeInfo> nodes;
  std::vector<LinkInfo> links;
  std::vector<int> machine_node;              // program machine -> node
  std::vector<std::vector<int>> routes;       // p*p: directed edges of (a, b)
  // built
  std::vector<ns3::Ptr<ns3::Node>> ns3_nodes;
  std::vector<ns3::Ptr<ns3::NetDevice>> edge_device;  // directed edge -> sending device
  std::vector<uint32_t> edge_interface;               // directed edge -> its interface there
  std::vector<ns3::Ipv4Address> machine_address;     // program machine -> address
  // program machine -> every address of its node (one per link): TCP may
  // take any of them as its source, so each has the machine's routes
  std::vector<std::vector<ns3::Ipv4Address>> machine_addresses;
  std::vector<int> address_machine;  // 2 · link + side -> machine, or -1
  // node -> its trimmed switch (switch_forwarding.h); null for machines,
  // and for every node under NetOptions::stock (an Internet stack there)
  std::vector<std::unique_ptr<SwitchForwarding>> switches;
  // a machine's ports that hand its TCP segments to its TCP
  // (host_delivery.h); none under NetOptions::stock
  std::vector<std::unique_ptr<HostDelivery>> host_ports;
  int p() const { return (int)machine_node.size(); }
  // The machine an address belongs to, or -1 (once built).
  int machine_at_address(ns3::Ipv4Address a) const {
    uint32_t k = a.Get() - 0x0A000001u;  // link k / 4, side k % 4 (network.cc, link_address)
    if (a.Get() < 0x0A000001u || k / 4 >= links.size() || k % 4 > 1)
      return -1;
    return address_machine[k / 4 * 2 + k % 4];
  }
  const std::vector<int> &route_edges(int a, int b) const { return routes[(size_t)a * p() + b]; }
};

// Reads the description from `fd`; throws Refusal naming the line.
Network read_network(int fd);
// Builds it in ns-3 and installs the routes: machines with ns-3's Internet
// stack, switches trimmed (switch_forwarding.h) unless opt.stock; throws
// Refusal when two sources' routes to one destination leave a node by
// different links (ns-3 forwards by destination).
void build_network(Network &net, const NetOptions &opt);
// The directed edges a packet from machine a to b takes, found by asking
// each node's ns-3 routing protocol for the next hop (--dump-routes); empty
// when packets to another of b's addresses would take other links.
std::vector<int> walk_route(const Network &net, int a, int b);

}  // namespace netsched_ns3

#endif
