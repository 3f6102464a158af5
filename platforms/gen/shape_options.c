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

static const NsShapeOptionInfo option_table[] = {
  { "bandwidth", "BANDWIDTH", "every link (machine links only when uplink= is given)" },
  { "uplink", "BANDWIDTH", "the switch-to-switch links" },
  { "latency", "TIME", "every link" },
  { "forwarding", "store-and-forward|cut-through", "every switch" },
  { "ports", "one|all|K", "every machine's port model (default: by its link count)" },
  { NULL, NULL, NULL },
};

/**
 * \function ns_shape_option_table
 * \brief The link and node options every generator takes: key, value form, meaning.
 *
 * The one table shapes.c and gtitm.c read and help texts list: bandwidth, uplink, latency,
 * forwarding, ports.
 *
 * \return A static array, ended by a row whose key is NULL.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Generated topologies".
 */
const NsShapeOptionInfo *ns_shape_option_table(void) { return option_table; }

/**
 * \function ns_shape_option_keys
 * \brief The table's keys, joined: "bandwidth, uplink, latency, forwarding, ports".
 *
 * \return A static string (built once, thread-safe; not to be freed).
 * \errors none.
 * \complexity O(1) after the first call, O(table) for it.
 * \source docs/topology-format.md, "Generated topologies".
 */
const char *ns_shape_option_keys(void)
{
  static gsize once = 0;
  static char *keys;
  if (g_once_init_enter(&once)) {
    GString *s = g_string_new(NULL);
    for (const NsShapeOptionInfo *i = option_table; i->key != NULL; i++)
      g_string_append_printf(s, "%s%s", i == option_table ? "" : ", ", i->key);
    keys = g_string_free(s, FALSE);
    g_once_init_leave(&once, 1);
  }
  return keys;
}

/**
 * \function ns_shape_option_set
 * \brief Sets one generator option (a key of ns_shape_option_table()) from its text.
 *
 * \param o The options to change (only the key's fields; ports= zeroes k_ports even for a bad
 *        value).
 * \param key The option's key, e.g. "bandwidth".
 * \param value Its value: a bandwidth ("1Gbps"), a time ("5us"), store-and-forward or
 *        cut-through, or a port model (ns_port_kind_parse()).
 * \param known Receives FALSE for a key not in the table, else TRUE.
 * \param why When the key is known and the value bad: a static explanation of a good value
 *        (it may also be set on success; untouched for an unknown key).
 * \return TRUE when the option is set.
 * \errors FALSE with *known and *why; no GError.
 * \complexity O(length of value).
 * \source docs/topology-format.md, "Generated topologies".
 */
gboolean ns_shape_option_set(NsShapeOptions *o, const char *key, const char *value,
                             gboolean *known, const char **why)
{
  *known = TRUE;
  if (strcmp(key, "bandwidth") == 0)
    return ns_parse_bandwidth(value, &o->bandwidth, why);
  if (strcmp(key, "uplink") == 0)
    return ns_parse_bandwidth(value, &o->uplink, why);
  if (strcmp(key, "latency") == 0)
    return ns_parse_time(value, &o->latency, why);
  if (strcmp(key, "forwarding") == 0) {
    *why = "expected cut-through or store-and-forward";
    return ns_forwarding_parse(value, &o->forwarding);
  }
  if (strcmp(key, "ports") == 0) {
    *why = "expected all, 1 or a number of ports";
    return ns_port_kind_parse(value, &o->ports, &o->k_ports);
  }
  *known = FALSE;
  return FALSE;
}

/**
 * \function ns_shape_parse_int
 * \brief The integer of a generator argument, from lo to hi: the generators' one integer reader.
 *
 * Decimal digits after an optional sign, and nothing after them. It reads with
 * g_ascii_strtoll(): leading white space is skipped (a specification never holds any:
 * ns_shape_spec_check()), and a number beyond 64 bits saturates to G_MININT64 or G_MAXINT64
 * before the range check.
 *
 * \param text The argument.
 * \param lo, hi The inclusive range.
 * \param out Receives the value (untouched on failure).
 * \return FALSE for text that is not such a number or is outside lo..hi.
 * \errors FALSE; no GError (the caller names the argument).
 * \complexity O(length of text).
 * \source docs/topology-format.md, "Generated topologies".
 */
gboolean ns_shape_parse_int(const char *text, gint64 lo, gint64 hi, gint64 *out)
{
  char *end = NULL;
  gint64 v = g_ascii_strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi)
    return FALSE;
  *out = v;
  return TRUE;
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
