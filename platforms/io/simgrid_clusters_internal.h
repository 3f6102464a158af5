/* netsched — the networks of SimGrid's <cluster> zones, for the SimGrid
 * platform reader (read_simgrid.c; docs/topology-format.md, "SimGrid
 * platforms"):
 *   FLAT       every host on one switch;
 *   TORUS      "X,Y,Z": the torus generator, hosts renamed;
 *   FAT_TREE   "L;m1,..,mL;w1,..,wL;p1,..,pL": Zahavi's parallel
 *              generalized fat tree as SimGrid's FatTreeZone builds it,
 *              d-mod-k routing where it applies, else shortest;
 *   DRAGONFLY  "G,GL;C,CL;R,RL;N": platforms/gen/dragonfly.c.
 * Hosts are prefix + each number of radical + suffix, in radical order. */
#ifndef NETSCHED_SIMGRID_CLUSTERS_H
#define NETSCHED_SIMGRID_CLUSTERS_H

#include "platforms/model/topology.h"

typedef struct {
  const char *source;   /* file name, for messages */
  int line;             /* of the <cluster> */
  char *prefix, *suffix, *radical;
  char *topology;       /* FLAT, TORUS, FAT_TREE, DRAGONFLY */
  char *params;         /* topo_parameters ("" when absent) */
  double bw, lat;       /* bit/s, s */
} NsSimGridCluster;

NsTopology *ns_simgrid_cluster_build(const NsSimGridCluster *cluster, NsWarnFunc warn,
                                     void *warn_data, GError **error);

#endif
