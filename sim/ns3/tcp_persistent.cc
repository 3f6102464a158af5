// netsched-ns3 — the tcp-persistent transport (see transport.h).
//
// Message boundaries: a TCP connection is a byte stream, so the receiver
// counts bytes and knows, from the sender's queue of the connection, which
// message the next bytes complete (both ends live in this one process; no
// header bytes are modelled: MPI's TCP headers are tens of bytes beside
// messages of kilobytes).
#include <deque>

#include "tcp_index.h"
#include "transport.h"

#include "ns3/inet-socket-address.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/config.h"
#include "ns3/boolean.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/type-id.h"

namespace netsched_ns3 {

constexpr uint32_t kLinuxDataRetries = 15;  // net.ipv4.tcp_retries2

void tcp_defaults(const TcpOptions &opt) {
  ns3::TypeId variant;
  if (!ns3::TypeId::LookupByNameFailSafe("ns3::Tcp" + opt.variant, &variant))
    throw Refusal("--tcp " + opt.variant + ": ns-3 has no TCP variant ns3::Tcp" + opt.variant);
  ns3::Config::SetDefault("ns3::TcpL4Protocol::SocketType", ns3::TypeIdValue(variant));
  ns3::Config::SetDefault("ns3::TcpSocket::SegmentSize", ns3::UintegerValue(opt.segment));
  ns3::Config::SetDefault("ns3::TcpSocket::InitialCwnd", ns3::UintegerValue(opt.initial_cwnd));
  ns3::Config::SetDefault("ns3::TcpSocketBase::MinRto", ns3::TimeValue(ns3::Seconds(opt.min_rto)));
  ns3::Config::SetDefault("ns3::TcpSocket::DelAckCount", ns3::UintegerValue(opt.delayed_ack ? 2 : 1));
  ns3::Config::SetDefault("ns3::TcpSocket::DelAckTimeout", ns3::TimeValue(ns3::MilliSeconds(40)));
  // Linux's autotuning ceilings (tcp_wmem, tcp_rmem maxima): 4 MiB, 6 MiB.
  ns3::Config::SetDefault("ns3::TcpSocket::SndBufSize", ns3::UintegerValue(4u << 20));
  ns3::Config::SetDefault("ns3::TcpSocket::RcvBufSize", ns3::UintegerValue(6u << 20));
  // Linux retransmits a segment up to net.ipv4.tcp_retries2 = 15 times
  // before it drops the connection; ns-3's default is 6, which gave up on
  // connections of all-posted exchanges under heavy incast (64 machines on
  // 1 Gbit/s leaves) that Linux keeps, and the run ended as a "deadlock".
  ns3::Config::SetDefault("ns3::TcpSocket::DataRetries", ns3::UintegerValue(kLinuxDataRetries));
}

namespace {

// The listening port of the connection from client machine c: one port
// per client, so that every socket of a machine has a port of its own
// (below the ephemeral range ns-3 gives clients, 49152 and up). ns-3's
// endpoint demultiplexer (Ipv4EndPointDemux::Lookup) compares each
// arriving segment with every socket of its node; one that differs in
// port is passed over after two calls, one on the same port costs the
// whole address comparison.
constexpr uint32_t kFirstPort = 1024;
constexpr uint32_t kLastPort = 49151;

struct Conn {  // one direction of a machine pair's connection
  class TcpPersistent *owner = nullptr;
  int src = 0, dst = 0;
  ns3::Ptr<ns3::Socket> tx;        // src's end of the pair's connection
  uint64_t backlog = 0;            // bytes not yet handed to the socket
  std::deque<Message> expected;    // sent, not yet delivered, in order
  uint64_t got = 0;                // bytes arrived beyond the delivered messages
};

class TcpPersistent : public Transport {
public:
  explicit TcpPersistent(const Network &net) : net_(net), conns_((size_t)net.p() * net.p()) {}

