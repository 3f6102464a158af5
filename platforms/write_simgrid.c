/* netsched — Topology -> SimGrid platform XML (version 4.1).
 *
 * Machines become <host>s, switches <router>s, every cable one SPLITDUPLEX
 * <link> "l<i>" with one-hop symmetrical routes between its two ends and
 * Floyd routing, so SimGrid (and ns-3, which only accepts one-hop routes)
 * computes the same unique tree paths as netsched. Directed edge 2i
 * (link.a -> link.b) is SimGrid's "l<i>_UP", edge 2i+1 is "l<i>_DOWN".
 * The file also works with `smpirun -platform` (../shared/notes/simgrid-3.32.md).
 */
#include "platforms/error.h"
#include "platforms/topology_simgrid.h"

char *ns_simgrid_link_name(const NsTopology *topo, int edge)
{
  return g_strdup_printf("l%d_%s", ns_edge_link(edge), (edge & 1) ? "DOWN" : "UP");
}

gboolean ns_topology_write_simgrid(const NsTopology *t, FILE *out, GError **error)
{
  fprintf(out, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<!-- netsched platform of %s: %d machines, %d switches, %d links -->\n"
               "<platform version=\"4.1\">\n"
               "<zone id=\"netsched\" routing=\"Floyd\">\n",
          ns_topology_source(t), ns_topology_n_machines(t), ns_topology_n_switches(t),
          ns_topology_n_links(t));
  for (int v = 0; v < ns_topology_n_nodes(t); v++) {
    const NsNode *n = ns_topology_node(t, v);
    g_autofree char *id = g_markup_escape_text(n->name, -1);
    if (n->kind == NS_NODE_MACHINE)
      fprintf(out, "  <host id=\"%s\" speed=\"1Gf\"/>\n", id);
    else
      fprintf(out, "  <router id=\"%s\"/>\n", id);
  }
  for (int i = 0; i < ns_topology_n_links(t); i++) {
    const NsLink *l = ns_topology_link(t, i);
    fprintf(out,
            "  <link id=\"l%d\" bandwidth=\"%.17gbps\" latency=\"%.17gs\" "
            "sharing_policy=\"SPLITDUPLEX\"/>\n",
            i, l->bandwidth, l->latency);
  }
  for (int i = 0; i < ns_topology_n_links(t); i++) {
    const NsLink *l = ns_topology_link(t, i);
    g_autofree char *a = g_markup_escape_text(ns_topology_node(t, l->a)->name, -1);
    g_autofree char *b = g_markup_escape_text(ns_topology_node(t, l->b)->name, -1);
    fprintf(out,
            "  <route src=\"%s\" dst=\"%s\" symmetrical=\"YES\"><link_ctn id=\"l%d\" "
            "direction=\"UP\"/></route>\n",
            a, b, i);
  }
  fprintf(out, "</zone>\n</platform>\n");
  if (ferror(out)) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot write the SimGrid platform");
    return FALSE;
  }
  return TRUE;
}
