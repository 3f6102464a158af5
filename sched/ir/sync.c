/* netsched — synchronisation schemes and the pair-wise synchronisation set
 * (dissertation §3.2.3). See sync.h. */
#include "sched/ir/sync.h"
#include "sched/ir/route.h"
#include "platforms/model/error.h"
#include <stdlib.h>
#include <string.h>

/* What follows a scheme's name after a colon. */
typedef enum { PARAM_NONE, PARAM_BLOCK, PARAM_WINDOW } SchemeParam;

typedef struct {
  const char *name;
  NsSyncKind kind;
  SchemeParam param;
} SchemeName;

static const SchemeName scheme_names[] = {
  { "none", NS_SYNC_NONE, PARAM_NONE },
  { "dummy", NS_SYNC_DUMMY, PARAM_NONE },
  { "sender-all", NS_SYNC_SENDER_ALL, PARAM_NONE },
  { "sender-partial", NS_SYNC_SENDER_PARTIAL, PARAM_BLOCK },
  { "receiver-all", NS_SYNC_RECEIVER_ALL, PARAM_NONE },
  { "receiver-partial", NS_SYNC_RECEIVER_PARTIAL, PARAM_BLOCK },
  { "barrier-all", NS_SYNC_BARRIER_ALL, PARAM_NONE },
  { "barrier-partial-none", NS_SYNC_BARRIER_PARTIAL_NONE, PARAM_BLOCK },
  { "barrier-partial-sender", NS_SYNC_BARRIER_PARTIAL_SENDER, PARAM_BLOCK },
  { "barrier-partial-receiver", NS_SYNC_BARRIER_PARTIAL_RECEIVER, PARAM_BLOCK },
  { "light", NS_SYNC_LIGHT, PARAM_NONE },
  { "window", NS_SYNC_WINDOW, PARAM_WINDOW },
};

/**
 * \function ns_sync_scheme_names
 * \brief The scheme names, comma-separated, for help texts.
 *
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
const char *ns_sync_scheme_names(void)
{
  return "none, dummy, sender-all, sender-partial:BS, receiver-all, receiver-partial:BS, "
         "barrier-all, barrier-partial-none:BS, barrier-partial-sender:BS, "
         "barrier-partial-receiver:BS, light, window:W";
}

/**
 * \function ns_sync_scheme_parse
 * \brief A synchronisation scheme from its text ("sender-partial:8").
 *
 * \param text The scheme's name and, where it takes one, its block size or window.
 * \param scheme Receives the scheme.
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT listing the schemes for an unknown name, or for a missing or
 *        non-positive block size or window.
 * \complexity O(length of text).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_sync_scheme_parse(const char *text, NsSyncScheme *scheme, GError **error)
{
  const char *colon = strchr(text, ':');
  gsize len = colon ? (gsize)(colon - text) : strlen(text);
  for (gsize i = 0; i < G_N_ELEMENTS(scheme_names); i++) {
    const SchemeName *n = &scheme_names[i];
    if (strlen(n->name) != len || strncmp(n->name, text, len) != 0)
      continue;
    scheme->kind = n->kind;
    scheme->block = 0;
    if (n->param == PARAM_NONE) {
      if (colon == NULL)
        return TRUE;
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "sync scheme '%s' takes no block size",
                      n->name);
      return FALSE;
    }
    char *end = NULL;
    long v = colon ? strtol(colon + 1, &end, 10) : 0;
    if (colon == NULL || end == colon + 1 || *end != '\0' || v < 1 || v > 1000000000) {
      if (n->param == PARAM_WINDOW)
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "sync scheme 'window' needs a window: window:W with W >= 1 items "
                        "in flight");
      else
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "sync scheme '%s' needs a block size: %s:BS with BS >= 1 phases",
                        n->name, n->name);
      return FALSE;
    }
    scheme->block = (int)v;
    return TRUE;
  }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "unknown sync scheme '%s' (known: %s)", text,
                  ns_sync_scheme_names());
  return FALSE;
}

/**
 * \function ns_sync_scheme_to_string
 * \brief A scheme as text ("sender-partial:8").
 *
 * \param scheme The scheme.
 * \return Newly allocated text.
 * \errors none.
 * \complexity O(1).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
char *ns_sync_scheme_to_string(const NsSyncScheme *scheme)
{
  for (gsize i = 0; i < G_N_ELEMENTS(scheme_names); i++)
    if (scheme_names[i].kind == scheme->kind)
      return scheme_names[i].param != PARAM_NONE
                 ? g_strdup_printf("%s:%d", scheme_names[i].name, scheme->block)
                 : g_strdup(scheme_names[i].name);
  return g_strdup("?");
}

/**
 * \function ns_sync_n_barrier_scheme
 * \brief The scheme of the "N MPI barriers" variants of the ring and pair families.
 *
 * \param p Number of machines.
 * \return "barrier-partial-none:BS" with BS such that ⌈log2 p⌉ barriers split the p − 1 phases
 *        evenly (newly allocated).
 * \errors none.
 * \complexity O(1).
 * \source dissertation §4.1.1.1.
 */
