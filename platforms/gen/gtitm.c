/* netsched — GT-ITM-style random switch graphs (Waxman, transit-stub) and
 * random-order Kruskal switch trees, on igraph primitives. See gtitm.h. */
#include "platforms/gen/gtitm.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "platforms/routing/spanning.h"
#include <igraph.h>
#include <math.h>
#include <string.h>

/* Draws before a rejection gives up. */
#define MAX_DRAWS 10000
/* Waxman's connect=reject redraws every pair: its draws are bounded by the
 * pairs they weigh too, so that a large graph that stays unconnected is
 * refused after about 2^24 pairs, not 10,000 draws of millions of pairs
 * (waxman:7,3085:beta=5.2:connect=reject ran for minutes under fuzz_gen). */
#define MAX_REJECT_PAIRS ((gsize)1 << 24)
/* Machines a generated topology may hold (the readers' node limit). */
#define MAX_MACHINES 1000000

/**
 * \function ns_waxman_params_init
 * \brief Default Waxman parameters: degree 4, α solved, β 0.2, patch.
 *
 * \param w The parameters to fill.
 * \errors none.
 * \complexity O(1).
 * \source Waxman 1988; Zegura, Calvert and Bhattacharjee 1996 (GT-ITM); Faraj dissertation
 *        §3.3.3.
 */
void ns_waxman_params_init(NsWaxmanParams *w)
{
  *w = (NsWaxmanParams){ .switches = 0, .degree = 4, .alpha = 0, .beta = 0.2,
                         .connect = NS_CONNECT_PATCH };
}

/**
 * \function ns_transit_stub_params_init
 * \brief Default transit-stub parameters.
 *
 * \param ts The parameters to fill.
 * \errors none.
 * \complexity O(1).
 * \source Zegura, Calvert and Bhattacharjee 1996; Calvert, Doar and Zegura 1997.
 */
void ns_transit_stub_params_init(NsTransitStubParams *ts)
{
  *ts = (NsTransitStubParams){ .transit_domains = 1, .transit_nodes = 4, .stubs = 3,
                               .stub_nodes = 8, .p_top = 1.0, .p_transit = 0.6,
                               .p_stub = 0.42 };
}

/**
 * \function ns_gtitm_options_init
 * \brief Default GT-ITM options: 5 machines per host switch, uniform; shapes.h's links; the
 *        graph itself.
 *
 * \param go The options to fill.
 * \errors none.
 * \complexity O(1).
 * \source Waxman 1988; Zegura, Calvert and Bhattacharjee 1996 (GT-ITM); Faraj dissertation
 *        §3.3.3.
 */
void ns_gtitm_options_init(NsGtitmOptions *go)
{
  *go = (NsGtitmOptions){ .attach = { .ratio = 5, .kind = NS_ATTACH_UNIFORM },
                          .tree = NS_GTITM_GRAPH };
  ns_shape_options_init(&go->shape);
}

/* NsGtitmTree is "the graph" followed by the spanning-tree methods in
 * NsSpanMethod's order; their names are spanning.c's. */
G_STATIC_ASSERT(NS_GTITM_UNIFORM - NS_GTITM_BFS == NS_SPAN_UNIFORM - NS_SPAN_BFS &&
                NS_GTITM_KRUSKAL - NS_GTITM_BFS == NS_SPAN_KRUSKAL &&
                NS_GTITM_DFS - NS_GTITM_BFS == NS_SPAN_DFS);

/**
 * \function ns_gtitm_tree_name
 * \brief The name of a spanning-tree choice ("none", "bfs", ...).
 *
 * \param tree The choice.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source Waxman 1988; Zegura, Calvert and Bhattacharjee 1996 (GT-ITM); Faraj dissertation
 *        §3.3.3.
 */
const char *ns_gtitm_tree_name(NsGtitmTree tree)
{
  return tree == NS_GTITM_GRAPH ? "none" : ns_span_method_name((NsSpanMethod)(tree - NS_GTITM_BFS));
}

/**
 * \function ns_gtitm_tree_from_name
 * \brief A spanning-tree choice from its name.
 *
 * \param name "none" (or "graph"), "bfs", "dfs", "kruskal" (or "random"), "uniform".
 * \param tree Receives the choice.
 * \return FALSE for an unknown name.
 * \errors none.
 * \complexity O(1).
 * \source Waxman 1988; Zegura, Calvert and Bhattacharjee 1996 (GT-ITM); Faraj dissertation
 *        §3.3.3.
 */
gboolean ns_gtitm_tree_from_name(const char *name, NsGtitmTree *tree)
{
  NsSpanMethod m;
  if (strcmp(name, "none") == 0 || strcmp(name, "graph") == 0) {
    *tree = NS_GTITM_GRAPH;
    return TRUE;
  }
  if (!ns_span_method_parse(name, &m))
    return FALSE;
  *tree = (NsGtitmTree)(NS_GTITM_BFS + m);
  return TRUE;
}

/* ---- igraph helpers ------------------------------------------------------ */

/* One PCG32 generator per call: reproducible on every platform, private to
 * the caller (igraph's default generator is shared process state). */
static void rng_open(igraph_rng_t *rng, uint64_t seed)
{
  igraph_rng_init(rng, &igraph_rngtype_pcg32);
  igraph_rng_seed(rng, (igraph_uint_t)seed);
}

static int draw_int(igraph_rng_t *rng, int lo, int hi)
{
  return (int)igraph_rng_get_integer(rng, lo, hi);
}

/* Connected components of the graph on n vertices whose edges are the
 * pairs of `links` (int pairs): membership[v] (caller's array of n) and
 * the number of components, or -1 when igraph fails. */
