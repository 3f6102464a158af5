/* netsched — allgather/lr3: the optimal contention-free logical ring
 * (dissertation §3.3.2.4, Lemma 8, Algorithm 3).
 *
 * The programme
 * -------------
 * Root the tree at a switch R. Lemma 8: a ring is contention-free iff the
 * machines of every subtree occupy consecutive positions. So a ring is a
 * logical *array* of R's subtrees closed by the wrap-around hop, and the
 * array of a switch A is a sequence of the arrays of A's children (single
 * machines and subtrees rooted at switches). With h(m) the height of a
 * machine below A (the switches from A down to m, A counted), the hop from
 * the last machine x of one child block to the first machine y of the next
 * traverses h(x) + h(y) − 1 switches, and the wrap-around hop at R likewise.
 * The paper's tables A.optimal[i][j] (smallest maximum path length of an
 * array of A's subtree whose first machine has height i and last height j)
 * are combined over all orders of A's children; its cost is
 * O(|V| · n^(k+1) · H^4) (n ports, k switch neighbours, H height).
 *
 * What netsched computes instead (same optimum, fewer states):
 *  1. Decision version. For a threshold d, a switch's table is the set of
 *     (F, L) such that an array of its subtree with every hop ≤ d starts at
 *     height ≤ F and ends at height ≤ L (upward closed, stored as its
 *     Pareto-minimal pairs, at most d of them). Only heights ≤ d matter: the
 *     hop into the first machine of A's array comes from outside A's
 *     subtree and traverses that machine's height plus at least one more
 *     switch. d is searched between 1 (one switch) or 2 and LR1's maximum
 *     path length (LR1's ring is contention-free, so feasible): galloping
 *     up from the lower bound, then bisecting, so no run uses a threshold
 *     above twice the optimum d_opt; the ring is rebuilt for d_opt.
 *  2. Children with equal tables are interchangeable, so A's programme runs
 *     over the multiset of child *kinds* (equal tables), not over
 *     permutations: state = (how many children of each kind remain, exit
 *     height of the last placed block) → bit set of reachable first
 *     heights. Single machines are one kind whose count is capped at
 *     (switch children + 1): more machines than gaps only lengthen runs of
 *     machines, whose hops cost 1.
 *  3. Reconstruction: top-down, each switch's programme is rerun for its
 *     target (F, L) and walked back to a sequence of children, each child
 *     switch getting its own target; surplus machines join the first run of
 *     machines. Iterative (no recursion on the tree height).
 * Complexity: with τ_A kinds of children at switch A, c_{A,t} children of
 * kind t and d_opt the optimal path length, one run at threshold d costs
 * O(Σ_A Π_t (c_{A,t}+1) · τ_A · d² · ⌈d/64⌉) (states × exit heights ×
 * kinds × Pareto options × bit-set words), and O(log d_opt) runs with
 * d ≤ 2d_opt are made, so the whole is
 *   O(log d_opt · d_opt² · ⌈d_opt/64⌉ · Σ_A τ_A · Π_t (c_{A,t} + 1))
 * plus O(|V| log |V|) bookkeeping; the tree height enters only through d_opt.
 * With k_A switch children, Π_t (c_{A,t}+1) ≤ (k_A + 2) · 2^k_A: the bound
 * is exponential only in the number of *distinct* child subtrees of one
 * switch, where the paper's O(|V| · n^(k+1) · H^4) is exponential in k
 * through n^k. Children with equal tables (all the leaf switches of a
 * star, for instance) cost nothing extra. A switch whose state space would
 * exceed NS_LR3_MAX_STATES words is refused with NS_ERROR_UNSUPPORTED (it
 * takes some 20 pairwise different child subtrees on one switch).
 * Measured (bench/bench_allgather, docs/algorithms.md): about 1 ms for
 * 1024 machines on 128 switches.
 */
#include "platforms/error.h"
#include "sched/allgather_ring_common.h"
#include "sched/registry.h"
#include <string.h>

/* States × (d+1) bit-set words a switch's programme may use (128 MiB). */
#define NS_LR3_MAX_STATES ((uint64_t)1 << 24)

typedef struct {
  int f, l;
} Pair;

