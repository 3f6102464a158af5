/* netsched — giving a topology its routing. The model (platforms/model/)
 * builds and checks the graph; finalising it here picks the routing — the one
 * the input states, or the one its shape implies — and builds its tables, so
 * the model never depends on the routings above it. */
#include "platforms/model/topology.h"
#include "platforms/model/topology_internal.h"

static const NsRoutingOps *routing_ops(NsRoutingKind kind)
{
  switch (kind) {
  case NS_ROUTING_TREE: return &ns_routing_tree_ops;
  case NS_ROUTING_DIMENSION_ORDER: return &ns_routing_grid_ops;
  case NS_ROUTING_DMODK: return &ns_routing_dmodk_ops;
  case NS_ROUTING_SMODK: return &ns_routing_smodk_ops;
  case NS_ROUTING_SHORTEST: return &ns_routing_shortest_ops;
  case NS_ROUTING_ECMP: return &ns_routing_ecmp_ops;
  case NS_ROUTING_EXPLICIT: return &ns_routing_explicit_ops;
  case NS_ROUTING_NONE: break;
  }
  return NULL;
}

gboolean ns_topology_finalize(NsTopology *t, NsWarnFunc warn, void *warn_data, GError **error)
{
  g_return_val_if_fail(!t->finalized, FALSE);
  if (!ns_topology_prepare(t, warn, warn_data, error))
    return FALSE;
  t->routing =
      t->routing_wanted != NS_ROUTING_NONE ? t->routing_wanted : ns_topology_default_routing(t);
  t->ops = routing_ops(t->routing);
  if (!t->ops->build(t, error)) {
    t->ops = NULL;
    return FALSE;
  }
  t->finalized = TRUE;
  return TRUE;
}
