/* netsched — Open MPI 4.1.4's fixed decisions (the version Debian 12
 * ships) for MPI_Alltoall, MPI_Allgather, MPI_Bcast and MPI_Reduce, as tables.
 *
 * Mirrors ompi/mca/coll/tuned/coll_tuned_decision_fixed.c of Open MPI
 * v4.1.4: ompi_coll_tuned_alltoall_intra_dec_fixed,
 * ompi_coll_tuned_allgather_intra_dec_fixed and
 * ompi_coll_tuned_bcast_intra_dec_fixed — what coll/tuned picks when no
 * rules file and no forced algorithm is given. These decisions were
 * re-measured for Open MPI 4.1 (rows per communicator size up to 4096);
 * the 1.6 - 3.x ones are ompi_legacy.c. Each row keeps Open MPI's own name
 * of the algorithm; the netsched planner that plans it is registered under
 * the name beside it, and `note` says where the two differ. Every row is
 * called with faninout 0 and segment size 0 ("do_this(..., alg, 0, 0)"),
 * so no algorithm is segmented.
 *
 * Sizes: alltoall and allgather compare the bytes one process sends to one
 * other (dsize·scount: per destination, per block), bcast the whole
 * message — netsched's msize in each case.
 */
#include "sched/planners/select/selector_internal.h"

#define ROW NS_SEL_ROW

/* ---- MPI_Alltoall: algorithms 1 - 5 of coll_tuned_alltoall_decision.c -- */

#define LINEAR(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "linear", alltoall, basic_linear, "basic-linear")
#define PAIRWISE(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "pairwise", alltoall, ring, "ring")
#define BRUCK(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "modified_bruck", alltoall, bruck, "bruck")
#define TWO_PROC(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "two_proc", alltoall, pair, "pair")
/* linear_sync keeps at most alltoall_algorithm_max_requests requests in
 * flight; the default 0 means no limit, and then it posts every receive
 * and every send at once in basic linear's order. */
#define LINEAR_SYNC(pf, pb, sf, sb)                                                             \
  ROW(pf, pb, sf, sb, "linear_sync", alltoall, basic_linear, "basic-linear",                  \
      .note = "linear_sync without a request limit (the default) is basic linear")

static const NsSelRow alltoall_rows[] = {
  PAIRWISE(2, 3, 0, 2), TWO_PROC(2, 3, 2, 4), PAIRWISE(2, 3, 4, 16), TWO_PROC(2, 3, 16, 64), PAIRWISE(2, 3, 64, 256),
  TWO_PROC(2, 3, 256, 4096), PAIRWISE(2, 3, 4096, 32768), LINEAR_SYNC(2, 3, 32768, 262144),
  TWO_PROC(2, 3, 262144, 1048576), PAIRWISE(2, 3, 1048576, 0),

  LINEAR_SYNC(0, 8, 0, 8192), LINEAR(0, 8, 8192, 16384), LINEAR_SYNC(0, 8, 16384, 65536),
  LINEAR(0, 8, 65536, 524288), PAIRWISE(0, 8, 524288, 1048576), LINEAR(0, 8, 1048576, 0),

  LINEAR_SYNC(8, 16, 0, 262144), LINEAR(8, 16, 262144, 0),

  LINEAR_SYNC(16, 32, 0, 4), BRUCK(16, 32, 4, 512), LINEAR_SYNC(16, 32, 512, 8192),
  LINEAR(16, 32, 8192, 32768), LINEAR_SYNC(16, 32, 32768, 262144),
  LINEAR(16, 32, 262144, 524288), LINEAR_SYNC(16, 32, 524288, 0),

  BRUCK(32, 64, 0, 512), LINEAR(32, 64, 512, 524288), LINEAR_SYNC(32, 64, 524288, 0),

  BRUCK(64, 128, 0, 1024), LINEAR(64, 128, 1024, 2048), LINEAR_SYNC(64, 128, 2048, 4096),
  LINEAR(64, 128, 4096, 262144), PAIRWISE(64, 128, 262144, 0),

  BRUCK(128, 256, 0, 1024), LINEAR_SYNC(128, 256, 1024, 2048), LINEAR(128, 256, 2048, 262144),
  PAIRWISE(128, 256, 262144, 0),

  BRUCK(256, 512, 0, 1024), LINEAR_SYNC(256, 512, 1024, 8192), LINEAR(256, 512, 8192, 32768),
  PAIRWISE(256, 512, 32768, 0),

  BRUCK(512, 1024, 0, 512), LINEAR_SYNC(512, 1024, 512, 8192), LINEAR(512, 1024, 8192, 16384),
  LINEAR_SYNC(512, 1024, 16384, 131072), LINEAR(512, 1024, 131072, 262144),
  PAIRWISE(512, 1024, 262144, 0),

  BRUCK(1024, 2048, 0, 512), LINEAR_SYNC(1024, 2048, 512, 1024),
  LINEAR(1024, 2048, 1024, 2048), LINEAR_SYNC(1024, 2048, 2048, 16384),
  LINEAR(1024, 2048, 16384, 262144), LINEAR_SYNC(1024, 2048, 262144, 0),

  BRUCK(2048, 4096, 0, 1024), LINEAR_SYNC(2048, 4096, 1024, 4096),
  LINEAR(2048, 4096, 4096, 8192), LINEAR_SYNC(2048, 4096, 8192, 131072),
  LINEAR(2048, 4096, 131072, 0),

  BRUCK(4096, 0, 0, 2048), LINEAR_SYNC(4096, 0, 2048, 8192), LINEAR(4096, 0, 8192, 16384),
  LINEAR_SYNC(4096, 0, 16384, 32768), LINEAR(4096, 0, 32768, 65536),
  LINEAR_SYNC(4096, 0, 65536, 0),
};

