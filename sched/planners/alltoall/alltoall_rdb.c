/* netsched — alltoall/rdb: the all-to-all as a recursive-doubling all-gather
 * of all data (Faraj, dissertation §4.1.1.1, "Recursive doubling (rdb)
 * algorithm"). */
#include "sched/planners/alltoall/alltoall_alldata_internal.h"
#include "sched/planners/registry.h"

/*
 * ns_alltoall_rdb — the dissertation's recursive-doubling all-to-all
 * (§4.1.1.1): "the extension of the 2D mesh and 3D mesh algorithms to the
 * extreme: a lg(p)-dimensional mesh with 2 nodes in each dimension. This
 * algorithm first performs an all-gather operation to collect all data from
 * all nodes to each node. Each node then copies the right portion of the
 * data to its receiving buffer." Estimated time, p a power of two,
 * lg(p)α + (p−1)pnβ + (lg(p)−1)θ + γ.
 *
 * Steps, p a power of two:
 *  for k = 0 .. lg p − 1 (one phase each):
 *    machine i exchanges with i XOR 2^k everything it holds (2^k blocks of
 *    p−1 chunks: the blocks of the machines that agree with i above bit k);
 *  then every machine keeps the chunks addressed to it (local).
 *  This is ns_alldata_mesh() on the 2 × 2 × … × 2 mesh (dimension k = bit
 *  k), a transfer carrying all the data its sender holds (the paper's "all
 *  data" model, see sched/planners/alltoall/alltoall_2dmesh.c).
 *  Phases lg p; chunks moved p·(p−1)², (p−1)² per machine (the paper's
 *  (p−1)·p messages of n bytes less the self-messages the IR does not
 *  carry).
 *
 * Other p — a netsched generalisation; the paper only notes that "when the
 * number of processes is not a power of two, the cost almost doubles [77]".
 * With q = 2^⌊lg p⌋ and r = p − q:
 *  1. fold (one phase): machine q+j sends its block to machine j, j < r;
 *  2. recursive doubling among machines 0 .. q−1 as above (lg q phases),
 *     each sending all it holds, folded blocks included;
 *  3. unfold (one phase): machine j sends every block but q+j's own to
 *     machine q+j, j < r (p−1 blocks).
 *  Phases ⌊lg p⌋ + 2; chunks moved still p·(p−1)² (every machine receives
 *  every other block exactly once) but the unfold sends a machine's
 *  (p−1)² chunks a second time on the critical path: the bandwidth term
 *  almost doubles, as the paper says. 1-port: the fold and the unfold pair
 *  distinct machines.
 * Time and memory O(p³). Errors: NS_ERROR_UNSUPPORTED beyond the IR's
 * 32-bit chunk pool (p > 1626).
 */
NsSchedule *ns_alltoall_rdb(const NsTopology *topo, const NsPlanParams *params,
                            GError **error)
{
  int p = ns_topology_n_machines(topo);
  if (!ns_alldata_check_size(p, "rdb", error))
    return NULL;
  int lg = 0;
  while ((1 << (lg + 1)) <= p)
    lg++;
  int q = 1 << lg, r = p - q;
  int *dims = g_new(int, MAX(lg, 1));
  for (int k = 0; k < lg; k++)
    dims[k] = 2;
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "rdb", params->msize);
  ns_schedule_reserve(s, (uint32_t)lg + (r > 0 ? 2 : 0), (uint64_t)p * (uint64_t)(lg + 2));
  g_autoptr(NsAllData) st = ns_alldata_new(p);
  if (r > 0) {
    ns_schedule_begin_phase(s);
    for (int j = 0; j < r; j++)
      ns_alldata_send(st, s, q + j, j);
  }
  ns_alldata_mesh(st, s, lg, dims);
  if (r > 0) {
    ns_alldata_freeze(st);
    ns_schedule_begin_phase(s);
    for (int j = 0; j < r; j++)
      ns_alldata_send(st, s, j, q + j);
  }
  g_free(dims);
  return s;
}
