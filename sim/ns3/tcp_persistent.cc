// netsched-ns3 — the tcp-persistent transport (see transport.h).
//
// Message boundaries: a TCP connection is a byte stream, so the receiver
// counts bytes and knows, from the sender's queue of the connection, which
// message the next bytes complete (both ends live in this one process; no
// header bytes are modelled: MPI's TCP headers are tens of bytes beside
// messages of kilobytes).
#include <deque>

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
}

namespace {

constexpr uint16_t kPort = 5000;

struct Conn {
  class TcpPersistent *owner = nullptr;
  int src = 0, dst = 0;
  ns3::Ptr<ns3::Socket> tx;
  uint64_t backlog = 0;            // bytes not yet handed to the socket
  std::deque<Message> expected;    // sent, not yet delivered, in order
  uint64_t got = 0;                // bytes arrived beyond the delivered messages
};

class TcpPersistent : public Transport {
public:
  explicit TcpPersistent(const Network &net) : net_(net), conns_((size_t)net.p() * net.p()) {}

  // The connections open in rounds, round r connecting every machine a to
  // a + r (mod p): at most one handshake per machine and direction at a
  // time, so that the SYNs of p² connections do not overflow the switch
  // queues (a lost SYN costs seconds of ns-3's connection timeout, and a
  // lost final ACK leaves the server half-open until data arrives).
  void open(const std::vector<char> &pairs, std::function<void()> ready) override {
    ready_ = std::move(ready);
    int p = net_.p();
    std::vector<char> listens((size_t)p, 0);
    for (int a = 0; a < p; a++)
      for (int b = 0; b < p; b++)
        if (a != b && pairs[(size_t)a * p + b]) {
          listens[b] = 1;
          auto c = std::make_unique<Conn>();
          c->owner = this;
          c->src = a;
          c->dst = b;
          conns_[(size_t)a * p + b] = std::move(c);
        }
    for (int b = 0; b < p; b++)
      if (listens[b]) {
        auto s = ns3::Socket::CreateSocket(net_.ns3_nodes[net_.machine_node[b]],
                                           ns3::TcpSocketFactory::GetTypeId());
        s->Bind(ns3::InetSocketAddress(net_.machine_address[b], kPort));
        s->Listen();
        s->SetAcceptCallback(ns3::MakeNullCallback<bool, ns3::Ptr<ns3::Socket>, const ns3::Address &>(),
                             ns3::MakeCallback(&TcpPersistent::accepted, this));
        listeners_.push_back(s);
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
  static void received(Conn *c, ns3::Ptr<ns3::Socket> s) {
    while (auto packet = s->Recv())
      c->got += packet->GetSize();
    drain(c);
  }

  void accepted(ns3::Ptr<ns3::Socket> s, const ns3::Address &from) {
    ns3::Ipv4Address peer = ns3::InetSocketAddress::ConvertFrom(from).GetIpv4();
    int p = net_.p(), a = net_.machine_of(peer), b = -1;
    for (int m = 0; m < p && b < 0; m++)
      if (net_.ns3_nodes[net_.machine_node[m]] == s->GetNode())
        b = m;
    if (a < 0 || b < 0 || !conns_[(size_t)a * p + b])
      throw Refusal("internal: a connection from an unknown machine (" +
                    std::to_string(peer.Get()) + ", " + std::to_string(a) + "->" +
                    std::to_string(b) + ")");
    s->SetRecvCallback(ns3::MakeBoundCallback(&TcpPersistent::received, conns_[(size_t)a * p + b].get()));
    rx_.push_back(s);
  }
  // Starts the connects of the next round that has any; ready() after the last.
  void next_round() {
    int p = net_.p();
    while (round_ < p) {
      int r = round_++;
      for (int a = 0; a < p; a++) {
        Conn *c = conns_[(size_t)a * p + (a + r) % p].get();
        if (c == nullptr)
          continue;
        c->tx = ns3::Socket::CreateSocket(net_.ns3_nodes[net_.machine_node[c->src]],
                                          ns3::TcpSocketFactory::GetTypeId());
        c->tx->Bind(ns3::InetSocketAddress(net_.machine_address[c->src], 0));
        c->tx->SetConnectCallback(ns3::MakeBoundCallback(&TcpPersistent::connected, c),
                                  ns3::MakeBoundCallback(&TcpPersistent::refused, c));
        c->tx->SetSendCallback(ns3::MakeBoundCallback(&TcpPersistent::room, c));
        c->tx->Connect(ns3::InetSocketAddress(net_.machine_address[c->dst], kPort));
        pending_++;
      }
      if (pending_ > 0)
        return;
    }
    ns3::Simulator::ScheduleNow(ready_);
  }
  static void connected(Conn *c, ns3::Ptr<ns3::Socket>) {
    if (--c->owner->pending_ == 0)
      c->owner->next_round();
  }
  static void refused(Conn *c, ns3::Ptr<ns3::Socket>) {
    throw Refusal("the TCP connection " + std::to_string(c->src) + "->" + std::to_string(c->dst) +
                  " could not be opened (ns-3 gave up after its SYN retries)");
  }

  const Network &net_;
  std::vector<std::unique_ptr<Conn>> conns_;
  std::vector<ns3::Ptr<ns3::Socket>> listeners_, rx_;
  std::function<void()> ready_;
  int round_ = 1;
  uint64_t pending_ = 0;  // connects of the round not completed
};

}  // namespace

std::unique_ptr<Transport> make_tcp_persistent(const Network &net) {
  return std::unique_ptr<Transport>(new TcpPersistent(net));
}

}  // namespace netsched_ns3