/* One kind of child of the switch being processed. */
typedef struct {
  int count;            /* children of this kind in the programme (capped for machines) */
  int n_opts;
  const Pair *opts;     /* Pareto-minimal (f, l), heights relative to the parent */
  uint64_t radix;
  GArray *members;      /* int: machine index (>= 0) or −1 − switch node id */
} Kind;

typedef struct {
  const NsTopology *topo;
  int n_nodes, d, words;
  int *post;            /* switches, children before parents */
  int n_switches;
  /* Per switch node (indexed by node id): Pareto options relative to the
   * switch itself, opts[node * d .. + n_opts[node]). */
  Pair *opts;
  int *n_opts;
  int *min_l;           /* d+1 scratch ints */
  /* Scratch for one switch's programme. */
  Pair *shifted;        /* per switch node: its options shifted by one */
  GArray *kinds;        /* Kind */
  uint64_t *mask;       /* states × (d+1) × words */
  uint64_t n_states;
  GArray *machines, *switches;
  /* Reconstruction: target (F, L) per switch node, walked-back sequence. */
  int *tf, *tl;
  GArray *seq;
} Lr3;

static void kinds_clear(Lr3 *st)
{
  for (guint i = 0; i < st->kinds->len; i++)
    g_array_free(g_array_index(st->kinds, Kind, i).members, TRUE);
  g_array_set_size(st->kinds, 0);
}

static gboolean same_opts(const Pair *a, int na, const Pair *b, int nb)
{
  return na == nb && memcmp(a, b, sizeof(Pair) * (size_t)na) == 0;
}

static void add_member(Lr3 *st, const Pair *opts, int n_opts, int member)
{
  for (guint i = 0; i < st->kinds->len; i++) {
    Kind *k = &g_array_index(st->kinds, Kind, i);
    if (same_opts(k->opts, k->n_opts, opts, n_opts)) {
      k->count++;
      g_array_append_val(k->members, member);
      return;
    }
  }
  Kind k = { .count = 1, .n_opts = n_opts, .opts = opts,
             .members = g_array_new(FALSE, FALSE, sizeof(int)) };
  g_array_append_val(k.members, member);
  g_array_append_val(st->kinds, k);
}

static const Pair machine_opt = { 1, 1 };

static inline uint64_t *mask_at(const Lr3 *st, uint64_t state, int l)
{
  return st->mask + (state * (uint64_t)(st->d + 1) + (uint64_t)l) * (uint64_t)st->words;
}

static inline gboolean mask_bit(const uint64_t *m, int bit)
{
  return (m[bit >> 6] >> (bit & 63)) & 1;
}

/* Runs switch `sw`'s programme (children's options must be known): fills
 * st->kinds and st->mask. Returns FALSE when some child has no option
 * within d (infeasible, *refused = FALSE) or the state space is too large
 * (*refused = TRUE, error set). */
