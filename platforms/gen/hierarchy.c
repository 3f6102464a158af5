/* netsched — gen:hierarchy:AxB, Tam & Wang's two-level FE/GE hierarchy
 * (§2.3 Figure 1, §4). See shapes.h. */
#include "platforms/model/error.h"
#include "platforms/gen/hierarchy.h"
#include <string.h>

/* Table 1 of Tam & Wang §4: buffer capacities B_L in packets. */
#define FE_SWITCH_BUFFER 43   /* IBM 8275-326, input-buffered */
#define FE_UPLINK_BUFFER 45   /* its GE uplink module, input-buffered */
#define GE_SWITCH_BUFFER 820  /* Alcatel PowerRail 2200, shared-buffered */
#define GE_UPLINK_BANDWIDTH 1e9

/* "8x2" -> A = 8, B = 2. */
static gboolean parse_axb(const char *text, int *a, int *b)
{
  const char *x_at = strchr(text, 'x');
  if (x_at == NULL)
    return FALSE;
  g_autofree char *first = g_strndup(text, (gsize)(x_at - text));
  gint64 x = 0, y = 0;
  /* each factor bounded first: x * y cannot overflow then */
  if (!ns_shape_parse_int(first, 1, 1000000, &x) || !ns_shape_parse_int(x_at + 1, 1, 1000000, &y) ||
      x * y < 2 || x * y + y + 1 > 1000000)
    return FALSE;
  *a = (int)x;
  *b = (int)y;
  return TRUE;
}

static int add_switch(NsTopology *t, int index, NsBuffering buffering, int buffer,
                      const NsShapeOptions *o)
{
  char name[32];
  g_snprintf(name, sizeof name, "s%d", index);
  int v = ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL);
  ns_shape_apply_node(t, v, o);
  NsNode *nd = ns_topology_node_mut(t, v);
  nd->buffering = buffering;
  nd->buffer_packets = buffer;
  return v;
}

/*
 * ns_shape_hierarchy — A machines on each of B Fast Ethernet switches,
 * joined by Gigabit uplinks to one Gigabit Ethernet switch (Tam & Wang
 * §2.3, Figure 1; the configurations AxB of §4).
 *
 * Steps:
 *  1. Parse "AxB" (A, B >= 1, A·B >= 2).
 *  2. B = 1: one FE switch s0 — Table 1's IBM 8275-326, input-buffered,
 *     43 packets per port — with A machines (16x1).
 *  3. B > 1: the GE switch s0 — Table 1's PowerRail 2200, shared-buffered,
 *     820 packets — and FE switches s1..sB, each with an uplink to s0 and A
 *     machines. The FE switches are input-buffered with 45 packets, the
 *     buffer of their GE uplink module (Table 1): the model keeps one size
 *     per switch, and the uplink port is the one that binds (§3.2: "the
 *     uplink ports are the critical bottlenecks"), while the machine ports'
 *     43 would never bind (one packet per step each).
 *  4. Machines n0.. in switch order (n0..n{A−1} on s1, ...), machine links
 *     at o->bandwidth (100 Mbit/s unless given), uplinks at o->uplink
 *     (1 Gbit/s unless given; the paper measured 103 MB/s across the two
 *     directions of its uplinks, §4.2: uplink=412Mbps reproduces that).
 * Store-and-forward switches unless o says otherwise. `suffix` (the
 * options as given) is appended to the topology's name. Time O(A·B).
 * Errors: NS_ERROR_INPUT for a malformed AxB or more than 1,000,000 nodes.
 */
/**
 * \function ns_shape_hierarchy
 * \brief Tam and Wang's two-level Ethernet hierarchy "AxB".
 *
 * \param args "AxB": A machines on each of B FE switches under one GE switch.
 * \param o The generator options (link speeds, latency, switch and machine attributes). Uplinks
 *        default to 1 Gbit/s.
 * \param suffix Appended to the topology's name.
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT for a malformed AxB or factors out of range.
 * \complexity O(A·B).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet (§4).
 */
NsTopology *ns_shape_hierarchy(const char *args, const NsShapeOptions *o, const char *suffix,
                               GError **error)
{
  int a, b;
  if (!parse_axb(args, &a, &b)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "gen:hierarchy:%s: expected AxB, A >= 1 machines on each of B >= 1 FE "
                    "switches (at least 2 machines, at most 1,000,000 nodes)",
                    args);
    return NULL;
  }
  g_autofree char *source = g_strdup_printf("gen:hierarchy:%s%s", args, suffix);
  NsTopology *t = ns_topology_new(source);
  double uplink = o->uplink > 0 ? o->uplink : GE_UPLINK_BANDWIDTH;
  int ge = b > 1 ? add_switch(t, 0, NS_BUFFER_SHARED, GE_SWITCH_BUFFER, o) : -1;
  int *fe = g_new(int, b);
  for (int j = 0; j < b; j++) {
    fe[j] = add_switch(t, ge >= 0 ? j + 1 : 0, NS_BUFFER_INPUT,
                       ge >= 0 ? FE_UPLINK_BUFFER : FE_SWITCH_BUFFER, o);
    if (ge >= 0)
      ns_topology_add_link(t, fe[j], ge, uplink, o->latency, 0, NULL);
  }
  for (int j = 0; j < b; j++)
    for (int k = 0; k < a; k++) {
      char name[32];
      g_snprintf(name, sizeof name, "n%d", j * a + k);
      int v = ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, NULL);
      ns_shape_apply_node(t, v, o);
      ns_topology_add_link(t, v, fe[j], o->bandwidth, o->latency, 0, NULL);
    }
  g_free(fe);
  g_autofree char *title = g_strdup_printf(
      "%s: Tam & Wang's %dx%d FE/GE hierarchy (%d machines)", source, a, b, a * b);
  ns_topology_set_title(t, title);
  if (!ns_topology_finalize(t, NULL, NULL, error)) {
    ns_topology_free(t);
    return NULL;
  }
  return t;
}
