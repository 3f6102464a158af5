/* netsched — spanning trees of graph topologies, through igraph. See
 * spanning.h. */
#include "platforms/routing/spanning.h"
#include "platforms/model/error.h"
#include <igraph.h>
#include <string.h>

static const char *const method_names[] = {
  [NS_SPAN_BFS] = "bfs", [NS_SPAN_DFS] = "dfs", [NS_SPAN_KRUSKAL] = "kruskal",
  [NS_SPAN_UNIFORM] = "uniform",
};

/**
 * \function ns_span_method_name
 * \brief A spanning-tree method's name ("bfs", "dfs", "kruskal", "uniform").
 *
 * \param m The method.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md (spanning trees); igraph's spanning trees.
 */
const char *ns_span_method_name(NsSpanMethod m) { return method_names[m]; }

/**
 * \function ns_span_method_parse
 * \brief A spanning-tree method from its name.
 *
 * \param name "bfs", "dfs", "kruskal" (or the dissertation's "random"), "uniform".
 * \param m Receives the method (untouched on failure).
 * \return FALSE for any other name.
 * \errors none.
 * \complexity O(length of name).
 * \source dissertation §3.3.3 (random trees); docs/topology-format.md (spanning trees).
 */
gboolean ns_span_method_parse(const char *name, NsSpanMethod *m)
{
  for (gsize i = 0; i < G_N_ELEMENTS(method_names); i++)
    if (strcmp(name, method_names[i]) == 0) {
      *m = (NsSpanMethod)i;
      return TRUE;
    }
  if (strcmp(name, "random") == 0) { /* the dissertation's name */
    *m = NS_SPAN_KRUSKAL;
    return TRUE;
  }
  return FALSE;
}


/**
 * \function ns_span_spec_clear
 * \brief Frees what a spanning-tree specification holds.
 *
 * \param spec The specification.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md (spanning trees); igraph's spanning trees.
 */
void ns_span_spec_clear(NsSpanSpec *spec)
{
  g_free(spec->root);
  spec->root = NULL;
}

/**
 * \function ns_span_spec_parse
 * \brief A spanning-tree specification, METHOD[:SEED][@ROOT].
 *
 * \param text "bfs", "dfs:SEED", "kruskal:7@s3", ...
 * \param spec Receives the method, seed (default 1) and root (newly allocated, or NULL).
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT listing the methods.
 * \complexity O(length of text).
 * \source docs/topology-format.md (spanning trees); igraph's spanning trees.
 */
gboolean ns_span_spec_parse(const char *text, NsSpanSpec *spec, GError **error)
{
  *spec = (NsSpanSpec){ .seed = 1 };
  g_autofree char *copy = g_strdup(text);
  char *at = strchr(copy, '@');
  if (at != NULL) {
    *at = '\0';
    if (at[1] == '\0') {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--spanning %s: empty root after '@'", text);
      return FALSE;
    }
  }
  char *colon = strchr(copy, ':');
  if (colon != NULL) {
    *colon = '\0';
    char *end = NULL;
    guint64 seed = g_ascii_strtoull(colon + 1, &end, 10);
    if (end == colon + 1 || *end != '\0') {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--spanning %s: the seed must be a number",
                      text);
      return FALSE;
    }
    spec->seed = seed;
  }
  gboolean known = ns_span_method_parse(copy, &spec->method);
  if (!known) {
    g_autofree char *shown = g_strescape(copy, NULL);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "--spanning: unknown method '%s' (bfs, dfs, kruskal or random, uniform; "
                    "METHOD[:SEED][@ROOT])", shown);
    return FALSE;
  }
  spec->root = at != NULL ? g_strdup(at + 1) : NULL;
  return TRUE;
}

/* ---- the one implementation, on an edge list ---------------------------- */

/* Edges incident to each vertex in edge order (a loop twice), as
 * platforms/model/topology.c lays out a topology's incidence. */
typedef struct {
  int *start; /* n + 1 */
  int *edge;  /* 2m */
} NsIncidence;

static void ns_i_incidence_init(NsIncidence *inc, int n, const int *ends, int m)
{
  inc->start = g_new0(int, n + 1);
  inc->edge = g_new(int, 2 * (gsize)m + 1);
  for (int i = 0; i < 2 * m; i++)
    inc->start[ends[i] + 1]++;
  for (int v = 0; v < n; v++)
    inc->start[v + 1] += inc->start[v];
  int *fill = g_memdup2(inc->start, sizeof(int) * (gsize)(n + 1));
  for (int i = 0; i < m; i++) {
    inc->edge[fill[ends[2 * i]]++] = i;
    inc->edge[fill[ends[2 * i + 1]]++] = i;
  }
  g_free(fill);
}

