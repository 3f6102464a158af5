/* netsched — the leaf/spine generator. See leafspine.h. */
#include "platforms/gen/leafspine.h"
#include "platforms/model/error.h"
#include <math.h>
#include <stdlib.h>

static gboolean parse_count(const char *text, gint64 lo, gint64 hi, int *out)
{
  gint64 v = 0;
  if (!ns_shape_parse_int(text, lo, hi, &v))
    return FALSE;
  *out = (int)v;
  return TRUE;
}

/**
 * \function ns_shape_leafspine
 * \brief A two-level Clos: L leaves, S spines, M machines a leaf, under ecmp.
 *
 * \param args "L,S,M[,R]": R the leaves' oversubscription (default 1, non-blocking).
 * \param o The generator options (link speeds, latency, switch and machine attributes).
 *        `uplink=` sets the up-links' speed instead of R.
 * \param suffix Appended to the topology's name.
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT for L < 2, S < 1, M < 1, R not in (0, 1000], both R and uplink=, or
 *        more than 1,000,000 nodes or 10,000,000 links.
 * \complexity O(L·(S + M)).
 * \source issue 18 item 8 (leaf/spine fabrics); docs/topology-format.md, "Generated topologies".
 */
NsTopology *ns_shape_leafspine(const char *args, const NsShapeOptions *o, const char *suffix,
                               GError **error)
{
  g_auto(GStrv) part = g_strsplit(args, ",", -1);
  guint np = g_strv_length(part);
  int leaves = 0, spines = 0, per_leaf = 0;
  double ratio = 1;
  char *end = NULL;
  if (np >= 4)
    ratio = g_ascii_strtod(part[3], &end);
  if ((np != 3 && np != 4) || !parse_count(part[0], 2, 1000000, &leaves) ||
      !parse_count(part[1], 1, 1000000, &spines) || !parse_count(part[2], 1, 1000000, &per_leaf) ||
      (np == 4 && (end == part[3] || *end != '\0' || !(ratio > 0 && ratio <= 1000)))) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "leafspine:%s: expected LEAVES,SPINES,MACHINES_PER_LEAF[,OVERSUBSCRIPTION] "
                    "with at least 2 leaves, 1 spine, 1 machine a leaf and an oversubscription "
                    "ratio above 0 and at most 1000",
                    args);
    return NULL;
  }
  if (np == 4 && o->uplink > 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "leafspine:%s: give the oversubscription or uplink=, not both (the "
                    "oversubscription sets the up-link speed)",
                    args);
    return NULL;
  }
  gint64 nodes = (gint64)leaves * (1 + per_leaf) + spines;
  gint64 links = (gint64)leaves * (per_leaf + spines);
  if (nodes > 1000000 || links > 10000000) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "leafspine:%s: %" G_GINT64_FORMAT " nodes and %" G_GINT64_FORMAT
                    " links (at most 1,000,000 nodes and 10,000,000 links)",
                    args, nodes, links);
    return NULL;
  }
  double up = o->uplink > 0 ? o->uplink : o->bandwidth * per_leaf / (spines * ratio);
  g_autofree char *src = g_strdup_printf("gen:leafspine:%s%s", args, suffix ? suffix : "");
  NsTopology *t = ns_topology_new(src);
  /* Machines first (n0.. leaf by leaf), then leaves, then spines. */
  for (gint64 i = 0; i < (gint64)leaves * per_leaf; i++) {
    char name[32];
    g_snprintf(name, sizeof name, "n%" G_GINT64_FORMAT, i);
    ns_shape_apply_node(t, ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, NULL), o);
  }
  int first_leaf = leaves * per_leaf, first_spine = first_leaf + leaves;
  for (int l = 0; l < leaves; l++) {
    char name[32];
    g_snprintf(name, sizeof name, "leaf%d", l);
    ns_shape_apply_node(t, ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL), o);
  }
  for (int s = 0; s < spines; s++) {
    char name[32];
    g_snprintf(name, sizeof name, "spine%d", s);
    ns_shape_apply_node(t, ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL), o);
  }
  for (int i = 0; i < first_leaf; i++)
    ns_topology_add_link(t, i, first_leaf + i / per_leaf, o->bandwidth, o->latency, 0, NULL);
  for (int l = 0; l < leaves; l++)
    for (int s = 0; s < spines; s++)
      ns_topology_add_link(t, first_leaf + l, first_spine + s, up, o->latency, 0, NULL);
  ns_topology_set_routing(t, NS_ROUTING_ECMP, 0);
  if (!ns_topology_finalize(t, NULL, NULL, error)) {
    ns_topology_free(t);
    return NULL;
  }
  return t;
}