/* ---- MPI_Allgather: algorithms 1 - 6 of coll_tuned_allgather_decision.c */

/* Open MPI's recursive doubling falls back to Bruck when p is not a power
 * of two, its neighbor exchange to the ring when p is odd
 * (coll_base_allgather.c): two rows each, the fallback second. */
#define RECURSIVE_DOUBLING(pf, pb, sf, sb)                                                      \
  ROW(pf, pb, sf, sb, "recursive_doubling", allgather, rdb, "rdb", .shape = NS_SEL_POW2_P),     \
  ROW(pf, pb, sf, sb, "recursive_doubling", allgather, bruck, "bruck",                          \
      .note = "Open MPI's recursive doubling runs Bruck when p is not a power of two")
#define NEIGHBOR(pf, pb, sf, sb)                                                                \
  ROW(pf, pb, sf, sb, "neighbor", allgather, neighbor, "neighbor", .shape = NS_SEL_EVEN_P),     \
  ROW(pf, pb, sf, sb, "neighbor", allgather, ring, "ring",                                      \
      .note = "Open MPI's neighbor exchange runs the ring when p is odd")
#define AG_BRUCK(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "bruck", allgather, bruck, "bruck")
#define AG_RING(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "ring", allgather, ring, "ring")
#define AG_TWO_PROC(pf, pb, sf, sb)                                                             \
  ROW(pf, pb, sf, sb, "two_proc", allgather, rdb, "rdb",                                        \
      .note = "one exchange between the two processes: recursive doubling's single step")

