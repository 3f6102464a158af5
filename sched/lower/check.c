/* netsched — what a schedule must satisfy before it is replayed or run as
 * an MPI routine (see ns_lower_check in routine.h). */
#include "sched/lower/routine_internal.h"
#include "sched/verify/verify.h"

/* The verdict (routine.h): the first failing finding of the checks a
 * replay needs, the sync check reduced to wait cycles when the stored
 * edges are not followed. */
void ns_lower_verdict(const NsVerifyReport *r, const NsTopology *topo, const NsSchedule *s,
                      gboolean stored_sync, gboolean *ok, char *why, gsize why_size)
{
  *ok = TRUE;
  const NsCheck needed[] = { NS_CHECK_DATAFLOW, NS_CHECK_COMPLETE, NS_CHECK_SYNC };
  for (gsize i = 0; i < G_N_ELEMENTS(needed) && *ok; i++) {
    gboolean cycle_only = needed[i] == NS_CHECK_SYNC && !stored_sync;
    uint64_t failures = cycle_only ? (r->cycle != NULL) : r->failures[needed[i]];
    if (failures == 0)
      continue;
    *ok = FALSE;
    for (guint k = 0; k < r->findings->len; k++) {
      const NsFinding *f = &g_array_index(r->findings, NsFinding, k);
      if (ns_finding_check(f->kind) != needed[i] || (cycle_only && f->kind != NS_FIND_CYCLE))
        continue;
      g_autofree char *d = ns_finding_describe(f, topo, s);
      g_snprintf(why, why_size, "%s: %s (%" G_GUINT64_FORMAT " finding%s)",
                 ns_check_name(needed[i]), d, failures, failures == 1 ? "" : "s");
      break;
    }
  }
}

gboolean ns_lower_check(const NsTopology *topo, const NsSchedule *s, const NsRouter *router,
                        gboolean stored_sync, gboolean *ok, char *why, gsize why_size,
                        GError **error)
{
  NsVerifyOptions vo;
  ns_verify_options_init(&vo);
  vo.router = router;
  vo.port = NS_PORT_ALL;
  vo.max_findings = 1;
  vo.sync_order = stored_sync;
  NsVerifyReport r = { 0 };
  gboolean verified = ns_verify(topo, s, &vo, &r, error);
  if (verified)
    ns_lower_verdict(&r, topo, s, stored_sync, ok, why, why_size);
  ns_verify_report_clear(&r);
  return verified;
}
