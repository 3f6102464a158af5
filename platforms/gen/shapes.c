/* netsched — built-in shapes and random trees (igraph). See shapes.h. */
#include "platforms/gen/shapes.h"
#include "platforms/model/error.h"
#include "platforms/gen/dragonfly.h"
#include "platforms/gen/gtitm.h"
#include "platforms/model/units.h"
#include <igraph.h>
#include <stdlib.h>
#include <string.h>

/* Builds a finalized topology from a switch tree given as parent pointers
 * (parent[0] = -1, parent[i] < i is not required) and per-switch machine
 * counts. Machines are numbered in depth-first order of their switches. */
static NsTopology *from_switch_tree(const char *source, int switches, const int *parent,
                                    const int *machines, const NsShapeOptions *o,
                                    GError **error)
{
  NsTopology *t = ns_topology_new(source);
  double lat = o->latency;
  for (int s = 0; s < switches; s++) {
    char name[32];
    g_snprintf(name, sizeof name, "s%d", s);
    ns_shape_apply_node(t, ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL), o);
  }
  /* Children lists, then an iterative preorder walk from switch 0. */
  int *first = g_new(int, switches), *next = g_new(int, switches);
  for (int s = 0; s < switches; s++)
    first[s] = next[s] = -1;
  for (int s = switches - 1; s >= 1; s--) {
    next[s] = first[parent[s]];
    first[parent[s]] = s;
    ns_topology_add_link(t, s, parent[s], ns_shape_link_bandwidth(o, TRUE), lat, 0, NULL);
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
      ns_shape_apply_node(t, v, o);
      ns_topology_add_link(t, v, s, ns_shape_link_bandwidth(o, FALSE), lat, 0, NULL);
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

static NsShapeOptions plain(double bw, double lat)
{
  NsShapeOptions o;
  ns_shape_options_init(&o);
  o.bandwidth = bw;
  o.latency = lat;
  return o;
}

static NsTopology *star(int machines, const NsShapeOptions *o, const char *suffix)
{
  int parent[1] = { -1 };
  g_autofree char *src = g_strdup_printf("gen:star:%d%s", machines, suffix);
  return from_switch_tree(src, 1, parent, &machines, o, NULL);
}

/**
 * \function ns_shape_star
 * \brief One switch with `machines` machines (gen:star:N).
 *
 * Machines n0..n(N-1) on switch s0, every link of one speed, tree routing.
 *
 * \param machines Number of machines (>= 2).
 * \param bandwidth Every link's bandwidth in bit/s (> 0).
 * \param latency Every link's latency in seconds (>= 0).
 * \return The finalized topology, or NULL when the arguments make none
 *         (fewer than 2 machines).
 * \errors none reported (NULL; ns_shape_from_spec() says why).
 * \complexity O(machines).
 * \source docs/topology-format.md, "Generated topologies".
 */
NsTopology *ns_shape_star(int machines, double bw, double lat)
{
  NsShapeOptions o = plain(bw, lat);
  return star(machines, &o, "");
}

/* A chain (`hub` FALSE) or a star of switches (`hub` TRUE). */
static NsTopology *switch_line(const char *kind, int switches, int per_switch, gboolean hub,
                               const NsShapeOptions *o, const char *suffix)
{
  int *parent = g_new(int, switches), *machines = g_new(int, switches);
  for (int s = 0; s < switches; s++) {
    parent[s] = s == 0 ? -1 : hub ? 0 : s - 1;
    machines[s] = per_switch;
  }
  g_autofree char *src = g_strdup_printf("gen:%s:%d,%d%s", kind, switches, per_switch, suffix);
  NsTopology *t = from_switch_tree(src, switches, parent, machines, o, NULL);
  g_free(parent);
  g_free(machines);
  return t;
}

/**
 * \function ns_shape_chain
 * \brief Switches in a chain, `per_switch` machines on each (gen:chain:S,K).
 *
 * Faraj and Yuan's topology (c) is chain:4,8.
 *
 * \param switches Number of switches (>= 1).
 * \param per_switch Machines on each switch.
 * \param bandwidth Every link's bandwidth in bit/s (> 0).
 * \param latency Every link's latency in seconds (>= 0).
 * \return The finalized topology, or NULL when the arguments make none.
 * \errors none reported (NULL; ns_shape_from_spec() says why).
 * \complexity O(switches · per_switch).
 * \source Faraj and Yuan §6 (topologies); docs/topology-format.md, "Generated topologies".
 */
NsTopology *ns_shape_chain(int switches, int per_switch, double bw, double lat)
{
  NsShapeOptions o = plain(bw, lat);
  return switch_line("chain", switches, per_switch, FALSE, &o, "");
}

/**
 * \function ns_shape_switch_star
 * \brief Switches s1.. around switch s0, `per_switch` machines on each.
 *
 * \param switches Number of switches, the hub included (>= 1).
 * \param per_switch Machines on each switch.
 * \param bandwidth Every link's bandwidth in bit/s (> 0).
 * \param latency Every link's latency in seconds (>= 0).
 * \return The finalized topology, or NULL when the arguments make none.
 * \errors none reported (NULL; ns_shape_from_spec() says why).
 * \complexity O(switches · per_switch).
 * \source docs/topology-format.md, "Generated topologies".
 */
NsTopology *ns_shape_switch_star(int switches, int per_switch, double bw, double lat)
{
  NsShapeOptions o = plain(bw, lat);
  return switch_line("switch-star", switches, per_switch, TRUE, &o, "");
}

static NsTopology *tree(const int *fanout, int levels, const NsShapeOptions *o,
                        const char *suffix, GError **error);

/**
 * \function ns_shape_tree
 * \brief A uniform switch tree (gen:tree:F1xF2x...).
 *
 * fanout[0..levels-2] child switches per switch, fanout[levels-1] machines
 * per leaf switch.
 *
 * \param fanout The fanouts, levels of them.
 * \param levels Number of levels (>= 1).
 * \param bandwidth Every link's bandwidth in bit/s (> 0).
 * \param latency Every link's latency in seconds (>= 0).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT when a fanout is < 1 or the tree would exceed
 *         1,000,000 nodes.
 * \complexity O(nodes).
 * \source docs/topology-format.md, "Generated topologies".
 */
NsTopology *ns_shape_tree(const int *fanout, int levels, double bw, double lat, GError **error)
{
  NsShapeOptions o = plain(bw, lat);
  return tree(fanout, levels, &o, "", error);
}

static NsTopology *tree(const int *fanout, int levels, const NsShapeOptions *o,
                        const char *suffix, GError **error)
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
  g_string_append(src, suffix);
  NsTopology *t = from_switch_tree(src->str, (int)switches, parent, machines, o, error);
  g_string_free(src, TRUE);
  g_free(parent);
  g_free(machines);
  return t;
}