static const NsSelRow allgather_rows[] = {
  AG_TWO_PROC(2, 3, 0, 0),

  RECURSIVE_DOUBLING(0, 32, 0, 0),

  RECURSIVE_DOUBLING(32, 64, 0, 1024), NEIGHBOR(32, 64, 1024, 65536), AG_RING(32, 64, 65536, 0),

  RECURSIVE_DOUBLING(64, 128, 0, 512), NEIGHBOR(64, 128, 512, 65536),
  AG_RING(64, 128, 65536, 0),

  RECURSIVE_DOUBLING(128, 256, 0, 512), NEIGHBOR(128, 256, 512, 131072),
  AG_RING(128, 256, 131072, 524288), NEIGHBOR(128, 256, 524288, 1048576),
  AG_RING(128, 256, 1048576, 0),

  RECURSIVE_DOUBLING(256, 512, 0, 32), AG_BRUCK(256, 512, 32, 128),
  RECURSIVE_DOUBLING(256, 512, 128, 1024), NEIGHBOR(256, 512, 1024, 131072),
  AG_RING(256, 512, 131072, 524288), NEIGHBOR(256, 512, 524288, 1048576),
  AG_RING(256, 512, 1048576, 0),

  RECURSIVE_DOUBLING(512, 1024, 0, 64), AG_BRUCK(512, 1024, 64, 256),
  RECURSIVE_DOUBLING(512, 1024, 256, 2048), NEIGHBOR(512, 1024, 2048, 0),

  RECURSIVE_DOUBLING(1024, 2048, 0, 4), AG_BRUCK(1024, 2048, 4, 8),
  RECURSIVE_DOUBLING(1024, 2048, 8, 16), AG_BRUCK(1024, 2048, 16, 32),
  RECURSIVE_DOUBLING(1024, 2048, 32, 256), AG_BRUCK(1024, 2048, 256, 512),
  RECURSIVE_DOUBLING(1024, 2048, 512, 4096), NEIGHBOR(1024, 2048, 4096, 0),

  AG_BRUCK(2048, 4096, 0, 32), RECURSIVE_DOUBLING(2048, 4096, 32, 128),
  AG_BRUCK(2048, 4096, 128, 512), RECURSIVE_DOUBLING(2048, 4096, 512, 4096),
  NEIGHBOR(2048, 4096, 4096, 0),

  RECURSIVE_DOUBLING(4096, 0, 0, 2), AG_BRUCK(4096, 0, 2, 8),
  RECURSIVE_DOUBLING(4096, 0, 8, 16), AG_BRUCK(4096, 0, 16, 512),
  RECURSIVE_DOUBLING(4096, 0, 512, 4096), NEIGHBOR(4096, 0, 4096, 0),
};

/* ---- MPI_Bcast: algorithms 1 - 9 of coll_tuned_bcast_decision.c -------- */

#define BASIC_LINEAR(pf, pb, sf, sb)                                                            \
  ROW(pf, pb, sf, sb, "basic_linear", bcast, flat, "flat",                                      \
      .note = "Open MPI posts the root's p-1 sends at once; flat sends them in turn")
#define CHAIN(pf, pb, sf, sb)                                                                   \
  ROW(pf, pb, sf, sb, "chain", bcast, linear, "linear",                                         \
      .note = "a chain of fanout 0 is forced to fanout 1: the pipeline, unsegmented")
#define PIPELINE(pf, pb, sf, sb)                                                                \
  ROW(pf, pb, sf, sb, "pipeline", bcast, linear, "linear",                                      \
      .note = "segment size 0: one segment down the chain")
#define SPLIT_BINARY_TREE(pf, pb, sf, sb)                                                       \
  ROW(pf, pb, sf, sb, "split_binary_tree", bcast, bintree, "bintree",                           \
      .note = "no split-binary planner: the halves' final exchange is left out")
#define BINARY_TREE(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "binary_tree", bcast, bintree, "bintree")
#define BINOMIAL(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "binomial", bcast, bmtree, "bmtree")
#define KNOMIAL(pf, pb, sf, sb)                                                                 \
  ROW(pf, pb, sf, sb, "knomial", bcast, knomial, "knomial", .arity = 4)
#define SCATTER_ALLGATHER(pf, pb, sf, sb)                                                       \
  ROW(pf, pb, sf, sb, "scatter_allgather", bcast, scatter_allgather, "scatter-allgather",       \
      .note = "binomial scatter then a ring all-gather; Open MPI all-gathers by recursive "      \
              "doubling")

