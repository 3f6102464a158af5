/* netsched — dragonfly networks (Kim, Dally, Scott & Abts, ISCA 2008) as
 * SimGrid's DragonflyZone lays them out, with its minimal routing.
 *
 * Layout. Router (g, c, r) — group g, chassis c, position r — has flat
 * index f = c·R + r inside its group. Green links join every router pair
 * of a chassis, black links the routers of the same position r in every
 * chassis pair of a group, and the blue (global) link between groups i
 * and j joins the router of flat index j in group i to the router of flat
 * index i in group j. Machine i (SimGrid's rank) is machine i mod N of
 * router ⌊i/N⌋, routers numbered g·C·R + c·R + r.
 *
 * Minimal routing (SimGrid's DragonflyZone::get_local_route): inside a
 * group, a green hop to the destination position, then a black hop to the
 * destination chassis (each only when needed); towards another group,
 * first such local hops to the router holding the global link to the
 * destination group, the global hop, then the local hops in the
 * destination group. At most 2 + 1 + 2 router-to-router hops. SimGrid
 * reaches the global router with a green hop to position "destination
 * group" and a black hop to chassis 0, which is the same router whenever
 * G ≤ R (SimGrid's examples); netsched's rule also holds for R < G ≤ C·R.
 * The routes are given to the topology as explicit routes.
 */
#include "platforms/gen/dragonfly.h"
#include "platforms/model/error.h"

#include <string.h>

typedef struct {
  int g, c, r;
} Router;

static int router_id(const NsDragonfly *d, Router x)
{
  return (x.g * d->chassis + x.c) * d->routers + x.r;
}

/* Local hops inside group cur.g to (c, r): position first, then chassis. */
static int local_hops(const NsDragonfly *d, Router *cur, int c, int r, int *path, int n)
{
  if (cur->r != r) {
    cur->r = r;
    path[n++] = router_id(d, *cur);
  }
  if (cur->c != c) {
    cur->c = c;
    path[n++] = router_id(d, *cur);
  }
  return n;
}

/* The router ids from router s to router t, both included. */
static int router_path(const NsDragonfly *d, Router s, Router t, int *path)
{
  int n = 0;
  Router cur = s;
  path[n++] = router_id(d, cur);
  if (s.g != t.g) {
    /* The global router towards t.g has flat index t.g in group s.g. */
    n = local_hops(d, &cur, t.g / d->routers, t.g % d->routers, path, n);
    cur = (Router){ t.g, s.g / d->routers, s.g % d->routers };
    path[n++] = router_id(d, cur);
  }
  return local_hops(d, &cur, t.c, t.r, path, n);
}

static Router router_of(const NsDragonfly *d, int machine)
{
  int f = machine / d->nodes;
  return (Router){ f / (d->chassis * d->routers), (f / d->routers) % d->chassis,
                   f % d->routers };
}

/**
 * \function ns_dragonfly_build
 * \brief Builds and finalizes a dragonfly as SimGrid lays it out.
 *
 * \param d Groups, chassis, routers, machines per router and the link multiplicities.
 * \param o The generator options (link speeds, latency, switch and machine attributes).
 * \param source The topology's source name.
 * \param machine_names The machines' names (NULL: n0, n1, ...).
 * \param error Set on failure (see errors).
 * \return The finalized topology (minimal routing as explicit routes), or NULL.
 * \errors NS_ERROR_INPUT "source: ..." for sizes < 1, fewer than 2 machines, more than
 *        NS_DRAGONFLY_MAX_MACHINES, or more groups than routers in a group.
 * \complexity O(P² · 8) time and memory for P machines.
 * \source Kim et al., "Technology-Driven, Highly-Scalable Dragonfly Topology" (2008); SimGrid's
 *        DRAGONFLY cluster.
 */
