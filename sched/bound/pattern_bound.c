/* netsched — the bound of a size pattern (pattern_bound.h): ports and
 * routed bytes per directed link. Faraj & Yuan §3 (the bottleneck link),
 * weighted by bytes; Liu Gang et al. §II (port models). */
#include "sched/bound/pattern_bound.h"
#include "platforms/model/error.h"
#include "sched/ir/route.h"
#include <string.h>

static int compare_desc(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y);
}

/* Bandwidth of the `ports` fastest links of machine m (bit/s). */
static double port_bandwidth(const NsTopology *t, int m)
{
  int v = ns_topology_machine_node(t, m);
  int deg = ns_topology_degree(t, v);
  g_autofree double *bw = g_new(double, MAX(deg, 1));
  const int *inc = ns_topology_incident(t, v);
  for (int k = 0; k < deg; k++)
    bw[k] = ns_topology_link(t, inc[k])->bandwidth;
  qsort(bw, (size_t)deg, sizeof(double), compare_desc);
  int ports = MIN(ns_topology_machine_ports(t, m), deg);
  double sum = 0;
  for (int k = 0; k < ports; k++)
    sum += bw[k];
  return sum;
}

static void offer(NsPatternBound *out, NsBoundKind kind, int machine, int edge, uint64_t bytes,
                  double bandwidth)
{
  if (bandwidth <= 0 || bytes == 0)
    return;
  double s = (double)bytes * 8 / bandwidth;
  if (s > out->seconds * (1 + 1e-12)) {
    out->seconds = s;
    out->kind = kind;
    out->machine = machine;
    out->edge = edge;
    out->bytes = bytes;
    out->bandwidth = bandwidth;
  }
}

static gboolean check_fits(const NsTopology *topo, const NsSizePattern *pat, GError **error)
{
  if (pat->p != ns_topology_n_machines(topo)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "the pattern has %d machines, the topology %d",
                    pat->p, ns_topology_n_machines(topo));
    return FALSE;
  }
  return TRUE;
}

/**
 * \function ns_pattern_link_bytes
 * \brief The bytes a pattern puts on every directed link.
 *
 * alltoallv: each pair's bytes on every edge of its route (the topology's
 * routing). allgatherv (trees only): each block on every edge of the
 * union of the routes from its origin to the others, once.
 *
 * \param topo A finalized topology of pat->p machines.
 * \param pat The pattern.
 * \param edge_bytes Receives ns_topology_n_edges() byte counts.
 * \param error NS_ERROR_INPUT when the machine counts differ;
 *        NS_ERROR_UNSUPPORTED for allgatherv off a tree, or when the walk
 *        exceeds NS_ROUTED_LOAD_MAX_WORK route steps.
 * \return TRUE, or FALSE.
 * \errors See above.
 * \complexity O(p² · route length).
 * \source Faraj & Yuan §3 (link loads); docs/pattern-format.md.
 */
gboolean ns_pattern_link_bytes(const NsTopology *topo, const NsSizePattern *pat,
                               uint64_t *edge_bytes, GError **error)
{
  if (!check_fits(topo, pat, error))
    return FALSE;
  int p = pat->p, n_edges = ns_topology_n_edges(topo);
  gboolean a2a = pat->collective == NS_COLL_ALLTOALLV;
  if (!a2a && ns_topology_routing(topo) != NS_ROUTING_TREE) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "the link bound of an allgatherv pattern needs a tree (blocks may take "
                    "any path elsewhere)");
    return FALSE;
  }
  double work = (double)p * p * ns_topology_max_route_len(topo);
  if (work > NS_ROUTED_LOAD_MAX_WORK) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "walking the %d x %d routes exceeds the work limit", p, p);
    return FALSE;
  }
  memset(edge_bytes, 0, sizeof(uint64_t) * (size_t)n_edges);
  g_autoptr(NsRouteTable) rt = ns_route_table_new(topo);
  g_autofree int *route = g_new(int, ns_topology_max_route_len(topo) + 1);
  g_autofree int *seen = g_new(int, MAX(n_edges, 1));
  for (int e = 0; e < n_edges; e++)
    seen[e] = -1;
  for (int i = 0; i < p; i++)
    for (int j = 0; j < p; j++) {
      uint64_t b = a2a ? pat->bytes[(uint64_t)i * p + j] : pat->bytes[i];
      if (i == j || b == 0)
        continue;
      int n = ns_route_table_route(rt, ns_topology_machine_node(topo, i),
                                   ns_topology_machine_node(topo, j), route);
      for (int k = 0; k < n; k++) {
        if (!a2a && seen[route[k]] == i)
          continue; /* block i crosses each edge once */
        seen[route[k]] = i;
        edge_bytes[route[k]] += b;
      }
    }
  return TRUE;
}

