/* netsched — Topology -> SimGrid platform XML (version 4.1). See
 * topology_simgrid.h for the mapping and its limits. The file also works
 * with `smpirun -platform`. */
#include "platforms/model/error.h"
#include "platforms/io/topology_simgrid.h"

/**
 * \function ns_simgrid_link_name
 * \brief SimGrid's name of the link direction carrying a directed edge.
 *
 * \param topo The topology exported.
 * \param edge The directed edge.
 * \return "l<i>_UP" for 2i (a to b), "l<i>_DOWN" for 2i+1 (newly allocated).
 * \errors none.
 * \complexity O(1).
 * \source docs/simulator.md.
 */
char *ns_simgrid_link_name(const NsTopology *topo, int edge)
{
  return g_strdup_printf("l%d_%s", ns_edge_link(edge), (edge & 1) ? "DOWN" : "UP");
}

/* Latency of link i: its own, plus half a packet time at each
 * store-and-forward switch it touches. */
static double link_latency(const NsTopology *t, int i, const NsSimGridExport *opt)
{
  const NsLink *l = ns_topology_link(t, i);
  double latency = l->latency;
  if (opt->store_forward_packet == 0)
    return latency;
  const int ends[2] = { l->a, l->b };
  for (int k = 0; k < 2; k++) {
    const NsNode *n = ns_topology_node(t, ends[k]);
    if (n->kind == NS_NODE_SWITCH && n->forwarding == NS_FORWARD_STORE_AND_FORWARD)
      latency += 0.5 * (double)opt->store_forward_packet * 8.0 / l->bandwidth;
  }
  return latency;
}

static void write_nodes_and_links(const NsTopology *t, const NsSimGridExport *opt, FILE *out)
{
  for (int v = 0; v < ns_topology_n_nodes(t); v++) {
    const NsNode *n = ns_topology_node(t, v);
    g_autofree char *id = g_markup_escape_text(n->name, -1);
    if (n->kind == NS_NODE_MACHINE)
      fprintf(out, "  <host id=\"%s\" speed=\"1Gf\"/>\n", id);
    else
      fprintf(out, "  <router id=\"%s\"/>\n", id);
  }
  for (int i = 0; i < ns_topology_n_links(t); i++)
    fprintf(out,
            "  <link id=\"l%d\" bandwidth=\"%.17gbps\" latency=\"%.17gs\" "
            "sharing_policy=\"SPLITDUPLEX\"/>\n",
            i, ns_topology_link(t, i)->bandwidth, link_latency(t, i, opt));
}

/* Trees: one-hop routes; SimGrid finds the unique paths. */
static void write_one_hop_routes(const NsTopology *t, FILE *out)
{
  for (int i = 0; i < ns_topology_n_links(t); i++) {
    const NsLink *l = ns_topology_link(t, i);
    g_autofree char *a = g_markup_escape_text(ns_topology_node(t, l->a)->name, -1);
    g_autofree char *b = g_markup_escape_text(ns_topology_node(t, l->b)->name, -1);
    fprintf(out,
            "  <route src=\"%s\" dst=\"%s\" symmetrical=\"YES\"><link_ctn id=\"l%d\" "
            "direction=\"UP\"/></route>\n",
            a, b, i);
  }
}

/* The route of a machine pair: the override's, else the topology's. */
static int pair_route(const NsTopology *t, const NsSimGridExport *opt, int a, int b, int *route)
{
  int len = opt->pair_route != NULL ? opt->pair_route(opt->pair_data, a, b, route) : -1;
  return len >= 0 ? len : ns_topology_route_machines(t, a, b, route);
}

