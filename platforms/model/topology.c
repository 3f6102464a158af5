/* netsched — the Topology model: construction, validation, pruning, the
 * choice of routing and the queries. The routings themselves are in
 * platforms/routing_*.c. See topology.h for the contract of every public
 * function. */
#include "platforms/model/topology.h"
#include "platforms/model/error.h"
#include "platforms/model/topology_internal.h"
#include "platforms/model/text_internal.h"
#include "platforms/model/units.h"
#include <stdlib.h>
#include <string.h>

/* ---- construction ---------------------------------------------------- */

/**
 * \function ns_topology_new
 * \brief A new, empty topology.
 *
 * \param source Where it comes from (a file name, a generator description); it prefixes every
 *        error message.
 * \return The topology (ns_topology_free() it).
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
NsTopology *ns_topology_new(const char *source)
{
  NsTopology *t = g_new0(NsTopology, 1);
  t->source = g_strdup(source != NULL ? source : "<topology>");
  t->nodes = g_array_new(FALSE, TRUE, sizeof(NsNode));
  t->links = g_array_new(FALSE, TRUE, sizeof(NsLink));
  t->by_name = g_hash_table_new(g_str_hash, g_str_equal);
  t->route_nodes = g_array_new(FALSE, FALSE, sizeof(int));
  t->route_heads = g_array_new(FALSE, FALSE, sizeof(RouteHead));
  t->anchor = -1;
  return t;
}

static void free_derived(NsTopology *t)
{
  if (t->ops != NULL && t->ops->free_data != NULL)
    t->ops->free_data(t);
  t->ops = NULL;
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

/**
 * \function ns_topology_free
 * \brief Frees a topology.
 *
 * \param topo The topology (NULL is accepted).
 * \errors none.
 * \complexity O(|V| + |E|).
 * \source platforms/model/topology.h.
 */
void ns_topology_free(NsTopology *t)
{
  if (t == NULL)
    return;
  for (guint i = 0; i < t->nodes->len; i++)
    g_free(g_array_index(t->nodes, NsNode, i).name);
  g_array_unref(t->nodes);
  g_array_unref(t->links);
  g_hash_table_unref(t->by_name);
  g_array_unref(t->route_nodes);
  g_array_unref(t->route_heads);
  free_derived(t);
  g_free(t->source);
  g_free(t->title);
  g_free(t);
}

/**
 * \function ns_topology_set_title
 * \brief Sets the topology's title (the native `name "..."`).
 *
 * \param topo A topology.
 * \param title The title (copied; NULL: none).
 * \errors none.
 * \complexity O(length of title).
 * \source docs/topology-format.md.
 */
void ns_topology_set_title(NsTopology *t, const char *title)
{
  g_free(t->title);
  t->title = g_strdup(title);
}

/**
 * \function ns_topology_title
 * \brief The topology's title.
 *
 * \param topo A topology.
 * \return The title, or NULL when there is none.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md.
 */
const char *ns_topology_title(const NsTopology *t) { return t->title; }

/* Names are printed raw in findings, reports and schedules: one holding a
 * control, format or bidi character (U+202E reverses what follows it on a
 * terminal) or bytes that are not UTF-8 is refused here, where every
 * reader and generator adds its nodes. */
static gboolean name_visible(const NsTopology *t, const char *name, int line, GError **error)
{
  const char *end = name + strlen(name);
  for (const char *p = name; p < end; p = g_utf8_next_char(p)) {
    gunichar c = g_utf8_get_char_validated(p, end - p);
    if (c == (gunichar)-1 || c == (gunichar)-2 || ns_input_is_invisible(c)) {
      g_autofree char *shown = ns_input_escape(name);
      if (c == (gunichar)-1 || c == (gunichar)-2)
        ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                        "node name '%s' is not UTF-8 (byte 0x%02x)", shown, (guchar)*p);
      else
        ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                        "node name '%s' holds an invisible, control or bidi character "
                        "(U+%04X): names are printed as they are and must show what they are",
                        shown, c);
      return FALSE;
    }
  }
  return TRUE;
}