static const NsSelRow bcast_rows[] = {
  PIPELINE(0, 4, 0, 32), BINARY_TREE(0, 4, 32, 256), PIPELINE(0, 4, 256, 512),
  KNOMIAL(0, 4, 512, 1024), BASIC_LINEAR(0, 4, 1024, 32768), BINARY_TREE(0, 4, 32768, 131072),
  CHAIN(0, 4, 131072, 262144), BASIC_LINEAR(0, 4, 262144, 524288),
  BINOMIAL(0, 4, 524288, 1048576), BINARY_TREE(0, 4, 1048576, 0),

  BINARY_TREE(4, 8, 0, 64), BINOMIAL(4, 8, 64, 128), BINARY_TREE(4, 8, 128, 2048),
  BINOMIAL(4, 8, 2048, 8192), BASIC_LINEAR(4, 8, 8192, 1048576), CHAIN(4, 8, 1048576, 0),

  KNOMIAL(8, 16, 0, 8), BINARY_TREE(8, 16, 8, 64), KNOMIAL(8, 16, 64, 4096),
  BINARY_TREE(8, 16, 4096, 16384), BINOMIAL(8, 16, 16384, 32768), BASIC_LINEAR(8, 16, 32768, 0),

  KNOMIAL(16, 32, 0, 4096), BINOMIAL(16, 32, 4096, 1048576), SCATTER_ALLGATHER(16, 32, 1048576, 0),

  BINOMIAL(32, 64, 0, 2048), KNOMIAL(32, 64, 2048, 0),

  KNOMIAL(64, 128, 0, 0),

  BINOMIAL(128, 256, 0, 2), BINARY_TREE(128, 256, 2, 16384), BASIC_LINEAR(128, 256, 16384, 32768),
  BINARY_TREE(128, 256, 32768, 65536), KNOMIAL(128, 256, 65536, 0),

  KNOMIAL(256, 1024, 0, 16384), SPLIT_BINARY_TREE(256, 1024, 16384, 32768),
  KNOMIAL(256, 1024, 32768, 0),

  KNOMIAL(1024, 2048, 0, 524288), SCATTER_ALLGATHER(1024, 2048, 524288, 0),

  KNOMIAL(2048, 4096, 0, 262144), SCATTER_ALLGATHER(2048, 4096, 262144, 0),

  KNOMIAL(4096, 0, 0, 8192), BINARY_TREE(4096, 0, 8192, 16384), KNOMIAL(4096, 0, 16384, 262144),
  SCATTER_ALLGATHER(4096, 0, 262144, 0),
};

/* ---- MPI_Reduce: algorithms 1 - 7 of coll_tuned_reduce_decision.c ------- */
/* The commutative branch of ompi_coll_tuned_reduce_intra_dec_fixed (netsched
 * assumes a commutative operation, schedule.h "Reductions"); called with
 * segment size 0, so nothing is segmented. */

#define R_LINEAR(pf, pb, sf, sb)                                                                \
  ROW(pf, pb, sf, sb, "linear", reduce, flat, "flat",                                           \
      .note = "every rank sends at once, the root receives from p-1 down to 0; flat orders the " \
              "sends from root-1 down")
#define R_CHAIN(pf, pb, sf, sb)                                                                 \
  ROW(pf, pb, sf, sb, "chain", reduce, linear, "linear",                                        \
      .note = "Open MPI runs fan-out chains towards the root; linear is one chain")
#define R_PIPELINE(pf, pb, sf, sb)                                                              \
  ROW(pf, pb, sf, sb, "pipeline", reduce, linear, "linear",                                     \
      .note = "segment size 0: one segment up the chain")
#define R_BINARY(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "binary", reduce, bintree, "bintree")
#define R_BINOMIAL(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "binomial", reduce, binomial, "binomial")
#define R_IN_ORDER_BINARY(pf, pb, sf, sb)                                                       \
  ROW(pf, pb, sf, sb, "in-order_binary", reduce, bintree, "bintree",                           \
      .note = "the in-order binary tree (rank p-1 its root, then to the root): no netsched "      \
              "planner, Open MPI's binary tree instead")
#define R_RABENSEIFNER(pf, pb, sf, sb)                                                          \
  ROW(pf, pb, sf, sb, "rabenseifner", reduce, rabenseifner, "rabenseifner",                    \
      .note = "Open MPI folds the extra ranks by exchanging halves; MPICH's fold sends whole "   \
              "vectors")

