// netsched-ns3 — the machines' programs (see runner.h).
#include "runner.h"

#include <string>
#include <unordered_map>

#include "ns3/simulator.h"

namespace netsched_ns3 {

std::vector<char> program_pairs(const Program *prog) {
  int p = prog->p;
  std::vector<char> pairs((size_t)p * p, 0);
  auto mark = [&](int a, int b) { pairs[(size_t)a * p + b] = a != b; };
  for (uint64_t t = 0; t < prog->n_all; t++) {
    mark(prog->src[t], prog->dst[t]);
    if (prog->light)
      mark(prog->dst[t], prog->src[t]);
    int from = prog->receiver_based ? prog->dst[t] : prog->src[t];
    for (uint32_t k = prog->sync_start[t]; k < prog->sync_start[t + 1]; k++)
      mark(from, prog->src[prog->sync_to[k]]);
  }
  if (prog->n_barriers > 0 && !prog->hardware_barrier)
    for (int x = 0; x < p; x++)
      for (int d = 1; d < p; d *= 2)
        mark(x, (x + d) % p);
  return pairs;
}

namespace {

class Runner {
public:
  Runner(Program *prog, Transport &tr)
      : g_(prog), tr_(tr), m_((size_t)prog->p), sync_got_(prog->n_all, 0),
        recv_posted_(prog->n_all, 0), send_waiting_(prog->n_all, 0), arrived_(prog->n_all, 0) {
    tr_.deliver = [this](int src, int dst, const Message &msg) { delivered(src, dst, msg); };
  }

  void start() {
    t0_ = ns3::Simulator::Now().GetSeconds();
    for (int x = 0; x < g_->p; x++) {
      m_[x].step = g_->step_start[x];
      if (g_->arrival[x] > 0)
        ns3::Simulator::Schedule(ns3::Seconds(g_->arrival[x]), &Runner::advance, this, x);
      else
        ns3::Simulator::ScheduleNow(&Runner::advance, this, x);
    }
  }

  bool finished() {
    int done = 0;
    for (const auto &m : m_)
      done += m.state == kDone;
    if (done == g_->p && g_->header->transfers_done == g_->n_all)
      return true;
    std::string why = "deadlock at " + std::to_string(now()) + " s simulated: " +
                      std::to_string(g_->p - done) + " of " + std::to_string(g_->p) +
                      " machines never finished, " + std::to_string(g_->header->transfers_done) +
                      " of " + std::to_string(g_->n_all) + " transfers completed";
    g_strlcpy(g_->header->error, why.c_str(), sizeof g_->header->error);
    return false;
  }

private:
  enum State { kIdle, kBarrier, kSending, kWaiting, kDone };
  struct Machine {
    State state = kIdle;
    uint32_t step = 0;        // into steps
    uint32_t barrier = 0;     // next barrier
    uint32_t send = 0;        // next send of the step
    uint32_t outstanding = 0; // the step's transfers not completed here
    uint32_t round = 1;       // dissemination distance of the barrier
    bool round_sent = false;
    std::unordered_map<uint64_t, uint32_t> barrier_got;  // (barrier, distance) -> messages
  };

  double now() const { return ns3::Simulator::Now().GetSeconds() - t0_; }
  bool eager(uint64_t t) const { return g_->bytes[t] < (double)g_->eager_threshold; }
  void send(int src, int dst, Message::Kind k, uint64_t id, uint64_t bytes) {
    if (k != Message::kData)
      g_->header->n_sync_messages++;
    tr_.send(src, dst, Message{ k, id, bytes });
  }
  void transfer_done(uint64_t t) {
    g_->end[t] = now();
    g_->header->transfers_done++;
    g_->header->clock = g_->end[t];
    stop_when_over();
  }
  // The collective is over when every machine finished and every transfer
  // completed: the connections' idle timers need not run out.
  void stop_when_over() {
    if (machines_done_ == g_->p && g_->header->transfers_done == g_->n_all)
      ns3::Simulator::Stop();
  }
  // The syncs transfer t's completion at machine x releases.
  void release_syncs(int x, uint64_t t) {
    for (uint32_t k = g_->sync_start[t]; k < g_->sync_start[t + 1]; k++) {
      uint32_t target = g_->sync_to[k];
      send(x, g_->src[target], Message::kSync, target, g_->sync_size);
    }
  }
  void start_data(uint64_t t) { send(g_->src[t], g_->dst[t], Message::kData, t, (uint64_t)g_->bytes[t]); }

  // A receive completed at x (its data is there and it was posted).
  void received(int x, uint64_t t) {
    if (eager(t))
      transfer_done(t);
    if (g_->receiver_based)
      release_syncs(x, t);
  }