static const char *const random_kind_names[] = {
  [NS_RANDOM_UNIFORM] = "uniform", [NS_RANDOM_STAR] = "star", [NS_RANDOM_CHAIN] = "chain",
  [NS_RANDOM_DEEP] = "deep",       [NS_RANDOM_UNBALANCED] = "unbalanced",
};

/**
 * \function ns_random_kind_name
 * \brief The name of a random tree's kind ("uniform", "star", ...).
 *
 * \param kind The kind.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Generated topologies".
 */
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

static NsTopology *random_tree(uint64_t seed, int machines, int switches, NsRandomKind kind,
                               const NsShapeOptions *o, const char *suffix, GError **error);

/**
 * \function ns_shape_random
 * \brief A random switch tree with machines on it, reproducible from a seed.
 *
 * Switches that end up with no machine below them are pruned by finalize,
 * so the result may have fewer switches than asked.
 *
 * \param seed The seed: the same seed gives the same tree on every machine.
 * \param machines Number of machines (2 .. 1,000,000).
 * \param switches Number of switches (1 .. 1,000,000).
 * \param kind How the tree is drawn (uniform over labelled trees through
 *        Prüfer codes, star, chain, deep, unbalanced).
 * \param bandwidth Every link's bandwidth in bit/s (> 0).
 * \param latency Every link's latency in seconds (>= 0).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT for counts out of range.
 * \complexity O(switches + machines).
 * \source The dissertation's random trees; docs/topology-format.md, "Generated topologies".
 */
NsTopology *ns_shape_random(uint64_t seed, int machines, int switches, NsRandomKind kind,
                            double bw, double lat, GError **error)
{
  NsShapeOptions o = plain(bw, lat);
  return random_tree(seed, machines, switches, kind, &o, "", error);
}

static NsTopology *random_tree(uint64_t seed, int machines, int switches, NsRandomKind kind,
                               const NsShapeOptions *o, const char *suffix, GError **error)
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
    g_autofree char *src = g_strdup_printf("gen:random:%" G_GUINT64_FORMAT ",%d,%d,%s%s", seed,
                                           machines, switches, random_kind_names[kind], suffix);
    t = from_switch_tree(src, switches, parent, count, o, error);
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
    gint64 v = 0;
    if (*n >= max || !ns_shape_parse_int(parts[i], 0, 100000000, &v))
      return FALSE;
    out[(*n)++] = (int)v;
  }
  return *n > 0;
}

