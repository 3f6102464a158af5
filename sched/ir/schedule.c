/* netsched — Schedule IR: construction and access. See schedule.h. */
#include "sched/ir/schedule.h"
#include "platforms/model/error.h"
#include "platforms/model/topology.h"
#include "platforms/io/topology_input_internal.h"
#include <string.h>

static const char *const collective_names[] = {
  [NS_COLL_ALLTOALL] = "alltoall",
  [NS_COLL_ALLGATHER] = "allgather",
  [NS_COLL_BCAST] = "bcast",
  [NS_COLL_REDUCE] = "reduce",
  [NS_COLL_ALLREDUCE] = "allreduce",
  [NS_COLL_ALLTOALLV] = "alltoallv",
  [NS_COLL_ALLGATHERV] = "allgatherv",
};
G_STATIC_ASSERT(G_N_ELEMENTS(collective_names) == NS_N_COLLECTIVES);

/**
 * \function ns_collective_name
 * \brief A collective's name ("alltoall", "allgather", "bcast", "reduce", "allreduce",
 *        "alltoallv", "allgatherv").
 *
 * \param c The collective.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
const char *ns_collective_name(NsCollective c)
{
  return (unsigned)c < G_N_ELEMENTS(collective_names) ? collective_names[c] : "?";
}

/**
 * \function ns_collective_from_name
 * \brief A collective from its name.
 *
 * \param name A name of ns_collective_name().
 * \param c Receives the collective.
 * \return FALSE for an unknown name.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
gboolean ns_collective_from_name(const char *name, NsCollective *c)
{
  for (unsigned i = 0; i < G_N_ELEMENTS(collective_names); i++)
    if (g_strcmp0(name, collective_names[i]) == 0) {
      *c = (NsCollective)i;
      return TRUE;
    }
  return FALSE;
}

/**
 * \function ns_collective_names
 * \brief Every collective's name, for messages that list them.
 *
 * \param separator Put between two names (", " for prose, "|" for --help).
 * \return "alltoall, allgather, bcast, reduce, ..." (newly allocated).
 * \errors none.
 * \complexity O(collectives).
 * \source docs/schedule-format.md.
 */
char *ns_collective_names(const char *separator)
{
  GString *out = g_string_new(NULL);
  for (unsigned i = 0; i < G_N_ELEMENTS(collective_names); i++)
    g_string_append_printf(out, "%s%s", i > 0 ? separator : "", collective_names[i]);
  return g_string_free(out, FALSE);
}

/**
 * \function ns_collective_size_check
 * \brief The up-front check of a collective's size.
 *
 * \param c The collective.
 * \param n_machines Its number of machines.
 * \param error Set on failure (see errors).
 * \return FALSE when too large.
 * \errors NS_ERROR_UNSUPPORTED naming the limit and what the request needs when an all-to-all or
 *        all-gather has more than NS_MAX_PAIRWISE_MACHINES (65,536) machines.
 * \complexity O(1).
 * \source docs/security.md, "Limits".
 */
gboolean ns_collective_size_check(NsCollective c, int64_t n_machines, GError **error)
{
  if (ns_collective_chunk_kind(c) == NS_COLL_BCAST || n_machines <= NS_MAX_PAIRWISE_MACHINES)
    return TRUE;
  uint64_t p = (uint64_t)n_machines;
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "%s on %" G_GUINT64_FORMAT " machines needs at least %" G_GUINT64_FORMAT
                  " transfers and %" G_GUINT64_FORMAT " bytes of verifier state: above the "
                  "limit of %d machines (a schedule holds fewer than 2^32 - 1 transfers)",
                  ns_collective_name(c), p, p * (p - 1), p * p, NS_MAX_PAIRWISE_MACHINES);
  return FALSE;
}

/**
 * \function ns_execution_name
 * \brief An execution's name ("phased", "posted").
 *
 * \param e The execution.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
const char *ns_execution_name(NsExecution e)
{
  return e == NS_EXEC_POSTED ? "posted" : "phased";
}

/**
 * \function ns_execution_parse
 * \brief An execution from its name.
 *
 * \param name "phased" or "posted" (exactly; not NULL).
 * \param e Receives the execution (untouched on failure).
 * \return FALSE for any other name.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md, "Execution modes".
 */
gboolean ns_execution_parse(const char *name, NsExecution *e)
{
  for (NsExecution x = NS_EXEC_PHASED; x <= NS_EXEC_POSTED; x++)
    if (strcmp(name, ns_execution_name(x)) == 0) {
      *e = x;
      return TRUE;
    }
  return FALSE;
}


