/* netsched — the logical-ring all-gather schedule shared by allgather/ring,
 * lr1, lr2 and lr3. See allgather_ring_common_internal.h. */
#include "sched/planners/allgather/allgather_ring_common_internal.h"
#include "platforms/routing/tree.h"
#include "sched/planners/registry.h"

NsSchedule *ns_allgather_ring_schedule(const NsTopology *topo, const char *algorithm,
                                       const NsPlanParams *params, const int *ring)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLGATHER, algorithm, params->msize);
  ns_plan_stream(s, params); /* each phase stands alone */
  ns_schedule_reserve(s, (uint32_t)(p - 1), (uint64_t)p * (p - 1));
  for (int k = 0; k < p - 1; k++) {
    ns_schedule_begin_phase(s);
    /* written in place; ring position i sends the block of position
     * (i − k) mod p to position i + 1 mod p, counted without a division */
    NsTransfer *phase = ns_schedule_add_room(s, (uint32_t)p);
    for (int i = 0, block = p - k; i < p; i++, block++) {
      block = block == p ? 0 : block;
      phase[i] = (NsTransfer){ .src = ring[i], .dst = ring[i + 1 == p ? 0 : i + 1], .n_chunks = 1,
                               .chunk = (uint32_t)ring[block] };
    }
  }
  return s;
}

int ns_ring_max_path_length(const NsTopology *topo, const int *ring)
{
  int p = ns_topology_n_machines(topo), best = 0;
  for (int i = 0; i < p; i++) {
    int len = ns_path_length(topo, ring[i], ring[(i + 1) % p]);
    best = MAX(best, len);
  }
  return best;
}

static gint compare_int(gconstpointer a, gconstpointer b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

void ns_ring_children(const NsTopology *topo, int sw, int parent, GArray *machines,
                      GArray *switches)
{
  g_array_set_size(machines, 0);
  g_array_set_size(switches, 0);
  const int *inc = ns_topology_incident(topo, sw);
  for (int e = 0; e < ns_topology_degree(topo, sw); e++) {
    int w = ns_topology_link_other(topo, inc[e], sw);
    if (w == parent)
      continue;
    int m = ns_topology_node_machine(topo, w);
    if (m >= 0)
      g_array_append_val(machines, m);
    else
      g_array_append_val(switches, w);
  }
  g_array_sort(machines, compare_int);
}

int ns_ring_unfold(const NsTopology *topo, NsRingExpand expand, void *user, int *ring)
{
  GArray *stack = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *items = g_array_new(FALSE, FALSE, sizeof(int));
  int item = -1 - ns_tree_anchor(topo), pos = 0;
  g_array_append_val(stack, item);
  while (stack->len > 0) {
    item = g_array_index(stack, int, stack->len - 1);
    g_array_set_size(stack, stack->len - 1);
    if (item >= 0) {
      ring[pos++] = item;
      continue;
    }
    g_array_set_size(items, 0);
    expand(-1 - item, items, user);
    for (guint i = items->len; i-- > 0;) /* reversed: the first on top */
      g_array_append_val(stack, g_array_index(items, int, i));
  }
  g_array_free(stack, TRUE);
  g_array_free(items, TRUE);
  return pos;
}
