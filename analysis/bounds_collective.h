/* netsched — the best-case completion time of a collective, whichever it is.
 *
 * One entry point for every consumer (the simulator's ratio, the experiment
 * engine's bound column), so the choice of bound per collective is made in
 * one place:
 *   alltoall   the bandwidth-weighted bottleneck bound (analysis/bounds.h);
 *   allgather  (P−1)·msize/B on one-port fabrics, the port model's bound
 *              (⌈(P−1)/ports⌉ blocks a port, or a cut) on others
 *              (analysis/bounds_allgather.h, dissertation §3.3.1);
 *   bcast      T(msize) from the root to the farthest machine
 *              (analysis/bounds_bcast.h, dissertation §3.4.1);
 *   reduce, allreduce  the ports' and cuts' bound of the segments (and an
 *              all-reduce's 2(P−1)/P through some machine), fluid when the
 *              segments have sizes of their own (sched/bound/lower_bound.h,
 *              docs/verify.md "Bounds of the reductions");
 * and for a schedule over a subset of the machines, or with resized chunks,
 * the largest per-edge bytes/bandwidth of the schedule itself (a lower bound
 * for that schedule). */
#ifndef NETSCHED_BOUNDS_COLLECTIVE_H
#define NETSCHED_BOUNDS_COLLECTIVE_H

#include "platforms/model/topology.h"
#include "sched/ir/route.h"
#include "sched/ir/schedule.h"

/* Seconds; `msize` the bytes per chunk the schedule is measured with. */
double ns_collective_bound(const NsTopology *topo, const NsSchedule *s, uint64_t msize);
/* The same with the schedule's route table already resolved (ns_router_for;
 * NULL, or one of another schedule: resolved here when needed). */
double ns_collective_bound_routed(const NsTopology *topo, const NsSchedule *s, uint64_t msize,
                                  const NsRouter *router);

/* Bytes the collective must deliver: alltoall and allgather p(p−1)·msize,
 * bcast (p−1)·segments·msize. In floating point: totals of large runs
 * exceed 64 bits. */
double ns_collective_required_bytes(const NsSchedule *s, uint64_t msize);

/* Bytes crossing every directed edge (ns_topology_n_edges entries),
 * computed from routes × transfer sizes. Floating point for the same
 * reason. O(Σ route lengths). */
void ns_schedule_edge_bytes(const NsTopology *topo, const NsSchedule *s, uint64_t msize,
                            double *bytes);
/* The same with the schedule's routes already resolved (sched/ir/route.h). */
void ns_schedule_edge_bytes_routed(const NsTopology *topo, const NsSchedule *s,
                                   const NsRouter *router, uint64_t msize, double *bytes);

#endif