char *ns_sync_n_barrier_scheme(int p)
{
  int n = 1;
  while ((1 << n) < p)
    n++;
  return g_strdup_printf("barrier-partial-none:%d", MAX((p - 1) / (n + 1), 1));
}

/**
 * \function ns_sync_uses_pairwise
 * \brief Whether a scheme synchronises pairs (sender or receiver based).
 *
 * \param scheme The scheme.
 * \return TRUE for pair-wise schemes.
 * \errors none.
 * \complexity O(1).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_sync_uses_pairwise(const NsSyncScheme *s)
{
  switch (s->kind) {
  case NS_SYNC_SENDER_ALL:
  case NS_SYNC_SENDER_PARTIAL:
  case NS_SYNC_RECEIVER_ALL:
  case NS_SYNC_RECEIVER_PARTIAL:
  case NS_SYNC_BARRIER_PARTIAL_SENDER:
  case NS_SYNC_BARRIER_PARTIAL_RECEIVER:
    return TRUE;
  default:
    return FALSE;
  }
}

/**
 * \function ns_sync_is_receiver_based
 * \brief Whether a pair-wise scheme is receiver based.
 *
 * \param scheme The scheme.
 * \return TRUE for receiver-based schemes.
 * \errors none.
 * \complexity O(1).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_sync_is_receiver_based(const NsSyncScheme *s)
{
  return s->kind == NS_SYNC_RECEIVER_ALL || s->kind == NS_SYNC_RECEIVER_PARTIAL ||
         s->kind == NS_SYNC_BARRIER_PARTIAL_RECEIVER;
}

/**
 * \function ns_sync_barrier_before
 * \brief Whether a scheme puts a barrier before a phase.
 *
 * \param scheme The scheme.
 * \param phase The phase (> 0).
 * \return TRUE when a barrier precedes it.
 * \errors none.
 * \complexity O(1).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_sync_barrier_before(const NsSyncScheme *s, uint32_t phase)
{
  if (phase == 0)
    return FALSE;
  switch (s->kind) {
  case NS_SYNC_BARRIER_ALL:
    return TRUE;
  case NS_SYNC_BARRIER_PARTIAL_NONE:
  case NS_SYNC_BARRIER_PARTIAL_SENDER:
  case NS_SYNC_BARRIER_PARTIAL_RECEIVER:
    return phase % (uint32_t)s->block == 0;
  default:
    return FALSE;
  }
}

/* Pair-wise syncs separate blocks (partial), phases within blocks (barrier
 * partial: the barriers separate the blocks), or all phases. */
static gboolean across_blocks(const NsSyncScheme *s)
{
  return s->kind != NS_SYNC_BARRIER_PARTIAL_SENDER && s->kind != NS_SYNC_BARRIER_PARTIAL_RECEIVER;
}

static uint32_t block_size(const NsSyncScheme *s)
{
  return s->kind == NS_SYNC_SENDER_PARTIAL || s->kind == NS_SYNC_RECEIVER_PARTIAL ||
                 !across_blocks(s)
             ? (uint32_t)s->block
             : 1;
}

