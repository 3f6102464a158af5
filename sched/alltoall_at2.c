/* netsched — alltoall/at2: Liu Gang et al.'s complete exchange on an r × c
 * all-port torus (Algorithm AT2, §IV, Fig. 4–5, Table I, Lemmas 3–4), with
 * the imaginary-node padding of §VI for other sizes; and the engine shared
 * with alltoall/ar (sched/alltoall_ar.c) that turns every message's path
 * into phases of combined transfers. */
#include "platforms/error.h"
#include "sched/registry.h"
#include "sched/torus_exchange.h"
#include <string.h>


/* The torus the algorithm runs on ("virtual": every size a multiple of
 * four, §VI's imaginary nodes added) and how it lies on the physical one. */
typedef struct {
  const NsTopology *topo;
  int n_dims;            /* 1: AR on a ring; 2: AT2 */
  int p;                 /* machines */
  int phys[2], virt[2];  /* sizes per dimension (dimension 1 unused for rings) */
  int *host[2];          /* virtual coordinate -> the physical one hosting it */
  int *vreal[2];         /* physical coordinate -> its (real) virtual coordinate */
  int X, Y;              /* AT2: the paper's x (rows, the smaller size r) and y */
  int n_ref;             /* logical ring whose steps the ring phases follow */
  int n_phases;          /* phases of the algorithm (before any splitting) */
  int *edge;             /* machine*4 + dimdir -> directed edge to that neighbour */
} Torus;

/* One hop of a message on the virtual torus: in phase `phase`, from
 * virtual coordinates v, `len` virtual links along `dim` in `dir`. */
typedef struct {
  int phase, v[2], dim, dir, len;
} VHop;

#define MAX_HOPS 256

static int mod(int a, int n)
{
  return ((a % n) + n) % n;
}

/* Signed shortest offset from a to b on a ring of V; *antipodal when it is
 * exactly V/2 (then +V/2). */
static int offset(int a, int b, int V, gboolean *antipodal)
{
  int r = mod(b - a, V);
  *antipodal = 2 * r == V;
  return 2 * r <= V ? r : r - V;
}

/* AR on the logical ring along `dim` through virtual coordinates h (the
 * holder) to d's coordinate: the ring's nodes are every other node of the
 * line (n = virt/2 of them, two links apart), so a Stage-1 hop spans two
 * links and a sub-ring hop four. Antipodal messages on a ring with n ≡ 2
 * (mod 4) are split between both directions (see ns_alltoall_at2, DECISION
 * "split bundles"). */
static int ring_hops(const Torus *T, int dim, int base_phase, const int h[2], const int d[2],
                     const int o[2], VHop *out)
{
  int n = T->virt[dim] / 2, a = h[dim] / 2, b = d[dim] / 2;
  if (a == b)
    return 0;
  int forced = 0;
  if (n % 4 == 2) {
    int parity = mod(o[0] - h[0], 2) ^ (T->n_dims > 1 ? mod(o[1] - h[1], 2) : 0);
    forced = parity == 0 ? ns_ar_antipodal_rule(b) : -ns_ar_antipodal_rule(b);
  }
  int dir = 0, step[MAX_HOPS], from[MAX_HOPS], span[MAX_HOPS];
  int k = ns_ar_hops(n, T->n_ref, a, b, forced, &dir, step, from, span);
  for (int i = 0; i < k; i++) {
    out[i] = (VHop){ .phase = base_phase + step[i], .dim = dim, .dir = dir, .len = 2 * span[i] };
    out[i].v[0] = h[0];
    out[i].v[1] = h[1];
    out[i].v[dim] = h[dim] % 2 + 2 * from[i];
  }
  return k;
}

/* The path of message o -> d (virtual coordinates) under AT2: Phase 1
 * (Table I), then AR along the rows or columns of the holder's group
 * (Phase 2), then along the other dimension (Phase 3). */
