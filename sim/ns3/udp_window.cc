// netsched-ns3 — the udp-window transport (see transport.h): Tam & Wang's
// user-level reliable protocol over UDP with their global window (§3.2,
// Algorithm 2), as their DP messaging layer ran it with its Go-Back-N.
//
// - Items: every message is cut into items of one datagram each, MTU − 28
//   (IP 20, UDP 8) − kHeader bytes of data (§3.1: "b usually stands for the
//   maximum transfer unit"); a message of 0 bytes is one empty item.
// - The global window: a machine sends the next item only while η < W
//   (Algorithm 2), η over all its destinations together, counted one of
//   two ways (UdpOptions::Count). Algorithm 2's own: η = items sent −
//   items received ("inc η" on a send, "dec η" on every item received
//   from anyone), so an acknowledgement queued behind the receiver's own
//   items delays nothing; the default under the window scheme. Or items
//   sent and not yet acknowledged, the default for any other schedule.
//   Items of the messages a machine has going leave in round robin, item
//   s of each before item s + 1 — Algorithm 1's loop order when a step
//   posts them together.
// - When the paper's η stops: it falls only when items arrive, so a
//   machine that has sent W items more than it has received waits for
//   items from others. Where every machine sends as many items as it
//   receives in one step posted at once (the complete exchange), that wait
//   always ends. Suppose the network went quiet with items held back:
//   every item sent has arrived (a lost one is still timed), so the η of
//   all machines sum to 0. A machine with nothing left to send has sent
//   all it will and received at most as much: η ≥ 0. One holding items
//   back has η ≥ W > 0. The sum is positive: a contradiction. A schedule
//   in which a machine sends W more than it receives before it may go on
//   (a broadcast's root) stops for good; the run then ends as a deadlock
//   whose message names the machine and its counts (stall()).
// - Acknowledgements: one per item, as the paper's Go-Back-N control
//   packets are counted in its W_g (§4.2: eq. 4's ν doubled, 45 ÷
//   ((16 − 8)·8·2 / 15) = 5 on 8x2, for one control packet per data packet
//   through the uplink). They drive retransmission and the timeout under
//   either count; under the paper's they open no window.
// - Reliability: the receiver acknowledges every item it gets (duplicates
//   too: the first acknowledgement may be the one lost); an item not
//   acknowledged within the retransmission timeout is sent again, the
//   timeout doubling on each retry of that item (at most 64 times). The
//   timeout is TCP's (RFC 6298 §2), kept per machine over all its items:
//   srtt + 4·rttvar from the round trips of items sent once (Karn's rule),
//   at least the minimum (--retransmit-timeout); kInitialTimeout before the
//   first sample. A retransmission takes no new window slot: the item
//   still holds its own.
// - Order: a message is delivered once all its items arrived, and the
//   messages of one ordered pair in the order they were sent.
// The header carries (kind, source machine, message number on the pair,
// item); both ends live in this one process, so the receiver learns each
// message's size and meaning from the sender's record, as tcp-persistent's
// receiver does.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>

#include "transport.h"

#include "ns3/inet-socket-address.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"

namespace netsched_ns3 {

namespace {

constexpr uint16_t kPort = 6000;
constexpr uint32_t kHeader = 16;  // kind, source, message, item: 4 bytes each
constexpr uint32_t kIpUdp = 28;   // IPv4 20 + UDP 8
enum Kind : uint32_t { kItem = 1, kAck = 2 };
// Before a machine's first round trip (with --retransmit-timeout below
// it): above the longest an item can wait on Tam & Wang's hierarchies, 31
// machines' 5 items queued at one 100 Mbit/s port (19 ms of 1502-byte
// frames); RFC 6298's 1 s is for the Internet.
constexpr double kInitialTimeout = 0.02;

struct OutMessage {
  uint64_t bytes = 0;
  uint32_t items = 0;
  uint32_t next = 0;          // items sent at least once
  uint32_t acked_count = 0;
  std::vector<char> acked;
  std::vector<uint8_t> tries; // retransmissions of each item
  std::vector<double> sent_at; // s, its first transmission
  std::vector<ns3::EventId> timer;
};

struct InMessage {
  Message m;
  uint32_t items = 0;
  uint32_t got_count = 0;
  std::vector<char> got;
};

// One ordered pair: the sender's messages not yet fully acknowledged and
// the receiver's not yet delivered, each numbered from its base.
struct Pair {
  std::deque<OutMessage> out;
  uint32_t out_base = 0;
  std::deque<InMessage> in;
  uint32_t in_base = 0;
  uint32_t sent = 0;  // messages numbered so far
};

struct Machine {
  class UdpWindow *owner = nullptr;
  int index = 0;
  ns3::Ptr<ns3::Socket> socket;
  uint32_t outstanding = 0;  // items sent, not acknowledged (η of Count::kUnacked)
  uint64_t items_sent = 0, items_received = 0;  // first copies: η of Count::kSentReceived
  double srtt = 0, rttvar = 0;  // RFC 6298's estimates, s; srtt 0: no sample yet
  std::deque<std::pair<int, uint32_t>> active;  // (destination, message) with unsent items
};

class UdpWindow : public Transport {
public:
  UdpWindow(const Network &net, const UdpOptions &opt, uint32_t mtu)
      : net_(net), opt_(opt), item_data_(mtu - kIpUdp - kHeader), pairs_((size_t)net.p() * net.p()),
        m_((size_t)net.p()) {
    if (mtu <= kIpUdp + kHeader)
      throw Refusal("--mtu " + std::to_string(mtu) + ": no room for an item's data");
  }