/**
 * \function ns_sync_pair_needed
 * \brief Whether pair-wise syncs must order two contending transfers of phases p < q.
 *
 * \param scheme The scheme.
 * \param p The earlier phase.
 * \param q The later phase.
 * \return TRUE when they must (all: always; partial: different blocks; barrier-partial-x: same
 *        block).
 * \errors none.
 * \complexity O(1).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_sync_pair_needed(const NsSyncScheme *s, uint32_t p, uint32_t q)
{
  if (!ns_sync_uses_pairwise(s) || p == q)
    return FALSE;
  uint32_t bs = block_size(s);
  return across_blocks(s) ? p / bs != q / bs : p / bs == q / bs;
}

/* ---- the pair-wise synchronisation set -------------------------------- */

typedef struct {
  uint32_t from, to;
} Pair;

static int compare_pairs(const void *a, const void *b)
{
  const Pair *x = a, *y = b;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  return (x->to > y->to) - (x->to < y->to);
}

/* Program order: each machine's transfers (sent or received) in phase order,
 * grouped by phase; for a transfer, the index in each end's list. */
typedef struct {
  const NsSchedule *s;
  uint32_t *phase;        /* phase of every transfer */
  uint32_t *mstart;       /* machine m's transfers: mlist[mstart[m] .. mstart[m+1]) */
  uint32_t *mlist;
  uint32_t *next_step;    /* for position i in mlist: first position of the next phase */
  uint32_t *pos_src, *pos_dst;
  /* candidate successors (CSR) */
  uint32_t *cstart, *cto;
  /* search state */
  uint32_t *stamp, query;
  uint32_t *stack;
  gboolean unbounded;     /* some sync edge does not point to a later phase: searches
                             cannot stop at the target's phase */
} Graph;

static void build_program_order(Graph *g)
{
  const NsSchedule *s = g->s;
  uint64_t n = ns_schedule_n_transfers(s);
  int p = s->n_machines;
  g->phase = g_new(uint32_t, n);
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    uint64_t first, count;
    ns_schedule_phase_range(s, ph, &first, &count);
    for (uint64_t t = first; t < first + count; t++)
      g->phase[t] = ph;
  }
  g->mstart = g_new0(uint32_t, p + 1);
  for (uint64_t t = 0; t < n; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    g->mstart[tr->src + 1]++;
    g->mstart[tr->dst + 1]++;
  }
  for (int m = 0; m < p; m++)
    g->mstart[m + 1] += g->mstart[m];
  g->mlist = g_new(uint32_t, 2 * n + 1);
  g->pos_src = g_new(uint32_t, n);
  g->pos_dst = g_new(uint32_t, n);
  uint32_t *fill = g_memdup2(g->mstart, sizeof(uint32_t) * (gsize)p);
  for (uint64_t t = 0; t < n; t++) { /* transfers are in phase order already */
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    g->pos_src[t] = fill[tr->src];
    g->mlist[fill[tr->src]++] = (uint32_t)t;
    g->pos_dst[t] = fill[tr->dst];
    g->mlist[fill[tr->dst]++] = (uint32_t)t;
  }
  g_free(fill);
  g->next_step = g_new(uint32_t, 2 * n + 1);
  for (int m = 0; m < p; m++) {
    uint32_t end = g->mstart[m + 1];
    for (uint32_t i = end; i-- > g->mstart[m];) {
      if (i + 1 == end)
        g->next_step[i] = end;
      else if (g->phase[g->mlist[i + 1]] != g->phase[g->mlist[i]])
        g->next_step[i] = i + 1;
      else
        g->next_step[i] = g->next_step[i + 1];
    }
  }
}

static gboolean share_machine(const NsSchedule *s, uint32_t u, uint32_t v)
{
  const NsTransfer *a = ns_schedule_transfer(s, u), *b = ns_schedule_transfer(s, v);
  return a->src == b->src || a->src == b->dst || a->dst == b->src || a->dst == b->dst;
}