/**
 * \function ns_schedule_new
 * \brief A new, empty schedule over named machines.
 *
 * \param collective The collective.
 * \param algorithm The algorithm's name (copied).
 * \param n_machines Number of machines.
 * \param machines Their names (copied).
 * \param msize Bytes of a chunk.
 * \return The schedule (ns_schedule_free() it).
 * \errors none.
 * \complexity O(n_machines).
 * \source docs/schedule-format.md.
 */
NsSchedule *ns_schedule_new(NsCollective collective, const char *algorithm,
                            int n_machines, const char *const *machines, uint64_t msize)
{
  NsSchedule *s = g_new0(NsSchedule, 1);
  s->collective = collective;
  s->algorithm = g_strdup(algorithm);
  s->n_machines = n_machines;
  s->machines = g_new0(char *, (gsize)n_machines + 1);
  for (int i = 0; i < n_machines; i++)
    s->machines[i] = g_strdup(machines[i]);
  s->msize = msize;
  s->root = -1;
  s->execution = NS_EXEC_PHASED;
  s->phase_start = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  s->transfers = g_array_new(FALSE, FALSE, sizeof(NsTransfer));
  s->chunk_pool = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  s->sync = g_array_new(FALSE, FALSE, sizeof(NsSyncEdge));
  s->routes = g_array_new(FALSE, FALSE, sizeof(NsTransferRoute));
  s->route_names = g_ptr_array_new_with_free_func(g_free);
  return s;
}

/**
 * \function ns_schedule_copy_header
 * \brief A copy of everything but the phases.
 *
 * \param s The schedule.
 * \return The copy: sync edges, routes and the sync scheme included, no phase, transfer or chunk.
 * \errors none.
 * \complexity O(header).
 * \source docs/schedule-format.md.
 */
NsSchedule *ns_schedule_copy_header(const NsSchedule *s)
{
  NsSchedule *c = ns_schedule_new(s->collective, s->algorithm, s->n_machines,
                                  (const char *const *)s->machines, s->msize);
  c->root = s->root;
  c->n_segments = s->n_segments;
  if (s->chunk_bytes != NULL)
    c->chunk_bytes = g_array_copy(s->chunk_bytes);
  c->execution = s->execution;
  c->store_forward = s->store_forward;
  c->sync_scheme = g_strdup(s->sync_scheme);
  c->sync_set = s->sync_set;
  g_array_append_vals(c->sync, s->sync->data, s->sync->len);
  g_array_append_vals(c->routes, s->routes->data, s->routes->len);
  for (guint i = 0; i < s->route_names->len; i++)
    g_ptr_array_add(c->route_names, g_strdup(g_ptr_array_index(s->route_names, i)));
  return c;
}

/**
 * \function ns_schedule_copy
 * \brief A deep copy of a schedule.
 *
 * \param s The schedule.
 * \return The copy (ns_schedule_free() it).
 * \errors none.
 * \complexity O(size of the schedule).
 * \source docs/schedule-format.md.
 */
NsSchedule *ns_schedule_copy(const NsSchedule *s)
{
  NsSchedule *c = ns_schedule_copy_header(s);
  g_array_append_vals(c->phase_start, s->phase_start->data, s->phase_start->len);
  g_array_append_vals(c->transfers, s->transfers->data, s->transfers->len);
  g_array_append_vals(c->chunk_pool, s->chunk_pool->data, s->chunk_pool->len);
  return c;
}

/**
 * \function ns_schedule_set_route
 * \brief Gives a transfer its own route.
 *
 * \param s A schedule held whole.
 * \param t The transfer; routes are given in increasing transfer order.
 * \param n Number of node names (>= 2), source machine to destination machine.
 * \param nodes The node names (copied).
 * \errors none (checked against a topology by sched/ir/route.h).
 * \complexity O(n) amortised.
 * \source docs/schedule-format.md.
 */
void ns_schedule_set_route(NsSchedule *s, uint32_t t, int n, const char *const *nodes)
{
  g_return_if_fail(n >= 2);
  g_return_if_fail(s->routes->len == 0 ||
                   g_array_index(s->routes, NsTransferRoute, s->routes->len - 1).transfer < t);
  NsTransferRoute r = { .transfer = t, .first = s->route_names->len, .n = (uint32_t)n };
  for (int i = 0; i < n; i++)
    g_ptr_array_add(s->route_names, g_strdup(nodes[i]));
  g_array_append_val(s->routes, r);
}

/**
 * \function ns_schedule_route_of
 * \brief A transfer's own route, if it has one.
 *
 * \param s The schedule.
 * \param t The transfer.
 * \param nodes Receives its node names.
 * \return The number of names, 0 when it takes the topology's route.
 * \errors none.
 * \complexity O(log routes).
 * \source docs/schedule-format.md.
 */