/**
 * \function ns_topology_add_node
 * \brief Adds a machine or a switch.
 *
 * \param topo A topology being built (before ns_topology_finalize()).
 * \param name Its name, unique and not empty.
 * \param kind NS_NODE_MACHINE or NS_NODE_SWITCH.
 * \param line The source line that declares it (0: generated).
 * \param error Set on failure (see errors).
 * \return The node id, or -1.
 * \errors NS_ERROR_INPUT "source:line: duplicate node name 'x' (first declared at line N)", or
 *        for an empty name.
 * \complexity O(1) amortised.
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_add_node(NsTopology *t, const char *name, NsNodeKind kind, int line,
                         GError **error)
{
  g_return_val_if_fail(!t->finalized, -1);
  if (name == NULL || name[0] == '\0') {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line, "empty node name");
    return -1;
  }
  if (!name_visible(t, name, line, error))
    return -1;
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
    .ports = NS_PORTS_DEFAULT,
    .k_ports = 0,
    .line = line,
  };
  g_array_append_val(t->nodes, n);
  int id = (int)t->nodes->len - 1;
  g_hash_table_insert(t->by_name, n.name, GINT_TO_POINTER(id + 1));
  return id;
}

/**
 * \function ns_topology_add_link
 * \brief Adds a full-duplex link between two nodes.
 *
 * \param topo A topology being built (before ns_topology_finalize()).
 * \param a One end (node id).
 * \param b The other end.
 * \param bandwidth Bit/s, > 0.
 * \param latency Seconds, >= 0.
 * \param line The source line (0: generated).
 * \param error Set on failure (see errors).
 * \return The link id, or -1.
 * \errors NS_ERROR_INPUT with the line for a self-loop, a bandwidth <= 0 or a negative latency
 *        (parallel links and cycles are for ns_topology_finalize()).
 * \complexity O(1) amortised.
 * \source Faraj and Yuan §3 (directed links); platforms/model/topology.h.
 */
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
  if (!(bandwidth >= NS_MIN_BANDWIDTH) || bandwidth > NS_MAX_BANDWIDTH) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                    bandwidth > NS_MAX_BANDWIDTH
                        ? "link %s-%s: bandwidth %g bit/s is above the 1 Ebit/s limit"
                        : "link %s-%s: bandwidth must be at least 1 bit/s (got %g bit/s)",
                    g_array_index(t->nodes, NsNode, a).name,
                    g_array_index(t->nodes, NsNode, b).name, bandwidth);
    return -1;
  }
  if (!(latency >= 0) || latency > 1e6) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                    latency > 1e6 ? "link %s-%s: latency %g s is above the 1e6 s limit"
                                  : "link %s-%s: latency must be non-negative (got %g s)",
                    g_array_index(t->nodes, NsNode, a).name,
                    g_array_index(t->nodes, NsNode, b).name, latency);
    return -1;
  }
  NsLink l = { .a = a, .b = b, .bandwidth = bandwidth, .latency = latency, .line = line };
  g_array_append_val(t->links, l);
  return (int)t->links->len - 1;
}

/**
 * \function ns_topology_find_node
 * \brief The id of the node of a name.
 *
 * \param topo A topology.
 * \param name The name.
 * \return The node id, or -1.
 * \errors none.
 * \complexity O(1) (hash table).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_find_node(const NsTopology *t, const char *name)
{
  return GPOINTER_TO_INT(g_hash_table_lookup(t->by_name, name)) - 1;
}

/**
 * \function ns_topology_set_routing
 * \brief Chooses the routing before finalize.
 *
 * \param topo A topology being built (before ns_topology_finalize()).
 * \param kind The routing; without this call finalize takes tree for a tree whose machines are
 *        leaves, shortest otherwise.
 * \param line Locates the choice in messages.
 * \errors none (finalize checks the routing fits).
 * \complexity O(1).
 * \source docs/architecture.md, "Routing is an object".
 */
void ns_topology_set_routing(NsTopology *t, NsRoutingKind kind, int line)
{
  g_return_if_fail(!t->finalized);
  t->routing_wanted = kind;
  t->routing_line = line;
}

/**
 * \function ns_topology_set_grid
 * \brief Declares the machines, in index order, a grid.
 *
 * \param topo A topology being built (before ns_topology_finalize()).
 * \param n_dims Number of dimensions (1..NS_MAX_DIMS).
 * \param sizes Their sizes, coordinate 0 varying fastest.
 * \param wrap TRUE for a torus, FALSE for a mesh.
 * \param line Locates the grid in messages.
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT for sizes < 1 or more than NS_MAX_DIMS dimensions (finalize checks that
 *        grid neighbours are linked).
 * \complexity O(n_dims).
 * \source Liu Gang et al. §III (dimension-order routing); docs/architecture.md, "Routing is an
 *        object".
 */
gboolean ns_topology_set_grid(NsTopology *t, int n_dims, const int *sizes, gboolean wrap,
                              int line, GError **error)
{
  g_return_val_if_fail(!t->finalized, FALSE);
  if (n_dims < 1 || n_dims > NS_MAX_DIMS) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                    "a grid has 1 to %d dimensions, not %d", NS_MAX_DIMS, n_dims);
    return FALSE;
  }
  uint64_t nodes = 1;
  for (int d = 0; d < n_dims; d++) {
    if (sizes[d] < 1 || sizes[d] > 1000000) {
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                      "grid dimension %d has size %d (1 to 1000000)", d, sizes[d]);
      return FALSE;
    }
    nodes *= (uint64_t)sizes[d];
    if (nodes > 1000000) {
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                      "a grid of more than 1000000 machines");
      return FALSE;
    }
  }
  t->n_dims = n_dims;
  memcpy(t->dims, sizes, sizeof(int) * (size_t)n_dims);
  t->wrap = wrap;
  t->grid_line = line;
  return TRUE;
}

/**
 * \function ns_topology_add_route
 * \brief Adds an explicit route (routing explicit).
 *
 * \param topo A topology being built (before ns_topology_finalize()).
 * \param nodes Node ids from the source machine to the destination machine; consecutive nodes
 *        must be linked (the lowest-id link is used).
 * \param n_nodes How many.
 * \param line The source line.
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT for a second route of the same pair (paths are checked by finalize).
 * \complexity O(n_nodes).
 * \source docs/architecture.md, "Routing is an object".
 */
