/* netsched — dimension-order routing on rings, meshes, tori and hypercubes.
 *
 * The machines are the nodes of an N_0 × N_1 × … grid (ns_topology_set_grid;
 * machine i at c_0 = i mod N_0, c_1 = ⌊i/N_0⌋ mod N_1, …), each machine its
 * own router (a direct network). A message corrects dimension 0 first, then
 * 1, and so on (Liu Gang et al. §II: "a message proceeds only along one
 * dimension at a time"). On a torus it goes the shorter way round each
 * ring; at distance exactly N/2 both ways are shortest and it goes the
 * positive way (§III counts such a node on the positive half-circle). On a
 * mesh it goes straight. A hypercube of dimension D is the 2 × … × 2 mesh
 * (e-cube routing).
 *
 * Links: the positive link of machine m in dimension d joins m to its
 * positive neighbour; when several links join them (a ring of size 2 has
 * two), it is the lowest-id one declared from m (link.a = m), so the two
 * directions of a size-2 ring use the two cables. The negative link of m
 * is the positive link of its negative neighbour, crossed backwards.
 */
#include "platforms/model/error.h"
#include "platforms/model/topology_internal.h"

typedef struct {
  int *plus;            /* plus[m * n_dims + d]: positive link of machine m in dim d, or -1 */
  int *minus;           /* minus[m * n_dims + d]: negative link, or -1 */
} Grid;

static int neighbour(const NsTopology *t, int m, int d, int step)
{
  int coords[NS_MAX_DIMS];
  ns_topology_machine_coords(t, m, coords);
  coords[d] = ((coords[d] + step) % t->dims[d] + t->dims[d]) % t->dims[d];
  return ns_topology_machine_at(t, coords);
}

/* The lowest-id link from node a to node b declared as a -> b, else the
 * lowest-id link between them, else -1. */
static int link_from_to(const NsTopology *t, int a, int b)
{
  int any = -1;
  for (int k = t->inc_start[a]; k < t->inc_start[a + 1]; k++) {
    int li = t->inc[k];
    const NsLink *l = &g_array_index(t->links, NsLink, li);
    if (ns_topology_link_other(t, li, a) != b)
      continue;
    if (l->a == a)
      return li;
    if (any < 0)
      any = li;
  }
  return any;
}

static void grid_free(NsTopology *t)
{
  Grid *g = t->routing_data;
  if (g == NULL)
    return;
  g_free(g->plus);
  g_free(g->minus);
  g_free(g);
  t->routing_data = NULL;
}

static gboolean grid_build(NsTopology *t, GError **error)
{
  if (t->n_dims == 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, t->routing_line,
                    "dimension-order routing needs a grid (a `torus`, `mesh` or `hypercube` "
                    "statement, or a gen:torus/mesh/ring/hypercube generator)");
    return FALSE;
  }
  if (t->n_machines != (int)t->nodes->len) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, t->grid_line,
                    "a grid's nodes are its machines (each its own router): %d switch%s too "
                    "many for dimension-order routing",
                    (int)t->nodes->len - t->n_machines,
                    (int)t->nodes->len - t->n_machines == 1 ? "" : "es");
    return FALSE;
  }
  int p = t->n_machines, nd = t->n_dims;
  Grid *g = g_new0(Grid, 1);
  t->routing_data = g;
  g->plus = g_new(int, (gsize)p * nd);
  g->minus = g_new(int, (gsize)p * nd);
  for (int m = 0; m < p; m++) {
    int coords[NS_MAX_DIMS];
    ns_topology_machine_coords(t, m, coords);
    for (int d = 0; d < nd; d++) {
      g->plus[m * nd + d] = -1;
      if (t->dims[d] == 1 || (!t->wrap && coords[d] + 1 == t->dims[d]))
        continue;
      int j = neighbour(t, m, d, +1);
      int li = link_from_to(t, t->machine_node[m], t->machine_node[j]);
      if (li < 0) {
        const NsNode *a = &g_array_index(t->nodes, NsNode, t->machine_node[m]);
        const NsNode *b = &g_array_index(t->nodes, NsNode, t->machine_node[j]);
        ns_set_error_at(error, NS_ERROR_INPUT, t->source, t->grid_line,
                        "'%s' and '%s' are neighbours in dimension %d of the %s but no link "
                        "joins them",
                        a->name, b->name, d, t->wrap ? "torus" : "mesh");
        grid_free(t);
        return FALSE;
      }
      g->plus[m * nd + d] = li;
    }
  }
  for (int m = 0; m < p; m++)
    for (int d = 0; d < nd; d++) {
      int coords[NS_MAX_DIMS];
      ns_topology_machine_coords(t, m, coords);
      gboolean edge = t->dims[d] == 1 || (!t->wrap && coords[d] == 0);
      g->minus[m * nd + d] = edge ? -1 : g->plus[neighbour(t, m, d, -1) * nd + d];
    }
  t->max_route_len = 0;
  for (int d = 0; d < nd; d++)
    t->max_route_len += t->wrap ? t->dims[d] / 2 : t->dims[d] - 1;
  return TRUE;
}

/* Signed number of steps in dimension d from coordinate a to b. */
static int steps(const NsTopology *t, int d, int a, int b)
{
  int n = t->dims[d];
  if (!t->wrap)
    return b - a;
  int delta = ((b - a) % n + n) % n;
  return delta <= n / 2 ? delta : delta - n; /* ties (delta = n/2) positive */
}

static int grid_route(const NsTopology *t, int src, int dst, int *edges)
{
  const Grid *g = t->routing_data;
  int nd = t->n_dims;
  int cur = t->node_machine[src], target = t->node_machine[dst];
  int a[NS_MAX_DIMS], b[NS_MAX_DIMS];
  ns_topology_machine_coords(t, cur, a);
  ns_topology_machine_coords(t, target, b);
  int len = 0;
  for (int d = 0; d < nd; d++) {
    int s = steps(t, d, a[d], b[d]);
    for (; s != 0; s += s > 0 ? -1 : 1) {
      int li = s > 0 ? g->plus[cur * nd + d] : g->minus[cur * nd + d];
      edges[len++] = ns_edge_from_link(t, li, t->machine_node[cur]);
      cur = neighbour(t, cur, d, s > 0 ? +1 : -1);
    }
  }
  return len;
}

static char *grid_describe(const NsTopology *t)
{
  GString *dims = g_string_new(NULL);
  gboolean cube = !t->wrap && t->n_dims > 1;
  for (int d = 0; d < t->n_dims; d++) {
    g_string_append_printf(dims, "%s%d", d ? "x" : "", t->dims[d]);
    cube = cube && t->dims[d] == 2;
  }
  const char *shape = cube ? "hypercube" : t->wrap ? (t->n_dims == 1 ? "ring" : "torus") : "mesh";
  char *text = g_strdup_printf(
      t->n_dims == 1 ? "dimension-order on a %2$s of %1$s%3$s"
                     : "dimension-order on a %s %s: dimension 0 first, then 1, ...%s",
      dims->str, shape,
      t->wrap ? "; the shorter way round each ring, at distance exactly N/2 the positive way"
              : "; straight along each dimension");
  g_string_free(dims, TRUE);
  return text;
}

const NsRoutingOps ns_routing_grid_ops = {
  .kind = NS_ROUTING_DIMENSION_ORDER,
  .build = grid_build,
  .route = grid_route,
  .describe = grid_describe,
  .free_data = grid_free,
};