static const NsSelRow reduce_rows[] = {
  /* Open MPI's rabenseifner runs basic linear for pof2 < 2 or count < pof2 */
  ROW(0, 2, 0, 8, "rabenseifner", reduce, flat, "flat",
      .note = "one process: Open MPI's rabenseifner runs basic linear"),
  ROW(2, 4, 0, 2, "rabenseifner", reduce, flat, "flat",
      .note = "count < pof2: Open MPI's rabenseifner runs basic linear"),
  R_RABENSEIFNER(2, 4, 2, 8), R_BINARY(0, 4, 8, 16), R_PIPELINE(0, 4, 16, 32),
  R_LINEAR(0, 4, 32, 262144), R_PIPELINE(0, 4, 262144, 524288), R_CHAIN(0, 4, 524288, 1048576),
  R_PIPELINE(0, 4, 1048576, 0),

  R_BINARY(4, 8, 0, 4096), R_CHAIN(4, 8, 4096, 65536), R_BINOMIAL(4, 8, 65536, 262144),
  R_LINEAR(4, 8, 262144, 524288), R_BINOMIAL(4, 8, 524288, 1048576), R_LINEAR(4, 8, 1048576, 0),

  R_BINARY(8, 16, 0, 8192), R_BINOMIAL(8, 16, 8192, 0),

  R_BINARY(16, 32, 0, 4096), R_BINOMIAL(16, 32, 4096, 0),

  R_BINOMIAL(32, 256, 0, 0),

  R_BINOMIAL(256, 512, 0, 8192), R_IN_ORDER_BINARY(256, 512, 8192, 16384),
  R_BINOMIAL(256, 512, 16384, 0),

  R_BINOMIAL(512, 2048, 0, 0),

  R_BINOMIAL(2048, 4096, 0, 512), R_IN_ORDER_BINARY(2048, 4096, 512, 1024),
  R_BINOMIAL(2048, 4096, 1024, 8192), R_IN_ORDER_BINARY(2048, 4096, 8192, 16384),
  R_BINOMIAL(2048, 4096, 16384, 0),

  R_BINOMIAL(4096, 0, 0, 16), R_IN_ORDER_BINARY(4096, 0, 16, 32), R_BINOMIAL(4096, 0, 32, 1024),
  R_IN_ORDER_BINARY(4096, 0, 1024, 2048), R_BINOMIAL(4096, 0, 2048, 8192),
  R_IN_ORDER_BINARY(4096, 0, 8192, 16384), R_BINOMIAL(4096, 0, 16384, 0),
};

#define OMPI_4_1_4 "Open MPI 4.1.4 ompi/mca/coll/tuned/coll_tuned_decision_fixed.c"

/* The registered selectors `ompi` (planners.def). Params: msize, root
 * (bcast); the segment (0) and arity are the row's. Errors: those of the
 * chosen planner. */
NS_SEL_TABLE(ns_sel_alltoall_ompi, ns_alltoall_ompi, "ompi", NS_COLL_ALLTOALL, NS_SEL_MSG,
             OMPI_4_1_4 " (ompi_coll_tuned_alltoall_intra_dec_fixed)", alltoall_rows)
NS_SEL_TABLE(ns_sel_allgather_ompi, ns_allgather_ompi, "ompi", NS_COLL_ALLGATHER, NS_SEL_MSG,
             OMPI_4_1_4 " (ompi_coll_tuned_allgather_intra_dec_fixed)", allgather_rows)
NS_SEL_TABLE(ns_sel_bcast_ompi, ns_bcast_ompi, "ompi", NS_COLL_BCAST, NS_SEL_MSG,
             OMPI_4_1_4 " (ompi_coll_tuned_bcast_intra_dec_fixed)", bcast_rows)
NS_SEL_TABLE(ns_sel_reduce_ompi, ns_reduce_ompi, "ompi", NS_COLL_REDUCE, NS_SEL_MSG,
             OMPI_4_1_4 " (ompi_coll_tuned_reduce_intra_dec_fixed)", reduce_rows)


/* ---- MPI_Allreduce: ompi_coll_tuned_allreduce_intra_dec_fixed, its
 * commutative branch, by total_dsize (the whole vector: netsched's msize).
 * Algorithms: 2 nonoverlapping (MPI_Reduce to 0, then MPI_Bcast, each by
 * its own decision: binomial trees here), 3 recursive_doubling, 4 ring, 5
 * segmented_ring (with segsize 0, as do_this passes it, the plain ring),
 * 6 rabenseifner. Open MPI's ring runs recursive doubling when count < p
 * (rows with a line below); its rabenseifner when count < 2^⌊lg p⌋, which
 * no row here reaches below 2^15 machines (the planner refuses it). */
