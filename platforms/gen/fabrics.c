/* netsched — generated fabrics beyond switch trees: k-ary n-tree fat
 * trees, and rings, meshes, tori and hypercubes. See shapes.h. */
#include "platforms/model/error.h"
#include "platforms/gen/fabrics.h"

static NsTopology *finish(NsTopology *t, GError **error)
{
  if (!ns_topology_finalize(t, NULL, NULL, error)) {
    ns_topology_free(t);
    return NULL;
  }
  return t;
}

/**
 * \function ns_shape_fattree
 * \brief The k-ary n-tree of Petrini and Vanneschi, under d-mod-k routing.
 *
 * \param k The arity (>= 2).
 * \param n The levels (>= 1): k^n machines, n levels of k^(n-1) switches.
 * \param o The generator options (link speeds, latency, switch and machine attributes).
 * \param suffix Appended to the topology's name.
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT for k < 2, n < 1 or more than 1,000,000 nodes.
 * \complexity O(n · k^n).
 * \source Petrini and Vanneschi (1997); Zahavi et al. (2010, d-mod-k).
 */
NsTopology *ns_shape_fattree(int k, int n, const NsShapeOptions *o, const char *suffix,
                             GError **error)
{
  int64_t per_level = 1;
  for (int l = 1; l < n && per_level <= 1000000; l++)
    per_level *= k;
  if (k < 2 || n < 1 || per_level * (n + k) > 1000000) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "fattree:%d,%d: needs k >= 2, n >= 1 and at most 1,000,000 nodes", k, n);
    return NULL;
  }
  g_autofree char *src = g_strdup_printf("gen:fattree:%d,%d%s", k, n, suffix ? suffix : "");
  NsTopology *t = ns_topology_new(src);
  int64_t machines = per_level * k;
  for (int64_t i = 0; i < machines; i++) {
    char name[32];
    g_snprintf(name, sizeof name, "n%" G_GINT64_FORMAT, i);
    ns_shape_apply_node(t, ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, NULL), o);
  }
  int first_switch = (int)machines; /* switch (l, w) is node first_switch + (l-1)·per_level + w */
  for (int l = 1; l <= n; l++)
    for (int64_t w = 0; w < per_level; w++) {
      char name[40];
      g_snprintf(name, sizeof name, "L%ds%" G_GINT64_FORMAT, l, w);
      ns_shape_apply_node(t, ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL), o);
    }
  for (int64_t i = 0; i < machines; i++)
    ns_topology_add_link(t, (int)i, first_switch + (int)(i / k), ns_shape_link_bandwidth(o, FALSE),
                         o->latency, 0, NULL);
  for (int l = 1; l < n; l++) {
    int64_t place = 1; /* k^(l-1): the weight of digit l-1 */
    for (int i = 1; i < l; i++)
      place *= k;
    for (int64_t w = 0; w < per_level; w++) {
      int64_t digit = (w / place) % k;
      for (int j = 0; j < k; j++) { /* up-port j, in port order */
        int64_t up = w + (j - digit) * place;
        ns_topology_add_link(t, first_switch + (int)((l - 1) * per_level + w),
                             first_switch + (int)(l * per_level + up),
                             ns_shape_link_bandwidth(o, TRUE), o->latency, 0, NULL);
      }
    }
  }
  ns_topology_set_routing(t, NS_ROUTING_DMODK, 0);
  return finish(t, error);
}

/**
 * \function ns_shape_grid
 * \brief A torus or a mesh under dimension-order routing.
 *
 * \param dims The sizes of the dimensions.
 * \param n_dims Their number.
 * \param wrap TRUE for a torus.
 * \param o The generator options (link speeds, latency, switch and machine attributes). Machines
 *        are all-port unless it says otherwise.
 * \param suffix Appended to the topology's name.
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT for a size < 1, fewer than 2 machines or more than 1,000,000.
 * \complexity O(P · dims).
 * \source Liu Gang et al. §II-III.
 */
NsTopology *ns_shape_grid(const int *dims, int n_dims, gboolean wrap, const NsShapeOptions *o,
                          const char *suffix, GError **error)
{
  int64_t p = 1;
  GString *name = g_string_new(NULL);
  gboolean cube = !wrap && n_dims > 1;
  for (int d = 0; d < n_dims; d++) {
    p *= dims[d] >= 1 ? dims[d] : 0;
    g_string_append_printf(name, "%s%d", d ? "x" : "", dims[d]);
    cube = cube && dims[d] == 2;
  }
  g_autofree char *shape = g_string_free(name, FALSE);
  if (p < 2 || p > 1000000) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "%s:%s: needs 2 to 1,000,000 machines", wrap ? "torus" : "mesh", shape);
    return NULL;
  }
  g_autofree char *src =
      cube ? g_strdup_printf("gen:hypercube:%d%s", n_dims, suffix ? suffix : "")
      : wrap && n_dims == 1 ? g_strdup_printf("gen:ring:%s%s", shape, suffix ? suffix : "")
                            : g_strdup_printf("gen:%s:%s%s", wrap ? "torus" : "mesh", shape,
                                              suffix ? suffix : "");
  NsTopology *t = ns_topology_new(src);
  for (int64_t i = 0; i < p; i++) {
    char nm[32];
    g_snprintf(nm, sizeof nm, "n%" G_GINT64_FORMAT, i);
    ns_shape_apply_node(t, ns_topology_add_node(t, nm, NS_NODE_MACHINE, 0, NULL), o);
  }
  if (!ns_topology_set_grid(t, n_dims, dims, wrap, 0, error)) {
    ns_topology_free(t);
    return NULL;
  }
  for (int64_t i = 0; i < p; i++) {
    int64_t stride = 1;
    for (int d = 0; d < n_dims; d++) {
      int64_t c = (i / stride) % dims[d];
      if (dims[d] > 1 && (wrap || c + 1 < dims[d])) {
        int64_t j = i + ((c + 1) % dims[d] - c) * stride;
        ns_topology_add_link(t, (int)i, (int)j, ns_shape_link_bandwidth(o, FALSE), o->latency, 0,
                             NULL);
      }
      stride *= dims[d];
    }
  }
  ns_topology_set_routing(t, NS_ROUTING_DIMENSION_ORDER, 0);
  return finish(t, error);
}