static int at2_path(const Torus *T, const int o[2], const int d[2], VHop *hops)
{
  int X = T->X, Y = T->Y, k = 0;
  gboolean anti;
  int off[2];
  off[X] = offset(o[X], d[X], T->virt[X], &anti);
  off[Y] = offset(o[Y], d[Y], T->virt[Y], &anti);
  int cur[2] = { o[0], o[1] };
  gboolean odd[2] = { off[0] % 2 != 0, off[1] % 2 != 0 };
  int first = -1, second = -1;
  if (odd[X] && odd[Y]) {
    /* G11-bound: QI down then right, QII right then up, QIII up then
     * left, QIV left then down (Table I, Fig. 5 step 2). */
    gboolean same = (off[X] > 0) == (off[Y] > 0);
    first = same ? X : Y;
    second = same ? Y : X;
  } else if (odd[X]) {
    first = X;
  } else if (odd[Y]) {
    first = Y;
  }
  if (first >= 0) {
    int dir = off[first] > 0 ? 1 : -1;
    hops[k++] = (VHop){ .phase = 0, .v = { cur[0], cur[1] }, .dim = first, .dir = dir, .len = 1 };
    cur[first] = mod(cur[first] + dir, T->virt[first]);
  }
  if (second >= 0) {
    int dir = off[second] > 0 ? 1 : -1;
    hops[k++] = (VHop){ .phase = 1, .v = { cur[0], cur[1] }, .dim = second, .dir = dir, .len = 1 };
    cur[second] = mod(cur[second] + dir, T->virt[second]);
  }
  /* G00 and G11 exchange along rows (dimension y) first, G01 and G10
   * along columns (x). */
  int d1 = mod(cur[0] + cur[1], 2) == 0 ? Y : X, d2 = d1 == X ? Y : X;
  k += ring_hops(T, d1, 2, cur, d, o, hops + k);
  cur[d1] = d[d1];
  k += ring_hops(T, d2, 2 + T->n_ref / 2, cur, d, o, hops + k);
  g_assert(k <= MAX_HOPS);
  return k;
}

/* The path of message o -> d on a ring under AR. */
static int ar_path(const Torus *T, int o, int d, VHop *hops)
{
  int dir = 0, step[MAX_HOPS], from[MAX_HOPS], span[MAX_HOPS];
  int k = ns_ar_hops(T->virt[0], T->virt[0], o, d, 0, &dir, step, from, span);
  for (int i = 0; i < k; i++)
    hops[i] = (VHop){ .phase = step[i], .v = { from[i], 0 }, .dim = 0, .dir = dir,
                      .len = span[i] };
  return k;
}

static int machine_of(const Torus *T, const int c[2])
{
  return T->n_dims == 1 ? c[0] : c[0] + T->phys[0] * c[1];
}

/* The physical image of a virtual hop: its source machine and the number
 * of physical links it crosses (0 when both ends are hosted by one
 * machine). */
static int image(const Torus *T, const VHop *hp, int *src)
{
  int v = hp->v[hp->dim], pc[2] = { T->host[0][hp->v[0]], 0 };
  if (T->n_dims > 1)
    pc[1] = T->host[1][hp->v[1]];
  *src = machine_of(T, pc);
  int len = 0, at = pc[hp->dim];
  for (int i = 0; i < hp->len; i++) {
    v = mod(v + hp->dir, T->virt[hp->dim]);
    int q = T->host[hp->dim][v];
    if (q != at) {
      at = q;
      len++;
    }
  }
  return len;
}

static void coords_of(const Torus *T, int m, int c[2])
{
  c[0] = T->n_dims == 1 ? m : m % T->phys[0];
  c[1] = T->n_dims == 1 ? 0 : m / T->phys[0];
}

/* Transfer keys: (phase, source machine, dimension and direction, physical
 * length 1..4). */
static uint64_t key_of(const Torus *T, int phase, int src, int dim, int dir, int len)
{
  return ((((uint64_t)phase * (uint64_t)T->p + (uint64_t)src) * 4 + (uint64_t)(dim * 2 + (dir < 0))) *
          5) + (uint64_t)len;
}

