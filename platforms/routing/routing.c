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

/**
 * \function ns_topology_finalize
 * \brief Validates and freezes a topology and builds its routing.
 *
 * \param topo A topology being built (before ns_topology_finalize()).
 * \param warn Receives non-fatal findings, such as a pruned switch (may be NULL).
 * \param warn_data Passed to `warn`.
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT for fewer than 2 machines, a disconnected graph, or a routing the graph
 *        does not fit (tree: a link closing a cycle is named; dimension-order: grid neighbours
 *        not linked; dmodk/smodk: not a levelled fat tree; explicit: invalid paths).
 * \complexity O(|V| + |E|) plus the routing's set-up (shortest, ecmp: O(1) here, the
 *        next-hop table, O(|M|·(|V| + |E|)), built by the first route query).
 * \source dissertation §3.1 (leaf switches pruned); docs/architecture.md, "Routing is an object".
 */
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
