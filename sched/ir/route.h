/* netsched — routing a schedule's transfers on a topology.
 *
 * A transfer takes the topology's route (platforms/model/topology.h) unless the
 * schedule gives it one of its own (NsSchedule.routes). NsRouter resolves
 * those node names once, checks that each is a path of linked nodes from
 * the transfer's source to its destination, and then routes any transfer
 * in O(route length). The verifier, the synchronisation sets, the phase
 * packer, the bounds and the simulator all route through it. */
#ifndef NETSCHED_ROUTE_H
#define NETSCHED_ROUTE_H

#include "platforms/model/topology.h"
#include "sched/ir/schedule.h"

typedef struct NsRouter NsRouter;

/* A topology's routes held so that walking one costs no routing work.
 * Under tree routing (machines are leaves): per machine its fixed-depth
 * climb, the edge up at each level from the anchor switch down (a row of
 * `depth` ints, 16 bytes on a three-level tree); the lowest common
 * ancestor of two machines is where their rows first differ, and the
 * route is the source's row up to it and the destination's row down.
 * Under dmodk and smodk routing (levelled fat trees,
 * platforms/routing/updown.h): per machine its own climb with its own key
 * (node and edge up at each level, 2 ints a level) and its key's digits,
 * per node its up-links at a fixed stride; a route climbs from the other
 * end, one load a level, and meets the key machine's climb where the two
 * first stand on one node, then copies that climb's edges. Other
 * routings, trees deeper than 31 levels and tables past 64 MiB ask the
 * topology (ns_topology_route). Built once per topology and shared
 * read-only by the threads that route through it. */
typedef struct NsRouteTable NsRouteTable;

/* The table of a finalized topology. O(|V| · depth) time and memory
 * under tree routing, O(|V| · arity + |M| · levels) under dmodk and
 * smodk. */
NsRouteTable *ns_route_table_new(const NsTopology *topo);
void ns_route_table_free(NsRouteTable *rt);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsRouteTable, ns_route_table_free)
/* Writes the directed edges from node `src` to node `dst` into `edges`
 * (capacity ns_topology_max_route_len()) and returns their number: the
 * edges ns_topology_route() writes, in the same order. O(levels) from the
 * table, O(route length) from the topology. */
int ns_route_table_route(const NsRouteTable *rt, int src, int dst, int *edges);
/* Does the table hold the topology's routes (tree, dmodk, smodk within the
 * bound), or does it ask the topology for each? O(1). */
gboolean ns_route_table_compact(const NsRouteTable *rt);

/* Resolves the schedule's own routes against `topo`. `node` maps schedule
 * machines to topology nodes (ns_schedule_machine_nodes; kept, not copied).
 * NULL with NS_ERROR_INPUT "transfer #T: route ...: what is wrong" for an
 * unknown node name, a route that does not start at the transfer's source
 * or end at its destination, visits a node twice, or steps between two
 * nodes no link joins.
 * O(Σ route lengths · degree). */
NsRouter *ns_router_new(const NsTopology *topo, const NsSchedule *s, const int *node,
                        GError **error);
void ns_router_free(NsRouter *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsRouter, ns_router_free)

/* The router of `s` on `topo` with its own machine map
 * (ns_schedule_machine_nodes), freed with it: the one route table of a
 * (topology, schedule) that its consumers share — the verifier
 * (NsVerifyOptions.router), the sync sets, the bounds, the simulator and
 * its link analysis (sched/ir/counts_internal.h counts the tables built). NULL with
 * the machine map's or the routes' NS_ERROR_INPUT. */
NsRouter *ns_router_for(const NsTopology *topo, const NsSchedule *s, GError **error);
/* Was `r` built for `topo` and for `s` or a copy of its header sharing its
 * phases, routes and machines (the simulator's copy with its own sync
 * edges)? FALSE for NULL. O(1). */
gboolean ns_router_fits(const NsRouter *r, const NsTopology *topo, const NsSchedule *s);

/* Writes the directed edges of transfer `t` into `edges` (capacity
 * ns_router_max_len) and returns their number. */
int ns_router_route(const NsRouter *r, uint64_t t, int *edges);
/* The route table every transfer of the router takes, or NULL when some
 * transfer takes a route of its own (ns_router_route() then tells). O(1). */
const NsRouteTable *ns_router_table(const NsRouter *r);
/* Capacity an edges buffer needs for any transfer. */
int ns_router_max_len(const NsRouter *r);
/* Does transfer t take a route of its own? */
gboolean ns_router_is_own(const NsRouter *r, uint64_t t);

#endif
