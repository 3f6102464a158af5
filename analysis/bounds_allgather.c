/* netsched — all-gather bounds and ring path lengths. See bounds_allgather.h. */
#include "analysis/bounds_allgather.h"
#include "platforms/model/error.h"
#include "platforms/routing/tree.h"
#include "sched/planners/allgather/allgather_ring_common_internal.h"

/**
 * \function ns_allgather_bandwidth
 * \brief The slowest machine link: the B of the all-gather bounds.
 *
 * \param topo A finalized topology.
 * \return Bit/s.
 * \errors none.
 * \complexity O(P).
 * \source dissertation §3.3 (all-gather: Theorem 3, Algorithms 1-3).
 */
double ns_allgather_bandwidth(const NsTopology *topo)
{
  double b = G_MAXDOUBLE;
  for (int m = 0; m < ns_topology_n_machines(topo); m++) {
    int v = ns_topology_machine_node(topo, m);
    b = MIN(b, ns_topology_link(topo, ns_topology_incident(topo, v)[0])->bandwidth);
  }
  return b;
}

/* (P−1)·msize·8/B, B the slowest machine link (§3.3.1). */
static double one_port_bound(const NsTopology *topo, uint64_t msize)
{
  int p = ns_topology_n_machines(topo);
  return (double)(p - 1) * (double)msize * 8.0 / ns_allgather_bandwidth(topo);
}

/**
 * \function ns_bounds_max_ports
 * \brief The most ports of any machine.
 *
 * \param topo A finalized topology.
 * \return 1 when every machine is 1-port, else the largest ns_topology_machine_ports().
 * \errors none.
 * \complexity O(P).
 * \source Liu Gang et al. §II (port models).
 */
int ns_bounds_max_ports(const NsTopology *topo)
{
  int ports = 1;
  for (int m = 0; m < ns_topology_n_machines(topo); m++)
    ports = MAX(ports, ns_topology_machine_ports(topo, m));
  return ports;
}

static int compare_desc(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y);
}

/**
 * \function ns_allgather_fluid_bound
 * \brief The all-gather bound when blocks may be split across a machine's ports.
 *
 * Every machine receives P−1 blocks through its ports (its fastest `ports` links, all of
 * them under all-port), so it needs (P−1)·msize·8 over their summed bandwidth:
 * (P−1)·msize/(ports·B) with equal links; the largest over the machines.
 *
 * \param topo A finalized topology.
 * \param msize Bytes of a block.
 * \return Seconds.
 * \errors none.
 * \complexity O(|V| + |E|).
 * \source Liu Gang et al. §II (the all-port model); dissertation §3.3.1 (one port).
 */
double ns_allgather_fluid_bound(const NsTopology *topo, uint64_t msize)
{
  int p = ns_topology_n_machines(topo);
  double worst = 0;
  GArray *bw = g_array_new(FALSE, FALSE, sizeof(double));
  for (int m = 0; m < p; m++) {
    int v = ns_topology_machine_node(topo, m);
    const int *inc = ns_topology_incident(topo, v);
    g_array_set_size(bw, 0);
    for (int k = 0; k < ns_topology_degree(topo, v); k++)
      g_array_append_val(bw, ns_topology_link(topo, inc[k])->bandwidth);
    qsort(bw->data, bw->len, sizeof(double), compare_desc);
    int ports = MIN(ns_topology_machine_ports(topo, m), (int)bw->len);
    double capacity = 0;
    for (int k = 0; k < ports; k++)
      capacity += g_array_index(bw, double, k);
    if (capacity > 0)
      worst = MAX(worst, (double)(p - 1) * (double)msize * 8.0 / capacity);
  }
  g_array_unref(bw);
  return worst;
}

/**
 * \function ns_allgather_lower_bound
 * \brief The lower bound of any all-gather for the machines' port model.
 *
 * One-port machines: (P−1)·msize·8/B, B the slowest machine link (§3.3.1). Machines with
 * several ports (all-port tori, k-port): the whole-block bound of ns_lower_bound() — every
 * machine receives P−1 blocks through its ports, ⌈(P−1)/ports⌉ block times with equal links,
 * or a cut (a grid bisection, a bridge) when larger; the design study and the verifier use the
 * same (ns_lower_bound_routed() keeps the cut bound for the all-gather).
 *
 * \param topo A finalized topology.
 * \param msize Bytes of a block.
 * \return Seconds.
 * \errors none.
 * \complexity O(P) on one-port fabrics, that of ns_lower_bound() otherwise.
 * \source dissertation §3.3 (one port); Liu Gang et al. §II (all-port); docs/algorithms.md,
 *         "All-gather bounds by port model".
 */