  // UDP opens nothing: a socket per machine, ready at once.
  void open(const std::vector<char> &, std::function<void()> ready) override {
    for (int x = 0; x < net_.p(); x++) {
      auto s = ns3::Socket::CreateSocket(net_.ns3_nodes[net_.machine_node[x]],
                                         ns3::UdpSocketFactory::GetTypeId());
      if (s->Bind(ns3::InetSocketAddress(net_.machine_address[x], kPort)) < 0)
        throw Refusal("internal: cannot bind the UDP socket of machine " + std::to_string(x));
      m_[x].owner = this;
      m_[x].index = x;
      m_[x].socket = s;
      s->SetRecvCallback(ns3::MakeBoundCallback(&UdpWindow::received, &m_[x]));
    }
    ns3::Simulator::ScheduleNow(ready);
  }

  std::string stall() const override {
    for (const Machine &mx : m_)
      if (!mx.active.empty() && !window_open(mx))
        return "udp-window: " + net_.nodes[net_.machine_node[mx.index]].name + " has sent " +
               std::to_string(mx.items_sent) + " items and received " +
               std::to_string(mx.items_received) + ", so its window (W = " +
               std::to_string(opt_.window) +
               ", counting sent - received as Tam & Wang's eta) never reopens; " +
               "--window-count unacked completes any schedule";
    return {};
  }

  void send(int src, int dst, const Message &m) override {
    if (src == dst) {  // a machine's message to itself crosses no network
      ns3::Simulator::ScheduleNow(&UdpWindow::local, this, src, m);
      return;
    }
    Pair &pr = pair(src, dst);
    uint32_t items = m.bytes == 0 ? 1 : (uint32_t)((m.bytes + item_data_ - 1) / item_data_);
    OutMessage o;
    o.bytes = m.bytes;
    o.items = items;
    o.acked.assign(items, 0);
    o.tries.assign(items, 0);
    o.sent_at.assign(items, 0);
    o.timer.resize(items);
    pr.out.push_back(std::move(o));
    pr.in.push_back(InMessage{ m, items, 0, std::vector<char>(items, 0) });
    m_[src].active.emplace_back(dst, pr.sent++);
    pump(src);
  }

private:
  Pair &pair(int a, int b) { return pairs_[(size_t)a * net_.p() + b]; }
  void local(int x, Message m) { deliver(x, x, m); }

  uint32_t data_of(const OutMessage &o, uint32_t item) const {
    if (o.bytes == 0)
      return 0;
    uint64_t before = (uint64_t)item * item_data_;
    return (uint32_t)std::min<uint64_t>(item_data_, o.bytes - before);
  }

  void transmit(int from, int to, Kind kind, uint32_t message, uint32_t item, uint32_t data) {
    uint32_t h[4] = { kind, (uint32_t)from, message, item };
    auto packet = ns3::Create<ns3::Packet>(reinterpret_cast<const uint8_t *>(h), kHeader);
    if (data > 0)
      packet->AddPaddingAtEnd(data);
    // A full host queue drops the datagram: the timeout sends it again.
    m_[from].socket->SendTo(packet, 0, ns3::InetSocketAddress(net_.machine_address[to], kPort));
  }

  // Algorithm 2's test η < W, η as counted by opt_.count.
  bool window_open(const Machine &mx) const {
    if (opt_.count == UdpOptions::Count::kSentReceived)
      return mx.items_sent < mx.items_received + opt_.window;  // unsigned: no underflow
    return mx.outstanding < opt_.window;
  }

  // Algorithm 2: sends while η < W, the next item in round robin.
  void pump(int x) {
    Machine &mx = m_[x];
    while (window_open(mx) && !mx.active.empty()) {
      auto [dst, message] = mx.active.front();
      mx.active.pop_front();
      Pair &pr = pair(x, dst);
      OutMessage &o = pr.out[message - pr.out_base];
      uint32_t item = o.next++;
      if (o.next < o.items)
        mx.active.emplace_back(dst, message);
      mx.outstanding++;
      mx.items_sent++;
      send_item(x, dst, message, item);
    }
  }

