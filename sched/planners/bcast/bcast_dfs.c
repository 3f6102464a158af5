/* netsched — Algorithm 4's DFS machine order and Algorithm 5's O(1)
 * contention test. See bcast_dfs_internal.h. */
#include "sched/planners/bcast/bcast_dfs_internal.h"
#include "platforms/model/error.h"

void ns_bcast_dfs_free(NsBcastDfs *d)
{
  if (d == NULL)
    return;
  g_free(d->m);
  g_free(d->sw);
  g_free(d->switch_node);
  g_free(d->sw_parent);
  g_free(d->sw_depth);
  g_free(d->sw_end);
  g_free(d->up);
  g_free(d->down);
  g_free(d);
}

/* Switch a machine hangs from (machines have exactly one link). */
static int machine_switch(const NsTopology *topo, int machine)
{
  int node = ns_topology_machine_node(topo, machine);
  return ns_topology_link_other(topo, ns_topology_incident(topo, node)[0], node);
}

/* LCA of two switches given as DFS numbers. O(depth). */
static int lca(const NsBcastDfs *d, int a, int b)
{
  while (d->sw_depth[a] > d->sw_depth[b])
    a = d->sw_parent[a];
  while (d->sw_depth[b] > d->sw_depth[a])
    b = d->sw_parent[b];
  while (a != b) {
    a = d->sw_parent[a];
    b = d->sw_parent[b];
  }
  return a;
}

/* Step 1 of Algorithm 4: DFS of the switch graph G' from `start`,
 * neighbours in link order; fills switch_node, sw_parent, sw_depth, sw_end
 * and dfs_of[node]. Iterative, O(|V|). */
static void number_switches(const NsTopology *topo, NsBcastDfs *d, int start, int *dfs_of)
{
  int n_nodes = ns_topology_n_nodes(topo);
  int *stack = g_new(int, n_nodes), *next_link = g_new0(int, n_nodes);
  int top = 0, count = 0;
  dfs_of[start] = count;
  d->switch_node[count] = start;
  d->sw_parent[count] = -1;
  d->sw_depth[count] = 0;
  count++;
  stack[top++] = start;
  while (top > 0) {
    int v = stack[top - 1];
    const int *inc = ns_topology_incident(topo, v);
    if (next_link[v] == ns_topology_degree(topo, v)) {
      d->sw_end[dfs_of[v]] = count - 1;
      top--;
      continue;
    }
    int u = ns_topology_link_other(topo, inc[next_link[v]++], v);
    if (ns_topology_node(topo, u)->kind != NS_NODE_SWITCH || dfs_of[u] >= 0)
      continue;
    dfs_of[u] = count;
    d->switch_node[count] = u;
    d->sw_parent[count] = dfs_of[v];
    d->sw_depth[count] = d->sw_depth[dfs_of[v]] + 1;
    count++;
    stack[top++] = u;
  }
  d->n_switches = count;
  g_free(stack);
  g_free(next_link);
}

NsBcastDfs *ns_bcast_dfs_new(const NsTopology *topo, int root, GError **error)
{
  if (ns_topology_routing(topo) != NS_ROUTING_TREE) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "contention-free broadcast trees (Algorithms 4 and 5) need a tree "
                    "topology (unique-path routing)");
    return NULL;
  }
  int p = ns_topology_n_machines(topo), n_sw = ns_topology_n_switches(topo);
  int n_nodes = ns_topology_n_nodes(topo);
  NsBcastDfs *d = g_new0(NsBcastDfs, 1);
  d->n = p;
  d->switch_node = g_new(int, n_sw);
  d->sw_parent = g_new(int, n_sw);
  d->sw_depth = g_new(int, n_sw);
  d->sw_end = g_new(int, n_sw);
  int *dfs_of = g_new(int, n_nodes);
  for (int v = 0; v < n_nodes; v++)
    dfs_of[v] = -1;
  number_switches(topo, d, machine_switch(topo, root), dfs_of);

  /* Step 2: machines switch by switch in DFS order (counting sort by the
   * DFS number of their switch keeps increasing machine index), root first. */
  int *start = g_new0(int, d->n_switches + 1);
  int *msw = g_new(int, p);
  for (int m = 0; m < p; m++) {
    msw[m] = dfs_of[machine_switch(topo, m)];
    start[msw[m] + 1]++;
  }
  for (int s = 0; s < d->n_switches; s++)
    start[s + 1] += start[s];
  d->m = g_new(int, p);
  d->sw = g_new(int, p);
  int *fill = g_memdup2(start, sizeof(int) * (gsize)d->n_switches);
  fill[0]++; /* position 0 is the root's */
  d->m[0] = root;
  for (int m = 0; m < p; m++)
    if (m != root)
      d->m[fill[msw[m]]++] = m;
  for (int i = 0; i < p; i++)
    d->sw[i] = msw[d->m[i]];

  /* Tables of the contention test (bcast_dfs_internal.h). */
  d->up = g_new(int, p);
  d->down = g_new(int, p);
  for (int i = 0; i < p; i++) {
    d->up[i] = i + 1 < p ? d->sw_end[lca(d, d->sw[i], d->sw[i + 1])] : d->sw_end[d->sw[i]];
    d->down[i] = i > 0 ? lca(d, d->sw[i - 1], d->sw[i]) : d->sw[0];
  }
  g_free(fill);
  g_free(msw);
  g_free(start);
  g_free(dfs_of);
  return d;
}
