/* netsched — alltoallv/greedy: CC-MPI's greedy message scheduling. */
#include "sched/planners/alltoallv/alltoallv_phases_internal.h"
#include "sched/planners/common/vector_plan_internal.h"

typedef struct {
  uint64_t bytes;
  int src, dst, shift;
} Message;

/* Largest first; ties in shift order (distance (dst - src) mod p, then
 * src), whose runs are matchings, so equal sizes pack as the ring does. */
static int by_size_desc(const void *a, const void *b)
{
  const Message *x = a, *y = b;
  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? 1 : -1;
  if (x->shift != y->shift)
    return x->shift - y->shift;
  return x->src - y->src;
}

/*
 * ns_alltoallv_greedy — the greedy algorithm of CC-MPI (Karwande, Yuan &
 * Lowenthal, PPoPP'03, scheduling many-to-many communication on Ethernet
 * switched clusters), extended by STAGE-MPI (Faraj's dissertation
 * §4.1.1.1, "Algorithms for MPI_Alltoallv": greedy "focuses on balancing
 * the load and reducing network contention").
 *
 * Steps:
 *  1. The messages of the pattern: every pair i != j with a size > 0.
 *  2. Sort them by size, largest first (ties in shift order), so messages
 *     of similar sizes share phases: a phase lasts as long as its largest
 *     message, and the sort balances the load of the phases.
 *  3. Place each in the first phase in which it is contention-free: no
 *     directed link of its route (the topology's routing) nor a 1-port
 *     machine's port already used in that phase; open a phase if none.
 * Every phase is contention-free by construction; the number of phases is
 * heuristic (first fit), at least the bottleneck link's message count.
 * Time O(p² log p + p² · route · phases/64); memory O(|E| · phases/64).
 * Errors: NS_ERROR_INPUT without a pattern; NS_ERROR_UNSUPPORTED above
 * NS_ALLTOALLV_SCHED_MAX_MACHINES machines.
 */
NsSchedule *ns_alltoallv_greedy(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  const NsSizePattern *pat = ns_vector_pattern(topo, params, NS_COLL_ALLTOALLV, "greedy", error);
  if (pat == NULL)
    return NULL;
  g_autoptr(NsLinkPhases) lp = ns_link_phases_new(topo, "greedy", error);
  if (lp == NULL)
    return NULL;
  int p = pat->p;
  GArray *msgs = g_array_new(FALSE, FALSE, sizeof(Message));
  for (int i = 0; i < p; i++)
    for (int j = 0; j < p; j++)
      if (i != j && pat->bytes[(uint64_t)i * p + j] > 0) {
        Message m = { pat->bytes[(uint64_t)i * p + j], i, j, (j - i + p) % p };
        g_array_append_val(msgs, m);
      }
  if (msgs->len > 1)
    qsort(msgs->data, msgs->len, sizeof(Message), by_size_desc);
  /* phase_of[k]: the phase of message k, then the schedule in phase order. */
  g_autofree uint32_t *phase_of = g_new(uint32_t, MAX(msgs->len, 1));
  g_autofree int *res = g_new(int, ns_link_phases_max_resources(lp));
  uint32_t n_phases = 0;
  for (guint k = 0; k < msgs->len; k++) {
    const Message *m = &g_array_index(msgs, Message, k);
    int n = ns_link_phases_resources(lp, m->src, m->dst, res);
    phase_of[k] = ns_link_phases_first_free(lp, res, n);
    ns_link_phases_occupy(lp, res, n, phase_of[k]);
    n_phases = MAX(n_phases, phase_of[k] + 1);
  }
  /* Counting sort of the messages by phase, keeping the size order. */
  g_autofree uint32_t *start = g_new0(uint32_t, n_phases + 1);
  for (guint k = 0; k < msgs->len; k++)
    start[phase_of[k] + 1]++;
  for (uint32_t ph = 0; ph < n_phases; ph++)
    start[ph + 1] += start[ph];
  g_autofree uint32_t *order = g_new(uint32_t, MAX(msgs->len, 1));
  for (guint k = 0; k < msgs->len; k++)
    order[start[phase_of[k]]++] = k;
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALLV, "greedy", 1);
  ns_schedule_relabel(s, "greedy", "sender-all");
  if (!ns_size_pattern_apply(pat, s, error)) {
    ns_schedule_free(s);
    g_array_free(msgs, TRUE);
    return NULL;
  }
  ns_schedule_reserve(s, n_phases, msgs->len);
  uint32_t prev = UINT32_MAX;
  for (guint k = 0; k < msgs->len; k++) {
    const Message *m = &g_array_index(msgs, Message, order[k]);
    if (phase_of[order[k]] != prev) {
      ns_schedule_begin_phase(s);
      prev = phase_of[order[k]];
    }
    ns_schedule_add(s, m->src, m->dst, ns_a2a_chunk(p, m->src, m->dst));
  }
  g_array_free(msgs, TRUE);
  return s;
}
