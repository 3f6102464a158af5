/* netsched — alltoall/faraj: optimal contention-free AAPC phases on a tree.
 *
 * A. Faraj and X. Yuan, "Message Scheduling for All-to-All Personalized
 * Communication on Ethernet Switched Clusters", §4 (dissertation §3.2).
 */
#include "platforms/routing/tree.h"
#include "sched/planners/common/phase_packing_internal.h"
#include "platforms/model/error.h"
#include "sched/planners/registry.h"

/* The two-level view of §4.2 (Figure 2): the root's k subtrees t_0..t_{k-1},
 * |M_0| >= |M_1| >= ... >= |M_{k-1}|, and T = |M_0|·(|M| − |M_0|) phases. */
typedef struct {
  int k;
  int *m;          /* m[i] = |M_i| */
  int *offset;     /* machines of t_i: member[offset[i] .. offset[i]+m[i]) */
  int *member;     /* member[offset[i] + x] = machine index of t_{i,x} */
  int64_t *prefix; /* prefix[i] = m[0] + ... + m[i-1] */
  int64_t T;       /* number of phases = bottleneck load */
} TwoLevel;

static int64_t mod(int64_t a, int64_t n) { return ((a % n) + n) % n; }

static int64_t gcd(int64_t a, int64_t b)
{
  while (b != 0) {
    int64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

static int machine(const TwoLevel *v, int i, int64_t x) { return v->member[v->offset[i] + x]; }

/* Σ_{k=a}^{b} |M_k| (0 when a > b). */
static int64_t msum(const TwoLevel *v, int a, int b)
{
  return a > b ? 0 : v->prefix[b + 1] - v->prefix[a];
}

/* First phase of t_i -> t_j under extended ring scheduling (§4.2):
 *   j > i: |M_i| · Σ_{k=i+1}^{j-1} |M_k|
 *   i > j: T − |M_j| · Σ_{k=j+1}^{i} |M_k|
 * The messages of t_i -> t_j occupy |M_i|·|M_j| consecutive phases. */
static int64_t group_start(const TwoLevel *v, int i, int j)
{
  if (j > i)
    return (int64_t)v->m[i] * msum(v, i + 1, j - 1);
  return v->T - (int64_t)v->m[j] * msum(v, j + 1, i);
}

/* The transfer of a's message to b, one of n machines. */
static inline NsTransfer message(int n, int a, int b)
{
  return (NsTransfer){ .src = a, .dst = b, .n_chunks = 1, .chunk = ns_a2a_chunk(n, a, b) };
}

/* Where subtree t_i stands at phase p, kept phase by phase so that a
 * phase costs no division (15.7 M phases on 16,384 machines; issue #24):
 * its group t_i -> t_j in ring order (i+1, ..., k-1, 0, ..., i-1), the
 * local phase q within it and q's quotient and remainder by |M_j| (every
 * step reads one of the two); t_0 also keeps its rotate-pattern sender
 * (Step 1.b): with D = gcd(|M_0|, |M_j|) and b = |M_j|/D the base sequence
 * t_{0,0} .. t_{0,|M_0|-1} is repeated b times, then rotated once, so at
 * local phase q the sender is t_{0,(q + ⌊q/(|M_0|·b)⌋) mod |M_0|}. */
typedef struct {
  int cursor;         /* groups of t_i passed so far (k − 1: none left) */
  int j;              /* destination subtree of the group at `cursor` */
  int64_t start, end; /* its phases [start, end) */
  gboolean in;        /* q and the counters below are current */
  int64_t q, q_div, q_mod;
  /* t_0 only: period = |M_0|·b, in_period = q mod period,
   * rotation = ⌊q/period⌋ mod |M_0|, q_mod0 = q mod |M_0| */
  int64_t period, in_period, rotation, q_mod0;
} Sender;

/* The group at s->cursor (or none), not yet entered. */
static void sender_group(const TwoLevel *v, int i, Sender *s)
{
  s->in = FALSE;
  if (s->cursor >= v->k - 1) {
    s->j = -1;
    return;
  }
  s->j = (i + 1 + s->cursor) % v->k;
  s->start = group_start(v, i, s->j);
  s->end = s->start + (int64_t)v->m[i] * v->m[s->j];
}

/* Advances t_i to phase p (called for p = 0, 1, 2, ...): TRUE when it
 * sends at p, with its group's counters at local phase p − start. */
static gboolean sender_at(const TwoLevel *v, int i, int64_t p, Sender *s)
{
  while (s->j >= 0 && p >= s->end) {
    s->cursor++;
    sender_group(v, i, s);
  }
  if (s->j < 0 || p < s->start)
    return FALSE;
  int64_t mj = v->m[s->j], m0 = v->m[0];
  if (!s->in) { /* entered: once per group, k(k − 1) times in all */
    s->in = TRUE;
    s->q = p - s->start;
    s->q_div = s->q / mj;
    s->q_mod = s->q % mj;
    if (i == 0) {
      s->period = m0 * (mj / gcd(m0, mj));
      s->in_period = s->q % s->period;
      s->rotation = (s->q / s->period) % m0;
      s->q_mod0 = s->q % m0;
    }
    return TRUE;
  }
  s->q++;
  if (++s->q_mod == mj) {
    s->q_mod = 0;
    s->q_div++;
  }
  if (i == 0) {
    if (++s->q_mod0 == m0)
      s->q_mod0 = 0;
    if (++s->in_period == s->period) {
      s->in_period = 0;
      if (++s->rotation == m0)
        s->rotation = 0;
    }
  }
  return TRUE;
}

/* The machine of t_0 that sends at its current phase: (q + ⌊q/(|M_0|·b)⌋)
 * mod |M_0|. */
static int64_t t0_sender_index(const TwoLevel *v, const Sender *s)
{
  int64_t x = s->q_mod0 + s->rotation;
  return x >= v->m[0] ? x - v->m[0] : x;
}

static void two_level_free(TwoLevel *v)
{
  g_free(v->m);
  g_free(v->offset);
  g_free(v->member);
  g_free(v->prefix);
}

/*
 * ns_alltoall_faraj — AAPC in exactly load-many contention-free phases.
 *
 * Steps (Faraj & Yuan §4; Figure 4 for steps 3–8):
 *  1. Identify the root (§4.1, Lemma 1): a switch on a bottleneck link
 *     whose subtrees each hold at most |M|/2 machines.
 *  2. Order the root's subtrees by decreasing size, t_0 .. t_{k-1}.
 *  3. Global scheduling (§4.2): extended ring scheduling gives every group
 *     t_i -> t_j its |M_i|·|M_j| consecutive phases within
 *     T = |M_0|·(|M| − |M_0|) phases (Lemma 2).
 *  4. Step 1: t_0 -> t_j by the rotate pattern; receiver at phase p is
 *     t_{j,(p−T) mod |M_j|} (aligned with Step 4).
 *  5. Step 2: t_i -> t_0 by the broadcast pattern; in round r = ⌊p/|M_0|⌋
 *     the receiver is t_{0,(x + (r mod |M_0|) + 1) mod |M_0|} where t_{0,x}
 *     sends in that phase (Table 3).
 *  6. Step 3: local t_{0,y} -> t_{0,x} in phases 0 .. |M_0|(|M_0|−1)−1,
 *     where t_{0,y} receives and t_{0,x} sends a global message.
 *  7. Step 4: t_i -> t_j, i > j >= 1, broadcast pattern, receivers
 *     t_{j,(p−T) mod |M_j|}.
 *  8. Step 5: local messages of t_i, i >= 1, in the phases of
 *     t_i -> t_{i-1}: t_{i,d} -> t_{i,s} at the first phase of sender
 *     t_{i,s}'s block where t_{i,d} is the designated receiver
 *     t_{i,(p−T) mod |M_i|} (Lemma 3 makes it contention-free).
 *  9. Step 6: t_i -> t_j, 1 <= i < j, broadcast pattern.
 * Every phase lists the global messages of t_0, t_1, ... then the local
 * messages of t_0, t_1, ... (the column order of Table 4).
 *
 * 10. Links of different speeds (beyond the paper): the phases are packed
 *     so that each link carries up to its capacity per phase
 *     (sched/planners/common/phase_packing_internal.h: greedy first fit, rate-weighted); with one
 *     speed the schedule is the paper's, unchanged.
 * Result: T phases (= the bottleneck load), every message exactly once, no
 * two messages of a phase share a directed edge (the paper's Theorem).
 * Reproduces Table 4 for the cluster of Figure 1. With mixed speeds:
 * contention-free in the rate-weighted sense and near the bandwidth-
 * weighted bound (heuristic, see phase_packing_internal.h).
 *
 * Time O(|V| log |V| + |M|²) — constant work per message, computed phase by
 * phase with no intermediate message list; memory: the schedule only, or
 * one phase when streamed (ns_plan_streamed; one link speed only).
 * Errors: none for finalized trees with >= 2 machines.
 */
NsSchedule *ns_alltoall_faraj(const NsTopology *topo, const NsPlanParams *params,
                              GError **error)
{
  int p_machines = ns_topology_n_machines(topo);
  TwoLevel v = { 0 };
  int root = ns_a2a_find_root(topo);
  ns_root_subtrees(topo, root, &v.k, &v.m, &v.offset, &v.member);
  v.prefix = g_new0(int64_t, v.k + 1);
  for (int i = 0; i < v.k; i++)
    v.prefix[i + 1] = v.prefix[i] + v.m[i];
  const int64_t m0 = v.m[0];
  v.T = m0 * (p_machines - m0);

  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "faraj", params->msize);
  /* Faraj & Yuan ran their phases with sender-based pair-wise
   * synchronisation (§5): the simulator's default for this schedule. */
  ns_schedule_relabel(s, "faraj", "sender-all");
  gboolean mixed = ns_topology_mixed_speeds(topo);
  if (!mixed) /* packing reads every phase again */
    ns_plan_stream(s, params);
  ns_schedule_reserve(s, (uint32_t)v.T, (uint64_t)p_machines * (p_machines - 1));
  Sender *snd = g_new0(Sender, v.k);
  gboolean *sends = g_new(gboolean, v.k);
  int64_t *ring = g_new(int64_t, v.k); /* ring[j] = (p − T) mod |M_j|, the designated receiver */
  for (int i = 0; i < v.k; i++) {
    sender_group(&v, i, &snd[i]);
    ring[i] = mod(-v.T, v.m[i]);
  }
  const int n = p_machines;
  const int64_t local0 = m0 * (m0 - 1);
  /* a phase's transfers, appended at once: at most one global and one
   * local message per subtree */
  NsTransfer *phase = g_new0(NsTransfer, 2 * (gsize)v.k);
  int64_t round = 0, in_round = 0; /* round = ⌊p/|M_0|⌋ mod |M_0|, in_round = p mod |M_0| */

  for (int64_t p = 0; p < v.T; p++) {
    uint32_t n_phase = 0;
    for (int i = 0; i < v.k; i++)
      sends[i] = sender_at(&v, i, p, &snd[i]);
    /* t_0 sends in every phase (its groups cover [0, T)). */
    int64_t x0 = t0_sender_index(&v, &snd[0]);
    int64_t y0 = -1; /* receiver in t_0 of a global message */

    /* Global messages, one per sending subtree. */
    for (int i = 0; i < v.k; i++) {
      if (!sends[i])
        continue;
      const Sender *si = &snd[i];
      int j = si->j;
      int64_t src, dst;
      if (i == 0) {                         /* Step 1: rotate pattern */
        src = x0;
        dst = ring[j];
      } else if (j == 0) {                  /* Step 2: Table 3 mapping */
        src = si->q_div; /* q / |M_0| */
        dst = x0 + round + 1;               /* (x0 + round + 1) mod |M_0|: both < |M_0| */
        dst = dst >= m0 ? dst - m0 : dst;
        y0 = dst;
      } else if (i > j) {                   /* Step 4: aligned broadcast */
        src = si->q_div;
        dst = ring[j];
      } else {                              /* Step 6: broadcast */
        src = si->q_div;
        dst = si->q_mod;
      }
      int a = machine(&v, i, src), b = machine(&v, j, dst);
      phase[n_phase++] = message(n, a, b);
    }

    /* Step 3: local message of t_0 in the first |M_0|(|M_0|−1) phases. */
    if (p < local0 && y0 >= 0 && y0 != x0) {
      int a = machine(&v, 0, y0), b = machine(&v, 0, x0);
      phase[n_phase++] = message(n, a, b);
    }
    /* Step 5: local message of t_i (i >= 1) in the phases of t_i -> t_{i-1}
     * (blocks of |M_{i-1}| phases: q_div and q_mod are q's block and place). */
    for (int i = 1; i < v.k; i++) {
      const Sender *si = &snd[i];
      if (!sends[i] || si->j != i - 1 || v.m[i] < 2)
        continue;
      if (si->q_mod >= v.m[i])
        continue; /* later phases of the block repeat designated receivers */
      int64_t sender = si->q_div;
      int64_t designated = ring[i];
      if (designated == sender)
        continue;
      int a = machine(&v, i, designated), b = machine(&v, i, sender);
      phase[n_phase++] = message(n, a, b);
    }
    ns_schedule_begin_phase(s);
    ns_schedule_add_transfers(s, phase, n_phase);
    /* the next phase's round and designated receivers */
    if (++in_round == m0) {
      in_round = 0;
      if (++round == m0)
        round = 0;
    }
    for (int j = 0; j < v.k; j++)
      if (++ring[j] == v.m[j])
        ring[j] = 0;
  }
  g_free(snd);
  g_free(sends);
  g_free(ring);
  g_free(phase);
  two_level_free(&v);
  if (mixed) {
    NsSchedule *packed = ns_schedule_pack_phases(topo, s);
    ns_schedule_free(s);
    s = packed;
    ns_schedule_relabel(s, "faraj", "sender-all");
  }
  return s;
}