  void delivered(int src, int dst, const Message &msg) {
    switch (msg.kind) {
    case Message::kData: {
      uint64_t t = msg.id;
      arrived_[t] = 1;
      if (!eager(t)) {  // a rendezvous: the sender's completion too
        transfer_done(t);
        if (!g_->receiver_based)
          release_syncs(src, t);
        m_[src].outstanding--;
        advance(src);
      }
      if (recv_posted_[t]) {
        received(dst, t);
        m_[dst].outstanding--;
        advance(dst);
      }
      break;
    }
    case Message::kSync:
      sync_got_[msg.id]++;
      advance(dst);
      break;
    case Message::kBarrier:
      m_[dst].barrier_got[msg.id]++;
      advance(dst);
      break;
    }
  }

  // Whether x's current barrier is over (hardware: every machine arrived).
  bool barrier_step(int x) {
    Machine &m = m_[x];
    if (g_->hardware_barrier) {
      if (!m.round_sent) {
        m.round_sent = true;
        if (++hardware_arrived_[m.barrier] == (uint32_t)g_->p)
          for (int y = 0; y < g_->p; y++)
            if (y != x)
              ns3::Simulator::ScheduleNow(&Runner::advance, this, y);
      }
      return hardware_arrived_[m.barrier] == (uint32_t)g_->p;
    }
    int p = g_->p;
    while (m.round < (uint32_t)p) {
      uint64_t key = (uint64_t)m.barrier << 32 | m.round;
      if (!m.round_sent) {
        send(x, (int)((x + m.round) % p), Message::kBarrier, key, g_->sync_size);
        m.round_sent = true;
      }
      auto it = m.barrier_got.find(key);
      if (it == m.barrier_got.end())
        return false;
      if (--it->second == 0)
        m.barrier_got.erase(it);
      m.round *= 2;
      m.round_sent = false;
    }
    return true;
  }

  void begin_step(int x, const Step &st) {
    Machine &m = m_[x];
    m.send = 0;
    m.outstanding = st.n_recvs;
    for (uint32_t i = 0; i < st.n_recvs; i++) {
      uint32_t t = g_->ops[st.recv_first + i];
      if (g_->light)  // the light barrier: tell the sender this phase is reached
        send(x, g_->src[t], Message::kSync, t, g_->sync_size);
      recv_posted_[t] = 1;
      if (arrived_[t]) {  // an eager message that came early
        received(x, t);
        m.outstanding--;
      } else if (send_waiting_[t]) {
        start_data(t);
      }
    }
  }

  void advance(int x) {
    Machine &m = m_[x];
    for (;;) {
      switch (m.state) {
      case kDone:
        return;
      case kBarrier:
        if (!barrier_step(x))
          return;
        m.barrier++;
        m.round = 1;
        m.round_sent = false;
        m.state = kIdle;
        break;
      case kIdle: {
        bool more = m.step < g_->step_start[x + 1];
        uint32_t phase = more ? g_->steps[m.step].phase : 0;
        if (m.barrier < g_->n_barriers && (!more || g_->barrier_phase[m.barrier] <= phase)) {
          if (g_->hardware_barrier && hardware_arrived_.size() <= m.barrier)
            hardware_arrived_.resize(m.barrier + 1, 0);
          m.state = kBarrier;
          break;
        }
        if (!more) {
          m.state = kDone;
          g_->finish[x] = now();
          machines_done_++;
          stop_when_over();
          return;
        }
        begin_step(x, g_->steps[m.step]);
        m.state = kSending;
        break;
      }
      case kSending: {
        const Step &st = g_->steps[m.step];
        for (; m.send < st.n_sends; m.send++) {
          uint32_t t = g_->ops[st.send_first + m.send];
          if (sync_got_[t] < g_->needed[t])
            return;  // a sync it waits for has not arrived
          g_->start[t] = now();
          if (eager(t)) {  // completes at the sender when posted
            start_data(t);
            if (!g_->receiver_based)
              release_syncs(x, t);
            continue;
          }
          m.outstanding++;
          if (recv_posted_[t])
            start_data(t);
          else
            send_waiting_[t] = 1;
        }
        m.state = kWaiting;
        break;
      }
      case kWaiting:
        if (m.outstanding > 0)
          return;
        m.step++;
        m.state = kIdle;
        break;
      }
    }
  }

  Program *g_;
  Transport &tr_;
  std::vector<Machine> m_;
  std::vector<uint32_t> sync_got_;
  std::vector<char> recv_posted_, send_waiting_, arrived_;
  std::vector<uint32_t> hardware_arrived_;
  double t0_ = 0;
  int machines_done_ = 0;
};

}  // namespace

bool run_program(Program *prog, Transport &transport) {
  Runner runner(prog, transport);
  bool started = false;
  transport.open(program_pairs(prog), [&] {
    started = true;
    runner.start();
  });
  ns3::Simulator::Run();  // runs until no event is left: every message delivered
  if (!started) {
    g_strlcpy(prog->header->error, "the transport's connections never opened",
              sizeof prog->header->error);
    return false;
  }
  if (!runner.finished())
    return false;
  double completion = 0;
  for (int x = 0; x < prog->p; x++)
    completion = std::max(completion, prog->finish[x]);
  for (uint64_t t = 0; t < prog->n_all; t++)
    completion = std::max(completion, prog->end[t]);
  prog->header->completion = completion;
  return true;
}

}  // namespace netsched_ns3