/* Step 1: consecutive groups of users of every directed edge. */
static GArray *candidate_pairs(const NsTopology *topo, const Graph *g, const NsSyncScheme *sc,
                               const NsRouter *router)
{
  const NsSchedule *s = g->s;
  uint64_t n = ns_schedule_n_transfers(s);
  int n_edges = ns_topology_n_edges(topo);
  int *route = g_new(int, ns_router_max_len(router));
  uint64_t *estart = g_new0(uint64_t, (gsize)n_edges + 1);
  for (uint64_t t = 0; t < n; t++) {
    int len = ns_router_route(router, t, route);
    for (int k = 0; k < len; k++)
      estart[route[k] + 1]++;
  }
  for (int e = 0; e < n_edges; e++)
    estart[e + 1] += estart[e];
  uint32_t *users = g_new(uint32_t, estart[n_edges] + 1);
  uint64_t *fill = g_memdup2(estart, sizeof(uint64_t) * (gsize)n_edges);
  for (uint64_t t = 0; t < n; t++) {
    int len = ns_router_route(router, t, route);
    for (int k = 0; k < len; k++)
      users[fill[route[k]]++] = (uint32_t)t;
  }
  g_free(fill);
  g_free(route);

  GArray *pairs = g_array_new(FALSE, FALSE, sizeof(Pair));
  gboolean across = across_blocks(sc);
  uint32_t bs = block_size(sc);
  for (int e = 0; e < n_edges; e++) {
    /* Groups: users with the same key (block across blocks, phase within). */
    uint64_t a = estart[e], end = estart[e + 1];
    uint64_t prev_first = end, prev_end = end;
    while (a < end) {
      uint32_t key = across ? g->phase[users[a]] / bs : g->phase[users[a]];
      uint64_t b = a;
      while (b < end && (across ? g->phase[users[b]] / bs : g->phase[users[b]]) == key)
        b++;
      if (prev_first < end) {
        uint32_t p = g->phase[users[prev_first]], q = g->phase[users[a]];
        if (ns_sync_pair_needed(sc, p, q))
          for (uint64_t i = prev_first; i < prev_end; i++)
            for (uint64_t j = a; j < b; j++)
              g_array_append_val(pairs, ((Pair){ users[i], users[j] }));
      }
      prev_first = a;
      prev_end = b;
      a = b;
    }
  }
  g_free(users);
  g_free(estart);
  if (pairs->len > 1)
    qsort(pairs->data, pairs->len, sizeof(Pair), compare_pairs);
  /* Deduplicate (a pair contends on several edges of its path). */
  guint w = 0;
  for (guint i = 0; i < pairs->len; i++) {
    Pair *x = &g_array_index(pairs, Pair, i);
    if (w > 0 && compare_pairs(&g_array_index(pairs, Pair, w - 1), x) == 0)
      continue;
    g_array_index(pairs, Pair, w++) = *x;
  }
  g_array_set_size(pairs, w);
  return pairs;
}

/* Is v reachable from u other than by the direct candidate u->v? Visits
 * only transfers of phases < phase(v), at most `budget` of them. Returns
 * 1 reachable, 0 not, -1 undecided. */
static int reachable(Graph *g, uint32_t u, uint32_t v, uint32_t budget, gboolean allow_direct)
{
  const NsSchedule *s = g->s;
  /* Program order and forward sync edges only climb in phase, so nothing at
   * or after v's phase can lead to v — unless an edge goes back or sideways. */
  uint32_t limit = g->unbounded ? G_MAXUINT32 : g->phase[v];
  g->query++;
  int top = 0;
  g->stack[top++] = u;
  g->stamp[u] = g->query;
  uint32_t visited = 0;
  while (top > 0) {
    uint32_t x = g->stack[--top];
    if (++visited > budget)
      return -1;
    const NsTransfer *tr = ns_schedule_transfer(s, x);
    /* Successors: the next phase of either end (program order), then the
     * candidate edges out of x. */
    uint32_t ends[2] = { g->next_step[g->pos_src[x]], g->next_step[g->pos_dst[x]] };
    uint32_t limits[2] = { g->mstart[tr->src + 1], g->mstart[tr->dst + 1] };
    for (int k = 0; k < 2; k++) {
      uint32_t i = ends[k];
      if (i >= limits[k])
        continue;
      uint32_t step_phase = g->phase[g->mlist[i]];
      for (; i < limits[k] && g->phase[g->mlist[i]] == step_phase; i++) {
        uint32_t y = g->mlist[i];
        if (y == v)
          return 1;
        if (g->phase[y] < limit && g->stamp[y] != g->query) {
          g->stamp[y] = g->query;
          g->stack[top++] = y;
        }
      }
    }
    for (uint32_t c = g->cstart[x]; c < g->cstart[x + 1]; c++) {
      uint32_t y = g->cto[c];
      if (y == v) {
        if (x == u && !allow_direct)
          continue; /* the edge under test */
        return 1;
      }
      if (g->phase[y] < limit && g->stamp[y] != g->query) {
        g->stamp[y] = g->query;
        g->stack[top++] = y;
      }
    }
  }
  return 0;
}

