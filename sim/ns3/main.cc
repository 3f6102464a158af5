// netsched-ns3 — the ns3 model's simulation process, started by
// ns_simulate() (sim/sim.c) as netsched-replay is for the SimGrid models.
//
// Usage (internal):
//   netsched-ns3 PROGRAM_FD RESULTS_FD NET_FD [OPTIONS]   runs a program
//   netsched-ns3 --dump-routes NET_FD                      prints, for every
//       ordered machine pair, "ROUTE A B LEN E1 .. ELEN": the directed edges
//       a packet takes, walked through ns-3's own routing tables
// OPTIONS: --transport tcp-persistent|udp-window, --window W (0: the
// schedule's window:W_g, else 5), --retransmit-timeout SECONDS, --tcp VARIANT, --init-cwnd N,
// --min-rto SECONDS, --delayed-ack 0|1, --mtu BYTES, --queue PACKETS,
// --scheduler map|heap|calendar (default map) (sim/ns3_net.h, docs/simulator.md).
// --window-count auto|sent-received|unacked: what udp-window's window counts.
// NETSCHED_NS3_STOCK=1 in the environment: ns-3's own routing and TCP
// demultiplexer (network.h), for tests that the faster ones agree.
//
// Exit status: 0 done (results in the shared memory), 2 a refusal or bad
// input (the message on stderr and in the results), 3 a malformed program,
// 4 a deadlock. A crash is a signal, which the parent reports.
#include <glib.h>
extern "C" {
#include "sim/program.h"
}

#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "network.h"
#include "runner.h"
#include "transport.h"

#include "ns3/global-value.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/config.h"

using namespace netsched_ns3;

namespace {

struct Options {
  NetOptions net;
  TcpOptions tcp;
  UdpOptions udp;
  bool window_given = false;
  std::string transport = "tcp-persistent";
  std::string scheduler = "map";
};

long parse_bounded(const char *opt, const char *text, long lo, long hi) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || end == text || v < lo || v > hi)
    throw Refusal(std::string(opt) + " '" + text + "': expected " + std::to_string(lo) + " to " +
                  std::to_string(hi));
  return v;
}

// Reads the options from argv[first..); throws Refusal.
Options parse(int argc, char **argv, int first) {
  Options o;
  for (int i = first; i < argc; i += 2) {
    std::string key = argv[i];
    if (i + 1 >= argc)
      throw Refusal(key + ": needs a value");
    const char *v = argv[i + 1];
    if (key == "--transport")
      o.transport = v;
    else if (key == "--tcp")
      o.tcp.variant = v;
    else if (key == "--init-cwnd")
      o.tcp.initial_cwnd = (uint32_t)parse_bounded("--init-cwnd", v, 1, 1 << 20);
    else if (key == "--min-rto") {
      char *end;
      o.tcp.min_rto = strtod(v, &end);
      if (*end != '\0' || !(o.tcp.min_rto > 0 && o.tcp.min_rto <= 60))
        throw Refusal(std::string("--min-rto '") + v + "': expected seconds in (0, 60]");
    } else if (key == "--delayed-ack")
      o.tcp.delayed_ack = parse_bounded("--delayed-ack", v, 0, 1) != 0;
    else if (key == "--window") {
      o.udp.window = (uint32_t)parse_bounded("--window", v, 0, 1 << 20);
      o.window_given = o.udp.window > 0;
      if (!o.window_given)
        o.udp.window = UdpOptions().window;
    } else if (key == "--window-count") {
      std::string c = v;
      if (c != "auto" && c != "sent-received" && c != "unacked")
        throw Refusal("--window-count " + c + ": expected auto, sent-received or unacked");
      o.udp.count = c == "sent-received" ? UdpOptions::Count::kSentReceived
                    : c == "unacked"     ? UdpOptions::Count::kUnacked
                                         : UdpOptions::Count::kAuto;
    } else if (key == "--retransmit-timeout") {
      char *end;
      o.udp.timeout = strtod(v, &end);
      if (*end != '\0' || !(o.udp.timeout > 0 && o.udp.timeout <= 60))
        throw Refusal(std::string("--retransmit-timeout '") + v + "': expected seconds in (0, 60]");
    } else if (key == "--mtu")
      o.net.mtu = (uint32_t)parse_bounded("--mtu", v, 576, 65535);
    else if (key == "--queue")
      o.net.switch_queue = (uint32_t)parse_bounded("--queue", v, 1, 1 << 30);
    else if (key == "--scheduler")
      o.scheduler = v;
    else
      throw Refusal("unknown option " + key);
  }
  if (o.transport != "tcp-persistent" && o.transport != "udp-window")
    throw Refusal("--transport " + o.transport + ": expected tcp-persistent or udp-window");
  const char *stock = getenv("NETSCHED_NS3_STOCK");  // network.h, NetOptions::stock
  o.net.stock = stock != nullptr && strcmp(stock, "1") == 0;
  // IP (20), TCP (20) and the timestamp option (12), as Linux's MSS.
  o.tcp.segment = o.net.mtu - 52;
  o.net.host_queue = std::max<uint32_t>(o.net.host_queue, o.net.switch_queue);
  return o;
}

void set_scheduler(const std::string &name) {
  const char *type = name == "heap"       ? "ns3::HeapScheduler"
                     : name == "calendar" ? "ns3::CalendarScheduler"
                     : name == "map"      ? "ns3::MapScheduler"
                                          : nullptr;
  if (type == nullptr)
    throw Refusal("--scheduler " + name + ": expected heap, calendar or map");
  ns3::GlobalValue::Bind("SchedulerType", ns3::StringValue(type));
}

