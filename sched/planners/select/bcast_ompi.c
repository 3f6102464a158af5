/* netsched — bcast/ompi: Open MPI's "tuned" fixed decision for MPI_Bcast
 * (ompi_coll_tuned_bcast_intra_dec_fixed, coll_tuned_decision_fixed.c,
 * Open MPI 1.6 – 3.x; SimGrid's `ompi` selector mirrors the same table). */
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/planners/registry.h"

/* Open MPI's constants: message-size thresholds (bytes) and the lines
 * p = a·msize + b fitted on the Grig cluster (a in 1/byte). */
#define OMPI_BCAST_SMALL_MSG 2048
#define OMPI_BCAST_INTERMEDIATE_MSG 370728
#define OMPI_BCAST_A_P16 3.2118e-6
#define OMPI_BCAST_B_P16 8.7936
#define OMPI_BCAST_A_P64 2.3679e-6
#define OMPI_BCAST_B_P64 1.1787
#define OMPI_BCAST_A_P128 1.6134e-6
#define OMPI_BCAST_B_P128 2.1102
#define OMPI_BCAST_SPLIT_MAX_P 13

/*
 * ns_bcast_ompi — the MPI_Bcast Open MPI's tuned component picks without a
 * rules file, by message size m = msize (bytes, the whole message) and p:
 *  1. m < 2048: binomial tree, no segmentation (`binomial`, segment 0);
 *  2. m < 370728: split binary tree with 1 KiB segments;
 *  3. p < 1.6134e-6·m + 2.1102: pipeline (chain) with 128 KiB segments;
 *  4. p < 13: split binary tree with 8 KiB segments;
 *  5. p < 2.3679e-6·m + 1.1787: pipeline with 64 KiB segments;
 *  6. p < 3.2118e-6·m + 8.7936: pipeline with 16 KiB segments;
 *  7. otherwise pipeline with 8 KiB segments.
 * Open MPI's pipeline is the chain root -> root+1 -> … in rank order,
 * netsched's `linear`. Approximations:
 *  - split binary tree (branches 2 and 4): Open MPI halves the message,
 *    pipelines each half down one of the root's two subtrees of a binary
 *    tree, then swaps halves between paired machines of the two subtrees.
 *    netsched has no split-binary broadcast; these branches plan `binary`
 *    (the complete binary tree, whole message pipelined down both
 *    subtrees) with the same segment size. The bytes a segment crosses
 *    and the tree depth match; the root sends every segment twice instead
 *    of once and there is no final exchange;
 *  - binomial (branch 1): netsched's binomial tree is MPICH's (parent
 *    r − lowbit(r), largest subtree first); Open MPI's has parent
 *    r − highbit(r) and sends nearest child first. Same depth ⌈lg p⌉.
 * The selector overrides params->segment as Open MPI does (on a copy) and
 * records the choice and the segment in the schedule's algorithm name:
 * "ompi(binomial)", "ompi(binary/1KiB)", "ompi(linear/128KiB)", ….
 *
 * Params: msize, root (segment is overridden). Errors: those of the
 * chosen planner: NS_ERROR_INPUT for a bad root; NS_ERROR_UNSUPPORTED
 * when the forced segment size makes more than NS_BCAST_MAX_TRANSFERS
 * transfers (huge messages on many machines), the message then saying
 * which branch forced it. Time: that of the choice, O(X·p) for X segments.
 * Source: Open MPI 1.6–3.x ompi/mca/coll/tuned/coll_tuned_decision_fixed.c
 * and coll_base_bcast.c.
 */
NsSchedule *ns_bcast_ompi(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  int p = ns_topology_n_machines(topo);
  double m = (double)params->msize, dp = (double)p;
  NsPlanParams pp = *params;
  const char *choice;
  NsPlanFunc plan;
  if (params->msize < OMPI_BCAST_SMALL_MSG) {
    choice = "binomial", plan = ns_bcast_binomial, pp.segment = 0;
  } else if (params->msize < OMPI_BCAST_INTERMEDIATE_MSG) {
    choice = "binary", plan = ns_bcast_binary, pp.segment = 1024; /* split binary */
  } else if (dp < OMPI_BCAST_A_P128 * m + OMPI_BCAST_B_P128) {
    choice = "linear", plan = ns_bcast_linear, pp.segment = 128 * 1024;
  } else if (p < OMPI_BCAST_SPLIT_MAX_P) {
    choice = "binary", plan = ns_bcast_binary, pp.segment = 8 * 1024; /* split binary */
  } else if (dp < OMPI_BCAST_A_P64 * m + OMPI_BCAST_B_P64) {
    choice = "linear", plan = ns_bcast_linear, pp.segment = 64 * 1024;
  } else if (dp < OMPI_BCAST_A_P16 * m + OMPI_BCAST_B_P16) {
    choice = "linear", plan = ns_bcast_linear, pp.segment = 16 * 1024;
  } else {
    choice = "linear", plan = ns_bcast_linear, pp.segment = 8 * 1024;
  }
  g_autofree char *name = NULL;
  if (pp.segment == 0) {
    name = g_strdup_printf("ompi(%s)", choice);
  } else {
    g_autofree char *seg = ns_format_size(pp.segment);
    name = g_strdup_printf("ompi(%s/%s)", choice, seg);
  }
  NsSchedule *s = plan(topo, &pp, error);
  if (s == NULL) {
    if (error != NULL && *error != NULL && (*error)->domain == NS_ERROR &&
        (*error)->code == NS_ERROR_UNSUPPORTED)
      g_prefix_error(error, "bcast/ompi chose %s: ", name);
    return NULL;
  }
  ns_schedule_relabel(s, name, NULL);
  return s;
}
