/* netsched — allgather/torus: the all-port torus all-gather. One broadcast
 * tree of machine 0, whose arcs are labelled (round, direction) with every
 * label used once, translated to every machine: the translates are
 * time-arc-disjoint, so every port of every machine carries one block in
 * every round. */
#include "sched/planners/common/torus_shape_internal.h"
#include "sched/planners/registry.h"
#include <string.h>

/*
 * ns_allgather_torus — all-gather on a k-ary n-cube (a torus of any
 * number of dimensions and sizes, a ring included) with all-port machines,
 * by translated generic broadcast trees: the method of Šoch & Tvrdík,
 * "Time-optimal gossip in noncombining 2-D tori with constant buffers"
 * (Euro-Par'98) — a torus is a Cayley graph, so a broadcast tree rooted at
 * one node, moved by translation to every other node, gives every node's
 * tree, and when the generic tree uses each direction at most once per
 * round the translates never share an arc in a round — and of Bermond,
 * Kodate & Pérennes, "Gossiping in Cayley graphs by packets" (LNCS 1120,
 * 1996), whose lower bound ⌈(P−1)/Δ⌉ rounds (Δ the degree; one packet per
 * arc and round, packets not combined) such trees reach.
 *
 * Directions: +e_k and −e_k for every dimension k of size ≥ 3, +e_k alone
 * for a dimension of size 2 (its two links join the same two machines and
 * a route, a list of node names, cannot tell them apart: the topology's
 * route takes the positive one); Δ = their number (4 on a 2D torus of
 * sizes ≥ 3, 6 in 3D).
 * Steps:
 *  1. The generic tree T, over the offsets from the machine at
 *     coordinates 0, built round by round: in round t (t = 1, 2, …) each
 *     direction g carries one arc w → w + g from an offset w reached
 *     before round t to one not yet reached; the arcs of a round are a
 *     maximum matching (Kuhn's augmenting paths) of the directions to the
 *     unreached offsets next to reached ones, so a round adds min(Δ, what
 *     can be reached) offsets. Each direction tries its candidates best
 *     first: targets with the most unreached neighbours, then by
 *     coordinates (rank_candidates). This greedy search is ours: the papers build T explicitly (Šoch &
 *     Tvrdík for any 2-D torus); the search reaches their bound
 *     ⌈(P−1)/Δ⌉ on every torus tested (tests/test_allgather_torus.c:
 *     every 2-D torus up to 20 × 20, every 3-D one up to 6 × 6 × 6 and
 *     the ones of the docs), and when it does not on some torus the
 *     schedule is still complete and contention-free, one round longer.
 *  2. Round t of T is phase t−1 of the schedule: for each arc w → w + g
 *     of round t, every machine u sends to its neighbour u + g the block
 *     of origin u − w (which it received in an earlier phase: w was
 *     reached before round t; origin u itself when w = 0).
 * Every transfer goes one hop to a neighbour along the topology's own
 * route and carries one whole block (the IR's all-gather chunk is the
 * block: blocks are not split, DECISIONS below); a directed link carries
 * one block in a phase, so the schedule is contention-free under the
 * all-port model, and every block reaches every machine exactly once.
 * Phases: the depth of T, ⌈(P−1)/Δ⌉ where the search reaches the bound —
 * 16 on 8 × 8 (P−1 = 63 blocks through 4 ports: 15.75 block times, the
 * all-port bound (P−1)·msize/(4·B), so 1.6 % above it), 64 on 16 × 16
 * (0.4 % above), 11 on 4 × 4 × 4, 5 on 3 × 3 × 3, 2 on 2 × 2 (whose
 * machines have 4 links but only 2 distinct neighbours).
 * DECISIONS (docs/algorithms.md): whole blocks — the dimension-wise
 * bidirectional rings with blocks split in halves reach the fluid bound
 * (P−1)·msize/(Δ·B) exactly, but the IR's all-gather chunk is the whole
 * block; the translated tree reaches the whole-block bound ⌈(P−1)/Δ⌉
 * block times instead, less than one block time above the fluid one.
 * Rounds are phases of one block per link, so the simulator's
 * phase-by-phase program order is all the synchronisation needed.
 * Time O(Δ²·P²) at worst for the tree (augmenting paths over the
 * frontier, ranked by a sort each round; far less in practice: 16 × 16
 * plans in 0.04 s of CPU) and O(n·P²) for the schedule; memory
 * O(Δ·P) besides the schedule, which streams (ns_plan_streamed).
 * Errors: NS_ERROR_UNSUPPORTED when the topology is not a torus (a
 * wrapped grid: gen:torus:AxB[xC], gen:ring:P) or a machine has fewer
 * ports than the Δ directions (ports=one, ports=K with K < Δ).
 */

