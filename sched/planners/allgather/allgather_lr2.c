/* netsched — allgather/lr2: the 2-hop contention-free logical ring. */
#include "platforms/routing/tree.h"
#include "platforms/model/error.h"
#include "sched/planners/allgather/allgather_ring_common_internal.h"
#include "sched/planners/registry.h"

typedef struct {
  const NsTopology *topo;
  GArray *machines, *switches;
} Lr2;

/* m_0 t_0 m_1 t_1 … m_{i−1} t_{i−1} m_i … m_{j−1} (Figure 3.18). */
static void expand(int sw, GArray *items, void *user)
{
  Lr2 *st = user;
  ns_ring_children(st->topo, sw, ns_tree_parent(st->topo, sw), st->machines, st->switches);
  for (guint k = 0; k < st->machines->len; k++) {
    g_array_append_val(items, g_array_index(st->machines, int, k));
    if (k < st->switches->len) {
      int item = -1 - g_array_index(st->switches, int, k);
      g_array_append_val(items, item);
    }
  }
}

gboolean ns_ring_lr2(const NsTopology *topo, int *ring, GError **error)
{
  NsTwoHop th;
  if (!ns_allgather_two_hop(topo, &th)) {
    g_autofree char *why = ns_two_hop_describe(topo, &th);
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "allgather/lr2 needs every switch to have at least as many directly attached "
                "machines as directly attached switches (Theorem 3: no contention-free 2-hop "
                "ring exists otherwise): %s; use lr3 (optimal ring) or lr1",
                why);
    return FALSE;
  }
  Lr2 st = { .topo = topo, .machines = g_array_new(FALSE, FALSE, sizeof(int)),
             .switches = g_array_new(FALSE, FALSE, sizeof(int)) };
  ns_ring_unfold(topo, expand, &st, ring);
  g_array_free(st.machines, TRUE);
  g_array_free(st.switches, TRUE);
  return TRUE;
}

/*
 * ns_allgather_lr2 — Algorithm 2 of the dissertation (§3.3.2.3, the
 * constructive proof of Theorem 3), LR2 of §3.3.3.
 *
 * Precondition (Theorem 3): every switch has at least as many directly
 * attached machines as directly attached switches.
 * Steps (the tree rooted at its anchor, the first switch):
 *  1. Post-order over the switches: a switch with machines m_0 … m_{j−1}
 *     (increasing index) and sub-switches t_0 … t_{i−1} (link order; a
 *     non-root switch has j ≥ i+1, the root j ≥ i) gets the logical array
 *     m_0 → t_0^F … t_0^L → m_1 → t_1^F … t_1^L → … → m_{i−1} →
 *     t_{i−1}^F … t_{i−1}^L → m_i → … → m_{j−1}, whose first and last
 *     machines hang from the switch itself (Figure 3.18).
 *  2. The root's array closed into a ring (m_{j−1} → m_0, or t_{i−1}^L →
 *     m_0 when i = j).
 *  3. The logical-ring all-gather over it (§3.3.1.1): p−1 phases.
 * Every hop is machine → sub-switch's machine or back (2 switches) or
 * between two machines of one switch (1): contention-free with maximum path
 * length ≤ 2. Time O(|V| log |V| + p²). Errors: NS_ERROR_UNSUPPORTED
 * naming the first switch that violates the precondition.
 */
NsSchedule *ns_allgather_lr2(const NsTopology *topo, const NsPlanParams *params,
                             GError **error)
{
  int *ring = g_new(int, ns_topology_n_machines(topo));
  NsSchedule *s = NULL;
  if (ns_ring_lr2(topo, ring, error))
    s = ns_allgather_ring_schedule(topo, "lr2", params, ring);
  g_free(ring);
  return s;
}
