/* netsched — built-in shapes and random trees (igraph). See shapes.h. */
#include "platforms/shapes.h"
#include "platforms/error.h"
#include "platforms/units.h"
#include <igraph.h>
#include <stdlib.h>
#include <string.h>

/* Builds a finalized topology from a switch tree given as parent pointers
 * (parent[0] = -1, parent[i] < i is not required) and per-switch machine
 * counts. Machines are numbered in depth-first order of their switches. */
static NsTopology *from_switch_tree(const char *source, int switches, const int *parent,
                                    const int *machines, double bw, double lat,
                                    GError **error)
{
  NsTopology *t = ns_topology_new(source);
  for (int s = 0; s < switches; s++) {
    char name[32];
    g_snprintf(name, sizeof name, "s%d", s);
    ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL);
  }
  /* Children lists, then an iterative preorder walk from switch 0. */
  int *first = g_new(int, switches), *next = g_new(int, switches);
  for (int s = 0; s < switches; s++)
    first[s] = next[s] = -1;
  for (int s = switches - 1; s >= 1; s--) {
    next[s] = first[parent[s]];
    first[parent[s]] = s;
    ns_topology_add_link(t, s, parent[s], bw, lat, 0, NULL);
  }
  int *stack = g_new(int, switches);
  int top = 0, machine = 0;
  stack[top++] = 0;
  while (top > 0) {
    int s = stack[--top];
    for (int k = 0; k < machines[s]; k++) {
      char name[32];
      g_snprintf(name, sizeof name, "n%d", machine++);
      int v = ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, NULL);
      ns_topology_add_link(t, v, s, bw, lat, 0, NULL);
    }
    /* Push children reversed so the first child is visited first. */
    int n_children = 0;
    for (int c = first[s]; c >= 0; c = next[c])
      n_children++;
    top += n_children;
    int k = top;
    for (int c = first[s]; c >= 0; c = next[c])
      stack[--k] = c;
  }
  g_free(first);
  g_free(next);
  g_free(stack);
  /* Generated trees are well-formed; pruning of machine-less leaf switches
   * is expected and silent. */
  if (!ns_topology_finalize(t, NULL, NULL, error)) {
    ns_topology_free(t);
    return NULL;
  }
  return t;
}

NsTopology *ns_shape_star(int machines, double bw, double lat)
{
  int parent[1] = { -1 };
  g_autofree char *src = g_strdup_printf("gen:star:%d", machines);
  return from_switch_tree(src, 1, parent, &machines, bw, lat, NULL);
}

NsTopology *ns_shape_chain(int switches, int per_switch, double bw, double lat)
{
  int *parent = g_new(int, switches), *machines = g_new(int, switches);
  for (int s = 0; s < switches; s++) {
    parent[s] = s - 1;
    machines[s] = per_switch;
  }
  g_autofree char *src = g_strdup_printf("gen:chain:%d,%d", switches, per_switch);
  NsTopology *t = from_switch_tree(src, switches, parent, machines, bw, lat, NULL);
  g_free(parent);
  g_free(machines);
  return t;
}

NsTopology *ns_shape_switch_star(int switches, int per_switch, double bw, double lat)
{
  int *parent = g_new(int, switches), *machines = g_new(int, switches);
  for (int s = 0; s < switches; s++) {
    parent[s] = s == 0 ? -1 : 0;
    machines[s] = per_switch;
  }
  g_autofree char *src = g_strdup_printf("gen:switch-star:%d,%d", switches, per_switch);
  NsTopology *t = from_switch_tree(src, switches, parent, machines, bw, lat, NULL);
  g_free(parent);
  g_free(machines);
  return t;
}