  // One connection per unordered machine pair that exchanges anything, in
  // either direction, carrying both (Open MPI's TCP BTL keeps one socket
  // per peer): half the sockets of a connection per ordered pair, and the
  // acknowledgements of one direction ride on the other's data.
  // The connections open in rounds, round r connecting every machine a to
  // a + r (mod p): at most one handshake per machine and direction at a
  // time, so that the SYNs of p² / 2 connections do not overflow the
  // switch queues (a lost SYN costs seconds of ns-3's connection timeout).
  void open(const std::vector<char> &pairs, std::function<void()> ready) override {
    ready_ = std::move(ready);
    int p = net_.p();
    if ((uint32_t)p > kLastPort - kFirstPort + 1)
      throw Refusal("tcp-persistent: at most " + std::to_string(kLastPort - kFirstPort + 1) +
                    " machines (a listening port per peer), not " + std::to_string(p));
    for (int a = 0; a < p; a++)
      for (int b = 0; b < p; b++)
        if (a != b && (pairs[(size_t)a * p + b] || pairs[(size_t)b * p + a]))
          for (int side = 0; side < 2; side++) {
            auto c = std::make_unique<Conn>();
            c->owner = this;
            c->src = side == 0 ? a : b;
            c->dst = side == 0 ? b : a;
            conns_[(size_t)c->src * p + c->dst] = std::move(c);
          }
    next_round();
  }

  void send(int src, int dst, const Message &m) override {
    if (src == dst) {  // a machine's message to itself crosses no network
      ns3::Simulator::ScheduleNow(&TcpPersistent::local, this, src, m);
      return;
    }
    Conn *c = conns_[(size_t)src * net_.p() + dst].get();
    if (c == nullptr)
      throw Refusal("internal: no connection " + std::to_string(src) + "->" + std::to_string(dst));
    c->expected.push_back(m);
    c->backlog += m.bytes;
    if (m.bytes == 0)
      ns3::Simulator::ScheduleNow(&TcpPersistent::drain, c);
    pump(c);
  }

private:
  void local(int x, Message m) { deliver(x, x, m); }

  static void pump(Conn *c) {
    while (c->backlog > 0) {
      uint32_t room = c->tx->GetTxAvailable();
      if (room == 0)
        return;
      uint32_t n = (uint32_t)std::min<uint64_t>(c->backlog, room);
      if (c->tx->Send(ns3::Create<ns3::Packet>(n)) < 0)
        return;
      c->backlog -= n;
    }
  }
  static void room(Conn *c, ns3::Ptr<ns3::Socket>, uint32_t) { pump(c); }

  static void drain(Conn *c) {
    while (!c->expected.empty() && c->got >= c->expected.front().bytes) {
      Message m = c->expected.front();
      c->expected.pop_front();
      c->got -= m.bytes;
      c->owner->deliver(c->src, c->dst, m);
    }
  }
  // Bytes arrived at one end: the other direction's (c is peer -> here).
  static void received(Conn *c, ns3::Ptr<ns3::Socket> s) {
    while (auto packet = s->Recv())
      c->got += packet->GetSize();
    drain(c);
  }

  // Makes s the end of the connection for direction `out` (s's machine to
  // its peer) and the receiver of the other direction.
  void attach(ns3::Ptr<ns3::Socket> s, Conn *out) {
    Conn *in = conns_[(size_t)out->dst * net_.p() + out->src].get();
    out->tx = s;
    s->SetSendCallback(ns3::MakeBoundCallback(&TcpPersistent::room, out));
    s->SetRecvCallback(ns3::MakeBoundCallback(&TcpPersistent::received, in));
    s->SetCloseCallbacks(ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>>(),
                         ns3::MakeBoundCallback(&TcpPersistent::dropped, out));
  }
  // A connection is never closed during a run; an error close is TCP giving
  // up after its retransmissions, which Linux would report to MPI as a
  // failed connection: an error, never a time (nor a "deadlock").
  static void dropped(Conn *c, ns3::Ptr<ns3::Socket>) {
    throw Refusal("the TCP connection " + std::to_string(c->src) + "<->" + std::to_string(c->dst) +
                  " was dropped at " + std::to_string(ns3::Simulator::Now().GetSeconds()) +
                  " s simulated after " + std::to_string(kLinuxDataRetries) +
                  " retransmissions of a segment (Linux's tcp_retries2)");
  }

