/* netsched — allgather/2dmesh: all-gather on a logical x × y mesh. */
#include "sched/planners/registry.h"

/*
 * ns_allgather_2dmesh — the repository's 2D mesh all-gather (dissertation
 * §4.1.1.1: "organizes the nodes as a logical x × y mesh and tries to find
 * the factoring such that x and y are close to √p"; all-gather first in
 * the x dimension, then in the y dimension; estimated time
 * 2(√p−1)α + (p−1)nβ + θ + γ).
 *
 * Steps:
 *  0. Factoring: x = the largest divisor of p with x² ≤ p, y = p/x. Machine
 *     i sits at column i mod x of row ⌊i/x⌋ (a row is x consecutive
 *     machines) — the factoring and layout of alltoall/2dmesh.
 *  1. x dimension, phases j = 1 .. x−1: machine (r, c) sends its own block
 *     to (r, (c+j) mod x). Afterwards every machine holds its row's x
 *     blocks.
 *  2. y dimension, phases j = 1 .. y−1: machine (r, c) sends its row's x
 *     blocks, combined in one transfer, to ((r+j) mod y, c).
 * Within a dimension each phase is a shift (the repository's "step i: node
 * j sends to (j+i) mod p"), so 1-port holds. Phases (x−1) + (y−1); every
 * block reaches every machine exactly once, (p−1) blocks received per
 * machine as in the paper's (p−1)nβ.
 * Prime p: the only factoring is 1 × p, so step 1 is empty and step 2 is
 * p−1 shift phases of single blocks — a shift all-gather (alltoall/ring's
 * pattern carrying one's own block), still correct, just not a mesh.
 * Time O(p²). Errors: none.
 */
NsSchedule *ns_allgather_2dmesh(const NsTopology *topo, const NsPlanParams *params,
                                GError **error)
{
  int p = ns_topology_n_machines(topo), x = 1;
  for (int d = 1; (int64_t)d * d <= p; d++)
    if (p % d == 0)
      x = d;
  int y = p / x;
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLGATHER, "2dmesh", params->msize);
  ns_schedule_reserve(s, (uint32_t)(x + y - 2), (uint64_t)p * (x + y - 2));
  for (int j = 1; j < x; j++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++)
      ns_schedule_add(s, i, (i / x) * x + (i % x + j) % x, (uint32_t)i);
  }
  uint32_t *row = g_new(uint32_t, x);
  for (int j = 1; j < y; j++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++) {
      int r = i / x, c = i % x;
      for (int k = 0; k < x; k++)
        row[k] = (uint32_t)(r * x + k);
      ns_schedule_add_chunks(s, i, ((r + j) % y) * x + c, (uint32_t)x, row);
    }
  }
  g_free(row);
  return s;
}
