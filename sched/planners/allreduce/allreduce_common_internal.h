/* netsched — what the allreduce planners share (internal, not a planner).
 *
 * An allreduce schedule (sched/ir/schedule.h, "Reductions") cuts the
 * n-byte vector into segments; a transfer that combines is a step of a
 * reduction, one that copies a step of a distribution. The planners of
 * sched/planners/allreduce/ are built from a few pieces:
 *  - the vector cut into blocks (Rabenseifner's n/p, the ring's n/p),
 *    unequal sizes through ns_schedule_set_chunk_bytes;
 *  - MPICH's fold for a number of machines that is not a power of two
 *    (Thakur, Rabenseifner & Gropp 2005 §4.4: the even ranks below 2r
 *    give their vector to the odd rank above and rejoin at the end);
 *  - recursive halving (a reduce-scatter) and recursive doubling (its
 *    all-gather), over slot ranges;
 *  - an all-gather or an all-to-all planner of the repository run on the
 *    blocks and relabelled (Faraj's dissertation §4.1.1.1: Rab1 and Rab2
 *    use the tuned all-gather and all-to-all with messages of n/p), and an
 *    all-gather run backwards in time, which is a reduce-scatter.
 */
#ifndef NETSCHED_ALLREDUCE_COMMON_H
#define NETSCHED_ALLREDUCE_COMMON_H

#include "sched/planners/registry.h"

/* How n bytes are cut into b blocks. */
typedef enum {
  NS_BLOCKS_SPREAD,    /* the first n mod b blocks one byte larger (MPICH's and
                          Open MPI's rings) */
  NS_BLOCKS_LAST_REST, /* ⌊n/b⌋ each, the last the rest (MPICH's Rabenseifner) */
} NsBlockSplit;

/* A new allreduce schedule of n bytes in `blocks` segments (1: the whole
 * vector, msize = n); sizes through chunk_bytes when they differ. NULL
 * with NS_ERROR_UNSUPPORTED when n < blocks (a block would be empty: the
 * algorithm needs a byte per block). O(blocks). */
NsSchedule *ns_allreduce_new(const NsTopology *topo, const char *algorithm, uint64_t n,
                             uint32_t blocks, NsBlockSplit split, GError **error);

/* Appends src -> dst carrying segments [lo, hi) (nothing when empty),
 * combining or copying; `buf` holds at least hi - lo entries. */
void ns_allreduce_add_range(NsSchedule *s, int src, int dst, gboolean combine, uint32_t lo,
                            uint32_t hi, uint32_t *buf);

/* MPICH's fold of p = q + r machines (q = 2^⌊lg p⌋): participant k < q is
 * machine 2k+1 for k < r, else k + r. */
static inline int ns_allreduce_fold_machine(int k, int r) { return k < r ? 2 * k + 1 : k + r; }

/* One phase (none when r = 0): machine 2j gives its whole vector to
 * 2j+1, j < r, which combines. */
void ns_allreduce_fold(NsSchedule *s, int r);
/* One phase (none when r = 0): machine 2j+1 gives segments [0, segs) of
 * the result to 2j, j < r (a copy). */
void ns_allreduce_unfold(NsSchedule *s, int r, uint32_t segs);

/* Recursive halving and doubling over q = 2^k participants (machine[k]),
 * slot j being the segments [slot[j], slot[j+1]) (slot: q + 1 increasing
 * entries). `largest_first`: the distances go q/2, ..., 1 (STAR-MPI's
 * Rab1: participant k ends the halving with slot k complete) instead of
 * 1, ..., q/2 (MPICH: with the slot of k's bits reversed). Each
 * step is one phase in which partners swap halves of their slot range:
 * the halving combines, the doubling (the same distances backwards) copies.
 * O(q lg q + segments lg q). */
typedef struct {
  int q;
  const int *machine;
  const uint32_t *slot;
  gboolean largest_first;
} NsHalving;
void ns_allreduce_halving(NsSchedule *s, const NsHalving *h);
void ns_allreduce_doubling(NsSchedule *s, const NsHalving *h);

/* Appends the phases of the all-gather `allgather` (a registered planner,
 * run with msize = the schedule's largest block) with block j read as
 * segment segment_of[j], machine j's: forwards copy (a machine forwards a
 * block only once it holds it, so the whole segment), or, `reversed`, the
 * phases backwards with every transfer turned round and combining — an
 * all-gather in which each block reaches each machine once, run
 * backwards, is a reduce-scatter leaving segment_of[j] complete at machine
 * j (each machine sends a segment once, after all it forwarded it to have
 * sent theirs back). Routes are kept (reversed when the phases are). The
 * planner's errors. O(its schedule). */
gboolean ns_allreduce_append_allgather(NsSchedule *s, const NsTopology *topo, const char *allgather,
                                       const uint32_t *segment_of, gboolean reversed,
                                       GError **error);

/* Appends the phases of the all-to-all `alltoall` (registered, run with
 * msize = the largest block) as a reduce-scatter: its message i -> j
 * carries segment segment_of[j], combined at j. NS_ERROR_UNSUPPORTED when
 * it relays (a message through another machine: only direct all-to-alls
 * are reduce-scatters). O(its schedule). */
gboolean ns_allreduce_append_alltoall(NsSchedule *s, const NsTopology *topo, const char *alltoall,
                                      GError **error);

#endif
