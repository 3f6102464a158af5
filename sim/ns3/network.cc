// netsched-ns3 — the network (see network.h).
#include "network.h"
#include "host_routing.h"
#include "tcp_index.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include "ns3/data-rate.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/uinteger.h"

namespace netsched_ns3 {

namespace {

// Bounds on what the description may ask for (the parent writes far less).
constexpr long kMaxNodes = 1L << 22;   // link addresses: 10.0.0.0/8 in /30s
constexpr long kMaxMachines = 1L << 16;
constexpr long kMaxTableEntries = 1L << 27;  // nodes × machines of next hops

class Reader {
public:
  explicit Reader(int fd) {
    int copy = dup(fd);
    if (copy < 0 || lseek(copy, 0, SEEK_SET) != 0 || (f_ = fdopen(copy, "r")) == nullptr) {
      if (copy >= 0)
        close(copy);
      throw Refusal(std::string("cannot read the network description: ") + strerror(errno));
    }
  }
  ~Reader() { fclose(f_); }
  // The next line (without its newline); throws at end of file.
  const char *next() {
    ssize_t n = getline(&buf_, &cap_, f_);
    if (n < 0)
      fail("unexpected end of the description");
    line_++;
    if (n > 0 && buf_[n - 1] == '\n')
      buf_[n - 1] = '\0';
    return buf_;
  }
  [[noreturn]] void fail(const std::string &what) const {
    throw Refusal("network description:" + std::to_string(line_) + ": " + what);
  }
  long count(const char *key, long max) {
    const char *l = next();
    char word[32];
    long n = -1;
    if (sscanf(l, "%31s %ld", word, &n) != 2 || strcmp(word, key) != 0 || n < 0 || n > max)
      fail(std::string("expected '") + key + " N' with N at most " + std::to_string(max));
    return n;
  }

private:
  FILE *f_ = nullptr;
  char *buf_ = nullptr;
  size_t cap_ = 0;
  long line_ = 0;
};

int edge_tail(const Network &net, int e) {
  const auto &l = net.links[e / 2];
  return e % 2 == 0 ? l.a : l.b;
}
int edge_head(const Network &net, int e) {
  const auto &l = net.links[e / 2];
  return e % 2 == 0 ? l.b : l.a;
}
ns3::Ipv4Address link_address(int link, int side) {
  return ns3::Ipv4Address(0x0A000000u + 4u * (uint32_t)link + 1u + (uint32_t)side);
}

}  // namespace

Network read_network(int fd) {
  Reader r(fd);
  Network net;
  if (strcmp(r.next(), "netsched-ns3-net 1") != 0)
    r.fail("not a netsched-ns3 network description (version mismatch?)");
  long n = r.count("nodes", kMaxNodes);
  for (long v = 0; v < n; v++) {
    const char *l = r.next();
    long id, queue;
    char kind;
    int used = 0;
    if (sscanf(l, "n %ld %c %ld %n", &id, &kind, &queue, &used) != 3 || id != v ||
        (kind != 'm' && kind != 's') || queue < 0 || queue > (1L << 30) || l[used] == '\0')
      r.fail("expected 'n ID m|s QUEUE NAME' for node " + std::to_string(v));
    net.nodes.push_back({ l + used, kind == 'm', (uint32_t)queue });
  }
  long links = r.count("links", kMaxNodes);
  for (long i = 0; i < links; i++) {
    long id, a, b;
    double bw, lat;
    if (sscanf(r.next(), "l %ld %ld %ld %lf %lf", &id, &a, &b, &bw, &lat) != 5 || id != i ||
        a < 0 || a >= n || b < 0 || b >= n || a == b || !(bw >= 1 && bw < 1e15) ||
        !(lat >= 0 && lat < 1e3))
      r.fail("expected 'l ID A B BANDWIDTH LATENCY' for link " + std::to_string(i));
    net.links.push_back({ (int)a, (int)b, bw, lat });
  }
  long p = r.count("machines", kMaxMachines);
  if (p * n > kMaxTableEntries)
    r.fail("too many machines and nodes for the routing tables");
  for (long m = 0; m < p; m++) {
    long id, node;
    if (sscanf(r.next(), "m %ld %ld", &id, &node) != 2 || id != m || node < 0 || node >= n ||
        !net.nodes[node].machine)
      r.fail("expected 'm INDEX NODE' naming a machine node for machine " + std::to_string(m));
    net.machine_node.push_back((int)node);
  }
  net.routes.assign((size_t)(p * p), {});
  for (long a = 0; a < p; a++)
    for (long b = 0; b < p; b++) {
      if (a == b)
        continue;
      const char *l = r.next();
      long src, dst, len;
      int used = 0;
      if (sscanf(l, "r %ld %ld %ld%n", &src, &dst, &len, &used) != 3 || src != a || dst != b ||
          len < 1 || len > 2 * links)
        r.fail("expected 'r SRC DST LEN EDGES' for machines " + std::to_string(a) + "->" +
               std::to_string(b));
      std::vector<int> &route = net.routes[(size_t)(a * p + b)];
      int at = net.machine_node[a];
      for (long k = 0; k < len; k++) {
        char *end;
        long e = strtol(l + used, &end, 10);
        if (end == l + used || e < 0 || e >= 2 * links || edge_tail(net, (int)e) != at)
          r.fail("route edge " + std::to_string(k) + " is not a link out of the route's node");
        used = (int)(end - l);
        at = edge_head(net, (int)e);
        route.push_back((int)e);
      }
      if (at != net.machine_node[b] || l[used] != '\0')
        r.fail("the route does not end at its destination");
    }
  if (strcmp(r.next(), "end") != 0)
    r.fail("expected 'end'");
  return net;
}

void build_network(Network &net, const NetOptions &opt) {
  const int n = (int)net.nodes.size(), p = net.p();
  ns3::NodeContainer all;
  all.Create((uint32_t)n);
  // Machines run TCP/IP; switches only forward (switch_forwarding.h).
  ns3::NodeContainer stacked;
  for (int v = 0; v < n; v++)
    if (net.nodes[v].machine || opt.stock)
      stacked.Add(all.Get((uint32_t)v));
  ns3::InternetStackHelper stack;
  HostRoutingHelper host_routing;  // host_routing.h: a hash, not a scan of the routes
  ns3::Ipv4StaticRoutingHelper static_routing;
  if (opt.stock) {
    stack.SetRoutingHelper(static_routing);
  } else {
    stack.SetRoutingHelper(host_routing);
    stack.SetTcp("netsched_ns3::IndexedTcp");  // tcp_index.h: no scan of every socket per segment
  }
  stack.Install(stacked);  // no queue discs: a device's drop-tail queue is the buffer
  net.switches.resize((size_t)n);
  for (int v = 0; v < n; v++) {
    net.ns3_nodes.push_back(all.Get((uint32_t)v));
    if (!net.nodes[v].machine && !opt.stock)
      net.switches[v] = std::make_unique<SwitchForwarding>(net);
  }
  net.edge_device.resize(2 * net.links.size());
  net.edge_interface.resize(2 * net.links.size());
  ns3::PointToPointHelper p2p;
  p2p.SetDeviceAttribute("Mtu", ns3::UintegerValue(opt.mtu));
  for (size_t i = 0; i < net.links.size(); i++) {
    const auto &l = net.links[i];
    p2p.SetDeviceAttribute("DataRate", ns3::DataRateValue(ns3::DataRate((uint64_t)llround(l.bandwidth))));
    p2p.SetChannelAttribute("Delay", ns3::TimeValue(ns3::Seconds(l.latency)));
    ns3::NetDeviceContainer d = p2p.Install(net.ns3_nodes[l.a], net.ns3_nodes[l.b]);
    for (int side = 0; side < 2; side++) {
      int v = side == 0 ? l.a : l.b;
      const auto &node = net.nodes[v];
      uint32_t q = node.machine ? opt.host_queue : node.queue > 0 ? node.queue : opt.switch_queue;
      auto dev = ns3::DynamicCast<ns3::PointToPointNetDevice>(d.Get((uint32_t)side));
      dev->GetQueue()->SetMaxSize(ns3::QueueSize(ns3::QueueSizeUnit::PACKETS, q));
      net.edge_device[2 * i + side] = dev;
      if (net.switches[v]) {
        // The same queue of q packets: with the traffic-control layer a
        // packet meeting a full (stopped) queue is dropped before it, here
        // by the queue itself.
        net.switches[v]->attach(dev);
        continue;
      }
      auto ipv4 = net.ns3_nodes[v]->GetObject<ns3::Ipv4>();
      uint32_t itf = ipv4->AddInterface(dev);
      ipv4->AddAddress(itf, ns3::Ipv4InterfaceAddress(link_address((int)i, side),
                                                      ns3::Ipv4Mask("255.255.255.252")));
      ipv4->SetUp(itf);
      net.edge_interface[2 * i + side] = itf;
      if (!opt.stock)
        net.host_ports.push_back(std::make_unique<HostDelivery>(
            dev, itf, net.ns3_nodes[v]->GetObject<ns3::Ipv4L3Protocol>(),
            net.ns3_nodes[v]->GetObject<IndexedTcp>()));
    }
  }
  // Each machine is known by the address of its interface on its first
  // link; ns-3's TCP may send from another of its interfaces' addresses,
  // so every address of a machine gets the machine's routes (and ns-3's
  // weak end-system model accepts any of them on arrival).
  std::vector<int> node_machine((size_t)n, -1);
  for (int m = 0; m < p; m++)
    node_machine[net.machine_node[m]] = m;
  net.machine_addresses.assign((size_t)p, {});
  net.address_machine.assign(2 * net.links.size(), -1);
  for (size_t i = 0; i < net.links.size(); i++)
    for (int side = 0; side < 2; side++) {
      int m = node_machine[side == 0 ? net.links[i].a : net.links[i].b];
      net.address_machine[2 * i + side] = m;
      if (m >= 0)
        net.machine_addresses[m].push_back(link_address((int)i, side));
    }
  for (int m = 0; m < p; m++)
    net.machine_address.push_back(net.machine_addresses[m].front());
  // One next hop per (node, destination); a second source routed to the
  // same destination through the node by another link cannot be expressed.
  std::vector<int> next((size_t)n * p, -1), first_src((size_t)n * p, -1);
  for (int a = 0; a < p; a++)
    for (int b = 0; b < p; b++) {
      if (a == b)
        continue;
      for (int e : net.route_edges(a, b)) {
        size_t k = (size_t)edge_tail(net, e) * p + b;
        if (next[k] < 0) {
          next[k] = e;
          first_src[k] = a;
        } else if (next[k] != e) {
          const auto &name = [&](int m) { return net.nodes[net.machine_node[m]].name; };
          throw Refusal("the routes are not destination-based: at " +
                        net.nodes[edge_tail(net, e)].name + ", traffic to " + name(b) +
                        " leaves by link " + std::to_string(next[k] / 2) + " from " +
                        name(first_src[k]) + " but by link " + std::to_string(e / 2) + " from " +
                        name(a) + "; ns-3's static routing forwards by destination only");
        }
      }
    }
  for (int v = 0; v < n; v++) {
    if (net.switches[v]) {
      for (int b = 0; b < p; b++)
        if (next[(size_t)v * p + b] >= 0)
          net.switches[v]->add(b, net.edge_device[next[(size_t)v * p + b]]);
      continue;
    }
    auto ipv4 = net.ns3_nodes[v]->GetObject<ns3::Ipv4>();
    auto routing = ns3::DynamicCast<HostRouting>(ipv4->GetRoutingProtocol());
    for (int b = 0; b < p; b++) {
      int e = next[(size_t)v * p + b];
      if (e < 0)
        continue;
      ns3::Ipv4Address gateway = link_address(e / 2, 1 - e % 2);
      for (const auto &address : net.machine_addresses[b])
        if (routing)
          routing->add(address, gateway, net.edge_interface[e]);
        else
          static_routing.GetStaticRouting(ipv4)->AddHostRouteTo(address, gateway, net.edge_interface[e]);
    }
  }
}

namespace {

std::vector<int> walk_to(const Network &net, int a, int b, ns3::Ipv4Address to) {
  std::vector<int> edges;
  int at = net.machine_node[a];
  ns3::Ipv4Header h;
  h.SetSource(net.machine_address[a]);
  h.SetDestination(to);
  while (at != net.machine_node[b] && edges.size() <= 2 * net.links.size()) {
    // The port the switch's own table forwards by, or the IP route's.
    ns3::NetDevice *out;
    if (net.switches[at]) {
      out = net.switches[at]->port_to(to);
    } else {
      ns3::Socket::SocketErrno err;
      auto route = net.ns3_nodes[at]->GetObject<ns3::Ipv4>()->GetRoutingProtocol()->RouteOutput(
          nullptr, h, nullptr, err);
      out = route ? ns3::PeekPointer(route->GetOutputDevice()) : nullptr;
    }
    if (out == nullptr)
      break;
    int found = -1;
    for (size_t e = 0; e < net.edge_device.size() && found < 0; e++)
      if (ns3::PeekPointer(net.edge_device[e]) == out)
        found = (int)e;
    if (found < 0)
      break;
    edges.push_back(found);
    at = edge_head(net, found);
  }
  return edges;
}

}  // namespace

std::vector<int> walk_route(const Network &net, int a, int b) {
  std::vector<int> edges = walk_to(net, a, b, net.machine_address[b]);
  for (const auto &address : net.machine_addresses[b])
    if (walk_to(net, a, b, address) != edges)
      return {};  // another of b's addresses is routed otherwise: a mismatch
  return edges;
}

}  // namespace netsched_ns3