gboolean ns_topology_add_route(NsTopology *t, const int *nodes, int n_nodes, int line,
                               GError **error)
{
  g_return_val_if_fail(!t->finalized, FALSE);
  int n = (int)t->nodes->len;
  if (n_nodes < 2) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, line,
                    "a route needs a source and a destination");
    return FALSE;
  }
  for (int i = 0; i < n_nodes; i++)
    if (nodes[i] < 0 || nodes[i] >= n) {
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, line, "route through an unknown node");
      return FALSE;
    }
  RouteHead h = { .first = (int)t->route_nodes->len, .n = n_nodes, .line = line };
  g_array_append_vals(t->route_nodes, nodes, (guint)n_nodes);
  g_array_append_val(t->route_heads, h);
  return TRUE;
}

/**
 * \function ns_topology_node_mut
 * \brief A node, to change its attributes before finalize.
 *
 * \param topo A topology being built (before ns_topology_finalize()).
 * \param node The node id.
 * \return The node, valid until the next node is added.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
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

/* Breadth-first search from node 0: every node must be reached. */
static gboolean check_connected(NsTopology *t, GError **error)
{
  int n = (int)t->nodes->len;
  int *dist = g_new(int, n);
  ns_topology_hop_distances(t, 0, dist);
  gboolean ok = TRUE;
  for (int v = 0; v < n && ok; v++)
    if (dist[v] < 0) {
      if (t->inc_start[v + 1] == t->inc_start[v] && NODE(t, v)->kind == NS_NODE_MACHINE)
        ns_set_error_at(error, NS_ERROR_INPUT, t->source, NODE(t, v)->line,
                        "machine '%s' has no link", NODE(t, v)->name);
      else
        ns_set_error_at(error, NS_ERROR_INPUT, t->source, NODE(t, v)->line,
                        "topology is disconnected: '%s' cannot be reached from '%s'",
                        NODE(t, v)->name, NODE(t, 0)->name);
      ok = FALSE;
    }
  g_free(dist);
  return ok;
}

static gboolean check_machine_count(NsTopology *t, GError **error)
{
  int machines = 0;
  for (guint v = 0; v < t->nodes->len; v++)
    machines += NODE(t, v)->kind == NS_NODE_MACHINE;
  if (machines >= 2)
    return TRUE;
  ns_set_error_at(error, NS_ERROR_INPUT, t->source, 0,
                  "%d machine%s: a collective needs at least 2 machines", machines,
                  machines == 1 ? "" : "s");
  return FALSE;
}

/* Removes switches that lie on no machine-to-machine path: repeatedly
 * strips leaf switches (dissertation §3.1). Renumbers nodes and links, and
 * the nodes of explicit routes (a route cannot pass a leaf). */
static gboolean prune_switches(NsTopology *t, NsWarnFunc warn, void *warn_data, GError **error)
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
  gboolean ok = TRUE;
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
    for (guint i = 0; i < t->route_heads->len && ok; i++) {
      const RouteHead *h = &g_array_index(t->route_heads, RouteHead, i);
      for (int k = 0; k < h->n && ok; k++) {
        int *v = &g_array_index(t->route_nodes, int, h->first + k);
        if (newid[*v] < 0) {
          ns_set_error_at(error, NS_ERROR_INPUT, t->source, h->line,
                          "route through switch '%s', which carries no traffic (pruned)",
                          NODE(t, *v)->name);
          ok = FALSE;
        } else {
          *v = newid[*v];
        }
      }
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
  return ok;
}

/* Without a routing statement: dimension-order for a grid, explicit when
 * routes are listed, tree for a tree of switches with machines as leaves,
 * shortest otherwise. */
NsRoutingKind ns_topology_default_routing(const NsTopology *t)
{
  if (t->n_dims > 0)
    return NS_ROUTING_DIMENSION_ORDER;
  if (t->route_heads->len > 0)
    return NS_ROUTING_EXPLICIT;
  if (t->links->len + 1 != t->nodes->len)
    return NS_ROUTING_SHORTEST;
  for (guint v = 0; v < t->nodes->len; v++)
    if (NODE(t, v)->kind == NS_NODE_MACHINE &&
        (t->inc_start[v + 1] - t->inc_start[v] != 1 ||
         NODE(t, ns_topology_link_other(t, t->inc[t->inc_start[v]], (int)v))->kind !=
             NS_NODE_SWITCH))
      return NS_ROUTING_SHORTEST;
  return NS_ROUTING_TREE;
}

/* The model's half of ns_topology_finalize (platforms/routing/routing.c,
 * which then gives the topology its routing): incidence, checks, pruning,
 * machine numbering. */
gboolean ns_topology_prepare(NsTopology *t, NsWarnFunc warn, void *warn_data, GError **error)
{
  g_return_val_if_fail(!t->finalized, FALSE);
  build_incidence(t);
  if (!check_machine_count(t, error) || !check_connected(t, error) ||
      !prune_switches(t, warn, warn_data, error))
    return FALSE;

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
  if (t->n_dims > 0) {
    int64_t cells = 1;
    for (int d = 0; d < t->n_dims; d++)
      cells *= t->dims[d];
    if (cells != t->n_machines) {
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, t->grid_line,
                      "the grid has %" G_GINT64_FORMAT " places but the topology %d machines",
                      cells, t->n_machines);
      return FALSE;
    }
  }
  return TRUE;
}

