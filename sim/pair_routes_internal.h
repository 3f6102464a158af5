/* netsched — internal: the routes a schedule's transfers take of their own,
 * per machine pair, for the SimGrid platform (sim/pair_routes.c). */
#ifndef NETSCHED_SIM_PAIR_ROUTES_INTERNAL_H
#define NETSCHED_SIM_PAIR_ROUTES_INTERNAL_H

#include "platforms/model/topology.h"
#include "sched/ir/route.h"
#include "sched/ir/schedule.h"
#include <glib.h>

typedef struct {
  GHashTable *table; /* (src, dst) topology machines -> GArray of edges; NULL: none */
} NsSimPairRoutes;

/* The pairs' routes (an empty table when the schedule has no own routes),
 * through `shared` when given; NULL (error set) when two transfers of one
 * pair take two routes. */
NsSimPairRoutes *ns_sim_pair_routes(const NsTopology *topo, const NsSchedule *s,
                                    const NsRouter *shared, GError **error);
void ns_sim_pair_routes_free(NsSimPairRoutes *pr);
/* NsSimGridExport.pair_route over a NsSimPairRoutes: the edges of (src, dst),
 * -1 for a pair without an own route. */
int ns_sim_pair_route(void *data, int src, int dst, int *edges);

#endif
