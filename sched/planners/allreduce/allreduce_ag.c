/* netsched — allreduce/ag-<all-gather>: the all-gather-based allreduce,
 * every machine gathers every machine's whole vector with an all-gather
 * planner of the repository (the topology-specific logical rings
 * included) and reduces locally.
 *
 * Faraj's dissertation §4.1.1.1 (STAGE-MPI, "All-gather based algorithm.
 * The algorithm first gathers all data to all nodes. Then, each node
 * performs the reduction locally. This algorithm uses the tuned
 * MPI_Allgather routine, which can be topology-specific") and §4.3.1.1
 * (STAR-MPI's first type of allreduce: an MPI_Allgather — bruck, 2D mesh,
 * 3D mesh, rdb, ring — then the reduction). One registered name per
 * all-gather (planners.def), as for the rab1-<x> family: the tuned
 * all-gather is a tuning's outcome, so each candidate is an algorithm.
 */
#include "sched/planners/allreduce/allreduce_common_internal.h"

/*
 * ag — the all-gather's schedule, its blocks read as raw contributions.
 *
 * Steps:
 *  1. Plan allgather/<x> with message size n (the whole vector: machine
 *     o's block is o's untouched contribution).
 *  2. Keep every phase, transfer, route, sync edge and the execution mode;
 *     the schedule becomes an allreduce of one segment (S = 1) in which
 *     block o is the raw chunk raw(o, 0) = ns_raw_chunk(1, o, 0) = o, and
 *     every transfer is a raw one (sched/ir/schedule.h, "Raw
 *     contributions"): a machine forwards others' vectors and keeps its
 *     own.
 *  3. Each machine ends holding all p − 1 other raw vectors and combines
 *     them locally with its own (the simulator charges (p − 1) · n bytes
 *     at the reduction rate; docs/simulator.md).
 * Phases, contention and port use: the all-gather's, at n bytes a block
 * (a machine receives (p − 1) · n bytes, against 2(p − 1)/p · n for the
 * ring allreduce: the family wins on latency-bound small vectors only).
 * Params: msize (n, ≥ 1). Errors: the all-gather planner's (a fabric or a
 * p it refuses). Time: the all-gather's plus O(transfers).
 */
static NsSchedule *ag(const NsTopology *topo, const NsPlanParams *params, const char *name,
                      const char *allgather, GError **error)
{
  NsPlanParams pp = { .msize = params->msize, .root = 0 };
  NsSchedule *s = ns_plan(topo, NS_COLL_ALLGATHER, allgather, &pp, error);
  if (s == NULL)
    return NULL;
  s->collective = NS_COLL_ALLREDUCE;
  s->root = -1;
  s->n_segments = 1; /* raw chunk o·1 + 0 = o: the block ids stay */
  for (uint64_t t = 0; t < ns_schedule_n_transfers(s); t++)
    g_array_index(s->transfers, NsTransfer, t).raw = 1;
  ns_schedule_relabel(s, name, NULL);
  return s;
}

#define AG(ident, name, allgather)                                                                 \
  NsSchedule *ns_allreduce_##ident(const NsTopology *topo, const NsPlanParams *params,             \
                                   GError **error)                                                 \
  {                                                                                                \
    return ag(topo, params, name, allgather, error);                                               \
  }

/* ns_allreduce_ag_<x>: the all-gather-based allreduce with allgather/<x>
 * (see ag above). */
AG(ag_lr1, "ag-lr1", "lr1")
AG(ag_lr2, "ag-lr2", "lr2")
AG(ag_lr3, "ag-lr3", "lr3")
AG(ag_ring, "ag-ring", "ring")
AG(ag_rdb, "ag-rdb", "rdb")
AG(ag_bruck, "ag-bruck", "bruck")
AG(ag_simple, "ag-simple", "simple")
AG(ag_2dmesh, "ag-2dmesh", "2dmesh")
AG(ag_gather_bcast, "ag-gather-bcast", "gather-bcast")
AG(ag_neighbor, "ag-neighbor", "neighbor")
AG(ag_torus, "ag-torus", "torus")
