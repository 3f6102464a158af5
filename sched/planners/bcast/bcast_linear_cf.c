/* netsched — bcast/linear-cf: pipelined broadcast along the contention-free
 * linear tree of Algorithm 4.
 *
 * Faraj dissertation §3.4.2.1 (Algorithm 4, Lemmas 9–10, Theorem 4);
 * P. Patarasuk, A. Faraj and X. Yuan, "Pipelined Broadcast on Ethernet
 * Switched Clusters", IPDPS 2006.
 */
#include "sched/planners/bcast/bcast_dfs_internal.h"
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/*
 * ns_bcast_linear_cf — pipelined broadcast on the contention-free linear
 * tree.
 *
 * Steps (Algorithm 4):
 *  1. Starting from the switch the root n_r is attached to, number the
 *     switches s_0, s_1, ... in DFS order of the switch graph G'.
 *  2. List the machines of s_0 (n_r first), then those of s_1, and so on:
 *     m_0 = n_r -> m_1 -> ... -> m_{P-1} is the linear tree; it is
 *     contention-free (Theorem 4: machine links are used once, and the
 *     switch-to-switch communications follow the DFS order, Lemma 10).
 *  3. Pipeline the X segments down the chain (bcast_pipeline_internal.h): segment s
 *     leaves m_i in phase s + i, so the schedule has X + P − 2 phases, each
 *     contention-free and 1-port.
 * Where the paper is silent (bcast_dfs_internal.h): neighbours in link order, the
 * machines of a switch in increasing index.
 *
 * Params: msize, root, segment (0: one segment). Errors: NS_ERROR_INPUT for
 * a bad root or msize 0; NS_ERROR_UNSUPPORTED on a non-tree topology or
 * more than NS_BCAST_MAX_TRANSFERS transfers.
 * Time O(|V| + X·P) (the order is O(|V| + P·depth)); memory O(|V| + X·P).
 */
NsSchedule *ns_bcast_linear_cf(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "linear-cf", &x, &seg, error))
    return NULL;
  g_autoptr(NsBcastDfs) d = ns_bcast_dfs_new(topo, params->root, error);
  if (d == NULL)
    return NULL;
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(d->n, params->root);
  for (int i = 1; i < d->n; i++)
    ns_bcast_tree_add(t, d->m[i - 1], d->m[i]);
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "linear-cf", x, seg);
}
