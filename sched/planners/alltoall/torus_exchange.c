/* netsched — the complete exchange of Liu Gang et al. on all-port rings
 * and tori, shared by alltoall/ar (sched/planners/alltoall/alltoall_ar.c) and alltoall/at2
 * (sched/planners/alltoall/alltoall_at2.c): every message's path — Algorithm AR's on a ring
 * (§III, reconstructed: the DECISION notes below), Algorithm AT2's four
 * groups and three phases on a torus (§IV), with §VI's imaginary-node
 * padding for other sizes — and the engine that turns the paths into
 * phases of combined transfers. The two planners only check their fabric
 * and call ns_torus_exchange(). See sched/planners/alltoall/torus_exchange_internal.h. */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"
#include "sched/planners/alltoall/torus_exchange_internal.h"
#include <string.h>
/*
 * ns_ar_antipodal_rule — the direction AR sends a message whose
 * destination b (a ring position) lies exactly half a ring away: clockwise
 * (+1) to an even node, anticlockwise (−1) to an odd one, i.e. the
 * direction in which b's sub-ring sends during Stage 2, the longer stage.
 * DECISION (the tie rule): §III's definition puts P_{i+p/2} on the positive
 * half-circle of every P_i, but with that rule an odd node's antipodal
 * message (p ≡ 0 mod 4) needs p/4 clockwise sub-ring steps, and the odd
 * sub-ring sends clockwise only in Stage 3, which has ⌈p/4⌉−1 of them; and
 * sending every antipodal message clockwise would load each clockwise link
 * with Σ_{d≤p/2} d > ⌈p²/8⌉ messages. The legible part of Fig. 2 agrees
 * with this rule for p ≡ 2 mod 4 (even nodes send M^{2i}_{2i+2⌊p/4⌋+1,…}
 * — the antipodal one included — to P_{2i−1}; odd nodes send
 * M^{2i+1}_{2i+2,…,2i+2⌈p/4⌉} — the antipodal one included — to P_{2i+2}).
 * Complexity O(1).
 */
int ns_ar_antipodal_rule(int b)
{
  return b % 2 == 0 ? 1 : -1;
}

/*
 * ns_ar_hops — the hops of one message of Algorithm AR on a ring of n
 * nodes (n even, n ≥ 2), from the node at position a that holds it to its
 * destination b (positions 0..n−1, clockwise).
 *
 * Parameters: n_ref ≥ n is the ring whose steps the schedule follows (n
 * itself for a plain ring; AT2 aligns a shorter ring's stages with the
 * longer ring's, see ns_torus_exchange below); antipodal_dir is the direction of a
 * message at distance exactly n/2: 0 for AR's rule (ns_ar_antipodal_rule),
 * or ±1 to force one. Receives the direction in *dir and, for each hop k,
 * its step step[k] (0 = Stage 1; 1 + j = Stage 2 step j; 1 + ⌊n_ref/4⌋ + j
 * = Stage 3 step j), the position it leaves from[k] and its span span[k]
 * in ring positions (1: Stage 1, to the neighbour; 2: a sub-ring hop
 * through the node in between, which does not process it). The arrays
 * need room for 1 + n/4 hops. Returns the number of hops (0 when a == b).
 *
 * Steps (the algorithm, per message):
 *  1. direction: the shorter way round; at distance n/2 antipodal_dir;
 *  2. Stage 1: when a and b differ in parity, one hop to a's neighbour in
 *     that direction (an even node's odd-bound messages go to P_{2i+1} or
 *     P_{2i−1}, an odd node's even-bound ones to P_{2i+2} or P_{2i});
 *  3. Stages 2 and 3: the remaining distance (even) in sub-ring hops of
 *     two positions, one per step, on b's sub-ring, in Stage 2 when that
 *     sub-ring sends this way in Stage 2 (even sub-ring clockwise, odd
 *     anticlockwise), else in Stage 3 (the reverse directions); a message
 *     leaves at the first step of its stage and moves at every step until
 *     it arrives ("each node extracts the messages meant for it and
 *     forwards the rest").
 * DECISION: hops start at the first step of their stage (§III leaves when
 * each message starts open; starting all at once is what gives Lemma 2's
 * per-step counts (⌊p/4⌋−k)+(⌈p/4⌉−1−k) in Stage 2).
 * The hop counts never exceed the stages' lengths: ⌊n/4⌋ steps in Stage 2,
 * ⌈n/4⌉−1 in Stage 3 (asserted). Complexity O(1 + n/4).
 */
