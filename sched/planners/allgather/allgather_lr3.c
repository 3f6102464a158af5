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
 * A bit set of first heights per exit height and state would cost
 * O(d² · ⌈d/64⌉) per switch even on a chain link, where d_opt grows with
 * the height: cubic on chains. Hence the sparse fronts below.
 *
 * What netsched computes instead (same optimum, fewer states):
 *  1. Decision version. For a threshold d, a switch's table is the set of
 *     (F, L) such that an array of its subtree with every hop ≤ d starts at
 *     height ≤ F and ends at height ≤ L (upward closed). It is stored as
 *     its Pareto front: the minimal pairs, F increasing and L decreasing.
 *     Only heights ≤ d matter (the hop into an array's first machine comes
 *     from outside the subtree and traverses that machine's height plus at
 *     least one switch), and the F of a front are distinct heights of
 *     machines of the subtree, so a front has w_A ≤ min(d, H_A) pairs (H_A:
 *     the height of A's subtree).
 *  2. Search over d, from a lower bound: every ring crosses every
 *     switch–switch link (u, v) both ways, so d_opt ≥ LB = max over links
 *     of a(u) + a(v), a(x) the height below x of the nearest machine on
 *     x's side (all a(·) in O(|V|), one pass up and one down). The upper
 *     end is LR1's length (LR1's ring is contention-free, so feasible). d
 *     gallops up from LB (LB, LB+1, LB+3, LB+7, …) then bisects, and the
 *     last feasible run is kept when it was at the optimum: at most
 *     R ≤ 2⌈log2(d_opt − LB + 2)⌉ runs. On a chain with machines only at
 *     its two ends LB = d_opt: a single run.
 *  3. One run, bottom-up over the switches (post order, iterative), three
 *     cases:
 *      - a leaf switch (machines only): the front {(1, 1)};
 *      - a *chain link* (one switch child, no machine): the child's front
 *        shifted by one. Shifting keeps the order, and the pairs that leave
 *        the range ≤ d are a prefix (L too large) and a suffix (F too
 *        large), so the front is a *view* (base, count, shift) of the
 *        child's stored pairs: O(1) plus the pairs trimmed, and a stored
 *        pair is trimmed at most once along the chain above it;
 *      - any other switch: children with equal (shifted) fronts are
 *        interchangeable, so the programme runs over the multiset of child
 *        *kinds* (grouped by sorting the fronts), not over permutations:
 *        state = how many children of each kind remain to be placed →
 *        Pareto front of (first height, exit height of the last placed
 *        block). Only the smallest first height per exit height matters
 *        (later blocks never see it), and only the smallest exit height per
 *        first height, hence a front, not a bit set per exit height.
 *        Placing a block of kind t after exit height l takes, among t's
 *        options (f, l') with l + f − 1 ≤ d, the one with the largest f
 *        (its l' is the smallest): a two-pointer walk, O(w + |opts_t|) per
 *        state and kind, and the fronts of a state's predecessors are
 *        merged in linear time. Single machines are one kind, option
 *        (1, 1), whose count is capped at (switch children + 1): more
 *        machines than gaps only lengthen runs of machines, whose hops
 *        cost 1.
 *  4. Reconstruction: top-down (ns_ring_unfold, no recursion), each switch
 *     gets a target (F, L) from its parent; a chain link passes (F−1, L−1)
 *     to its child, a leaf lists its machines, any other switch reruns its
 *     programme and walks it back to a sequence of children, each child
 *     switch getting its own target; surplus machines join the first run
 *     of machines.
 * Complexity: with k_A switch children, τ_A kinds of children and c_{A,t}
 * children of kind t at switch A, S_A = Π_t (c_{A,t} + 1) states, and B the
 * switches that are neither leaves nor chain links, one run at threshold d
 * costs
 *   O(|V| + Σ_{A∈B} (S_A · τ_A + k_A log k_A) · w_A),  w_A ≤ min(d, H_A)
 * (states × kinds × front sizes, plus grouping the children), and the
 * whole, with R ≤ 2⌈log2(d_opt − LB + 2)⌉ runs at d ≤ 2·d_opt,
 *   O(|V| log |V| + R · (|V| + Σ_{A∈B} (S_A · τ_A + k_A log k_A) · min(2d_opt, H_A)))
 * (the first term: sorting each switch's machines once; LR1's ring and its
 * length are O(|V|), a contention-free ring using each link at most once
 * each way). The height enters only through w_A, never as a per-switch
 * O(d) cost: a chain link is O(1) amortised, and a switch with one switch
 * child and some machines (a caterpillar's) has a front of at most 2
 * pairs, so chains and caterpillars cost O(|V| · R), and R = 1 on chains
 * with machines at both ends only. With S_A ≤ (k_A + 2) · 2^k_A a switch
 * costs O((k_A + 2)² 2^k_A · H) per run, within the paper's
 * O(n^(k+1) · H^4) per node (H ≥ d_opt / 2, so R = O(log H)); it is
 * exponential only in the number of *distinct* child subtrees of one
 * switch (equal ones, like the leaf switches of a star, cost nothing
 * extra). On deep random trees fronts stay tiny (at most 2 pairs on
 * NS_RANDOM_DEEP trees of 100 000 switches), so the whole is near-linear.
 * No recursion: the passes walk a post order, the ring is unfolded with an
 * explicit stack. Memory O(|V| + Σ_{A∈B} w_A + max_A S_A · w_A). A switch
 * with more than NS_LR3_MAX_STATES states (some 20 pairwise different child
 * subtrees), or whose states' fronts would exceed NS_LR3_MAX_PAIRS pairs,
 * is refused with NS_ERROR_UNSUPPORTED.
 * Measured (bench/bench_allgather, Release, 2-core machine): chains of
 * 8 000 and 100 000 switches with 4 machines at each end, 0.6 ms and
 * 8 ms; a deep random tree of 100 000 switches, 8 ms with 1024 machines
 * and 58 ms with 100 000 machines.
 */
#include "platforms/model/error.h"
#include "sched/planners/allgather/allgather_ring_common_internal.h"
#include "sched/planners/registry.h"

/* States of one switch's programme (8 bytes of offsets each: 64 MiB), and
 * pairs over all its states' fronts (8 bytes each: 256 MiB): at least what
 * the former bit-set programme accepted at the same threshold d ≥ 2
 * (2^24 / (d + 1) states, fronts of at most d pairs). */
#define NS_LR3_MAX_STATES ((uint64_t)1 << 23)
#define NS_LR3_MAX_PAIRS ((uint64_t)1 << 25)

typedef struct {
  int f, l;
} Pair;

/* One kind of child of the switch being processed. */
typedef struct {
  int count;            /* children of this kind in the programme (capped for machines) */
  int opt, n_opts;      /* options: kopts[opt .. + n_opts), relative to the parent */
  uint64_t radix;
  /* kmem[member .. + n_members): machine index (>= 0) or −1 − node id
   * (while grouping: member is the first child's index in st->views). */
  int member, n_members;
} Kind;

/* A switch child's front seen from the switch: pool[base .. + n] + shift. */
typedef struct {
  int node, pos, base, n, shift;
} ChildView;

typedef struct {
  const NsTopology *topo;
  int n_nodes, d;
  int *post;            /* switches, children before parents */
  int n_switches;
  /* Children of each switch (by node id), the same for every threshold. */
  int *mach_off, *mach; /* machine indices, increasing */
  int *sw_off, *sw;     /* switch node ids, link order */
  /* Per switch node: its front at threshold d, a view of the pool. */
  int *v_base, *v_n, *v_shift;
  GArray *pool;         /* Pair; pool[0] = (1, 1), the front of every leaf */
  /* Scratch for one switch's programme. */
  GArray *views;        /* ChildView */
  GArray *kinds;        /* Kind */
  GArray *kopts;        /* Pair */
  GArray *kmem;         /* int */
  GArray *sp;           /* Pair: the fronts of all states */
  guint32 *st_off, *st_n;
  uint64_t st_cap, n_states;
  GArray *ca, *cb, *cc; /* Pair: candidates */
  /* Reconstruction: target (F, L) per switch node, walked-back sequence. */
  int *tf, *tl;
  GArray *seq;
} Lr3;

static const Pair machine_opt = { 1, 1 };

static inline Pair view_at(const Lr3 *st, int base, int shift, int i)
{
  Pair q = g_array_index(st->pool, Pair, base + i);
  return (Pair){ q.f + shift, q.l + shift };
}

/* Child switch c's front seen from its parent: shifted by one, trimmed to
 * the pairs within d (a prefix has L too large, a suffix F too large). */
static ChildView child_view(const Lr3 *st, int c)
{
  ChildView v = { .node = c, .base = st->v_base[c], .n = st->v_n[c],
                  .shift = st->v_shift[c] + 1 };
  while (v.n > 0 && view_at(st, v.base, v.shift, 0).l > st->d) {
    v.base++;
    v.n--;
  }
  while (v.n > 0 && view_at(st, v.base, v.shift, v.n - 1).f > st->d)
    v.n--;
  return v;
}

/* Orders child views by front (size, then pairs), then link position. */
static gint compare_views(gconstpointer pa, gconstpointer pb, gpointer user)
{
  const Lr3 *st = user;
  const ChildView *a = pa, *b = pb;
  if (a->n != b->n)
    return a->n < b->n ? -1 : 1;
  for (int i = 0; i < a->n; i++) {
    Pair x = view_at(st, a->base, a->shift, i), y = view_at(st, b->base, b->shift, i);
    if (x.f != y.f)
      return x.f < y.f ? -1 : 1;
    if (x.l != y.l)
      return x.l < y.l ? -1 : 1;
  }
  return (a->pos > b->pos) - (a->pos < b->pos);
}

static gboolean same_front(const Lr3 *st, const ChildView *a, const ChildView *b)
{
  if (a->n != b->n)
    return FALSE;
  for (int i = 0; i < a->n; i++) {
    Pair x = view_at(st, a->base, a->shift, i), y = view_at(st, b->base, b->shift, i);
    if (x.f != y.f || x.l != y.l)
      return FALSE;
  }
  return TRUE;
}

static gint compare_kinds_by_member(gconstpointer pa, gconstpointer pb, gpointer user)
{
  const GArray *views = user;
  const Kind *a = pa, *b = pb;
  int x = g_array_index(views, ChildView, a->member).pos;
  int y = g_array_index(views, ChildView, b->member).pos;
  return (x > y) - (x < y);
}

/* Room for n pairs in a scratch array. */
static Pair *scratch(GArray *a, guint n)
{
  if (a->len < n)
    g_array_set_size(a, n);
  return (Pair *)(void *)a->data;
}

/* Places a block with options opt[0..no) (Pareto front) after each pair of
 * the front src[0..ns): for exit height l, the option with the largest
 * f ≤ d + 1 − l. Writes the resulting front to out; returns its size. */
static int advance(const Pair *src, int ns, const Pair *opt, int no, int d, Pair *out)
{
  int n = 0, k = 0;
  for (int i = 0; i < ns; i++) {
    int g = d + 1 - src[i].l;
    while (k < no && opt[k].f <= g)
      k++;
    if (k == 0)
      continue;
    int l = opt[k - 1].l;
    if (n > 0 && out[n - 1].l <= l)
      continue;
    out[n++] = (Pair){ src[i].f, l };
  }
  return n;
}

/* Pareto front of the union of two fronts, in linear time. */
static int merge(const Pair *a, int na, const Pair *b, int nb, Pair *out)
{
  int i = 0, j = 0, n = 0;
  while (i < na || j < nb) {
    Pair p;
    if (j == nb || (i < na && (a[i].f < b[j].f || (a[i].f == b[j].f && a[i].l <= b[j].l))))
      p = a[i++];
    else
      p = b[j++];
    if (n > 0 && out[n - 1].l <= p.l)
      continue;
    out[n++] = p;
  }
  return n;
}

static gboolean refuse(const Lr3 *st, int sw, const char *what, uint64_t limit,
                       const char *unit, GError **error)
{
  int children = st->sw_off[sw + 1] - st->sw_off[sw] + st->mach_off[sw + 1] - st->mach_off[sw];
  g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
              "allgather/lr3: switch %s has %d child subtrees of %u different kinds; the "
              "exact programme would exceed its %s limit (%" G_GUINT64_FORMAT " %s); use lr1 "
              "or lr2",
              ns_topology_node(st->topo, sw)->name, children, st->kinds->len, what, limit, unit);
  return FALSE;
}

/* Runs switch `sw`'s programme (its children's fronts must be known):
 * fills st->kinds and the states' fronts. Returns FALSE when some child has
 * no pair within d (infeasible, *refused = FALSE) or the programme is too
 * large (*refused = TRUE, error set). The switch's own front is then the
 * front of state 0 (possibly empty). */
static gboolean run_switch(Lr3 *st, int sw, gboolean *refused, GError **error)
{
  int d = st->d;
  *refused = FALSE;
  g_array_set_size(st->kinds, 0);
  g_array_set_size(st->kopts, 0);
  g_array_set_size(st->kmem, 0);
  g_array_set_size(st->views, 0);
  int k_sw = st->sw_off[sw + 1] - st->sw_off[sw], j = st->mach_off[sw + 1] - st->mach_off[sw];
  if (j > 0) {
    Kind mk = { .count = MIN(j, k_sw + 1), .opt = 0, .n_opts = 1, .member = 0,
                .n_members = j };
    g_array_append_val(st->kopts, machine_opt);
    g_array_append_vals(st->kmem, st->mach + st->mach_off[sw], (guint)j);
    g_array_append_val(st->kinds, mk);
  }
  for (int i = 0; i < k_sw; i++) {
    ChildView v = child_view(st, st->sw[st->sw_off[sw] + i]);
    if (v.n == 0)
      return FALSE;
    v.pos = i;
    g_array_append_val(st->views, v);
  }
  /* Group equal fronts: sort, then runs of equal fronts are kinds, listed
   * in the order of their first child. */
  if (k_sw > 1)
    g_array_sort_with_data(st->views, compare_views, st);
  guint first_switch_kind = st->kinds->len;
  for (int i = 0; i < k_sw; i++) {
    const ChildView *v = &g_array_index(st->views, ChildView, i);
    Kind *last = st->kinds->len > first_switch_kind
                     ? &g_array_index(st->kinds, Kind, st->kinds->len - 1)
                     : NULL;
    if (last != NULL &&
        same_front(st, &g_array_index(st->views, ChildView, last->member), v)) {
      last->count++;
      last->n_members++;
      continue;
    }
    Kind k = { .count = 1, .member = i, .n_members = 1 };
    g_array_append_val(st->kinds, k);
  }
  guint nk = st->kinds->len;
  if (nk - first_switch_kind > 1) {
    Kind *sk = &g_array_index(st->kinds, Kind, first_switch_kind);
    g_qsort_with_data(sk, (gint)(nk - first_switch_kind), sizeof(Kind), compare_kinds_by_member,
                      st->views);
  }
  for (guint t = first_switch_kind; t < nk; t++) {
    Kind *k = &g_array_index(st->kinds, Kind, t);
    const ChildView *v = &g_array_index(st->views, ChildView, k->member);
    k->opt = (int)st->kopts->len;
    k->n_opts = v->n;
    for (int i = 0; i < v->n; i++) {
      Pair q = view_at(st, v->base, v->shift, i);
      g_array_append_val(st->kopts, q);
    }
    int member = (int)st->kmem->len;
    for (int i = 0; i < k->n_members; i++) {
      int node = g_array_index(st->views, ChildView, k->member + i).node;
      int item = -1 - node;
      g_array_append_val(st->kmem, item);
    }
    k->member = member;
  }
  /* Mixed-radix state index: Σ remaining_t · radix_t. */
  uint64_t states = 1;
  for (guint t = 0; t < nk; t++) {
    Kind *k = &g_array_index(st->kinds, Kind, t);
    k->radix = states;
    states *= (uint64_t)k->count + 1;
    if (states > NS_LR3_MAX_STATES) {
      *refused = TRUE;
      return refuse(st, sw, "state", NS_LR3_MAX_STATES, "states", error);
    }
  }
  if (states > st->st_cap) {
    g_free(st->st_off);
    g_free(st->st_n);
    st->st_off = g_new(guint32, states);
    st->st_n = g_new(guint32, states);
    st->st_cap = states;
  }
  st->n_states = states;
  g_array_set_size(st->sp, 0);
  const Pair *kopts = (const Pair *)(void *)st->kopts->data;
  uint64_t full = states - 1;
  /* Placing a block lowers the index: a state's predecessors have larger
   * indices and are final before it. */
  for (uint64_t idx = full; idx-- > 0;) {
    int n = 0;
    for (guint t = 0; t < nk; t++) {
      const Kind *k = &g_array_index(st->kinds, Kind, t);
      if ((idx / k->radix) % ((uint64_t)k->count + 1) == (uint64_t)k->count)
        continue; /* no block of this kind placed */
      uint64_t pred = idx + k->radix;
      const Pair *cand = kopts + k->opt;
      int nc = k->n_opts;
      if (pred != full) {
        const Pair *src = (const Pair *)(void *)st->sp->data + st->st_off[pred];
        Pair *out = scratch(st->cb, st->st_n[pred]);
        nc = advance(src, (int)st->st_n[pred], kopts + k->opt, k->n_opts, d, out);
        cand = out;
      }
      if (nc == 0)
        continue;
      const Pair *acc = scratch(st->ca, (guint)n);
      n = merge(acc, n, cand, nc, scratch(st->cc, (guint)(n + nc)));
      GArray *swap = st->ca;
      st->ca = st->cc;
      st->cc = swap;
    }
    st->st_off[idx] = st->sp->len;
    st->st_n[idx] = (guint32)n;
    if ((uint64_t)st->sp->len + (uint64_t)n > NS_LR3_MAX_PAIRS) {
      *refused = TRUE;
      return refuse(st, sw, "memory", NS_LR3_MAX_PAIRS, "pairs", error);
    }
    g_array_append_vals(st->sp, st->ca->data, (guint)n);
  }
  return TRUE;
}

/* Bottom-up at threshold st->d: TRUE when a ring with every hop ≤ d exists. */
static gboolean feasible(Lr3 *st, gboolean *refused, GError **error)
{
  *refused = FALSE;
  g_array_set_size(st->pool, 1); /* pool[0] = (1, 1) */
  for (int i = 0; i < st->n_switches; i++) {
    int sw = st->post[i];
    int k_sw = st->sw_off[sw + 1] - st->sw_off[sw], j = st->mach_off[sw + 1] - st->mach_off[sw];
    if (k_sw == 0) { /* leaf */
      st->v_base[sw] = 0;
      st->v_n[sw] = 1;
      st->v_shift[sw] = 0;
    } else if (k_sw == 1 && j == 0) { /* chain link */
      ChildView v = child_view(st, st->sw[st->sw_off[sw]]);
      if (v.n == 0)
        return FALSE;
      st->v_base[sw] = v.base;
      st->v_n[sw] = v.n;
      st->v_shift[sw] = v.shift;
    } else {
      if (!run_switch(st, sw, refused, error))
        return FALSE;
      guint32 n = st->st_n[0];
      if (n == 0)
        return FALSE;
      st->v_base[sw] = (int)st->pool->len;
      st->v_n[sw] = (int)n;
      st->v_shift[sw] = 0;
      g_array_append_vals(st->pool, &g_array_index(st->sp, Pair, st->st_off[0]), n);
    }
  }
  int root = ns_tree_anchor(st->topo);
  for (int o = 0; o < st->v_n[root]; o++) {
    Pair q = view_at(st, st->v_base[root], st->v_shift[root], o);
    if (q.f + q.l - 1 <= st->d)
      return TRUE;
  }
  return FALSE;
}

/* Walks the programme run_switch() just ran back from a final pair with
 * first height ≤ F and last height ≤ L; writes the blocks in array order
 * to `seq` as (kind, f, l) triples. Each step keeps a pair (Fc, lc) of the
 * current state's front and looks for a kind whose placement produced a
 * pair ≤ it: the option with l ≤ lc and the smallest f, after the
 * predecessor's pair with F ≤ Fc and the smallest exit height. */
static void walk_back(const Lr3 *st, int F, int L, GArray *seq)
{
  int d = st->d, nk = (int)st->kinds->len;
  const Pair *sp = (const Pair *)(void *)st->sp->data;
  const Pair *kopts = (const Pair *)(void *)st->kopts->data;
  /* The pairs with f ≤ F are a prefix; its last has the smallest l. */
  const Pair *front = sp + st->st_off[0];
  int last = -1;
  for (int i = 0; i < (int)st->st_n[0] && front[i].f <= F; i++)
    last = i;
  g_assert(last >= 0 && front[last].l <= L);
  int fc = front[last].f, lc = front[last].l;
  g_array_set_size(seq, 0);
  uint64_t idx = 0, full = st->n_states - 1;
  while (idx != full) {
    int bt = -1, bf = 0, bl = 0, pf = 0, pl = 0;
    for (int t = 0; t < nk && bt < 0; t++) {
      const Kind *k = &g_array_index(st->kinds, Kind, t);
      if ((idx / k->radix) % ((uint64_t)k->count + 1) == (uint64_t)k->count)
        continue; /* no block of this kind placed */
      const Pair *opt = kopts + k->opt;
      int o = 0;
      while (o < k->n_opts && opt[o].l > lc)
        o++;
      if (o == k->n_opts)
        continue;
      uint64_t pred = idx + k->radix;
      if (pred == full) { /* the first block */
        if (opt[o].f <= fc)
          bt = t, bf = opt[o].f, bl = opt[o].l;
        continue;
      }
      const Pair *pfront = sp + st->st_off[pred];
      int p = -1;
      for (int i = 0; i < (int)st->st_n[pred] && pfront[i].f <= fc; i++)
        p = i;
      if (p >= 0 && pfront[p].l + opt[o].f - 1 <= d)
        bt = t, bf = opt[o].f, bl = opt[o].l, pf = pfront[p].f, pl = pfront[p].l;
    }
    g_assert(bt >= 0);
    int triple[3] = { bt, bf, bl };
    g_array_append_vals(seq, triple, 3);
    idx += g_array_index(st->kinds, Kind, bt).radix;
    fc = pf;
    lc = pl;
  }
  /* Reverse the blocks into array order. */
  int *s = (int *)(void *)seq->data;
  for (guint a = 0, b = seq->len / 3; a + 1 < b; a++, b--)
    for (int x = 0; x < 3; x++) {
      int tmp = s[3 * a + x];
      s[3 * a + x] = s[3 * (b - 1) + x];
      s[3 * (b - 1) + x] = tmp;
    }
}

/* Reconstruction (ns_ring_unfold callback): switch sw's array for its
 * target (tf, tl), one level deep; each child switch gets its own target.
 * Children's fronts are those of the final bottom-up pass. */
static void expand(int sw, GArray *items, void *user)
{
  Lr3 *st = user;
  int k_sw = st->sw_off[sw + 1] - st->sw_off[sw], j = st->mach_off[sw + 1] - st->mach_off[sw];
  if (k_sw == 0) { /* leaf: its machines, every hop 1 */
    g_array_append_vals(items, st->mach + st->mach_off[sw], (guint)j);
    return;
  }
  if (k_sw == 1 && j == 0) { /* chain link: the child, one lower */
    int c = st->sw[st->sw_off[sw]], item = -1 - c;
    st->tf[c] = st->tf[sw] - 1;
    st->tl[c] = st->tl[sw] - 1;
    g_array_append_val(items, item);
    return;
  }
  gboolean refused, ok = run_switch(st, sw, &refused, NULL);
  g_assert(ok);
  walk_back(st, st->tf[sw], st->tl[sw], st->seq);
  int *cursor = g_new0(int, st->kinds->len);
  gboolean surplus_done = FALSE;
  for (guint b = 0; b < st->seq->len; b += 3) {
    int t = g_array_index(st->seq, int, b);
    const Kind *k = &g_array_index(st->kinds, Kind, t);
    int member = g_array_index(st->kmem, int, k->member + cursor[t]++);
    g_array_append_val(items, member);
    if (member < 0) {
      st->tf[-1 - member] = g_array_index(st->seq, int, b + 1) - 1;
      st->tl[-1 - member] = g_array_index(st->seq, int, b + 2) - 1;
    } else if (!surplus_done) {
      /* Machines beyond the capped count follow the first machine. */
      surplus_done = TRUE;
      for (int extra = k->count; extra < k->n_members; extra++)
        g_array_append_val(items, g_array_index(st->kmem, int, k->member + extra));
    }
  }
  g_free(cursor);
}

/* d_opt ≥ max over switch–switch links (P, c) of down(c) + up(c): down(c)
 * the height below c of the nearest machine in c's subtree, up(c) the
 * height below P of the nearest machine outside it (every ring crosses the
 * link, and a crossing hop traverses at least that many switches). 1 on a
 * single switch. O(|V|). */
static int lower_bound(const Lr3 *st)
{
  const int inf = G_MAXINT / 4;
  int lb = 1;
  int *down = g_new(int, st->n_nodes), *up = g_new(int, st->n_nodes);
  for (int i = 0; i < st->n_switches; i++) {
    int sw = st->post[i], best = inf;
    if (st->mach_off[sw + 1] > st->mach_off[sw])
      best = 1;
    for (int e = st->sw_off[sw]; e < st->sw_off[sw + 1]; e++)
      best = MIN(best, down[st->sw[e]] + 1);
    down[sw] = MIN(best, inf);
  }
  int root = ns_tree_anchor(st->topo);
  up[root] = inf;
  for (int i = st->n_switches; i-- > 0;) { /* parents before children */
    int sw = st->post[i], m1 = inf, m2 = inf, c1 = -1;
    for (int e = st->sw_off[sw]; e < st->sw_off[sw + 1]; e++) {
      int c = st->sw[e];
      if (down[c] < m1) {
        m2 = m1;
        m1 = down[c];
        c1 = c;
      } else if (down[c] < m2) {
        m2 = down[c];
      }
    }
    int base = MIN(up[sw] + 1, inf);
    if (st->mach_off[sw + 1] > st->mach_off[sw])
      base = 1;
    for (int e = st->sw_off[sw]; e < st->sw_off[sw + 1]; e++) {
      int c = st->sw[e], other = c == c1 ? m2 : m1;
      up[c] = MIN(base, MIN(other + 1, inf));
      if (up[c] < inf && down[c] < inf)
        lb = MAX(lb, up[c] + down[c]);
    }
  }
  g_free(down);
  g_free(up);
  return lb;
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
  /* Children lists (CSR by node id), computed once. */
  GArray *machines = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *switches = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *mach = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *sws = g_array_new(FALSE, FALSE, sizeof(int));
  st.mach_off = g_new0(int, st.n_nodes + 1);
  st.sw_off = g_new0(int, st.n_nodes + 1);
  for (int v = 0; v < st.n_nodes; v++) {
    st.mach_off[v] = (int)mach->len;
    st.sw_off[v] = (int)sws->len;
    if (ns_topology_node(topo, v)->kind != NS_NODE_SWITCH)
      continue;
    ns_ring_children(topo, v, ns_tree_parent(topo, v), machines, switches);
    g_array_append_vals(mach, machines->data, machines->len);
    g_array_append_vals(sws, switches->data, switches->len);
  }
  st.mach_off[st.n_nodes] = (int)mach->len;
  st.sw_off[st.n_nodes] = (int)sws->len;
  g_array_free(machines, TRUE);
  g_array_free(switches, TRUE);
  st.mach = (int *)(void *)g_array_free(mach, FALSE);
  st.sw = (int *)(void *)g_array_free(sws, FALSE);
  st.v_base = g_new0(int, st.n_nodes);
  st.v_n = g_new0(int, st.n_nodes);
  st.v_shift = g_new0(int, st.n_nodes);
  st.pool = g_array_new(FALSE, FALSE, sizeof(Pair));
  g_array_append_val(st.pool, machine_opt);
  st.views = g_array_new(FALSE, FALSE, sizeof(ChildView));
  st.kinds = g_array_new(FALSE, FALSE, sizeof(Kind));
  st.kopts = g_array_new(FALSE, FALSE, sizeof(Pair));
  st.kmem = g_array_new(FALSE, FALSE, sizeof(int));
  st.sp = g_array_new(FALSE, FALSE, sizeof(Pair));
  st.ca = g_array_new(FALSE, FALSE, sizeof(Pair));
  st.cb = g_array_new(FALSE, FALSE, sizeof(Pair));
  st.cc = g_array_new(FALSE, FALSE, sizeof(Pair));

  /* Search d between the lower bound and LR1's length: galloping up from
   * the lower bound (lo, lo+1, lo+3, lo+7, …: it is usually tight), then
   * bisecting. `ready` is the threshold of the last run when that run was
   * feasible (its fronts are still in place), else 0. */
  ns_ring_lr1(topo, ring);
  int lo = lower_bound(&st), hi = MAX(lo, ns_ring_max_path_length(topo, ring));
  int step = 1, ready = 0;
  gboolean ok = TRUE, refused = FALSE, galloping = TRUE;
  while (lo < hi && ok) {
    st.d = galloping ? MIN(lo + step - 1, hi - 1) : lo + (hi - lo) / 2;
    ready = 0;
    if (feasible(&st, &refused, error)) {
      hi = st.d;
      ready = st.d;
      galloping = FALSE;
    } else if (refused) {
      ok = FALSE;
    } else {
      lo = st.d + 1;
      step *= 2;
    }
  }
  if (ok && ready != lo) {
    st.d = lo;
    ok = feasible(&st, &refused, error);
    if (!ok && !refused)
      g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                  "allgather/lr3: internal error: no ring within LR1's path length %d", lo);
  }
  if (ok) {
    /* Top-down reconstruction from the root's first pair that closes the
     * ring within d. */
    int root = ns_tree_anchor(topo), d = st.d;
    st.tf = g_new0(int, st.n_nodes);
    st.tl = g_new0(int, st.n_nodes);
    for (int o = 0; o < st.v_n[root] && st.tf[root] == 0; o++) {
      Pair q = view_at(&st, st.v_base[root], st.v_shift[root], o);
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
    /* O(|V|): a contention-free ring traverses each link at most twice. */
    *max_path = ns_ring_max_path_length(topo, ring);
    g_assert(*max_path <= d);
  }
  g_free(st.post);
  g_free(st.mach_off);
  g_free(st.mach);
  g_free(st.sw_off);
  g_free(st.sw);
  g_free(st.v_base);
  g_free(st.v_n);
  g_free(st.v_shift);
  g_array_free(st.pool, TRUE);
  g_array_free(st.views, TRUE);
  g_array_free(st.kinds, TRUE);
  g_array_free(st.kopts, TRUE);
  g_array_free(st.kmem, TRUE);
  g_array_free(st.sp, TRUE);
  g_array_free(st.ca, TRUE);
  g_array_free(st.cb, TRUE);
  g_array_free(st.cc, TRUE);
  g_free(st.st_off);
  g_free(st.st_n);
  return ok;
}

/*
 * ns_allgather_lr3 — Algorithm 3 of the dissertation (§3.3.2.4), LR3 of
 * §3.3.3: the contention-free logical ring with the smallest maximum path
 * length, then the logical-ring all-gather over it (§3.3.1.1, p−1 phases).
 *
 * Steps: see the programme at the top of this file (decision version,
 * searched over the path length from a link-crossing lower bound; per
 * switch, a programme over the multiset of child kinds on Pareto fronts,
 * chain links by a shifted view of the child's front; top-down
 * reconstruction of the ring itself).
 * Time O(|V| log |V| + R · (|V| + Σ_A (S_A · τ_A + k_A log k_A) · w_A)) for
 * the ring (R ≤ 2⌈log2(d_opt − LB + 2)⌉ thresholds tried, w_A ≤
 * min(2·d_opt, H_A) pairs per front; O(|V| · R) on chains and caterpillars),
 * plus O(p²) for the schedule. Errors: NS_ERROR_UNSUPPORTED when a switch has so many pairwise
 * different child subtrees that the exact programme would exceed
 * NS_LR3_MAX_STATES states (or NS_LR3_MAX_PAIRS pairs).
 */
NsSchedule *ns_allgather_lr3(const NsTopology *topo, const NsPlanParams *params,
                             GError **error)
{
  int *ring = g_new(int, ns_topology_n_machines(topo)), d;
  NsSchedule *s = NULL;
  if (ns_ring_lr3(topo, ring, &d, error))
    s = ns_allgather_ring_schedule(topo, "lr3", params, ring);
  g_free(ring);
  return s;
}