/* ---- queries --------------------------------------------------------- */

/**
 * \function ns_topology_source
 * \brief Where the topology came from (file name or generator).
 *
 * \param topo A finalized topology.
 * \return The source, owned by the topology.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
const char *ns_topology_source(const NsTopology *t) { return t->source; }
/**
 * \function ns_topology_n_nodes
 * \brief Number of nodes (machines and switches).
 *
 * \param topo A finalized topology.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_n_nodes(const NsTopology *t) { return (int)t->nodes->len; }
/**
 * \function ns_topology_n_links
 * \brief Number of links.
 *
 * \param topo A finalized topology.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_n_links(const NsTopology *t) { return (int)t->links->len; }
/**
 * \function ns_topology_n_machines
 * \brief Number of machines.
 *
 * \param topo A finalized topology.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_n_machines(const NsTopology *t) { return t->n_machines; }
/**
 * \function ns_topology_n_switches
 * \brief Number of switches.
 *
 * \param topo A finalized topology.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_n_switches(const NsTopology *t) { return (int)t->nodes->len - t->n_machines; }
/**
 * \function ns_topology_n_edges
 * \brief Number of directed edges (twice the links).
 *
 * \param topo A finalized topology.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §3 (directed links); platforms/model/topology.h.
 */
int ns_topology_n_edges(const NsTopology *t) { return 2 * (int)t->links->len; }

/**
 * \function ns_topology_node
 * \brief A node by id.
 *
 * \param topo A finalized topology.
 * \param node The node id (0..n_nodes-1).
 * \return The node, owned by the topology.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
const NsNode *ns_topology_node(const NsTopology *t, int node) { return NODE(t, node); }
/**
 * \function ns_topology_link
 * \brief A link by id.
 *
 * \param topo A finalized topology.
 * \param link The link id (0..n_links-1).
 * \return The link, owned by the topology.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
const NsLink *ns_topology_link(const NsTopology *t, int link) { return LINK(t, link); }
/**
 * \function ns_topology_machine_node
 * \brief The node id of a machine index.
 *
 * \param topo A finalized topology.
 * \param machine The machine index (what schedules refer to).
 * \return The node id.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_machine_node(const NsTopology *t, int machine) { return t->machine_node[machine]; }
/**
 * \function ns_topology_node_machine
 * \brief The machine index of a node.
 *
 * \param topo A finalized topology.
 * \param node The node id.
 * \return The machine index, or -1 for a switch.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_node_machine(const NsTopology *t, int node) { return t->node_machine[node]; }

/**
 * \function ns_topology_find_machine
 * \brief The machine index of a machine name.
 *
 * \param topo A finalized topology.
 * \param name The name.
 * \return The machine index, or -1 (unknown, or a switch).
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_find_machine(const NsTopology *t, const char *name)
{
  int v = ns_topology_find_node(t, name);
  return v < 0 || t->node_machine == NULL ? -1 : t->node_machine[v];
}

/**
 * \function ns_topology_machine_name
 * \brief The name of a machine index.
 *
 * \param topo A finalized topology.
 * \param machine The machine index.
 * \return The name, owned by the topology.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
const char *ns_topology_machine_name(const NsTopology *t, int machine)
{
  return NODE(t, t->machine_node[machine])->name;
}

/**
 * \function ns_topology_degree
 * \brief Number of links at a node.
 *
 * \param topo A finalized topology.
 * \param node The node id.
 * \return The degree.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_degree(const NsTopology *t, int node)
{
  return t->inc_start[node + 1] - t->inc_start[node];
}

/**
 * \function ns_topology_incident
 * \brief The link ids at a node, in link-id order (CSR view).
 *
 * \param topo A finalized topology.
 * \param node The node id.
 * \return ns_topology_degree() link ids, valid until the topology is freed.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
const int *ns_topology_incident(const NsTopology *t, int node) { return t->inc + t->inc_start[node]; }

/**
 * \function ns_topology_link_other
 * \brief The other end of a link.
 *
 * \param topo A finalized topology.
 * \param link The link id.
 * \param node One of its ends.
 * \return The other end's node id.
 * \errors none.
 * \complexity O(1).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
int ns_topology_link_other(const NsTopology *t, int link, int node)
{
  const NsLink *l = LINK(t, link);
  return l->a == node ? l->b : l->a;
}

/**
 * \function ns_topology_edge_from
 * \brief The node a directed edge leaves.
 *
 * \param topo A finalized topology.
 * \param edge The directed edge.
 * \return The node id.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §3 (directed links); platforms/model/topology.h.
 */
int ns_topology_edge_from(const NsTopology *t, int edge)
{
  const NsLink *l = LINK(t, edge >> 1);
  return (edge & 1) ? l->b : l->a;
}

/**
 * \function ns_topology_edge_to
 * \brief The node a directed edge enters.
 *
 * \param topo A finalized topology.
 * \param edge The directed edge.
 * \return The node id.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §3 (directed links); platforms/model/topology.h.
 */