int ns_schedule_route_of(const NsSchedule *s, uint64_t t, const char *const **nodes)
{
  if (s->routes == NULL || s->routes->len == 0)
    return 0;
  guint lo = 0, hi = s->routes->len;
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    uint32_t at = g_array_index(s->routes, NsTransferRoute, mid).transfer;
    if (at == t) {
      const NsTransferRoute *r = &g_array_index(s->routes, NsTransferRoute, mid);
      *nodes = (const char *const *)&g_ptr_array_index(s->route_names, r->first);
      return (int)r->n;
    }
    if (at < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return 0;
}

/* ---- streaming (schedule.h) ------------------------------------------- */

struct NsScheduleStream {
  NsPhaseSink sink;
  NsSchedule *header;        /* as handed to sink.begin: checked at the end */
  GError *error;             /* the sink's first error: nothing is handed on after it */
  uint32_t n_phases;         /* phases handed on */
  uint64_t n_transfers;      /* transfers handed on */
};

static void stream_free(struct NsScheduleStream *st)
{
  ns_schedule_free(st->header);
  g_clear_error(&st->error);
  g_free(st);
}

/**
 * \function ns_schedule_stream_to
 * \brief Starts streaming a schedule's phases to a sink.
 *
 * \param s The schedule, its header settled and no phase yet.
 * \param sink Where the phases go (sink->begin is called now with the schedule as it stands).
 * \errors none here (the sink's come back from ns_schedule_stream_finish()).
 * \complexity O(header).
 * \source docs/architecture.md, "Adding an algorithm" (streaming).
 */
void ns_schedule_stream_to(NsSchedule *s, const NsPhaseSink *sink)
{
  if (sink == NULL)
    return;
  g_return_if_fail(s->stream == NULL && s->phase_start->len == 0);
  struct NsScheduleStream *st = g_new0(struct NsScheduleStream, 1);
  st->sink = *sink;
  st->header = ns_schedule_copy_header(s);
  s->stream = st;
  if (!st->sink.begin(st->header, st->sink.data, &st->error) && st->error == NULL)
    g_set_error(&st->error, NS_ERROR, NS_ERROR_IO, "the schedule's consumer failed");
}

/**
 * \function ns_schedule_is_streamed
 * \brief Whether a schedule is being streamed.
 *
 * \param s The schedule.
 * \return TRUE once ns_schedule_stream_to() was called.
 * \errors none.
 * \complexity O(1).
 * \source docs/architecture.md, "Adding an algorithm" (streaming).
 */
gboolean ns_schedule_is_streamed(const NsSchedule *s)
{
  return s->stream != NULL;
}

/* Hands the schedule's current (and only) phase on and empties it: the
 * sink's phase_array may keep the transfers' array and give an empty one
 * back (no copy of a long phase). */
static void hand_on(NsSchedule *s)
{
  struct NsScheduleStream *st = s->stream;
  NsPhase ph = { .index = st->n_phases, .first = st->n_transfers, .n = s->transfers->len,
                 .transfers = (const NsTransfer *)(void *)s->transfers->data,
                 .chunk_pool = (const uint32_t *)(void *)s->chunk_pool->data };
  gboolean ok = st->error != NULL ||
                (st->sink.phase_array != NULL
                     ? st->sink.phase_array(&ph, &s->transfers, st->sink.data, &st->error)
                     : st->sink.phase(&ph, st->sink.data, &st->error));
  if (!ok && st->error == NULL)
    g_set_error(&st->error, NS_ERROR, NS_ERROR_IO, "the schedule's consumer failed");
  st->n_phases++;
  st->n_transfers += ph.n; /* s->transfers may be the sink's empty array now */
  g_array_set_size(s->phase_start, 0);
  g_array_set_size(s->transfers, 0);
  g_array_set_size(s->chunk_pool, 0);
}

/* Did the planner keep the header it streamed with? */
static gboolean same_header(const NsSchedule *a, const NsSchedule *b)
{
  if (a->collective != b->collective || a->n_machines != b->n_machines ||
      a->msize != b->msize || a->root != b->root || a->n_segments != b->n_segments ||
      a->execution != b->execution || a->store_forward != b->store_forward ||
      (a->chunk_bytes == NULL) != (b->chunk_bytes == NULL) ||
      (a->chunk_bytes != NULL &&
       (a->chunk_bytes->len != b->chunk_bytes->len ||
        memcmp(a->chunk_bytes->data, b->chunk_bytes->data,
               (size_t)a->chunk_bytes->len * sizeof(uint64_t)) != 0)) ||
      g_strcmp0(a->algorithm, b->algorithm) != 0 ||
      g_strcmp0(a->sync_scheme, b->sync_scheme) != 0)
    return FALSE;
  for (int i = 0; i < a->n_machines; i++)
    if (strcmp(a->machines[i], b->machines[i]) != 0)
      return FALSE;
  return TRUE;
}

/**
 * \function ns_schedule_stream_finish
 * \brief Hands on the last phase and ends the stream.
 *
 * \param s A streamed schedule.
 * \param n_phases Receives the phases handed on (may be NULL).
 * \param n_transfers Receives the transfers handed on (may be NULL).
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors the sink's first error, or NS_ERROR_INPUT when the planner changed the header after
 *        streaming began or added sync edges or routes (a planner bug).
 * \complexity O(last phase).
 * \source docs/architecture.md, "Adding an algorithm" (streaming).
 */
gboolean ns_schedule_stream_finish(NsSchedule *s, uint32_t *n_phases, uint64_t *n_transfers,
                                   GError **error)
{
  struct NsScheduleStream *st = s->stream;
  g_return_val_if_fail(st != NULL, FALSE);
  if (s->phase_start->len > 0)
    hand_on(s);
  s->stream = NULL;
  if (n_phases != NULL)
    *n_phases = st->n_phases;
  if (n_transfers != NULL)
    *n_transfers = st->n_transfers;
  gboolean ok = st->error == NULL;
  if (!ok)
    g_propagate_error(error, g_steal_pointer(&st->error));
  else if (!same_header(st->header, s) || s->sync->len > 0 || s->sync_set ||
           s->routes->len > 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "planner %s changed its schedule's header, or added sync edges or routes, "
                    "after streaming its phases began",
                    s->algorithm);
    ok = FALSE;
  }
  stream_free(st);
  return ok;
}

