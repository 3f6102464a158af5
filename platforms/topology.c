/* netsched — the Topology model: construction, validation, pruning and tree
 * routing. See topology.h for the contract of every public function. */
#include "platforms/topology.h"
#include "platforms/error.h"
#include <string.h>

struct NsTopology {
  char *source;
  char *title;
  GArray *nodes;          /* NsNode */
  GArray *links;          /* NsLink */
  GHashTable *by_name;    /* name -> node id + 1 */
  gboolean finalized;

  /* Derived by ns_topology_finalize(). */
  int n_machines;
  int *machine_node;      /* machine index -> node id */
  int *node_machine;      /* node id -> machine index or -1 */
  int *inc_start;         /* CSR: incident links of node v are */
  int *inc;               /*   inc[inc_start[v] .. inc_start[v+1]) */
  NsRoutingKind routing;
  int anchor;
  int *parent, *depth, *up_edge, *down_edge, *below, *preorder;
  int max_route_len;
};

/* ---- construction ---------------------------------------------------- */

NsTopology *ns_topology_new(const char *source)
{
  NsTopology *t = g_new0(NsTopology, 1);
  t->source = g_strdup(source != NULL ? source : "<topology>");
  t->nodes = g_array_new(FALSE, TRUE, sizeof(NsNode));
  t->links = g_array_new(FALSE, TRUE, sizeof(NsLink));
  t->by_name = g_hash_table_new(g_str_hash, g_str_equal);
  t->anchor = -1;
  return t;
}

static void free_derived(NsTopology *t)
{
  g_clear_pointer(&t->machine_node, g_free);
  g_clear_pointer(&t->node_machine, g_free);
  g_clear_pointer(&t->inc_start, g_free);
  g_clear_pointer(&t->inc, g_free);
  g_clear_pointer(&t->parent, g_free);
  g_clear_pointer(&t->depth, g_free);
  g_clear_pointer(&t->up_edge, g_free);
  g_clear_pointer(&t->down_edge, g_free);
  g_clear_pointer(&t->below, g_free);
  g_clear_pointer(&t->preorder, g_free);
}

void ns_topology_free(NsTopology *t)
{
  if (t == NULL)
    return;
  for (guint i = 0; i < t->nodes->len; i++)
    g_free(g_array_index(t->nodes, NsNode, i).name);
  g_array_unref(t->nodes);
  g_array_unref(t->links);
  g_hash_table_unref(t->by_name);
  free_derived(t);
  g_free(t->source);
  g_free(t->title);
  g_free(t);
}

void ns_topology_set_title(NsTopology *t, const char *title)
{
  g_free(t->title);
  t->title = g_strdup(title);
}

const char *ns_topology_title(const NsTopology *t) { return t->title; }

int ns_topology_add_node(NsTopology *t, const char *name, NsNodeKind kind, int line,
                         GError **error)
{
  g_return_val_if_fail(!t->finalized, -1);
  if (name == NULL || name[0] == '\0') {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line, "empty node name");
    return -1;
  }
  gpointer prev = g_hash_table_lookup(t->by_name, name);
  if (prev != NULL) {
    const NsNode *p = &g_array_index(t->nodes, NsNode, GPOINTER_TO_INT(prev) - 1);
    if (p->line > 0)
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                      "duplicate node name '%s' (first declared at line %d)", name, p->line);
    else
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, line, "duplicate node name '%s'",
                      name);
    return -1;
  }
  NsNode n = {
    .name = g_strdup(name),
    .kind = kind,
    .forwarding = NS_FORWARD_STORE_AND_FORWARD,
    .buffering = NS_BUFFER_OUTPUT,
    .buffer_packets = 0,
    .line = line,
  };
  g_array_append_val(t->nodes, n);
  int id = (int)t->nodes->len - 1;
  g_hash_table_insert(t->by_name, n.name, GINT_TO_POINTER(id + 1));
  return id;
}

