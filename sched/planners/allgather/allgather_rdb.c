/* netsched — allgather/rdb: recursive doubling. */
#include "sched/planners/registry.h"

/* Appends to the current phase src -> dst carrying the blocks of machines
 * base .. base+n−1 and, for each of them below r, the block q+j folded
 * onto it. */
static void send_group(NsSchedule *s, int src, int dst, int base, int n, int q, int r,
                       uint32_t *chunks)
{
  uint32_t k = 0;
  for (int j = base; j < base + n; j++) {
    chunks[k++] = (uint32_t)j;
    if (j < r)
      chunks[k++] = (uint32_t)(q + j);
  }
  ns_schedule_add_chunks(s, src, dst, k, chunks);
}

/*
 * ns_allgather_rdb — recursive-doubling all-gather (dissertation §4.1.1.1,
 * "Recursive doubling (rdb)": a lg(p)-dimensional mesh with 2 nodes in each
 * dimension; MPICH's short-message MPI_Allgather, Thakur et al. 2004).
 *
 * Steps, p a power of two:
 *  for k = 0 .. lg p − 1 (one phase each):
 *    machine i exchanges with i XOR 2^k all the blocks it holds: those of
 *    the 2^k machines that agree with i above bit k.
 *  Phases lg p, every machine receives each block once.
 * Other p — the variant netsched uses (the paper only says the cost
 * "almost doubles"; MPICH's own non-power-of-two scheme is more intricate).
 * With q = 2^⌊lg p⌋ and r = p − q:
 *  1. fold (one phase): machine q+j sends its block to machine j, j < r;
 *  2. recursive doubling among machines 0 .. q−1 as above, machine j < r
 *     carrying its own block and q+j's (lg q phases);
 *  3. unfold (one phase): machine j sends all blocks but q+j's own to
 *     machine q+j, j < r (p−1 blocks).
 *  Phases ⌊lg p⌋ + 2, every block reaches every machine exactly once;
 *  1-port holds in every phase. Same fold/unfold as alltoall/rdb.
 * Time O(p²) (every block is listed once per receiver). Errors: none.
 */
NsSchedule *ns_allgather_rdb(const NsTopology *topo, const NsPlanParams *params,
                             GError **error)
{
  int p = ns_topology_n_machines(topo), q = 1;
  while (q * 2 <= p)
    q *= 2;
  int r = p - q;
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLGATHER, "rdb", params->msize);
  uint32_t *chunks = g_new(uint32_t, p);
  if (r > 0) {
    ns_schedule_begin_phase(s);
    for (int j = 0; j < r; j++)
      ns_schedule_add(s, q + j, j, (uint32_t)(q + j));
  }
  for (int bit = 1; bit < q; bit *= 2) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < q; i++) /* i's group: the machines agreeing above `bit` */
      send_group(s, i, i ^ bit, i & ~(bit - 1), bit, q, r, chunks);
  }
  if (r > 0) {
    ns_schedule_begin_phase(s);
    for (int j = 0; j < r; j++) {
      uint32_t k = 0;
      for (int c = 0; c < p; c++)
        if (c != q + j)
          chunks[k++] = (uint32_t)c;
      ns_schedule_add_chunks(s, j, q + j, k, chunks);
    }
  }
  g_free(chunks);
  return s;
}