static int components(int n, const GArray *links, int *membership)
{
  igraph_vector_int_t ends, memb;
  igraph_t g;
  if (igraph_vector_int_init(&ends, (igraph_integer_t)links->len) != IGRAPH_SUCCESS)
    return -1;
  for (guint i = 0; i < links->len; i++)
    VECTOR(ends)[i] = g_array_index(links, int, i);
  igraph_integer_t count = -1;
  if (igraph_create(&g, &ends, n, IGRAPH_UNDIRECTED) == IGRAPH_SUCCESS) {
    igraph_vector_int_init(&memb, 0);
    if (igraph_connected_components(&g, &memb, NULL, &count, IGRAPH_WEAK) == IGRAPH_SUCCESS)
      for (int v = 0; v < n; v++)
        membership[v] = (int)VECTOR(memb)[v];
    else
      count = -1;
    igraph_vector_int_destroy(&memb);
    igraph_destroy(&g);
  }
  igraph_vector_int_destroy(&ends);
  return (int)count;
}

static void add_link(GArray *links, int a, int b)
{
  g_array_append_val(links, a);
  g_array_append_val(links, b);
}

/* ---- spanning trees of the switch graph ---------------------------------- */

static int find_root(int *up, int v)
{
  while (up[v] != v) {
    up[v] = up[up[v]];
    v = up[v];
  }
  return v;
}

static int compare_pairs(const void *a, const void *b)
{
  const int *x = a, *y = b;
  return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* The spanning tree `method` of the connected switch graph
 * (ns_spanning_tree_edges, after a root drawn first from the stream), its
 * links sorted by their ends. The published topologies write bfs, dfs and
 * uniform tree links lower switch first and kruskal ones as the graph drew
 * them; kept so. FALSE when igraph fails. */
static gboolean spanning_links(igraph_rng_t *rng, NsGtitmTree method, int n, const GArray *links,
                               GArray *tree)
{
  int root = draw_int(rng, 0, n - 1);
  if (method == NS_GTITM_GRAPH) {
    g_array_append_vals(tree, links->data, links->len);
    return TRUE;
  }
  int m = (int)links->len / 2;
  const int *ends = (const int *)(const void *)links->data;
  gboolean *keep = g_new0(gboolean, m + 1);
  NsSpanMethod span = (NsSpanMethod)(method - NS_GTITM_BFS);
  int kept = ns_spanning_tree_edges(n, ends, m, span, root, rng, NS_SPAN_WALK_WILSON, keep);
  for (int i = 0; i < m; i++)
    if (keep[i]) {
      int a = ends[2 * i], b = ends[2 * i + 1];
      add_link(tree, span == NS_SPAN_KRUSKAL ? a : MIN(a, b),
               span == NS_SPAN_KRUSKAL ? b : MAX(a, b));
    }
  g_free(keep);
  qsort(tree->data, tree->len / 2, 2 * sizeof(int), compare_pairs);
  return kept == n - 1;
}

/* ---- machines and the topology ---------------------------------------------- */

/* Places the machines on the host switches `hosts[0..n_hosts-1]`:
 * returns their switches (newly allocated) and their number in *p. */
static int *place_machines(igraph_rng_t *rng, const NsAttach *a, const int *hosts, int n_hosts,
                           const char *what, int *p, GError **error)
{
  gint64 total = 0;
  if (a->kind == NS_ATTACH_RANGE) {
    if (a->lo < 0 || a->hi < a->lo) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s: attach=%d-%d is not a range", what,
                      a->lo, a->hi);
      return NULL;
    }
    total = (gint64)n_hosts * a->hi; /* an upper bound, checked below */
  } else if (a->total > 0) {
    total = a->total;
  } else if (a->ratio > 0 && isfinite(a->ratio)) {
    /* Compared in floating point first: llround of a huge product is
     * undefined, and machines=1e23 once placed 0 machines. */
    double wanted = round(a->ratio * n_hosts);
    total = wanted > MAX_MACHINES ? (gint64)MAX_MACHINES + 1 : (gint64)wanted;
  } else {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s: machines=%g is not a positive ratio",
                    what, a->ratio);
    return NULL;
  }
  if (total > MAX_MACHINES) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s: more than %d machines",
                    what, MAX_MACHINES);
    return NULL;
  }

  int *sw = g_new(int, MAX(total, 1));
  int m = 0;
  switch (a->kind) {
  case NS_ATTACH_UNIFORM:
    for (; m < total; m++)
      sw[m] = hosts[draw_int(rng, 0, n_hosts - 1)];
    break;
  case NS_ATTACH_EVEN:
    for (; m < total; m++)
      sw[m] = hosts[m % n_hosts];
    break;
  case NS_ATTACH_RANGE:
    for (int h = 0; h < n_hosts; h++)
      for (int c = draw_int(rng, a->lo, a->hi); c > 0; c--)
        sw[m++] = hosts[h];
    break;
  }
  if (m < 2) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "%s: %d machine%s placed; at least 2 are needed", what, m,
                    m == 1 ? "" : "s");
    g_free(sw);
    return NULL;
  }
  *p = m;
  return sw;
}

/* "<prefix><index>" into buf (32 bytes): the node names, written without
 * printf, which took a tenth of a path-statistics sweep (issue #24). */
static const char *node_name(char *buf, char prefix, int index)
{
  char digits[16];
  int n = 0;
  do {
    digits[n++] = (char)('0' + index % 10);
    index /= 10;
  } while (index > 0);
  buf[0] = prefix;
  for (int i = 0; i < n; i++)
    buf[1 + i] = digits[n - 1 - i];
  buf[1 + n] = '\0';
  return buf;
}