int ns_topology_add_link(NsTopology *t, int a, int b, double bandwidth, double latency,
                         int line, GError **error)
{
  g_return_val_if_fail(!t->finalized, -1);
  int n = (int)t->nodes->len;
  if (a < 0 || a >= n || b < 0 || b >= n) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line, "link to an unknown node");
    return -1;
  }
  if (a == b) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line, "link from '%s' to itself",
                    g_array_index(t->nodes, NsNode, a).name);
    return -1;
  }
  if (!(bandwidth > 0) || bandwidth > 1e18) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                    "link %s-%s: bandwidth must be positive and finite",
                    g_array_index(t->nodes, NsNode, a).name,
                    g_array_index(t->nodes, NsNode, b).name);
    return -1;
  }
  if (!(latency >= 0) || latency > 1e6) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                    "link %s-%s: latency must be non-negative and finite",
                    g_array_index(t->nodes, NsNode, a).name,
                    g_array_index(t->nodes, NsNode, b).name);
    return -1;
  }
  NsLink l = { .a = a, .b = b, .bandwidth = bandwidth, .latency = latency, .line = line };
  g_array_append_val(t->links, l);
  return (int)t->links->len - 1;
}

int ns_topology_find_node(const NsTopology *t, const char *name)
{
  return GPOINTER_TO_INT(g_hash_table_lookup(t->by_name, name)) - 1;
}

NsNode *ns_topology_node_mut(NsTopology *t, int node)
{
  g_return_val_if_fail(node >= 0 && (guint)node < t->nodes->len, NULL);
  return &g_array_index(t->nodes, NsNode, node);
}

/* ---- finalize -------------------------------------------------------- */

#define NODE(t, i) (&g_array_index((t)->nodes, NsNode, (i)))
#define LINK(t, i) (&g_array_index((t)->links, NsLink, (i)))

static void build_incidence(NsTopology *t)
{
  int n = (int)t->nodes->len, m = (int)t->links->len;
  g_free(t->inc_start);
  g_free(t->inc);
  t->inc_start = g_new0(int, n + 1);
  t->inc = g_new(int, 2 * (gsize)m + 1);
  for (int i = 0; i < m; i++) {
    t->inc_start[LINK(t, i)->a + 1]++;
    t->inc_start[LINK(t, i)->b + 1]++;
  }
  for (int v = 0; v < n; v++)
    t->inc_start[v + 1] += t->inc_start[v];
  int *fill = g_memdup2(t->inc_start, sizeof(int) * (gsize)n);
  for (int i = 0; i < m; i++) {
    t->inc[fill[LINK(t, i)->a]++] = i;
    t->inc[fill[LINK(t, i)->b]++] = i;
  }
  g_free(fill);
}

/* "source:line: " location of a node or link for messages. */
static int node_line(const NsTopology *t, int v) { return NODE(t, v)->line; }

static gboolean check_machines(NsTopology *t, GError **error)
{
  int machines = 0, switches = 0;
  for (guint v = 0; v < t->nodes->len; v++) {
    const NsNode *nd = NODE(t, v);
    if (nd->kind == NS_NODE_SWITCH) {
      switches++;
      continue;
    }
    machines++;
    int deg = t->inc_start[v + 1] - t->inc_start[v];
    if (deg == 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, nd->line,
                      "machine '%s' has no link", nd->name);
      return FALSE;
    }
    if (deg > 1) {
      const NsLink *second = LINK(t, t->inc[t->inc_start[v] + 1]);
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, second->line,
                      "machine '%s' has %d links: a machine is a leaf with exactly one link "
                      "to a switch",
                      nd->name, deg);
      return FALSE;
    }
    int li = t->inc[t->inc_start[v]];
    int other = ns_topology_link_other(t, li, (int)v);
    if (NODE(t, other)->kind == NS_NODE_MACHINE) {
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, LINK(t, li)->line,
                      "machine '%s' is linked to machine '%s': machines connect only to "
                      "switches",
                      nd->name, NODE(t, other)->name);
      return FALSE;
    }
  }
  if (machines < 2) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, 0,
                    "%d machine%s: a collective needs at least 2 machines", machines,
                    machines == 1 ? "" : "s");
    return FALSE;
  }
  if (switches == 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, 0, "no switch in the topology");
    return FALSE;
  }
  return TRUE;
}