int ns_topology_edge_to(const NsTopology *t, int edge)
{
  const NsLink *l = LINK(t, edge >> 1);
  return (edge & 1) ? l->a : l->b;
}

/**
 * \function ns_topology_edge_name
 * \brief A directed edge as text, "s0->s1".
 *
 * \param topo A finalized topology.
 * \param edge The directed edge.
 * \return Newly allocated text.
 * \errors none.
 * \complexity O(length of the names).
 * \source Faraj and Yuan §3 (directed links); platforms/model/topology.h.
 */
char *ns_topology_edge_name(const NsTopology *t, int edge)
{
  return g_strdup_printf("%s->%s", NODE(t, ns_topology_edge_from(t, edge))->name,
                         NODE(t, ns_topology_edge_to(t, edge))->name);
}

/**
 * \function ns_topology_routing
 * \brief The topology's routing.
 *
 * \param topo A finalized topology.
 * \return The routing kind.
 * \errors none.
 * \complexity O(1).
 * \source docs/architecture.md, "Routing is an object".
 */
NsRoutingKind ns_topology_routing(const NsTopology *t) { return t->routing; }
/**
 * \function ns_topology_max_route_len
 * \brief An upper bound on the number of edges of any route.
 *
 * \param topo A finalized topology.
 * \return The bound (the capacity ns_topology_route() needs).
 * \errors none.
 * \complexity O(1); under shortest, ecmp and explicit routing the first of this,
 *        ns_topology_route() and ns_topology_next_hops() builds the next-hop table
 *        (O(|M|·(|V| + |E|)), once, thread-safe).
 * \source docs/architecture.md, "Routing is an object".
 */
int ns_topology_max_route_len(const NsTopology *t)
{
  return MAX(t->ops->max_route_len != NULL ? t->ops->max_route_len(t) : t->max_route_len, 1);
}

/**
 * \function ns_topology_routing_describe
 * \brief The routing in words, with its tie rules.
 *
 * \param topo A finalized topology.
 * \return Newly allocated text, e.g. "dimension-order on an 8x8 torus: dimension 0 first; the
 *        shorter way round; at distance N/2 the positive direction".
 * \errors none.
 * \complexity O(1).
 * \source docs/architecture.md, "Routing is an object".
 */
char *ns_topology_routing_describe(const NsTopology *t) { return t->ops->describe(t); }

/**
 * \function ns_topology_next_hops
 * \brief The tree of routes towards a machine (destination-based routings).
 *
 * \param topo A finalized topology.
 * \param dst_machine The destination machine index.
 * \param next_edge Receives, for every node, the directed edge it sends on towards the machine
 *        (-1 at its node and at nodes no route crosses); s-mod-k: the edges of the routes from
 *        it, reversed.
 * \return TRUE for shortest, ecmp, dmodk and smodk; FALSE (nothing written) for tree,
 *        dimension-order and explicit routing.
 * \errors none.
 * \complexity O(|V|) (dmodk: O(|V| + levels)).
 * \source Zahavi et al. 2010 (d-mod-k); docs/architecture.md, "Routing is an object".
 */
gboolean ns_topology_next_hops(const NsTopology *t, int dst_machine, int *next_edge)
{
  return t->ops->next_hops != NULL && t->ops->next_hops(t, dst_machine, next_edge);
}

/**
 * \function ns_topology_route
 * \brief The route between two nodes, as directed edges.
 *
 * \param topo A finalized topology.
 * \param src The source node (a machine; any node under tree routing).
 * \param dst The destination node.
 * \param edges Receives the directed edges in travel order (capacity
 *        ns_topology_max_route_len()).
 * \return The number of edges (0 when src == dst).
 * \errors none.
 * \complexity O(route length) for tree, dimension-order, dmodk, smodk, shortest and
 *        explicit routing (shortest, ecmp, explicit: the first query builds the table, see
 *        ns_topology_max_route_len()).
 * \source docs/architecture.md, "Routing is an object".
 */
int ns_topology_route(const NsTopology *t, int src, int dst, int *edges)
{
  if (src == dst)
    return 0;
  return t->ops->route(t, src, dst, edges);
}

/**
 * \function ns_topology_route_machines
 * \brief The route between two machine indices.
 *
 * \param topo A finalized topology.
 * \param src_machine The source machine index.
 * \param dst_machine The destination machine index.
 * \param edges Receives the directed edges (capacity ns_topology_max_route_len()).
 * \return The number of edges.
 * \errors none.
 * \complexity O(route length).
 * \source docs/architecture.md, "Routing is an object".
 */
int ns_topology_route_machines(const NsTopology *t, int src_machine, int dst_machine, int *edges)
{
  return ns_topology_route(t, t->machine_node[src_machine], t->machine_node[dst_machine], edges);
}

int ns_topology_link_between(const NsTopology *t, int a, int b)
{
  for (int k = t->inc_start[a]; k < t->inc_start[a + 1]; k++)
    if (ns_topology_link_other(t, t->inc[k], a) == b)
      return t->inc[k];
  return -1;
}

