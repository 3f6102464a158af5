/* netsched — allgather/lr1: the DFS contention-free logical ring. */
#include "sched/planners/allgather/allgather_ring_common_internal.h"
#include "sched/planners/registry.h"

/* The switch a machine hangs from. */
static int machine_switch(const NsTopology *topo, int m)
{
  int v = ns_topology_machine_node(topo, m);
  return ns_topology_link_other(topo, ns_topology_incident(topo, v)[0], v);
}

void ns_ring_lr1(const NsTopology *topo, int *ring)
{
  /* The preorder of the whole tree restricted to switches is a DFS of the
   * switch subgraph G' from the anchor. A counting sort by the switch's
   * DFS rank, stable in machine index, gives the groups. */
  int n = ns_topology_n_nodes(topo), p = ns_topology_n_machines(topo);
  const int *pre = ns_tree_preorder(topo);
  int *start = g_new0(int, n + 1), *rank = g_new0(int, n);
  for (int k = 0; k < n; k++)
    rank[pre[k]] = k;
  for (int m = 0; m < p; m++)
    start[rank[machine_switch(topo, m)] + 1]++;
  for (int k = 0; k < n; k++)
    start[k + 1] += start[k];
  for (int m = 0; m < p; m++)
    ring[start[rank[machine_switch(topo, m)]]++] = m;
  g_free(start);
  g_free(rank);
}

/*
 * ns_allgather_lr1 — Algorithm 1 of the dissertation (§3.3.2.1), LR1 of
 * §3.3.3.
 *
 * Steps:
 *  1. Number the switches s_0, s_1, … in the order a depth-first search of
 *     the switch subgraph G' reaches them (from the tree's anchor, the
 *     first switch declared; children in link order).
 *  2. Local numbering: the X_i machines on s_i are n_{i,0} … n_{i,X_i−1}
 *     (increasing machine index).
 *  3. The ring n_{0,0} → … → n_{0,X_0−1} → n_{1,0} → … → n_{|S|−1,X−1} →
 *     n_{0,0}; its inter-switch traffic is the switch pattern
 *     s_0 → s_1 → … → s_{|S|−1} → s_0 of Lemma 7, so the ring is contention
 *     free on every tree (Theorem 2).
 *  4. The logical-ring all-gather over it (§3.3.1.1): p−1 phases.
 * The maximum path length can be as large as the tree's diameter (the wrap
 * s_{|S|−1} → s_0); lr2 and lr3 shorten it.
 * Time O(|V| + p²) (the schedule has p(p−1) transfers). Errors:
 * none.
 */
NsSchedule *ns_allgather_lr1(const NsTopology *topo, const NsPlanParams *params,
                             GError **error)
{
  int *ring = g_new(int, ns_topology_n_machines(topo));
  ns_ring_lr1(topo, ring);
  NsSchedule *s = ns_allgather_ring_schedule(topo, "lr1", params, ring);
  g_free(ring);
  return s;
}
