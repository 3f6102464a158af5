/* netsched — SimGrid <cluster> zones as netsched networks
 * (simgrid_clusters_internal.h): FLAT, TORUS, FAT_TREE, DRAGONFLY. */
#include "platforms/gen/dragonfly.h"
#include "platforms/model/error.h"
#include "platforms/gen/fabrics.h"
#include "platforms/io/hostlist_internal.h"
#include "platforms/io/simgrid_clusters_internal.h"

#include <string.h>

/* "3,2,2" or "4,4" into v (at most max, each 1..1e6). */
/* The cluster built (`ok`): finalized and returned, or freed (NULL). */
static NsTopology *finished(NsTopology *t, gboolean ok, GError **error)
{
  if (ok && ns_topology_finalize(t, NULL, NULL, error))
    return t;
  ns_topology_free(t);
  return NULL;
}

static int parse_counts(const char *text, int *v, int max)
{
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  int n = 0;
  for (; parts[n] != NULL; n++) {
    guint64 x;
    if (n >= max || !g_ascii_string_to_unsigned(g_strstrip(parts[n]), 10, 1, 1000000, &x, NULL))
      return -1;
    v[n] = (int)x;
  }
  return n;
}

/* The cluster's host names: prefix + each radical number + suffix. */
static char **host_names(const NsSimGridCluster *S, gint64 want, GError **error)
{
  g_autofree char *list = g_strdup_printf("h[%s]", S->radical);
  char *why = NULL;
  char **numbers = ns_hostlist_expand(list, &why);
  if (numbers == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, S->source, S->line, "radical '%s': %s",
                    S->radical, why);
    g_free(why);
    return NULL;
  }
  guint n = g_strv_length(numbers);
  if ((gint64)n != want) {
    ns_set_error_at(error, NS_ERROR_INPUT, S->source, S->line,
                    "radical '%s' names %u hosts, the %s topology '%s' has %" G_GINT64_FORMAT,
                    S->radical, n, S->topology, S->params, want);
    g_strfreev(numbers);
    return NULL;
  }
  for (guint i = 0; i < n; i++) {
    char *name = g_strconcat(S->prefix, numbers[i] + 1, S->suffix, NULL);
    g_free(numbers[i]);
    numbers[i] = name;
  }
  return numbers;
}

/* A finalized topology with its machines renamed (the generators name them
 * n0, n1, ...): same nodes, links, routing and grid. */
static NsTopology *renamed(const NsTopology *g, const char *source, char **names,
                           GError **error)
{
  NsTopology *t = ns_topology_new(source);
  gboolean ok = TRUE;
  for (int v = 0; ok && v < ns_topology_n_nodes(g); v++) {
    const NsNode *n = ns_topology_node(g, v);
    int m = ns_topology_node_machine(g, v);
    int id = ns_topology_add_node(t, m >= 0 ? names[m] : n->name, n->kind, 0, error);
    if ((ok = id >= 0)) {
      NsNode *c = ns_topology_node_mut(t, id);
      c->forwarding = n->forwarding;
      c->ports = n->ports;
      c->k_ports = n->k_ports;
    }
  }
  for (int i = 0; ok && i < ns_topology_n_links(g); i++) {
    const NsLink *l = ns_topology_link(g, i);
    ok = ns_topology_add_link(t, l->a, l->b, l->bandwidth, l->latency, 0, error) >= 0;
  }
  int sizes[NS_MAX_DIMS];
  gboolean wrap = FALSE;
  int dims = ns_topology_grid(g, sizes, &wrap);
  if (ok && dims > 0)
    ok = ns_topology_set_grid(t, dims, sizes, wrap, 0, error);
  ns_topology_set_routing(t, ns_topology_routing(g), 0);
  return finished(t, ok, error);
}

/* Zahavi's parallel generalized fat tree PGFT(L; m; w; p) as SimGrid's
 * FatTreeZone builds it: level-l nodes are (a_(l+1..L); b_(1..l)) with
 * a_i < m_i, b_i < w_i; node (a_(l+1..L); b_(1..l)) of level l joins the
 * w_(l+1) nodes (a_(l+2..L); b_(1..l), b) of level l+1, by p_(l+1)
 * parallel links, given as one link of p_(l+1) times the speed. Up-links
 * are declared in port order, so d-mod-k applies (Zahavi et al. 2010). */