/* The finalized topology: switches s0.., the switch links of `links`,
 * then machines n0.. each linked to its switch. */
static NsTopology *build(const char *source, int n_switches, const GArray *links,
                         const int *machine_switch, int p, const NsShapeOptions *o,
                         GError **error)
{
  NsTopology *t = ns_topology_new(source);
  char name[32];
  for (int s = 0; s < n_switches; s++) {
    ns_shape_apply_node(t, ns_topology_add_node(t, node_name(name, 's', s), NS_NODE_SWITCH, 0,
                                                NULL), o);
  }
  for (guint i = 0; i + 1 < links->len; i += 2)
    ns_topology_add_link(t, g_array_index(links, int, i), g_array_index(links, int, i + 1),
                         ns_shape_link_bandwidth(o, TRUE), o->latency, 0, NULL);
  for (int m = 0; m < p; m++) {
    int v = ns_topology_add_node(t, node_name(name, 'n', m), NS_NODE_MACHINE, 0, NULL);
    ns_shape_apply_node(t, v, o);
    ns_topology_add_link(t, v, machine_switch[m], ns_shape_link_bandwidth(o, FALSE), o->latency,
                         0, NULL);
  }
  /* Pruning machine-less leaf switches is expected and silent. */
  if (!ns_topology_finalize(t, NULL, NULL, error)) {
    ns_topology_free(t);
    return NULL;
  }
  return t;
}

/* The topology of the graph, or of its spanning tree go->tree (drawn
 * after everything else from the same stream). */
static NsTopology *build_as(igraph_rng_t *rng, const NsGtitmOptions *go, const char *source,
                            int n_switches, const GArray *links, const int *machine_switch, int p,
                            GError **error)
{
  GArray *tree = g_array_new(FALSE, FALSE, sizeof(int));
  NsTopology *t = NULL;
  if (!spanning_links(rng, go->tree, n_switches, links, tree))
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s: igraph failed on the %s spanning tree",
                    source, ns_gtitm_tree_name(go->tree));
  else
    t = build(source, n_switches, tree, machine_switch, p, &go->shape, error);
  g_array_unref(tree);
  return t;
}

/* ---- Waxman ------------------------------------------------------------------- */

typedef struct {
  int n;
  double *x, *y;
  double diameter;   /* L */
  /* exp(−d/(βL)) of every pair u < v in loop order, for β = term_beta: the
   * last W(β) computed, reused by the draws when β is final (the exp()
   * were half the generator's time); NULL above MAX_TERMS pairs. */
  double *term, term_beta;
} Points;

#define MAX_TERMS ((gsize)1 << 22) /* 32 MiB */

static double dist(const Points *pt, int u, int v)
{
  double dx = pt->x[u] - pt->x[v], dy = pt->y[u] - pt->y[v];
  return sqrt(dx * dx + dy * dy);
}

/* W(β) = Σ_{u<v} exp(−d/(βL)). */
static double weight_sum(Points *pt, double beta)
{
  double bl = beta * pt->diameter, w = 0;
  gsize k = 0;
  for (int u = 0; u < pt->n; u++)
    for (int v = u + 1; v < pt->n; v++) {
      double e = exp(-dist(pt, u, v) / bl);
      if (pt->term != NULL)
        pt->term[k++] = e;
      w += e;
    }
  pt->term_beta = beta;
  return w;
}

/* α (and β when α would exceed 1) for the target degree; FALSE when even
 * the complete graph is too sparse. */
static gboolean solve_alpha(Points *pt, const NsWaxmanParams *w, double *alpha,
                            double *beta)
{
  *beta = w->beta;
  if (w->alpha > 0) {
    *alpha = w->alpha;
    return TRUE;
  }
  double want = w->degree * pt->n / 2.0; /* expected links */
  double have = weight_sum(pt, *beta);
  if (want <= have) {
    *alpha = want / have;
    return TRUE;
  }
  /* α = 1: raise β until W(β) reaches `want` (W grows with β, towards
   * n(n−1)/2). */
  *alpha = 1;
  double lo = *beta, hi = *beta;
  for (int i = 0; i < 200 && weight_sum(pt, hi) < want; i++)
    hi *= 2;
  if (weight_sum(pt, hi) < want)
    return FALSE;
  for (int i = 0; i < 60; i++) {
    double mid = 0.5 * (lo + hi);
    if (weight_sum(pt, mid) < want)
      lo = mid;
    else
      hi = mid;
  }
  *beta = hi;
  return TRUE;
}

/* Joins every component but that of switch 0 to the connected part
 * through its closest pair of switches. Returns the links added. */
static int patch_components(const Points *pt, const int *membership, GArray *links)
{
  int n = pt->n, added = 0;
  gboolean *in_main = g_new0(gboolean, n), *done = g_new0(gboolean, n);
  for (int v = 0; v < n; v++)
    in_main[v] = membership[v] == membership[0];
  for (int v = 0; v < n; v++) {
    if (in_main[v] || done[v])
      continue;
    int c = membership[v], best_u = -1, best_w = -1;
    double best = G_MAXDOUBLE;
    for (int u = v; u < n; u++) {
      if (membership[u] != c)
        continue;
      for (int w = 0; w < n; w++)
        if (in_main[w]) {
          double d = dist(pt, u, w);
          if (d < best) {
            best = d;
            best_u = u;
            best_w = w;
          }
        }
    }
    for (int u = v; u < n; u++)
      if (membership[u] == c) {
        in_main[u] = TRUE;
        done[u] = TRUE;
      }
    add_link(links, MIN(best_u, best_w), MAX(best_u, best_w));
    added++;
  }
  g_free(in_main);
  g_free(done);
  return added;
}

