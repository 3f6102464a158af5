/* netsched — link utilisation of a simulated schedule (`simulate`'s busiest
 * links, its JSON "links" and its --timeline CSV).
 *
 *   bytes        what each directed edge carries: Σ over the transfers
 *                routed across it of chunks × msize (routes × transfer
 *                sizes, analysis/bounds_collective.h);
 *   utilisation  bytes·8 / (bandwidth · completion): its busy fraction over
 *                the whole run;
 *   timeline     its utilisation in equal intervals of the run: every
 *                transfer crossing the edge spreads its bytes evenly over
 *                its [start, end] (an approximation of the fluid rate it
 *                got).
 * The schedule's routes are resolved once (one route table, sched/ir/route.h)
 * for the bytes and every timeline. */
#ifndef NETSCHED_LINK_USE_H
#define NETSCHED_LINK_USE_H

#include "platforms/model/topology.h"
#include "sched/ir/route.h"
#include "sched/ir/schedule.h"

typedef struct {
  int edge;
  double bytes;
  double busy; /* bytes*8 / (bandwidth * completion); 0 when completion is 0 */
} NsEdgeUse;

typedef struct NsLinkUse NsLinkUse;

/* The use of every directed edge by `s` with chunks of `msize` bytes over a
 * run of `completion` seconds, on the route table `router` (the
 * simulation's, NsSimResult.routes; NULL: resolved here). The schedule's
 * machines and routes must fit the topology (checked by the simulation
 * before); NULL with the router's NS_ERROR_INPUT otherwise.
 * O(Σ route lengths + |E| log |E|). */
NsLinkUse *ns_link_use_new(const NsTopology *topo, const NsSchedule *s,
                           const NsRouter *router, uint64_t msize, double completion,
                           GError **error);
void ns_link_use_free(NsLinkUse *u);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsLinkUse, ns_link_use_free)

/* Every directed edge (ns_topology_n_edges of them), most bytes first. */
const NsEdgeUse *ns_link_use_edges(const NsLinkUse *u);

/* The utilisation of `edges[0..n_edges-1]` in `bins` equal intervals of the
 * run, from every transfer's start[t] and end[t] (seconds):
 * busy[i*bins + k] for edges[i] in bin k. O(Σ route lengths · n_edges). */
void ns_link_use_timeline(const NsLinkUse *u, const int *edges, int n_edges,
                          const double *start, const double *end, int bins, double *busy);

#endif
