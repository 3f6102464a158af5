/* netsched — routines: lowering a schedule into a routine table (see
 * routine.h; the format is routine_format.h). */
#include "sched/lower/routine_internal.h"
#include "platforms/model/error.h"
#include "sched/lower/routine_format.h"
#include "sched/lower/schedule_digest_internal.h"
#include "sched/verify/verify.h"
#include <string.h>

void ns_routine_options_init(NsRoutineOptions *o)
{
  *o = (NsRoutineOptions){ .sync_size = 8 };
}

/* ---- writing ------------------------------------------------------------ */

static void put_u(GByteArray *b, uint64_t v)
{
  guint8 byte;
  do {
    byte = v & 0x7f;
    v >>= 7;
    if (v != 0)
      byte |= 0x80;
    g_byte_array_append(b, &byte, 1);
  } while (v != 0);
}

static void put_string(GByteArray *b, const char *s)
{
  gsize n = MIN(strlen(s), (gsize)NSR_MAX_STRING);
  put_u(b, n);
  g_byte_array_append(b, (const guint8 *)s, (guint)n);
}

static uint64_t fnv1a(const guint8 *data, gsize len)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (gsize i = 0; i < len; i++) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* Where machine m keeps chunk c: the caller's send buffer for what it
 * starts with, its receive buffer for what it is to end with, a scratch
 * slot (numbered in order of arrival) for what it relays. */
typedef struct {
  const NsSchedule *s;
  int m;
  GHashTable *slots;   /* chunk + 1 -> slot + 1 */
} Places;

static uint64_t place(Places *pl, uint32_t chunk)
{
  const NsSchedule *s = pl->s;
  int p = s->n_machines, m = pl->m;
  switch (s->collective) {
  case NS_COLL_ALLTOALL:
    if ((int)(chunk / (uint32_t)p) == m)
      return (uint64_t)(chunk % (uint32_t)p) << 2 | NSR_LOC_SEND;
    if ((int)(chunk % (uint32_t)p) == m)
      return (uint64_t)(chunk / (uint32_t)p) << 2 | NSR_LOC_RECV;
    break;
  case NS_COLL_ALLGATHER:
    return (int)chunk == m ? NSR_LOC_SEND : (uint64_t)chunk << 2 | NSR_LOC_RECV;
  case NS_COLL_BCAST:
    return (uint64_t)chunk << 2 | (m == s->root ? NSR_LOC_SEND : NSR_LOC_RECV);
  default: /* refused by ns_routine_build */
    break;
  }
  gpointer slot = g_hash_table_lookup(pl->slots, GUINT_TO_POINTER(chunk + 1));
  if (slot == NULL) {
    slot = GUINT_TO_POINTER(g_hash_table_size(pl->slots) + 1);
    g_hash_table_insert(pl->slots, GUINT_TO_POINTER(chunk + 1), slot);
  }
  return (uint64_t)(GPOINTER_TO_UINT(slot) - 1) << 2 | NSR_LOC_SCRATCH;
}

/* Is transfer t the one block its pair implies (NSR_PAYLOAD_DIRECT)? */
static gboolean direct(const NsSchedule *s, const NsTransfer *tr)
{
  if (tr->n_chunks != 1)
    return FALSE;
  switch (s->collective) {
  case NS_COLL_ALLTOALL: return tr->chunk == ns_a2a_chunk(s->n_machines, tr->src, tr->dst);
  case NS_COLL_ALLGATHER: return (int)tr->chunk == tr->src;
  case NS_COLL_BCAST: return FALSE;
  default: return FALSE; /* refused by ns_routine_build */
  }
}

static void put_payload(GByteArray *b, const NsRoutine *r, uint64_t t, Places *pl)
{
  if (t >= r->lowered->n_real) {
    put_u(b, NSR_PAYLOAD_DUMMY);
    return;
  }
  const NsTransfer *tr = ns_schedule_transfer(r->schedule, t);
  if (direct(r->schedule, tr)) {
    put_u(b, NSR_PAYLOAD_DIRECT);
    return;
  }
  const uint32_t *chunks = ns_schedule_chunks(r->schedule, tr);
  put_u(b, 1 + (uint64_t)tr->n_chunks);
  for (uint32_t k = 0; k < tr->n_chunks; k++)
    put_u(b, place(pl, chunks[k]));
}

static void put_releases(GByteArray *b, const NsLowered *l, uint64_t t, const uint32_t *index)
{
  put_u(b, l->sync_start[t + 1] - l->sync_start[t]);
  for (uint32_t k = l->sync_start[t]; k < l->sync_start[t + 1]; k++) {
    uint32_t target = l->sync_to[k];
    put_u(b, (uint64_t)l->src[target]);
    put_u(b, index[target]);
  }
}