/**
 * \function ns_gtitm_waxman
 * \brief A Waxman switch graph with machines, or its spanning tree.
 *
 * \param seed The seed of the generator's own random stream.
 * \param w Switches, degree, α, β, connect mode.
 * \param go Machines, link and node attributes, and the spanning tree to take (tree=).
 * \param source Names the topology (NULL: a description).
 * \param info Receives what the generator did (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology (shortest-path routing unless it is a tree), or NULL.
 * \errors NS_ERROR_INPUT for n < 2 or > NS_GTITM_MAX_SWITCHES, k outside (0, n−1], α outside (0,
 *        1], β <= 0, more than NS_GTITM_MAX_LINKS links, fewer than 2 machines, or a rejection
 *        that never connects.
 * \complexity O(n² + P) per draw (O(n² log) when β is solved); memory O(n + links + P).
 * \source Waxman 1988; Zegura, Calvert and Bhattacharjee 1996 (GT-ITM); Faraj dissertation
 *        §3.3.3.
 */
NsTopology *ns_gtitm_waxman(uint64_t seed, const NsWaxmanParams *w, const NsGtitmOptions *go,
                            const char *source, NsGtitmInfo *info, GError **error)
{
  int n = w->switches;
  if (n < 2 || n > NS_GTITM_MAX_SWITCHES) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "waxman: %d switches (2..%d)", n,
                    NS_GTITM_MAX_SWITCHES);
    return NULL;
  }
  if (w->alpha < 0 || w->alpha > 1 || !(w->beta > 0) || !isfinite(w->beta) ||
      (w->alpha == 0 && !(w->degree > 0 && w->degree <= n - 1))) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "waxman: need 0 < degree <= switches - 1 (got %g for %d switches), "
                    "0 < alpha <= 1 (got %g) and beta > 0 (got %g)",
                    w->degree, n, w->alpha, w->beta);
    return NULL;
  }
  if (w->alpha == 0 && w->degree * n / 2.0 > NS_GTITM_MAX_LINKS) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "waxman: %d switches of mean degree %g make about %.0f links, more than "
                    "%d: lower the degree or the switch count",
                    n, w->degree, w->degree * n / 2.0, NS_GTITM_MAX_LINKS);
    return NULL;
  }
  igraph_rng_t rng;
  rng_open(&rng, seed);
  gsize n_pairs = (gsize)n * (gsize)(n - 1) / 2;
  Points pt = { .n = n, .x = g_new(double, n), .y = g_new(double, n),
                .term = n_pairs <= MAX_TERMS ? g_new(double, n_pairs) : NULL };
  GArray *links = g_array_new(FALSE, FALSE, sizeof(int));
  int *membership = g_new(int, n), *machine_switch = NULL, *hosts = g_new(int, n);
  NsTopology *t = NULL;
  char *name = NULL;
  double alpha = 0, beta = 0;
  int draws = 0, patched = 0, count = 0, p = 0;
  int max_draws = (int)MIN((gsize)MAX_DRAWS, MAX(MAX_REJECT_PAIRS / MAX(n_pairs, 1), 1));
  do {
    if (++draws > max_draws) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "waxman: no connected graph of %d switches at degree %g in %d draws "
                      "(connect=reject); use connect=patch or a higher degree",
                      n, w->degree, max_draws);
      goto out;
    }
    g_array_set_size(links, 0);
    pt.diameter = 0;
    for (int v = 0; v < n; v++) {
      pt.x[v] = igraph_rng_get_unif01(&rng);
      pt.y[v] = igraph_rng_get_unif01(&rng);
    }
    for (int u = 0; u < n; u++)
      for (int v = u + 1; v < n; v++)
        pt.diameter = MAX(pt.diameter, dist(&pt, u, v));
    if (pt.diameter <= 0)
      pt.diameter = 1; /* every point equal: any L gives P = α */
    if (!solve_alpha(&pt, w, &alpha, &beta)) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "waxman: average degree %g is out of reach for %d switches", w->degree, n);
      goto out;
    }
    double bl = beta * pt.diameter;
    gboolean cached = pt.term != NULL && w->alpha == 0 && pt.term_beta == beta;
    gsize k = 0;
    for (int u = 0; u < n; u++)
      for (int v = u + 1; v < n; v++, k++)
        if (igraph_rng_get_unif01(&rng) <
            alpha * (cached ? pt.term[k] : exp(-dist(&pt, u, v) / bl)))
          add_link(links, u, v);
    if (links->len / 2 > NS_GTITM_MAX_LINKS) { /* α given: known once drawn */
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "waxman: %u links drawn at alpha %g, more than %d: lower alpha or the "
                      "switch count",
                      links->len / 2, alpha, NS_GTITM_MAX_LINKS);
      goto out;
    }
    count = components(n, links, membership);
    if (count < 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "waxman: igraph failed on the graph");
      goto out;
    }
  } while (count > 1 && w->connect == NS_CONNECT_REJECT);
  if (count > 1)
    patched = patch_components(&pt, membership, links);
  for (int v = 0; v < n; v++)
    hosts[v] = v;
  machine_switch = place_machines(&rng, &go->attach, hosts, n, "waxman", &p, error);
  if (machine_switch == NULL)
    goto out;
  name = source != NULL ? g_strdup(source)
                       : g_strdup_printf("waxman(seed=%" G_GUINT64_FORMAT ", switches=%d)", seed, n);
  t = build_as(&rng, go, name, n, links, machine_switch, p, error);
  if (t != NULL && info != NULL)
    *info = (NsGtitmInfo){ .switches = n, .switch_links = (int)links->len / 2,
                           .patch_links = patched, .draws = draws, .alpha = alpha,
                           .beta = beta };