double ns_allgather_lower_bound(const NsTopology *topo, uint64_t msize)
{
  if (ns_bounds_max_ports(topo) == 1)
    return one_port_bound(topo, msize);
  NsLowerBound b;
  ns_lower_bound(topo, NS_COLL_ALLGATHER, msize, -1, 1, &b);
  return b.seconds;
}

/* The port-model members of `out`. */
static void fill_port_model(const NsTopology *topo, uint64_t msize, NsAllgatherBound *out)
{
  out->max_ports = ns_bounds_max_ports(topo);
  out->one_port_bound = one_port_bound(topo, msize);
  out->fluid_bound = ns_allgather_fluid_bound(topo, msize);
  ns_lower_bound(topo, NS_COLL_ALLGATHER, msize, -1, 1, &out->port_model);
  out->time_bound = out->max_ports == 1 ? out->one_port_bound : out->port_model.seconds;
}

static gboolean any_store_and_forward(const NsTopology *topo)
{
  for (int v = 0; v < ns_topology_n_nodes(topo); v++) {
    const NsNode *n = ns_topology_node(topo, v);
    if (n->kind == NS_NODE_SWITCH && n->forwarding == NS_FORWARD_STORE_AND_FORWARD)
      return TRUE;
  }
  return FALSE;
}

/**
 * \function ns_allgather_ring_time
 * \brief The estimate of a contention-free ring of maximum path length d.
 *
 * \param topo A finalized topology.
 * \param msize Bytes of a block.
 * \param d The ring's maximum path length (switches).
 * \param pkt Packet size for the store-and-forward term.
 * \return Seconds: (P−1)·msize·8/B + (d−1)(P−1)·pkt·8/B, the second term only when some switch
 *        stores and forwards.
 * \errors none.
 * \complexity O(|V|).
 * \source dissertation §3.3 (all-gather: Theorem 3, Algorithms 1-3).
 */
double ns_allgather_ring_time(const NsTopology *topo, uint64_t msize, int d, uint64_t pkt)
{
  int p = ns_topology_n_machines(topo);
  double t = one_port_bound(topo, msize);
  if (d > 1 && any_store_and_forward(topo))
    t += (double)(d - 1) * (p - 1) * (double)pkt * 8.0 / ns_allgather_bandwidth(topo);
  return t;
}

/**
 * \function ns_allgather_lr1_path
 * \brief The maximum path length of Algorithm 1's ring (LR1).
 *
 * \param topo A finalized topology.
 * \return Switches, or −1 on a fabric other than a switch tree.
 * \errors none.
 * \complexity that of the ring's construction, O(P·depth).
 * \source dissertation §3.3, Algorithm 1.
 */
int ns_allgather_lr1_path(const NsTopology *topo)
{
  if (ns_topology_routing(topo) != NS_ROUTING_TREE)
    return -1; /* the rings are built on switch trees */
  int *ring = g_new(int, ns_topology_n_machines(topo));
  ns_ring_lr1(topo, ring);
  int d = ns_ring_max_path_length(topo, ring);
  g_free(ring);
  return d;
}

/**
 * \function ns_allgather_lr2_path
 * \brief The maximum path length of Algorithm 2's ring (LR2).
 *
 * \param topo A finalized topology.
 * \return Switches, or −1 on another fabric or when Theorem 3's condition fails.
 * \errors none.
 * \complexity O(P·depth).
 * \source dissertation §3.3, Algorithm 2, Theorem 3.
 */
int ns_allgather_lr2_path(const NsTopology *topo)
{
  if (ns_topology_routing(topo) != NS_ROUTING_TREE)
    return -1;
  int *ring = g_new(int, ns_topology_n_machines(topo));
  int d = ns_ring_lr2(topo, ring, NULL) ? ns_ring_max_path_length(topo, ring) : -1;
  g_free(ring);
  return d;
}