static const char *const routing_names[] = {
  [NS_ROUTING_NONE] = "none",
  [NS_ROUTING_TREE] = "tree",
  [NS_ROUTING_DIMENSION_ORDER] = "dimension-order",
  [NS_ROUTING_DMODK] = "dmodk",
  [NS_ROUTING_SMODK] = "smodk",
  [NS_ROUTING_SHORTEST] = "shortest",
  [NS_ROUTING_EXPLICIT] = "explicit",
  [NS_ROUTING_ECMP] = "ecmp",
};

/**
 * \function ns_routing_kind_name
 * \brief The name of a routing ("tree", "dimension-order", "dmodk", ...).
 *
 * \param kind The routing.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source docs/architecture.md, "Routing is an object".
 */
const char *ns_routing_kind_name(NsRoutingKind kind) { return routing_names[kind]; }

/**
 * \function ns_routing_kind_from_name
 * \brief A routing from its name.
 *
 * \param name "tree", "dimension-order", "dmodk", "smodk", "shortest", "ecmp" or "explicit".
 * \param kind Receives the routing.
 * \return FALSE for an unknown name.
 * \errors none.
 * \complexity O(routings).
 * \source docs/architecture.md, "Routing is an object".
 */
gboolean ns_routing_kind_from_name(const char *name, NsRoutingKind *kind)
{
  for (gsize i = 1; i < G_N_ELEMENTS(routing_names); i++)
    if (g_strcmp0(name, routing_names[i]) == 0) {
      *kind = (NsRoutingKind)i;
      return TRUE;
    }
  return FALSE;
}

/* ---- switch attributes ------------------------------------------------- */

/* Index of `name` in `names` (n entries), or -1. */
static const char *const forwarding_names[] = {
  [NS_FORWARD_STORE_AND_FORWARD] = "store-and-forward", [NS_FORWARD_CUT_THROUGH] = "cut-through",
};

/**
 * \function ns_forwarding_name
 * \brief A switch's forwarding mode's name: "store-and-forward" or "cut-through".
 *
 * \param f The mode (a value of NsForwarding).
 * \return A static string, the one spelling of every reader, writer and generator option.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Attributes and values" (forwarding).
 */
const char *ns_forwarding_name(NsForwarding f) { return forwarding_names[f]; }

/**
 * \function ns_forwarding_parse
 * \brief A switch's forwarding mode from its name.
 *
 * \param name "store-and-forward" or "cut-through" (exactly; NULL is refused).
 * \param f Receives the mode (untouched on failure).
 * \return FALSE for any other name.
 * \errors none.
 * \complexity O(length of name).
 * \source docs/topology-format.md, "Attributes and values" (forwarding).
 */
gboolean ns_forwarding_parse(const char *name, NsForwarding *f)
{
  int i = ns_name_index(forwarding_names, G_N_ELEMENTS(forwarding_names), name);
  if (i >= 0)
    *f = (NsForwarding)i;
  return i >= 0;
}

static const char *const buffering_names[] = {
  [NS_BUFFER_OUTPUT] = "output", [NS_BUFFER_INPUT] = "input", [NS_BUFFER_SHARED] = "shared",
};

/**
 * \function ns_buffering_name
 * \brief A switch's buffering scheme's name: "output", "input" or "shared".
 *
 * \param b The scheme (a value of NsBuffering).
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Attributes and values" (buffering).
 */
const char *ns_buffering_name(NsBuffering b) { return buffering_names[b]; }

/**
 * \function ns_buffering_parse
 * \brief A switch's buffering scheme from its name.
 *
 * \param name "output", "input" or "shared" (exactly; NULL is refused).
 * \param b Receives the scheme (untouched on failure).
 * \return FALSE for any other name.
 * \errors none.
 * \complexity O(length of name).
 * \source docs/topology-format.md, "Attributes and values" (buffering).
 */
gboolean ns_buffering_parse(const char *name, NsBuffering *b)
{
  int i = ns_name_index(buffering_names, G_N_ELEMENTS(buffering_names), name);
  if (i >= 0)
    *b = (NsBuffering)i;
  return i >= 0;
}

/* ---- port model -------------------------------------------------------- */

/**
 * \function ns_grid_spec_parse
 * \brief A grid from its text ("8x8 torus", "4x4x4 mesh").
 *
 * \param text The text of the native `grid` statement or GraphML's `grid` attribute.
 * \param n_dims Receives the number of dimensions.
 * \param sizes Receives the sizes (capacity NS_MAX_DIMS).
 * \param wrap Receives TRUE for a torus.
 * \param why On failure, why (newly allocated).
 * \return FALSE when the text is not a grid.
 * \errors FALSE with *why; no GError.
 * \complexity O(length of text).
 * \source docs/topology-format.md (grid).
 */