static void ns_i_incidence_clear(NsIncidence *inc)
{
  g_free(inc->start);
  g_free(inc->edge);
}

static int ns_i_other(const int *ends, int e, int v) { return ends[2 * e] == v ? ends[2 * e + 1] : ends[2 * e]; }

static gboolean ns_i_igraph(int n, const int *ends, int m, igraph_t *g)
{
  igraph_vector_int_t v;
  if (igraph_vector_int_init(&v, 2 * (igraph_integer_t)m) != IGRAPH_SUCCESS)
    return FALSE;
  for (int i = 0; i < 2 * m; i++)
    VECTOR(v)[i] = ends[i];
  gboolean ok = igraph_create(g, &v, n, IGRAPH_UNDIRECTED) == IGRAPH_SUCCESS;
  igraph_vector_int_destroy(&v);
  return ok;
}

/* bfs or dfs from `root`: the lowest-numbered edge to each parent. */
static gboolean ns_i_search_tree(int n, const int *ends, int m, const NsIncidence *inc,
                                 gboolean bfs, int root, gboolean *keep)
{
  igraph_t g;
  if (!ns_i_igraph(n, ends, m, &g))
    return FALSE;
  igraph_vector_int_t parents;
  igraph_vector_int_init(&parents, 0);
  gboolean ok = (bfs ? igraph_bfs(&g, root, NULL, IGRAPH_ALL, false, NULL, NULL, NULL, &parents,
                                  NULL, NULL, NULL, NULL, NULL)
                     : igraph_dfs(&g, root, IGRAPH_ALL, false, NULL, NULL, &parents, NULL, NULL,
                                  NULL, NULL)) == IGRAPH_SUCCESS;
  for (int v = 0; ok && v < n; v++) {
    int parent = v == root ? -1 : (int)VECTOR(parents)[v];
    for (int k = inc->start[v]; parent >= 0 && k < inc->start[v + 1]; k++)
      if (ns_i_other(ends, inc->edge[k], v) == parent) {
        keep[inc->edge[k]] = TRUE;
        break;
      }
  }
  igraph_vector_int_destroy(&parents);
  igraph_destroy(&g);
  return ok;
}

static int ns_i_find(int *up, int v)
{
  while (up[v] != v) {
    up[v] = up[up[v]];
    v = up[v];
  }
  return v;
}

/* Edges in random order, each kept unless it closes a cycle. The shuffle
 * is igraph_vector_int_shuffle's Fisher–Yates, drawn from `rng`. */
static void ns_i_kruskal_tree(int n, const int *ends, int m, igraph_rng_t *rng, gboolean *keep)
{
  int *order = g_new(int, MAX(m, 1)), *up = g_new(int, MAX(n, 1));
  for (int i = 0; i < m; i++)
    order[i] = i;
  for (int i = m - 1; i > 0; i--) {
    int j = (int)igraph_rng_get_integer(rng, 0, i), x = order[i];
    order[i] = order[j];
    order[j] = x;
  }
  for (int v = 0; v < n; v++)
    up[v] = v;
  for (int i = 0; i < m; i++) {
    int ra = ns_i_find(up, ends[2 * order[i]]), rb = ns_i_find(up, ends[2 * order[i] + 1]);
    if (ra != rb) {
      up[ra] = rb;
      keep[order[i]] = TRUE;
    }
  }
  g_free(order);
  g_free(up);
}

/* Wilson's algorithm (Wilson, "Generating random spanning trees more
 * quickly than the cover time", STOC 1996): loop-erased random walks from
 * each vertex in turn to the tree grown from `root`. The graph must be
 * connected. */
static void ns_i_wilson_tree(int n, const int *ends, const NsIncidence *inc, int root,
                             igraph_rng_t *rng, gboolean *keep)
{
  gboolean *in_tree = g_new0(gboolean, n);
  int *next = g_new(int, n), *via = g_new(int, n);
  in_tree[root] = TRUE;
  for (int v = 0; v < n; v++) {
    for (int u = v; !in_tree[u]; u = next[u]) { /* the walk; later visits overwrite loops */
      int k = inc->start[u] + (int)igraph_rng_get_integer(rng, 0, inc->start[u + 1] - inc->start[u] - 1);
      via[u] = inc->edge[k];
      next[u] = ns_i_other(ends, via[u], u);
    }
    for (int u = v; !in_tree[u]; u = next[u]) {
      in_tree[u] = TRUE;
      keep[via[u]] = TRUE;
    }
  }
  g_free(in_tree);
  g_free(next);
  g_free(via);
}