typedef struct {
  int p, n_gen, root; /* root: the machine at coordinates 0, offset 0 */
  int *nbr;          /* nbr[g * p + v]: v's neighbour in direction g */
  int *key;          /* key[v]: v's coordinate index, dimension 0 fastest */
  GArray *arc_g;     /* the arcs of T, round after round: direction, */
  GArray *arc_w;     /* and the offset (machine) they leave */
  GArray *round_end; /* index past each round's last arc */
} Tree;

typedef struct {
  Tree *tr;
  const char *reached;
  GArray **frontier; /* per direction: reached offsets whose neighbour may be unreached */
  GArray **candidates; /* per direction: this round's Candidate arcs, best first */
  int *claim;        /* offset -> direction claiming it this round + 1, 0 none */
  int *pick;         /* direction -> the offset its arc leaves, -1 none */
  int *seen;         /* offset -> the augmentation that last visited it */
  int stamp;
} Matching;

/* A candidate arc of direction g: the offset w it leaves, ranked by its
 * target w + g. */
typedef struct {
  int open; /* the target's unreached neighbours, negated: most first */
  int key;  /* then the target's coordinate index (dimension 0 fastest) */
  int w;
} Candidate;

static int compare_candidates(const void *a, const void *b)
{
  const Candidate *x = a, *y = b;
  if (x->open != y->open)
    return x->open < y->open ? -1 : 1;
  return (x->key > y->key) - (x->key < y->key);
}

/* Kuhn's augmenting path from direction g: an unreached offset for it,
 * moving another direction's claim to a further offset when needed. */
static gboolean augment(Matching *m, int g)
{
  Tree *tr = m->tr;
  GArray *c = m->candidates[g];
  for (guint i = 0; i < c->len; i++) {
    int w = g_array_index(c, Candidate, i).w, v = tr->nbr[g * tr->p + w];
    if (m->seen[v] == m->stamp)
      continue;
    m->seen[v] = m->stamp;
    if (m->claim[v] == 0 || augment(m, m->claim[v] - 1)) {
      m->claim[v] = g + 1;
      m->pick[g] = w;
      return TRUE;
    }
  }
  return FALSE;
}

/* Drops the frontier entries whose neighbour in direction g is reached,
 * and ranks the others as this round's candidates of g: targets with the
 * most unreached neighbours first (they keep the next rounds' frontier
 * wide), ties by coordinate index. The greedy without the ranking misses
 * ⌈(P−1)/Δ⌉ by a round on thin tori (3 × 4, 3 × 8, 5 × 17). */
static void rank_candidates(Matching *m, int g)
{
  const Tree *tr = m->tr;
  GArray *f = m->frontier[g], *c = m->candidates[g];
  guint kept = 0;
  g_array_set_size(c, 0);
  for (guint i = 0; i < f->len; i++) {
    int w = g_array_index(f, int, i), v = tr->nbr[g * tr->p + w];
    if (m->reached[v])
      continue;
    g_array_index(f, int, kept++) = w;
    Candidate x = { .key = tr->key[v], .w = w };
    for (int h = 0; h < tr->n_gen; h++)
      x.open -= !m->reached[tr->nbr[h * tr->p + v]];
    g_array_append_val(c, x);
  }
  g_array_set_size(f, kept);
  qsort(c->data, c->len, sizeof(Candidate), compare_candidates);
}

