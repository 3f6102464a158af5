/* netsched — Open MPI 1.6 - 3.x's fixed decisions for MPI_Alltoall,
 * MPI_Allgather and MPI_Bcast, as tables: the planners `ompi-legacy`.
 *
 * Mirrors ompi/mca/coll/tuned/coll_tuned_decision_fixed.c of Open MPI
 * 1.6 - 3.1 (ompi_coll_tuned_alltoall_intra_dec_fixed,
 * ompi_coll_tuned_allgather_intra_dec_fixed,
 * ompi_coll_tuned_bcast_intra_dec_fixed, the Grig-cluster measurements),
 * the table SimGrid's `ompi` selector still mirrors. netsched's `ompi`
 * followed it until Open MPI 4.1.4 (ompi.c); the results under results/
 * made before that name these choices "ompi(...)".
 */
#include "sched/planners/select/selector_internal.h"

#define ROW NS_SEL_ROW

/* MPI_Alltoall, by the bytes per destination: p == 2: the two-process
 * exchange; < 200 B and p > 12: Bruck; < 3000 B: basic linear; else
 * Open MPI's pairwise, which is netsched's `ring` (i -> i+k in step k). */
static const NsSelRow alltoall_rows[] = {
  ROW(2, 3, 0, 0, "two_procs", alltoall, pair, "pair"),
  ROW(13, 0, 0, 200, "bruck", alltoall, bruck, "bruck"),
  ROW(0, 0, 0, 3000, "basic_linear", alltoall, basic_linear, "basic-linear"),
  ROW(0, 0, 0, 0, "pairwise", alltoall, ring, "ring"),
};

/* MPI_Allgather, by the total gathered size msize·p: p == 2: the
 * two-process exchange (recursive doubling's single step); < 50000 B:
 * recursive doubling for 2^k, else Bruck; otherwise the ring for odd p,
 * neighbor exchange for even p. */
static const NsSelRow allgather_rows[] = {
  ROW(2, 3, 0, 0, "two_procs", allgather, rdb, "rdb"),
  ROW(0, 0, 0, 50000, "recursivedoubling", allgather, rdb, "rdb", .shape = NS_SEL_POW2_P),
  ROW(0, 0, 0, 50000, "bruck", allgather, bruck, "bruck"),
  ROW(0, 0, 0, 0, "neighborexchange", allgather, neighbor, "neighbor", .shape = NS_SEL_EVEN_P),
  ROW(0, 0, 0, 0, "ring", allgather, ring, "ring"),
};

/* MPI_Bcast, by the message size m: < 2048 B: binomial, unsegmented;
 * < 370728 B: split binary tree, 1 KiB segments; then by lines
 * p < a·m + b fitted on the Grig cluster: pipeline with 128 KiB segments,
 * split binary with 8 KiB (p < 13), pipeline with 64, 16 or 8 KiB.
 * Open MPI's pipeline is the chain in rank order (`linear`). The split
 * binary tree is planned as `binary` (the complete binary tree, whole
 * message down both subtrees, no final exchange of the halves), Open MPI's
 * binomial as MPICH's `binomial` (same depth, mirrored): the choices this
 * table has always made, kept so that results made with it can be
 * reproduced. */
#define LINE(a, b) .line_a = (a), .line_b = (b)
static const NsSelRow bcast_rows[] = {
  ROW(0, 0, 0, 2048, "binomial", bcast, binomial, "binomial"),
  ROW(0, 0, 2048, 370728, "split_bintree", bcast, binary, "binary", .segment = 1024),
  ROW(0, 0, 370728, 0, "pipeline", bcast, linear, "linear", .segment = 128 * 1024,
      LINE(1.6134e-6, 2.1102)),
  ROW(0, 13, 370728, 0, "split_bintree", bcast, binary, "binary", .segment = 8 * 1024),
  ROW(0, 0, 370728, 0, "pipeline", bcast, linear, "linear", .segment = 64 * 1024,
      LINE(2.3679e-6, 1.1787)),
  ROW(0, 0, 370728, 0, "pipeline", bcast, linear, "linear", .segment = 16 * 1024,
      LINE(3.2118e-6, 8.7936)),
  ROW(0, 0, 370728, 0, "pipeline", bcast, linear, "linear", .segment = 8 * 1024),
};

#define OMPI_LEGACY "Open MPI 1.6 - 3.x ompi/mca/coll/tuned/coll_tuned_decision_fixed.c"

/* The registered selectors `ompi-legacy` (planners.def). Params: msize,
 * root (bcast); the segment is the row's. Errors: those of the chosen
 * planner. */
NS_SEL_TABLE(ns_sel_alltoall_ompi_legacy, ns_alltoall_ompi_legacy, "ompi-legacy",
             NS_COLL_ALLTOALL, NS_SEL_MSG,
             OMPI_LEGACY " (ompi_coll_tuned_alltoall_intra_dec_fixed)", alltoall_rows)
NS_SEL_TABLE(ns_sel_allgather_ompi_legacy, ns_allgather_ompi_legacy, "ompi-legacy",
             NS_COLL_ALLGATHER, NS_SEL_TOTAL,
             OMPI_LEGACY " (ompi_coll_tuned_allgather_intra_dec_fixed)", allgather_rows)
NS_SEL_TABLE(ns_sel_bcast_ompi_legacy, ns_bcast_ompi_legacy, "ompi-legacy", NS_COLL_BCAST,
             NS_SEL_MSG, OMPI_LEGACY " (ompi_coll_tuned_bcast_intra_dec_fixed)", bcast_rows)