/**
 * \function ns_schedule_free
 * \brief Frees a schedule, its phases and its chunks.
 *
 * \param s The schedule (NULL is accepted).
 * \errors none.
 * \complexity O(phases + transfers).
 * \source sched/ir/schedule.h.
 */
void ns_schedule_free(NsSchedule *s)
{
  if (s == NULL)
    return;
  if (s->stream != NULL)
    stream_free(s->stream);
  g_free(s->algorithm);
  g_strfreev(s->machines);
  g_array_unref(s->phase_start);
  g_array_unref(s->transfers);
  g_array_unref(s->chunk_pool);
  g_array_unref(s->sync);
  g_free(s->sync_scheme);
  if (s->chunk_bytes != NULL)
    g_array_unref(s->chunk_bytes);
  if (s->routes != NULL)
    g_array_unref(s->routes);
  if (s->route_names != NULL)
    g_ptr_array_unref(s->route_names);
  g_free(s);
}

/**
 * \function ns_schedule_reserve
 * \brief Pre-sizes a schedule's arrays (an optimisation only).
 *
 * \param s The schedule.
 * \param n_phases Phases expected.
 * \param n_transfers Transfers expected.
 * \errors none (nothing for a streamed schedule).
 * \complexity O(1) plus the allocation.
 * \source docs/schedule-format.md.
 */
void ns_schedule_reserve(NsSchedule *s, uint32_t n_phases, uint64_t n_transfers)
{
  /* GArray grows by doubling; setting the size and back reserves. A
   * streamed schedule holds one phase at a time. */
  if (s->stream != NULL)
    return;
  if (n_phases > s->phase_start->len) {
    guint old = s->phase_start->len;
    g_array_set_size(s->phase_start, n_phases);
    g_array_set_size(s->phase_start, old);
  }
  if (n_transfers > s->transfers->len && n_transfers <= G_MAXUINT) {
    guint old = s->transfers->len;
    g_array_set_size(s->transfers, (guint)n_transfers);
    g_array_set_size(s->transfers, old);
  }
}

/**
 * \function ns_schedule_begin_phase
 * \brief Starts a new, empty phase; the following transfers go into it.
 *
 * \param s The schedule.
 * \return The phase's index.
 * \errors none.
 * \complexity O(1) amortised (a streamed schedule hands the previous phase on).
 * \source docs/schedule-format.md.
 */
uint32_t ns_schedule_begin_phase(NsSchedule *s)
{
  if (s->stream != NULL) {
    if (s->phase_start->len > 0)
      hand_on(s);
    uint32_t first = 0;
    g_array_append_val(s->phase_start, first);
    return s->stream->n_phases;
  }
  uint32_t first = s->transfers->len;
  g_array_append_val(s->phase_start, first);
  return s->phase_start->len - 1;
}