/* igraph's uniform tree (a random walk on igraph's default generator). */
static gboolean ns_i_igraph_walk_tree(int n, const int *ends, int m, int root, gboolean *keep)
{
  igraph_t g;
  if (!ns_i_igraph(n, ends, m, &g))
    return FALSE;
  igraph_vector_int_t edges;
  igraph_vector_int_init(&edges, 0);
  gboolean ok = igraph_random_spanning_tree(&g, &edges, root) == IGRAPH_SUCCESS;
  for (igraph_integer_t i = 0; ok && i < igraph_vector_int_size(&edges); i++)
    keep[VECTOR(edges)[i]] = TRUE;
  igraph_vector_int_destroy(&edges);
  igraph_destroy(&g);
  return ok;
}

/**
 * \function ns_spanning_tree_edges
 * \brief The edges of a spanning tree of an undirected edge list: netsched's one implementation.
 *
 * One entry point, the algorithm a parameter (igraph_minimum_spanning_tree() is the model):
 * bfs and dfs keep the edge to each vertex's parent in a breadth- or depth-first search from
 * `root` (igraph; the lowest-numbered edge of a parallel pair); kruskal keeps edges in a random
 * order (a Fisher–Yates shuffle drawn from `rng`) unless they close a cycle; uniform draws a
 * uniform spanning tree from `root` as `walk` says. Only the vertices reached from `root` (bfs,
 * dfs, igraph's walk) or the components (kruskal) are spanned on a disconnected graph; Wilson's
 * walk needs a connected graph.
 *
 * \param n The number of vertices.
 * \param ends Edge i joins ends[2i] and ends[2i+1] (2m entries).
 * \param m The number of edges.
 * \param method NS_SPAN_BFS, NS_SPAN_DFS, NS_SPAN_KRUSKAL or NS_SPAN_UNIFORM.
 * \param root The start vertex of bfs, dfs and uniform (unused by kruskal).
 * \param rng The random generator of kruskal and of NS_SPAN_WALK_WILSON; must be
 *        igraph_rng_default() for a uniform tree by NS_SPAN_WALK_IGRAPH (unused by bfs, dfs).
 * \param walk How a uniform tree is drawn (unused by the other methods).
 * \param keep The caller's array of m, zeroed: keep[i] is set for each edge of the tree.
 * \return The number of edges kept (n − 1 when the graph is connected), or -1 when igraph fails
 *        (or, with a g_return_val_if_fail() warning, for NS_SPAN_WALK_IGRAPH with another rng).
 * \errors -1; no GError.
 * \complexity O(n + m) (kruskal O(m α(n)); the uniform walks their cover time).
 * \source dissertation §3.3.3 (random trees); Wilson, STOC 1996 (NS_SPAN_WALK_WILSON);
 *        igraph's spanning trees; docs/security.md (one spanning-tree implementation).
 */
int ns_spanning_tree_edges(int n, const int *ends, int m, NsSpanMethod method, int root,
                           struct igraph_rng_t *rng, NsSpanWalk walk, gboolean *keep)
{
  g_return_val_if_fail(method != NS_SPAN_UNIFORM || walk != NS_SPAN_WALK_IGRAPH ||
                           rng == igraph_rng_default(), -1);
  NsIncidence inc;
  ns_i_incidence_init(&inc, n, ends, m);
  gboolean ok = TRUE;
  switch (method) {
  case NS_SPAN_BFS:
  case NS_SPAN_DFS:
    ok = ns_i_search_tree(n, ends, m, &inc, method == NS_SPAN_BFS, root, keep);
    break;
  case NS_SPAN_KRUSKAL:
    ns_i_kruskal_tree(n, ends, m, rng, keep);
    break;
  case NS_SPAN_UNIFORM:
    if (walk == NS_SPAN_WALK_WILSON)
      ns_i_wilson_tree(n, ends, &inc, root, rng, keep);
    else
      ok = ns_i_igraph_walk_tree(n, ends, m, root, keep);
    break;
  }
  ns_i_incidence_clear(&inc);
  int kept = 0;
  for (int i = 0; ok && i < m; i++)
    kept += keep[i] ? 1 : 0;
  return ok ? kept : -1;
}

/* ---- spanning trees of topologies ------------------------------------------ */

