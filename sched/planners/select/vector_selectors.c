/* netsched — MPICH 4.0.2's and Open MPI 4.1.4's choices for MPI_Alltoallv
 * and MPI_Allgatherv, as tables (selector_internal.h).
 *
 * MPICH 4.0.2 maint/tuning/coll/mpir/generic.json: "collective=alltoallv"
 * takes MPIR_Alltoallv_intra_scattered whatever the sizes (not in place);
 * "collective=allgatherv" decides as allgather by the total gathered size
 * (recursive doubling for a power of two p below 512 KiB, Bruck below
 * 80 KiB, else the ring).
 * Open MPI 4.1.4 coll_tuned_decision_fixed.c: alltoallv by p only
 * (basic_linear or pairwise); allgatherv by p and the bytes per rank, the
 * gathered total / p ("per_rank_dsize"): default (gatherv + bcast), bruck,
 * ring, neighbor exchange (ring for odd p) or two_proc.
 * The tables are read with the measure the libraries use, computed from
 * the pattern (vector_measure), in place of msize.
 */
#include "sched/planners/common/vector_plan_internal.h"
#include "sched/planners/select/selector_internal.h"

#define ROW NS_SEL_ROW
#define POW2 .shape = NS_SEL_POW2_P
#define EVEN .shape = NS_SEL_EVEN_P

/* MPIR_Alltoallv_intra_scattered posts batches of 32 sends to i+1, i+2,
 * ... (MPIR_CVAR_ALLTOALL_THROTTLE); spread posts them all. */
static const NsSelRow mpich_alltoallv_rows[] = {
  ROW(0, 0, 0, 0, "scattered", alltoallv, spread, "spread",
      .note = "MPICH posts in batches of 32; spread posts all at once"),
};
static const NsSelRow mpich_allgatherv_rows[] = {
  ROW(0, 0, 0, 524288, "recursive_doubling", allgatherv, rdb, "rdb", POW2),
  ROW(0, 0, 0, 81920, "brucks", allgatherv, bruck, "bruck"),
  ROW(0, 0, 0, 0, "ring", allgatherv, ring, "ring"),
};

/* Open MPI's pairwise alltoallv sends to (rank + step) mod p: the ring;
 * basic_linear posts every receive and send at once, to 0, 1, ...: simple. */
#define LINEAR(pf, pb) ROW(pf, pb, 0, 0, "basic_linear", alltoallv, simple, "simple")
#define PAIRWISE(pf, pb) ROW(pf, pb, 0, 0, "pairwise", alltoallv, ring, "ring")
static const NsSelRow ompi_alltoallv_rows[] = {
  PAIRWISE(0, 4), LINEAR(4, 64), PAIRWISE(64, 128), LINEAR(128, 256), PAIRWISE(256, 1024),
  LINEAR(1024, 0),
};

#define AGV_DEFAULT(pf, pb, sf, sb)                                                             \
  ROW(pf, pb, sf, sb, "default", allgatherv, gather_bcast, "gather-bcast",                     \
      .note = "Open MPI gathers with a linear gatherv; gather-bcast with a binary tree")
#define AGV_BRUCK(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "bruck", allgatherv, bruck, "bruck")
#define AGV_RING(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "ring", allgatherv, ring, "ring")
#define AGV_NEIGHBOR(pf, pb, sf, sb)                                                            \
  ROW(pf, pb, sf, sb, "neighbor", allgatherv, neighbor, "neighbor", EVEN),                     \
  ROW(pf, pb, sf, sb, "neighbor", allgatherv, ring, "ring",                                    \
      .note = "Open MPI's neighbor exchange falls back to the ring for odd p")