gboolean ns_grid_spec_parse(const char *text, int *n_dims, int *sizes, gboolean *wrap,
                            char **why)
{
  g_auto(GStrv) words = g_strsplit(text, " ", -1);
  if (g_strv_length(words) != 2) {
    *why = g_strdup("expected sizes and a kind, e.g. '8x8 torus' or '4x4x4 mesh'");
    return FALSE;
  }
  *wrap = strcmp(words[1], "torus") == 0;
  if (!*wrap && strcmp(words[1], "mesh") != 0) {
    *why = g_strdup_printf("unknown grid kind '%s' (expected torus or mesh)", words[1]);
    return FALSE;
  }
  g_auto(GStrv) parts = g_strsplit(words[0], "x", -1);
  *n_dims = (int)g_strv_length(parts);
  if (*n_dims < 1 || *n_dims > NS_MAX_DIMS) {
    *why = g_strdup_printf("'%s': expected 1 to %d sizes joined by 'x'", words[0], NS_MAX_DIMS);
    return FALSE;
  }
  for (int i = 0; i < *n_dims; i++) {
    char *end = NULL;
    long v = strtol(parts[i], &end, 10);
    if (end == parts[i] || *end != '\0' || v < 1 || v > 1000000) {
      *why = g_strdup_printf("'%s': size '%s' is not a number from 1 to 1000000", words[0],
                             parts[i]);
      return FALSE;
    }
    sizes[i] = (int)v;
  }
  return TRUE;
}

/**
 * \function ns_port_kind_parse
 * \brief A machine's port model from its spelling ("one" or "1", "all", or K).
 *
 * \param text The spelling, as the native format, generators and `verify --port` write it.
 * \param kind Receives the port model.
 * \param k Receives K for NS_PORTS_K, else 0.
 * \return FALSE for anything else (K outside 2..NS_MAX_PORTS).
 * \errors none.
 * \complexity O(length of text).
 * \source Liu Gang et al. §II (port models); docs/topology-format.md.
 */
gboolean ns_port_kind_parse(const char *text, NsPortKind *kind, int *k)
{
  char *end = NULL;
  long n = g_ascii_strtoll(text, &end, 10);
  *k = 0;
  if (strcmp(text, "all") == 0)
    *kind = NS_PORTS_ALL;
  else if (strcmp(text, "one") == 0 || strcmp(text, "1") == 0)
    *kind = NS_PORTS_ONE;
  else if (end != text && *end == '\0' && n > 1 && n <= NS_MAX_PORTS) {
    *kind = NS_PORTS_K;
    *k = (int)n;
  } else
    return FALSE;
  return TRUE;
}

/**
 * \function ns_port_kind_to_string
 * \brief A machine's port model as ns_port_kind_parse() reads it: "one", "all" or K.
 *
 * \param kind The port model.
 * \param k The number of ports, for NS_PORTS_K (ignored otherwise).
 * \return A newly allocated string (g_free), or NULL for NS_PORTS_DEFAULT (nothing written).
 * \errors none.
 * \complexity O(1).
 * \source Liu Gang et al. §II (port models); docs/topology-format.md.
 */
char *ns_port_kind_to_string(NsPortKind kind, int k)
{
  switch (kind) {
  case NS_PORTS_ONE:
    return g_strdup("one");
  case NS_PORTS_ALL:
    return g_strdup("all");
  case NS_PORTS_K:
    return g_strdup_printf("%d", k);
  default:
    return NULL;
  }
}


/**
 * \function ns_topology_machine_port_kind
 * \brief A machine's port model, the default resolved.
 *
 * \param topo A finalized topology.
 * \param machine The machine index.
 * \return NS_PORTS_ONE, NS_PORTS_K or NS_PORTS_ALL.
 * \errors none.
 * \complexity O(1).
 * \source Liu Gang et al. §II (port models); docs/topology-format.md.
 */
NsPortKind ns_topology_machine_port_kind(const NsTopology *t, int machine)
{
  const NsNode *nd = NODE(t, t->machine_node[machine]);
  if (nd->ports != NS_PORTS_DEFAULT)
    return nd->ports;
  return ns_topology_degree(t, t->machine_node[machine]) > 1 ? NS_PORTS_ALL : NS_PORTS_ONE;
}

/**
 * \function ns_topology_machine_ports
 * \brief How many transfers a machine may send, and receive, in a phase.
 *
 * \param topo A finalized topology.
 * \param machine The machine index.
 * \return 1 (1-port), k (k-port) or its number of links (all-port).
 * \errors none.
 * \complexity O(1).
 * \source Liu Gang et al. §II (port models); docs/topology-format.md.
 */
int ns_topology_machine_ports(const NsTopology *t, int machine)
{
  switch (ns_topology_machine_port_kind(t, machine)) {
  case NS_PORTS_K:
    return NODE(t, t->machine_node[machine])->k_ports;
  case NS_PORTS_ALL:
    return ns_topology_degree(t, t->machine_node[machine]);
  default:
    return 1;
  }
}

/**
 * \function ns_topology_machine_port_text
 * \brief A machine's port model as text ("1-port", "4-port", "all-port").
 *
 * \param topo A finalized topology.
 * \param machine The machine index.
 * \return Newly allocated text.
 * \errors none.
 * \complexity O(1).
 * \source Liu Gang et al. §II (port models); docs/topology-format.md.
 */
char *ns_topology_machine_port_text(const NsTopology *t, int machine)
{
  switch (ns_topology_machine_port_kind(t, machine)) {
  case NS_PORTS_K:
    return g_strdup_printf("%d-port", NODE(t, t->machine_node[machine])->k_ports);
  case NS_PORTS_ALL:
    return g_strdup("all-port");
  default:
    return g_strdup("1-port");
  }
}

/* ---- grids --------------------------------------------------------------- */

