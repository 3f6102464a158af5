/* netsched — alltoallv/a2a-based: CC-MPI's all-to-all based scheduling. */
#include "sched/planners/alltoallv/alltoallv_phases_internal.h"
#include "sched/planners/common/vector_plan_internal.h"

typedef struct {
  uint64_t first, count; /* transfers of the AAPC phase (zero-size dropped) */
  uint64_t largest;      /* its largest message */
  uint32_t index;        /* the AAPC phase number */
} Group;

static int by_largest_desc(const void *a, const void *b)
{
  const Group *x = a, *y = b;
  if (x->largest != y->largest)
    return x->largest < y->largest ? 1 : -1;
  return (x->index > y->index) - (x->index < y->index);
}

/*
 * ns_alltoallv_a2a_based — the all-to-all based algorithm of CC-MPI
 * (Karwande, Yuan & Lowenthal, PPoPP'03), extended by STAGE-MPI (Faraj's
 * dissertation §4.1.1.1: it "considers all three issues" — balancing the
 * load, reducing network contention, minimising the number of phases).
 *
 * Steps:
 *  1. Contention: the phases of the topology-specific all-to-all
 *     (alltoall/faraj: contention-free, as few as the bottleneck link
 *     allows), each keeping the pattern's messages of size > 0; phases
 *     left empty are dropped. Each is a *group* that stays together.
 *  2. Load: sort the groups by their largest message, largest first, so
 *     that groups of similar sizes end up in one phase.
 *  3. Phases: place each group whole in the first phase where all its
 *     messages are contention-free (no directed link or 1-port machine
 *     port used twice), opening a phase if none — a sparse pattern needs
 *     fewer phases than the all-to-all.
 * Every phase is contention-free (step 1's groups are; step 3 merges only
 * where the union is); never more phases than the all-to-all's.
 * Time: alltoall/faraj's plus O(p² · route · phases); trees only.
 * Errors: NS_ERROR_INPUT without a pattern; NS_ERROR_UNSUPPORTED above
 * NS_ALLTOALLV_SCHED_MAX_MACHINES machines.
 */
NsSchedule *ns_alltoallv_a2a_based(const NsTopology *topo, const NsPlanParams *params,
                                   GError **error)
{
  const char *name = "a2a-based";
  g_autoptr(NsLinkPhases) lp = ns_link_phases_new(topo, name, error);
  if (lp == NULL)
    return NULL;
  g_autoptr(NsSchedule) aapc =
      ns_vector_plan(topo, params, NS_COLL_ALLTOALLV, name, ns_alltoall_faraj, error);
  if (aapc == NULL)
    return NULL;
  uint32_t n_groups = ns_schedule_n_phases(aapc);
  g_autofree Group *groups = g_new0(Group, MAX(n_groups, 1));
  for (uint32_t g = 0; g < n_groups; g++) {
    groups[g].index = g;
    ns_schedule_phase_range(aapc, g, &groups[g].first, &groups[g].count);
    for (uint64_t t = groups[g].first; t < groups[g].first + groups[g].count; t++)
      groups[g].largest =
          MAX(groups[g].largest, ns_schedule_transfer_bytes(aapc, ns_schedule_transfer(aapc, t)));
  }
  if (n_groups > 1)
    qsort(groups, n_groups, sizeof(Group), by_largest_desc);
  int max_res = ns_link_phases_max_resources(lp);
  g_autofree uint32_t *phase_of = g_new(uint32_t, MAX(n_groups, 1));
  uint32_t n_phases = 0;
  GArray *res = g_array_new(FALSE, FALSE, sizeof(int));
  for (uint32_t g = 0; g < n_groups; g++) {
    g_array_set_size(res, groups[g].count * (uint64_t)max_res);
    int *r = (int *)res->data;
    g_autofree int *n_of = g_new(int, groups[g].count);
    for (uint64_t k = 0; k < groups[g].count; k++) {
      const NsTransfer *t = ns_schedule_transfer(aapc, groups[g].first + k);
      n_of[k] = ns_link_phases_resources(lp, t->src, t->dst, r + k * max_res);
    }
    uint32_t ph = 0;
    for (; ph < n_phases; ph++) {
      gboolean fits = TRUE;
      for (uint64_t k = 0; k < groups[g].count && fits; k++)
        fits = ns_link_phases_free_in(lp, r + k * max_res, n_of[k], ph);
      if (fits)
        break;
    }
    for (uint64_t k = 0; k < groups[g].count; k++)
      ns_link_phases_occupy(lp, r + k * max_res, n_of[k], ph);
    phase_of[g] = ph;
    n_phases = MAX(n_phases, ph + 1);
  }
  g_array_free(res, TRUE);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALLV, name, 1);
  ns_schedule_relabel(s, name, aapc->sync_scheme);
  g_autoptr(GArray) sizes = g_array_copy(aapc->chunk_bytes);
  if (!ns_schedule_set_chunk_bytes(s, (const uint64_t *)sizes->data, sizes->len, error)) {
    ns_schedule_free(s);
    return NULL;
  }
  for (uint32_t ph = 0; ph < n_phases; ph++) {
    ns_schedule_begin_phase(s);
    for (uint32_t g = 0; g < n_groups; g++)
      if (phase_of[g] == ph)
        for (uint64_t t = groups[g].first; t < groups[g].first + groups[g].count; t++) {
          const NsTransfer *tr = ns_schedule_transfer(aapc, t);
          ns_schedule_add(s, tr->src, tr->dst, tr->chunk);
        }
  }
  return s;
}
