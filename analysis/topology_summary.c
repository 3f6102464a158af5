/* netsched — what `topo show` reports of a topology (topology_summary.h). */
#include "analysis/topology_summary_internal.h"

void ns_topology_summarize(const NsTopology *t, NsTopologySummary *s)
{
  *s = (NsTopologySummary){ .bw_min = G_MAXDOUBLE, .lat_min = G_MAXDOUBLE, .lr1 = -1, .lr2 = -1,
                            .lr3 = -1 };
  ns_a2a_bound(t, 1, &s->a2a);
  for (int i = 0; i < ns_topology_n_links(t); i++) {
    const NsLink *l = ns_topology_link(t, i);
    s->bw_min = MIN(s->bw_min, l->bandwidth);
    s->bw_max = MAX(s->bw_max, l->bandwidth);
    s->lat_min = MIN(s->lat_min, l->latency);
    s->lat_max = MAX(s->lat_max, l->latency);
  }
  for (int m = 0; m < ns_topology_n_machines(t); m++)
    switch (ns_topology_machine_port_kind(t, m)) {
    case NS_PORTS_ALL: s->ports_all++; break;
    case NS_PORTS_K: s->ports_k++; break;
    default: s->ports_one++; break;
    }
  s->routing = ns_topology_routing_describe(t);
  s->bottleneck = ns_lower_bound_describe(t, &s->a2a.bound);
  s->cut = ns_lower_bound_describe(t, &s->a2a.cut);
  s->tree = ns_topology_routing(t) == NS_ROUTING_TREE;
  s->max_ports = ns_bounds_max_ports(t);
  if (s->max_ports > 1) {
    ns_lower_bound(t, NS_COLL_ALLGATHER, 1, -1, 1, &s->allgather);
    s->allgather_bottleneck = ns_lower_bound_describe(t, &s->allgather);
    s->allgather_fluid = ns_allgather_fluid_bound(t, 1);
  }
  ns_lower_bound_reduction(t, NS_COLL_REDUCE, 1, 0, 0, &s->reduce);
  s->reduce_bottleneck = ns_lower_bound_describe(t, &s->reduce);
  ns_lower_bound_reduction(t, NS_COLL_ALLREDUCE, 1, 0, -1, &s->allreduce);
  s->allreduce_bottleneck = ns_lower_bound_describe(t, &s->allreduce);
  if (!s->tree)
    return;
  ns_allgather_two_hop(t, &s->two_hop);
  s->lr1 = ns_allgather_lr1_path(t);
  s->lr2 = s->two_hop.holds ? ns_allgather_lr2_path(t) : -1;
  GError *error = NULL;
  s->lr3 = ns_allgather_lr3_path(t, &error);
  if (error != NULL) {
    s->lr3_error = g_strdup(error->message);
    g_error_free(error);
  }
}

void ns_topology_summary_clear(NsTopologySummary *s)
{
  g_free(s->routing);
  g_free(s->bottleneck);
  g_free(s->cut);
  g_free(s->lr3_error);
  g_free(s->allgather_bottleneck);
  g_free(s->reduce_bottleneck);
  g_free(s->allreduce_bottleneck);
}