static void write_table(NsRoutine *r, gboolean hardware_barrier, uint64_t sync_size)
{
  const NsSchedule *s = r->schedule;
  const NsLowered *l = r->lowered;
  int p = l->p;
  GByteArray *body = g_byte_array_new();
  put_u(body, s->collective == NS_COLL_ALLTOALL    ? 0
              : s->collective == NS_COLL_ALLGATHER ? 1
                                                   : 2);
  put_u(body, (uint64_t)p);
  put_u(body, s->collective == NS_COLL_BCAST ? (uint64_t)s->root + 1 : 0);
  put_u(body, s->collective == NS_COLL_BCAST ? s->n_segments : 0);
  put_u(body, (l->receiver_based ? NSR_FLAG_RECEIVER_BASED : 0) |
                  (l->light ? NSR_FLAG_LIGHT : 0) |
                  (hardware_barrier ? NSR_FLAG_HW_BARRIER : 0) |
                  (s->execution == NS_EXEC_POSTED ? NSR_FLAG_POSTED : 0) |
                  (r->synchronous ? NSR_FLAG_SYNCHRONOUS : 0));
  put_u(body, sync_size);
  put_u(body, l->window);
  put_u(body, l->item_bytes);
  put_u(body, r->eager_threshold);
  put_string(body, s->algorithm);
  put_string(body, r->topology);
  put_string(body, r->scheme_name);
  put_string(body, r->digest);
  for (int m = 0; m < p; m++)
    put_string(body, s->machines[m]);
  put_u(body, l->n_barriers);
  for (uint32_t b = 0; b < l->n_barriers; b++)
    put_u(body, l->barrier_phase[b]);
  /* Every send's index among its sender's sends, in step order. */
  uint32_t *index = g_new0(uint32_t, l->n_all + 1), *n_sends = g_new0(uint32_t, p + 1);
  for (int m = 0; m < p; m++)
    for (uint32_t st = l->step_start[m]; st < l->step_start[m + 1]; st++)
      for (uint32_t k = 0; k < l->steps[st].n_sends; k++)
        index[l->ops[l->steps[st].send_first + k]] = n_sends[m]++;
  r->machine_at = g_new0(gsize, p + 1);
  r->step_at = g_new0(gsize, l->step_start[p] + 1);
  for (int m = 0; m < p; m++) {
    /* The section is written after its scratch size is known. */
    GByteArray *steps = g_byte_array_new();
    Places pl = { s, m, g_hash_table_new(g_direct_hash, g_direct_equal) };
    uint32_t next_phase = 0;
    gsize *step_off = &r->step_at[l->step_start[m]];
    for (uint32_t st = l->step_start[m]; st < l->step_start[m + 1]; st++) {
      const NsStep *step = &l->steps[st];
      step_off[st - l->step_start[m]] = steps->len;
      put_u(steps, step->phase - next_phase);
      next_phase = step->phase + 1;
      put_u(steps, step->n_sends);
      put_u(steps, step->n_recvs);
      for (uint32_t k = 0; k < step->n_sends; k++) {
        uint32_t t = l->ops[step->send_first + k];
        put_u(steps, (uint64_t)l->dst[t]);
        put_payload(steps, r, t, &pl);
        put_u(steps, l->needed[t]);
        if (l->receiver_based)
          put_u(steps, 0);
        else
          put_releases(steps, l, t, index);
      }
      for (uint32_t k = 0; k < step->n_recvs; k++) {
        uint32_t t = l->ops[step->recv_first + k];
        put_u(steps, (uint64_t)l->src[t]);
        put_payload(steps, r, t, &pl);
        if (l->light)
          put_u(steps, index[t]);
        if (l->receiver_based)
          put_releases(steps, l, t, index);
        else
          put_u(steps, 0);
      }
    }
    guint slots = g_hash_table_size(pl.slots);
    r->scratch_slots = MAX(r->scratch_slots, slots);
    g_hash_table_unref(pl.slots);
    GByteArray *head = g_byte_array_new();
    put_u(head, slots);
    put_u(head, n_sends[m]);
    put_u(head, l->step_start[m + 1] - l->step_start[m]);
    r->machine_at[m] = body->len;
    for (uint32_t st = l->step_start[m]; st < l->step_start[m + 1]; st++)
      r->step_at[st] += body->len + head->len;
    g_byte_array_append(body, head->data, head->len);
    g_byte_array_append(body, steps->data, steps->len);
    g_byte_array_unref(head);
    g_byte_array_unref(steps);
  }
  r->machine_at[p] = body->len;
  r->step_at[l->step_start[p]] = body->len;
  g_free(index);
  g_free(n_sends);
  /* magic, version, length, body, digest; offsets shift by the prefix */
  GByteArray *t = g_byte_array_new();
  g_byte_array_append(t, (const guint8 *)NSR_MAGIC, NSR_MAGIC_LEN);
  put_u(t, NSR_VERSION);
  put_u(t, body->len);
  gsize prefix = t->len;
  g_byte_array_append(t, body->data, body->len);
  g_byte_array_unref(body);
  for (int m = 0; m <= p; m++)
    r->machine_at[m] += prefix;
  for (uint32_t st = 0; st <= l->step_start[p]; st++)
    r->step_at[st] += prefix;
  uint64_t h = fnv1a(t->data, t->len);
  for (int i = 0; i < 8; i++) {
    guint8 byte = (guint8)(h >> (8 * i));
    g_byte_array_append(t, &byte, 1);
  }
  r->table = t;
}