/* Breadth-first search from the first switch: every node must be reached
 * exactly once through a tree link. The first non-tree link found closes a
 * cycle (or duplicates a link); an unreached node means the graph is
 * disconnected. O(|V| + |E|). */
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
        /* Each non-tree link is seen from both ends; report it once. */
        const NsLink *l = LINK(t, li);
        ns_set_error_at(error, NS_ERROR_INPUT, t->source, l->line,
                        "link %s-%s closes a cycle: the topology must be a tree "
                        "(unique paths, as spanning-tree Ethernet forwards)",
                        NODE(t, l->a)->name, NODE(t, l->b)->name);
        ok = FALSE;
        break;
      }
      via[w] = li;
      queue[tail++] = w;
    }
  }
  if (ok && tail < n) {
    for (int v = 0; v < n; v++)
      if (via[v] == -2) {
        ns_set_error_at(error, NS_ERROR_INPUT, t->source, node_line(t, v),
                        "topology is disconnected: '%s' cannot be reached from '%s'",
                        NODE(t, v)->name, NODE(t, start)->name);
        break;
      }
    ok = FALSE;
  }
  g_free(via);
  g_free(queue);
  return ok;
}

/* Removes switches that lie on no machine-to-machine path, i.e. repeatedly
 * strips leaf switches (dissertation §3.1). Renumbers nodes and links. */
static void prune_switches(NsTopology *t, NsWarnFunc warn, void *warn_data)
{
  int n = (int)t->nodes->len;
  int *deg = g_new(int, n);
  int *stack = g_new(int, n);
  gboolean *gone = g_new0(gboolean, n);
  int top = 0, removed = 0;
  for (int v = 0; v < n; v++) {
    deg[v] = t->inc_start[v + 1] - t->inc_start[v];
    if (NODE(t, v)->kind == NS_NODE_SWITCH && deg[v] <= 1)
      stack[top++] = v;
  }
  while (top > 0) {
    int v = stack[--top];
    gone[v] = TRUE;
    removed++;
    for (int k = t->inc_start[v]; k < t->inc_start[v + 1]; k++) {
      int w = ns_topology_link_other(t, t->inc[k], v);
      if (gone[w])
        continue;
      if (--deg[w] == 1 && NODE(t, w)->kind == NS_NODE_SWITCH)
        stack[top++] = w;
    }
  }
  if (removed > 0) {
    int *newid = g_new(int, n);
    GArray *nodes = g_array_new(FALSE, TRUE, sizeof(NsNode));
    g_hash_table_remove_all(t->by_name);
    for (int v = 0; v < n; v++) {
      NsNode *nd = NODE(t, v);
      if (gone[v]) {
        if (warn != NULL) {
          char *msg = nd->line > 0
                          ? g_strdup_printf("%s:%d: switch '%s' has no machine below it: "
                                            "pruned (it carries no traffic)",
                                            t->source, nd->line, nd->name)
                          : g_strdup_printf("%s: switch '%s' has no machine below it: "
                                            "pruned (it carries no traffic)",
                                            t->source, nd->name);
          warn(msg, warn_data);
          g_free(msg);
        }
        g_free(nd->name);
        newid[v] = -1;
        continue;
      }
      newid[v] = (int)nodes->len;
      g_array_append_val(nodes, *nd);
      NsNode *kept = &g_array_index(nodes, NsNode, nodes->len - 1);
      g_hash_table_insert(t->by_name, kept->name, GINT_TO_POINTER(newid[v] + 1));
    }
    GArray *links = g_array_new(FALSE, TRUE, sizeof(NsLink));
    for (guint i = 0; i < t->links->len; i++) {
      NsLink l = *LINK(t, i);
      if (gone[l.a] || gone[l.b])
        continue;
      l.a = newid[l.a];
      l.b = newid[l.b];
      g_array_append_val(links, l);
    }
    g_array_unref(t->nodes);
    g_array_unref(t->links);
    t->nodes = nodes;
    t->links = links;
    g_free(newid);
    build_incidence(t);
  }
  g_free(deg);
  g_free(stack);
  g_free(gone);
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
      gboolean w_is_a = LINK(t, li)->a == w;
      t->up_edge[w] = 2 * li + (w_is_a ? 0 : 1);
      t->down_edge[w] = 2 * li + (w_is_a ? 1 : 0);
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
  t->routing = NS_ROUTING_TREE;
}