#define AGV_TWO(pf, pb, sf, sb) ROW(pf, pb, sf, sb, "two_proc", allgatherv, simple, "simple")
static const NsSelRow ompi_allgatherv_rows[] = {
  AGV_RING(2, 3, 0, 2048), AGV_TWO(2, 3, 2048, 4096), AGV_RING(2, 3, 4096, 8192),
  AGV_TWO(2, 3, 8192, 0),
  AGV_DEFAULT(0, 8, 0, 256), AGV_NEIGHBOR(0, 8, 256, 4096), AGV_RING(0, 8, 4096, 8192),
  AGV_NEIGHBOR(0, 8, 8192, 16384), AGV_BRUCK(0, 8, 16384, 262144), AGV_NEIGHBOR(0, 8, 262144, 0),
  AGV_DEFAULT(8, 16, 0, 1024), AGV_BRUCK(8, 16, 1024, 0),
  AGV_DEFAULT(16, 32, 0, 128), AGV_BRUCK(16, 32, 128, 262144), AGV_RING(16, 32, 262144, 0),
  AGV_DEFAULT(32, 64, 0, 256), AGV_BRUCK(32, 64, 256, 8192), AGV_RING(32, 64, 8192, 0),
  AGV_DEFAULT(64, 128, 0, 256), AGV_BRUCK(64, 128, 256, 4096), AGV_RING(64, 128, 4096, 0),
  AGV_BRUCK(128, 256, 0, 1024), AGV_NEIGHBOR(128, 256, 1024, 65536), AGV_RING(128, 256, 65536, 0),
  AGV_BRUCK(256, 512, 0, 1024), AGV_RING(256, 512, 1024, 0),
  AGV_BRUCK(512, 1024, 0, 512), AGV_DEFAULT(512, 1024, 512, 1024),
  AGV_BRUCK(512, 1024, 1024, 4096), AGV_NEIGHBOR(512, 1024, 4096, 1048576),
  AGV_RING(512, 1024, 1048576, 0),
  AGV_BRUCK(1024, 0, 0, 4096), AGV_NEIGHBOR(1024, 0, 4096, 0),
};

#define MPICH_4_0_2 "MPICH 4.0.2 maint/tuning/coll/mpir/generic.json"
#define OMPI_4_1_4 "Open MPI 4.1.4 coll_tuned_decision_fixed.c"
const NsSelTable ns_sel_alltoallv_mpich = {
  "mpich", NS_COLL_ALLTOALLV, NS_SEL_MSG, MPICH_4_0_2 " (collective=alltoallv)",
  mpich_alltoallv_rows, (int)G_N_ELEMENTS(mpich_alltoallv_rows)
};
const NsSelTable ns_sel_allgatherv_mpich = {
  "mpich", NS_COLL_ALLGATHERV, NS_SEL_MSG, MPICH_4_0_2 " (collective=allgatherv)",
  mpich_allgatherv_rows, (int)G_N_ELEMENTS(mpich_allgatherv_rows)
};
const NsSelTable ns_sel_alltoallv_ompi = {
  "ompi", NS_COLL_ALLTOALLV, NS_SEL_MSG, OMPI_4_1_4 " (alltoallv)", ompi_alltoallv_rows,
  (int)G_N_ELEMENTS(ompi_alltoallv_rows)
};
const NsSelTable ns_sel_allgatherv_ompi = {
  "ompi", NS_COLL_ALLGATHERV, NS_SEL_MSG, OMPI_4_1_4 " (allgatherv)", ompi_allgatherv_rows,
  (int)G_N_ELEMENTS(ompi_allgatherv_rows)
};

/* Plans by table t, its rows compared with the pattern's total (MPICH's
 * total_msg_size: the gathered vector, or every byte of an alltoallv) or
 * the total over p (Open MPI's per_rank_dsize). */
static NsSchedule *vector_select(const NsSelTable *t, gboolean per_rank, const NsTopology *topo,
                                 const NsPlanParams *params, GError **error)
{
  const NsSizePattern *pat = ns_vector_pattern(topo, params, t->collective, t->name, error);
  if (pat == NULL)
    return NULL;
  NsPlanParams pp = *params;
  pp.msize = ns_size_pattern_total(pat) / (per_rank ? (uint64_t)pat->p : 1);
  return ns_select_plan(t, topo, &pp, error);
}

/* The registered selectors `mpich` and `ompi` of alltoallv and allgatherv
 * (planners.def). Params: the pattern. Errors: those of the chosen
 * planner, NS_ERROR_INPUT without a pattern. Time: the chosen planner's. */
NsSchedule *ns_alltoallv_mpich(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return vector_select(&ns_sel_alltoallv_mpich, FALSE, topo, params, error);
}

NsSchedule *ns_allgatherv_mpich(const NsTopology *topo, const NsPlanParams *params,
                                GError **error)
{
  return vector_select(&ns_sel_allgatherv_mpich, FALSE, topo, params, error);
}

NsSchedule *ns_alltoallv_ompi(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return vector_select(&ns_sel_alltoallv_ompi, FALSE, topo, params, error);
}

NsSchedule *ns_allgatherv_ompi(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  return vector_select(&ns_sel_allgatherv_ompi, TRUE, topo, params, error);
}