NsRoutine *ns_routine_build(const NsTopology *topo, const NsSchedule *s,
                            const NsRoutineOptions *opt, GError **error)
{
  NsSyncScheme scheme;
  if (ns_collective_chunk_kind(s->collective) != s->collective) {
    /* the routine table has no combining receive and no per-chunk sizes */
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "%s/%s: MPI routines are generated for alltoall, allgather and bcast "
                    "schedules; %s is planned, verified and simulated only",
                    ns_collective_name(s->collective), s->algorithm,
                    ns_collective_name(s->collective));
    return NULL;
  }
  if (!ns_lower_scheme(s, opt->scheme, &scheme, error))
    return NULL;
  if (s->n_machines > NSR_MAX_MACHINES) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "%d machines: a routine table holds at most %d", s->n_machines,
                    NSR_MAX_MACHINES);
    return NULL;
  }
  if (opt->sync_size < NSR_MIN_SYNC_SIZE || opt->sync_size > NSR_MAX_SYNC_SIZE) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "sync message size %" G_GUINT64_FORMAT " B: a routine's sync messages carry "
                    "a 4-byte index, give 4 to 65536 bytes",
                    opt->sync_size);
    return NULL;
  }
  gboolean phased = s->execution == NS_EXEC_PHASED;
  gboolean pairwise = phased && ns_sync_uses_pairwise(&scheme);
  gboolean stored = pairwise && ns_lower_has_sync(s, &scheme);
  gboolean ok = TRUE;
  char why[512] = "";
  if (!ns_lower_check(topo, s, NULL, stored, &ok, why, sizeof why, error))
    return NULL;
  if (!ok && !opt->allow_invalid) {
    ns_set_error_at(error, NS_ERROR_CHECK, NULL, 0,
                    "%s/%s does not verify, so its routine would not compute the collective: "
                    "%s (netsched verify lists every finding)",
                    ns_collective_name(s->collective), s->algorithm, why);
    return NULL;
  }
  g_autoptr(NsSchedule) copy = ns_schedule_copy(s);
  if (pairwise && !stored && !ns_schedule_compute_sync(topo, copy, &scheme, NULL, error))
    return NULL;
  if (!pairwise && copy->sync->len > 0)
    g_array_set_size(copy->sync, 0);
  NsLowered *low = ns_lower_program(topo, copy, &scheme, error);
  if (low == NULL)
    return NULL;
  NsRoutine *r = g_new0(NsRoutine, 1);
  r->schedule = g_steal_pointer(&copy);
  r->lowered = low;
  r->scheme = scheme;
  r->scheme_name = ns_sync_scheme_to_string(&scheme);
  r->digest = ns_schedule_digest(s);
  r->topology = g_strdup(ns_topology_source(topo));
  r->synchronous = phased;
  r->eager_threshold = phased ? opt->eager_threshold : 0;
  write_table(r, opt->hardware_barrier, opt->sync_size);
  return r;
}

void ns_routine_free(NsRoutine *r)
{
  if (r == NULL)
    return;
  ns_schedule_free(r->schedule);
  ns_lowered_free(r->lowered);
  g_free(r->scheme_name);
  g_free(r->digest);
  g_free(r->topology);
  if (r->table != NULL)
    g_byte_array_unref(r->table);
  g_free(r->machine_at);
  g_free(r->step_at);
  g_free(r);
}