/* Step 1: the generic tree of machine 0, round by round. */
static void build_tree(Tree *tr)
{
  int p = tr->p, G = tr->n_gen;
  char *reached = g_new0(char, p);
  Matching m = { .tr = tr, .reached = reached, .frontier = g_new(GArray *, G),
                 .candidates = g_new(GArray *, G),
                 .claim = g_new0(int, p), .pick = g_new(int, G), .seen = g_new0(int, p) };
  for (int g = 0; g < G; g++) {
    m.frontier[g] = g_array_new(FALSE, FALSE, sizeof(int));
    m.candidates[g] = g_array_new(FALSE, FALSE, sizeof(Candidate));
    g_array_append_val(m.frontier[g], tr->root);
  }
  reached[tr->root] = 1;
  int n_reached = 1;
  int *fresh = g_new(int, G);
  while (n_reached < p) {
    for (int g = 0; g < G; g++) {
      rank_candidates(&m, g);
      m.pick[g] = -1;
    }
    for (int g = 0; g < G; g++) {
      m.stamp++;
      augment(&m, g);
    }
    int n_fresh = 0;
    for (int g = 0; g < G; g++) {
      if (m.pick[g] < 0)
        continue;
      int v = tr->nbr[g * p + m.pick[g]];
      m.claim[v] = 0;
      fresh[n_fresh++] = v;
      g_array_append_val(tr->arc_g, g);
      g_array_append_val(tr->arc_w, m.pick[g]);
    }
    /* The torus is connected and every reached offset next to an
     * unreached one is on some frontier, so a round reaches at least one. */
    g_assert(n_fresh > 0);
    for (int i = 0; i < n_fresh; i++)
      reached[fresh[i]] = 1;
    for (int i = 0; i < n_fresh; i++)
      for (int g = 0; g < G; g++)
        if (!reached[tr->nbr[g * p + fresh[i]]])
          g_array_append_val(m.frontier[g], fresh[i]);
    n_reached += n_fresh;
    guint end = tr->arc_g->len;
    g_array_append_val(tr->round_end, end);
  }
  for (int g = 0; g < G; g++) {
    g_array_unref(m.frontier[g]);
    g_array_unref(m.candidates[g]);
  }
  g_free(m.frontier);
  g_free(m.candidates);
  g_free(m.claim);
  g_free(m.pick);
  g_free(m.seen);
  g_free(fresh);
  g_free(reached);
}

NsSchedule *ns_allgather_torus(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  int sizes[NS_MAX_DIMS];
  int n_dims = ns_plan_torus_shape(topo, "torus", sizes, error);
  if (n_dims == 0)
    return NULL;
  int p = ns_topology_n_machines(topo);
  int *coords = g_new(int, (gsize)p * n_dims);
  for (int m = 0; m < p; m++)
    ns_topology_machine_coords(topo, m, coords + (gsize)m * n_dims);
  Tree tr = { .p = p, .arc_g = g_array_new(FALSE, FALSE, sizeof(int)),
              .arc_w = g_array_new(FALSE, FALSE, sizeof(int)),
              .round_end = g_array_new(FALSE, FALSE, sizeof(guint)) };
  int step[2 * NS_MAX_DIMS], dim[2 * NS_MAX_DIMS];
  for (int k = 0; k < n_dims; k++) {
    if (sizes[k] >= 2) {
      dim[tr.n_gen] = k;
      step[tr.n_gen++] = 1;
    }
    if (sizes[k] >= 3) {
      dim[tr.n_gen] = k;
      step[tr.n_gen++] = -1;
    }
  }
  tr.nbr = g_new(int, (gsize)tr.n_gen * p);
  tr.key = g_new(int, p);
  for (int m = 0; m < p; m++) {
    tr.key[m] = 0;
    for (int k = n_dims - 1; k >= 0; k--)
      tr.key[m] = tr.key[m] * sizes[k] + coords[(gsize)m * n_dims + k];
  }
  int c[NS_MAX_DIMS] = { 0 };
  tr.root = ns_topology_machine_at(topo, c);
  for (int g = 0; g < tr.n_gen; g++)
    for (int m = 0; m < p; m++) {
      memcpy(c, coords + (gsize)m * n_dims, sizeof(int) * (size_t)n_dims);
      c[dim[g]] = (c[dim[g]] + step[g] + sizes[dim[g]]) % sizes[dim[g]];
      tr.nbr[(gsize)g * p + m] = ns_topology_machine_at(topo, c);
    }
  build_tree(&tr);

  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLGATHER, "torus", params->msize);
  ns_schedule_reserve(s, tr.round_end->len, (uint64_t)p * (uint64_t)(p - 1));
  ns_plan_stream(s, params); /* each phase stands alone */
  guint first = 0;
  for (guint r = 0; r < tr.round_end->len; r++) {
    guint end = g_array_index(tr.round_end, guint, r);
    ns_schedule_begin_phase(s);
    for (int u = 0; u < p; u++)
      for (guint a = first; a < end; a++) {
        int g = g_array_index(tr.arc_g, int, a), w = g_array_index(tr.arc_w, int, a);
        /* origin u − w, coordinate by coordinate (w's coordinates are
         * its offset from the root) */
        for (int k = 0; k < n_dims; k++)
          c[k] = (coords[(gsize)u * n_dims + k] - coords[(gsize)w * n_dims + k] + sizes[k]) %
                 sizes[k];
        ns_schedule_add(s, u, tr.nbr[(gsize)g * p + u],
                        (uint32_t)ns_topology_machine_at(topo, c));
      }
    first = end;
  }
  g_free(tr.nbr);
  g_free(tr.key);
  g_array_unref(tr.arc_g);
  g_array_unref(tr.arc_w);
  g_array_unref(tr.round_end);
  g_free(coords);
  return s;
}