/**
 * \function ns_allgather_lr3_path
 * \brief The maximum path length of Algorithm 3's optimal ring (LR3).
 *
 * \param topo A finalized topology.
 * \param error Set on failure (see errors).
 * \return Switches, or −1.
 * \errors NS_ERROR_UNSUPPORTED on a fabric other than a switch tree, or the error of
 *        ns_ring_lr3() when the exact programme refuses the topology.
 * \complexity that of LR3's dynamic programme.
 * \source dissertation §3.3, Algorithm 3.
 */
int ns_allgather_lr3_path(const NsTopology *topo, GError **error)
{
  if (ns_topology_routing(topo) != NS_ROUTING_TREE) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0, "LR3 needs a switch tree");
    return -1;
  }
  int *ring = g_new(int, ns_topology_n_machines(topo)), d = -1;
  if (!ns_ring_lr3(topo, ring, &d, error))
    d = -1;
  g_free(ring);
  return d;
}

/**
 * \function ns_allgather_bound
 * \brief Every all-gather bound and ring estimate of a topology in one go.
 *
 * \param topo A finalized topology.
 * \param msize Bytes of a block.
 * \param pkt Packet size for the store-and-forward term.
 * \param out Filled (lr3 −1 when LR3 refused).
 * \param error Set on failure (see errors).
 * \return FALSE only when LR3 refused the topology.
 * \errors those of ns_allgather_lr3_path().
 * \complexity that of the three rings.
 * \source dissertation §3.3 (all-gather: Theorem 3, Algorithms 1-3).
 */
gboolean ns_allgather_bound(const NsTopology *topo, uint64_t msize, uint64_t pkt,
                            NsAllgatherBound *out, GError **error)
{
  *out = (NsAllgatherBound){ 0 };
  out->n_machines = ns_topology_n_machines(topo);
  out->bandwidth = ns_allgather_bandwidth(topo);
  out->store_and_forward = any_store_and_forward(topo);
  fill_port_model(topo, msize, out);
  ns_allgather_two_hop(topo, &out->two_hop);
  out->lr1_path = ns_allgather_lr1_path(topo);
  out->lr2_path = out->two_hop.holds ? ns_allgather_lr2_path(topo) : -1;
  out->lr3_path = ns_allgather_lr3_path(topo, error);
  const int *paths[3] = { &out->lr1_path, &out->lr2_path, &out->lr3_path };
  double *times[3] = { &out->lr1_time, &out->lr2_time, &out->lr3_time };
  for (int i = 0; i < 3; i++)
    *times[i] = *paths[i] < 0 ? -1 : ns_allgather_ring_time(topo, msize, *paths[i], pkt);
  return out->lr3_path >= 0;
}

/**
 * \function ns_allgather_bounds
 * \brief The all-gather bound and ring estimates on any topology.
 *
 * On a switch tree the figures of ns_allgather_bound(); on any other
 * fabric the bound of the machines' port model alone (ns_allgather_lower_bound(), with the
 * fluid and one-port figures), the rings marked −1.
 *
 * \param topo A finalized topology.
 * \param msize Bytes per machine.
 * \param pkt Packet bytes for the store-and-forward estimates.
 * \param out Filled in every case.
 * \param error Where a refusal of the rings goes (may be NULL).
 * \return FALSE when the rings do not apply (not a tree) or LR3 refused the tree.
 * \errors NS_ERROR_UNSUPPORTED: not a switch tree ("logical rings need a tree
 *         topology (--spanning METHOD)"), or LR3's refusal.
 * \complexity that of ns_allgather_bound() on trees, O(|V| + |E|) otherwise.
 * \source dissertation §3.3.1.1 (the bound), §3.3.2 (the rings).
 */
gboolean ns_allgather_bounds(const NsTopology *topo, uint64_t msize, uint64_t pkt,
                             NsAllgatherBound *out, GError **error)
{
  *out = (NsAllgatherBound){ .n_machines = ns_topology_n_machines(topo), .lr1_path = -1,
                             .lr2_path = -1, .lr3_path = -1 };
  if (ns_topology_routing(topo) == NS_ROUTING_TREE)
    return ns_allgather_bound(topo, msize, pkt, out, error);
  out->bandwidth = ns_allgather_bandwidth(topo);
  fill_port_model(topo, msize, out);
  out->lr1_time = out->lr2_time = out->lr3_time = -1;
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "logical rings need a tree topology (--spanning METHOD)");
  return FALSE;
}
