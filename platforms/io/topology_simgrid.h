/* netsched — SimGrid platform export (no SimGrid dependency: plain XML).
 *
 * Machines become <host>s, switches <router>s, every cable one SPLITDUPLEX
 * <link> "l<i>" (directed edge 2i, link.a -> link.b, is SimGrid's "l<i>"
 * UP direction, 2i+1 its DOWN direction). Routes equal netsched's for
 * every machine pair:
 *   tree routing   one-hop symmetrical routes between linked nodes and
 *                  DijkstraCache routing: the unique paths, computed per
 *                  source on demand (Floyd's O(|V|^3) set-up took 45 s on
 *                  4,000 switches). ns-3 builds its network from these
 *                  one-hop routes and routes hop by hop along the tree.
 *   other routings Full routing with the explicit route of every ordered
 *                  machine pair, taken from ns_topology_route(); refused
 *                  above NS_SIMGRID_MAX_ROUTE_LINKS route entries (the file
 *                  would pass some 500 MB). ns-3 accepts no multi-hop
 *                  routes: the packet model is for trees only.
 * Latency semantics of the fluid models: a route's latency is the sum of
 * its links' latencies, as through cut-through switches. With
 * `store_forward_packet` > 0 each store-and-forward switch on a route adds
 * the serialisation time of one packet of that many bytes (half of it on
 * each link the switch joins, at that link's bandwidth), which is what
 * store-and-forward costs a pipelined message on an idle path.
 */
#ifndef NETSCHED_TOPOLOGY_SIMGRID_H
#define NETSCHED_TOPOLOGY_SIMGRID_H

#include "platforms/model/topology.h"
#include <stdio.h>

/* Explicit route entries (link_ctn elements) a Full-routing platform may
 * hold: 8 Mi. */
#define NS_SIMGRID_MAX_ROUTE_LINKS ((uint64_t)1 << 23)

typedef struct {
  uint64_t store_forward_packet; /* bytes; 0: cut-through latency semantics */
  /* Optional: the route of machine pair (src, dst) (topology machine
   * indices) when it is not the topology's — a schedule's own routes.
   * Returns the number of edges written, or -1 for the topology's route.
   * Forces Full routing (explicit routes). */
  int (*pair_route)(void *data, int src, int dst, int *edges);
  void *pair_data;
} NsSimGridExport;

/* Writes `topo` as a SimGrid 4.1 platform (see above). NS_ERROR_UNSUPPORTED
 * when explicit routes would exceed NS_SIMGRID_MAX_ROUTE_LINKS, NS_ERROR_IO
 * on a write error. O(|V| + |E|) for trees, O(Σ route lengths) otherwise. */
gboolean ns_topology_write_simgrid(const NsTopology *topo, FILE *out, GError **error);
gboolean ns_topology_write_simgrid_with(const NsTopology *topo, const NsSimGridExport *opt,
                                        FILE *out, GError **error);

/* SimGrid's name of the link direction that carries directed edge `edge`:
 * "l<i>_UP" for 2i (link.a -> link.b), "l<i>_DOWN" for 2i+1. */
char *ns_simgrid_link_name(const NsTopology *topo, int edge);

#endif