static gboolean run_switch(Lr3 *st, int sw, gboolean *refused, GError **error)
{
  const NsTopology *topo = st->topo;
  int d = st->d, W = st->words;
  *refused = FALSE;
  kinds_clear(st);
  ns_ring_children(topo, sw, ns_tree_parent(topo, sw), st->machines, st->switches);
  int k_sw = (int)st->switches->len, j = (int)st->machines->len;
  if (j > 0) {
    Kind mk = { .count = MIN(j, k_sw + 1), .n_opts = 1, .opts = &machine_opt,
                .members = g_array_new(FALSE, FALSE, sizeof(int)) };
    g_array_append_vals(mk.members, st->machines->data, st->machines->len);
    g_array_append_val(st->kinds, mk);
  }
  for (int i = 0; i < k_sw; i++) {
    int c = g_array_index(st->switches, int, i);
    Pair *sh = st->shifted + (size_t)c * (size_t)d;
    int n = 0;
    for (int o = 0; o < st->n_opts[c]; o++) {
      Pair q = st->opts[(size_t)c * (size_t)d + (size_t)o];
      if (q.f + 1 <= d && q.l + 1 <= d)
        sh[n++] = (Pair){ q.f + 1, q.l + 1 };
    }
    if (n == 0)
      return FALSE;
    add_member(st, sh, n, -1 - c);
  }
  /* Mixed-radix state index: Σ remaining_t · radix_t. */
  uint64_t states = 1;
  for (guint t = 0; t < st->kinds->len; t++) {
    Kind *k = &g_array_index(st->kinds, Kind, t);
    k->radix = states;
    states *= (uint64_t)k->count + 1;
    if (states * (uint64_t)(d + 1) * (uint64_t)W > NS_LR3_MAX_STATES) {
      *refused = TRUE;
      g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                  "allgather/lr3: switch %s has %d child subtrees of %u different kinds; the "
                  "exact programme would exceed its state limit (%" G_GUINT64_FORMAT
                  " words); use lr1 or lr2",
                  ns_topology_node(topo, sw)->name, k_sw + j, st->kinds->len,
                  NS_LR3_MAX_STATES);
      return FALSE;
    }
  }
  uint64_t need = states * (uint64_t)(d + 1) * (uint64_t)W;
  if (need > st->n_states) {
    g_free(st->mask);
    st->mask = g_new(uint64_t, need);
    st->n_states = need;
  }
  memset(st->mask, 0, need * sizeof(uint64_t));
  uint64_t full = states - 1;
  int nk = (int)st->kinds->len;
  for (int t = 0; t < nk; t++) {
    const Kind *k = &g_array_index(st->kinds, Kind, t);
    for (int o = 0; o < k->n_opts; o++) {
      uint64_t *m = mask_at(st, full - k->radix, k->opts[o].l);
      m[k->opts[o].f >> 6] |= (uint64_t)1 << (k->opts[o].f & 63);
    }
  }
  /* Placing a block lowers the index, so states are final in decreasing
   * index order. */
  for (uint64_t idx = full; idx-- > 1;) {
    for (int l = 1; l <= d; l++) {
      const uint64_t *m = mask_at(st, idx, l);
      gboolean any = FALSE;
      for (int w = 0; w < W; w++)
        any |= m[w] != 0;
      if (!any)
        continue;
      for (int t = 0; t < nk; t++) {
        const Kind *k = &g_array_index(st->kinds, Kind, t);
        if ((idx / k->radix) % ((uint64_t)k->count + 1) == 0)
          continue;
        for (int o = 0; o < k->n_opts; o++) {
          if (l + k->opts[o].f - 1 > d)
            continue;
          uint64_t *to = mask_at(st, idx - k->radix, k->opts[o].l);
          for (int w = 0; w < W; w++)
            to[w] |= m[w];
        }
      }
    }
  }
  return TRUE;
}

/* After run_switch: the Pareto-minimal (F, L) of the upward-closed table,
 * written to st->opts of `sw`. */
static void store_options(Lr3 *st, int sw)
{
  int d = st->d, n = 0, best_l = d + 1;
  Pair *out = st->opts + (size_t)sw * (size_t)d;
  /* min_l[f]: the smallest last height reachable with first height f. */
  int *min_l = st->min_l;
  for (int f = 0; f <= d; f++)
    min_l[f] = d + 1;
  for (int l = d; l >= 1; l--) {
    const uint64_t *m = mask_at(st, 0, l);
    for (int w = 0; w < st->words; w++)
      for (uint64_t bits = m[w]; bits != 0; bits &= bits - 1)
        min_l[w * 64 + __builtin_ctzll(bits)] = l;
  }
  for (int f = 1; f <= d; f++)
    if (min_l[f] < best_l) {
      best_l = min_l[f];
      out[n++] = (Pair){ f, best_l };
    }
  st->n_opts[sw] = n;
}

/* Bottom-up at threshold st->d: TRUE when a ring with every hop ≤ d exists. */
static gboolean feasible(Lr3 *st, gboolean *refused, GError **error)
{
  for (int i = 0; i < st->n_switches; i++) {
    int sw = st->post[i];
    if (!run_switch(st, sw, refused, error))
      return FALSE;
    store_options(st, sw);
  }
  int root = ns_tree_anchor(st->topo);
  for (int o = 0; o < st->n_opts[root]; o++) {
    Pair q = st->opts[(size_t)root * (size_t)st->d + (size_t)o];
    if (q.f + q.l - 1 <= st->d)
      return TRUE;
  }
  return FALSE;
}