NsTopology *ns_shape_tree(const int *fanout, int levels, double bw, double lat, GError **error)
{
  if (levels < 1) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "tree: at least one level is needed");
    return NULL;
  }
  int64_t switches = 0, width = 1;
  for (int l = 0; l < levels; l++) {
    if (fanout[l] < 1) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "tree: fan-out %d at level %d",
                      fanout[l], l + 1);
      return NULL;
    }
    switches += width;
    width *= fanout[l];
    if (switches + width > 1000000) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "tree: more than 1,000,000 nodes requested");
      return NULL;
    }
  }
  /* Switch levels: level l has Π_{i<l} fanout[i] switches, breadth-first ids. */
  int *parent = g_new(int, switches), *machines = g_new0(int, switches);
  parent[0] = -1;
  int64_t level_start = 0, level_width = 1, id = 1;
  for (int l = 0; l + 1 < levels; l++) {
    for (int64_t s = 0; s < level_width; s++)
      for (int c = 0; c < fanout[l]; c++)
        parent[id++] = (int)(level_start + s);
    level_start += level_width;
    level_width *= fanout[l];
  }
  for (int64_t s = level_start; s < switches; s++)
    machines[s] = fanout[levels - 1];
  GString *src = g_string_new("gen:tree:");
  for (int l = 0; l < levels; l++)
    g_string_append_printf(src, "%s%d", l ? "," : "", fanout[l]);
  NsTopology *t = from_switch_tree(src->str, (int)switches, parent, machines, bw, lat, error);
  g_string_free(src, TRUE);
  g_free(parent);
  g_free(machines);
  return t;
}

static const char *const random_kind_names[] = {
  [NS_RANDOM_UNIFORM] = "uniform", [NS_RANDOM_STAR] = "star", [NS_RANDOM_CHAIN] = "chain",
  [NS_RANDOM_DEEP] = "deep",       [NS_RANDOM_UNBALANCED] = "unbalanced",
};

const char *ns_random_kind_name(NsRandomKind kind) { return random_kind_names[kind]; }

/* Parent pointers of a uniformly random labelled tree on n switches:
 * igraph_tree_game (Prüfer sequences), re-rooted at switch 0 by BFS. */
static gboolean uniform_switch_tree(int n, int *parent, GError **error)
{
  igraph_t g;
  if (igraph_tree_game(&g, n, false, IGRAPH_RANDOM_TREE_PRUFER) != IGRAPH_SUCCESS) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "igraph_tree_game failed");
    return FALSE;
  }
  igraph_vector_int_t order, father;
  igraph_vector_int_init(&order, 0);
  igraph_vector_int_init(&father, 0);
  igraph_bfs_simple(&g, 0, IGRAPH_ALL, &order, NULL, &father);
  for (int v = 0; v < n; v++)
    parent[v] = (int)VECTOR(father)[v];
  parent[0] = -1;
  igraph_vector_int_destroy(&order);
  igraph_vector_int_destroy(&father);
  igraph_destroy(&g);
  return TRUE;
}

NsTopology *ns_shape_random(uint64_t seed, int machines, int switches, NsRandomKind kind,
                            double bw, double lat, GError **error)
{
  if (machines < 2 || switches < 1 || machines > 1000000 || switches > 1000000) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "random tree: need 2..1000000 machines and 1..1000000 switches "
                    "(got %d machines, %d switches)",
                    machines, switches);
    return NULL;
  }
  igraph_rng_seed(igraph_rng_default(), (igraph_uint_t)seed);
  int *parent = g_new(int, switches), *count = g_new0(int, switches);
  gboolean ok = TRUE;
  switch (kind) {
  case NS_RANDOM_UNIFORM:
  case NS_RANDOM_UNBALANCED:
    ok = uniform_switch_tree(switches, parent, error);
    break;
  case NS_RANDOM_STAR:
    for (int s = 0; s < switches; s++)
      parent[s] = s == 0 ? -1 : 0;
    break;
  case NS_RANDOM_CHAIN:
    for (int s = 0; s < switches; s++)
      parent[s] = s - 1;
    break;
  case NS_RANDOM_DEEP:
    parent[0] = -1;
    for (int s = 1; s < switches; s++)
      parent[s] = s == 1 ? 0 : (int)RNG_INTEGER(s - 2, s - 1);
    break;
  }
  if (ok) {
    int m = 0;
    if (kind == NS_RANDOM_UNBALANCED) {
      int heavy = (int)RNG_INTEGER(0, switches - 1);
      for (; m < machines / 2; m++)
        count[heavy]++;
    }
    for (; m < machines; m++)
      count[RNG_INTEGER(0, switches - 1)]++;
  }
  NsTopology *t = NULL;
  if (ok) {
    g_autofree char *src = g_strdup_printf("gen:random:%" G_GUINT64_FORMAT ",%d,%d,%s", seed,
                                           machines, switches, random_kind_names[kind]);
    t = from_switch_tree(src, switches, parent, count, bw, lat, error);
  }
  g_free(parent);
  g_free(count);
  return t;
}