#define REDUCTION_BUDGET 20000

static void graph_free(Graph *g)
{
  g_free(g->phase);
  g_free(g->mstart);
  g_free(g->mlist);
  g_free(g->next_step);
  g_free(g->pos_src);
  g_free(g->pos_dst);
  g_free(g->cstart);
  g_free(g->cto);
  g_free(g->stamp);
  g_free(g->stack);
}

/* CSR of the given (from, to) pairs, which must be sorted by `from`. */
static void graph_set_edges(Graph *g, const Pair *pairs, guint n_pairs)
{
  uint64_t n = ns_schedule_n_transfers(g->s);
  g->cstart = g_new0(uint32_t, n + 1);
  g->cto = g_new(uint32_t, n_pairs + 1);
  for (guint i = 0; i < n_pairs; i++) {
    g->cstart[pairs[i].from + 1]++;
    g->cto[i] = pairs[i].to;
  }
  for (uint64_t t = 0; t < n; t++)
    g->cstart[t + 1] += g->cstart[t];
  g->stamp = g_new0(uint32_t, n);
  g->stack = g_new(uint32_t, 2 * n + n_pairs + 1);
}

/* What both the check and the computation start from: program order in
 * `g` (g->s is the schedule) and the transfer pairs the scheme must order
 * (candidate_pairs); NULL, with `g` untouched, when the schedule's machines
 * or routes do not fit the topology. */
static GArray *program_order_and_pairs(const NsTopology *topo, const NsSchedule *s,
                                       const NsRouter *given, const NsSyncScheme *scheme,
                                       Graph *g, GError **error)
{
  NsRouter *own = NULL;
  if (!ns_router_fits(given, topo, s) && (given = own = ns_router_for(topo, s, error)) == NULL)
    return NULL;
  build_program_order(g);
  GArray *pairs = candidate_pairs(topo, g, scheme, given);
  ns_router_free(own);
  return pairs;
}