/* ":bandwidth=1Gbps:uplink=10Gbps:latency=1us:forwarding=cut-through:ports=all"
 * options after a shape. */
static gboolean parse_options(const char *spec, char **parts, NsShapeOptions *o, GError **error)
{
  for (int i = 0; parts[i] != NULL; i++) {
    char *eq = strchr(parts[i], '=');
    const char *why = NULL;
    if (eq == NULL) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "gen:%s: option '%s' is not KEY=VALUE (%s)",
                      spec, parts[i], ns_shape_option_keys());
      return FALSE;
    }
    *eq = '\0';
    const char *key = parts[i], *value = eq + 1;
    gboolean known = FALSE;
    gboolean ok = ns_shape_option_set(o, key, value, &known, &why);
    if (!known) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "gen:%s: unknown option '%s' (%s)", spec,
                      key, ns_shape_option_keys());
      return FALSE;
    }
    if (!ok) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "gen:%s: %s '%s': %s", spec, key, value,
                      why);
      return FALSE;
    }
    *eq = '=';
  }
  return TRUE;
}

/* "8x8x4" -> dims; FALSE on anything else. */
static gboolean parse_dims(const char *text, int *dims, int *n)
{
  g_auto(GStrv) parts = g_strsplit(text, "x", -1);
  *n = 0;
  for (int i = 0; parts[i] != NULL; i++) {
    char *end;
    gint64 v = g_ascii_strtoll(parts[i], &end, 10);
    if (*n >= NS_MAX_DIMS || end == parts[i] || *end != '\0' || v < 1 || v > 1000000)
      return FALSE;
    dims[(*n)++] = (int)v;
  }
  return *n > 0;
}

static NsTopology *from_checked_spec(const char *spec, GError **error);

/**
 * \function ns_shape_preset
 * \brief Builds a preset's topology ("quadrics:N", "gige:N").
 *
 * \param spec The specification without "gen:"; generator options after N override the link
 *        values.
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT for a bad N or option.
 * \complexity O(size of the topology).
 * \source Faraj's dissertation Tables 4.6 and 4.7; docs/simulator.md.
 */
NsTopology *ns_shape_preset(const char *spec, GError **error)
{
  g_autofree char *generator = NULL, *title = NULL;
  if (!ns_shape_preset_expand(spec, &generator, &title, error))
    return NULL;
  /* Unchecked: the user's options follow the preset's and override them. */
  NsTopology *t = from_checked_spec(generator, error);
  if (t == NULL) {
    g_prefix_error(error, "gen:%s (= gen:%s): ", spec, generator);
    return NULL;
  }
  ns_topology_set_title(t, title);
  return t;
}

/**
 * \function ns_shape_from_spec
 * \brief Builds the topology of a generator specification ("gen:SPEC").
 *
 * SPEC is SHAPE:ARGS[:KEY=VALUE]... without the "gen:" prefix: a star,
 * chain, tree, random tree, ring, mesh, torus, hypercube, fat tree,
 * leaf/spine, dragonfly, hierarchy, preset or GT-ITM model, with the link
 * options of shape_options.h. The specification is checked whole before it
 * is parsed (no spaces, a known shape, each option once), and every size is
 * bounded before it is formed.
 *
 * \param spec The specification, e.g. "chain:4,8" or "torus:8x8:ports=one".
 * \param error Set on failure (see errors).
 * \return The finalized topology (ns_topology_free() it), or NULL.
 * \errors NS_ERROR_INPUT "gen:SPEC: what is wrong" naming the expected form
 *         or the range of the value at fault.
 * \complexity The generator's: O(|V| + |E|) for the shapes, plus the
 *         routing's set-up (shortest paths: O(|M|·(|V| + |E|))).
 * \source docs/topology-format.md, "Generated topologies"; the papers each shape
 *         cites in its own file of platforms/gen/.
 */
NsTopology *ns_shape_from_spec(const char *spec, GError **error)
{
  /* Also guarantees parts[0] (the shape) exists: g_strsplit("") is empty. */
  if (!ns_shape_spec_check(spec, error))
    return NULL;
  return from_checked_spec(spec, error);
}

