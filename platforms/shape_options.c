/* netsched — the options of generated shapes. See shape_options.h. */
#include "platforms/shape_options.h"
#include "platforms/units.h"

void ns_shape_options_init(NsShapeOptions *o)
{
  *o = (NsShapeOptions){ .bandwidth = NS_DEFAULT_BANDWIDTH, .latency = NS_DEFAULT_LATENCY,
                         .forwarding = NS_FORWARD_STORE_AND_FORWARD };
}

void ns_shape_apply_node(NsTopology *t, int node, const NsShapeOptions *o)
{
  NsNode *nd = ns_topology_node_mut(t, node);
  if (nd->kind == NS_NODE_SWITCH) {
    nd->forwarding = o->forwarding;
  } else {
    nd->ports = o->ports;
    nd->k_ports = o->k_ports;
  }
}

double ns_shape_link_bandwidth(const NsShapeOptions *o, gboolean switch_to_switch)
{
  return switch_to_switch && o->uplink > 0 ? o->uplink : o->bandwidth;
}
