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
};

const char *ns_collective_name(NsCollective c)
{
  return (unsigned)c < G_N_ELEMENTS(collective_names) ? collective_names[c] : "?";
}

gboolean ns_collective_from_name(const char *name, NsCollective *c)
{
  for (unsigned i = 0; i < G_N_ELEMENTS(collective_names); i++)
    if (g_strcmp0(name, collective_names[i]) == 0) {
      *c = (NsCollective)i;
      return TRUE;
    }
  return FALSE;
}

gboolean ns_collective_size_check(NsCollective c, int64_t n_machines, GError **error)
{
  if (c == NS_COLL_BCAST || n_machines <= NS_MAX_PAIRWISE_MACHINES)
    return TRUE;
  uint64_t p = (uint64_t)n_machines;
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "%s on %" G_GUINT64_FORMAT " machines needs at least %" G_GUINT64_FORMAT
                  " transfers and %" G_GUINT64_FORMAT " bytes of verifier state: above the "
                  "limit of %d machines (a schedule holds fewer than 2^32 - 1 transfers)",
                  ns_collective_name(c), p, p * (p - 1), p * p, NS_MAX_PAIRWISE_MACHINES);
  return FALSE;
}

const char *ns_execution_name(NsExecution e)
{
  return e == NS_EXEC_POSTED ? "posted" : "phased";
}

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

NsSchedule *ns_schedule_copy_header(const NsSchedule *s)
{
  NsSchedule *c = ns_schedule_new(s->collective, s->algorithm, s->n_machines,
                                  (const char *const *)s->machines, s->msize);
  c->root = s->root;
  c->n_segments = s->n_segments;
  c->execution = s->execution;
  c->sync_scheme = g_strdup(s->sync_scheme);
  c->sync_set = s->sync_set;
  g_array_append_vals(c->sync, s->sync->data, s->sync->len);
  g_array_append_vals(c->routes, s->routes->data, s->routes->len);
  for (guint i = 0; i < s->route_names->len; i++)
    g_ptr_array_add(c->route_names, g_strdup(g_ptr_array_index(s->route_names, i)));
  return c;
}

NsSchedule *ns_schedule_copy(const NsSchedule *s)
{
  NsSchedule *c = ns_schedule_copy_header(s);
  g_array_append_vals(c->phase_start, s->phase_start->data, s->phase_start->len);
  g_array_append_vals(c->transfers, s->transfers->data, s->transfers->len);
  g_array_append_vals(c->chunk_pool, s->chunk_pool->data, s->chunk_pool->len);
  return c;
}

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

gboolean ns_schedule_is_streamed(const NsSchedule *s)
{
  return s->stream != NULL;
}

/* Hands the schedule's current (and only) phase on and empties it. */
static void hand_on(NsSchedule *s)
{
  struct NsScheduleStream *st = s->stream;
  NsPhase ph = { .index = st->n_phases, .first = st->n_transfers, .n = s->transfers->len,
                 .transfers = (const NsTransfer *)(void *)s->transfers->data,
                 .chunk_pool = (const uint32_t *)(void *)s->chunk_pool->data };
  if (st->error == NULL && !st->sink.phase(&ph, st->sink.data, &st->error) && st->error == NULL)
    g_set_error(&st->error, NS_ERROR, NS_ERROR_IO, "the schedule's consumer failed");
  st->n_phases++;
  st->n_transfers += s->transfers->len;
  g_array_set_size(s->phase_start, 0);
  g_array_set_size(s->transfers, 0);
  g_array_set_size(s->chunk_pool, 0);
}

/* Did the planner keep the header it streamed with? */
static gboolean same_header(const NsSchedule *a, const NsSchedule *b)
{
  if (a->collective != b->collective || a->n_machines != b->n_machines ||
      a->msize != b->msize || a->root != b->root || a->n_segments != b->n_segments ||
      a->execution != b->execution || g_strcmp0(a->algorithm, b->algorithm) != 0 ||
      g_strcmp0(a->sync_scheme, b->sync_scheme) != 0)
    return FALSE;
  for (int i = 0; i < a->n_machines; i++)
    if (strcmp(a->machines[i], b->machines[i]) != 0)
      return FALSE;
  return TRUE;
}

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
  if (s->routes != NULL)
    g_array_unref(s->routes);
  if (s->route_names != NULL)
    g_ptr_array_unref(s->route_names);
  g_free(s);
}

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

uint32_t ns_schedule_add(NsSchedule *s, int src, int dst, uint32_t chunk)
{
  if (s->phase_start->len == 0)
    ns_schedule_begin_phase(s);
  NsTransfer t = { .src = src, .dst = dst, .n_chunks = 1, .chunk = chunk };
  g_array_append_val(s->transfers, t);
  return s->transfers->len - 1;
}

uint32_t ns_schedule_add_chunks(NsSchedule *s, int src, int dst, uint32_t n,
                                const uint32_t *chunks)
{
  g_return_val_if_fail(n >= 1, G_MAXUINT32);
  if (n == 1)
    return ns_schedule_add(s, src, dst, chunks[0]);
  if (s->phase_start->len == 0)
    ns_schedule_begin_phase(s);
  NsTransfer t = { .src = src, .dst = dst, .n_chunks = n, .chunk = s->chunk_pool->len };
  g_array_append_vals(s->chunk_pool, chunks, n);
  g_array_append_val(s->transfers, t);
  return s->transfers->len - 1;
}

void ns_schedule_add_sync(NsSchedule *s, uint32_t from, uint32_t to)
{
  s->sync_set = TRUE;
  NsSyncEdge e = { from, to };
  g_array_append_val(s->sync, e);
}

void ns_schedule_relabel(NsSchedule *s, const char *algorithm, const char *sync_scheme)
{
  g_free(s->algorithm);
  s->algorithm = g_strdup(algorithm);
  if (sync_scheme != NULL) {
    g_free(s->sync_scheme);
    s->sync_scheme = g_strdup(sync_scheme);
  }
}

void ns_schedule_phase_range(const NsSchedule *s, uint32_t p, uint64_t *first, uint64_t *count)
{
  uint32_t start = g_array_index(s->phase_start, uint32_t, p);
  uint32_t end = p + 1 < s->phase_start->len ? g_array_index(s->phase_start, uint32_t, p + 1)
                                             : s->transfers->len;
  *first = start;
  *count = end - start;
}

NsPhase ns_schedule_phase(const NsSchedule *s, uint32_t p)
{
  NsPhase ph = { .index = p, .chunk_pool = (const uint32_t *)(void *)s->chunk_pool->data };
  ns_schedule_phase_range(s, p, &ph.first, &ph.n);
  ph.transfers = ph.n > 0 ? ns_schedule_transfer(s, ph.first) : NULL;
  return ph;
}

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

const uint32_t *ns_schedule_chunks(const NsSchedule *s, const NsTransfer *t)
{
  if (t->n_chunks == 1)
    return &t->chunk;
  return &g_array_index(s->chunk_pool, uint32_t, t->chunk);
}

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