static NsTopology *from_checked_spec(const char *spec, GError **error)
{
  g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
  const char *shape = parts[0];
  if (ns_shape_is_preset(shape)) /* gen:quadrics:N, gen:gige:N (presets.c) */
    return ns_shape_preset(spec, error);
  if (ns_gtitm_is_shape(shape)) /* gen:waxman, gen:transit-stub, gen:kruskal-tree (gtitm.c) */
    return ns_gtitm_from_spec(spec, error);
  const char *args = parts[1] != NULL ? parts[1] : "";
  NsShapeOptions o;
  ns_shape_options_init(&o);
  if (parts[1] != NULL && !parse_options(spec, parts + 2, &o, error))
    return NULL;
  /* The options as given, kept in the topology's name. */
  const char *first_option = parts[1] != NULL && parts[2] != NULL ? strchr(strchr(spec, ':') + 1, ':')
                                                                : NULL;
  const char *suffix = first_option != NULL ? first_option : "";
  int v[16], n = 0, dims[NS_MAX_DIMS];
  const char *usage = "star:P, chain:S,M, switch-star:S,M, tree:F1,...,Fn, "
                      "random:SEED,P,S[,uniform|star|chain|deep|unbalanced], fattree:K,N, "
                      "leafspine:L,S,M[,R], torus:AxB[x...], mesh:AxB[x...], ring:P, hypercube:D, hierarchy:AxB, quadrics:N, "
                      "gige:N, dragonfly:G,C,R,N[,GL,CL,RL], waxman:SEED,S[,K], transit-stub:SEED[,T,NT,K,NS] or "
                      "kruskal-tree:SEED,S, each optionally followed by "
                      ":bandwidth=B:uplink=B:latency=T:forwarding=F:ports=N";

  if (g_str_equal(shape, "random")) {
    g_auto(GStrv) rp = g_strsplit(args, ",", -1);
    guint np = g_strv_length(rp);
    NsRandomKind kind = NS_RANDOM_UNIFORM;
    gboolean kind_ok = np == 3;
    if (np == 4)
      for (unsigned k = 0; k < G_N_ELEMENTS(random_kind_names); k++)
        if (g_str_equal(rp[3], random_kind_names[k])) {
          kind = (NsRandomKind)k;
          kind_ok = TRUE;
        }
    g_autofree char *nums = np >= 3 ? g_strjoin(",", rp[0], rp[1], rp[2], NULL) : NULL;
    if (kind_ok && nums != NULL && parse_ints(nums, v, 3, &n) && n == 3)
      return random_tree((uint64_t)v[0], v[1], v[2], kind, &o, suffix, error);
  } else if (g_str_equal(shape, "leafspine")) { /* two-level Clos, ecmp (leafspine.c) */
    return ns_shape_leafspine(args, &o, suffix, error);
  } else if (g_str_equal(shape, "dragonfly")) { /* SimGrid's DragonflyZone (dragonfly.c) */
    return ns_shape_dragonfly(args, &o, suffix, error);
  } else if (g_str_equal(shape, "hierarchy")) { /* Tam & Wang's FE/GE tree (hierarchy.c) */
    return ns_shape_hierarchy(args, &o, suffix, error);
  } else if (g_str_equal(shape, "torus") || g_str_equal(shape, "mesh")) {
    if (parse_dims(args, dims, &n))
      return ns_shape_grid(dims, n, g_str_equal(shape, "torus"), &o, suffix, error);
  } else if (parse_ints(args, v, G_N_ELEMENTS(v), &n)) {
    if (g_str_equal(shape, "star") && n == 1 && v[0] >= 2 && v[0] <= 1000000)
      return star(v[0], &o, suffix);
    if ((g_str_equal(shape, "chain") || g_str_equal(shape, "switch-star")) && n == 2 &&
        v[0] >= 1 && v[1] >= 1 && (int64_t)v[0] * v[1] >= 2 &&
        (int64_t)v[0] * (v[1] + 1) <= 1000000)
      return switch_line(shape, v[0], v[1], g_str_equal(shape, "switch-star"), &o, suffix);
    if (g_str_equal(shape, "tree"))
      return tree(v, n, &o, suffix, error);
    if (g_str_equal(shape, "fattree") && n == 2)
      return ns_shape_fattree(v[0], v[1], &o, suffix, error);
    if (g_str_equal(shape, "ring") && n == 1)
      return ns_shape_grid(v, 1, TRUE, &o, suffix, error);
    if (g_str_equal(shape, "hypercube") && n == 1) {
      if (v[0] < 1 || v[0] > NS_MAX_DIMS) {
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "gen:%s: a hypercube has 1 to %d dimensions (grid dimensions are "
                        "limited to %d), not %d", spec, NS_MAX_DIMS, NS_MAX_DIMS, v[0]);
        return NULL;
      }
      int cube[NS_MAX_DIMS];
      for (int d = 0; d < v[0]; d++)
        cube[d] = 2;
      return ns_shape_grid(cube, v[0], FALSE, &o, suffix, error);
    }
    if (g_str_equal(shape, "star") && n == 1) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "gen:%s: a star has 2 to 1000000 machines, not %d", spec, v[0]);
      return NULL;
    }
  }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "gen:%s: not a known shape (use %s)", spec,
                  usage);
  return NULL;
}