  void send_item(int x, int dst, uint32_t message, uint32_t item) {
    Pair &pr = pair(x, dst);
    OutMessage &o = pr.out[message - pr.out_base];
    transmit(x, dst, kItem, message, item, data_of(o, item));
    if (o.tries[item] == 0)
      o.sent_at[item] = ns3::Simulator::Now().GetSeconds();
    double wait = timeout(m_[x]) * (double)(1u << std::min<uint32_t>(o.tries[item], 6));
    o.timer[item] = ns3::Simulator::Schedule(ns3::Seconds(wait), &UdpWindow::timed_out, this, x,
                                             dst, message, item);
  }

  double timeout(const Machine &mx) const {
    if (mx.srtt == 0)
      return std::max(opt_.timeout, kInitialTimeout);
    return std::max(opt_.timeout, mx.srtt + 4 * mx.rttvar);
  }
  // RFC 6298 §2.2-2.3 (α = 1/8, β = 1/4).
  static void sample_rtt(Machine &mx, double r) {
    if (mx.srtt == 0) {
      mx.srtt = r;
      mx.rttvar = r / 2;
      return;
    }
    mx.rttvar = 0.75 * mx.rttvar + 0.25 * std::abs(mx.srtt - r);
    mx.srtt = 0.875 * mx.srtt + 0.125 * r;
  }

  // Item `item` of message `message` from x to dst while it still waits
  // for its acknowledgement; nullptr once acknowledged (or its message
  // retired): a late timer or a retransmission's second acknowledgement.
  OutMessage *unacked(int x, int dst, uint32_t message, uint32_t item) {
    Pair &pr = pair(x, dst);
    if (message < pr.out_base)
      return nullptr;
    OutMessage &o = pr.out[message - pr.out_base];
    return o.acked[item] ? nullptr : &o;
  }

  void timed_out(int x, int dst, uint32_t message, uint32_t item) {
    OutMessage *waiting = unacked(x, dst, message, item);
    if (waiting == nullptr)
      return;
    OutMessage &o = *waiting;
    if (o.tries[item] < 255)
      o.tries[item]++;
    send_item(x, dst, message, item);
  }

  static void received(Machine *m, ns3::Ptr<ns3::Socket> s) {
    UdpWindow *self = m->owner;
    while (auto packet = s->Recv()) {
      uint32_t h[4];
      if (packet->GetSize() < kHeader)
        throw Refusal("internal: a datagram shorter than the item header");
      packet->CopyData(reinterpret_cast<uint8_t *>(h), kHeader);
      int from = (int)h[1];
      if (from < 0 || from >= self->net_.p())
        throw Refusal("internal: a datagram from an unknown machine");
      if (h[0] == kItem)
        self->item_arrived(from, m->index, h[2], h[3]);
      else
        self->ack_arrived(m->index, from, h[2], h[3]);
    }
  }

  void item_arrived(int src, int dst, uint32_t message, uint32_t item) {
    transmit(dst, src, kAck, message, item, 0);
    Pair &pr = pair(src, dst);
    if (message < pr.in_base)
      return;  // a duplicate of a delivered message
    InMessage &im = pr.in[message - pr.in_base];
    if (im.got[item])
      return;
    im.got[item] = 1;
    im.got_count++;
    m_[dst].items_received++;  // Algorithm 2's "dec η"

    // In order: deliver(), which may send, touches no reference kept here.
    while (!pr.in.empty() && pr.in.front().got_count == pr.in.front().items) {
      Message m = pr.in.front().m;
      pr.in.pop_front();
      pr.in_base++;
      deliver(src, dst, m);
    }
    if (opt_.count == UdpOptions::Count::kSentReceived)
      pump(dst);  // the item received may have reopened dst's window
  }

  void ack_arrived(int x, int dst, uint32_t message, uint32_t item) {
    OutMessage *waiting = unacked(x, dst, message, item);
    if (waiting == nullptr)
      return;  // the acknowledgement of a retransmission
    OutMessage &o = *waiting;
    o.acked[item] = 1;
    o.acked_count++;
    o.timer[item].Cancel();
    if (o.tries[item] == 0)  // Karn: a retransmitted item's round trip is ambiguous
      sample_rtt(m_[x], ns3::Simulator::Now().GetSeconds() - o.sent_at[item]);
    m_[x].outstanding--;
    Pair &pr = pair(x, dst);
    while (!pr.out.empty() && pr.out.front().acked_count == pr.out.front().items) {
      pr.out.pop_front();
      pr.out_base++;
    }
    pump(x);
  }

  const Network &net_;
  UdpOptions opt_;
  uint32_t item_data_;
  std::vector<Pair> pairs_;
  std::vector<Machine> m_;  // never resized: the sockets' callbacks point into it
};

}  // namespace

std::unique_ptr<Transport> make_udp_window(const Network &net, const UdpOptions &opt, uint32_t mtu) {
  return std::unique_ptr<Transport>(new UdpWindow(net, opt, mtu));
}

}  // namespace netsched_ns3