static int message_path(const Torus *T, int o, int d, VHop *hops)
{
  int co[2], cd[2];
  coords_of(T, o, co);
  coords_of(T, d, cd);
  if (T->n_dims == 1)
    return ar_path(T, co[0], cd[0], hops);
  int vo[2] = { T->vreal[0][co[0]], T->vreal[1][co[1]] };
  int vd[2] = { T->vreal[0][cd[0]], T->vreal[1][cd[1]] };
  return at2_path(T, vo, vd, hops);
}

/* Directed edge from machine m to its neighbour along dim in dir: the link
 * of lowest id between them (the rule of own routes). */
static int neighbour_edge(const Torus *T, int m, int dim, int dir, int *w_out)
{
  int c[2];
  coords_of(T, m, c);
  c[dim] = mod(c[dim] + dir, T->phys[dim]);
  int w = machine_of(T, c);
  *w_out = w;
  const NsTopology *t = T->topo;
  int u = ns_topology_machine_node(t, m), wn = ns_topology_machine_node(t, w);
  const int *inc = ns_topology_incident(t, u);
  int best = -1;
  for (int k = 0; k < ns_topology_degree(t, u); k++)
    if (ns_topology_link_other(t, inc[k], u) == wn && (best < 0 || inc[k] < best))
      best = inc[k];
  g_assert(best >= 0);
  return 2 * best + (ns_topology_link(t, best)->a == u ? 0 : 1);
}

typedef struct {
  int src, dst, dd, len, sub;
  uint64_t first, n;     /* chunks[first .. first+n) */
} Candidate;

/* Emits the transfers of one phase of the algorithm: the non-empty keys in
 * order, split greedily into sub-phases whose transfers share no directed
 * link (on a torus whose sizes are multiples of four this never splits:
 * the algorithm is contention-free; padded tori may need it). Returns the
 * number of schedule phases emitted. */
static int emit_phase(const Torus *T, NsSchedule *s, int phase, const uint64_t *start,
                      const uint32_t *chunks, GArray *cand, uint64_t *used, GArray *touched,
                      GPtrArray *names, int *route_buf)
{
  g_array_set_size(cand, 0);
  uint64_t base = key_of(T, phase, 0, 0, 1, 0);
  uint64_t end = key_of(T, phase + 1, 0, 0, 1, 0);
  for (uint64_t key = base; key < end; key++) {
    if (start[key + 1] == start[key])
      continue;
    uint64_t rest = key - base;
    Candidate c = { .len = (int)(rest % 5), .dd = (int)(rest / 5 % 4), .src = (int)(rest / 20),
                    .first = start[key], .n = start[key + 1] - start[key] };
    g_array_append_val(cand, c);
  }
  int n_sub = 0;
  for (guint i = 0; i < cand->len; i++) {
    Candidate *c = &g_array_index(cand, Candidate, i);
    int dim = c->dd / 2, dir = c->dd % 2 ? -1 : 1, m = c->src;
    uint64_t mask = 0;
    for (int h = 0; h < c->len; h++) {
      int w;
      neighbour_edge(T, m, dim, dir, &w);
      mask |= used[(uint64_t)m * 4 + (uint64_t)c->dd];
      m = w;
    }
    c->dst = m;
    g_assert(mask != ~(uint64_t)0);
    int sub = __builtin_ctzll(~mask);
    c->sub = sub;
    n_sub = MAX(n_sub, sub + 1);
    m = c->src;
    for (int h = 0; h < c->len; h++) {
      int w;
      neighbour_edge(T, m, dim, dir, &w);
      uint64_t hop = (uint64_t)m * 4 + (uint64_t)c->dd;
      if (used[hop] == 0)
        g_array_append_val(touched, hop);
      used[hop] |= (uint64_t)1 << sub;
      m = w;
    }
  }
  for (guint i = 0; i < touched->len; i++)
    used[g_array_index(touched, uint64_t, i)] = 0;
  g_array_set_size(touched, 0);

  const NsTopology *t = T->topo;
  for (int sub = 0; sub < n_sub; sub++) {
    ns_schedule_begin_phase(s);
    for (guint i = 0; i < cand->len; i++) {
      const Candidate *c = &g_array_index(cand, Candidate, i);
      if (c->sub != sub)
        continue;
      uint32_t tr = ns_schedule_add_chunks(s, c->src, c->dst, (uint32_t)c->n, chunks + c->first);
      /* Own route when the algorithm's path is not the topology's. */
      int dim = c->dd / 2, dir = c->dd % 2 ? -1 : 1, m = c->src;
      int n_route = ns_topology_route_machines(t, c->src, c->dst, route_buf);
      gboolean same = n_route == c->len;
      g_ptr_array_set_size(names, 0);
      g_ptr_array_add(names, (gpointer)ns_topology_machine_name(t, m));
      for (int h = 0; h < c->len; h++) {
        int w, e = neighbour_edge(T, m, dim, dir, &w);
        same = same && route_buf[h] == e;
        g_ptr_array_add(names, (gpointer)ns_topology_machine_name(t, w));
        m = w;
      }
      if (!same)
        ns_schedule_set_route(s, tr, (int)names->len, (const char *const *)names->pdata);
    }
  }
  return n_sub;
}

