/* netsched — the options every generated shape takes (":bandwidth=...",
 * ":uplink=...", ":latency=...", ":forwarding=...", ":ports=..."; see
 * shapes.h), shared by the generators. Defined in shape_options.c. */
#ifndef NETSCHED_SHAPE_OPTIONS_H
#define NETSCHED_SHAPE_OPTIONS_H

#include "platforms/model/topology.h"

/* Link speeds and node attributes of generated topologies. */
typedef struct {
  double bandwidth;        /* bit/s: machine links, and all links when uplink is 0 */
  double uplink;           /* bit/s: switch-to-switch links; 0 = bandwidth */
  double latency;          /* s, every link */
  NsForwarding forwarding; /* switches */
  NsPortKind ports;        /* machines (NS_PORTS_DEFAULT: by their link count) */
  int k_ports;             /* NS_PORTS_K */
} NsShapeOptions;

/* 100 Mbit/s, 10 us, store-and-forward, default ports. */
void ns_shape_options_init(NsShapeOptions *o);
/* The options' bandwidth of a link (switch_to_switch: an uplink). */
double ns_shape_link_bandwidth(const NsShapeOptions *o, gboolean switch_to_switch);
/* Applies the switch or machine attributes of `o` to node `node`. */
void ns_shape_apply_node(NsTopology *t, int node, const NsShapeOptions *o);

/* The checks every generator specification ("SHAPE:ARGS:KEY=VALUE...",
 * without "gen:") passes before it is parsed: not empty, printable ASCII
 * without spaces (a number is never " 4"), a shape name first, and no
 * option key given twice. NS_ERROR_INPUT "gen:SPEC: ..." otherwise. */
gboolean ns_shape_spec_check(const char *spec, GError **error);

#endif
