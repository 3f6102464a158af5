/* netsched — alltoall/2dmesh: the all-to-all as an all-gather of all data on
 * a logical x × y mesh (Faraj, dissertation §4.1.1.1, "2D mesh algorithm"). */
#include "sched/planners/alltoall/alltoall_alldata_internal.h"
#include "sched/planners/registry.h"

/* The factoring p = x · y with x ≤ y and x as close to √p as a divisor can
 * be: x is the largest divisor of p with x² ≤ p. This minimises x + y, so
 * the number of phases (x−1)+(y−1). A prime p has no other factoring than
 * 1 × p. Time O(√p). */
static void factor2(int p, int *x, int *y)
{
  int best = 1;
  for (int d = 1; (int64_t)d * d <= p; d++)
    if (p % d == 0)
      best = d;
  *x = best;
  *y = p / best;
}

/*
 * ns_alltoall_2dmesh — the dissertation's 2D mesh all-to-all (§4.1.1.1):
 * "organizes the nodes as a logical x × y mesh and tries to find the
 * factoring such that x and y are close to √p. The all-to-all operation is
 * carried out first in the x dimension and then in the y dimension. For all
 * data to reach all nodes, the all-to-all operation is actually an
 * all-gather operation". Estimated time 2(√p−1)α + (p−1)pnβ + θ + γ.
 *
 * Steps:
 *  0. Factoring: x = the largest divisor of p with x² ≤ p, y = p/x
 *     (x ≤ y). Machine i sits at column i mod x of row ⌊i/x⌋, so a row is
 *     x consecutive machines. Prime p gives the 1 × p mesh: no x phases and
 *     p−1 y phases, each carrying a machine's whole data (p−1 chunks) — a
 *     correct but costly schedule, (p−1)² chunks received per machine
 *     against ring's p−1; the paper does not treat that case.
 *  1. x dimension, phases j = 1 .. x−1: machine (r, c) sends its whole
 *     data (its block: p−1 chunks, the paper's "pn") to (r, (c+j) mod x).
 *  2. y dimension, phases j = 1 .. y−1: machine (r, c) sends everything it
 *     holds after step 1 (x blocks, the paper's "p√p n") to
 *     ((r+j) mod y, c).
 *  3. (local) every machine keeps the chunks addressed to it.
 * Within a dimension each step is a ring shift ("step i: node j sends to
 * (j+i) mod p"), so 1-port holds: one send and one receive per machine per
 * phase. Data model: every transfer carries ALL the data its sender holds
 * (the paper's "all data" and (p−1)pnβ), not only the chunks still needed
 * downstream, which SMPI and MPICH variants send; every machine receives
 * every other block exactly once, so each chunk reaches its destination
 * exactly once and no relay receives a chunk twice.
 * Phases (x−1)+(y−1); chunks moved p·(p−1)², i.e. (p−1)² per machine:
 * the paper's (p−1)·p messages of n bytes less the p−1 self-messages of
 * the other machines' blocks, which the IR does not carry.
 * Time and memory O(p³) (the chunks of the schedule). Errors:
 * NS_ERROR_UNSUPPORTED when p·(p−1)² chunks exceed the IR's 32-bit chunk
 * pool (p > 1626).
 */
NsSchedule *ns_alltoall_2dmesh(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  int p = ns_topology_n_machines(topo);
  if (!ns_alldata_check_size(p, "2dmesh", error))
    return NULL;
  int dims[2];
  factor2(p, &dims[0], &dims[1]);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "2dmesh", params->msize);
  ns_schedule_reserve(s, (uint32_t)(dims[0] + dims[1] - 2),
                      (uint64_t)p * (uint64_t)(dims[0] + dims[1] - 2));
  g_autoptr(NsAllData) st = ns_alldata_new(p);
  ns_alldata_mesh(st, s, 2, dims);
  return s;
}