/**
 * \function ns_sync_check
 * \brief Checks that program order plus the sync edges order every pair the scheme separates.
 *
 * \param topo A finalized topology.
 * \param s The schedule.
 * \param scheme The scheme.
 * \param unordered Receives the number of required orderings that do not hold.
 * \param first_u Receives the first such pair's earlier transfer.
 * \param first_v Receives its later transfer.
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT when the schedule cannot be routed on the topology.
 * \complexity O(candidates × window) (unbounded search).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_sync_check(const NsTopology *topo, const NsSchedule *s, const NsSyncScheme *scheme,
                       uint64_t *unordered, uint32_t *first_u, uint32_t *first_v, GError **error)
{
  return ns_sync_check_routed(topo, s, NULL, scheme, unordered, first_u, first_v, error);
}

/**
 * \function ns_sync_check_routed
 * \brief ns_sync_check() with the schedule's route table already resolved.
 *
 * Checks that program order plus s->sync order every pair of contending transfers the scheme
 * separates. A scheme without pair-wise syncs, or a posted schedule, has nothing to check:
 * TRUE with *unordered = 0.
 *
 * \param topo A finalized topology.
 * \param s The schedule.
 * \param router The schedule's route table (ns_router_for()); NULL, or one that does not fit the
 *        schedule (ns_router_fits()): resolved again here.
 * \param scheme The scheme.
 * \param unordered Receives the number of required orderings that do not hold (counted between
 *        consecutive users of each directed edge).
 * \param first_u Receives the first such pair's earlier transfer (untouched when there is none).
 * \param first_v Receives its later transfer (likewise).
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT when the schedule cannot be routed on the topology (its machine map or
 *        its own routes: ns_router_for()).
 * \complexity O(candidates × window) (unbounded search), plus the routing when `router` does
 *        not fit.
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_sync_check_routed(const NsTopology *topo, const NsSchedule *s,
                              const NsRouter *router, const NsSyncScheme *scheme,
                              uint64_t *unordered, uint32_t *first_u, uint32_t *first_v,
                              GError **error)
{
  *unordered = 0;
  if (!ns_sync_uses_pairwise(scheme) || s->execution != NS_EXEC_PHASED)
    return TRUE;
  Graph g = { .s = s };
  GArray *required = program_order_and_pairs(topo, s, router, scheme, &g, error);
  if (required == NULL)
    return FALSE;
  GArray *edges = g_array_sized_new(FALSE, FALSE, sizeof(Pair), s->sync->len);
  for (guint i = 0; i < s->sync->len; i++) {
    const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
    g_array_append_val(edges, ((Pair){ e->from, e->to }));
    g.unbounded = g.unbounded || g.phase[e->to] <= g.phase[e->from];
  }
  if (edges->len > 1)
    qsort(edges->data, edges->len, sizeof(Pair), compare_pairs);
  graph_set_edges(&g, (const Pair *)edges->data, edges->len);
  for (guint i = 0; i < required->len; i++) {
    Pair x = g_array_index(required, Pair, i);
    if (share_machine(s, x.from, x.to) || reachable(&g, x.from, x.to, G_MAXUINT32, TRUE) == 1)
      continue;
    if ((*unordered)++ == 0) {
      *first_u = x.from;
      *first_v = x.to;
    }
  }
  g_array_unref(required);
  g_array_unref(edges);
  graph_free(&g);
  return TRUE;
}

/**
 * \function ns_schedule_compute_sync
 * \brief The pair-wise synchronisation set of a phased schedule.
 *
 * \param topo A finalized topology.
 * \param s The schedule; s->sync is replaced and s->sync_scheme set.
 * \param scheme The scheme.
 * \param stats Receives the candidates, implied, redundant, kept and undecided counts (may be
 *        NULL).
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT for a posted schedule.
 * \complexity O(Σ routes · log) for the candidates and program order, plus O(budget) per
 *        candidate whose phases are more than one apart (the transitive reduction keeps an edge
 *        when undecided).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_schedule_compute_sync(const NsTopology *topo, NsSchedule *s,
                                  const NsSyncScheme *scheme, NsSyncStats *stats,
                                  GError **error)
{
  return ns_schedule_compute_sync_routed(topo, s, NULL, scheme, stats, error);
}

/**
 * \function ns_schedule_compute_sync_routed
 * \brief ns_schedule_compute_sync() with the schedule's route table already resolved.
 *
 * The pair-wise synchronisation set of dissertation §3.2.3.2: candidates between consecutive
 * users of each directed edge, those implied by program order dropped, then a bounded
 * transitive reduction. s->sync is emptied and s->sync_scheme set first (also when it then
 * fails); a scheme without pair-wise syncs stops there.
 *
 * \param topo A finalized topology.
 * \param s The schedule; s->sync is replaced and s->sync_scheme set.
 * \param router The schedule's route table (ns_router_for()); NULL, or one that does not fit the
 *        schedule (ns_router_fits()): resolved again here.
 * \param scheme The scheme.
 * \param stats Receives the candidates, implied, redundant, kept and undecided counts (may be
 *        NULL).
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT "pair-wise synchronisation needs a phased schedule (C/A is posted)" for
 *        a posted schedule under a pair-wise scheme; NS_ERROR_INPUT from ns_router_for() when the
 *        schedule cannot be routed on the topology.
 * \complexity O(Σ routes · log) for the candidates and program order, plus O(budget) per
 *        candidate whose phases are more than one apart (the transitive reduction keeps an edge
 *        when undecided), plus the routing when `router` does not fit.
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_schedule_compute_sync_routed(const NsTopology *topo, NsSchedule *s,
                                         const NsRouter *router, const NsSyncScheme *scheme,
                                         NsSyncStats *stats, GError **error)
{
  NsSyncStats local = { 0 };
  if (stats == NULL)
    stats = &local;
  *stats = (NsSyncStats){ 0 };
  g_array_set_size(s->sync, 0);
  g_free(s->sync_scheme);
  s->sync_scheme = ns_sync_scheme_to_string(scheme);
  s->sync_set = TRUE;
  if (!ns_sync_uses_pairwise(scheme))
    return TRUE;
  if (s->execution != NS_EXEC_PHASED) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "pair-wise synchronisation needs a phased schedule (%s/%s is posted)",
                    ns_collective_name(s->collective), s->algorithm);
    return FALSE;
  }
  Graph g = { .s = s };
  GArray *pairs = program_order_and_pairs(topo, s, router, scheme, &g, error);
  if (pairs == NULL)
    return FALSE;
  stats->candidates = pairs->len;

  /* Step 2: drop what program order implies; build the candidate CSR. */
  guint w = 0;
  for (guint i = 0; i < pairs->len; i++) {
    Pair x = g_array_index(pairs, Pair, i);
    if (share_machine(s, x.from, x.to))
      stats->implied++;
    else
      g_array_index(pairs, Pair, w++) = x;
  }
  g_array_set_size(pairs, w);
  graph_set_edges(&g, (const Pair *)pairs->data, pairs->len);

  /* Step 3: transitive reduction. An edge between adjacent phases has no
   * intermediate transfer to go through, so only longer ones are searched.
   * Deciding every edge against the full graph is sound for a DAG: an edge
   * with an alternative path keeps its ordering after all such edges go. */
  for (guint i = 0; i < pairs->len; i++) {
    Pair x = g_array_index(pairs, Pair, i);
    int r = g.phase[x.to] - g.phase[x.from] > 1 ? reachable(&g, x.from, x.to, REDUCTION_BUDGET, FALSE)
                                                : 0;
    if (r == 1) {
      stats->redundant++;
      continue;
    }
    if (r < 0)
      stats->undecided++;
    ns_schedule_add_sync(s, x.from, x.to);
  }
  stats->kept = s->sync->len;

  g_array_unref(pairs);
  graph_free(&g);
  return TRUE;
}

