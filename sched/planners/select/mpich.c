/* netsched — MPICH 4.0.2's choices (the version Debian 12 ships) for
 * MPI_Alltoall, MPI_Allgather, MPI_Bcast and MPI_Reduce, as tables.
 *
 * Mirrors MPICH v4.0.2 maint/tuning/coll/mpir/generic.json, the collective
 * selection tree MPICH 4 compiles in (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE
 * unset): "collective=alltoall", "=allgather", "=bcast", intra-communicator,
 * not in place, no SMP hierarchy. Its thresholds are MPICH 3.x's CVARs
 * (MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE 256, _MEDIUM_MSG_SIZE 32768;
 * MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE 81920, _LONG_MSG_SIZE 524288;
 * MPIR_CVAR_BCAST_SHORT_MSG_SIZE 12288, _LONG_MSG_SIZE 524288, _MIN_PROCS
 * 8), but the JSON compares with `<=` where MPICH 3.x's bcast used `<`.
 * Thakur, Rabenseifner & Gropp, IJHPCA 2005, §4 describe the algorithms.
 */
#include "sched/planners/select/selector_internal.h"

/* NS_SEL_ROW with the shape of p first. */
#define ROW(pf, pb, shape_, sf, sb, lib, coll, ident, name, ...)                              \
  NS_SEL_ROW(pf, pb, sf, sb, lib, coll, ident, name, .shape = (shape_), __VA_ARGS__)
/* The JSON's "size<=N": below N + 1. */
#define UPTO(n) ((n) + 1)
#define ANY NS_SEL_ANY_P
#define POW2 NS_SEL_POW2_P

/* MPIR_Alltoall_intra_scattered posts sends to i, i-1, i-2, ... in batches
 * of MPIR_CVAR_ALLTOALL_THROTTLE = 32, waiting for each batch; netsched's
 * `spread` posts all of them at once in the order i+1, i+2, ... as Faraj &
 * Yuan §6 describe MPICH. MPIR_Alltoall_intra_pairwise exchanges with
 * i XOR k for a power of two p (`pair`), else sends to i+k (`ring`). */
#define SCATTERED(pf, pb, sf, sb)                                                               \
  ROW(pf, pb, ANY, sf, sb, "scattered", alltoall, spread, "spread",                             \
      .note = "MPICH posts in batches of 32, to i-1, i-2, ...; spread posts all, to i+1, ...")
#define PAIRWISE(pf, pb)                                                                        \
  ROW(pf, pb, POW2, 0, 0, "pairwise", alltoall, pair, "pair"),                                  \
  ROW(pf, pb, ANY, 0, 0, "pairwise", alltoall, ring, "ring")

static const NsSelRow alltoall_rows[] = {
  SCATTERED(0, 8, 0, UPTO(32768)), PAIRWISE(0, 8),
  ROW(8, 0, ANY, 0, UPTO(256), "brucks", alltoall, bruck, "bruck"),
  SCATTERED(8, 0, UPTO(256), UPTO(32768)), PAIRWISE(8, 0),
};

/* By the total gathered size msize·p ("total_msg_size"). */
static const NsSelRow allgather_rows[] = {
  ROW(0, 0, POW2, 0, 524288, "recursive_doubling", allgather, rdb, "rdb"),
  ROW(0, 0, POW2, 524288, 0, "ring", allgather, ring, "ring"),
  ROW(0, 0, ANY, 0, 81920, "brucks", allgather, bruck, "bruck"),
  ROW(0, 0, ANY, 81920, 0, "ring", allgather, ring, "ring"),
};

/* MPICH does not segment these broadcasts: segment 0 (binomial sends the
 * whole message, the scatter cuts it into p blocks of ⌈msize/p⌉). */
#define SCATTER_RING(pf, pb, shape_, sf, sb)                                                    \
  ROW(pf, pb, shape_, sf, sb, "scatter_ring_allgather", bcast, scatter_allgather,               \
      "scatter-allgather")
static const NsSelRow bcast_rows[] = {
  ROW(0, 8, ANY, 0, 0, "binomial", bcast, binomial, "binomial"),
  ROW(8, 0, ANY, 0, UPTO(12288), "binomial", bcast, binomial, "binomial"),
  ROW(8, 0, POW2, UPTO(12288), UPTO(524288), "scatter_recursive_doubling_allgather", bcast,
      scatter_allgather, "scatter-allgather",
      .note = "no scatter + recursive-doubling planner: the ring all-gather instead"),
  SCATTER_RING(8, 0, ANY, UPTO(12288), 0),
};

