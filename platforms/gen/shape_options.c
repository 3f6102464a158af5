/* netsched — the options of generated shapes. See shape_options.h. */
#include "platforms/gen/shape_options.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include <string.h>

/**
 * \function ns_shape_options_init
 * \brief Default generator options: 100 Mbit/s, 10 us, store-and-forward, default ports.
 *
 * \param o The options to fill.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Generated topologies".
 */
void ns_shape_options_init(NsShapeOptions *o)
{
  *o = (NsShapeOptions){ .bandwidth = NS_DEFAULT_BANDWIDTH, .latency = NS_DEFAULT_LATENCY,
                         .forwarding = NS_FORWARD_STORE_AND_FORWARD };
}

/**
 * \function ns_shape_apply_node
 * \brief Gives a node the options' switch or machine attributes.
 *
 * \param t A topology being built.
 * \param node The node id.
 * \param o The options.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Generated topologies".
 */
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

/**
 * \function ns_shape_link_bandwidth
 * \brief The bandwidth the options give a link.
 *
 * \param o The options.
 * \param switch_to_switch TRUE for an uplink (switch to switch).
 * \return The uplink speed for an uplink when set, else the bandwidth.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Generated topologies".
 */
double ns_shape_link_bandwidth(const NsShapeOptions *o, gboolean switch_to_switch)
{
  return switch_to_switch && o->uplink > 0 ? o->uplink : o->bandwidth;
}

/**
 * \function ns_shape_spec_check
 * \brief The checks every generator specification passes before it is parsed.
 *
 * \param spec "SHAPE:ARGS:KEY=VALUE..." without "gen:".
 * \param error Set on failure (see errors).
 * \return FALSE when it is refused.
 * \errors NS_ERROR_INPUT "gen:SPEC: ..." for an empty specification, characters other than
 *        printable ASCII without spaces, no shape name first, or an option key given twice.
 * \complexity O(length of spec).
 * \source docs/topology-format.md, "Generated topologies".
 */
gboolean ns_shape_spec_check(const char *spec, GError **error)
{
  for (const char *c = spec; *c != '\0'; c++)
    if (!g_ascii_isgraph(*c)) {
      g_autofree char *shown = g_strescape(spec, NULL);
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "gen:%s: character %ld is a space, a control character or not ASCII "
                      "(a generator specification is SHAPE:ARGS[:KEY=VALUE...] without spaces)",
                      shown, (long)(c - spec) + 1);
      return FALSE;
    }
  if (spec[0] == '\0' || spec[0] == ':') {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "gen:%s: no shape given (expected gen:SHAPE:ARGS, e.g. gen:star:8)", spec);
    return FALSE;
  }
  /* Options start after the shape and its arguments: SHAPE:ARGS:KEY=VALUE... */
  g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
  for (int i = 2; parts[0] != NULL && parts[1] != NULL && parts[i] != NULL; i++) {
    const char *eq = strchr(parts[i], '=');
    gsize len = eq != NULL ? (gsize)(eq - parts[i]) : strlen(parts[i]);
    for (int j = 2; j < i; j++)
      if (strncmp(parts[j], parts[i], len) == 0 && (parts[j][len] == '=' || parts[j][len] == '\0')) {
        g_autofree char *key = g_strndup(parts[i], len);
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "gen:%s: option '%s' is given twice",
                        spec, key);
        return FALSE;
      }
  }
  return TRUE;
}