#define AR_NONOVERLAP(pf, pb, sf, sb)                                                              \
  ROW(pf, pb, sf, sb, "nonoverlapping", allreduce, reduce_bcast, "reduce-bcast",                   \
      .note = "Open MPI's own reduce and bcast decisions; reduce-bcast: binomial trees")
#define AR_RDB(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "recursive_doubling", allreduce, rdb, "rdb")
/* The ring needs count >= p (the line p < size + 1), else Open MPI's ring
 * runs recursive doubling: the row after it. */
#define AR_RING_ROWS(pf, pb, sf, sb, lib, note_)                                                   \
  ROW(pf, pb, sf, sb, lib, allreduce, ring, "ring", .line_a = 1, .line_b = 1, .note = note_),      \
      ROW(pf, pb, sf, sb, lib, allreduce, rdb, "rdb",                                              \
          .note = "count < p: Open MPI's ring runs recursive doubling")
#define AR_RING(pf, pb, sf, sb) AR_RING_ROWS(pf, pb, sf, sb, "ring", NULL)
#define AR_SEGRING(pf, pb, sf, sb)                                                                 \
  AR_RING_ROWS(pf, pb, sf, sb, "segmented_ring",                                                   \
               "segment size 0 (the fixed decision's): the plain ring")
#define AR_RAB(pf, pb, sf, sb)                                                                     \
  ROW(pf, pb, sf, sb, "rabenseifner", allreduce, rabenseifner, "rabenseifner",                     \
      .note = "Open MPI halves by element counts; MPICH's equal blocks here")
static const NsSelRow allreduce_rows[] = {
  AR_RING(0, 4, 0, 8),
  AR_RDB(0, 4, 8, 4096),
  AR_RING(0, 4, 4096, 8192),
  AR_RDB(0, 4, 8192, 16384),
  AR_RING(0, 4, 16384, 65536),
  AR_SEGRING(0, 4, 65536, 262144),
  AR_RAB(0, 4, 262144, 0),

  AR_RING(4, 8, 0, 16),
  AR_RDB(4, 8, 16, 8192),
  AR_RAB(4, 8, 8192, 0),

  AR_RDB(8, 16, 0, 8192),
  AR_RAB(8, 16, 8192, 0),

  AR_SEGRING(16, 32, 0, 64),
  AR_RDB(16, 32, 64, 4096),
  AR_RAB(16, 32, 4096, 0),

  AR_SEGRING(32, 64, 0, 128),
  AR_RAB(32, 64, 128, 0),

  AR_RDB(64, 128, 0, 262144),
  AR_RAB(64, 128, 262144, 0),

  AR_NONOVERLAP(128, 256, 0, 131072),
  AR_RDB(128, 256, 131072, 262144),
  AR_RAB(128, 256, 262144, 0),

  AR_NONOVERLAP(256, 512, 0, 4096),
  AR_RAB(256, 512, 4096, 0),

  AR_NONOVERLAP(512, 2048, 0, 2048),
  AR_RDB(512, 2048, 2048, 16384),
  AR_RAB(512, 2048, 16384, 0),

  AR_NONOVERLAP(2048, 4096, 0, 2048),
  AR_SEGRING(2048, 4096, 2048, 4096),
  AR_RDB(2048, 4096, 4096, 16384),
  AR_RAB(2048, 4096, 16384, 0),

  AR_NONOVERLAP(4096, 0, 0, 2048),
  AR_SEGRING(4096, 0, 2048, 16384),
  AR_RDB(4096, 0, 16384, 32768),
  AR_RAB(4096, 0, 32768, 0),
};

NS_SEL_TABLE(ns_sel_allreduce_ompi, ns_allreduce_ompi, "ompi", NS_COLL_ALLREDUCE, NS_SEL_MSG,
             OMPI_4_1_4 " (ompi_coll_tuned_allreduce_intra_dec_fixed)", allreduce_rows)
