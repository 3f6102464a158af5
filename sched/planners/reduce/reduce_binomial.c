/* netsched — reduce/binomial: the binomial tree reduce of MPICH (short
 * messages) and LAM/MPI.
 *
 * Faraj's dissertation §4.1.1.1, "Algorithms for MPI_Reduce", binomial
 * tree algorithm: "similar to the version used in the broadcast operation
 * except that the data flows in the opposite direction", lg(p)(α + nβ) + γ;
 * Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication
 * Operations in MPICH", IJHPCA 2005, §4.4 (MPIR_Reduce_intra_binomial).
 */
#include "sched/planners/reduce/reduce_reverse_internal.h"

/*
 * ns_reduce_binomial — MPICH's binomial reduce over ranks relative to the
 * root.
 *
 * Steps:
 *  1. rank(m) = (m − root) mod P. In round k (k = 0, 1, ...) every rank
 *     whose lowest set bit is 2^k sends its partial to rank − 2^k, which
 *     combines it: MPICH's loop "mask = 1; ... (relrank & mask) ? send to
 *     relrank & ~mask : receive from relrank | mask".
 *  2. That is bcast/binomial reversed (reduce_reverse_internal.h): with one
 *     segment exactly ⌈log2 P⌉ phases, round k in phase k; with X segments
 *     the segments follow one another up the same tree (at most
 *     (X + H − 1)·D phases, H = D = ⌈log2 P⌉). 1-port; not topology-aware.
 *
 * Params: msize, root, segment (0, MPICH's case: one segment). Errors:
 * NS_ERROR_INPUT for a bad root or msize 0; NS_ERROR_UNSUPPORTED beyond
 * NS_BCAST_MAX_TRANSFERS transfers. Any topology. Time and memory
 * O(X·P + P log P).
 */
NsSchedule *ns_reduce_binomial(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  return ns_reduce_from_bcast(topo, params, ns_bcast_binomial, "binomial", error);
}
