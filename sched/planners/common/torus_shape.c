/* netsched — the all-port torus the torus planners need (see
 * torus_shape_internal.h). */
#include "platforms/model/error.h"
#include "sched/planners/common/torus_shape_internal.h"

int ns_plan_torus_shape(const NsTopology *topo, const char *algorithm, int *sizes, GError **error)
{
  gboolean wrap = FALSE;
  int n_dims = ns_topology_grid(topo, sizes, &wrap), p = ns_topology_n_machines(topo);
  int64_t cells = 1;
  for (int k = 0; k < n_dims; k++)
    cells *= sizes[k];
  if (n_dims == 0 || !wrap || cells != p) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "%s needs a torus or ring of machines (gen:torus:AxB[xC], gen:ring:P); "
                "%s is not one",
                algorithm, ns_topology_source(topo));
    return 0;
  }
  int n_gen = 0;
  for (int k = 0; k < n_dims; k++)
    n_gen += sizes[k] >= 3 ? 2 : sizes[k] == 2 ? 1 : 0;
  for (int m = 0; m < p; m++)
    if (ns_topology_machine_ports(topo, m) < n_gen) {
      g_autofree char *ports = ns_topology_machine_port_text(topo, m);
      g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                  "%s sends on all %d directions of a machine at once; machine %s has "
                  "%s (an all-port torus: the default of gen:torus, not ports=one)",
                  algorithm, n_gen, ns_topology_machine_name(topo, m), ports);
      return 0;
    }
  return n_dims;
}
