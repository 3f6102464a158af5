// netsched-ns3 — how messages cross the network: the transport moves
// whole messages between machines and calls `deliver` when the last byte
// of one has arrived at its destination. A transport delivers the
// messages of one ordered pair in the order they were sent.
#ifndef NETSCHED_NS3_TRANSPORT_H
#define NETSCHED_NS3_TRANSPORT_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "network.h"

namespace netsched_ns3 {

struct Message {
  enum Kind : uint8_t { kData, kSync, kBarrier } kind;
  uint64_t id;     // kData: the transfer; kSync: the transfer it releases; kBarrier: (seq, round)
  uint64_t bytes;
};

struct TcpOptions {
  std::string variant = "Cubic";  // ns3::Tcp<variant>
  uint32_t segment = 1448;        // MSS: MTU − 20 (IP) − 20 (TCP) − 12 (timestamps), Linux's
  uint32_t initial_cwnd = 10;     // segments (Linux since 2.6.39, RFC 6928)
  double min_rto = 0.2;           // s (Linux's TCP_RTO_MIN)
  bool delayed_ack = true;        // ACK every second segment or after 40 ms (Linux's minimum)
};

// udp-window (udp_window.cc): Tam & Wang's global window, §3.2.
struct UdpOptions {
  // W: a machine sends an item only while η < W (η: `count`). 5 is the
  // window the paper ran on its 8x2 hierarchy (§4.2: eq. 4's 10 halved for
  // Go-Back-N's control packets); main() takes the schedule's own
  // window:W_g instead when it records one and --window is not given.
  uint32_t window = 5;
  // s: the least retransmission timeout (RFC 6298's estimate above it).
  // Linux's TCP_RTO_MIN is 200 ms, for the Internet. Below the queueing
  // an item can meet, items only queued are sent again and their copies
  // queue the others: on Tam & Wang's 8x2 at 64 KiB (shuffle-ca) a 5 ms
  // floor took 0.31 s at W = 8 with no loss, 20 ms 0.117 s (0.111 s at
  // W = 5 either way); 20 ms is 31 machines' 5 items queued at one
  // 100 Mbit/s port (19 ms).
  double timeout = 0.02;
  // What η counts (docs/simulator.md, "`--transport udp-window`"; main()
  // turns kAuto into kSentReceived under the window scheme, else kUnacked):
  // kSentReceived is Algorithm 2's η, items sent − items received, which
  // no acknowledgement delays but which never falls at a machine that
  // sends W more than it will receive (a deadlock, reported by name);
  // kUnacked counts items not yet acknowledged, which always fall.
  enum class Count { kAuto, kSentReceived, kUnacked } count = Count::kAuto;
};

class Transport {
public:
  virtual ~Transport() = default;
  // Makes ready what the ordered pairs marked in `pairs` (p·p) need, before
  // the collective; calls ready() once that is done (the collective's
  // time 0), or throws Refusal.
  virtual void open(const std::vector<char> &pairs, std::function<void()> ready) = 0;
  virtual void send(int src, int dst, const Message &m) = 0;
  std::function<void(int src, int dst, const Message &m)> deliver;
  // Why a run that stopped short stopped, when the transport knows (a
  // machine it holds back for good), else empty.
  virtual std::string stall() const { return {}; }
};

// Sets the ns-3 defaults the TCP sockets are made with; before any is.
void tcp_defaults(const TcpOptions &opt);
// One TCP connection per unordered machine pair, carrying both directions,
// opened before the collective and kept: MPI's TCP transport (Open MPI's
// TCP BTL) keeps one socket per peer.
std::unique_ptr<Transport> make_tcp_persistent(const Network &net);
// Tam & Wang's user-level protocol over UDP: MTU items, a machine's next
// item only while η < W, per-item acknowledgements and retransmission;
// throws Refusal when an MTU of `mtu` bytes leaves no room for data.
std::unique_ptr<Transport> make_udp_window(const Network &net, const UdpOptions &opt, uint32_t mtu);

}  // namespace netsched_ns3

#endif
