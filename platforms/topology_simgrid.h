/* netsched — SimGrid platform export (no SimGrid dependency: plain XML). */
#ifndef NETSCHED_TOPOLOGY_SIMGRID_H
#define NETSCHED_TOPOLOGY_SIMGRID_H

#include "platforms/topology.h"
#include <stdio.h>

/* Writes `topo` as a SimGrid 4.1 platform: hosts for machines, routers for
 * switches, one SPLITDUPLEX link "l<i>" per cable, one-hop symmetrical
 * routes and Floyd routing. Works with simgrid_load_platform() and
 * `smpirun -platform`. O(|V| + |E|). */
gboolean ns_topology_write_simgrid(const NsTopology *topo, FILE *out, GError **error);

/* SimGrid's name of the link direction that carries directed edge `edge`:
 * "l<i>_UP" for 2i (link.a -> link.b), "l<i>_DOWN" for 2i+1. */
char *ns_simgrid_link_name(const NsTopology *topo, int edge);

#endif
