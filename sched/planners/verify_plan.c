/* netsched — plan and verify in one pass: a planner's phases go straight
 * into a verifier session, never all in memory. See ns_verify_planned in
 * verify.h. */
#include "platforms/model/error.h"
#include "sched/verify/verify.h"
#include <string.h>

/* The session being fed, made when the header arrives. A schedule with
 * sync edges or routes needs every phase before its checks; it comes from
 * a planner that builds it whole (streamed schedules have neither), so it
 * is verified as it is once planned, not copied phase by phase into a
 * session that would keep a second copy. */
typedef struct {
  const NsTopology *topo;
  const NsVerifyOptions *opt;
  NsVerifySession *vs;
  gboolean whole;
  NsVerifyProgress progress;
  gpointer progress_data;
  uint64_t n_transfers;
} Feed;

static gboolean feed_begin(const NsSchedule *header, gpointer data, GError **error)
{
  Feed *f = data;
  f->whole = header->sync->len > 0 || header->sync_set || header->routes->len > 0;
  if (f->whole)
    return TRUE;
  f->vs = ns_verify_begin(f->topo, header, f->opt, 0, error);
  return f->vs != NULL;
}

/* A phase into the session; `transfers`, when not NULL, the array holding
 * them, which the session may keep (no copy). */
static gboolean feed(const NsPhase *phase, GArray **transfers, Feed *f, GError **error)
{
  if (f->whole)
    return TRUE;
  if (!(transfers != NULL
            ? ns_verify_phase_array(f->vs, transfers, phase->chunk_pool, error)
            : ns_verify_phase(f->vs, phase->transfers, phase->n, phase->chunk_pool, error)))
    return FALSE;
  f->n_transfers += phase->n;
  if (f->progress != NULL)
    f->progress(f->n_transfers, f->progress_data);
  return TRUE;
}

static gboolean feed_phase(const NsPhase *phase, gpointer data, GError **error)
{
  return feed(phase, NULL, data, error);
}

static gboolean feed_phase_array(const NsPhase *phase, GArray **transfers, gpointer data,
                                 GError **error)
{
  return feed(phase, transfers, data, error);
}

/**
 * \function ns_verify_planned
 * \brief Plans a collective and verifies the schedule as it is planned.
 *
 * The planner's phases go straight into a session (ns_plan_streamed()):
 * for a planner that streams the schedule is never held whole (memory:
 * the topology, one phase and the holdings, p² bits for an all-to-all);
 * any other planner builds its schedule first.
 *
 * \param topo A finalized topology.
 * \param collective The collective.
 * \param algorithm A registered name or selector.
 * \param params The planning parameters.
 * \param opt Verification options, or NULL for the defaults.
 * \param progress Called after each phase with the transfers verified so
 *        far (may be NULL).
 * \param progress_data Passed to `progress`.
 * \param report Filled as ns_verify_end() fills it.
 * \param error Set on failure (see errors).
 * \return The ended session (it describes the findings), or NULL.
 * \errors The planner's (NS_ERROR_INPUT, NS_ERROR_UNSUPPORTED) or the
 *         verifier's.
 * \complexity The planner's plus the verifier's.
 * \source docs/architecture.md (streaming); docs/verify.md.
 */
NsVerifySession *ns_verify_planned(const NsTopology *topo, NsCollective collective,
                                   const char *algorithm, const NsPlanParams *params,
                                   const NsVerifyOptions *opt, NsVerifyProgress progress,
                                   gpointer progress_data, NsVerifyReport *report,
                                   GError **error)
{
  memset(report, 0, sizeof *report);
  Feed f = { .topo = topo, .opt = opt, .progress = progress, .progress_data = progress_data };
  NsPhaseSink sink = { .begin = feed_begin, .phase = feed_phase, .data = &f,
                       .phase_array = feed_phase_array };
  NsSchedule *tail = ns_plan_streamed(topo, collective, algorithm, params, &sink, NULL, NULL, error);
  if (tail != NULL && f.whole)
    return ns_verify_whole(topo, tail, opt, report, error);
  if (tail == NULL || !ns_verify_end(f.vs, tail, report, error)) {
    ns_schedule_free(tail);
    ns_verify_session_free(f.vs);
    return NULL;
  }
  ns_schedule_free(tail);
  return f.vs;
}
