/* netsched — a reduce as a broadcast run backwards: see
 * reduce_reverse_internal.h (Faraj's dissertation §4.1.1.1, "Algorithms
 * for MPI_Reduce"). */
#include "sched/planners/reduce/reduce_reverse_internal.h"
#include "platforms/model/error.h"
#include <string.h>

/* The broadcasts whose reversal is a registered reduce (the files of
 * this folder that call ns_reduce_from_bcast). */
static const struct {
  const char *bcast, *reduce;
} reversed_planners[] = {
  { "linear-cf", "pipeline-linear" },
  { "binary-cf", "pipeline-binary" },
};

/* The broadcast planner's error, said of the reduce: its messages start
 * "bcast/NAME: " (ns_bcast_segments) and may advise another broadcast
 * ("(use linear-cf)", bcast/binary-cf's machine limit), which would name
 * the wrong collective and algorithm to the user who asked for a reduce:
 * the advice names the reduce that reverses that broadcast. */
static void as_reduce_error(GError *bcast_error, const char *algorithm, GError **error)
{
  const char *msg = bcast_error->message;
  const char *colon = g_str_has_prefix(msg, "bcast/") ? strstr(msg, ": ") : NULL;
  if (colon == NULL) {
    g_propagate_error(error, bcast_error);
    return;
  }
  g_autoptr(GString) text = g_string_new(colon + 2);
  for (gsize i = 0; i < G_N_ELEMENTS(reversed_planners); i++) {
    g_autofree char *bcast = g_strdup_printf("(use %s)", reversed_planners[i].bcast);
    g_autofree char *reduce = g_strdup_printf("(use %s)", reversed_planners[i].reduce);
    g_string_replace(text, bcast, reduce, 0);
  }
  g_set_error(error, bcast_error->domain, bcast_error->code, "reduce/%s: %s", algorithm, text->str);
  g_error_free(bcast_error);
}

NsSchedule *ns_reduce_from_bcast(const NsTopology *topo, const NsPlanParams *params,
                                 NsPlanFunc bcast, const char *algorithm, GError **error)
{
  GError *bcast_error = NULL;
  g_autoptr(NsSchedule) b = bcast(topo, params, &bcast_error);
  if (b == NULL) {
    as_reduce_error(bcast_error, algorithm, error);
    return NULL;
  }
  /* The broadcast planners add neither routes nor sync edges: reversing
   * them would need the reversed route names and edge directions. */
  g_return_val_if_fail(b->routes->len == 0 && b->sync->len == 0, NULL);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_REDUCE, algorithm, b->msize);
  s->root = b->root;
  s->n_segments = b->n_segments;
  uint32_t n_phases = ns_schedule_n_phases(b);
  ns_schedule_reserve(s, n_phases, ns_schedule_n_transfers(b));
  g_autofree uint32_t *segs = NULL;
  uint32_t segs_len = 0;
  for (uint32_t ph = n_phases; ph-- > 0;) {
    NsPhase phase = ns_schedule_phase(b, ph);
    ns_schedule_begin_phase(s);
    for (uint64_t i = 0; i < phase.n; i++) {
      const NsTransfer *t = &phase.transfers[i];
      const uint32_t *c = t->n_chunks == 1 ? &t->chunk : phase.chunk_pool + t->chunk;
      if (t->n_chunks > segs_len) {
        segs_len = t->n_chunks;
        segs = g_renew(uint32_t, segs, segs_len);
      }
      for (uint32_t k = 0; k < t->n_chunks; k++)
        segs[k] = b->n_segments - 1 - c[k];
      ns_schedule_add_combine(s, t->dst, t->src, t->n_chunks, segs);
    }
  }
  return s;
}