/**
 * \function ns_topology_grid
 * \brief The topology's grid, if any.
 *
 * \param topo A finalized topology.
 * \param sizes Receives the sizes (capacity NS_MAX_DIMS).
 * \param wrap Receives TRUE for a torus.
 * \return The number of dimensions, 0 when there is no grid.
 * \errors none.
 * \complexity O(dimensions).
 * \source Liu Gang et al. §III; docs/topology-format.md (grid).
 */
int ns_topology_grid(const NsTopology *t, int *sizes, gboolean *wrap)
{
  if (sizes != NULL)
    memcpy(sizes, t->dims, sizeof(int) * (size_t)t->n_dims);
  if (wrap != NULL)
    *wrap = t->wrap;
  return t->n_dims;
}

/**
 * \function ns_topology_machine_coords
 * \brief A machine's grid coordinates.
 *
 * \param topo A finalized topology with a grid.
 * \param machine The machine index.
 * \param coords Receives one coordinate per dimension.
 * \errors none.
 * \complexity O(dimensions).
 * \source Liu Gang et al. §III.
 */
void ns_topology_machine_coords(const NsTopology *t, int machine, int *coords)
{
  for (int d = 0; d < t->n_dims; d++) {
    coords[d] = machine % t->dims[d];
    machine /= t->dims[d];
  }
}

/**
 * \function ns_topology_machine_at
 * \brief The machine at grid coordinates.
 *
 * \param topo A finalized topology with a grid.
 * \param coords One coordinate per dimension.
 * \return The machine index.
 * \errors none.
 * \complexity O(dimensions).
 * \source Liu Gang et al. §III.
 */
int ns_topology_machine_at(const NsTopology *t, const int *coords)
{
  int m = 0;
  for (int d = t->n_dims - 1; d >= 0; d--)
    m = m * t->dims[d] + coords[d];
  return m;
}

/* ---- distances -------------------------------------------------------------- */

/**
 * \function ns_topology_hop_distances
 * \brief Hop distances from a node to every node (BFS).
 *
 * \param topo A finalized topology.
 * \param src The node id.
 * \param dist Receives ns_topology_n_nodes() distances in links (-1: unreachable).
 * \errors none.
 * \complexity O(|V| + |E|).
 * \source platforms/model/topology.h (the model); docs/topology-format.md.
 */
void ns_topology_hop_distances(const NsTopology *t, int src, int *dist)
{
  int n = (int)t->nodes->len;
  int *queue = g_new(int, n);
  for (int v = 0; v < n; v++)
    dist[v] = -1;
  int head = 0, tail = 0;
  dist[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    int v = queue[head++];
    for (int k = t->inc_start[v]; k < t->inc_start[v + 1]; k++) {
      int w = ns_topology_link_other(t, t->inc[k], v);
      if (dist[w] < 0) {
        dist[w] = dist[v] + 1;
        queue[tail++] = w;
      }
    }
  }
  g_free(queue);
}

/* ---- tree view ---------------------------------------------------------------- */

/**
 * \function ns_tree_anchor
 * \brief The anchor of the tree view (the first switch).
 *
 * \param topo A finalized topology under tree routing.
 * \return Its node id.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §4 (the tree); docs/architecture.md, "Routing is an object".
 */
int ns_tree_anchor(const NsTopology *t) { return t->anchor; }
/**
 * \function ns_tree_parent
 * \brief A node's parent in the tree view.
 *
 * \param topo A finalized topology under tree routing.
 * \param node The node id.
 * \return The parent's node id, -1 for the anchor.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §4.
 */
int ns_tree_parent(const NsTopology *t, int node) { return t->parent[node]; }
/**
 * \function ns_tree_depth
 * \brief A node's depth in the tree view (the anchor: 0).
 *
 * \param topo A finalized topology under tree routing.
 * \param node The node id.
 * \return The depth.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §4.
 */
int ns_tree_depth(const NsTopology *t, int node) { return t->depth[node]; }
/**
 * \function ns_tree_up_edge
 * \brief The directed edge from a node to its parent.
 *
 * \param topo A finalized topology under tree routing.
 * \param node The node id (not the anchor).
 * \return The directed edge.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §4.
 */
int ns_tree_up_edge(const NsTopology *t, int node) { return t->up_edge[node]; }
/**
 * \function ns_tree_down_edge
 * \brief The directed edge from a node's parent to it.
 *
 * \param topo A finalized topology under tree routing.
 * \param node The node id (not the anchor).
 * \return The directed edge.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §4.
 */
int ns_tree_down_edge(const NsTopology *t, int node) { return t->down_edge[node]; }
/**
 * \function ns_tree_machines_below
 * \brief Number of machines in the subtree below a node, itself included.
 *
 * \param topo A finalized topology under tree routing.
 * \param node The node id.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §3 (|M_u|·|M_v| messages on a link).
 */
int ns_tree_machines_below(const NsTopology *t, int node) { return t->below[node]; }
/**
 * \function ns_tree_preorder
 * \brief The nodes in depth-first preorder from the anchor, children in link order.
 *
 * \param topo A finalized topology under tree routing.
 * \return ns_topology_n_nodes() node ids, owned by the topology.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §4.
 */
const int *ns_tree_preorder(const NsTopology *t) { return t->preorder; }