/**
 * \function ns_pattern_bound
 * \brief The transmission lower bound of a size pattern on a topology.
 *
 * The largest of the machines' port bounds (bytes sent, received, over
 * their ports' bandwidth) and the directed links' (routed bytes over the
 * link's bandwidth; allgatherv on trees only). The first found wins ties,
 * ports before links.
 *
 * \param topo A finalized topology of pat->p machines.
 * \param pat The pattern.
 * \param out Receives the bound (seconds 0 for a pattern that moves
 *        nothing).
 * \param error NS_ERROR_INPUT when the machine counts differ.
 * \return TRUE, or FALSE.
 * \errors NS_ERROR_INPUT (see above). Link loads past
 *         NS_ROUTED_LOAD_MAX_WORK, or of allgatherv off a tree, are left
 *         out (out->links FALSE), not an error.
 * \complexity O(p² · route length) with the links, O(p² + |E|) without.
 * \source Faraj & Yuan §3; Liu Gang et al. §II; docs/pattern-format.md.
 */
gboolean ns_pattern_bound(const NsTopology *topo, const NsSizePattern *pat, NsPatternBound *out,
                          GError **error)
{
  if (!check_fits(topo, pat, error))
    return FALSE;
  *out = (NsPatternBound){ .kind = NS_BOUND_PORT_SEND, .machine = -1, .edge = -1 };
  int p = pat->p;
  uint64_t total = ns_size_pattern_total(pat);
  for (int m = 0; m < p; m++) {
    uint64_t sends = 0, recvs = 0;
    if (pat->collective == NS_COLL_ALLTOALLV) {
      for (int j = 0; j < p; j++)
        if (j != m) {
          sends += pat->bytes[(uint64_t)m * p + j];
          recvs += pat->bytes[(uint64_t)j * p + m];
        }
    } else {
      sends = pat->bytes[m];
      recvs = total - pat->bytes[m];
    }
    double bw = port_bandwidth(topo, m);
    offer(out, NS_BOUND_PORT_SEND, m, -1, sends, bw);
    offer(out, NS_BOUND_PORT_RECV, m, -1, recvs, bw);
  }
  int n_edges = ns_topology_n_edges(topo);
  g_autofree uint64_t *load = g_new(uint64_t, MAX(n_edges, 1));
  out->links = ns_pattern_link_bytes(topo, pat, load, NULL);
  if (out->links)
    for (int e = 0; e < n_edges; e++)
      offer(out, NS_BOUND_LINK, -1, e, load[e], ns_topology_link(topo, ns_edge_link(e))->bandwidth);
  return TRUE;
}

/**
 * \function ns_pattern_bound_describe
 * \brief What binds a pattern's bound, in words.
 *
 * \param topo The topology the bound was computed on.
 * \param b The bound (ns_pattern_bound()).
 * \return "link s0->s1", "n3's sending port (1-port)" or "nothing (the
 *         pattern moves no bytes)"; newly allocated.
 * \errors none.
 * \complexity O(1).
 * \source docs/pattern-format.md, "The bound".
 */
char *ns_pattern_bound_describe(const NsTopology *topo, const NsPatternBound *b)
{
  if (b->kind == NS_BOUND_LINK && b->edge >= 0) {
    g_autofree char *e = ns_topology_edge_name(topo, b->edge);
    return g_strdup_printf("link %s", e);
  }
  if (b->machine < 0)
    return g_strdup("nothing (the pattern moves no bytes)");
  g_autofree char *ports = ns_topology_machine_port_text(topo, b->machine);
  return g_strdup_printf("%s's %s port (%s)", ns_topology_machine_name(topo, b->machine),
                         b->kind == NS_BOUND_PORT_SEND ? "sending" : "receiving", ports);
}
