/* netsched — the v-collectives planned by the fixed-size planners
 * (vector_plan_internal.h; Faraj's dissertation §4.1.1.1). */
#include "platforms/model/error.h"
#include "sched/planners/common/vector_plan_internal.h"

const NsSizePattern *ns_vector_pattern(const NsTopology *topo, const NsPlanParams *params,
                                       NsCollective vc, const char *algorithm, GError **error)
{
  const NsSizePattern *pat = params->pattern;
  const char *coll = ns_collective_name(vc);
  if (pat == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "%s/%s needs a size pattern (--pattern FILE or a generator such as "
                    "uniform:64KiB)",
                    coll, algorithm);
    return NULL;
  }
  if (pat->collective != vc) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s/%s: the pattern is for %s", coll, algorithm,
                    ns_collective_name(pat->collective));
    return NULL;
  }
  if (pat->p != ns_topology_n_machines(topo)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "%s/%s: the pattern has %d machines, the topology %d", coll, algorithm, pat->p,
                    ns_topology_n_machines(topo));
    return NULL;
  }
  return pat;
}

NsSchedule *ns_vector_schedule(NsSchedule *base, NsCollective vc, const char *algorithm,
                               const NsSizePattern *pat, GError **error)
{
  NsSchedule *s =
      ns_schedule_new(vc, algorithm, base->n_machines, (const char *const *)base->machines, 1);
  s->execution = base->execution;
  s->sync_scheme = g_strdup(base->sync_scheme);
  if (!ns_size_pattern_apply(pat, s, error)) {
    ns_schedule_free(base);
    ns_schedule_free(s);
    return NULL;
  }
  GArray *keep = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(base); ph++) {
    uint64_t first, count;
    ns_schedule_phase_range(base, ph, &first, &count);
    gboolean begun = FALSE;
    for (uint64_t t = first; t < first + count; t++) {
      const NsTransfer *tr = ns_schedule_transfer(base, t);
      const uint32_t *chunks = ns_schedule_chunks(base, tr);
      g_array_set_size(keep, 0);
      for (uint32_t k = 0; k < tr->n_chunks; k++)
        if (ns_schedule_chunk_size(s, chunks[k]) > 0)
          g_array_append_val(keep, chunks[k]);
      if (keep->len == 0)
        continue;
      if (!begun) {
        ns_schedule_begin_phase(s);
        begun = TRUE;
      }
      if (keep->len == 1)
        ns_schedule_add(s, tr->src, tr->dst, g_array_index(keep, uint32_t, 0));
      else
        ns_schedule_add_chunks(s, tr->src, tr->dst, keep->len, (const uint32_t *)keep->data);
    }
  }
  g_array_free(keep, TRUE);
  ns_schedule_free(base);
  return s;
}

NsSchedule *ns_vector_plan(const NsTopology *topo, const NsPlanParams *params, NsCollective vc,
                           const char *algorithm, NsPlanFunc base, GError **error)
{
  const NsSizePattern *pat = ns_vector_pattern(topo, params, vc, algorithm, error);
  if (pat == NULL)
    return NULL;
  NsPlanParams fixed = *params;
  fixed.msize = MAX(ns_size_pattern_max(pat), 1);
  fixed.sink = NULL;
  fixed.sink_for = NULL;
  NsSchedule *s = base(topo, &fixed, error);
  if (s == NULL) {
    g_prefix_error(error, "%s/%s: ", ns_collective_name(vc), algorithm);
    return NULL;
  }
  return ns_vector_schedule(s, vc, algorithm, pat, error);
}
