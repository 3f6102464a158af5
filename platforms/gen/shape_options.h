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

/* The link and node options every generator takes, one row each: the key,
 * what its value is, and what it means (the one table that shapes.c and
 * gtitm.c read, and help texts list). */
typedef struct {
  const char *key;
  const char *value;   /* the value's form, e.g. "BANDWIDTH" */
  const char *meaning;
} NsShapeOptionInfo;

/* The table, ended by a row with key NULL. */
const NsShapeOptionInfo *ns_shape_option_table(void);
/* "bandwidth, uplink, latency, forwarding, ports": the table's keys. */
const char *ns_shape_option_keys(void);

/* Sets option `key` of the table in `o` from `value`: TRUE when set;
 * FALSE with *known FALSE for a key not in the table, or *known TRUE and
 * *why saying what a good value is. */
gboolean ns_shape_option_set(NsShapeOptions *o, const char *key, const char *value,
                             gboolean *known, const char **why);

/* The integer of a generator argument: decimal digits (after an optional
 * sign) from lo to hi, nothing else. The one integer reader of the
 * generators (shapes.c, leafspine.c, gtitm.c). */
gboolean ns_shape_parse_int(const char *text, gint64 lo, gint64 hi, gint64 *out);

/* The checks every generator specification ("SHAPE:ARGS:KEY=VALUE...",
 * without "gen:") passes before it is parsed: not empty, printable ASCII
 * without spaces (a number is never " 4"), a shape name first, and no
 * option key given twice. NS_ERROR_INPUT "gen:SPEC: ..." otherwise. */
gboolean ns_shape_spec_check(const char *spec, GError **error);

#endif
