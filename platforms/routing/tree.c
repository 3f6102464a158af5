/* netsched — properties of switch trees that planners and bounds share
 * (Faraj & Yuan §3, §4.1; dissertation §3.1, §3.3.2.3). See tree.h. */
#include "platforms/routing/tree.h"
#include <stdlib.h>

/* Machines on the child side of `link` in the anchor-rooted tree view. */
static int child_side(const NsTopology *t, int link)
{
  const NsLink *l = ns_topology_link(t, link);
  return ns_tree_parent(t, l->a) == l->b ? l->a : l->b;
}

/**
 * \function ns_a2a_link_loads
 * \brief The all-to-all load of every link of a tree: |M_u|·|M_v| each way.
 *
 * \param topo A finalized topology under tree routing.
 * \param loads Receives ns_topology_n_links() loads.
 * \errors none.
 * \complexity O(|V|).
 * \source Faraj and Yuan §3; dissertation §3.1.
 */
void ns_a2a_link_loads(const NsTopology *t, uint64_t *loads)
{
  uint64_t p = (uint64_t)ns_topology_n_machines(t);
  for (int i = 0; i < ns_topology_n_links(t); i++) {
    uint64_t below = (uint64_t)ns_tree_machines_below(t, child_side(t, i));
    loads[i] = below * (p - below);
  }
}

/* Machines in the branch of `node` that starts with `link`. */
static int branch_machines(const NsTopology *t, int node, int link)
{
  int other = ns_topology_link_other(t, link, node);
  if (ns_tree_parent(t, other) == node)
    return ns_tree_machines_below(t, other);
  return ns_topology_n_machines(t) - ns_tree_machines_below(t, node);
}

/* Number of branches of `u` holding machines, not counting link `via`. */
static int machine_branches(const NsTopology *t, int u, int via, int *last)
{
  int branches = 0;
  const int *inc = ns_topology_incident(t, u);
  for (int k = 0; k < ns_topology_degree(t, u); k++) {
    if (inc[k] == via || branch_machines(t, u, inc[k]) == 0)
      continue;
    branches++;
    *last = inc[k];
  }
  return branches;
}

/* §4.1: starting from u, reached over the bottleneck link `via`, step into
 * the only branch with machines while there is only one; every link crossed
 * is a bottleneck too, since it separates the same machine sets. */
static int walk_to_root(const NsTopology *t, int u, int via)
{
  int next = -1;
  while (machine_branches(t, u, via, &next) == 1) {
    via = next;
    u = ns_topology_link_other(t, next, u);
  }
  return u;
}

/**
 * \function ns_a2a_find_root
 * \brief The root of Faraj and Yuan §4.1.
 *
 * \param topo A finalized topology under tree routing.
 * \return The node id of a switch: from a bottleneck link (u,v) with |M_u| >= |M_v|, towards u
 *        while u has a single branch with machines (ties: fewer subtrees, then the lower id; |M|
 *        = 2: the switch of machine 0).
 * \errors none.
 * \complexity O(|V|).
 * \source Faraj and Yuan §4.1.
 */
int ns_a2a_find_root(const NsTopology *t)
{
  int p = ns_topology_n_machines(t);
  if (p == 2) {
    const int *inc = ns_topology_incident(t, ns_topology_machine_node(t, 0));
    return ns_topology_link_other(t, inc[0], ns_topology_machine_node(t, 0));
  }
  int n_links = ns_topology_n_links(t);
  uint64_t *loads = g_new(uint64_t, n_links);
  ns_a2a_link_loads(t, loads);
  int best = 0;
  for (int i = 1; i < n_links; i++)
    if (loads[i] > loads[best])
      best = i;
  g_free(loads);

  /* Orient the bottleneck link (u,v) so that |M_u| >= |M_v|;
   * branch_machines(x, link) counts the machines across `link` from x. */
  const NsLink *l = ns_topology_link(t, best);
  int m_a = branch_machines(t, l->b, best), m_b = branch_machines(t, l->a, best);
  if (m_a != m_b)
    return walk_to_root(t, m_a > m_b ? l->a : l->b, best);
  /* |M_u| = |M_v|: both ends lead to a valid root (dissertation §3.2.2.1,
   * "both nodes s0 and s1 can be the root"). We take the one with fewer
   * subtrees — the more central, aggregating switch; s1 in Figure 1, as
   * the paper assumes — and the lower node id when that ties too. */
  int ra = walk_to_root(t, l->a, best), rb = walk_to_root(t, l->b, best), dummy;
  int ka = machine_branches(t, ra, -1, &dummy), kb = machine_branches(t, rb, -1, &dummy);
  if (ka != kb)
    return ka < kb ? ra : rb;
  return MIN(ra, rb);
}

typedef struct {
  int size, first_link_pos, index;
} SubtreeKey;

static int compare_subtrees(const void *a, const void *b)
{
  const SubtreeKey *x = a, *y = b;
  if (x->size != y->size)
    return x->size > y->size ? -1 : 1;
  return x->first_link_pos - y->first_link_pos;
}