/* MPI_Reduce ("collective=reduce", a built-in, hence commutative, op):
 * binomial up to 2048 bytes, else reduce_scatter_gather (Rabenseifner)
 * unless count < pof2 ("count<pow2": fewer elements than the largest power
 * of two <= p; netsched counts bytes as elements). Only p >= 4096 has a
 * pof2 above 2048, so the count test adds a row per power-of-two band. */
#define COUNT_BELOW_POF2(k)                                                                      \
  ROW(1 << (k), (k) < 30 ? 1 << ((k) + 1) : 0, ANY, UPTO(2048), UINT64_C(1) << (k), "binomial", \
      reduce, binomial, "binomial")
static const NsSelRow reduce_rows[] = {
  ROW(0, 0, ANY, 0, UPTO(2048), "binomial", reduce, binomial, "binomial"),
  COUNT_BELOW_POF2(12), COUNT_BELOW_POF2(13), COUNT_BELOW_POF2(14), COUNT_BELOW_POF2(15),
  COUNT_BELOW_POF2(16), COUNT_BELOW_POF2(17), COUNT_BELOW_POF2(18), COUNT_BELOW_POF2(19),
  COUNT_BELOW_POF2(20), COUNT_BELOW_POF2(21), COUNT_BELOW_POF2(22), COUNT_BELOW_POF2(23),
  COUNT_BELOW_POF2(24), COUNT_BELOW_POF2(25), COUNT_BELOW_POF2(26), COUNT_BELOW_POF2(27),
  COUNT_BELOW_POF2(28), COUNT_BELOW_POF2(29), COUNT_BELOW_POF2(30),
  ROW(0, 0, ANY, UPTO(2048), 0, "reduce_scatter_gather", reduce, rabenseifner, "rabenseifner"),
};

#define MPICH_4_0_2 "MPICH 4.0.2 maint/tuning/coll/mpir/generic.json"

/* The registered selectors `mpich` (planners.def). Params: msize, root
 * (bcast); the segment is the row's (0). Errors: those of the chosen
 * planner. */
NS_SEL_TABLE(ns_sel_alltoall_mpich, ns_alltoall_mpich, "mpich", NS_COLL_ALLTOALL, NS_SEL_MSG,
             MPICH_4_0_2 " (collective=alltoall)", alltoall_rows)
NS_SEL_TABLE(ns_sel_allgather_mpich, ns_allgather_mpich, "mpich", NS_COLL_ALLGATHER,
             NS_SEL_TOTAL, MPICH_4_0_2 " (collective=allgather)", allgather_rows)
NS_SEL_TABLE(ns_sel_bcast_mpich, ns_bcast_mpich, "mpich", NS_COLL_BCAST, NS_SEL_MSG,
             MPICH_4_0_2 " (collective=bcast)", bcast_rows)
NS_SEL_TABLE(ns_sel_reduce_mpich, ns_reduce_mpich, "mpich", NS_COLL_REDUCE, NS_SEL_MSG,
             MPICH_4_0_2 " (collective=reduce)", reduce_rows)


/* ---- MPI_Allreduce (collective=allreduce, intra, a built-in commutative
 * op, no SMP hierarchy): "avg_msg_size<=8" recursive doubling, then
 * "count<pow2" (fewer elements than the largest power of two <= p: the
 * vector cannot be cut into its blocks) recursive doubling, else
 * reduce_scatter_allgather. Counts are bytes here (MPI_BYTE-like
 * elements), so count<pow2 is msize < 2^⌊lg p⌋: one row per p range. */
#define RDB(pf, pb, sb) ROW(pf, pb, ANY, 0, sb, "recursive_doubling", allreduce, rdb, "rdb")
#define POF2_RDB(k) RDB(1 << (k), 2 << (k), 1 << (k))
static const NsSelRow allreduce_rows[] = {
  RDB(0, 0, UPTO(8)),
  POF2_RDB(4),
  POF2_RDB(5),
  POF2_RDB(6),
  POF2_RDB(7),
  POF2_RDB(8),
  POF2_RDB(9),
  POF2_RDB(10),
  POF2_RDB(11),
  POF2_RDB(12),
  POF2_RDB(13),
  POF2_RDB(14),
  POF2_RDB(15),
  POF2_RDB(16),
  RDB(1 << 17, 0, 1 << 17),
  ROW(0, 0, ANY, 0, 0, "reduce_scatter_allgather", allreduce, rabenseifner, "rabenseifner"),
};
NS_SEL_TABLE(ns_sel_allreduce_mpich, ns_allreduce_mpich, "mpich", NS_COLL_ALLREDUCE, NS_SEL_MSG,
             MPICH_4_0_2 " (collective=allreduce)", allreduce_rows)