static NsTopology *pgft(const NsSimGridCluster *S, int L, const int *m, const int *w, const int *p, char **names,
                        gboolean dmodk, GError **error)
{
  NsTopology *t = ns_topology_new(S->source);
  /* Nodes of level l: A_l = m_(l+1)·…·m_L times B_l = w_1·…·w_l; index
   * a + A_l·b with a, b mixed radix, a_(l+1) and b_1 fastest. */
  gint64 A[NS_MAX_DIMS + 2], B[NS_MAX_DIMS + 2], first[NS_MAX_DIMS + 2];
  A[L] = 1;
  for (int l = L - 1; l >= 0; l--)
    A[l] = A[l + 1] * m[l];
  B[0] = 1;
  for (int l = 1; l <= L; l++)
    B[l] = B[l - 1] * w[l - 1];
  gboolean ok = TRUE;
  gint64 next = 0;
  for (int l = 0; l <= L; l++) {
    first[l] = next;
    for (gint64 i = 0; ok && i < A[l] * B[l]; i++) {
      char name[48];
      g_snprintf(name, sizeof name, "L%ds%" G_GINT64_FORMAT, l, i);
      ok = ns_topology_add_node(t, l == 0 ? names[i] : name,
                                l == 0 ? NS_NODE_MACHINE : NS_NODE_SWITCH, 0, error) >= 0;
    }
    next += A[l] * B[l];
  }
  for (int l = 0; ok && l < L; l++)
    for (gint64 i = 0; ok && i < A[l] * B[l]; i++) {
      gint64 a = i % A[l], b = i / A[l];
      gint64 a_up = a / m[l]; /* drop a_(l+1) */
      for (int j = 0; ok && j < w[l]; j++) {
        gint64 parent = first[l + 1] + a_up + A[l + 1] * (b + B[l] * j);
        ok = ns_topology_add_link(t, (int)(first[l] + i), (int)parent, S->bw * p[l], S->lat, 0,
                                  error) >= 0;
      }
    }
  ns_topology_set_routing(t, dmodk ? NS_ROUTING_DMODK : NS_ROUTING_SHORTEST, 0);
  return finished(t, ok, error);
}

/**
 * \function ns_simgrid_cluster_build
 * \brief The network of a SimGrid <cluster> (mapping in simgrid_clusters_internal.h).
 *
 * \param S The cluster's attributes.
 * \param warn, warn_data Receive finalize's findings (may be NULL).
 * \param error NS_ERROR_INPUT "source:line: what is wrong" (the line of the
 *        <cluster>).
 * \return The finalized topology, or NULL.
 *
 * Time complexity: O(nodes + links) of the network (a dragonfly's routes:
 * O(P²)); sizes are checked before anything is built.
 */