/**
 * \function ns_schedule_add
 * \brief Appends a one-chunk transfer to the current phase.
 *
 * \param s The schedule.
 * \param src The sending machine index.
 * \param dst The receiving machine index.
 * \param chunk The chunk (ns_a2a_chunk() for an all-to-all message).
 * \return The transfer's index (in a streamed schedule, within its phase).
 * \errors none.
 * \complexity O(1) amortised.
 * \source docs/schedule-format.md.
 */
uint32_t ns_schedule_add(NsSchedule *s, int src, int dst, uint32_t chunk)
{
  if (s->phase_start->len == 0)
    ns_schedule_begin_phase(s);
  /* grown in place and written: g_array_append_val copies through a
   * memmove call a transfer (12 % of `shift`'s calling thread on 16,384
   * machines, 268 M calls) */
  guint at = s->transfers->len;
  g_array_set_size(s->transfers, at + 1);
  g_array_index(s->transfers, NsTransfer, at) =
      (NsTransfer){ .src = src, .dst = dst, .n_chunks = 1, .chunk = chunk };
  return at;
}

/**
 * \function ns_schedule_add_transfers
 * \brief Appends one-chunk transfers to the current phase at once.
 *
 * What `n` calls of ns_schedule_add() do, with one copy: a planner of
 * millions of small phases (alltoall/faraj on 16,384 machines: 15.7 M
 * phases) spends half its time appending transfers one by one.
 *
 * \param s The schedule.
 * \param transfers The transfers (src, dst, chunk; n_chunks 1, no combine).
 * \param n Their number.
 * \return The index of the first (in a streamed schedule, within its phase).
 * \errors none.
 * \complexity O(n) amortised.
 * \source docs/schedule-format.md.
 */
uint32_t ns_schedule_add_transfers(NsSchedule *s, const NsTransfer *transfers, uint32_t n)
{
  if (s->phase_start->len == 0)
    ns_schedule_begin_phase(s);
  guint first = s->transfers->len;
  g_array_append_vals(s->transfers, transfers, n);
  return first;
}

/**
 * \function ns_schedule_add_room
 * \brief Appends transfers to the current phase for the caller to write.
 *
 * What `n` calls of ns_schedule_add() do, written in place by the caller:
 * GLib's arrays divide on every append (an overflow check), which was a
 * tenth of planning alltoall/shift on 16,384 machines (268 M appends).
 *
 * \param s The schedule.
 * \param n Transfers to append.
 * \return The n transfers, uninitialised: the caller writes every one
 *         (src, dst, n_chunks, combine, raw, chunk) before the next call on
 *         the schedule. Valid until that call.
 * \errors none.
 * \complexity O(1) amortised.
 * \source docs/schedule-format.md.
 */
NsTransfer *ns_schedule_add_room(NsSchedule *s, uint32_t n)
{
  if (s->phase_start->len == 0)
    ns_schedule_begin_phase(s);
  guint at = s->transfers->len;
  g_array_set_size(s->transfers, at + n);
  return &g_array_index(s->transfers, NsTransfer, at);
}

/**
 * \function ns_schedule_add_chunks
 * \brief Appends a transfer carrying several chunks.
 *
 * \param s The schedule.
 * \param src The sending machine index.
 * \param dst The receiving machine index.
 * \param n Number of chunks (>= 1).
 * \param chunks The chunks (copied into the chunk pool).
 * \return The transfer's index.
 * \errors none.
 * \complexity O(n) amortised.
 * \source docs/schedule-format.md.
 */
uint32_t ns_schedule_add_chunks(NsSchedule *s, int src, int dst, uint32_t n,
                                const uint32_t *chunks)
{
  g_return_val_if_fail(n >= 1 && n <= NS_TRANSFER_MAX_CHUNKS, G_MAXUINT32);
  if (n == 1)
    return ns_schedule_add(s, src, dst, chunks[0]);
  if (s->phase_start->len == 0)
    ns_schedule_begin_phase(s);
  NsTransfer t = { .src = src, .dst = dst, .n_chunks = n, .chunk = s->chunk_pool->len };
  g_array_append_vals(s->chunk_pool, chunks, n);
  g_array_append_val(s->transfers, t);
  return s->transfers->len - 1;
}

/**
 * \function ns_schedule_add_sync
 * \brief Adds a sync edge: transfer `to` waits for transfer `from`.
 *
 * \param s A schedule held whole (not streamed).
 * \param from The transfer waited for.
 * \param to The transfer that waits.
 * \errors none (the verifier checks the edges).
 * \complexity O(1) amortised.
 * \source sched/ir/sync.h; Faraj and Yuan §5.
 */