int ns_ar_hops(int n, int n_ref, int a, int b, int antipodal_dir, int *dir, int *step,
               int *from, int *span)
{
  g_assert(n >= 2 && n % 2 == 0 && n_ref >= n);
  int dist = ((b - a) % n + n) % n;
  if (dist == 0)
    return 0;
  int d;
  if (2 * dist < n) {
    *dir = 1;
    d = dist;
  } else if (2 * dist > n) {
    *dir = -1;
    d = n - dist;
  } else {
    *dir = antipodal_dir != 0 ? antipodal_dir : ns_ar_antipodal_rule(b);
    d = n / 2;
  }
  int k = 0, pos = a;
  if (((a ^ b) & 1) != 0) { /* Stage 1: to the neighbour of b's parity */
    step[k] = 0;
    from[k] = pos;
    span[k] = 1;
    k++;
    pos = ((pos + *dir) % n + n) % n;
    d--;
  }
  int m = d / 2;
  gboolean stage2 = (b % 2 == 0) == (*dir > 0);
  g_assert(m <= (stage2 ? n / 4 : (n + 3) / 4 - 1));
  for (int j = 0; j < m; j++) {
    step[k] = stage2 ? 1 + j : 1 + n_ref / 4 + j;
    from[k] = pos;
    span[k] = 2;
    k++;
    pos = ((pos + 2 * *dir) % n + n) % n;
  }
  g_assert(pos == b);
  return k;
}

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

/* Emits the transfers of one phase of the algorithm from its hops bucketed
 * by key within the phase (start[key] .. start[key + 1] in `chunks`, keys
 * key_of(T, 0, ...)): the non-empty keys in order, split greedily into
 * sub-phases whose transfers share no directed link (on a torus whose sizes are multiples of four this never splits:
 * the algorithm is contention-free; padded tori may need it). Returns the
 * number of schedule phases emitted. */