NsTopology *ns_simgrid_cluster_build(const NsSimGridCluster *S, NsWarnFunc warn,
                                     void *warn_data, GError **error)
{
  NsShapeOptions o;
  ns_shape_options_init(&o);
  o.bandwidth = S->bw;
  o.latency = S->lat;
  g_auto(GStrv) part = g_strsplit(S->params, ";", -1);
  guint n_parts = g_strv_length(part);
  int v[4][NS_MAX_DIMS + 1], n[4] = {0};
  for (guint i = 0; i < n_parts && i < 4; i++)
    n[i] = parse_counts(part[i], v[i], NS_MAX_DIMS + 1);
  gint64 hosts = 1;
  NsTopology *t = NULL;
  char **names = NULL;
  const char *topo = S->topology;
  if (strcmp(topo, "FLAT") == 0) {
    g_autofree char *list = g_strdup_printf("h[%s]", S->radical);
    char *why = NULL;
    char **numbers = ns_hostlist_expand(list, &why);
    g_free(why);
    hosts = numbers != NULL ? g_strv_length(numbers) : 0;
    g_strfreev(numbers);
    if ((names = host_names(S, hosts, error)) == NULL)
      return NULL;
    NsTopology *star = ns_topology_new(S->source);
    gboolean ok = ns_topology_add_node(star, "switch", NS_NODE_SWITCH, 0, error) >= 0;
    for (gint64 i = 0; ok && i < hosts; i++)
      ok = ns_topology_add_node(star, names[i], NS_NODE_MACHINE, 0, error) >= 0 &&
           ns_topology_add_link(star, (int)i + 1, 0, S->bw, S->lat, 0, error) >= 0;
    if (ok && ns_topology_finalize(star, warn, warn_data, error))
      t = star;
    else
      ns_topology_free(star);
  } else if (strcmp(topo, "TORUS") == 0) {
    if (n_parts != 1 || n[0] < 1 || n[0] > NS_MAX_DIMS) {
      ns_set_error_at(error, NS_ERROR_INPUT, S->source, S->line, "TORUS topo_parameters "
                      "'%s': expected the sizes of 1 to %d dimensions, e.g. \"4,4,2\"", S->params,
                      NS_MAX_DIMS);
      return NULL;
    }
    for (int d = 0; d < n[0] && hosts <= NS_HOSTLIST_MAX; d++)
      hosts *= v[0][d];
    if (hosts <= NS_HOSTLIST_MAX && (names = host_names(S, hosts, error)) != NULL) {
      g_autoptr(NsTopology) g = ns_shape_grid(v[0], n[0], TRUE, &o, "", error);
      if (g != NULL)
        t = renamed(g, S->source, names, error);
    }
  } else if (strcmp(topo, "FAT_TREE") == 0) {
    int L = n_parts == 4 && n[0] == 1 ? v[0][0] : 0;
    if (L < 1 || L > NS_MAX_DIMS || n[1] != L || n[2] != L || n[3] != L) {
      ns_set_error_at(error, NS_ERROR_INPUT, S->source, S->line, "FAT_TREE "
                      "topo_parameters '%s': expected \"L;m1,...,mL;w1,...,wL;p1,...,pL\" "
                      "(levels, children per switch, parents per node and parallel links, "
                      "level 1 first; at most %d levels)", S->params, NS_MAX_DIMS);
      return NULL;
    }
    gint64 nodes = 0, level_size[NS_MAX_DIMS + 1];
    for (int l = 0; l <= L; l++) {
      level_size[l] = 1;
      for (int i = l; i < L && level_size[l] <= NS_HOSTLIST_MAX; i++)
        level_size[l] *= v[1][i];
      for (int i = 0; i < l && level_size[l] <= NS_HOSTLIST_MAX; i++)
        level_size[l] *= v[2][i];
      nodes += MIN(level_size[l], (gint64)NS_HOSTLIST_MAX + 1);
    }
    hosts = level_size[0];
    if (nodes > NS_HOSTLIST_MAX) {
      ns_set_error_at(error, NS_ERROR_INPUT, S->source, S->line, "FAT_TREE '%s': more "
                      "than %d nodes", S->params, NS_HOSTLIST_MAX);
      return NULL;
    }
    if ((names = host_names(S, hosts, error)) != NULL) {
      GError *local = NULL;
      t = pgft(S, L, v[1], v[2], v[3], names, TRUE, &local);
      if (t == NULL) { /* not a tree d-mod-k can route: a graph */
        g_clear_error(&local);
        t = pgft(S, L, v[1], v[2], v[3], names, FALSE, error);
      }
    }
  } else if (strcmp(topo, "DRAGONFLY") == 0) {
    int ok = n_parts == 4 && n[0] == 2 && n[1] == 2 && n[2] == 2 && n[3] == 1;
    if (!ok) {
      ns_set_error_at(error, NS_ERROR_INPUT, S->source, S->line, "DRAGONFLY "
                      "topo_parameters '%s': expected \"G,GL;C,CL;R,RL;N\" (groups and links "
                      "between groups; chassis per group and links between chassis; routers "
                      "per chassis and links between routers; hosts per router)", S->params);
      return NULL;
    }
    NsDragonfly d = {v[0][0], v[1][0], v[2][0], v[3][0], v[0][1], v[1][1], v[2][1]};
    double many = (double)d.groups * d.chassis * d.routers * d.nodes; /* each <= 1e6 */
    hosts = many > NS_DRAGONFLY_MAX_MACHINES ? NS_DRAGONFLY_MAX_MACHINES + 1 : (gint64)many;
    if (hosts <= NS_DRAGONFLY_MAX_MACHINES && (names = host_names(S, hosts, error)) != NULL)
      t = ns_dragonfly_build(&d, &o, S->source, names, error);
    else if (names == NULL && hosts > NS_DRAGONFLY_MAX_MACHINES)
      t = ns_dragonfly_build(&d, &o, S->source, NULL, error); /* says why */
  } else {
    ns_set_error_at(error, NS_ERROR_INPUT, S->source, S->line, "cluster topology '%s' "
                    "is not read (FLAT, TORUS, FAT_TREE or DRAGONFLY)", topo);
    return NULL;
  }
  if (t == NULL && names == NULL && error != NULL && *error == NULL)
    ns_set_error_at(error, NS_ERROR_INPUT, S->source, S->line, "%s '%s': more than %d "
                    "hosts", topo, S->params, NS_HOSTLIST_MAX);
  g_strfreev(names);
  return t;
}