static void torus_clear(Torus *T)
{
  for (int d = 0; d < 2; d++) {
    g_free(T->host[d]);
    g_free(T->vreal[d]);
  }
}

/*
 * ns_torus_exchange — the schedule of AR (n_dims 1) or AT2 (n_dims 2) on
 * `topo`, whose grid the caller checked: every message's path is computed
 * (at2_path, ar_path), hops mapped onto the physical torus, and the hops
 * of one phase that leave one machine the same way over the same number
 * of links combined into one transfer. Two passes over the p² messages
 * (count, then fill in place), so memory is the chunk moves plus
 * O(phases · p) counters. NS_ERROR_UNSUPPORTED when the chunk moves would
 * not fit the IR's 32-bit chunk pool.
 */
NsSchedule *ns_torus_exchange(const NsTopology *topo, const NsPlanParams *params,
                              const char *algorithm, int n_dims, GError **error)
{
  Torus T = { .topo = topo, .n_dims = n_dims, .p = ns_topology_n_machines(topo) };
  int sizes[NS_MAX_DIMS];
  gboolean wrap;
  ns_topology_grid(topo, sizes, &wrap);
  for (int d = 0; d < 2; d++) {
    T.phys[d] = d < n_dims ? sizes[d] : 1;
    T.virt[d] = d < n_dims ? (n_dims == 1 ? sizes[d] : (sizes[d] + 3) / 4 * 4) : 1;
    T.host[d] = g_new(int, T.virt[d]);
    T.vreal[d] = g_new(int, T.phys[d]);
    /* Imaginary nodes spread evenly: virtual v on physical ⌊v·N/V⌋. */
    for (int v = 0; v < T.virt[d]; v++)
      T.host[d][v] = (int)((int64_t)v * T.phys[d] / T.virt[d]);
    for (int x = 0; x < T.phys[d]; x++) {
      T.vreal[d][x] = (int)(((int64_t)x * T.virt[d] + T.phys[d] - 1) / T.phys[d]);
      g_assert(T.host[d][T.vreal[d][x]] == x);
    }
  }
  if (n_dims == 1) {
    T.n_ref = T.virt[0];
    T.n_phases = T.virt[0] / 2;
  } else {
    T.X = T.virt[0] <= T.virt[1] ? 0 : 1;
    T.Y = 1 - T.X;
    T.n_ref = T.virt[T.Y] / 2;
    T.n_phases = 2 + T.n_ref;
  }
  for (int m = 0; m < T.p; m++) { /* the documented machine layout */
    int c[NS_MAX_DIMS];
    ns_topology_machine_coords(topo, m, c);
    g_assert(machine_of(&T, c) == m);
  }

  /* Pass 1: hops per key. */
  uint64_t n_keys = key_of(&T, T.n_phases, 0, 0, 1, 0);
  uint64_t *start = g_new0(uint64_t, n_keys + 1);
  VHop hops[MAX_HOPS];
  for (int o = 0; o < T.p; o++)
    for (int d = 0; d < T.p; d++) {
      if (o == d)
        continue;
      int k = message_path(&T, o, d, hops);
      for (int i = 0; i < k; i++) {
        int src, len = image(&T, &hops[i], &src);
        if (len > 0)
          start[key_of(&T, hops[i].phase, src, hops[i].dim, hops[i].dir, len) + 1]++;
      }
    }
  for (uint64_t key = 0; key < n_keys; key++)
    start[key + 1] += start[key];
  uint64_t moves = start[n_keys];
  if (moves >= G_MAXUINT32) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "%s on %d machines would move %" G_GUINT64_FORMAT " chunks, more than a "
                "schedule can hold (%u)", algorithm, T.p, moves, G_MAXUINT32 - 1);
    g_free(start);
    torus_clear(&T);
    return NULL;
  }
  /* Pass 2: chunks in key order (each key's in message order). */
  uint32_t *chunks = g_new(uint32_t, MAX(moves, 1));
  uint64_t *fill = g_new(uint64_t, n_keys);
  memcpy(fill, start, sizeof(uint64_t) * n_keys);
  for (int o = 0; o < T.p; o++)
    for (int d = 0; d < T.p; d++) {
      if (o == d)
        continue;
      int k = message_path(&T, o, d, hops);
      for (int i = 0; i < k; i++) {
        int src, len = image(&T, &hops[i], &src);
        if (len > 0)
          chunks[fill[key_of(&T, hops[i].phase, src, hops[i].dim, hops[i].dir, len)]++] =
              ns_a2a_chunk(T.p, o, d);
      }
    }
  g_free(fill);

  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, algorithm, params->msize);
  ns_schedule_reserve(s, (uint32_t)T.n_phases, (uint64_t)T.n_phases * (uint64_t)T.p * 4);
  GArray *cand = g_array_new(FALSE, FALSE, sizeof(Candidate));
  GArray *touched = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  uint64_t *used = g_new0(uint64_t, (gsize)T.p * 4);
  GPtrArray *names = g_ptr_array_new();
  int *route_buf = g_new(int, ns_topology_max_route_len(topo) + 8);
  for (int ph = 0; ph < T.n_phases; ph++)
    emit_phase(&T, s, ph, start, chunks, cand, used, touched, names, route_buf);
  g_free(route_buf);
  g_ptr_array_unref(names);
  g_free(used);
  g_array_unref(touched);
  g_array_unref(cand);
  g_free(chunks);
  g_free(start);
  torus_clear(&T);
  return s;
}