out:
  igraph_rng_destroy(&rng);
  g_free(name);
  g_free(pt.x);
  g_free(pt.term);
  g_free(pt.y);
  g_array_unref(links);
  g_free(membership);
  g_free(hosts);
  g_free(machine_switch);
  return t;
}

/* ---- transit-stub --------------------------------------------------------------- */

/* G(n, p) on vertices first..first+n-1, redrawn until connected; its links
 * appended to `links`. FALSE after MAX_DRAWS draws. */
static gboolean connected_gnp(igraph_rng_t *rng, int first, int n, double p, GArray *links)
{
  GArray *local = g_array_new(FALSE, FALSE, sizeof(int));
  int *membership = g_new(int, n);
  gboolean ok = FALSE;
  for (int draw = 0; draw < MAX_DRAWS && !ok; draw++) {
    g_array_set_size(local, 0);
    for (int u = 0; u < n; u++)
      for (int v = u + 1; v < n; v++)
        if (igraph_rng_get_unif01(rng) < p)
          add_link(local, u, v);
    ok = n == 1 || components(n, local, membership) == 1;
  }
  for (guint i = 0; ok && i < local->len; i++)
    g_array_append_val(links, ((int){ g_array_index(local, int, i) + first }));
  g_array_unref(local);
  g_free(membership);
  return ok;
}

static gint64 pair_key(int a, int b) { return ((gint64)MIN(a, b) << 32) | (gint64)MAX(a, b); }

/**
 * \function ns_gtitm_transit_stub
 * \brief GT-ITM's transit-stub graph with machines, or its spanning tree.
 *
 * \param seed The seed of the generator's own random stream.
 * \param ts Domains, nodes, stubs, probabilities, extra links, where machines go.
 * \param go Machines, link and node attributes, and the spanning tree to take (tree=).
 * \param source Names the topology (NULL: a description).
 * \param info Receives what the generator did (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT for counts < 1 (K < 0), probabilities outside (0, 1], more than
 *        NS_GTITM_MAX_SWITCHES switches, a domain not connected after 10000 draws, extra links
 *        that cannot be placed, fewer than 2 machines.
 * \complexity O(Σ domain sizes² + extras + P).
 * \source Zegura, Calvert and Bhattacharjee 1996; Calvert, Doar and Zegura 1997.
 */
NsTopology *ns_gtitm_transit_stub(uint64_t seed, const NsTransitStubParams *ts,
                                  const NsGtitmOptions *go, const char *source,
                                  NsGtitmInfo *info, GError **error)
{
  int T = ts->transit_domains, NT = ts->transit_nodes, K = ts->stubs, NS = ts->stub_nodes;
  double ps[3] = { ts->p_top, ts->p_transit, ts->p_stub };
  gboolean probs_ok = TRUE;
  for (int i = 0; i < 3; i++)
    probs_ok = probs_ok && ps[i] > 0 && ps[i] <= 1;
  if (T < 1 || NT < 1 || K < 0 || NS < 1 || !probs_ok || ts->extra_transit_stub < 0 ||
      ts->extra_stub_stub < 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "transit-stub: need T, N_T, N_S >= 1, K >= 0, probabilities in (0, 1] and "
                    "extra links >= 0");
    return NULL;
  }
  gint64 n_transit = (gint64)T * NT, n_total = n_transit * (1 + (gint64)K * NS);
  if (n_total > NS_GTITM_MAX_SWITCHES) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "transit-stub: %" G_GINT64_FORMAT " switches (at most %d)", n_total,
                    NS_GTITM_MAX_SWITCHES);
    return NULL;
  }
  int n = (int)n_total, nt = (int)n_transit, n_stub = n - nt;
  if ((ts->extra_transit_stub > 0 || ts->extra_stub_stub > 0) && K == 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "transit-stub: extra transit-stub or stub-stub links need stub domains");
    return NULL;
  }
  igraph_rng_t rng;
  rng_open(&rng, seed);
  GArray *links = g_array_new(FALSE, FALSE, sizeof(int)), *top = g_array_new(FALSE, FALSE,
                                                                              sizeof(int));
  GHashTable *linked = g_hash_table_new(g_int64_hash, g_int64_equal);
  gint64 *keys = NULL;
  int *machine_switch = NULL, *hosts = NULL, n_hosts = 0, p = 0;
  NsTopology *t = NULL;
  char *name = NULL;
  const char *failed = NULL;
  /* 1. the top-level graph of the transit domains, 2. each transit domain */
  if (!connected_gnp(&rng, 0, T, ts->p_top, top))
    failed = "the top-level graph of the transit domains";
  for (int d = 0; failed == NULL && d < T; d++)
    if (!connected_gnp(&rng, d * NT, NT, ts->p_transit, links))
      failed = "a transit domain";
  /* 3. each top-level edge: random switches of the two domains */
  for (guint i = 0; failed == NULL && i + 1 < top->len; i += 2) {
    int d1 = g_array_index(top, int, i), d2 = g_array_index(top, int, i + 1);
    int u = d1 * NT + draw_int(&rng, 0, NT - 1), v = d2 * NT + draw_int(&rng, 0, NT - 1);
    add_link(links, u, v);
  }
  /* 4. stub domains, each hung from its transit switch */
  for (int tr = 0; failed == NULL && tr < nt; tr++)
    for (int k = 0; failed == NULL && k < K; k++) {
      int first = nt + (tr * K + k) * NS;
      if (!connected_gnp(&rng, first, NS, ts->p_stub, links))
        failed = "a stub domain";
      else
        add_link(links, first + draw_int(&rng, 0, NS - 1), tr);
    }
  if (failed != NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "transit-stub: %s was not connected in %d draws; raise its edge "
                    "probability", failed, MAX_DRAWS);
    goto out;
  }
  /* 5. extra links, never doubling one */
  keys = g_new(gint64, links->len / 2 + ts->extra_transit_stub + ts->extra_stub_stub + 1);
  guint n_keys = 0;
  for (guint i = 0; i + 1 < links->len; i += 2) {
    keys[n_keys] = pair_key(g_array_index(links, int, i), g_array_index(links, int, i + 1));
    g_hash_table_add(linked, &keys[n_keys++]);
  }
  for (int e = 0; e < ts->extra_transit_stub + ts->extra_stub_stub; e++) {
    gboolean stub_stub = e >= ts->extra_transit_stub, placed = FALSE;
    for (int attempt = 0; attempt < MAX_DRAWS && !placed; attempt++) {
      int s = nt + draw_int(&rng, 0, n_stub - 1), u;
      int s_domain = (s - nt) / NS;
      if (stub_stub) {
        u = nt + draw_int(&rng, 0, n_stub - 1);
        if ((u - nt) / NS == s_domain)
          continue;
      } else {
        u = draw_int(&rng, 0, nt - 1);
        if (u == s_domain / K) /* its own transit switch */
          continue;
      }
      keys[n_keys] = pair_key(s, u);
      if (g_hash_table_contains(linked, &keys[n_keys]))
        continue;
      g_hash_table_add(linked, &keys[n_keys++]);
      add_link(links, MIN(s, u), MAX(s, u));
      placed = TRUE;
    }
    if (!placed) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "transit-stub: cannot place extra %s link %d without doubling a link",
                      stub_stub ? "stub-stub" : "transit-stub", e + 1);
      goto out;
    }
  }
  /* 6. machines */
  n_hosts = ts->hosts_all || K == 0 ? n : n_stub;
  hosts = g_new(int, n_hosts);
  for (int h = 0; h < n_hosts; h++)
    hosts[h] = n_hosts == n ? h : nt + h;
  machine_switch = place_machines(&rng, &go->attach, hosts, n_hosts, "transit-stub", &p, error);
  if (machine_switch == NULL)
    goto out;
  name = source != NULL ? g_strdup(source)
                       : g_strdup_printf("transit-stub(seed=%" G_GUINT64_FORMAT ", %d switches)",
                                         seed, n);
  t = build_as(&rng, go, name, n, links, machine_switch, p, error);
  if (t != NULL && info != NULL)
    *info = (NsGtitmInfo){ .switches = n, .switch_links = (int)links->len / 2, .draws = 1 };