static int compare_int(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/**
 * \function ns_root_subtrees
 * \brief The subtrees of a root, as Faraj and Yuan §4.2 needs them.
 *
 * \param topo A finalized topology under tree routing.
 * \param root The root switch.
 * \param n_subtrees Receives the number of subtrees (branches holding machines).
 * \param sizes Receives their machine counts, decreasing (newly allocated).
 * \param offset Receives where each starts in members (newly allocated).
 * \param members Receives the machine indices, increasing within a subtree (newly allocated).
 * \errors none.
 * \complexity O(|V| log |V|).
 * \source Faraj and Yuan §4.2.
 */
void ns_root_subtrees(const NsTopology *t, int root, int *n_subtrees, int **sizes,
                      int **offset, int **members)
{
  int deg = ns_topology_degree(t, root);
  const int *inc = ns_topology_incident(t, root);
  int n_nodes = ns_topology_n_nodes(t);
  int p = ns_topology_n_machines(t);
  SubtreeKey *keys = g_new(SubtreeKey, deg);
  int k = 0;
  for (int i = 0; i < deg; i++) {
    int size = branch_machines(t, root, inc[i]);
    if (size > 0)
      keys[k++] = (SubtreeKey){ size, i, i };
  }
  qsort(keys, (size_t)k, sizeof *keys, compare_subtrees);

  int *sz = g_new(int, k), *off = g_new(int, k), *mem = g_new(int, p);
  int *stack = g_new(int, n_nodes), *from = g_new(int, n_nodes);
  int fill = 0;
  for (int s = 0; s < k; s++) {
    /* Depth-first walk of the branch, never back through its parent. */
    int top = 0;
    int start = ns_topology_link_other(t, inc[keys[s].index], root);
    stack[top] = start;
    from[top++] = root;
    off[s] = fill;
    while (top > 0) {
      top--;
      int v = stack[top], parent = from[top];
      int m = ns_topology_node_machine(t, v);
      if (m >= 0)
        mem[fill++] = m;
      const int *vinc = ns_topology_incident(t, v);
      for (int j = 0; j < ns_topology_degree(t, v); j++) {
        int w = ns_topology_link_other(t, vinc[j], v);
        if (w == parent)
          continue;
        stack[top] = w;
        from[top++] = v;
      }
    }
    sz[s] = fill - off[s];
    qsort(mem + off[s], (size_t)sz[s], sizeof(int), compare_int);
  }
  g_free(stack);
  g_free(from);
  g_free(keys);
  *n_subtrees = k;
  *sizes = sz;
  *offset = off;
  *members = mem;
}

/**
 * \function ns_path_length
 * \brief Number of switches on the path between two machines.
 *
 * \param topo A finalized topology under tree routing.
 * \param src_machine A machine index.
 * \param dst_machine Another.
 * \return The count.
 * \errors none.
 * \complexity O(path length).
 * \source Faraj and Yuan §3-4; dissertation §3.1.
 */
int ns_path_length(const NsTopology *t, int src_machine, int dst_machine)
{
  if (src_machine == dst_machine)
    return 0;
  int a = ns_topology_machine_node(t, src_machine), b = ns_topology_machine_node(t, dst_machine);
  int edges = 0;
  while (a != b) {
    if (ns_tree_depth(t, a) >= ns_tree_depth(t, b))
      a = ns_tree_parent(t, a);
    else
      b = ns_tree_parent(t, b);
    edges++;
  }
  return edges - 1;
}

/**
 * \function ns_allgather_two_hop
 * \brief Checks Theorem 3's condition on every switch (a contention-free 2-hop ring).
 *
 * \param topo A finalized topology under tree routing.
 * \param out Receives whether it holds and the first violating switch.
 * \return TRUE when it holds.
 * \errors none.
 * \complexity O(|V|).
 * \source dissertation §3.3.2.3, Theorem 3.
 */
gboolean ns_allgather_two_hop(const NsTopology *topo, NsTwoHop *out)
{
  *out = (NsTwoHop){ .holds = TRUE, .sw = -1 };
  for (int v = 0; v < ns_topology_n_nodes(topo); v++) {
    if (ns_topology_node(topo, v)->kind != NS_NODE_SWITCH)
      continue;
    int machines = 0, switches = 0;
    const int *inc = ns_topology_incident(topo, v);
    for (int e = 0; e < ns_topology_degree(topo, v); e++) {
      int w = ns_topology_link_other(topo, inc[e], v);
      if (ns_topology_node(topo, w)->kind == NS_NODE_MACHINE)
        machines++;
      else
        switches++;
    }
    if (machines < switches) {
      *out = (NsTwoHop){ .holds = FALSE, .sw = v, .machines = machines, .switches = switches };
      return FALSE;
    }
  }
  return TRUE;
}

/**
 * \function ns_two_hop_describe
 * \brief Why Theorem 3's condition fails, in words.
 *
 * \param topo The topology checked.
 * \param th The result of ns_allgather_two_hop().
 * \return "switch s1 has 1 directly attached machine but 3 directly attached switches" (newly
 *        allocated), or NULL when the condition holds.
 * \errors none.
 * \complexity O(1).
 * \source dissertation §3.3.2.3, Theorem 3.
 */
char *ns_two_hop_describe(const NsTopology *topo, const NsTwoHop *th)
{
  if (th->holds)
    return NULL;
  return g_strdup_printf("switch %s has %d directly attached machine%s but %d directly "
                         "attached switch%s",
                         ns_topology_node(topo, th->sw)->name, th->machines,
                         th->machines == 1 ? "" : "s", th->switches,
                         th->switches == 1 ? "" : "es");
}