int dump_routes(int argc, char **argv) {
  Options o = parse(argc, argv, 3);
  Network net = read_network((int)parse_bounded("NET_FD", argv[2], 0, 1 << 20));
  build_network(net, o.net);
  for (int a = 0; a < net.p(); a++)
    for (int b = 0; b < net.p(); b++) {
      if (a == b)
        continue;
      std::vector<int> edges = walk_route(net, a, b);
      printf("ROUTE %d %d %zu", a, b, edges.size());
      for (int e : edges)
        printf(" %d", e);
      putchar('\n');
    }
  return fflush(stdout) == 0 ? 0 : 1;
}

// Packets the traffic-control layer of a machine (of every node under
// NETSCHED_NS3_STOCK=1) dropped. With no queue disc installed a
// point-to-point device does flow control: its queue stops when full, and
// the traffic-control layer drops what meets a stopped queue ("TcDrop") —
// the drop-tail loss of a full port, which the device queue's own drop
// counter never sees. A trimmed switch has no such layer: its full device
// queue drops, and count_packets counts that (the same packets).
uint64_t tc_drops = 0;
void count_tc_drop(ns3::Ptr<const ns3::Packet>) { tc_drops++; }

// By the type's name: libns3-traffic-control stays out of the link.
void watch_drops(const Network &net) {
  ns3::TypeId tc = ns3::TypeId::LookupByName("ns3::TrafficControlLayer");
  for (size_t v = 0; v < net.ns3_nodes.size(); v++) {
    if (net.switches[v])
      continue;  // a trimmed switch's full queue drops itself (count_packets)
    const auto &node = net.ns3_nodes[v];
    ns3::Ptr<ns3::Object> layer = node->GetObject<ns3::Object>(tc);
    if (!layer || !layer->TraceConnectWithoutContext("TcDrop", ns3::MakeCallback(&count_tc_drop)))
      throw Refusal(std::string("this ns-3 has no ") + (layer ? "TcDrop trace on its" : "") +
                    " TrafficControlLayer: drops could not be counted");
  }
}

// Packets the devices queued (each hop counts) and dropped, for the rate.
void count_packets(const Network &net, SharedHeader *h) {
  uint64_t sent = 0, dropped = tc_drops;
  for (const auto &d : net.edge_device) {
    auto q = ns3::DynamicCast<ns3::PointToPointNetDevice>(d)->GetQueue();
    sent += q->GetTotalReceivedPackets();
    dropped += q->GetTotalDroppedPackets();
  }
  h->packets = sent;
  h->packet_drops = dropped;
}

int run_program_command(int argc, char **argv) {
  const char *why = nullptr;
  Program *prog = ns_program_from_fds((int)parse_bounded("PROGRAM_FD", argv[1], 0, 1 << 20),
                                      (int)parse_bounded("RESULTS_FD", argv[2], 0, 1 << 20), &why);
  if (prog == nullptr) {
    fprintf(stderr, "netsched-ns3: %s\n", why);
    return 3;
  }
  gint64 t0 = g_get_monotonic_time();
  try {
    Options o = parse(argc, argv, 4);
    set_scheduler(o.scheduler);
    tcp_defaults(o.tcp);
    Network net = read_network((int)parse_bounded("NET_FD", argv[3], 0, 1 << 20));
    if (net.p() != prog->p)
      throw Refusal("the network has " + std::to_string(net.p()) + " machines, the program " +
                    std::to_string(prog->p));
    build_network(net, o.net);
    watch_drops(net);
    if (!o.window_given && prog->window > 0)  // the schedule's W_g (eq. 4)
      o.udp.window = prog->window;
    if (o.udp.count == UdpOptions::Count::kAuto)  // Algorithm 2's η for Algorithm 2's schedules
      o.udp.count = prog->window > 0 ? UdpOptions::Count::kSentReceived : UdpOptions::Count::kUnacked;
    if (o.transport != "udp-window" && prog->window > 0)
      throw Refusal("the window scheme (window:W) needs --transport udp-window");
    auto transport = o.transport == "udp-window" ? make_udp_window(net, o.udp, o.net.mtu)
                                                 : make_tcp_persistent(net);
    bool ok = run_program(prog, *transport);
    count_packets(net, prog->header);
    prog->header->wall_seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
    std::string stall = ok ? std::string() : transport->stall();
    if (!stall.empty())
      g_strlcat(prog->header->error, (": " + stall).c_str(), sizeof prog->header->error);
    if (!ok)
      return 4;
    prog->header->done = 1;
    return 0;
  } catch (const Refusal &r) {
    g_strlcpy(prog->header->error, r.what(), sizeof prog->header->error);
    fprintf(stderr, "netsched-ns3: %s\n", r.what());
    return 2;
  }
}

}  // namespace

int main(int argc, char **argv) {
  // A crash of ns-3 is reported by the parent; it must not drop a core file.
  struct rlimit no_core = { 0, 0 };
  setrlimit(RLIMIT_CORE, &no_core);
  prctl(PR_SET_DUMPABLE, 0);
  int status;
  try {
    if (argc >= 3 && strcmp(argv[1], "--dump-routes") == 0)
      status = dump_routes(argc, argv);
    else if (argc >= 4 && argv[1][0] != '-')
      status = run_program_command(argc, argv);
    else {
      fprintf(stderr, "netsched-ns3: internal tool of netsched simulate -M ns3; not for direct use\n");
      status = 2;
    }
  } catch (const Refusal &r) {
    fprintf(stderr, "netsched-ns3: %s\n", r.what());
    status = 2;
  }
  fflush(nullptr);
  // _exit: nothing of ns-3's teardown is needed, and it costs time.
  _exit(status);
}