static int emit_phase(const Torus *T, NsSchedule *s, const uint64_t *start,
                      const uint32_t *chunks, GArray *cand, uint64_t *used, GArray *touched,
                      GPtrArray *names, int *route_buf)
{
  g_array_set_size(cand, 0);
  uint64_t end = key_of(T, 1, 0, 0, 1, 0);
  for (uint64_t key = 0; key < end; key++) {
    if (start[key + 1] == start[key])
      continue;
    uint64_t rest = key;
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

/* The virtual torus of AR (n_dims 1) or AT2 (n_dims 2) on `topo` (a grid
 * the caller checked). Free with torus_clear. */
static void torus_init(Torus *T, const NsTopology *topo, int n_dims)
{
  *T = (Torus){ .topo = topo, .n_dims = n_dims, .p = ns_topology_n_machines(topo) };
  int sizes[NS_MAX_DIMS];
  gboolean wrap;
  ns_topology_grid(topo, sizes, &wrap);
  for (int d = 0; d < 2; d++) {
    T->phys[d] = d < n_dims ? sizes[d] : 1;
    T->virt[d] = d < n_dims ? (n_dims == 1 ? sizes[d] : (sizes[d] + 3) / 4 * 4) : 1;
    T->host[d] = g_new(int, T->virt[d]);
    T->vreal[d] = g_new(int, T->phys[d]);
    /* Imaginary nodes spread evenly: virtual v on physical ⌊v·N/V⌋. */
    for (int v = 0; v < T->virt[d]; v++)
      T->host[d][v] = (int)((int64_t)v * T->phys[d] / T->virt[d]);
    for (int x = 0; x < T->phys[d]; x++) {
      T->vreal[d][x] = (int)(((int64_t)x * T->virt[d] + T->phys[d] - 1) / T->phys[d]);
      g_assert(T->host[d][T->vreal[d][x]] == x);
    }
  }
  if (n_dims == 1) {
    T->n_ref = T->virt[0];
    T->n_phases = T->virt[0] / 2;
  } else {
    T->X = T->virt[0] <= T->virt[1] ? 0 : 1;
    T->Y = 1 - T->X;
    T->n_ref = T->virt[T->Y] / 2;
    T->n_phases = 2 + T->n_ref;
  }
  for (int m = 0; m < T->p; m++) { /* the documented machine layout */
    int c[NS_MAX_DIMS];
    ns_topology_machine_coords(topo, m, c);
    g_assert(machine_of(T, c) == m);
  }
}

/* The chunk moves of the whole exchange on a torus without imaginary
 * nodes, from the paths of the messages of one origin per group (the
 * parities of its coordinates): the algorithm treats the nodes of a group
 * alike up to translation, so each origin of a group moves its messages
 * as many times. O(p · hops) instead of the O(p² · hops) count, so that a
 * torus whose schedule cannot be held is refused at once (tests/test_torus.c
 * checks it equals the full count). */
static uint64_t moves_by_symmetry(const Torus *T)
{
  VHop hops[MAX_HOPS];
  int reps = T->n_dims == 1 ? 2 : 4;
  uint64_t moves = 0;
  for (int g = 0; g < reps; g++) {
    int c[2] = { g % 2, g / 2 }, o = machine_of(T, c);
    for (int d = 0; d < T->p; d++)
      if (d != o)
        moves += (uint64_t)message_path(T, o, d, hops);
  }
  return moves * (uint64_t)(T->p / reps);
}

/* The chunk moves of the whole exchange, every message's path counted:
 * O(p² · hops) time, O(1) memory. */
static uint64_t moves_counted(const Torus *T)
{
  VHop hops[MAX_HOPS];
  uint64_t moves = 0;
  for (int o = 0; o < T->p; o++)
    for (int d = 0; d < T->p; d++)
      if (o != d) {
        int k = message_path(T, o, d, hops);
        for (int i = 0; i < k; i++) {
          int src;
          moves += image(T, &hops[i], &src) > 0;
        }
      }
  return moves;
}

uint64_t ns_torus_exchange_moves(const NsTopology *topo, int n_dims, gboolean by_symmetry)
{
  Torus T;
  torus_init(&T, topo, n_dims);
  uint64_t moves = 0;
  if (by_symmetry) {
    moves = moves_by_symmetry(&T);
  } else {
    moves = moves_counted(&T);
  }
  torus_clear(&T);
  return moves;
}

/* ---- the engine: one phase at a time ---------------------------------------
 *
 * The exchange moves p² · (r + c)/8 chunks (4.63 G on a 128 × 128 torus):
 * far more than one phase's. The paths are computed once for the messages
 * of a few representative origins only, and each phase's hops are then
 * produced from them by translation, bucketed and handed on (streamed when
 * the caller asked) before the next phase is built: memory is the
 * representatives' hops and one phase.
 *
 * Symmetry: a translation by a multiple of period[d] along every dimension
 * maps the algorithm's paths onto each other — AT2 on a size that is a
 * multiple of four (the groups G_ij and the logical rings' sub-rings keep
 * their parities under steps of four), AR on a ring under steps of two; a
 * padded dimension (§VI's imaginary nodes) has none: period = its size.
 * tests/test_torus.c and the golden files check the schedules are the
 * ones every message's own path gives. */

/* A hop of a representative origin's message, mapped onto the physical
 * torus: its destination's and its sending machine's coordinates, its
 * dimension·2 + (direction < 0), and its physical links (1..4). */
typedef struct {
  uint16_t dx, dy, sx, sy;
  uint8_t dd, len;
} RepHop;

typedef struct {
  int period[2];
  int n_reps;            /* period[0] · period[1] */
  int X, Y;              /* physical sizes (Y = 1 on a ring) */
  RepHop *hop;           /* by representative, phase, destination row, column */
  uint64_t *row;         /* ((rep · n_phases + phase) · Y + y): its first hop; one more */
  uint64_t *phase_moves; /* chunk moves of each phase, all origins */
} Reps;

static void reps_clear(Reps *R)
{
  g_free(R->hop);
  g_free(R->row);
  g_free(R->phase_moves);
}

/* The two passes of a counting sort of the representatives' hops by
 * (representative, phase, destination row): with `out` NULL counts them
 * into row[slot]; otherwise writes each at out[row[slot]++], in
 * destination order within a slot. O(representatives · p · hops). */
static void rep_hops(const Torus *T, const Reps *R, uint64_t *row, RepHop *out)
{
  VHop hops[MAX_HOPS];
  for (int rep = 0; rep < R->n_reps; rep++) {
    int rc[2] = { rep % R->period[0], rep / R->period[0] }, o = machine_of(T, rc);
    for (int d = 0; d < T->p; d++) {
      if (d == o)
        continue;
      int k = message_path(T, o, d, hops), dc[2];
      coords_of(T, d, dc);
      for (int i = 0; i < k; i++) {
        int src, len = image(T, &hops[i], &src), sc[2];
        if (len <= 0)
          continue;
        coords_of(T, src, sc);
        uint64_t slot = ((uint64_t)rep * (uint64_t)T->n_phases + (uint64_t)hops[i].phase) *
                            (uint64_t)R->Y + (uint64_t)dc[1];
        if (out == NULL)
          row[slot]++;
        else
          out[row[slot]++] = (RepHop){ (uint16_t)dc[0], (uint16_t)dc[1], (uint16_t)sc[0],
                                       (uint16_t)sc[1],
                                       (uint8_t)(hops[i].dim * 2 + (hops[i].dir < 0)),
                                       (uint8_t)len };
      }
    }
  }
}

/* The representatives' hops, by (representative, phase, destination row)
 * and, within a row, by destination column; each phase's moves. FALSE
 * with NS_ERROR_UNSUPPORTED when they would not fit in memory (a padded
 * torus has no symmetry: every origin is its own representative). */
static gboolean reps_build(const Torus *T, Reps *R, const char *algorithm, GError **error)
{
  *R = (Reps){ .X = T->phys[0], .Y = T->phys[1] };
  for (int d = 0; d < 2; d++)
    R->period[d] = d >= T->n_dims ? 1 : T->virt[d] != T->phys[d] ? T->phys[d]
                                                 : T->n_dims == 1 ? 2 : 4;
  R->n_reps = R->period[0] * R->period[1];
  if (R->n_reps == T->p) { /* no symmetry: refused before the table is built */
    uint64_t moves = moves_counted(T);
    if (moves >= G_MAXUINT32) {
      g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                  "%s on %d machines would move %" G_GUINT64_FORMAT " chunks, more than a "
                  "schedule can hold (%u)", algorithm, T->p, moves, G_MAXUINT32 - 1);
      return FALSE;
    }
  }
  uint64_t n_rows = (uint64_t)R->n_reps * (uint64_t)T->n_phases * (uint64_t)R->Y;
  R->row = g_new0(uint64_t, n_rows + 1);
  rep_hops(T, R, R->row + 1, NULL);
  for (uint64_t i = 0; i < n_rows; i++)
    R->row[i + 1] += R->row[i];
  R->hop = g_new(RepHop, MAX(R->row[n_rows], 1));
  uint64_t *fill = g_memdup2(R->row, sizeof(uint64_t) * n_rows);
  rep_hops(T, R, fill, R->hop);
  g_free(fill);
  /* every representative stands for as many origins */
  uint64_t copies = (uint64_t)(T->p / R->n_reps);
  R->phase_moves = g_new0(uint64_t, T->n_phases);
  for (int rep = 0; rep < R->n_reps; rep++)
    for (int ph = 0; ph < T->n_phases; ph++) {
      uint64_t at = ((uint64_t)rep * (uint64_t)T->n_phases + (uint64_t)ph) * (uint64_t)R->Y;
      R->phase_moves[ph] += (R->row[at + (uint64_t)R->Y] - R->row[at]) * copies;
    }
  return TRUE;
}

/* The first hop of row [lo, hi) whose destination column is >= x. */
static uint64_t row_split(const RepHop *hop, uint64_t lo, uint64_t hi, int x)
{
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (hop[mid].dx < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Phase ph's hops of every origin counted by key (key_of(T, 0, ...)) into
 * slot[key]: a representative's hop from machine s stands for one hop from
 * every machine congruent to s modulo the periods (one per translation),
 * so a key's count is that of its machine's residue. O(the
 * representatives' hops of the phase + p). */
static void phase_counts(const Torus *T, const Reps *R, int ph, uint64_t *slot)
{
  int n_res = R->n_reps;
  g_autofree uint64_t *by_res = g_new0(uint64_t, (gsize)n_res * 20);
  for (int rep = 0; rep < R->n_reps; rep++) {
    uint64_t at = ((uint64_t)rep * (uint64_t)T->n_phases + (uint64_t)ph) * (uint64_t)R->Y;
    for (uint64_t i = R->row[at]; i < R->row[at + (uint64_t)R->Y]; i++) {
      const RepHop *h = &R->hop[i];
      int res = h->sx % R->period[0] + R->period[0] * (h->sy % R->period[1]);
      by_res[(uint64_t)res * 20 + (uint64_t)h->dd * 5 + h->len]++;
    }
  }
  for (int m = 0; m < T->p; m++) {
    int c[2];
    coords_of(T, m, c);
    int res = c[0] % R->period[0] + R->period[0] * (c[1] % R->period[1]);
    for (int k = 0; k < 20; k++)
      slot[(uint64_t)m * 20 + (uint64_t)k] = by_res[(uint64_t)res * 20 + (uint64_t)k];
  }
}

/* Phase ph's hops of every origin, by key (key_of(T, 0, ...)): writes each
 * hop's chunk at chunks[slot[key]++]. Origins in order and, for each, its
 * destinations in order (the translated rows of its representative,
 * rotated), so that each key's chunks are in message order. O(phase's
 * moves + p · rows). */
static void phase_hops(const Torus *T, const Reps *R, int ph, uint64_t *slot, uint32_t *chunks)
{
  int X = R->X, Y = R->Y;
  for (int o = 0; o < T->p; o++) {
    int oc[2];
    coords_of(T, o, oc);
    int rx = oc[0] % R->period[0], ry = oc[1] % R->period[1];
    int tx = oc[0] - rx, ty = oc[1] - ry, rep = rx + R->period[0] * ry;
    uint64_t base = ((uint64_t)rep * (uint64_t)T->n_phases + (uint64_t)ph) * (uint64_t)Y;
    uint32_t chunk_base = (uint32_t)o * (uint32_t)T->p;
    for (int yt = 0; yt < Y; yt++) { /* destination rows in translated order */
      int y = yt - ty < 0 ? yt - ty + Y : yt - ty;
      uint64_t lo = R->row[base + (uint64_t)y], hi = R->row[base + (uint64_t)y + 1];
      if (lo == hi)
        continue;
      uint64_t split = tx == 0 ? lo : row_split(R->hop, lo, hi, X - tx);
      for (int part = 0; part < 2; part++) {
        uint64_t a = part == 0 ? split : lo, b = part == 0 ? hi : split;
        for (uint64_t i = a; i < b; i++) {
          const RepHop *h = &R->hop[i];
          int dx = h->dx + tx, sx = h->sx + tx, sy = h->sy + ty;
          dx -= dx >= X ? X : 0;
          sx -= sx >= X ? X : 0;
          sy -= sy >= Y ? Y : 0;
          uint64_t key = ((uint64_t)(sx + X * sy) * 4 + h->dd) * 5 + h->len;
          chunks[slot[key]++] = chunk_base + (uint32_t)(dx + X * yt);
        }
      }
    }
  }
}

/* Does the topology route every straight hop of one to four links along a
 * dimension over those links (so that no transfer needs a route of its
 * own, and the schedule may be streamed)? O(p · 16 · route). */
static gboolean straight_routes(const Torus *T, int *route_buf)
{
  for (int m = 0; m < T->p; m++)
    for (int dd = 0; dd < 2 * T->n_dims; dd++) {
      int dim = dd / 2, dir = dd % 2 ? -1 : 1, at = m;
      for (int len = 1; len <= 4; len++) {
        int w;
        neighbour_edge(T, at, dim, dir, &w);
        if (ns_topology_route_machines(T->topo, m, w, route_buf) != len)
          return FALSE;
        for (int k = 0, x = m; k < len; k++) {
          int y, f = neighbour_edge(T, x, dim, dir, &y);
          if (route_buf[k] != f)
            return FALSE;
          x = y;
        }
        at = w;
      }
    }
  return TRUE;
}

/*
 * ns_torus_exchange — the schedule of AR (n_dims 1) or AT2 (n_dims 2) on
 * `topo`, whose grid the caller checked: every message's path (at2_path,
 * ar_path), its hops mapped onto the physical torus, and the hops of one
 * phase that leave one machine the same way over the same number of links
 * combined into one transfer. The relays store and forward (each forwards
 * a message once, on the next hop of its path), which the schedule
 * declares. Phases are built one at a time from the representatives'
 * paths (see "the engine" above) and streamed when the caller asked and
 * no transfer needs a route of its own: memory is then the
 * representatives' hops and one phase (12 bytes and 8 bytes a chunk
 * move of the phase). NS_ERROR_UNSUPPORTED when a phase's chunks (streamed)
 * or the schedule's (held whole) would not fit the IR's 32-bit chunk pool.
 */
NsSchedule *ns_torus_exchange(const NsTopology *topo, const NsPlanParams *params,
                              const char *algorithm, int n_dims, GError **error)
{
  Torus T;
  torus_init(&T, topo, n_dims);
  Reps R;
  if (!reps_build(&T, &R, algorithm, error)) {
    torus_clear(&T);
    return NULL;
  }
  uint64_t moves = 0, most = 0;
  for (int ph = 0; ph < T.n_phases; ph++) {
    moves += R.phase_moves[ph];
    most = MAX(most, R.phase_moves[ph]);
  }
  int *route_buf = g_new(int, ns_topology_max_route_len(topo) + 8);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, algorithm, params->msize);
  s->store_forward = TRUE;
  if (most < G_MAXUINT32 && straight_routes(&T, route_buf))
    ns_plan_stream(s, params);
  if ((ns_schedule_is_streamed(s) ? most : moves) >= G_MAXUINT32) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "%s on %d machines would move %" G_GUINT64_FORMAT " chunks, more than a "
                "schedule can hold (%u)", algorithm, T.p, moves, G_MAXUINT32 - 1);
    ns_schedule_free(s);
    g_free(route_buf);
    reps_clear(&R);
    torus_clear(&T);
    return NULL;
  }
  ns_schedule_reserve(s, (uint32_t)T.n_phases, (uint64_t)T.n_phases * (uint64_t)T.p * 4);
  uint64_t n_keys = key_of(&T, 1, 0, 0, 1, 0);
  uint64_t *start = g_new(uint64_t, n_keys + 1);
  uint64_t *fill = g_new(uint64_t, n_keys);
  uint32_t *chunks = g_new(uint32_t, MAX(most, 1));
  GArray *cand = g_array_new(FALSE, FALSE, sizeof(Candidate));
  GArray *touched = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  uint64_t *used = g_new0(uint64_t, (gsize)T.p * 4);
  GPtrArray *names = g_ptr_array_new();
  for (int ph = 0; ph < T.n_phases; ph++) {
    start[0] = 0;
    phase_counts(&T, &R, ph, start + 1);
    for (uint64_t key = 0; key < n_keys; key++)
      start[key + 1] += start[key];
    memcpy(fill, start, sizeof(uint64_t) * n_keys);
    phase_hops(&T, &R, ph, fill, chunks);
    emit_phase(&T, s, start, chunks, cand, used, touched, names, route_buf);
  }
  g_ptr_array_unref(names);
  g_free(used);
  g_array_unref(touched);
  g_array_unref(cand);
  g_free(chunks);
  g_free(fill);
  g_free(start);
  g_free(route_buf);
  reps_clear(&R);
  torus_clear(&T);
  return s;
}