static void set_threshold(Lr3 *st, int d)
{
  st->d = d;
  st->words = (d + 1 + 63) / 64;
  g_free(st->opts);
  g_free(st->shifted);
  g_free(st->min_l);
  st->min_l = g_new(int, d + 1);
  st->opts = g_new(Pair, (size_t)st->n_nodes * (size_t)d);
  st->shifted = g_new(Pair, (size_t)st->n_nodes * (size_t)d);
}

/* Walks the programme run_switch() just ran back from a final state with
 * first height <= F and last height <= L; writes the blocks in array order
 * to `seq` as (kind, f, l) triples. */
static void walk_back(const Lr3 *st, int F, int L, GArray *seq)
{
  int d = st->d, nk = (int)st->kinds->len, first = -1, l = -1, total = 0;
  for (int ll = 1; ll <= L && first < 0; ll++)
    for (int f = 1; f <= F && first < 0; f++)
      if (mask_bit(mask_at(st, 0, ll), f)) {
        first = f;
        l = ll;
      }
  g_assert(first > 0);
  for (int t = 0; t < nk; t++)
    total += g_array_index(st->kinds, Kind, t).count;
  g_array_set_size(seq, 0);
  uint64_t idx = 0;
  for (int placed = total; placed >= 1; placed--) {
    int bt = -1, bf = 0, bl = 0;
    for (int t = 0; t < nk && bt < 0; t++) {
      const Kind *k = &g_array_index(st->kinds, Kind, t);
      if ((idx / k->radix) % ((uint64_t)k->count + 1) == (uint64_t)k->count)
        continue; /* no block of this kind placed yet */
      for (int o = 0; o < k->n_opts && bt < 0; o++) {
        int f = k->opts[o].f;
        if (k->opts[o].l != l)
          continue;
        if (placed == 1) { /* the first block */
          if (f == first)
            bt = t, bf = f;
          continue;
        }
        for (int lp = 1; lp <= d && bt < 0; lp++)
          if (lp + f - 1 <= d && mask_bit(mask_at(st, idx + k->radix, lp), first))
            bt = t, bf = f, bl = lp;
      }
    }
    g_assert(bt >= 0);
    int triple[3] = { bt, bf, l };
    g_array_prepend_vals(seq, triple, 3);
    idx += g_array_index(st->kinds, Kind, bt).radix;
    l = bl;
  }
}

/* Reconstruction (ns_ring_unfold callback): switch sw's array for its
 * target (tf, tl), one level deep; each child switch gets its own target.
 * Children's options are those of the final bottom-up pass. */
static void expand(int sw, GArray *items, void *user)
{
  Lr3 *st = user;
  gboolean refused, ok = run_switch(st, sw, &refused, NULL);
  g_assert(ok);
  walk_back(st, st->tf[sw], st->tl[sw], st->seq);
  guint *cursor = g_new0(guint, st->kinds->len);
  gboolean surplus_done = FALSE;
  for (guint b = 0; b < st->seq->len; b += 3) {
    int t = g_array_index(st->seq, int, b);
    const Kind *k = &g_array_index(st->kinds, Kind, t);
    int member = g_array_index(k->members, int, cursor[t]++);
    g_array_append_val(items, member);
    if (member < 0) {
      st->tf[-1 - member] = g_array_index(st->seq, int, b + 1) - 1;
      st->tl[-1 - member] = g_array_index(st->seq, int, b + 2) - 1;
    } else if (!surplus_done) {
      /* Machines beyond the capped count follow the first machine. */
      surplus_done = TRUE;
      for (guint extra = (guint)k->count; extra < k->members->len; extra++)
        g_array_append_val(items, g_array_index(k->members, int, extra));
    }
  }
  g_free(cursor);
}

