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
  gboolean known = FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS(method_names) && !known; i++)
    if (strcmp(copy, method_names[i]) == 0) {
      spec->method = (NsSpanMethod)i;
      known = TRUE;
    }
  if (!known && strcmp(copy, "random") == 0) { /* the dissertation's name */
    spec->method = NS_SPAN_KRUSKAL;
    known = TRUE;
  }
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

/* The graph as igraph sees it: vertices = nodes, edges = links in order. */
static gboolean to_igraph(const NsTopology *t, igraph_t *g)
{
  int m = ns_topology_n_links(t);
  igraph_vector_int_t ends;
  if (igraph_vector_int_init(&ends, 2 * (igraph_integer_t)m) != IGRAPH_SUCCESS)
    return FALSE;
  for (int i = 0; i < m; i++) {
    VECTOR(ends)[2 * i] = ns_topology_link(t, i)->a;
    VECTOR(ends)[2 * i + 1] = ns_topology_link(t, i)->b;
  }
  gboolean ok = igraph_create(g, &ends, ns_topology_n_nodes(t), IGRAPH_UNDIRECTED) ==
                IGRAPH_SUCCESS;
  igraph_vector_int_destroy(&ends);
  return ok;
}

/* The lowest-id link between a node and its tree parent. */
static int parent_link(const NsTopology *t, int v, int parent)
{
  const int *inc = ns_topology_incident(t, v);
  for (int k = 0; k < ns_topology_degree(t, v); k++)
    if (ns_topology_link_other(t, inc[k], v) == parent)
      return inc[k];
  return -1;
}

/* bfs or dfs from `root`: keep[link] for every parent link. */
static gboolean search_tree(const NsTopology *t, igraph_t *g, NsSpanMethod m, int root,
                            gboolean *keep)
{
  igraph_vector_int_t parents;
  igraph_vector_int_init(&parents, 0);
  igraph_error_t rc =
      m == NS_SPAN_BFS
          ? igraph_bfs(g, root, NULL, IGRAPH_ALL, false, NULL, NULL, NULL, &parents, NULL, NULL,
                       NULL, NULL, NULL)
          : igraph_dfs(g, root, IGRAPH_ALL, false, NULL, NULL, &parents, NULL, NULL, NULL, NULL);
  for (int v = 0; rc == IGRAPH_SUCCESS && v < ns_topology_n_nodes(t); v++)
    if (VECTOR(parents)[v] >= 0)
      keep[parent_link(t, v, (int)VECTOR(parents)[v])] = TRUE;
  igraph_vector_int_destroy(&parents);
  return rc == IGRAPH_SUCCESS;
}

/* Links in random order, each kept unless it closes a cycle. */
static int find(int *up, int v)
{
  while (up[v] != v) {
    up[v] = up[up[v]];
    v = up[v];
  }
  return v;
}

static gboolean kruskal_tree(const NsTopology *t, gboolean *keep)
{
  int n = ns_topology_n_nodes(t), m = ns_topology_n_links(t);
  igraph_vector_int_t order;
  if (igraph_vector_int_init_range(&order, 0, m) != IGRAPH_SUCCESS)
    return FALSE;
  igraph_vector_int_shuffle(&order);
  int *up = g_new(int, n);
  for (int v = 0; v < n; v++)
    up[v] = v;
  for (int i = 0; i < m; i++) {
    int li = (int)VECTOR(order)[i];
    const NsLink *l = ns_topology_link(t, li);
    int a = find(up, l->a), b = find(up, l->b);
    if (a != b) {
      up[a] = b;
      keep[li] = TRUE;
    }
  }
  g_free(up);
  igraph_vector_int_destroy(&order);
  return TRUE;
}

static gboolean uniform_tree(const NsTopology *t, igraph_t *g, int root, gboolean *keep)
{
  igraph_vector_int_t edges;
  igraph_vector_int_init(&edges, 0);
  gboolean ok = igraph_random_spanning_tree(g, &edges, root) == IGRAPH_SUCCESS;
  for (igraph_integer_t i = 0; ok && i < igraph_vector_int_size(&edges); i++)
    keep[VECTOR(edges)[i]] = TRUE;
  igraph_vector_int_destroy(&edges);
  return ok;
}

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
  igraph_t g;
  if (!to_igraph(graph, &g)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "igraph could not build the graph");
    return NULL;
  }
  gboolean *keep = g_new0(gboolean, ns_topology_n_links(graph) + 1);
  gboolean ok = spec->method == NS_SPAN_KRUSKAL   ? kruskal_tree(graph, keep)
                : spec->method == NS_SPAN_UNIFORM ? uniform_tree(graph, &g, root, keep)
                                                  : search_tree(graph, &g, spec->method, root, keep);
  igraph_destroy(&g);
  if (!ok) {
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