NsTopology *ns_dragonfly_build(const NsDragonfly *d, const NsShapeOptions *o,
                               const char *source, char *const *machine_names, GError **error)
{
  /* Each count is at most 1e6 (callers check): the products fit in 64 bits
   * when the router count is bounded first. */
  gint64 routers = (gint64)d->groups * d->chassis;
  routers = routers > NS_DRAGONFLY_MAX_MACHINES ? routers : routers * d->routers;
  gint64 p = routers > NS_DRAGONFLY_MAX_MACHINES ? routers : routers * d->nodes;
  if (d->groups < 1 || d->chassis < 1 || d->routers < 1 || d->nodes < 1 ||
      d->global_links < 1 || d->chassis_links < 1 || d->router_links < 1) {
    ns_set_error_at(error, NS_ERROR_INPUT, source, 0, "dragonfly: every count must be at "
                    "least 1");
    return NULL;
  }
  if (p < 2 || p > NS_DRAGONFLY_MAX_MACHINES) {
    ns_set_error_at(error, NS_ERROR_INPUT, source, 0, "dragonfly: %s machines (from 2 to %d: "
                    "its minimal routing is kept as one explicit route per machine pair)",
                    p < 2 ? "fewer than 2" : "more than 2048", NS_DRAGONFLY_MAX_MACHINES);
    return NULL;
  }
  if (d->groups > d->chassis * d->routers) {
    ns_set_error_at(error, NS_ERROR_INPUT, source, 0, "dragonfly: %d groups need %d routers in "
                    "each group (the global link to group j sits on router j of the group), "
                    "not %d", d->groups, d->groups, d->chassis * d->routers);
    return NULL;
  }
  NsTopology *t = ns_topology_new(source);
  char name[64];
  for (int g = 0; g < d->groups; g++)
    for (int c = 0; c < d->chassis; c++)
      for (int r = 0; r < d->routers; r++) {
        g_snprintf(name, sizeof name, "g%dc%dr%d", g, c, r);
        ns_shape_apply_node(t, ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL), o);
      }
  gboolean ok = TRUE;
  for (int m = 0; ok && m < (int)p; m++) {
    if (machine_names == NULL)
      g_snprintf(name, sizeof name, "n%d", m);
    int id = ns_topology_add_node(t, machine_names != NULL ? machine_names[m] : name,
                                  NS_NODE_MACHINE, 0, error);
    ok = id >= 0;
    if (ok) {
      ns_shape_apply_node(t, id, o);
      ok = ns_topology_add_link(t, id, m / d->nodes, ns_shape_link_bandwidth(o, FALSE),
                                o->latency, 0, error) >= 0;
    }
  }
  double up = ns_shape_link_bandwidth(o, TRUE);
  for (int g = 0; ok && g < d->groups; g++)
    for (int c = 0; c < d->chassis; c++)
      for (int r = 0; r < d->routers; r++) {
        Router x = { g, c, r };
        for (int r2 = r + 1; r2 < d->routers; r2++) /* green */
          ns_topology_add_link(t, router_id(d, x), router_id(d, (Router){ g, c, r2 }),
                               up * d->router_links, o->latency, 0, NULL);
        for (int c2 = c + 1; c2 < d->chassis; c2++) /* black */
          ns_topology_add_link(t, router_id(d, x), router_id(d, (Router){ g, c2, r }),
                               up * d->chassis_links, o->latency, 0, NULL);
      }
  for (int i = 0; ok && i < d->groups; i++) /* blue */
    for (int j = i + 1; j < d->groups; j++)
      ns_topology_add_link(t, i * d->chassis * d->routers + j,
                           j * d->chassis * d->routers + i, up * d->global_links, o->latency, 0,
                           NULL);
  int path[16];
  for (int a = 0; ok && a < (int)p; a++)
    for (int b = 0; ok && b < (int)p; b++) {
      if (a == b)
        continue;
      path[0] = (int)routers + a;
      int n = 1 + router_path(d, router_of(d, a), router_of(d, b), path + 1);
      path[n++] = (int)routers + b;
      ok = ns_topology_add_route(t, path, n, 0, error);
    }
  if (ok) {
    ns_topology_set_routing(t, NS_ROUTING_EXPLICIT, 0);
    ok = ns_topology_finalize(t, NULL, NULL, error);
  }
  if (!ok) {
    ns_topology_free(t);
    return NULL;
  }
  return t;
}

/**
 * \function ns_shape_dragonfly
 * \brief gen:dragonfly:G,C,R,N[,GL,CL,RL].
 *
 * \param args "G,C,R,N[,GL,CL,RL]" (multiplicities default 1).
 * \param o The generator options (link speeds, latency, switch and machine attributes).
 * \param suffix Appended to the topology's name.
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT for malformed arguments and those of ns_dragonfly_build().
 * \complexity O(P² · 8) for P machines.
 * \source docs/topology-format.md, "Generated topologies".
 */
NsTopology *ns_shape_dragonfly(const char *args, const NsShapeOptions *o, const char *suffix,
                               GError **error)
{
  g_auto(GStrv) parts = g_strsplit(args, ",", -1);
  guint n = g_strv_length(parts);
  int v[7] = { 0, 0, 0, 0, 1, 1, 1 };
  gboolean ok = n == 4 || n == 7;
  for (guint i = 0; ok && i < n; i++) {
    guint64 x;
    ok = g_ascii_string_to_unsigned(parts[i], 10, 1, 1000000, &x, NULL);
    v[i] = (int)x;
  }
  g_autofree char *source = g_strdup_printf("gen:dragonfly:%s%s", args, suffix);
  if (!ok) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s: expected dragonfly:G,C,R,N or "
                    "dragonfly:G,C,R,N,GL,CL,RL (groups, chassis per group, routers per "
                    "chassis, machines per router, and the link counts between groups, "
                    "chassis and routers; whole numbers from 1)", source);
    return NULL;
  }
  NsDragonfly d = { v[0], v[1], v[2], v[3], v[4], v[5], v[6] };
  return ns_dragonfly_build(&d, o, source, NULL, error);
}