void ns_schedule_add_sync(NsSchedule *s, uint32_t from, uint32_t to)
{
  s->sync_set = TRUE;
  NsSyncEdge e = { from, to };
  g_array_append_val(s->sync, e);
}

/**
 * \function ns_schedule_relabel
 * \brief Renames a schedule's algorithm (variants, selectors).
 *
 * \param s The schedule.
 * \param algorithm The new name.
 * \param sync_scheme The scheme the algorithm prescribes (the simulator's default), or NULL to
 *        keep the current one.
 * \errors none.
 * \complexity O(length of the names).
 * \source docs/schedule-format.md.
 */
void ns_schedule_relabel(NsSchedule *s, const char *algorithm, const char *sync_scheme)
{
  g_free(s->algorithm);
  s->algorithm = g_strdup(algorithm);
  if (sync_scheme != NULL) {
    g_free(s->sync_scheme);
    s->sync_scheme = g_strdup(sync_scheme);
  }
}

/**
 * \function ns_schedule_phase_range
 * \brief The transfers of a phase: [*first, *first + *count).
 *
 * \param s The schedule.
 * \param p The phase.
 * \param first Receives its first transfer index.
 * \param count Receives its number of transfers.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
void ns_schedule_phase_range(const NsSchedule *s, uint32_t p, uint64_t *first, uint64_t *count)
{
  uint32_t start = g_array_index(s->phase_start, uint32_t, p);
  uint32_t end = p + 1 < s->phase_start->len ? g_array_index(s->phase_start, uint32_t, p + 1)
                                             : s->transfers->len;
  *first = start;
  *count = end - start;
}

/**
 * \function ns_schedule_phase
 * \brief A phase of a schedule held whole, as streams hand phases on.
 *
 * \param s The schedule.
 * \param p The phase.
 * \return The phase (pointers into the schedule, valid until it changes).
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
NsPhase ns_schedule_phase(const NsSchedule *s, uint32_t p)
{
  NsPhase ph = { .index = p, .chunk_pool = (const uint32_t *)(void *)s->chunk_pool->data };
  ns_schedule_phase_range(s, p, &ph.first, &ph.n);
  ph.transfers = ph.n > 0 ? ns_schedule_transfer(s, ph.first) : NULL;
  return ph;
}

/**
 * \function ns_schedule_transfer_phase
 * \brief The phase a transfer belongs to.
 *
 * \param s The schedule.
 * \param t The transfer index.
 * \return The phase index.
 * \errors none.
 * \complexity O(log phases).
 * \source docs/schedule-format.md.
 */
uint32_t ns_schedule_transfer_phase(const NsSchedule *s, uint64_t t)
{
  /* The last phase whose first transfer is <= t (empty phases share starts). */
  uint32_t lo = 0, hi = s->phase_start->len;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (g_array_index(s->phase_start, uint32_t, mid) <= t)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/**
 * \function ns_schedule_chunks
 * \brief The chunks of a transfer.
 *
 * \param s The schedule.
 * \param t The transfer.
 * \return t->n_chunks chunks (a pointer into the schedule, valid until it changes).
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
const uint32_t *ns_schedule_chunks(const NsSchedule *s, const NsTransfer *t)
{
  if (t->n_chunks == 1)
    return &t->chunk;
  return &g_array_index(s->chunk_pool, uint32_t, t->chunk);
}

/**
 * \function ns_schedule_machine_nodes
 * \brief The topology node of each schedule machine, matched by name.
 *
 * \param topo A finalized topology (a schedule may use a subset of its machines).
 * \param s The schedule.
 * \param error Set on failure (see errors).
 * \return n_machines node ids, newly allocated (g_free), or NULL.
 * \errors NS_ERROR_INPUT "schedule machine 'x' is not a machine of topology T" (the name
 *        escaped).
 * \complexity O(|M|).
 * \source docs/schedule-format.md.
 */
int *ns_schedule_machine_nodes(const NsTopology *topo, const NsSchedule *s, GError **error)
{
  int *node = g_new(int, s->n_machines > 0 ? s->n_machines : 1);
  for (int i = 0; i < s->n_machines; i++) {
    int m = ns_topology_find_machine(topo, s->machines[i]);
    if (m < 0) { /* a name no topology holds may hold anything: escaped */
      g_autofree char *shown = ns_input_escape(s->machines[i]);
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "schedule machine '%s' is not a machine of topology %s", shown,
                      ns_topology_source(topo));
      g_free(node);
      return NULL;
    }
    node[i] = ns_topology_machine_node(topo, m);
  }
  return node;
}