out:
  igraph_rng_destroy(&rng);
  g_free(name);
  g_array_unref(links);
  g_array_unref(top);
  g_hash_table_destroy(linked);
  g_free(keys);
  g_free(hosts);
  g_free(machine_switch);
  return t;
}

/* ---- random-order Kruskal trees ---------------------------------------------------- */

/**
 * \function ns_gtitm_kruskal_tree
 * \brief A random switch tree grown by random-order Kruskal, with machines.
 *
 * \param seed The seed of the generator's own random stream.
 * \param switches S, 1 .. NS_GTITM_MAX_SWITCHES.
 * \param go Machines, link and node attributes, and the spanning tree to take (tree=). Its tree
 *        choice is ignored: the graph is a tree.
 * \param source Names the topology (NULL: a description).
 * \param info Receives what the generator did (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology under tree routing, or NULL.
 * \errors NS_ERROR_INPUT for S out of range or fewer than 2 machines.
 * \complexity O(S log S) expected draws with union-find, plus O(P).
 * \source Faraj dissertation §3.4.2.2 (Figure 3.29) and §3.3.3 ("random tree").
 */
NsTopology *ns_gtitm_kruskal_tree(uint64_t seed, int switches, const NsGtitmOptions *go,
                                  const char *source, NsGtitmInfo *info, GError **error)
{
  if (switches < 1 || switches > NS_GTITM_MAX_SWITCHES) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "kruskal-tree: %d switches (1..%d)",
                    switches, NS_GTITM_MAX_SWITCHES);
    return NULL;
  }
  igraph_rng_t rng;
  rng_open(&rng, seed);
  GArray *links = g_array_new(FALSE, FALSE, sizeof(int));
  int *up = g_new(int, switches), *hosts = g_new(int, switches);
  for (int s = 0; s < switches; s++)
    up[s] = hosts[s] = s;
  /* Random pairs; a pair whose ends are already connected closes a loop. */
  for (int kept = 0; kept < switches - 1;) {
    int u = draw_int(&rng, 0, switches - 1), v = draw_int(&rng, 0, switches - 1);
    int ru = find_root(up, u), rv = find_root(up, v);
    if (ru == rv)
      continue;
    up[ru] = rv;
    add_link(links, MIN(u, v), MAX(u, v));
    kept++;
  }
  int p = 0;
  NsTopology *t = NULL;
  int *machine_switch =
      place_machines(&rng, &go->attach, hosts, switches, "kruskal-tree", &p, error);
  if (machine_switch != NULL) {
    g_autofree char *name =
        source != NULL ? g_strdup(source)
                       : g_strdup_printf("kruskal-tree(seed=%" G_GUINT64_FORMAT ", %d switches)",
                                         seed, switches);
    t = build(name, switches, links, machine_switch, p, &go->shape, error);
  }
  if (t != NULL && info != NULL)
    *info = (NsGtitmInfo){ .switches = switches, .switch_links = (int)links->len / 2,
                           .draws = 1 };
  igraph_rng_destroy(&rng);
  g_array_unref(links);
  g_free(up);
  g_free(hosts);
  g_free(machine_switch);
  return t;
}