/* ---- deadlock: cycles of program order and sync edges ------------------ */

/* Node ids of the wait graph: transfers are 0..n-1; the node "machine m
 * completed its step whose first position in m's list is i" is n + i. */
typedef struct {
  Graph g;
  uint64_t n;
  uint32_t *step_first;   /* per list position: first position of its step */
  uint32_t *pos_machine;  /* per list position: the machine */
} WaitGraph;

/* The k-th successor of `node`, or UINT64_MAX when there is none. */
static uint64_t wait_successor(const WaitGraph *w, uint64_t node, uint64_t k)
{
  const Graph *g = &w->g;
  if (node < w->n) { /* a transfer: both ends' step nodes, then its sync targets */
    if (k == 0)
      return w->n + w->step_first[g->pos_src[node]];
    if (k == 1)
      return w->n + w->step_first[g->pos_dst[node]];
    uint64_t c = g->cstart[node] + (k - 2);
    return c < g->cstart[node + 1] ? g->cto[c] : UINT64_MAX;
  }
  /* A step node: every transfer of the machine's next step. */
  uint32_t i = (uint32_t)(node - w->n);
  uint32_t m = w->pos_machine[i];
  uint64_t j = (uint64_t)g->next_step[i] + k;
  if (j >= g->mstart[m + 1] || g->phase[g->mlist[j]] != g->phase[g->mlist[g->next_step[i]]])
    return UINT64_MAX;
  return g->mlist[j];
}