/* The root: the named node, else a switch (or, with none, a node) drawn
 * from the seed. */
static int pick_root(const NsTopology *t, const NsSpanSpec *spec, GError **error)
{
  if (spec->root != NULL) {
    int v = ns_topology_find_node(t, spec->root);
    if (v < 0)
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--spanning: no node '%s' in %s",
                      spec->root, ns_topology_source(t));
    return v;
  }
  int n = ns_topology_n_nodes(t), switches = ns_topology_n_switches(t);
  int pick = (int)RNG_INTEGER(0, (switches > 0 ? switches : n) - 1);
  for (int v = 0; v < n; v++)
    if ((switches == 0 || ns_topology_node(t, v)->kind == NS_NODE_SWITCH) && pick-- == 0)
      return v;
  return 0;
}

/**
 * \function ns_topology_spanning_tree
 * \brief A spanning tree of a graph topology, under tree routing.
 *
 * \param graph A finalized topology.
 * \param spec The method, seed and root.
 * \param error Set on failure (see errors).
 * \return The same nodes with the links of the tree (attributes and source lines kept),
 *        finalized; its source reads "SOURCE (bfs spanning tree, seed 3, root s4)". NULL on
 *        error.
 * \errors NS_ERROR_INPUT for an unknown root, or when the tree leaves a machine with several
 *        links (a direct network: machines would forward).
 * \complexity O(|V| + |E|) (kruskal O(|E| log |E|)).
 * \source the dissertation's random trees (kruskal); docs/topology-format.md (spanning trees);
 *        igraph's spanning trees.
 */
NsTopology *ns_topology_spanning_tree(const NsTopology *graph, const NsSpanSpec *spec,
                                      GError **error)
{
  igraph_rng_seed(igraph_rng_default(), (igraph_uint_t)spec->seed);
  int root = pick_root(graph, spec, error);
  if (root < 0)
    return NULL;
  int m = ns_topology_n_links(graph);
  int *ends = g_new(int, 2 * (gsize)m + 1);
  for (int i = 0; i < m; i++) {
    ends[2 * i] = ns_topology_link(graph, i)->a;
    ends[2 * i + 1] = ns_topology_link(graph, i)->b;
  }
  gboolean *keep = g_new0(gboolean, m + 1);
  int kept = ns_spanning_tree_edges(ns_topology_n_nodes(graph), ends, m, spec->method, root,
                                    igraph_rng_default(), NS_SPAN_WALK_IGRAPH, keep);
  g_free(ends);
  if (kept < 0) {
    g_free(keep);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "igraph failed to build the %s spanning tree",
                    ns_span_method_name(spec->method));
    return NULL;
  }
  g_autofree char *source = g_strdup_printf(
      "%s (%s spanning tree, seed %" G_GUINT64_FORMAT "%s%s)", ns_topology_source(graph),
      ns_span_method_name(spec->method), spec->seed,
      spec->method <= NS_SPAN_DFS ? ", root " : "",
      spec->method <= NS_SPAN_DFS ? ns_topology_node(graph, root)->name : "");
  NsTopology *t = ns_topology_new(source);
  if (ns_topology_title(graph) != NULL)
    ns_topology_set_title(t, ns_topology_title(graph));
  for (int v = 0; v < ns_topology_n_nodes(graph); v++) {
    const NsNode *nd = ns_topology_node(graph, v);
    int id = ns_topology_add_node(t, nd->name, nd->kind, nd->line, NULL);
    NsNode *copy = ns_topology_node_mut(t, id);
    copy->forwarding = nd->forwarding;
    copy->buffering = nd->buffering;
    copy->buffer_packets = nd->buffer_packets;
    copy->ports = nd->ports;
    copy->k_ports = nd->k_ports;
  }
  for (int i = 0; i < ns_topology_n_links(graph); i++)
    if (keep[i]) {
      const NsLink *l = ns_topology_link(graph, i);
      ns_topology_add_link(t, l->a, l->b, l->bandwidth, l->latency, l->line, NULL);
    }
  g_free(keep);
  ns_topology_set_routing(t, NS_ROUTING_TREE, 0);
  GError *why = NULL;
  if (!ns_topology_finalize(t, NULL, NULL, &why)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "the %s spanning tree of %s cannot carry tree routing (%s): spanning trees "
                    "are for switched networks whose machines are leaves",
                    ns_span_method_name(spec->method), ns_topology_source(graph), why->message);
    g_error_free(why);
    ns_topology_free(t);
    return NULL;
  }
  return t;
}