/* "4,16,16" -> ints; FALSE on anything else. */
static gboolean parse_ints(const char *text, int *out, int max, int *n)
{
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  *n = 0;
  for (int i = 0; parts[i] != NULL; i++) {
    char *end;
    gint64 v = g_ascii_strtoll(parts[i], &end, 10);
    if (*n >= max || end == parts[i] || *end != '\0' || v < 0 || v > 100000000)
      return FALSE;
    out[(*n)++] = (int)v;
  }
  return *n > 0;
}

NsTopology *ns_shape_from_spec(const char *spec, GError **error)
{
  const char *colon = strchr(spec, ':');
  g_autofree char *shape = colon ? g_strndup(spec, (gsize)(colon - spec)) : g_strdup(spec);
  const char *args = colon ? colon + 1 : "";
  int v[16], n = 0;
  double bw = NS_DEFAULT_BANDWIDTH, lat = NS_DEFAULT_LATENCY;
  const char *usage = "star:P, chain:S,M, switch-star:S,M, tree:F1,...,Fn or "
                      "random:SEED,P,S[,uniform|star|chain|deep|unbalanced]";

  if (g_str_equal(shape, "random")) {
    g_auto(GStrv) parts = g_strsplit(args, ",", -1);
    guint np = g_strv_length(parts);
    NsRandomKind kind = NS_RANDOM_UNIFORM;
    gboolean kind_ok = np == 3;
    if (np == 4)
      for (unsigned k = 0; k < G_N_ELEMENTS(random_kind_names); k++)
        if (g_str_equal(parts[3], random_kind_names[k])) {
          kind = (NsRandomKind)k;
          kind_ok = TRUE;
        }
    g_autofree char *nums = np >= 3 ? g_strjoin(",", parts[0], parts[1], parts[2], NULL) : NULL;
    if (kind_ok && nums != NULL && parse_ints(nums, v, 3, &n) && n == 3)
      return ns_shape_random((uint64_t)v[0], v[1], v[2], kind, bw, lat, error);
  } else if (parse_ints(args, v, G_N_ELEMENTS(v), &n)) {
    if (g_str_equal(shape, "star") && n == 1 && v[0] >= 2 && v[0] <= 1000000)
      return ns_shape_star(v[0], bw, lat);
    if (g_str_equal(shape, "chain") && n == 2 && v[0] >= 1 && v[1] >= 1 &&
        (int64_t)v[0] * v[1] >= 2 && (int64_t)v[0] * (v[1] + 1) <= 1000000)
      return ns_shape_chain(v[0], v[1], bw, lat);
    if (g_str_equal(shape, "switch-star") && n == 2 && v[0] >= 1 && v[1] >= 1 &&
        (int64_t)v[0] * v[1] >= 2 && (int64_t)v[0] * (v[1] + 1) <= 1000000)
      return ns_shape_switch_star(v[0], v[1], bw, lat);
    if (g_str_equal(shape, "tree"))
      return ns_shape_tree(v, n, bw, lat, error);
  }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "gen:%s: not a known shape (use %s)", spec,
                  usage);
  return NULL;
}