/* ---- specifications ------------------------------------------------------------------ */

static const char *const shapes[] = { "waxman", "transit-stub", "kruskal-tree" };

/**
 * \function ns_gtitm_is_shape
 * \brief Whether a shape is a GT-ITM one (waxman, transit-stub, kruskal-tree).
 *
 * \param shape The shape name.
 * \return TRUE for those three.
 * \errors none.
 * \complexity O(1).
 * \source Waxman 1988; Zegura, Calvert and Bhattacharjee 1996 (GT-ITM); Faraj dissertation
 *        §3.3.3.
 */
gboolean ns_gtitm_is_shape(const char *shape)
{
  for (gsize i = 0; i < G_N_ELEMENTS(shapes); i++)
    if (g_strcmp0(shape, shapes[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean parse_double(const char *text, double *out)
{
  char *end = NULL;
  double v = g_ascii_strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(v))
    return FALSE;
  *out = v;
  return TRUE;
}

/* Everything a specification can set. */
typedef struct {
  NsGtitmOptions go;
  NsWaxmanParams w;
  NsTransitStubParams ts;
} Spec;

/* One KEY=VALUE option of shape `shape`; *why explains a bad value. */
static gboolean parse_option(const char *shape, const char *key, const char *value, Spec *s,
                             const char **why, gboolean *known)
{
  gint64 i = 0;
  double d = 0;
  *known = TRUE;
  gboolean waxman = strcmp(shape, "waxman") == 0, ts = strcmp(shape, "transit-stub") == 0;
  if (strcmp(key, "machines") == 0) {
    *why = "expected a positive number of machines per switch";
    return parse_double(value, &s->go.attach.ratio) && s->go.attach.ratio > 0;
  }
  if (strcmp(key, "total") == 0) {
    *why = "expected a number of machines from 2 to 1000000";
    if (!ns_shape_parse_int(value, 2, MAX_MACHINES, &i))
      return FALSE;
    s->go.attach.total = (int)i;
    return TRUE;
  }
  if (strcmp(key, "attach") == 0) {
    *why = "expected uniform, even or a range A-B";
    if (strcmp(value, "uniform") == 0 || strcmp(value, "even") == 0) {
      s->go.attach.kind = strcmp(value, "even") == 0 ? NS_ATTACH_EVEN : NS_ATTACH_UNIFORM;
      return TRUE;
    }
    const char *dash = strchr(value, '-');
    if (dash == NULL)
      return FALSE;
    g_autofree char *lo = g_strndup(value, (gsize)(dash - value));
    gint64 a = 0, b = 0;
    if (!ns_shape_parse_int(lo, 0, 100000, &a) || !ns_shape_parse_int(dash + 1, a, 100000, &b))
      return FALSE;
    s->go.attach.kind = NS_ATTACH_RANGE;
    s->go.attach.lo = (int)a;
    s->go.attach.hi = (int)b;
    return TRUE;
  }
  if (strcmp(key, "tree") == 0) {
    *why = "expected none, bfs, dfs, kruskal (random) or uniform";
    return ns_gtitm_tree_from_name(value, &s->go.tree);
  }
  gboolean set = ns_shape_option_set(&s->go.shape, key, value, known, why);
  if (*known)
    return set;
  *known = TRUE;
  if (waxman && (strcmp(key, "alpha") == 0 || strcmp(key, "beta") == 0)) {
    *why = strcmp(key, "alpha") == 0 ? "expected 0 < alpha <= 1" : "expected beta > 0";
    if (!parse_double(value, &d) || d <= 0 || (strcmp(key, "alpha") == 0 && d > 1))
      return FALSE;
    *(strcmp(key, "alpha") == 0 ? &s->w.alpha : &s->w.beta) = d;
    return TRUE;
  }
  if (waxman && strcmp(key, "connect") == 0) {
    *why = "expected patch or reject";
    s->w.connect = strcmp(value, "reject") == 0 ? NS_CONNECT_REJECT : NS_CONNECT_PATCH;
    return strcmp(value, "reject") == 0 || strcmp(value, "patch") == 0;
  }
  if (ts && (strcmp(key, "p_top") == 0 || strcmp(key, "p_transit") == 0 ||
             strcmp(key, "p_stub") == 0)) {
    *why = "expected a probability in (0, 1]";
    if (!parse_double(value, &d) || d <= 0 || d > 1)
      return FALSE;
    *(strcmp(key, "p_top") == 0 ? &s->ts.p_top
      : strcmp(key, "p_transit") == 0 ? &s->ts.p_transit : &s->ts.p_stub) = d;
    return TRUE;
  }
  if (ts && (strcmp(key, "extra_ts") == 0 || strcmp(key, "extra_ss") == 0)) {
    *why = "expected a number of links from 0 to 1000000";
    if (!ns_shape_parse_int(value, 0, 1000000, &i))
      return FALSE;
    *(strcmp(key, "extra_ts") == 0 ? &s->ts.extra_transit_stub : &s->ts.extra_stub_stub) =
        (int)i;
    return TRUE;
  }
  if (ts && strcmp(key, "hosts") == 0) {
    *why = "expected stub or all";
    s->ts.hosts_all = strcmp(value, "all") == 0;
    return strcmp(value, "all") == 0 || strcmp(value, "stub") == 0;
  }
  *known = FALSE;
  return FALSE;
}

/* The shape's own keys, then the table every generator shares. */
static char *option_list(const char *shape)
{
  const char *own = strcmp(shape, "waxman") == 0
                        ? "alpha, beta, connect, machines, total, attach, tree"
                    : strcmp(shape, "transit-stub") == 0
                        ? "p_top, p_transit, p_stub, extra_ts, extra_ss, hosts, machines, total, "
                          "attach, tree"
                        : "machines, total, attach";
  return g_strconcat(own, ", ", ns_shape_option_keys(), NULL);
}

static const char *usage(const char *shape)
{
  if (strcmp(shape, "waxman") == 0)
    return "waxman:SEED,SWITCHES[,DEGREE][:KEY=VALUE...]";
  if (strcmp(shape, "transit-stub") == 0)
    return "transit-stub:SEED[,T,N_T,K,N_S][:KEY=VALUE...]";
  return "kruskal-tree:SEED,SWITCHES[:KEY=VALUE...]";
}

/**
 * \function ns_gtitm_from_spec
 * \brief ns_gtitm_generate() without the generator's report.
 *
 * \param spec The specification (without "gen:").
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT "gen:SPEC: what is wrong".
 * \complexity that of the generator.
 * \source Waxman 1988; Zegura, Calvert and Bhattacharjee 1996 (GT-ITM); Faraj dissertation
 *        §3.3.3.
 */
NsTopology *ns_gtitm_from_spec(const char *spec, GError **error)
{
  return ns_gtitm_generate(spec, NULL, error);
}

/**
 * \function ns_gtitm_generate
 * \brief Builds a GT-ITM topology from its specification, telling what the generator did.
 *
 * \param spec waxman:SEED,SWITCHES[,DEGREE], transit-stub:SEED[,T,N_T,K,N_S] or
 *        kruskal-tree:SEED,SWITCHES, then :KEY=VALUE options (without "gen:").
 * \param info Receives what the generator did (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, named "gen:" + spec, or NULL.
 * \errors NS_ERROR_INPUT "gen:SPEC: what is wrong".
 * \complexity that of the generator.
 * \source Waxman 1988; Zegura, Calvert and Bhattacharjee 1996 (GT-ITM); Faraj dissertation
 *        §3.3.3; docs/sweeps.md, "Generators".
 */
NsTopology *ns_gtitm_generate(const char *spec, NsGtitmInfo *info, GError **error)
{
  if (!ns_shape_spec_check(spec, error))
    return NULL;
  g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
  const char *shape = parts[0];
  if (!ns_gtitm_is_shape(shape) || parts[1] == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "gen:%s: expected %s", spec,
                    usage(shape ? shape : ""));
    return NULL;
  }
  Spec s;
  ns_gtitm_options_init(&s.go);
  ns_waxman_params_init(&s.w);
  ns_transit_stub_params_init(&s.ts);
  for (int i = 2; parts[i] != NULL; i++) {
    char *eq = strchr(parts[i], '=');
    if (eq == NULL || eq == parts[i] || eq[1] == '\0') {
      g_autofree char *shown = g_strescape(parts[i], NULL);
      g_autofree char *keys = option_list(shape);
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "gen:%s: option '%s' is not KEY=VALUE (%s)", spec, shown, keys);
      return NULL;
    }
    *eq = '\0';
    const char *why = NULL;
    gboolean known = FALSE;
    if (!parse_option(shape, parts[i], eq + 1, &s, &why, &known)) {
      g_autofree char *key = g_strescape(parts[i], NULL);
      g_autofree char *value = g_strescape(eq + 1, NULL);
      g_autofree char *keys = option_list(shape);
      if (!known)
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "gen:%s: unknown option '%s' for %s (%s)", spec, key, shape, keys);
      else
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "gen:%s: %s '%s': %s", spec, key, value,
                        why);
      return NULL;
    }
  }
  g_auto(GStrv) args = g_strsplit(parts[1], ",", -1);
  guint n_args = g_strv_length(args);
  gint64 seed = 0, v[4] = { 0 };
  double degree = s.w.degree;
  gboolean ok = n_args >= 1 && ns_shape_parse_int(args[0], 0, G_MAXINT64, &seed);
  g_autofree char *source = g_strdup_printf("gen:%s", spec);
  if (strcmp(shape, "waxman") == 0) {
    ok = ok && (n_args == 2 || n_args == 3) && ns_shape_parse_int(args[1], 2, NS_GTITM_MAX_SWITCHES, &v[0]) &&
         (n_args == 2 || (parse_double(args[2], &degree) && degree > 0));
    if (ok) {
      s.w.switches = (int)v[0];
      s.w.degree = degree;
      return ns_gtitm_waxman((uint64_t)seed, &s.w, &s.go, source, info, error);
    }
  } else if (strcmp(shape, "transit-stub") == 0) {
    ok = ok && (n_args == 1 || n_args == 5);
    for (guint k = 1; ok && k < n_args; k++)
      ok = ns_shape_parse_int(args[k], k == 3 ? 0 : 1, NS_GTITM_MAX_SWITCHES, &v[k - 1]);
    if (ok) {
      if (n_args == 5) {
        s.ts.transit_domains = (int)v[0];
        s.ts.transit_nodes = (int)v[1];
        s.ts.stubs = (int)v[2];
        s.ts.stub_nodes = (int)v[3];
      }
      return ns_gtitm_transit_stub((uint64_t)seed, &s.ts, &s.go, source, info, error);
    }
  } else {
    ok = ok && n_args == 2 && ns_shape_parse_int(args[1], 1, NS_GTITM_MAX_SWITCHES, &v[0]);
    if (ok)
      return ns_gtitm_kruskal_tree((uint64_t)seed, (int)v[0], &s.go, source, info, error);
  }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "gen:%s: expected %s", spec, usage(shape));
  return NULL;
}