gboolean ns_topology_finalize(NsTopology *t, NsWarnFunc warn, void *warn_data,
                              GError **error)
{
  g_return_val_if_fail(!t->finalized, FALSE);
  build_incidence(t);
  if (!check_machines(t, error) || !check_tree(t, error))
    return FALSE;
  prune_switches(t, warn, warn_data);

  int n = (int)t->nodes->len;
  t->node_machine = g_new(int, n);
  t->machine_node = g_new(int, n);
  t->n_machines = 0;
  for (int v = 0; v < n; v++) {
    t->node_machine[v] = -1;
    if (NODE(t, v)->kind == NS_NODE_MACHINE) {
      t->node_machine[v] = t->n_machines;
      t->machine_node[t->n_machines++] = v;
    }
  }
  build_tree_view(t);
  t->finalized = TRUE;
  return TRUE;
}

/* ---- queries --------------------------------------------------------- */

const char *ns_topology_source(const NsTopology *t) { return t->source; }
int ns_topology_n_nodes(const NsTopology *t) { return (int)t->nodes->len; }
int ns_topology_n_links(const NsTopology *t) { return (int)t->links->len; }
int ns_topology_n_machines(const NsTopology *t) { return t->n_machines; }
int ns_topology_n_switches(const NsTopology *t) { return (int)t->nodes->len - t->n_machines; }
int ns_topology_n_edges(const NsTopology *t) { return 2 * (int)t->links->len; }

const NsNode *ns_topology_node(const NsTopology *t, int node) { return NODE(t, node); }
const NsLink *ns_topology_link(const NsTopology *t, int link) { return LINK(t, link); }
int ns_topology_machine_node(const NsTopology *t, int machine) { return t->machine_node[machine]; }
int ns_topology_node_machine(const NsTopology *t, int node) { return t->node_machine[node]; }

int ns_topology_find_machine(const NsTopology *t, const char *name)
{
  int v = ns_topology_find_node(t, name);
  return v < 0 || t->node_machine == NULL ? -1 : t->node_machine[v];
}

const char *ns_topology_machine_name(const NsTopology *t, int machine)
{
  return NODE(t, t->machine_node[machine])->name;
}

int ns_topology_degree(const NsTopology *t, int node)
{
  return t->inc_start[node + 1] - t->inc_start[node];
}

const int *ns_topology_incident(const NsTopology *t, int node) { return t->inc + t->inc_start[node]; }

int ns_topology_link_other(const NsTopology *t, int link, int node)
{
  const NsLink *l = LINK(t, link);
  return l->a == node ? l->b : l->a;
}

int ns_topology_edge_from(const NsTopology *t, int edge)
{
  const NsLink *l = LINK(t, edge >> 1);
  return (edge & 1) ? l->b : l->a;
}

int ns_topology_edge_to(const NsTopology *t, int edge)
{
  const NsLink *l = LINK(t, edge >> 1);
  return (edge & 1) ? l->a : l->b;
}

char *ns_topology_edge_name(const NsTopology *t, int edge)
{
  return g_strdup_printf("%s->%s", NODE(t, ns_topology_edge_from(t, edge))->name,
                         NODE(t, ns_topology_edge_to(t, edge))->name);
}

NsRoutingKind ns_topology_routing(const NsTopology *t) { return t->routing; }
int ns_topology_max_route_len(const NsTopology *t) { return MAX(t->max_route_len, 1); }

int ns_topology_route(const NsTopology *t, int src, int dst, int *edges)
{
  /* Two passes: find the lowest common ancestor by climbing from the deeper
   * end, then write the upward half forwards and the downward half
   * backwards, so no scratch buffer is needed. */
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

int ns_topology_route_machines(const NsTopology *t, int src_machine, int dst_machine, int *edges)
{
  return ns_topology_route(t, t->machine_node[src_machine], t->machine_node[dst_machine], edges);
}

int ns_tree_anchor(const NsTopology *t) { return t->anchor; }
int ns_tree_parent(const NsTopology *t, int node) { return t->parent[node]; }
int ns_tree_depth(const NsTopology *t, int node) { return t->depth[node]; }
int ns_tree_up_edge(const NsTopology *t, int node) { return t->up_edge[node]; }
int ns_tree_down_edge(const NsTopology *t, int node) { return t->down_edge[node]; }
int ns_tree_machines_below(const NsTopology *t, int node) { return t->below[node]; }
const int *ns_tree_preorder(const NsTopology *t) { return t->preorder; }