/**
 * \function ns_schedule_phase_text
 * \brief A phase as text, "n0->n4 n3->n5 ...", for tables and tests.
 *
 * \param s The schedule.
 * \param p The phase.
 * \param chunks TRUE: each transfer's chunks follow a colon, joined by '+' ("n0->n1:3").
 * \return Newly allocated text.
 * \errors none.
 * \complexity O(transfers of the phase).
 * \source docs/schedule-format.md.
 */
char *ns_schedule_phase_text(const NsSchedule *s, uint32_t p, gboolean chunks)
{
  uint64_t first, n;
  ns_schedule_phase_range(s, p, &first, &n);
  GString *out = g_string_new(NULL);
  for (uint64_t t = first; t < first + n; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    g_string_append_printf(out, "%s%s->%s", out->len ? " " : "", s->machines[tr->src],
                           s->machines[tr->dst]);
    if (chunks) {
      const uint32_t *c = ns_schedule_chunks(s, tr);
      for (uint32_t k = 0; k < tr->n_chunks; k++)
        g_string_append_printf(out, "%c%u", k ? '+' : ':', c[k]);
    }
  }
  return g_string_free(out, FALSE);
}

/**
 * \function ns_schedule_add_combine
 * \brief Appends a transfer whose receiver combines what it receives.
 *
 * \param s The schedule (reduce or allreduce).
 * \param src Sending machine index.
 * \param dst Receiving machine index.
 * \param n Number of segments (>= 1).
 * \param chunks The segments.
 * \return The transfer index (within the phase when streamed).
 * \errors none.
 * \complexity O(n) amortised.
 * \source schedule.h, "Reductions"; docs/schedule-format.md.
 */
uint32_t ns_schedule_add_combine(NsSchedule *s, int src, int dst, uint32_t n,
                                 const uint32_t *chunks)
{
  uint32_t t = ns_schedule_add_chunks(s, src, dst, n, chunks);
  if (t != G_MAXUINT32)
    g_array_index(s->transfers, NsTransfer, t).combine = 1;
  return t;
}

/**
 * \function ns_schedule_add_raw
 * \brief Appends a transfer of raw contributions.
 *
 * \param s The schedule (reduce or allreduce).
 * \param src Sending machine index.
 * \param dst Receiving machine index.
 * \param n Number of raw chunks (>= 1).
 * \param chunks The raw chunks, ns_raw_chunk(n_segments, origin, segment) each.
 * \return The transfer index (within the phase when streamed).
 * \errors none.
 * \complexity O(n) amortised.
 * \source schedule.h, "Raw contributions"; docs/schedule-format.md.
 */
uint32_t ns_schedule_add_raw(NsSchedule *s, int src, int dst, uint32_t n, const uint32_t *chunks)
{
  uint32_t t = ns_schedule_add_chunks(s, src, dst, n, chunks);
  if (t != G_MAXUINT32)
    g_array_index(s->transfers, NsTransfer, t).raw = 1;
  return t;
}

/**
 * \function ns_schedule_add_like
 * \brief Appends a transfer with the ends and flags of another.
 *
 * \param s The schedule.
 * \param like The transfer copied: its src, dst, n_chunks, combine and raw.
 * \param chunks Its n_chunks chunks.
 * \return The transfer index (within the phase when streamed).
 * \errors none.
 * \complexity O(n_chunks) amortised.
 * \source schedule.h.
 */
uint32_t ns_schedule_add_like(NsSchedule *s, const NsTransfer *like, const uint32_t *chunks)
{
  uint32_t t = ns_schedule_add_chunks(s, like->src, like->dst, like->n_chunks, chunks);
  if (t != G_MAXUINT32) {
    g_array_index(s->transfers, NsTransfer, t).combine = like->combine;
    g_array_index(s->transfers, NsTransfer, t).raw = like->raw;
  }
  return t;
}

/**
 * \function ns_schedule_set_chunk_bytes
 * \brief Gives an alltoallv, allgatherv or reduction schedule its chunk sizes.
 *
 * \param s The schedule.
 * \param sizes The sizes, indexed by chunk.
 * \param n Their number: n_machines² (alltoallv), n_machines (allgatherv), n_segments
 *        (reduce, allreduce: set n_segments first).
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT when the collective carries no sizes or `n` is not its chunk count.
 * \complexity O(n).
 * \source schedule.h, "Variable sizes".
 */