/*
 * ns_alltoall_at2 — Algorithm AT2: complete exchange on an r × c all-port
 * torus, r and c multiples of four (Liu Gang et al. §IV, Fig. 4–5,
 * Table I, Lemmas 3–4); other sizes through §VI's imaginary nodes.
 *
 * The paper's x is the dimension of the smaller size r (rows P(x,·)), y
 * the other (size c); a torus whose dimension 0 is the larger is handled
 * by swapping the roles (the algorithm is symmetric). Groups
 * G_ij = {P(x,y) : x mod 2 = i, y mod 2 = j}.
 * Steps (a message o -> d, offsets Δx, Δy the shorter way round):
 *  Phase 1, step 1 (one transfer per port): a message for a node of
 *    another group leaves by the port of its odd offset: Δx odd, Δy even
 *    down/up (x±1), Δx even, Δy odd right/left (y±1); both odd (G11-
 *    bound, by quadrant): QI (Δx>0, Δy>0) down, QII (Δx<0, Δy>0) right,
 *    QIII up, QIV left — r·c/8 + r·c/16 messages per port (Table I).
 *  Phase 1, step 2: the relays forward the G11-bound ones a second hop:
 *    QI right, QII up, QIII left, QIV down — r·c/16 per port. Every node
 *    then holds only messages for nodes of its own group, from itself and
 *    its eight surrounding nodes.
 *  Phase 2 (c/4 steps): AR (sched/alltoall_ar.c) along the logical rows
 *    of G00 and G11 (c/2 nodes two links apart: a Stage-1 hop spans two
 *    links, a sub-ring hop four) and at once along the logical columns of
 *    G01 and G10 (r/2 nodes); each message goes to the node of its group
 *    in its destination's column (row).
 *  Phase 3 (c/4 steps): the same along the other dimension, to the
 *    destination.
 * DECISIONS (docs/algorithms.md):
 *  - AR's "messages" on a logical ring are the bundles a node holds for
 *    one logical destination; they are moved whole by AR's rules, except
 *  - split bundles: on a logical ring of n ≡ 2 (mod 4) nodes (r or c ≡ 4
 *    mod 8, including the rings of two nodes of a size-4 dimension), the
 *    bundle for the antipodal node is split: messages whose origin is an
 *    even number of links from the holder (coordinate sum) take AR's
 *    direction, the others the opposite one (exactly half each way). Lemma
 *    3's Phase-2 cost (rc/32 + rc/32 − r/8)·c is not a whole number of
 *    bundles when c ≡ 4 mod 8; the split reaches it, whole bundles do not;
 *  - stage alignment: the shorter logical rings (r/2 nodes) run their
 *    Stage 1, Stage 2 and Stage 3 steps in the first phases of the longer
 *    rings' corresponding stages (and idle in between), so that no phase
 *    costs more than the longer rings' step (Lemma 3's "T_row ≥ T_column"
 *    holds step by step, not only in total);
 *  - transfers whose path is not the topology's dimension-order route (a
 *    sub-ring hop of four links on a ring of eight sent anticlockwise, a
 *    two-link hop on a ring of four) carry their own route.
 * Padding (§VI "adding imaginary nodes"): each dimension of size N is
 * extended to V = the next multiple of four; virtual node v lies on
 * physical node ⌊v·N/V⌋ (imaginary nodes spread evenly, each hosted by the
 * real node before it, so every virtual link maps onto one physical link or
 * onto none). AT2 runs on the virtual torus; hops inside one machine
 * vanish, hops of one phase leaving one machine the same way over the same
 * links are combined, and where the images of a phase's transfers still
 * share a link (imaginary rows fold onto real ones) the phase is split
 * into contention-free sub-phases. Padded schedules are complete and
 * contention-free but neither shortest-path nor optimal; what they cost is
 * measured in docs/algorithms.md.
 * Phases 2 + c/2 (unpadded); transmission r·c²/8 message times — Lemma 1's
 * bound — whenever r ≡ c (mod 8), and on 104 of the 136 tori r ≤ c ≤ 64.
 * On the others (one size ≡ 0, the other ≡ 4 mod 8: 8 × 12, 16 × 20, …)
 * a column ring's step is in some phase larger than the row rings' (Lemma
 * 3 compares the rings' totals), which costs up to 5.6 % (8 × 12); another
 * placement of whole steps would mend 13 of the 32, the other 19 need
 * transfers split across phases (not done). tests/test_torus.c checks the
 * transmission against the per-step derivation for every r ≤ c up to
 * 32 × 32 and a selection above.
 * Time and memory O(p² · (r + c)/8) (the chunk moves). Errors:
 * NS_ERROR_UNSUPPORTED unless the topology is a two-dimensional torus
 * with both sizes at least 3.
 */
NsSchedule *ns_alltoall_at2(const NsTopology *topo, const NsPlanParams *params,
                            GError **error)
{
  int sizes[NS_MAX_DIMS];
  gboolean wrap = FALSE;
  int n_dims = ns_topology_grid(topo, sizes, &wrap);
  if (n_dims != 2 || !wrap || sizes[0] * sizes[1] != ns_topology_n_machines(topo)) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "at2 needs a two-dimensional torus (gen:torus:RxC); %s is not one",
                ns_topology_source(topo));
    return NULL;
  }
  if (sizes[0] < 3 || sizes[1] < 3) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "at2 needs both torus sizes at least 3 (got %dx%d)", sizes[0], sizes[1]);
    return NULL;
  }
  return ns_torus_exchange(topo, params, "at2", 2, error);
}
