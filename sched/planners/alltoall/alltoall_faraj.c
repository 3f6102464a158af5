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

/* The machine of t_0 that sends at phase p (Step 1.b, rotate pattern with
 * base sequence t_{0,0} .. t_{0,|M_0|-1}). With D = gcd(|M_0|, |M_j|) and
 * b = |M_j|/D the base sequence is repeated b times, then rotated once, and
 * so on: at local phase q the sender is t_{0,(q + ⌊q/(|M_0|·b)⌋) mod |M_0|}.
 * `j` is the subtree t_0 sends to at phase p, `q` the local phase. */
static int64_t t0_sender_index(const TwoLevel *v, int j, int64_t q)
{
  int64_t m0 = v->m[0], mj = v->m[j];
  int64_t b = mj / gcd(m0, mj);
  return (q + q / (m0 * b)) % m0;
}

/* Which subtree t_i sends to at phase p, by walking t_i's ring order; the
 * caller advances `cursor[i]` monotonically with p, so the whole schedule
 * costs O(k) per phase. */
typedef struct {
  int j;           /* destination subtree, -1 when t_i is idle */
  int64_t q;       /* local phase within t_i -> t_j */
} Active;

static Active active_group(const TwoLevel *v, int i, int64_t p, int *cursor)
{
  /* t_i's destinations in ring order: i+1, i+2, ..., k-1, 0, 1, ..., i-1. */
  while (*cursor < v->k - 1) {
    int j = (i + 1 + *cursor) % v->k;
    int64_t start = group_start(v, i, j);
    int64_t len = (int64_t)v->m[i] * v->m[j];
    if (p < start)
      return (Active){ -1, 0 };
    if (p < start + len)
      return (Active){ j, p - start };
    (*cursor)++;
  }
  return (Active){ -1, 0 };
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
  int *cursor = g_new0(int, v.k);
  Active *act = g_new(Active, v.k);
  const int n = p_machines;

  for (int64_t p = 0; p < v.T; p++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < v.k; i++)
      act[i] = active_group(&v, i, p, &cursor[i]);
    /* t_0 sends in every phase (its groups cover [0, T)). */
    int64_t x0 = t0_sender_index(&v, act[0].j, act[0].q);
    int64_t round = (p / m0) % m0;
    int64_t y0 = -1; /* receiver in t_0 of a global message */

    /* Global messages, one per sending subtree. */
    for (int i = 0; i < v.k; i++) {
      int j = act[i].j;
      if (j < 0)
        continue;
      int64_t q = act[i].q, src, dst;
      if (i == 0) {                         /* Step 1: rotate pattern */
        src = x0;
        dst = mod(p - v.T, v.m[j]);
      } else if (j == 0) {                  /* Step 2: Table 3 mapping */
        src = q / m0;
        dst = (x0 + round + 1) % m0;
        y0 = dst;
      } else if (i > j) {                   /* Step 4: aligned broadcast */
        src = q / v.m[j];
        dst = mod(p - v.T, v.m[j]);
      } else {                              /* Step 6: broadcast */
        src = q / v.m[j];
        dst = q % v.m[j];
      }
      int a = machine(&v, i, src), b = machine(&v, j, dst);
      ns_schedule_add(s, a, b, ns_a2a_chunk(n, a, b));
    }

    /* Step 3: local message of t_0 in the first |M_0|(|M_0|−1) phases. */
    if (p < m0 * (m0 - 1) && y0 >= 0 && y0 != x0) {
      int a = machine(&v, 0, y0), b = machine(&v, 0, x0);
      ns_schedule_add(s, a, b, ns_a2a_chunk(n, a, b));
    }
    /* Step 5: local message of t_i (i >= 1) in the phases of t_i -> t_{i-1}. */
    for (int i = 1; i < v.k; i++) {
      if (act[i].j != i - 1 || v.m[i] < 2)
        continue;
      int64_t block = v.m[i - 1];
      if (act[i].q % block >= v.m[i])
        continue; /* later phases of the block repeat designated receivers */
      int64_t sender = act[i].q / block;
      int64_t designated = mod(p - v.T, v.m[i]);
      if (designated == sender)
        continue;
      int a = machine(&v, i, designated), b = machine(&v, i, sender);
      ns_schedule_add(s, a, b, ns_a2a_chunk(n, a, b));
    }
  }
  g_free(cursor);
  g_free(act);
  two_level_free(&v);
  if (mixed) {
    NsSchedule *packed = ns_schedule_pack_phases(topo, s);
    ns_schedule_free(s);
    s = packed;
    ns_schedule_relabel(s, "faraj", "sender-all");
  }
  return s;
}