  // The server's end (out: server -> client) is accepted; its listener is
  // closed, which removes it from the demultiplexer's scan.
  static void accepted(Conn *out, ns3::Ptr<ns3::Socket> s, const ns3::Address &) {
    TcpPersistent *self = out->owner;
    self->attach(s, out);
    IndexedTcp::index(s);
    ns3::Ptr<ns3::Socket> listener = self->listener_[(size_t)out->src * self->net_.p() + out->dst];
    ns3::Simulator::ScheduleNow(&ns3::Socket::Close, listener);
    self->one_done();
  }
  // Starts the connects of the next round that has any; ready() after the last.
  void next_round() {
    int p = net_.p();
    while (round_ < p) {
      int r = round_++;
      for (int a = 0; a < p; a++) {
        int b = (a + r) % p;
        Conn *c = conns_[(size_t)a * p + b].get();
        if (c == nullptr || c->tx || conns_[(size_t)b * p + a]->tx)
          continue;  // no pair, or connected in an earlier round (from b)
        connect(c);
      }
      if (pending_ > 0)
        return;
    }
    ns3::Simulator::ScheduleNow(ready_);
  }
  // Connects c->src (the client) to c->dst (the server), at the port of
  // this client.
  void connect(Conn *c) {
    int p = net_.p();
    uint16_t port = (uint16_t)(kFirstPort + (uint32_t)c->src);
    Conn *back = conns_[(size_t)c->dst * p + c->src].get();
    auto l = ns3::Socket::CreateSocket(net_.ns3_nodes[net_.machine_node[c->dst]],
                                       ns3::TcpSocketFactory::GetTypeId());
    l->Bind(ns3::InetSocketAddress(net_.machine_address[c->dst], port));
    l->Listen();
    l->SetAcceptCallback(ns3::MakeNullCallback<bool, ns3::Ptr<ns3::Socket>, const ns3::Address &>(),
                         ns3::MakeBoundCallback(&TcpPersistent::accepted, back));
    if (listener_.empty())
      listener_.resize((size_t)p * p);
    listener_[(size_t)c->dst * p + c->src] = l;
    auto s = ns3::Socket::CreateSocket(net_.ns3_nodes[net_.machine_node[c->src]],
                                       ns3::TcpSocketFactory::GetTypeId());
    s->Bind(ns3::InetSocketAddress(net_.machine_address[c->src], 0));
    s->SetConnectCallback(ns3::MakeBoundCallback(&TcpPersistent::connected, c),
                          ns3::MakeBoundCallback(&TcpPersistent::refused, c));
    attach(s, c);
    s->Connect(ns3::InetSocketAddress(net_.machine_address[c->dst], port));
    pending_ += 2;  // the client's connect and the server's accept
  }
  static void connected(Conn *c, ns3::Ptr<ns3::Socket> s) {
    IndexedTcp::index(s);
    c->owner->one_done();
  }
  void one_done() {
    if (--pending_ == 0)
      next_round();
  }
  static void refused(Conn *c, ns3::Ptr<ns3::Socket>) {
    throw Refusal("the TCP connection " + std::to_string(c->src) + "->" + std::to_string(c->dst) +
                  " could not be opened (ns-3 gave up after its SYN retries)");
  }

  const Network &net_;
  std::vector<std::unique_ptr<Conn>> conns_;   // p·p: per direction
  std::vector<ns3::Ptr<ns3::Socket>> listener_;  // p·p: server's listener for a client
  std::function<void()> ready_;
  int round_ = 1;
  uint64_t pending_ = 0;  // connects and accepts of the round not completed
};

}  // namespace

std::unique_ptr<Transport> make_tcp_persistent(const Network &net) {
  return std::unique_ptr<Transport>(new TcpPersistent(net));
}

}  // namespace netsched_ns3