/**
 * \function ns_sync_find_cycle
 * \brief Whether a schedule deadlocks: a cycle of program order and sync edges.
 *
 * \param s The schedule.
 * \param cycle Receives the transfer ids of the first cycle, in wait order (may be NULL).
 * \return TRUE when a cycle exists (FALSE for posted schedules, which have no sync edges).
 * \errors none.
 * \complexity O(transfers + sync edges) time and memory (one auxiliary node per machine step).
 * \source dissertation §3.2.3.2 (pair-wise synchronisation); docs/simulator.md.
 */
gboolean ns_sync_find_cycle(const NsSchedule *s, GArray *cycle)
{
  if (cycle != NULL)
    g_array_set_size(cycle, 0);
  if (s->execution != NS_EXEC_PHASED || s->sync == NULL || s->sync->len == 0)
    return FALSE;
  WaitGraph w = { .g = { .s = s }, .n = ns_schedule_n_transfers(s) };
  build_program_order(&w.g);
  /* Program order only goes forward in phases: a cycle needs a sync edge
   * that does not. */
  gboolean backward = FALSE;
  for (guint i = 0; i < s->sync->len && !backward; i++) {
    const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
    backward = e->from >= w.n || e->to >= w.n || w.g.phase[e->to] <= w.g.phase[e->from];
  }
  if (!backward) {
    graph_free(&w.g);
    return FALSE;
  }
  GArray *edges = g_array_sized_new(FALSE, FALSE, sizeof(Pair), s->sync->len);
  for (guint i = 0; i < s->sync->len; i++) {
    const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
    if (e->from < w.n && e->to < w.n) /* the reader rejects others */
      g_array_append_val(edges, ((Pair){ e->from, e->to }));
  }
  if (edges->len > 1)
    qsort(edges->data, edges->len, sizeof(Pair), compare_pairs);
  graph_set_edges(&w.g, (const Pair *)edges->data, edges->len);
  g_array_unref(edges);

  uint64_t n_pos = w.g.mstart[s->n_machines];
  w.step_first = g_new(uint32_t, n_pos + 1);
  w.pos_machine = g_new(uint32_t, n_pos + 1);
  for (int m = 0; m < s->n_machines; m++)
    for (uint32_t i = w.g.mstart[m]; i < w.g.mstart[m + 1]; i++) {
      w.pos_machine[i] = (uint32_t)m;
      gboolean first = i == w.g.mstart[m] ||
                       w.g.phase[w.g.mlist[i]] != w.g.phase[w.g.mlist[i - 1]];
      w.step_first[i] = first ? i : w.step_first[i - 1];
    }

  /* Iterative depth-first search: 0 white, 1 on the stack, 2 done. */
  uint64_t n_nodes = w.n + n_pos;
  uint8_t *colour = g_new0(uint8_t, n_nodes);
  uint64_t *stack_node = g_new(uint64_t, n_nodes), *stack_next = g_new(uint64_t, n_nodes);
  gboolean found = FALSE;
  for (uint64_t root = 0; root < w.n && !found; root++) {
    if (colour[root] != 0)
      continue;
    uint64_t top = 0;
    stack_node[top] = root;
    stack_next[top++] = 0;
    colour[root] = 1;
    while (top > 0 && !found) {
      uint64_t x = stack_node[top - 1];
      uint64_t y = wait_successor(&w, x, stack_next[top - 1]++);
      if (y == UINT64_MAX) {
        colour[x] = 2;
        top--;
      } else if (colour[y] == 0) {
        colour[y] = 1;
        stack_node[top] = y;
        stack_next[top++] = 0;
      } else if (colour[y] == 1) { /* back edge: the cycle is y .. x on the stack */
        found = TRUE;
        uint64_t k = top;
        while (stack_node[k - 1] != y)
          k--;
        for (; cycle != NULL && k - 1 < top; k++)
          if (stack_node[k - 1] < w.n) {
            uint32_t t = (uint32_t)stack_node[k - 1];
            g_array_append_val(cycle, t);
          }
      }
    }
  }
  g_free(colour);
  g_free(stack_node);
  g_free(stack_next);
  g_free(w.step_first);
  g_free(w.pos_machine);
  graph_free(&w.g);
  return found;
}