/* Other routings: every ordered machine pair's route, as netsched routes it. */
static gboolean write_full_routes(const NsTopology *t, const NsSimGridExport *opt, FILE *out,
                                  GError **error)
{
  int p = ns_topology_n_machines(t);
  /* Own routes are simple paths: fewer edges than nodes. */
  int *route = g_new(int, ns_topology_n_nodes(t) + ns_topology_max_route_len(t));
  uint64_t entries = 0;
  for (int a = 0; a < p; a++)
    for (int b = 0; b < p; b++)
      if (a != b)
        entries += (uint64_t)pair_route(t, opt, a, b, route);
  if (entries > NS_SIMGRID_MAX_ROUTE_LINKS) {
    g_free(route);
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "%s: the SimGrid platform would list %" G_GUINT64_FORMAT " route entries "
                    "for its %s routing (at most %" G_GUINT64_FORMAT "): simulate a smaller "
                    "fabric, or a spanning tree of it",
                    ns_topology_source(t), entries,
                    ns_routing_kind_name(ns_topology_routing(t)), NS_SIMGRID_MAX_ROUTE_LINKS);
    return FALSE;
  }
  char **names = g_new(char *, (gsize)MAX(p, 1));
  for (int m = 0; m < p; m++)
    names[m] = g_markup_escape_text(ns_topology_machine_name(t, m), -1);
  for (int a = 0; a < p; a++)
    for (int b = 0; b < p; b++) {
      if (a == b)
        continue;
      int len = pair_route(t, opt, a, b, route);
      fprintf(out, "  <route src=\"%s\" dst=\"%s\" symmetrical=\"NO\">", names[a], names[b]);
      for (int k = 0; k < len; k++)
        fprintf(out, "<link_ctn id=\"l%d\" direction=\"%s\"/>", ns_edge_link(route[k]),
                (route[k] & 1) ? "DOWN" : "UP");
      fputs("</route>\n", out);
    }
  for (int m = 0; m < p; m++)
    g_free(names[m]);
  g_free(names);
  g_free(route);
  return TRUE;
}

/**
 * \function ns_topology_write_simgrid_with
 * \brief Writes a SimGrid platform with export options.
 *
 * \param topo A finalized topology.
 * \param opt Store-and-forward packet size, and the routes of machine pairs that are not the
 *        topology's (a schedule's own routes: Full routing).
 * \param out The stream.
 * \param error Set on failure (see errors).
 * \return TRUE when written.
 * \errors those of ns_topology_write_simgrid().
 * \complexity O(Σ route lengths).
 * \source SimGrid's platform description; docs/simulator.md.
 */
gboolean ns_topology_write_simgrid_with(const NsTopology *t, const NsSimGridExport *opt,
                                        FILE *out, GError **error)
{
  gboolean tree = ns_topology_routing(t) == NS_ROUTING_TREE && opt->pair_route == NULL;
  g_autofree char *routing = ns_topology_routing_describe(t);
  g_autofree char *comment = g_markup_escape_text(ns_topology_source(t), -1);
  /* "--" may not appear in an XML comment. */
  for (char *c = comment; *c != '\0'; c++)
    if (c[0] == '-' && c[1] == '-')
      c[1] = '_';
  fprintf(out, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<!-- netsched platform of %s: %d machines, %d switches, %d links, %s routing -->\n"
               "<platform version=\"4.1\">\n"
               "<zone id=\"netsched\" routing=\"%s\">\n",
          comment, ns_topology_n_machines(t), ns_topology_n_switches(t), ns_topology_n_links(t),
          ns_routing_kind_name(ns_topology_routing(t)), tree ? "DijkstraCache" : "Full");
  write_nodes_and_links(t, opt, out);
  if (tree)
    write_one_hop_routes(t, out);
  else if (!write_full_routes(t, opt, out, error))
    return FALSE;
  fprintf(out, "</zone>\n</platform>\n");
  if (ferror(out)) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot write the SimGrid platform");
    return FALSE;
  }
  return TRUE;
}

/**
 * \function ns_topology_write_simgrid
 * \brief Writes a topology as a SimGrid 4.1 platform.
 *
 * \param topo A finalized topology.
 * \param out The stream.
 * \param error Set on failure (see errors).
 * \return TRUE when written.
 * \errors NS_ERROR_UNSUPPORTED when explicit routes would exceed NS_SIMGRID_MAX_ROUTE_LINKS,
 *        NS_ERROR_IO on a write error.
 * \complexity O(|V| + |E|) for trees, O(Σ route lengths) otherwise.
 * \source SimGrid's platform description; docs/simulator.md.
 */
gboolean ns_topology_write_simgrid(const NsTopology *t, FILE *out, GError **error)
{
  NsSimGridExport opt = { 0 };
  return ns_topology_write_simgrid_with(t, &opt, out, error);
}
