/* netsched — tree routing: the unique path of a switched tree.
 *
 * The routing of Faraj & Yuan's Ethernet clusters (§3): switches form a
 * tree (spanning-tree Ethernet forwards on one), machines are its leaves,
 * and a message follows the unique path. The tree is rooted at an internal
 * anchor (the first switch); parent, depth, the directed edges to and from
 * the parent and the machines below every node are precomputed, so a path
 * is climbed in O(length) without allocation (the ns_tree_* queries). */
#include "platforms/model/error.h"
#include "platforms/model/topology_internal.h"

#define NODE(t, i) (&g_array_index((t)->nodes, NsNode, (i)))
#define LINK(t, i) (&g_array_index((t)->links, NsLink, (i)))

/* Tree routing's machines are leaves, each with one link to a switch. */
static gboolean check_leaves(NsTopology *t, GError **error)
{
  int switches = 0;
  for (guint v = 0; v < t->nodes->len; v++) {
    const NsNode *nd = NODE(t, v);
    if (nd->kind == NS_NODE_SWITCH) {
      switches++;
      continue;
    }
    int deg = t->inc_start[v + 1] - t->inc_start[v];
    if (deg > 1) {
      const NsLink *second = LINK(t, t->inc[t->inc_start[v] + 1]);
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, second->line,
                      "machine '%s' has %d links: under tree routing a machine is a leaf with "
                      "one link to a switch (a direct network routes otherwise: routing "
                      "dimension-order or shortest)",
                      nd->name, deg);
      return FALSE;
    }
    int li = t->inc[t->inc_start[v]];
    int other = ns_topology_link_other(t, li, (int)v);
    if (NODE(t, other)->kind == NS_NODE_MACHINE) {
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, LINK(t, li)->line,
                      "machine '%s' is linked to machine '%s': under tree routing machines "
                      "connect only to switches",
                      nd->name, NODE(t, other)->name);
      return FALSE;
    }
  }
  if (switches == 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, 0, "no switch in the topology");
    return FALSE;
  }
  return TRUE;
}

/* Breadth-first search from the first switch: every node is reached exactly
 * once through a tree link; the first other link found closes a cycle (or
 * doubles a link). The graph is known to be connected. O(|V| + |E|). */
static gboolean check_tree(NsTopology *t, GError **error)
{
  int n = (int)t->nodes->len;
  int start = -1;
  for (int v = 0; v < n && start < 0; v++)
    if (NODE(t, v)->kind == NS_NODE_SWITCH)
      start = v;
  int *via = g_new(int, n); /* link used to reach v, -2 = unreached */
  int *queue = g_new(int, n);
  for (int v = 0; v < n; v++)
    via[v] = -2;
  int head = 0, tail = 0;
  via[start] = -1;
  queue[tail++] = start;
  gboolean ok = TRUE;
  while (ok && head < tail) {
    int v = queue[head++];
    for (int k = t->inc_start[v]; k < t->inc_start[v + 1]; k++) {
      int li = t->inc[k];
      if (li == via[v])
        continue;
      int w = ns_topology_link_other(t, li, v);
      if (via[w] != -2) {
        const NsLink *l = LINK(t, li);
        ns_set_error_at(error, NS_ERROR_INPUT, t->source, l->line,
                        "link %s-%s closes a cycle: tree routing needs a tree (unique paths, as "
                        "spanning-tree Ethernet forwards); for another fabric declare its "
                        "routing (dmodk, dimension-order, shortest) or take a spanning tree",
                        NODE(t, l->a)->name, NODE(t, l->b)->name);
        ok = FALSE;
        break;
      }
      via[w] = li;
      queue[tail++] = w;
    }
  }
  g_free(via);
  g_free(queue);
  return ok;
}

/* Roots the tree at the first switch; computes preorder, parent, depth,
 * parent edges and machines below every node. Iterative, O(|V|). */
static void build_tree_view(NsTopology *t)
{
  int n = (int)t->nodes->len;
  t->parent = g_new(int, n);
  t->depth = g_new(int, n);
  t->up_edge = g_new(int, n);
  t->down_edge = g_new(int, n);
  t->below = g_new0(int, n);
  t->preorder = g_new(int, n);
  t->anchor = -1;
  for (int v = 0; v < n && t->anchor < 0; v++)
    if (NODE(t, v)->kind == NS_NODE_SWITCH)
      t->anchor = v;
  int *stack = g_new(int, n);
  int top = 0, count = 0, max_depth = 0;
  t->parent[t->anchor] = -1;
  t->depth[t->anchor] = 0;
  t->up_edge[t->anchor] = t->down_edge[t->anchor] = -1;
  stack[top++] = t->anchor;
  while (top > 0) {
    int v = stack[--top];
    t->preorder[count++] = v;
    /* Push children in reverse link order so they are visited in order. */
    for (int k = t->inc_start[v + 1] - 1; k >= t->inc_start[v]; k--) {
      int li = t->inc[k];
      int w = ns_topology_link_other(t, li, v);
      if (w == t->parent[v])
        continue;
      t->parent[w] = v;
      t->depth[w] = t->depth[v] + 1;
      max_depth = MAX(max_depth, t->depth[w]);
      t->up_edge[w] = ns_edge_from_link(t, li, w);
      t->down_edge[w] = ns_edge_from_link(t, li, v);
      stack[top++] = w;
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    int v = t->preorder[i];
    if (NODE(t, v)->kind == NS_NODE_MACHINE)
      t->below[v] += 1;
    if (t->parent[v] >= 0)
      t->below[t->parent[v]] += t->below[v];
  }
  g_free(stack);
  t->max_route_len = 2 * max_depth;
}

static gboolean tree_build(NsTopology *t, GError **error)
{
  if (!check_leaves(t, error) || !check_tree(t, error))
    return FALSE;
  build_tree_view(t);
  return TRUE;
}

/* Two passes: find the lowest common ancestor by climbing from the deeper
 * end, then write the upward half forwards and the downward half
 * backwards, so no scratch buffer is needed. O(length). */
static int tree_route(const NsTopology *t, int src, int dst, int *edges)
{
  int a = src, b = dst, up = 0, down = 0;
  while (t->depth[a] > t->depth[b]) { a = t->parent[a]; up++; }
  while (t->depth[b] > t->depth[a]) { b = t->parent[b]; down++; }
  while (a != b) { a = t->parent[a]; b = t->parent[b]; up++; down++; }
  int n = 0;
  for (int v = src; n < up; v = t->parent[v])
    edges[n++] = t->up_edge[v];
  int k = up + down;
  for (int v = dst; k > up; v = t->parent[v])
    edges[--k] = t->down_edge[v];
  return up + down;
}

static char *tree_describe(const NsTopology *t)
{
  return g_strdup("tree: the unique path of the switch tree");
}

const NsRoutingOps ns_routing_tree_ops = {
  .kind = NS_ROUTING_TREE,
  .build = tree_build,
  .route = tree_route,
  .describe = tree_describe,
  .free_data = NULL, /* the tree view is freed with the topology */
};
