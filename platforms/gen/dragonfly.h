/* netsched — the dragonfly of SimGrid's DragonflyZone (platforms/gen/dragonfly.c),
 * generated as `gen:dragonfly:G,C,R,N[,GL,CL,RL]` and read from SimGrid
 * clusters with topology="DRAGONFLY". */
#ifndef NETSCHED_DRAGONFLY_H
#define NETSCHED_DRAGONFLY_H

#include "platforms/gen/shape_options.h"

/* G groups of C chassis of R routers, N machines on each router; the
 * router pairs of a chassis (green), the same-position routers of the
 * chassis of a group (black) and the group pairs (blue) are joined by
 * links of `router_links`, `chassis_links` and `global_links` times the
 * uplink speed, as SimGrid joins them. */
typedef struct {
  int groups, chassis, routers, nodes;
  int global_links, chassis_links, router_links;
} NsDragonfly;

/* The most machines: the minimal routing is kept as explicit routes, one
 * per ordered machine pair. */
#define NS_DRAGONFLY_MAX_MACHINES 2048

/* Builds and finalizes the dragonfly: routers "g<G>c<C>r<R>", machines
 * named machine_names[i] (NULL: n0, n1, ...), machine i on router
 * ⌊i/N⌋ (SimGrid's rank order), minimal routing as explicit routes (see
 * the file). NS_ERROR_INPUT "source: ..." for sizes < 1, fewer than 2
 * machines, more than NS_DRAGONFLY_MAX_MACHINES, or more groups than
 * routers in a group (the global link to group j sits on router j).
 * Time and memory O(P² · 8) for P machines. */
NsTopology *ns_dragonfly_build(const NsDragonfly *d, const NsShapeOptions *o,
                               const char *source, char *const *machine_names, GError **error);

/* gen:dragonfly:G,C,R,N[,GL,CL,RL] (multiplicities default 1). */
NsTopology *ns_shape_dragonfly(const char *args, const NsShapeOptions *o, const char *suffix,
                               GError **error);

#endif