gboolean ns_schedule_set_chunk_bytes(NsSchedule *s, const uint64_t *sizes, uint64_t n,
                                     GError **error)
{
  uint64_t p = (uint64_t)s->n_machines;
  uint64_t want = s->collective == NS_COLL_ALLTOALLV    ? p * p
                  : s->collective == NS_COLL_ALLGATHERV ? p
                                                        : s->n_segments;
  gboolean sized = ns_collective_is_vector(s->collective) ||
                   ns_collective_is_reduction(s->collective);
  if (!sized || n != want) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                "%s on %" G_GUINT64_FORMAT " machines takes %" G_GUINT64_FORMAT
                " chunk sizes, not %" G_GUINT64_FORMAT,
                ns_collective_name(s->collective), p, sized ? want : 0, n);
    return FALSE;
  }
  if (s->chunk_bytes == NULL)
    s->chunk_bytes = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t), (guint)n);
  g_array_set_size(s->chunk_bytes, 0);
  g_array_append_vals(s->chunk_bytes, sizes, (guint)n);
  uint64_t largest = 1;
  for (uint64_t i = 0; i < n; i++)
    largest = MAX(largest, sizes[i]);
  s->msize = largest;
  return TRUE;
}

/**
 * \function ns_schedule_transfer_bytes
 * \brief Bytes a transfer moves.
 *
 * \param s The schedule.
 * \param t One of its transfers.
 * \return The sum of its chunks' sizes (n_chunks · msize unless the collective has chunk sizes).
 * \errors none.
 * \complexity O(1), O(chunks) with chunk sizes.
 * \source schedule.h.
 */
uint64_t ns_schedule_transfer_bytes(const NsSchedule *s, const NsTransfer *t)
{
  if (s->chunk_bytes == NULL)
    return (uint64_t)t->n_chunks * s->msize;
  const uint32_t *c = ns_schedule_chunks(s, t);
  uint64_t bytes = 0;
  for (uint32_t k = 0; k < t->n_chunks; k++)
    bytes += ns_schedule_chunk_size(s, c[k]);
  return bytes;
}

/**
 * \function ns_schedule_transfer_bytes_at
 * \brief Bytes a transfer moves when replayed at another chunk size.
 *
 * \param s The schedule.
 * \param t One of its transfers.
 * \param msize Bytes per chunk of the replay (a schedule's own sizes win when it has chunk_bytes).
 * \return ns_schedule_transfer_bytes() with chunk sizes, else n_chunks · msize.
 * \errors none.
 * \complexity O(1), O(chunks) with chunk sizes.
 * \source schedule.h, "Variable sizes".
 */
uint64_t ns_schedule_transfer_bytes_at(const NsSchedule *s, const NsTransfer *t, uint64_t msize)
{
  return s->chunk_bytes != NULL ? ns_schedule_transfer_bytes(s, t) : (uint64_t)t->n_chunks * msize;
}

/**
 * \function ns_collective_is_reduction
 * \brief Whether a collective combines contributions (reduce, allreduce).
 *
 * \param c The collective.
 * \return TRUE for reduce and allreduce.
 * \errors none.
 * \complexity O(1).
 * \source schedule.h, "Reductions".
 */
gboolean ns_collective_is_reduction(NsCollective c)
{
  return c == NS_COLL_REDUCE || c == NS_COLL_ALLREDUCE;
}

/**
 * \function ns_collective_is_vector
 * \brief Whether a collective carries per-chunk sizes (alltoallv, allgatherv).
 *
 * \param c The collective.
 * \return TRUE for alltoallv and allgatherv.
 * \errors none.
 * \complexity O(1).
 * \source schedule.h, "Variable sizes".
 */
gboolean ns_collective_is_vector(NsCollective c)
{
  return c == NS_COLL_ALLTOALLV || c == NS_COLL_ALLGATHERV;
}

/**
 * \function ns_collective_chunk_kind
 * \brief The collective whose chunk numbering a collective follows.
 *
 * \param c The collective.
 * \return alltoall for alltoall(v), allgather for allgather(v), bcast for bcast, reduce and
 *         allreduce (segments).
 * \errors none.
 * \complexity O(1).
 * \source schedule.h.
 */
NsCollective ns_collective_chunk_kind(NsCollective c)
{
  switch (c) {
  case NS_COLL_ALLTOALL:
  case NS_COLL_ALLTOALLV:
    return NS_COLL_ALLTOALL;
  case NS_COLL_ALLGATHER:
  case NS_COLL_ALLGATHERV:
    return NS_COLL_ALLGATHER;
  case NS_COLL_BCAST:
  case NS_COLL_REDUCE:
  case NS_COLL_ALLREDUCE:
    return NS_COLL_BCAST;
  }
  return c;
}