gboolean ns_ring_lr3(const NsTopology *topo, int *ring, int *max_path, GError **error)
{
  int p = ns_topology_n_machines(topo);
  Lr3 st = { .topo = topo, .n_nodes = ns_topology_n_nodes(topo) };
  st.post = g_new(int, st.n_nodes);
  const int *pre = ns_tree_preorder(topo);
  for (int k = st.n_nodes - 1; k >= 0; k--)
    if (ns_topology_node(topo, pre[k])->kind == NS_NODE_SWITCH)
      st.post[st.n_switches++] = pre[k];
  st.n_opts = g_new0(int, st.n_nodes);
  st.kinds = g_array_new(FALSE, FALSE, sizeof(Kind));
  st.machines = g_array_new(FALSE, FALSE, sizeof(int));
  st.switches = g_array_new(FALSE, FALSE, sizeof(int));

  /* Search d between the lower bound and LR1's length: galloping up from
   * the lower bound (lo, lo+1, lo+3, lo+7, …: the optimum is usually small
   * and a run costs O(d²) per state), then bisecting. */
  ns_ring_lr1(topo, ring);
  int lo = st.n_switches == 1 ? 1 : 2, hi = MAX(lo, ns_ring_max_path_length(topo, ring));
  int step = 1;
  gboolean ok = TRUE, refused = FALSE, galloping = TRUE;
  while (lo < hi && ok) {
    int mid = galloping ? MIN(lo + step - 1, hi - 1) : lo + (hi - lo) / 2;
    set_threshold(&st, mid);
    if (feasible(&st, &refused, error)) {
      hi = mid;
      galloping = FALSE;
    } else if (refused) {
      ok = FALSE;
    } else {
      lo = mid + 1;
      step *= 2;
    }
  }
  if (ok) {
    set_threshold(&st, lo);
    ok = feasible(&st, &refused, error);
    if (!ok && !refused)
      g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                  "allgather/lr3: internal error: no ring within LR1's path length %d", lo);
  }
  if (ok) {
    /* Top-down reconstruction from the root's first option that closes
     * the ring within d. */
    int root = ns_tree_anchor(topo), d = st.d;
    st.tf = g_new0(int, st.n_nodes);
    st.tl = g_new0(int, st.n_nodes);
    for (int o = 0; o < st.n_opts[root] && st.tf[root] == 0; o++) {
      Pair q = st.opts[(size_t)root * (size_t)d + (size_t)o];
      if (q.f + q.l - 1 <= d) {
        st.tf[root] = q.f;
        st.tl[root] = q.l;
      }
    }
    st.seq = g_array_new(FALSE, FALSE, sizeof(int));
    int n = ns_ring_unfold(topo, expand, &st, ring);
    g_assert(n == p);
    g_array_free(st.seq, TRUE);
    g_free(st.tf);
    g_free(st.tl);
    *max_path = ns_ring_max_path_length(topo, ring);
    g_assert(*max_path <= d);
  }
  kinds_clear(&st);
  g_array_free(st.kinds, TRUE);
  g_array_free(st.machines, TRUE);
  g_array_free(st.switches, TRUE);
  g_free(st.post);
  g_free(st.n_opts);
  g_free(st.opts);
  g_free(st.shifted);
  g_free(st.min_l);
  g_free(st.mask);
  return ok;
}

/*
 * ns_allgather_lr3 — Algorithm 3 of the dissertation (§3.3.2.4), LR3 of
 * §3.3.3: the contention-free logical ring with the smallest maximum path
 * length, then the logical-ring all-gather over it (§3.3.1.1, p−1 phases).
 *
 * Steps: see the programme at the top of this file (decision version,
 * searched over the path length; per switch, a programme over the
 * multiset of child kinds; top-down reconstruction of the ring itself).
 * Time O(log d_opt · d_opt² · ⌈d_opt/64⌉ · Σ_A τ_A · Π_t (c_{A,t}+1)) for the ring
 * plus O(p²) for the schedule. Errors: NS_ERROR_UNSUPPORTED when a switch has so
 * many pairwise different child subtrees that the exact programme would
 * exceed NS_LR3_MAX_STATES.
 */
NsSchedule *ns_allgather_lr3(const NsTopology *topo, const NsPlanParams *params,
                             GError **error)
{
  int *ring = g_new(int, ns_topology_n_machines(topo)), d;
  NsSchedule *s = NULL;
  if (ns_ring_lr3(topo, ring, &d, error))
    s = ns_allgather_ring_schedule(topo, "lr3", params->msize, ring);
  g_free(ring);
  return s;
}
