/* netsched — a levelled fat tree's up-links (dmodk and smodk routing), for
 * code that walks many routes and wants them from arrays rather than one
 * routing call each (sched/ir/route.h's route table). The arrays belong to
 * the topology's routing: valid while the topology lives, read only. */
#ifndef NETSCHED_UPDOWN_H
#define NETSCHED_UPDOWN_H

#include "platforms/model/topology.h"

/* Machines are level 0; a switch's level is its hop distance from the
 * nearest machine. Node v's up-links are slots up_start[v] ..
 * up_start[v + 1] (link-id order), as many as arity[its level]; slot j
 * climbs over directed edge up_edge[j] to node up_node[j]. The route from
 * machine s to machine d with key K (d-mod-k: d's machine index, s-mod-k:
 * s's) climbs from both ends through up-link ⌊K / (u_0·…·u_(l-1))⌋ mod
 * u_l at level l until the two climbs meet, then goes down the other
 * end's climb (platforms/model/topology.h, "Routing"). */
typedef struct {
  int n_levels;          /* the highest level + 1 */
  const int *level;      /* per node */
  const int *arity;      /* per level: u_l, the up-links of its nodes (0 at the top) */
  const int *up_start;   /* per node + 1 */
  const int *up_edge;    /* per slot */
  const int *up_node;    /* per slot */
  gboolean by_source;    /* s-mod-k: the key is the source machine */
} NsUpDownLinks;

/* Fills `out` with the topology's up-links and returns TRUE under dmodk
 * and smodk routing; FALSE (nothing written) under any other. O(1). */
gboolean ns_updown_links(const NsTopology *topo, NsUpDownLinks *out);

#endif
