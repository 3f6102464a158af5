/* netsched — schedule streams: the reader. See schedule_stream.h and
 * docs/schedule-format.md.
 *
 * The reader pulls tokens from NsTok (schedule_stream_internal.h) and
 * checks the schema as values arrive, so that a schedule is never held as
 * a document tree. It gives the messages of the former tree reader, in the
 * same order of precedence:
 *
 *  - a syntax error anywhere wins (the tokenizer reports the first one);
 *  - then the schema checks in the order the tree reader made them: the
 *    document is an object, no key twice under different escapes, format,
 *    version, collective, algorithm, machines, msize_bytes, execution,
 *    root and segments, phases, sync, routes, sync_scheme. A schema error
 *    is recorded with that rank and the document is read on (syntax only,
 *    plus checks of lower rank), and the lowest-ranked error is reported
 *    at the end;
 *  - within the phases: the posted phase count, then the first phase that
 *    is not an array, then the transfer count, then the first bad transfer.
 *
 * Values that arrive before what they are checked against (phases before
 * the header keys; sync edges or routes before the phases) are recorded on
 * a tape — a compact event list, a byte a bracket and a varint a number —
 * and checked from it at the end of the document. Files written by netsched
 * never need one.
 *
 * JSON Lines ("netsched-schedule-lines") files are read by the same
 * machinery: the header line is a top-level object checked as above, each
 * phase line is a phase, trailing object lines carry sync edges, routes and
 * the end counts. The reader stops at the first error there, in line order.
 */
#include "sched/io/schedule_stream_internal.h"
#include "sched/io/schedule_stream_ahead_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/io/schedule_json.h"
#include "sched/ir/sync.h"

#include <stdarg.h>
#include <string.h>

/* Alltoall chunks are stored as origin * n + destination in 32 bits. */
#define NS_A2A_MAX_MACHINES 65536

/* ---- events: a value's pieces, from the tokenizer or from a tape -------- */

typedef enum { EV_ARRAY, EV_END, EV_OBJECT, EV_INT, EV_FLOAT, EV_BOOL, EV_NULL, EV_STRING } EvKind;

typedef struct {
  EvKind kind;
  gint64 v;
  const char *s; /* EV_STRING when kept */
} Ev;

static const char *describe(EvKind k)
{
  switch (k) {
  case EV_OBJECT: return "an object";
  case EV_ARRAY: return "an array";
  case EV_NULL: return "null";
  case EV_INT: return "an integer";
  case EV_FLOAT: return "a number with a fraction or exponent";
  case EV_BOOL: return "a boolean";
  case EV_STRING: return "a string";
  case EV_END: break;
  }
  return "nothing";
}

/* ---- the header's keys --------------------------------------------------- */

typedef enum {
  K_FORMAT, K_VERSION, K_COLLECTIVE, K_ALGORITHM, K_MACHINES, K_MSIZE, K_EXECUTION, K_ROOT,
  K_SEGMENTS, K_CHUNK_BYTES, K_PHASES, K_SYNC, K_ROUTES, K_SCHEME, K_RELAYS, N_KEYS,
  K_UNKNOWN = N_KEYS
} Key;

static const char *const key_names[N_KEYS] = {
  "format", "version", "collective", "algorithm", "machines", "msize_bytes", "execution",
  "root", "segments", "chunk_bytes", "phases", "sync", "routes", "sync_scheme", "relays",
};

/* Ranks of errors: the order in which the tree reader checked. */
enum { RANK_ROOT = 0, RANK_DUP = 1 };
#define RANK(key) ((int)(key) + 2)
#define RANK_NONE G_MAXINT

typedef struct {
  gboolean seen;
  EvKind kind;
  gint64 v;
  char *s;
} Slot;

typedef struct {
  gboolean seen;
  EvKind kind;             /* of the value */
  GPtrArray *names;        /* the strings before the first non-string */
  guint64 count;           /* elements */
  guint64 bad;             /* index of the first non-string (count if none) */
  EvKind bad_kind;
} MachinesSlot;

/* "chunk_bytes": the sizes up to the first bad element (read_sizes). */
typedef struct {
  gboolean seen;
  EvKind kind;             /* of the value */
  GArray *sizes;           /* uint64, at most NS_SIZES_MAX_KEPT */
  guint64 count;           /* elements */
  guint64 bad;             /* index of the first element that is not a size (count if none) */
  EvKind bad_kind;
  gint64 bad_value;
} SizesSlot;

/* ---- tapes ----------------------------------------------------------------- */

typedef struct {
  GByteArray *b;
  gsize pos;
} Tape;

static void tape_varint(GByteArray *b, guint64 v)
{
  guint8 x[10];
  int n = 0;
  do {
    x[n++] = (guint8)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
    v >>= 7;
  } while (v != 0);
  g_byte_array_append(b, x, (guint)n);
}

static guint64 tape_get_varint(Tape *t)
{
  guint64 v = 0;
  for (int shift = 0;; shift += 7) {
    guint8 x = t->b->data[t->pos++];
    v |= (guint64)(x & 0x7f) << shift;
    if (!(x & 0x80))
      return v;
  }
}

static void tape_put(Tape *t, EvKind k, gint64 v, const char *s, gsize len)
{
  if (t->b == NULL)
    t->b = g_byte_array_new();
  guint8 tag = (guint8)k;
  g_byte_array_append(t->b, &tag, 1);
  if (k == EV_INT)
    tape_varint(t->b, ((guint64)v << 1) ^ (guint64)(v >> 63)); /* zigzag */
  else if (k == EV_STRING) { /* length, bytes, NUL */
    tape_varint(t->b, s != NULL ? len : 0);
    if (s != NULL)
      g_byte_array_append(t->b, (const guint8 *)s, (guint)len);
    g_byte_array_append(t->b, (const guint8 *)"", 1);
  }
}

/* ---- the reader ------------------------------------------------------------ */

typedef enum {
  S_START,        /* nothing read */
  S_TOP,          /* between the keys of the top-level object */
  S_PHASES,       /* in the phases array (live, or from the tape) */
  S_ROOT_END,     /* the top-level value is complete */
  S_TAIL,         /* checks of what came before its time, at the end */
  S_LINES,        /* JSON Lines: the lines after the header */
  S_DONE,
  S_FAILED,
} State;

typedef struct {
  const char *key; /* NULL: an index */
  guint64 index;
} PathPart;

typedef struct {
  PathPart part[8];
  int n;
} Path;

/* One element of a transfer array: a value, or (arrays) their length and
 * first two items, which is all the checks look at. */
typedef struct {
  EvKind kind;
  gint64 v;
  guint64 len;
  EvKind k[2];
  gint64 x[2];
} Elem;

struct NsScheduleReader {
  NsTok tok;
  gsize read_size;
  State state;
  gboolean lines;            /* a JSON Lines file */
  Slot slot[N_KEYS];
  MachinesSlot machines;
  SizesSlot sizes;
  GError *err;               /* the schema error of lowest rank so far */
  int err_rank;
  guint64 err_line;          /* JSON Lines: line of the value being read (0: none) */
  gboolean err_line_due;     /* ... of the phase line being read: found at its first error */
  GError *failed;            /* the final error */
  /* header */
  gboolean header_checked, header_ok;
  NsSchedule *header;
  GHashTable *machine_index; /* name -> index + 1 */
  NsTokSchema schema;
  /* phases */
  gboolean phases_seen, phases_live, phases_done, phases_ok;
  GArray *transfers, *pool;  /* the phase being read */
  guint transfers_reserved;  /* room known in `transfers` (ns_tok_fast_transfers) */
  GArray *elems;             /* the transfer being read */
  gboolean general_only;     /* no fast path (ns_schedule_reader_set_general_only) */
  uint32_t n_phases;
  guint64 total, pool_total;
  gboolean broken;           /* a phases error is due: only count now */
  gboolean shape_bad;
  guint64 shape_index;
  EvKind shape_kind;
  GError *transfer_err;
  /* tapes of values that came early, and the one being replayed */
  Tape tape[N_KEYS];
  Tape *replay;
  /* tail */
  GArray *sync;              /* NsSyncEdge */
  GArray *routes;            /* NsTransferRoute */
  GPtrArray *route_names;
  gint64 last_route;
  gboolean sync_seen, routes_seen;
  /* limits (ns_schedule_reader_set_limits) */
  NsScheduleLimits limits;
  guint64 max_moves;         /* transfers, chunks of multi-chunk transfers, sync edges */
  guint64 limit_machines;    /* the machines max_moves is for */
  char *limit_text;
  /* JSON Lines */
  guint64 lines_sync, lines_routes; /* announced by the header */
  gboolean lines_trailer, lines_end;
  NsTailKnown tail_known;
  /* reading ahead (schedule_stream_ahead_internal.h): while `ahead` is set, the
   * thread owns everything above and the caller reads `batch` */
  NsReadAhead *ahead;
  guint64 ahead_from;        /* bytes of the document read before it starts */
  gboolean ahead_tried;
  NsAheadBatch *batch;       /* the batch phases are delivered from */
  guint batch_next;          /* its next phase */
  guint batch_base, pool_base; /* where the phase being read starts in the batch */
  NsAheadPhase seen;         /* the counts of the last phase delivered */
  gsize ahead_peak;          /* the most bytes it held at once (tests) */
};

/* ---- errors ----------------------------------------------------------------- */

static char *path_text(const Path *p)
{
  GString *g = g_string_new("$");
  for (int i = 0; i < p->n; i++) {
    if (p->part[i].key != NULL)
      g_string_append_printf(g, ".%s", p->part[i].key);
    else
      g_string_append_printf(g, "[%" G_GUINT64_FORMAT "]", p->part[i].index);
  }
  return g_string_free(g, FALSE);
}

static inline void path_key(Path *p, const char *key)
{
  g_assert(p->n < (int)G_N_ELEMENTS(p->part));
  p->part[p->n++] = (PathPart){ key, 0 };
}

static inline void path_index(Path *p, guint64 i)
{
  g_assert(p->n < (int)G_N_ELEMENTS(p->part));
  p->part[p->n++] = (PathPart){ NULL, i };
}

/* Records a schema error at `path` unless one of lower rank is known.
 * Always returns FALSE. */
static gboolean schema_fail(NsScheduleReader *r, int rank, const Path *path, const char *fmt,
                            ...) G_GNUC_PRINTF(4, 5);

static gboolean schema_fail(NsScheduleReader *r, int rank, const Path *path, const char *fmt,
                            ...)
{
  if (rank >= r->err_rank)
    return FALSE;
  if (r->err_line_due) {
    r->err_line = ns_tok_value_line(&r->tok);
    r->err_line_due = FALSE;
  }
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *where = path_text(path);
  g_clear_error(&r->err);
  ns_set_error_at(&r->err, NS_ERROR_INPUT, r->tok.source,
                  (int)MIN(r->err_line, (guint64)G_MAXINT), "%s: %s", where, msg);
  r->err_rank = rank;
  g_free(where);
  g_free(msg);
  return FALSE;
}

/* The reader failed for good: a syntax or I/O error of the tokenizer (when
 * `e` is NULL) or `e` (taken). */
static void fail_with(NsScheduleReader *r, GError *e)
{
  if (r->failed == NULL) {
    if (e == NULL && r->tok.error != NULL)
      e = g_error_copy(r->tok.error);
    if (e == NULL)
      e = g_error_new_literal(NS_ERROR, NS_ERROR_INPUT, "schedule reader failed");
    r->failed = e;
  } else if (e != NULL) {
    g_error_free(e);
  }
  r->state = S_FAILED;
}

/* ---- events ------------------------------------------------------------------ */

static gboolean tape_next(Tape *t, Ev *ev)
{
  ev->kind = (EvKind)t->b->data[t->pos++];
  ev->s = NULL;
  if (ev->kind == EV_INT) {
    guint64 z = tape_get_varint(t);
    ev->v = (gint64)(z >> 1) ^ -(gint64)(z & 1);
  } else if (ev->kind == EV_STRING) {
    guint64 len = tape_get_varint(t);
    ev->s = (const char *)t->b->data + t->pos;
    t->pos += len + 1;
  }
  return TRUE;
}

/* The next event of the value being read. Objects are skipped whole. */
static gboolean ev_next(NsScheduleReader *r, Ev *ev)
{
  if (r->replay != NULL)
    return tape_next(r->replay, ev);
  NsTok *t = &r->tok;
  if (!ns_tok_next(t))
    return FALSE;
  ev->s = NULL;
  switch (t->type) {
  case NS_TOK_BEGIN_ARRAY: ev->kind = EV_ARRAY; break;
  case NS_TOK_END_ARRAY: ev->kind = EV_END; break;
  case NS_TOK_BEGIN_OBJECT:
    ev->kind = EV_OBJECT;
    return ns_tok_skip_container(t);
  case NS_TOK_INT: ev->kind = EV_INT; ev->v = t->ival; break;
  case NS_TOK_FLOAT: ev->kind = EV_FLOAT; break;
  case NS_TOK_TRUE:
  case NS_TOK_FALSE: ev->kind = EV_BOOL; break;
  case NS_TOK_NULL: ev->kind = EV_NULL; break;
  case NS_TOK_STRING:
    ev->kind = EV_STRING;
    ev->s = t->capture ? t->str->str : NULL;
    break;
  default:
    g_assert_not_reached();
  }
  return TRUE;
}

/* Skips the rest of the array whose EV_ARRAY was just read. */
static gboolean ev_skip(NsScheduleReader *r)
{
  if (r->replay == NULL)
    return ns_tok_skip_container(&r->tok);
  int depth = 1;
  Ev ev = { .kind = EV_NULL };
  while (depth > 0) {
    tape_next(r->replay, &ev);
    depth += ev.kind == EV_ARRAY ? 1 : ev.kind == EV_END ? -1 : 0;
  }
  return TRUE;
}

/* The whole value whose first token comes next, onto a tape. */
static gboolean tape_value(NsScheduleReader *r, Tape *tape, gboolean keep_strings)
{
  NsTok *t = &r->tok;
  int depth = 0;
  gboolean capture = t->capture;
  t->capture = keep_strings;
  do {
    Ev ev = { .kind = EV_NULL };
    if (!ev_next(r, &ev)) {
      t->capture = capture;
      return FALSE;
    }
    tape_put(tape, ev.kind, ev.v, ev.s, ev.s != NULL ? t->str->len : 0);
    depth += ev.kind == EV_ARRAY ? 1 : ev.kind == EV_END ? -1 : 0;
  } while (depth > 0);
  t->capture = capture;
  return TRUE;
}

/* ---- the header ---------------------------------------------------------------- */

/* A scalar value into a slot (arrays and objects: their kind only). */
static gboolean read_scalar(NsScheduleReader *r, Slot *s)
{
  Ev ev = { .kind = EV_NULL };
  if (!ev_next(r, &ev))
    return FALSE;
  s->seen = TRUE;
  s->kind = ev.kind;
  s->v = ev.v;
  g_free(s->s);
  s->s = ev.kind == EV_STRING ? g_strdup(ev.s) : NULL;
  return ev.kind != EV_ARRAY || ev_skip(r);
}

static gboolean read_machines(NsScheduleReader *r)
{
  MachinesSlot *m = &r->machines;
  Ev ev = { .kind = EV_NULL };
  if (!ev_next(r, &ev))
    return FALSE;
  m->seen = TRUE;
  m->kind = ev.kind;
  if (ev.kind != EV_ARRAY)
    return TRUE;
  /* m->bad == m->count while every element so far is a string */
  for (;;) {
    if (!ev_next(r, &ev))
      return FALSE;
    if (ev.kind == EV_END)
      return TRUE;
    gboolean all_strings = m->bad == m->count;
    if (all_strings && ev.kind == EV_STRING)
      g_ptr_array_add(m->names, g_strdup(ev.s));
    else if (all_strings)
      m->bad_kind = ev.kind;
    if (ev.kind == EV_ARRAY && !ev_skip(r))
      return FALSE;
    m->count++;
    if (all_strings && ev.kind == EV_STRING)
      m->bad = m->count;
  }
}

static gboolean slot_string(NsScheduleReader *r, Key k, const char *what, const char **out)
{
  Slot *s = &r->slot[k];
  Path p = { .n = 0 };
  if (!s->seen)
    return schema_fail(r, RANK(k), &p, "missing required key \"%s\"", key_names[k]);
  path_key(&p, key_names[k]);
  if (s->kind != EV_STRING)
    return schema_fail(r, RANK(k), &p, "expected %s (a string), got %s", what, describe(s->kind));
  *out = s->s;
  return TRUE;
}

static gboolean slot_integer(NsScheduleReader *r, Key k, const char *what, gint64 *out)
{
  Slot *s = &r->slot[k];
  Path p = { .n = 0 };
  if (!s->seen)
    return schema_fail(r, RANK(k), &p, "missing required key \"%s\"", key_names[k]);
  path_key(&p, key_names[k]);
  if (s->kind != EV_INT)
    return schema_fail(r, RANK(k), &p, "expected %s (an integer), got %s", what,
                       describe(s->kind));
  *out = s->v;
  return TRUE;
}

/* A positive integer <= max. */
static gboolean slot_positive(NsScheduleReader *r, Key k, const char *what, gint64 max,
                              gint64 *v)
{
  if (!slot_integer(r, k, what, v))
    return FALSE;
  Path p = { .n = 0 };
  path_key(&p, key_names[k]);
  if (*v <= 0)
    return schema_fail(r, RANK(k), &p, "%s must be positive, got %" G_GINT64_FORMAT, what, *v);
  if (*v > max)
    return schema_fail(r, RANK(k), &p,
                       "%s %" G_GINT64_FORMAT " is too large (at most %" G_GINT64_FORMAT ")",
                       what, *v, max);
  return TRUE;
}

/* Is the collective slot "bcast"? (Only meaningful once it is known.) */
static gboolean slot_is(const Slot *s, const char *value)
{
  return s->seen && s->kind == EV_STRING && strcmp(s->s, value) == 0;
}

/* ---- reductions and size patterns (issue #22) ----------------------------------- */

/* Sizes kept from "chunk_bytes": an alltoallv's on 65,536 machines. */
#define NS_SIZES_MAX_KEPT ((guint64)NS_A2A_MAX_MACHINES * NS_A2A_MAX_MACHINES)

/* Does the collective have a root (bcast, reduce)? Segments (those and allreduce)? */
static gboolean collective_has_root(NsCollective c)
{
  return c == NS_COLL_BCAST || c == NS_COLL_REDUCE;
}

static gboolean collective_has_segments(NsCollective c)
{
  return c == NS_COLL_BCAST || ns_collective_is_reduction(c);
}

/* The value of "chunk_bytes": its elements up to the first that is not a
 * size (an integer 0..NS_MAX_MSIZE), counted after it; checked against
 * the header by check_sizes. Memory: 8 bytes an element, each at least two
 * bytes of (bounded) input. */
static gboolean read_sizes(NsScheduleReader *r)
{
  SizesSlot *z = &r->sizes;
  Ev ev = { .kind = EV_NULL };
  if (!ev_next(r, &ev))
    return FALSE;
  z->seen = TRUE;
  z->kind = ev.kind;
  if (ev.kind != EV_ARRAY)
    return TRUE;
  if (z->sizes == NULL)
    z->sizes = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  for (;;) {
    if (!ev_next(r, &ev))
      return FALSE;
    if (ev.kind == EV_END)
      return TRUE;
    if (z->bad == z->count) { /* every element so far is a size */
      if (ev.kind == EV_INT && ev.v >= 0 && ev.v <= (gint64)NS_MAX_MSIZE) {
        uint64_t size = (uint64_t)ev.v;
        if (z->count < NS_SIZES_MAX_KEPT)
          g_array_append_val(z->sizes, size);
        z->bad++;
      } else {
        z->bad_kind = ev.kind;
        z->bad_value = ev.v;
      }
    }
    if (ev.kind == EV_ARRAY && !ev_skip(r))
      return FALSE;
    z->count++;
  }
}

/* "chunk_bytes" against the header: required for alltoallv and allgatherv,
 * optional for the reductions, forbidden elsewhere; one size per chunk
 * (p², p, segments); msize_bytes their largest (at least 1), as
 * ns_schedule_set_chunk_bytes makes it. Gives the header its sizes. */
static gboolean check_sizes(NsScheduleReader *r, NsSchedule *h)
{
  SizesSlot *z = &r->sizes;
  NsCollective c = h->collective;
  Path p = { .n = 0 };
  int rank = RANK(K_CHUNK_BYTES);
  gboolean sized = ns_collective_is_vector(c) || ns_collective_is_reduction(c);
  if (!z->seen) {
    if (ns_collective_is_vector(c))
      return schema_fail(r, rank, &p, "missing required key \"chunk_bytes\"");
    return TRUE;
  }
  path_key(&p, "chunk_bytes");
  if (!sized)
    return schema_fail(r, rank, &p, "only reduce, allreduce, alltoallv and allgatherv schedules "
                       "have \"chunk_bytes\" (this is %s)", ns_collective_name(c));
  if (z->kind != EV_ARRAY)
    return schema_fail(r, rank, &p, "expected an array of chunk sizes in bytes, got %s",
                       describe(z->kind));
  uint64_t n = (uint64_t)h->n_machines;
  uint64_t want = c == NS_COLL_ALLTOALLV ? n * n : c == NS_COLL_ALLGATHERV ? n : h->n_segments;
  if (z->bad < z->count) {
    path_index(&p, z->bad);
    if (z->bad_kind != EV_INT)
      return schema_fail(r, rank, &p, "expected a chunk size in bytes (an integer), got %s",
                         describe(z->bad_kind));
    return schema_fail(r, rank, &p, "chunk size %" G_GINT64_FORMAT " out of range (0 to %"
                       G_GUINT64_FORMAT " bytes)", z->bad_value, (guint64)NS_MAX_MSIZE);
  }
  if (z->count != want)
    return schema_fail(r, rank, &p, "%s on %d machine%s takes %" G_GUINT64_FORMAT
                       " chunk size%s (%s), got %" G_GUINT64_FORMAT, ns_collective_name(c),
                       h->n_machines, h->n_machines == 1 ? "" : "s", want, want == 1 ? "" : "s",
                       c == NS_COLL_ALLTOALLV    ? "one per ordered pair of machines"
                       : c == NS_COLL_ALLGATHERV ? "one per machine"
                                                 : "one per segment",
                       z->count);
  uint64_t msize = h->msize;
  if (!ns_schedule_set_chunk_bytes(h, (const uint64_t *)(void *)z->sizes->data, z->count, NULL))
    return schema_fail(r, rank, &p, "chunk sizes do not fit %s", ns_collective_name(c));
  if (h->msize != msize) {
    p.n = 0;
    path_key(&p, "msize_bytes");
    return schema_fail(r, rank, &p, "%" G_GUINT64_FORMAT " is not the largest chunk size (%"
                       G_GUINT64_FORMAT "; at least 1): a schedule with \"chunk_bytes\" gives "
                       "it as msize_bytes", msize, h->msize);
  }
  return TRUE;
}

/* Everything the header checks need has been read. */
static gboolean header_complete(const NsScheduleReader *r)
{
  for (Key k = K_FORMAT; k <= K_EXECUTION; k++)
    if (k != K_MACHINES && !r->slot[k].seen)
      return FALSE;
  if (!r->machines.seen)
    return FALSE;
  NsCollective c;
  if (r->slot[K_COLLECTIVE].kind == EV_STRING &&
      ns_collective_from_name(r->slot[K_COLLECTIVE].s, &c) &&
      ((collective_has_root(c) && !r->slot[K_ROOT].seen) ||
       (collective_has_segments(c) && !r->slot[K_SEGMENTS].seen) ||
       (ns_collective_is_vector(c) && !r->sizes.seen)))
    return FALSE;
  return TRUE;
}

/* ---- limits -------------------------------------------------------------------- */

/**
 * \function ns_schedule_max_moves
 * \brief The most chunk moves (and transfers, and sync edges) a schedule can need.
 *
 * \param collective The collective.
 * \param machines P.
 * \param segments S (bcast).
 * \return P(P−1)² for an all-to-all(v), P(P−1) for an all-gather(v), S(P−1) for a bcast,
 *        2·S·P(P−1) for a reduce or allreduce (partial results and raw contributions);
 *        saturates at G_MAXUINT64.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md and docs/security.md, "Limits".
 */
uint64_t ns_schedule_max_moves(NsCollective collective, uint64_t machines, uint64_t segments)
{
  uint64_t p = MIN(machines, (uint64_t)G_MAXUINT32), others = p > 0 ? p - 1 : 0;
  NsCollective kind = ns_collective_chunk_kind(collective);
  uint64_t items = kind == NS_COLL_ALLTOALL  ? p * others   /* messages */
                   : kind == NS_COLL_ALLGATHER ? p          /* blocks */
                                               : MIN(segments, (uint64_t)G_MAXUINT32);
  /* a reduction's segment may go from every machine to every other once,
   * as a partial result and as a raw contribution (schedule.h) */
  if (ns_collective_is_reduction(collective))
    items = items > G_MAXUINT64 / MAX(2 * p, 1) ? G_MAXUINT64 : items * 2 * p;
  /* each to every machine but its origin, once: P(P-1)^2 < 2^48 for 65,536 machines */
  return others > 0 && items > G_MAXUINT64 / others ? G_MAXUINT64 : items * others;
}

/**
 * \function ns_schedule_max_input
 * \brief The decompressed bytes such a schedule can need (saturating).
 *
 * \param collective The collective.
 * \param machines P.
 * \param segments S (bcast).
 * \return NS_SCHEDULE_INPUT_BASE plus NS_SCHEDULE_INPUT_PER_MOVE bytes a move and a machine.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md and docs/security.md, "Limits".
 */
uint64_t ns_schedule_max_input(NsCollective collective, uint64_t machines, uint64_t segments)
{
  uint64_t moves = ns_schedule_max_moves(collective, machines, segments);
  uint64_t per = NS_SCHEDULE_INPUT_PER_MOVE, base = NS_SCHEDULE_INPUT_BASE;
  if (moves > (G_MAXUINT64 - base) / per - MIN(machines, (uint64_t)G_MAXUINT32))
    return G_MAXUINT64;
  return base + per * (moves + machines);
}

/* The machines a limit counts: the header's, at most the caller's cap. */
static guint64 limit_machines(const NsScheduleReader *r, guint64 header_machines)
{
  return r->limits.max_machines > 0 ? MIN(header_machines, (guint64)r->limits.max_machines)
                                    : header_machines;
}

/* Before the header is known: what the largest collective (all-to-all)
 * can need on the caller's machines (the header is read under it). */
static void apply_early_limits(NsScheduleReader *r)
{
  guint64 bytes = r->limits.max_input;
  if (r->limits.need)
    bytes = r->limits.max_machines > 0
                ? ns_schedule_max_input(NS_COLL_ALLTOALL, r->limits.max_machines, 0)
                : 0;
  ns_byte_source_set_limit(r->tok.in, bytes);
  r->max_moves = G_MAXUINT64;
}

/* Once the header is checked: what its collective can need. */
static void apply_limits(NsScheduleReader *r)
{
  if (r->header == NULL || !r->limits.need)
    return;
  guint64 p = limit_machines(r, (guint64)r->header->n_machines);
  r->max_moves = ns_schedule_max_moves(r->header->collective, p, r->header->n_segments);
  ns_byte_source_set_limit(r->tok.in, ns_schedule_max_input(r->header->collective, p,
                                                            r->header->n_segments));
  r->limit_machines = p;
}

/* Why a count is too large (static text, for messages). */
static const char *limit_reason(NsScheduleReader *r)
{
  g_free(r->limit_text);
  r->limit_text = g_strdup_printf("a schedule of %s on %" G_GUINT64_FORMAT " machines holds no "
                                  "more unless it delivers something twice",
                                  ns_collective_name(r->header->collective), r->limit_machines);
  return r->limit_text;
}

/* Fails for good when `count` (transfers, chunks or sync edges so far)
 * passes what the header's collective can need: a schedule that large
 * delivers something twice, and holding it is what a bomb wants. */
static gboolean within_moves(NsScheduleReader *r, guint64 count, const char *what)
{
  if (count <= r->max_moves)
    return TRUE;
  if (r->tok.error == NULL)
    ns_set_error_at(&r->tok.error, NS_ERROR_INPUT, r->tok.source, 0,
                    "more than %" G_GUINT64_FORMAT " %s: %s", r->max_moves, what,
                    limit_reason(r));
  return FALSE;
}

/* The optional "relays" key (read with the header, so that a consumer
 * knows before the first phase): the one value "store-and-forward", on an
 * all-to-all only. Is it declared? */
static gboolean check_relays(NsScheduleReader *r, NsCollective collective)
{
  Slot *s = &r->slot[K_RELAYS];
  if (!s->seen)
    return FALSE;
  Path p = { .n = 0 };
  path_key(&p, "relays");
  if (s->kind != EV_STRING)
    return schema_fail(r, RANK(K_RELAYS), &p, "expected \"%s\" (a string), got %s",
                       NS_RELAYS_STORE_FORWARD, describe(s->kind));
  if (strcmp(s->s, NS_RELAYS_STORE_FORWARD) != 0)
    return schema_fail(r, RANK(K_RELAYS), &p, "unknown relays \"%s\" (expected \"%s\")", s->s,
                       NS_RELAYS_STORE_FORWARD);
  if (collective != NS_COLL_ALLTOALL)
    return schema_fail(r, RANK(K_RELAYS), &p, "only alltoall schedules have \"relays\" (this "
                       "is %s)", ns_collective_name(collective));
  return TRUE;
}

/* The header checks, in the tree reader's order; builds r->header. */
static void check_header(NsScheduleReader *r)
{
  r->header_checked = TRUE;
  const char *str = NULL;
  gint64 v = 0;
  Path p = { .n = 0 };

  if (!slot_string(r, K_FORMAT, "the format", &str))
    return;
  r->lines = strcmp(str, NS_SCHEDULE_LINES_FORMAT) == 0;
  if (!r->lines && strcmp(str, NS_SCHEDULE_FORMAT) != 0) {
    path_key(&p, "format");
    schema_fail(r, RANK(K_FORMAT), &p, "expected \"%s\", got \"%s\"", NS_SCHEDULE_FORMAT, str);
    return;
  }
  if (!slot_integer(r, K_VERSION, "the version", &v))
    return;
  if (v != NS_SCHEDULE_VERSION) {
    path_key(&p, "version");
    schema_fail(r, RANK(K_VERSION), &p,
                "unsupported version %" G_GINT64_FORMAT " (this netsched reads version %d)", v,
                NS_SCHEDULE_VERSION);
    return;
  }
  NsCollective collective;
  if (!slot_string(r, K_COLLECTIVE, "a collective", &str))
    return;
  if (!ns_collective_from_name(str, &collective)) {
    path_key(&p, "collective");
    schema_fail(r, RANK(K_COLLECTIVE), &p,
                "unknown collective \"%s\" (expected alltoall, allgather, bcast, reduce, "
                "allreduce, alltoallv or allgatherv)", str);
    return;
  }
  const char *algorithm = NULL;
  if (!slot_string(r, K_ALGORITHM, "an algorithm name", &algorithm))
    return;
  if (*algorithm == '\0') {
    path_key(&p, "algorithm");
    schema_fail(r, RANK(K_ALGORITHM), &p, "empty algorithm name");
    return;
  }

  MachinesSlot *m = &r->machines;
  if (!m->seen) {
    schema_fail(r, RANK(K_MACHINES), &p, "missing required key \"machines\"");
    return;
  }
  path_key(&p, "machines");
  if (m->kind != EV_ARRAY) {
    schema_fail(r, RANK(K_MACHINES), &p, "expected an array of machine names, got %s",
                describe(m->kind));
    return;
  }
  if (m->count == 0) {
    schema_fail(r, RANK(K_MACHINES), &p, "no machines");
    return;
  }
  if (m->count > G_MAXINT32 ||
      (collective == NS_COLL_ALLTOALL && m->count > NS_A2A_MAX_MACHINES)) {
    schema_fail(r, RANK(K_MACHINES), &p, "too many machines (%" G_GUINT64_FORMAT
                "; %s supports at most %d)", m->count, ns_collective_name(collective),
                collective == NS_COLL_ALLTOALL ? NS_A2A_MAX_MACHINES : G_MAXINT32);
    return;
  }
  r->machine_index = g_hash_table_new(g_str_hash, g_str_equal);
  path_index(&p, 0);
  for (guint64 i = 0; i < m->count; i++) {
    p.part[p.n - 1].index = i;
    if (i == m->bad) {
      schema_fail(r, RANK(K_MACHINES), &p, "expected a machine name (a string), got %s",
                  describe(m->bad_kind));
      return;
    }
    const char *name = g_ptr_array_index(m->names, i);
    if (*name == '\0') {
      schema_fail(r, RANK(K_MACHINES), &p, "empty machine name");
      return;
    }
    gpointer first;
    if (g_hash_table_lookup_extended(r->machine_index, name, NULL, &first)) {
      schema_fail(r, RANK(K_MACHINES), &p, "duplicate machine name \"%s\" (also $.machines[%u])",
                  name, GPOINTER_TO_UINT(first) - 1);
      return;
    }
    g_hash_table_insert(r->machine_index, (gpointer)name, GUINT_TO_POINTER((guint)i + 1));
  }
  p.n = 0;

  gint64 msize = 0;
  if (!slot_positive(r, K_MSIZE, "the message size", (gint64)NS_MAX_MSIZE, &msize))
    return;
  NsExecution execution;
  if (!slot_string(r, K_EXECUTION, "an execution", &str))
    return;
  if (!ns_execution_parse(str, &execution)) {
    path_key(&p, "execution");
    schema_fail(r, RANK(K_EXECUTION), &p,
                "unknown execution \"%s\" (expected \"phased\" or \"posted\")", str);
    return;
  }
  int root = -1;
  gint64 segments = 0;
  if (collective_has_root(collective)) {
    if (!slot_string(r, K_ROOT, "the root machine", &str))
      return;
    gpointer index = g_hash_table_lookup(r->machine_index, str);
    if (index == NULL) {
      path_key(&p, "root");
      schema_fail(r, RANK(K_ROOT), &p, "root \"%s\" is not one of the machines", str);
      return;
    }
    root = (int)GPOINTER_TO_UINT(index) - 1;
  } else if (r->slot[K_ROOT].seen) {
    path_key(&p, "root");
    schema_fail(r, RANK(K_ROOT), &p, "only bcast and reduce schedules have \"root\" (this is %s)",
                ns_collective_name(collective));
    return;
  }
  if (collective_has_segments(collective)) {
    if (!slot_positive(r, K_SEGMENTS, "the number of segments", G_MAXINT32, &segments))
      return;
  } else if (r->slot[K_SEGMENTS].seen) {
    path_key(&p, "segments");
    schema_fail(r, RANK(K_SEGMENTS), &p, "only bcast, reduce and allreduce schedules have "
                "\"segments\" (this is %s)", ns_collective_name(collective));
    return;
  }
  /* JSON Lines: the numbers of sync edges and routes that follow; no phases. */
  if (r->lines) {
    if (r->phases_seen) {
      path_key(&p, "phases");
      schema_fail(r, RANK(K_PHASES), &p, "a JSON Lines header lists no phases (they follow it, "
                                         "one per line)");
      return;
    }
    for (Key k = K_SYNC; k <= K_ROUTES; k++) {
      Slot *s = &r->slot[k];
      if (!s->seen)
        continue;
      const char *what = k == K_SYNC ? "sync edges" : "routes";
      path_key(&p, key_names[k]);
      if (s->kind != EV_INT) {
        schema_fail(r, RANK(k), &p, "expected the number of %s after the phases (an integer), "
                    "got %s", what, describe(s->kind));
        return;
      }
      if (s->v < 0 || s->v >= G_MAXUINT32) {
        schema_fail(r, RANK(k), &p, "number of %s %" G_GINT64_FORMAT " out of range", what, s->v);
        return;
      }
      p.n = 0;
    }
    r->lines_sync = r->slot[K_SYNC].seen ? (guint64)r->slot[K_SYNC].v : 0;
    r->lines_routes = r->slot[K_ROUTES].seen ? (guint64)r->slot[K_ROUTES].v : 0;
  }

  r->header = ns_schedule_new(collective, algorithm, (int)m->count,
                              (const char *const *)m->names->pdata, (uint64_t)msize);
  r->header->execution = execution;
  r->header->root = root;
  r->header->n_segments = (uint32_t)segments;
  if (!check_sizes(r, r->header))
    return;
  r->header->store_forward = check_relays(r, collective);
  /* the tokenizer's fast path reads chunks by their kind: alltoallv's as
   * alltoall's, a reduction's segments as bcast's */
  r->schema = (NsTokSchema){ .collective = ns_collective_chunk_kind(collective),
                             .n_machines = (uint32_t)m->count,
                             .n_segments = (uint32_t)segments, .direct_ok = r->lines };
  r->header_ok = r->err_rank > RANK(K_CHUNK_BYTES);
  apply_limits(r);
  if (r->lines && r->lines_sync > r->max_moves) {
    path_key(&p, "sync");
    schema_fail(r, RANK(K_SYNC), &p, "%" G_GUINT64_FORMAT " sync edges, more than %"
                G_GUINT64_FORMAT ": %s", r->lines_sync, r->max_moves, limit_reason(r));
  }
}

/* The sync scheme, last of the checks. */
static void check_scheme(NsScheduleReader *r)
{
  Slot *s = &r->slot[K_SCHEME];
  if (!s->seen)
    return;
  Path p = { .n = 0 };
  path_key(&p, "sync_scheme");
  NsSyncScheme scheme;
  if (s->kind != EV_STRING)
    schema_fail(r, RANK(K_SCHEME), &p, "expected a sync scheme name (a string), got %s",
                describe(s->kind));
  else if (!ns_sync_scheme_parse(s->s, &scheme, NULL))
    schema_fail(r, RANK(K_SCHEME), &p, "unknown sync scheme '%s' (known: %s)", s->s,
                ns_sync_scheme_names());
}

/* ---- phases ---------------------------------------------------------------------- */

static gboolean check_machine(NsScheduleReader *r, Path *p, EvKind kind, gint64 v, int32_t *m)
{
  int n = (int)r->schema.n_machines;
  if (kind != EV_INT)
    return schema_fail(r, RANK(K_PHASES), p, "expected a machine index (an integer), got %s",
                       describe(kind));
  if (v < 0 || v >= n)
    return schema_fail(r, RANK(K_PHASES), p,
                       "machine index %" G_GINT64_FORMAT " out of range (%d machine%s)", v, n,
                       n == 1 ? "" : "s");
  *m = (int32_t)v;
  return TRUE;
}

static gboolean check_chunk(NsScheduleReader *r, Path *p, const Elem *e, uint32_t *chunk)
{
  switch (ns_collective_chunk_kind(r->schema.collective)) {
  case NS_COLL_ALLTOALL: {
    if (e->kind != EV_ARRAY)
      return schema_fail(r, RANK(K_PHASES), p,
                         "expected an alltoall chunk [origin, destination], got %s",
                         describe(e->kind));
    if (e->len != 2)
      return schema_fail(r, RANK(K_PHASES), p,
                         "an alltoall chunk is [origin, destination], got %" G_GUINT64_FORMAT
                         " element%s", e->len, e->len == 1 ? "" : "s");
    int32_t o, d;
    path_index(p, 0);
    if (!check_machine(r, p, e->k[0], e->x[0], &o))
      return FALSE;
    p->part[p->n - 1].index = 1;
    if (!check_machine(r, p, e->k[1], e->x[1], &d))
      return FALSE;
    p->n--;
    if (o == d)
      return schema_fail(r, RANK(K_PHASES), p,
                         "chunk origin and destination are the same machine (%d)", o);
    *chunk = ns_a2a_chunk((int)r->schema.n_machines, o, d);
    return TRUE;
  }
  case NS_COLL_ALLGATHER: {
    int32_t o;
    if (!check_machine(r, p, e->kind, e->v, &o))
      return FALSE;
    *chunk = (uint32_t)o;
    return TRUE;
  }
  case NS_COLL_BCAST: {
    uint32_t segments = r->schema.n_segments;
    if (e->kind != EV_INT)
      return schema_fail(r, RANK(K_PHASES), p, "expected a segment index (an integer), got %s",
                         describe(e->kind));
    if (e->v < 0 || e->v >= segments)
      return schema_fail(r, RANK(K_PHASES), p, "segment %" G_GINT64_FORMAT
                         " out of range (%u segment%s)", e->v, segments,
                         segments == 1 ? "" : "s");
    *chunk = (uint32_t)e->v;
    return TRUE;
  }
  default: /* ns_collective_chunk_kind gives one of the three above */
    break;
  }
  return FALSE;
}

/* Transfer markers (docs/schedule-format.md, "Reductions"), as
 * read_transfer codes a string element. */
enum { MARK_NONE = 0, MARK_COMBINE = 1, MARK_RAW = 2 };

/* A reduction's transfer may start with the combine marker "+" or the raw
 * marker "r": MARK_COMBINE or MARK_RAW when it does, MARK_NONE when it
 * does not, -1 (an error recorded at `p`) for a marker elsewhere or
 * another string. */
static int check_mark(NsScheduleReader *r, Path *p, const Elem *e, guint len)
{
  gboolean reduction = ns_collective_is_reduction(r->header->collective);
  if (len == 0 || e[0].kind != EV_STRING || (e[0].v == MARK_NONE && !reduction))
    return MARK_NONE; /* not a marker: check_machine says what a transfer starts with */
  path_index(p, 0);
  if (e[0].v == MARK_NONE)
    schema_fail(r, RANK(K_PHASES), p, "expected a machine index, the combine marker \"%s\" or "
                "the raw marker \"%s\", got another string", NS_SCHEDULE_COMBINE_MARK,
                NS_SCHEDULE_RAW_MARK);
  else if (!reduction)
    schema_fail(r, RANK(K_PHASES), p, "only reduce and allreduce transfers %s (this is %s)",
                e[0].v == MARK_RAW ? "carry raw contributions" : "combine",
                ns_collective_name(r->header->collective));
  else {
    p->n--;
    return (int)e[0].v;
  }
  return -1;
}

/* A raw chunk [origin, segment] of a reduction (schedule.h, "Raw
 * contributions"), as its id origin·S + segment. */
static gboolean check_raw_chunk(NsScheduleReader *r, Path *p, const Elem *e, uint32_t *chunk)
{
  uint32_t segments = r->schema.n_segments;
  if (e->kind != EV_ARRAY)
    return schema_fail(r, RANK(K_PHASES), p,
                       "expected a raw contribution [origin, segment], got %s", describe(e->kind));
  if (e->len != 2)
    return schema_fail(r, RANK(K_PHASES), p,
                       "a raw contribution is [origin, segment], got %" G_GUINT64_FORMAT
                       " element%s", e->len, e->len == 1 ? "" : "s");
  if ((uint64_t)r->schema.n_machines * segments > G_MAXUINT32)
    return schema_fail(r, RANK(K_PHASES), p, "raw contributions need fewer than 2^32 of them "
                       "(machines × segments: %" G_GUINT64_FORMAT " × %u)",
                       (uint64_t)r->schema.n_machines, segments);
  int32_t o;
  path_index(p, 0);
  if (!check_machine(r, p, e->k[0], e->x[0], &o))
    return FALSE;
  p->part[p->n - 1].index = 1;
  if (e->k[1] != EV_INT)
    return schema_fail(r, RANK(K_PHASES), p, "expected a segment index (an integer), got %s",
                       describe(e->k[1]));
  if (e->x[1] < 0 || e->x[1] >= segments)
    return schema_fail(r, RANK(K_PHASES), p, "segment %" G_GINT64_FORMAT
                       " out of range (%u segment%s)", e->x[1], segments,
                       segments == 1 ? "" : "s");
  p->n--;
  *chunk = ns_raw_chunk(segments, o, (uint32_t)e->x[1]);
  return TRUE;
}

/* Checks the transfer in r->elems (phase `phase`, element `i`) and
 * appends it to the phase. */
static gboolean check_transfer(NsScheduleReader *r, uint32_t phase, guint64 i)
{
  Path p = { .n = 0 };
  path_key(&p, "phases");
  path_index(&p, phase);
  path_index(&p, i);
  const Elem *e = (const Elem *)(void *)r->elems->data;
  guint len = r->elems->len;
  int mark = check_mark(r, &p, e, len);
  if (mark < 0)
    return FALSE;
  int combine = mark != MARK_NONE; /* the elements the marker takes */
  if (combine > 0) { /* no offset on an empty transfer's NULL element array */
    e += combine;
    len -= (guint)combine;
  }
  gboolean direct = len == 2 && r->schema.direct_ok && r->schema.collective != NS_COLL_BCAST;
  if (len < 3 && !direct)
    return schema_fail(r, RANK(K_PHASES), &p, "a transfer is [src, dst, chunk, ...] with at "
                       "least one chunk, got %u element%s", len, len == 1 ? "" : "s");
  int32_t src, dst;
  path_index(&p, (guint64)combine);
  if (!check_machine(r, &p, e[0].kind, e[0].v, &src))
    return FALSE;
  p.part[p.n - 1].index = 1 + (guint64)combine;
  if (!check_machine(r, &p, e[1].kind, e[1].v, &dst))
    return FALSE;
  p.n--;
  if (src == dst)
    return schema_fail(r, RANK(K_PHASES), &p, "transfer from machine %d (%s) to itself", src,
                       r->header->machines[src]);
  guint n_chunks = direct ? 1 : len - 2;
  if (r->pool_total + n_chunks >= G_MAXUINT32)
    return schema_fail(r, RANK(K_PHASES), &p, "too many chunks in multi-chunk transfers (at "
                       "most %u)", G_MAXUINT32 - 1);
  if (n_chunks > NS_TRANSFER_MAX_CHUNKS)
    return schema_fail(r, RANK(K_PHASES), &p, "a transfer carries at most %u chunks, got %u",
                       NS_TRANSFER_MAX_CHUNKS, n_chunks);
  NsTransfer tr = { .src = src, .dst = dst, .n_chunks = n_chunks,
                    .combine = mark == MARK_COMBINE, .raw = mark == MARK_RAW,
                    .chunk = r->pool->len };
  if (direct) {
    tr.chunk = r->schema.collective == NS_COLL_ALLTOALL
                   ? ns_a2a_chunk((int)r->schema.n_machines, src, dst)
                   : (uint32_t)src;
  } else {
    guint pool_mark = r->pool->len;
    path_index(&p, 0);
    for (guint k = 0; k < n_chunks; k++) {
      uint32_t chunk;
      p.part[p.n - 1].index = k + 2 + (guint64)combine;
      if (!(mark == MARK_RAW ? check_raw_chunk : check_chunk)(r, &p, &e[k + 2], &chunk)) {
        g_array_set_size(r->pool, pool_mark);
        return FALSE;
      }
      if (n_chunks == 1)
        tr.chunk = chunk;
      else
        g_array_append_val(r->pool, chunk);
    }
    if (n_chunks > 1)
      r->pool_total += n_chunks;
  }
  g_array_append_val(r->transfers, tr);
  return TRUE;
}

/* The items of an array (after its EV_ARRAY): their number and the first
 * two, nested arrays skipped. */
static gboolean read_items(NsScheduleReader *r, guint64 *len, EvKind k[2], gint64 x[2])
{
  *len = 0;
  for (;;) {
    Ev ev = { .kind = EV_NULL };
    if (!ev_next(r, &ev))
      return FALSE;
    if (ev.kind == EV_END)
      return TRUE;
    if (*len < 2) {
      k[*len] = ev.kind;
      x[*len] = ev.v;
    }
    (*len)++;
    if (ev.kind == EV_ARRAY && !ev_skip(r))
      return FALSE;
  }
}

/* The elements of a transfer array (after its EV_ARRAY) into r->elems. */
static gboolean read_transfer(NsScheduleReader *r)
{
  g_array_set_size(r->elems, 0);
  for (;;) {
    Ev ev = { .kind = EV_NULL };
    if (!ev_next(r, &ev))
      return FALSE;
    if (ev.kind == EV_END)
      return TRUE;
    Elem e = { .kind = ev.kind, .v = ev.v };
    if (ev.kind == EV_STRING) /* the markers "+" and "r" */
      e.v = ev.s == NULL                                    ? MARK_NONE
            : strcmp(ev.s, NS_SCHEDULE_COMBINE_MARK) == 0 ? MARK_COMBINE
            : strcmp(ev.s, NS_SCHEDULE_RAW_MARK) == 0     ? MARK_RAW
                                                          : MARK_NONE;
    if (ev.kind == EV_ARRAY && !read_items(r, &e.len, e.k, e.x))
      return FALSE;
    g_array_append_val(r->elems, e);
  }
}

/* A transfer error: the first is kept; from now on the phases are only counted. */
static void break_phases(NsScheduleReader *r)
{
  r->broken = TRUE;
  /* JSON: later phases may still hold an error that takes precedence */
  if (!r->lines && r->transfer_err == NULL && r->err != NULL && r->err_rank == RANK(K_PHASES)) {
    r->transfer_err = r->err;
    r->err = NULL;
    r->err_rank = RANK_NONE;
  }
}

/* One element of the phases array, whose first event `ev` was read.
 * Returns 1 when it is a phase to deliver, 0 when not, -1 on a syntax
 * error. */
static int phase_element(NsScheduleReader *r, const Ev *ev)
{
  uint32_t index = r->n_phases;
  if (r->n_phases == G_MAXUINT32 - 1) {
    Path p = { .n = 0 };
    path_key(&p, "phases");
    /* a rank below the transfers': counted like their number */
    if (!r->broken)
      schema_fail(r, RANK(K_PHASES), &p, "too many phases (at most %u)", G_MAXUINT32 - 2);
    break_phases(r);
  } else {
    r->n_phases++;
  }
  if (ev->kind != EV_ARRAY) {
    if (!r->shape_bad) {
      r->shape_bad = TRUE;
      r->shape_index = index;
      r->shape_kind = ev->kind;
    }
    r->broken = TRUE;
    return 0;
  }
  ns_array_truncate(r->transfers, r->batch_base);
  ns_array_truncate(r->pool, r->pool_base);
  guint64 i = 0;
  for (;;) {
    if (!r->broken && r->replay == NULL && !r->general_only) {
      guint64 room = G_MAXUINT32 - 1 - MIN(r->total, (guint64)G_MAXUINT32 - 1);
      guint64 left = r->max_moves - MIN(r->total, r->max_moves); /* one more fails */
      room = MIN(room, left < G_MAXUINT64 ? left + 1 : left);
      gboolean closed;
      guint64 got = ns_tok_fast_transfers(&r->tok, &r->schema, r->transfers, &r->transfers_reserved,
                                          r->pool, &r->pool_total, room, &closed);
      r->total += got;
      i += got;
      if (r->tok.error != NULL || !within_moves(r, r->total, "transfers") ||
          !within_moves(r, r->pool_total, "chunks in multi-chunk transfers"))
        return -1;
      if (closed)
        break;
    }
    Ev e = { .kind = EV_NULL };
    if (!ev_next(r, &e))
      return -1;
    if (e.kind == EV_END)
      break;
    r->total++;
    if (!within_moves(r, r->total, "transfers"))
      return -1;
    if (r->broken || r->total >= G_MAXUINT32) {
      r->broken = TRUE;
      if (e.kind == EV_ARRAY && !ev_skip(r))
        return -1;
      i++;
      continue;
    }
    if (e.kind != EV_ARRAY) {
      Path p = { .n = 0 };
      path_key(&p, "phases");
      path_index(&p, index);
      path_index(&p, i);
      schema_fail(r, RANK(K_PHASES), &p, "expected a transfer [src, dst, chunk, ...], got %s",
                  describe(e.kind));
      break_phases(r);
    } else {
      if (!read_transfer(r) || !within_moves(r, r->pool_total, "chunks in multi-chunk transfers"))
        return -1;
      if (!check_transfer(r, index, i))
        break_phases(r);
    }
    i++;
  }
  if (r->header->execution == NS_EXEC_POSTED && r->n_phases > 1)
    r->broken = TRUE;
  return r->broken ? 0 : 1;
}

/* The end of the phases: their errors in the tree reader's precedence. */
static void end_phases(NsScheduleReader *r)
{
  Path p = { .n = 0 };
  path_key(&p, "phases");
  r->phases_done = TRUE;
  if (r->header->execution == NS_EXEC_POSTED && r->n_phases != 1)
    schema_fail(r, RANK(K_PHASES), &p, "posted execution needs exactly 1 phase, got %u",
                r->n_phases);
  else if (r->shape_bad) {
    path_index(&p, r->shape_index);
    schema_fail(r, RANK(K_PHASES), &p, "expected a phase (an array of transfers), got %s",
                describe(r->shape_kind));
  } else if (r->total >= G_MAXUINT32)
    schema_fail(r, RANK(K_PHASES), &p, "too many transfers (%" G_GUINT64_FORMAT "; at most %u)",
                r->total, G_MAXUINT32 - 1);
  else if (r->transfer_err != NULL && RANK(K_PHASES) < r->err_rank) {
    g_clear_error(&r->err);
    r->err = g_steal_pointer(&r->transfer_err);
    r->err_rank = RANK(K_PHASES);
  }
  g_clear_error(&r->transfer_err);
  r->phases_ok = r->err_rank > RANK(K_PHASES);
}

/* The first event of the phases value: an array starts them. */
static gboolean begin_phases(NsScheduleReader *r, const Ev *ev)
{
  r->phases_live = TRUE;
  if (ev->kind != EV_ARRAY) {
    Path p = { .n = 0 };
    path_key(&p, "phases");
    schema_fail(r, RANK(K_PHASES), &p, "expected an array of phases, got %s", describe(ev->kind));
    r->phases_done = TRUE;
    r->phases_ok = FALSE;
    return FALSE;
  }
  return TRUE;
}

/* ---- sync edges and routes --------------------------------------------------------- */

/* The sync value whose first event `ev` was read; edges are numbered from
 * `first` (JSON Lines: the edges of earlier lines). */
static gboolean read_sync(NsScheduleReader *r, const Ev *ev, guint64 first)
{
  Path p = { .n = 0 };
  path_key(&p, "sync");
  int rank = RANK(K_SYNC);
  if (ev->kind != EV_ARRAY) {
    schema_fail(r, rank, &p, "expected an array of sync edges, got %s", describe(ev->kind));
    return TRUE;
  }
  guint64 n_transfers = r->total;
  gboolean broken = FALSE;
  path_index(&p, 0);
  for (guint64 i = first;; i++) {
    Ev e = { .kind = EV_NULL };
    if (!ev_next(r, &e))
      return FALSE;
    if (e.kind == EV_END)
      return TRUE;
    if (broken) {
      if (e.kind == EV_ARRAY && !ev_skip(r))
        return FALSE;
      continue;
    }
    p.part[p.n - 1].index = i;
    if (e.kind != EV_ARRAY) {
      broken = !schema_fail(r, rank, &p, "expected a sync edge [from, to], got %s",
                            describe(e.kind));
      continue;
    }
    guint64 len;
    EvKind k[2];
    gint64 x[2];
    if (!read_items(r, &len, k, x))
      return FALSE;
    if (len != 2) {
      broken = !schema_fail(r, rank, &p, "a sync edge is [from, to], got %" G_GUINT64_FORMAT
                            " element%s", len, len == 1 ? "" : "s");
      continue;
    }
    path_index(&p, 0);
    for (int j = 0; j < 2 && !broken; j++) {
      p.part[p.n - 1].index = (guint64)j;
      if (k[j] != EV_INT)
        broken = !schema_fail(r, rank, &p, "expected a transfer index (an integer), got %s",
                              describe(k[j]));
      else if (x[j] < 0 || (guint64)x[j] >= n_transfers)
        broken = !schema_fail(r, rank, &p, "transfer index %" G_GINT64_FORMAT " out of range (%"
                              G_GUINT64_FORMAT " transfer%s)", x[j], n_transfers,
                              n_transfers == 1 ? "" : "s");
    }
    p.n--;
    if (broken)
      continue;
    if (x[0] == x[1]) {
      broken = !schema_fail(r, rank, &p, "transfer %" G_GINT64_FORMAT " cannot wait for itself",
                            x[0]);
      continue;
    }
    NsSyncEdge edge = { (uint32_t)x[0], (uint32_t)x[1] };
    if (!within_moves(r, (guint64)r->sync->len + 1, "sync edges"))
      return FALSE;
    g_array_append_val(r->sync, edge);
  }
}

/* One route [transfer, [names]] after its EV_ARRAY; FALSE only on a syntax
 * error, *ok FALSE on a schema error. */
static gboolean read_route(NsScheduleReader *r, Path *p, gboolean *ok)
{
  int rank = RANK(K_ROUTES);
  guint64 len = 0, n_names = 0, bad = G_MAXUINT64;
  EvKind k0 = EV_NULL, k1 = EV_NULL, bad_kind = EV_NULL;
  gint64 t = 0;
  guint first_name = r->route_names->len;
  for (;;) {
    Ev ev = { .kind = EV_NULL };
    if (!ev_next(r, &ev))
      return FALSE;
    if (ev.kind == EV_END)
      break;
    if (len == 0) {
      k0 = ev.kind;
      t = ev.v;
    } else if (len == 1) {
      k1 = ev.kind;
    }
    len++;
    if (ev.kind != EV_ARRAY)
      continue;
    if (len != 2) {
      if (!ev_skip(r))
        return FALSE;
      continue;
    }
    for (;;) { /* the names */
      Ev name = { .kind = EV_NULL };
      if (!ev_next(r, &name))
        return FALSE;
      if (name.kind == EV_END)
        break;
      if (bad == G_MAXUINT64 && (name.kind != EV_STRING || name.s[0] == '\0')) {
        bad = n_names;
        bad_kind = name.kind;
      }
      if (bad == G_MAXUINT64 && n_names < 65536)
        g_ptr_array_add(r->route_names, g_strdup(name.s));
      if (name.kind == EV_ARRAY && !ev_skip(r))
        return FALSE;
      n_names++;
    }
  }
  *ok = FALSE;
  if (len != 2)
    schema_fail(r, rank, p, "a route is [transfer, [node, node, ...]]");
  else {
    path_index(p, 0);
    if (k0 != EV_INT)
      schema_fail(r, rank, p, "expected a transfer index (an integer), got %s", describe(k0));
    else if (t < 0 || (guint64)t >= r->total || t <= r->last_route)
      schema_fail(r, rank, p, t <= r->last_route && t >= 0
                                  ? "routes must be listed by increasing transfer index (%"
                                    G_GINT64_FORMAT " after %" G_GINT64_FORMAT ")"
                                  : "transfer index %" G_GINT64_FORMAT " out of range",
                  t, r->last_route);
    else {
      p->part[p->n - 1].index = 1;
      if (k1 != EV_ARRAY)
        schema_fail(r, rank, p, "expected an array of node names, got %s", describe(k1));
      else if (n_names < 2 || n_names > 65536)
        schema_fail(r, rank, p, "a route names 2 to 65536 nodes, got %" G_GUINT64_FORMAT,
                    n_names);
      else if (bad != G_MAXUINT64) {
        path_index(p, bad);
        if (bad_kind != EV_STRING)
          schema_fail(r, rank, p, "expected a node name (a string), got %s", describe(bad_kind));
        else
          schema_fail(r, rank, p, "a node name is not empty");
        p->n--;
      } else {
        NsTransferRoute route = { .transfer = (uint32_t)t, .first = first_name,
                                  .n = (uint32_t)n_names };
        g_array_append_val(r->routes, route);
        r->last_route = t;
        *ok = TRUE;
      }
    }
    p->n--;
  }
  if (!*ok)
    g_ptr_array_set_size(r->route_names, first_name);
  return TRUE;
}

static gboolean read_routes(NsScheduleReader *r, const Ev *ev, guint64 first)
{
  Path p = { .n = 0 };
  path_key(&p, "routes");
  int rank = RANK(K_ROUTES);
  if (ev->kind != EV_ARRAY) {
    schema_fail(r, rank, &p, "expected an array of routes, got %s", describe(ev->kind));
    return TRUE;
  }
  gboolean broken = FALSE;
  gboolean capture = r->tok.capture;
  r->tok.capture = TRUE;
  path_index(&p, 0);
  for (guint64 i = first;; i++) {
    Ev e = { .kind = EV_NULL };
    gboolean ok = ev_next(r, &e);
    if (!ok || e.kind == EV_END) {
      r->tok.capture = capture;
      return ok;
    }
    if (broken) {
      if (e.kind == EV_ARRAY && !ev_skip(r))
        return FALSE;
      continue;
    }
    p.part[p.n - 1].index = i;
    if (e.kind != EV_ARRAY) {
      broken = !schema_fail(r, rank, &p, "expected a route [transfer, [nodes]], got %s",
                            describe(e.kind));
      continue;
    }
    gboolean good;
    if (!read_route(r, &p, &good))
      return FALSE;
    broken = !good;
  }
}

/* ---- the document ------------------------------------------------------------------- */

static Key key_of(const char *name)
{
  for (Key k = 0; k < N_KEYS; k++)
    if (strcmp(name, key_names[k]) == 0)
      return k;
  return K_UNKNOWN;
}

/* Is the format known to be JSON Lines (TRUE), JSON (FALSE), or unknown (-1)? */
static int format_is_lines(const NsScheduleReader *r)
{
  const Slot *s = &r->slot[K_FORMAT];
  if (!s->seen)
    return -1;
  return slot_is(s, NS_SCHEDULE_LINES_FORMAT);
}

/* The phases key: live when the header is known and good, on the tape when
 * it is not known yet, skipped when it is bad. */
static gboolean top_phases(NsScheduleReader *r)
{
  r->phases_seen = TRUE;
  if (format_is_lines(r) == 1) { /* an error, which check_header reports */
    Ev ev = { .kind = EV_NULL };
    return ev_next(r, &ev) && (ev.kind != EV_ARRAY || ev_skip(r));
  }
  if (!r->header_checked && header_complete(r))
    check_header(r);
  if (!r->header_checked) /* strings kept: a reduction's "+" markers */
    return tape_value(r, &r->tape[K_PHASES], TRUE);
  if (!r->header_ok || r->err_rank < RANK(K_PHASES)) {
    Ev ev = { .kind = EV_NULL };
    return ev_next(r, &ev) && (ev.kind != EV_ARRAY || ev_skip(r));
  }
  Ev ev = { .kind = EV_NULL };
  if (!ev_next(r, &ev))
    return FALSE;
  if (begin_phases(r, &ev))
    r->state = S_PHASES;
  return TRUE;
}

/* sync or routes in the top-level object. */
static gboolean top_tail(NsScheduleReader *r, Key k)
{
  int lines = format_is_lines(r);
  if (lines == 1)
    return read_scalar(r, &r->slot[k]);
  if (k == K_SYNC)
    r->sync_seen = TRUE;
  else
    r->routes_seen = TRUE;
  if (lines == 0 && r->phases_done) {
    Ev ev = { .kind = EV_NULL };
    if (!r->phases_ok || r->err_rank < RANK(k))
      return ev_next(r, &ev) && (ev.kind != EV_ARRAY || ev_skip(r));
    if (!ev_next(r, &ev))
      return FALSE;
    return k == K_SYNC ? read_sync(r, &ev, 0) : read_routes(r, &ev, 0);
  }
  return tape_value(r, &r->tape[k], k == K_ROUTES);
}

/* One key of the top-level object and its value, or its end. */
static gboolean top_step(NsScheduleReader *r)
{
  NsTok *t = &r->tok;
  if (!ns_tok_next(t))
    return FALSE;
  if (t->type == NS_TOK_END_OBJECT) {
    r->state = S_ROOT_END;
    return TRUE;
  }
  g_assert(t->type == NS_TOK_KEY);
  if (t->key_dup_escaped) {
    Path p = { .n = 0 };
    schema_fail(r, RANK_DUP, &p,
                "duplicate key in the top-level object (written with different escapes)");
  }
  Key k = key_of(t->str->str);
  t->capture = TRUE;
  switch (k) {
  case K_MACHINES:
    return read_machines(r);
  case K_PHASES:
    return top_phases(r);
  case K_SYNC:
  case K_ROUTES:
    return top_tail(r, k);
  case K_ROOT:
  case K_SEGMENTS:
    if (r->header_ok && !(k == K_ROOT ? collective_has_root(r->header->collective)
                                      : collective_has_segments(r->header->collective))) {
      Path p = { .n = 0 };
      path_key(&p, key_names[k]);
      schema_fail(r, RANK(k), &p, "only %s schedules have \"%s\" (this is %s)",
                  k == K_ROOT ? "bcast and reduce" : "bcast, reduce and allreduce", key_names[k],
                  ns_collective_name(r->header->collective));
    }
    return read_scalar(r, &r->slot[k]);
  case K_CHUNK_BYTES:
    if (r->header_checked) { /* the phases began without it */
      Path p = { .n = 0 };
      path_key(&p, "chunk_bytes");
      schema_fail(r, RANK(K_CHUNK_BYTES), &p, "\"chunk_bytes\" must come before \"phases\"");
    }
    return read_sizes(r);
  case K_RELAYS:
    if (r->header_checked) { /* the phases began without it */
      Path p = { .n = 0 };
      path_key(&p, "relays");
      schema_fail(r, RANK(K_RELAYS), &p, "\"relays\" must come before \"phases\"");
    }
    return read_scalar(r, &r->slot[k]);
  case K_UNKNOWN: {
    /* any other key is ignored (forward compatibility within version 1) */
    t->capture = FALSE;
    Ev ev = { .kind = EV_NULL };
    gboolean ok = ev_next(r, &ev) && (ev.kind != EV_ARRAY || ev_skip(r));
    t->capture = TRUE;
    return ok;
  }
  default:
    return read_scalar(r, &r->slot[k]);
  }
}

/* The first token: the document must be an object. */
static gboolean start_document(NsScheduleReader *r)
{
  NsTok *t = &r->tok;
  if (!ns_tok_next(t))
    return FALSE;
  if (t->type == NS_TOK_BEGIN_OBJECT) {
    r->state = S_TOP;
    return TRUE;
  }
  Path p = { .n = 0 };
  EvKind kind = t->type == NS_TOK_BEGIN_ARRAY ? EV_ARRAY
                : t->type == NS_TOK_INT       ? EV_INT
                : t->type == NS_TOK_FLOAT     ? EV_FLOAT
                : t->type == NS_TOK_STRING    ? EV_STRING
                : t->type == NS_TOK_NULL      ? EV_NULL
                                              : EV_BOOL;
  schema_fail(r, RANK_ROOT, &p, "expected an object, got %s", describe(kind));
  if (kind == EV_ARRAY && !ns_tok_skip_container(t))
    return FALSE;
  r->state = S_ROOT_END;
  return TRUE;
}

/* The top-level value is complete: JSON Lines go on with their body; a
 * JSON document must end here, and what waited for the end is checked. */
static gboolean root_end(NsScheduleReader *r)
{
  if (format_is_lines(r) == 1) {
    /* the counts of sync edges and routes, if they came before the format */
    for (Key k = K_SYNC; k <= K_ROUTES; k++)
      if (r->tape[k].b != NULL) {
        Tape *tape = &r->tape[k];
        Ev ev = { .kind = EV_NULL };
        tape->pos = 0;
        tape_next(tape, &ev);
        r->slot[k] = (Slot){ .seen = TRUE, .kind = ev.kind, .v = ev.v };
      }
    if (!r->header_checked && r->err_rank > RANK_DUP)
      check_header(r);
    check_scheme(r);
    r->tok.lines = TRUE;
    r->tok.capture = TRUE;
    if (r->err != NULL) {
      fail_with(r, g_steal_pointer(&r->err));
      return TRUE;
    }
    r->tail_known = r->lines_sync > 0 || r->lines_routes > 0 ? NS_TAIL_SOME : NS_TAIL_NONE;
    r->state = S_LINES;
    return TRUE;
  }
  if (!ns_tok_next(&r->tok))
    return FALSE;
  g_assert(r->tok.type == NS_TOK_EOF);
  if (!r->header_checked && r->err_rank > RANK_DUP)
    check_header(r);
  r->state = S_TAIL;
  if (r->header_ok && r->err_rank > RANK(K_PHASES) && !r->phases_done) {
    if (r->tape[K_PHASES].b != NULL) { /* the phases came before the header: replay them */
      r->replay = &r->tape[K_PHASES];
      Ev ev = { .kind = EV_NULL };
      ev_next(r, &ev);
      if (begin_phases(r, &ev))
        r->state = S_PHASES;
      else
        r->replay = NULL;
    } else if (!r->phases_seen) {
      Path p = { .n = 0 };
      schema_fail(r, RANK(K_PHASES), &p, "missing required key \"phases\"");
    }
  }
  return TRUE;
}

/* After everything was read: what waited on a tape, the scheme, the verdict. */
static void tail_checks(NsScheduleReader *r)
{
  if (r->phases_done && r->phases_ok) {
    for (Key k = K_SYNC; k <= K_ROUTES; k++) {
      if (r->tape[k].b == NULL || r->err_rank < RANK(k))
        continue;
      r->replay = &r->tape[k];
      Ev ev = { .kind = EV_NULL };
      ev_next(r, &ev);
      if (k == K_SYNC)
        read_sync(r, &ev, 0);
      else
        read_routes(r, &ev, 0);
      r->replay = NULL;
    }
  }
  check_scheme(r);
  if (r->err != NULL)
    fail_with(r, g_steal_pointer(&r->err));
  else
    r->state = S_DONE;
}

/* ---- JSON Lines ---------------------------------------------------------------------- */

static gboolean lines_fail(NsScheduleReader *r)
{
  if (r->err == NULL)
    return TRUE;
  fail_with(r, g_steal_pointer(&r->err));
  return TRUE;
}

/* {"phases": P, "transfers": T} of the end line. */
static gboolean read_end(NsScheduleReader *r)
{
  NsTok *t = &r->tok;
  Path p = { .n = 0 };
  path_key(&p, "end");
  gint64 counts[2] = { -1, -1 };
  if (!ns_tok_next(t))
    return FALSE;
  if (t->type == NS_TOK_BEGIN_OBJECT) {
    for (;;) {
      if (!ns_tok_next(t))
        return FALSE;
      if (t->type == NS_TOK_END_OBJECT)
        break;
      int which = strcmp(t->str->str, "phases") == 0 ? 0 : strcmp(t->str->str, "transfers") == 0 ? 1 : -1;
      Ev ev = { .kind = EV_NULL };
      if (!ev_next(r, &ev) || (ev.kind == EV_ARRAY && !ev_skip(r)))
        return FALSE;
      if (which >= 0 && ev.kind == EV_INT)
        counts[which] = ev.v;
    }
  } else if (t->type == NS_TOK_BEGIN_ARRAY && !ns_tok_skip_container(t)) {
    return FALSE;
  }
  if (counts[0] < 0 || counts[1] < 0)
    return schema_fail(r, RANK(K_PHASES), &p, "expected {\"phases\": N, \"transfers\": N}") ||
           TRUE;
  if ((guint64)counts[0] != r->n_phases || (guint64)counts[1] != r->total)
    return schema_fail(r, RANK(K_PHASES), &p, "the end line counts %" G_GINT64_FORMAT
                       " phases and %" G_GINT64_FORMAT " transfers, the file has %u and %"
                       G_GUINT64_FORMAT " (a damaged file?)", counts[0], counts[1], r->n_phases,
                       r->total) || TRUE;
  if (r->sync->len != r->lines_sync || r->routes->len != r->lines_routes)
    return schema_fail(r, RANK(K_SYNC), &p, "the header announces %" G_GUINT64_FORMAT
                       " sync edges and %" G_GUINT64_FORMAT " routes, the file has %u and %u",
                       r->lines_sync, r->lines_routes, r->sync->len, r->routes->len) || TRUE;
  r->lines_end = TRUE;
  return TRUE;
}

/* A trailing object line: sync edges, routes, or the end. */
static gboolean lines_trailer(NsScheduleReader *r)
{
  NsTok *t = &r->tok;
  if (!r->lines_trailer) {
    r->lines_trailer = TRUE;
    end_phases(r);
    if (r->err != NULL)
      return lines_fail(r);
  }
  for (;;) {
    if (!ns_tok_next(t))
      return FALSE;
    if (t->type == NS_TOK_END_OBJECT)
      break;
    gboolean end = strcmp(t->str->str, "end") == 0;
    Key k = key_of(t->str->str);
    Ev ev = { .kind = EV_NULL };
    if (r->lines_end) {
      Path p = { .n = 0 };
      schema_fail(r, RANK(K_SCHEME), &p, "nothing may follow the end");
      return lines_fail(r);
    }
    if (end) {
      if (!read_end(r))
        return FALSE;
    } else if (k == K_SYNC || k == K_ROUTES) {
      if (!ev_next(r, &ev))
        return FALSE;
      if (k == K_SYNC ? !read_sync(r, &ev, r->sync->len) : !read_routes(r, &ev, r->routes->len))
        return FALSE;
    } else {
      t->capture = FALSE;
      gboolean ok = ev_next(r, &ev) && (ev.kind != EV_ARRAY || ev_skip(r));
      t->capture = TRUE;
      if (!ok)
        return FALSE;
    }
    if (r->err != NULL)
      return lines_fail(r);
  }
  if (r->lines_end) {
    if (!ns_tok_next(t))
      return FALSE;
    if (t->type != NS_TOK_EOF) {
      ns_tok_fail_here(t, "unexpected line after the end line");
      return FALSE;
    }
    r->state = S_DONE;
  }
  return TRUE;
}

/* One line of a JSON Lines body: 1 a phase to deliver, 0 otherwise, -1 error. */
static int lines_step(NsScheduleReader *r)
{
  NsTok *t = &r->tok;
  if (!ns_tok_next(t))
    return -1;
  /* a phase line's number is needed only for an error in it: counting
   * lines at each (a memchr over the line before) is left to then */
  r->err_line_due = t->type == NS_TOK_BEGIN_ARRAY;
  r->err_line = r->err_line_due ? 0 : ns_tok_line(t);
  if (t->type == NS_TOK_EOF) {
    ns_tok_fail_here(t, "unexpected end of input: the end line is missing (a truncated file?)");
    return -1;
  }
  if (t->type == NS_TOK_BEGIN_OBJECT)
    return lines_trailer(r) ? 0 : -1;
  if (t->type != NS_TOK_BEGIN_ARRAY || r->lines_trailer) {
    /* the path is made here only: zeroed at every phase line, it took a
     * 136-byte `rep stos` a line */
    Path p = { .n = 0 };
    path_key(&p, "phases");
    path_index(&p, r->n_phases);
    if (t->type != NS_TOK_BEGIN_ARRAY)
      schema_fail(r, RANK(K_PHASES), &p,
                  "expected a phase (an array of transfers) or a trailing "
                  "object, got %s",
                  t->type == NS_TOK_STRING ? "a string" : "a number or a literal");
    else
      schema_fail(r, RANK(K_PHASES), &p, "a phase after the sync edges or routes");
    lines_fail(r);
    return 0;
  }
  Ev ev = { .kind = EV_ARRAY };
  int got = phase_element(r, &ev);
  if (got < 0)
    return -1;
  if (r->err != NULL) {
    lines_fail(r);
    return 0;
  }
  return got;
}

/* ---- driving ------------------------------------------------------------------------ */

/* Reads on until a phase can be delivered (1), the document ends (0), or it
 * fails (-1). With `header_only`, stops as soon as the header is known. */
static int advance(NsScheduleReader *r, gboolean header_only)
{
  for (;;) {
    if (header_only && r->header_ok && r->state != S_START && r->state != S_TOP &&
        r->state != S_ROOT_END)
      return 0;
    if (header_only && r->header_ok && r->state == S_TOP && r->phases_live)
      return 0;
    gboolean ok = TRUE;
    switch (r->state) {
    case S_START:
      ok = start_document(r);
      break;
    case S_TOP:
      ok = top_step(r);
      break;
    case S_PHASES: {
      if (header_only)
        return 0;
      Ev ev = { .kind = EV_NULL };
      if (!ev_next(r, &ev)) {
        ok = FALSE;
        break;
      }
      if (ev.kind == EV_END) {
        end_phases(r);
        r->state = r->replay != NULL ? S_TAIL : S_TOP;
        r->replay = NULL;
        break;
      }
      int got = phase_element(r, &ev);
      if (got < 0) {
        ok = FALSE;
        break;
      }
      if (got > 0)
        return 1;
      break;
    }
    case S_ROOT_END:
      ok = root_end(r);
      break;
    case S_TAIL:
      tail_checks(r);
      break;
    case S_LINES: {
      if (header_only)
        return 0;
      int got = lines_step(r);
      if (got < 0)
        ok = FALSE;
      else if (got > 0)
        return 1;
      break;
    }
    case S_DONE:
      return 0;
    case S_FAILED:
      return -1;
    }
    if (!ok)
      fail_with(r, NULL);
  }
}

/* ---- reading ahead ------------------------------------------------------------------ */

/* Bytes of the document read before a thread reads ahead: below, a file
 * costs less than the thread (a few milliseconds at most). */
#define AHEAD_FROM (4u << 20)

/* On the thread (NsAheadFill): phases into the batch's arrays, each
 * appended where the last ended (phase_element starts a phase at
 * batch_base), until the batch is full or the phases end. */
static int ahead_fill(gpointer owner, NsAheadBatch *b)
{
  NsScheduleReader *r = owner;
  GArray *transfers = r->transfers, *pool = r->pool;
  r->transfers = b->transfers;
  r->transfers_reserved = 0; /* another array (ns_tok_fast_transfers) */
  r->pool = b->pool;
  int got;
  for (;;) {
    r->batch_base = r->transfers->len;
    r->pool_base = r->pool->len;
    got = advance(r, FALSE);
    if (got <= 0) {
      ns_array_truncate(r->transfers, r->batch_base); /* phases not delivered */
      ns_array_truncate(r->pool, r->pool_base);
      break;
    }
    NsAheadPhase ph = { .start = r->batch_base,
                        .n = r->transfers->len - r->batch_base,
                        .n_phases = r->n_phases,
                        .total = r->total,
                        .position = r->tok.base + (guint64)(r->tok.p - r->tok.buf) };
    ns_ahead_batch_add_phase(b, &ph);
    /* r->transfers and r->pool are b's; phases without transfers count too */
    if (ns_read_ahead_batch_bytes(b) >= NS_AHEAD_BATCH_BYTES)
      break;
  }
  b->transfers = r->transfers;
  b->pool = r->pool;
  r->transfers = transfers;
  r->transfers_reserved = 0;
  r->pool = pool;
  r->batch_base = r->pool_base = 0;
  return got;
}

/* Starts reading ahead when the phases are being read and the document
 * proved large. */
static void ahead_maybe_start(NsScheduleReader *r)
{
  if (r->ahead_tried || (r->state != S_PHASES && r->state != S_LINES) ||
      ns_schedule_reader_position(r) < r->ahead_from)
    return;
  r->ahead_tried = TRUE;
  r->seen = (NsAheadPhase){ .n_phases = r->n_phases,
                            .total = r->total,
                            .position = ns_schedule_reader_position(r) };
  r->ahead = ns_read_ahead_start(ahead_fill, r);
}

/* Ends reading ahead (if on): the thread is joined and the phases it read
 * that were not delivered are dropped; the reader reads on by itself from
 * where the thread stopped. */
static void ahead_end(NsScheduleReader *r)
{
  if (r->ahead != NULL)
    r->ahead_peak = MAX(r->ahead_peak, ns_read_ahead_peak_bytes(r->ahead));
  ns_read_ahead_free(r->ahead);
  r->ahead = NULL;
  r->batch = NULL;
}

/* The next phase read ahead: 1 with it, 0 when the thread's phases are
 * over (the reader, joined, reads on by itself). */
static int ahead_next(NsScheduleReader *r, NsPhase *phase)
{
  for (;;) {
    if (r->batch != NULL && r->batch_next < r->batch->n_phases) {
      NsAheadPhase ph = r->batch->phases[r->batch_next++];
      r->seen = ph;
      phase->index = ph.n_phases - 1;
      phase->n = ph.n;
      phase->first = ph.total - ph.n;
      phase->transfers = (const NsTransfer *)(void *)r->batch->transfers->data + ph.start;
      phase->chunk_pool = (const uint32_t *)(void *)r->batch->pool->data;
      return 1;
    }
    if (r->batch != NULL && r->batch->last) {
      ahead_end(r);
      return 0;
    }
    r->batch = ns_read_ahead_take(r->ahead);
    r->batch_next = 0;
  }
}

void ns_schedule_reader_set_read_ahead(NsScheduleReader *r, guint64 from)
{
  r->ahead_from = from;
}

gboolean ns_schedule_reader_reading_ahead(const NsScheduleReader *r)
{
  return r->ahead != NULL;
}

gsize ns_schedule_reader_ahead_peak(NsScheduleReader *r)
{
  return r->ahead != NULL ? MAX(r->ahead_peak, ns_read_ahead_peak_bytes(r->ahead)) : r->ahead_peak;
}

/* ---- the public face --------------------------------------------------------------- */

static NsScheduleReader *reader_new(NsByteSource *in)
{
  NsScheduleReader *r = g_new0(NsScheduleReader, 1);
  r->read_size = NS_TOK_BUFFER;
  ns_tok_init(&r->tok, in, r->read_size);
  r->err_rank = RANK_NONE;
  r->machines.names = g_ptr_array_new_with_free_func(g_free);
  r->transfers = g_array_new(FALSE, FALSE, sizeof(NsTransfer));
  r->pool = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  r->elems = g_array_new(FALSE, FALSE, sizeof(Elem));
  r->sync = g_array_new(FALSE, FALSE, sizeof(NsSyncEdge));
  r->routes = g_array_new(FALSE, FALSE, sizeof(NsTransferRoute));
  r->route_names = g_ptr_array_new_with_free_func(g_free);
  r->last_route = -1;
  r->tail_known = NS_TAIL_UNKNOWN;
  r->ahead_from = AHEAD_FROM;
  apply_early_limits(r);
  return r;
}

/**
 * \function ns_schedule_reader_set_limits
 * \brief Bounds what a file can make the reader read and hold.
 *
 * \param r The reader.
 * \param limits Input bytes, and/or what the header's collective can need, and the most machines
 *        it is counted with.
 * \errors none here; past the limits the reads fail with NS_ERROR_INPUT "FILE: the schedule is
 *        larger than the input limit of ..." or "FILE: more than N transfers: ...".
 * \complexity O(1).
 * \source docs/schedule-format.md and docs/security.md, "Limits".
 */
void ns_schedule_reader_set_limits(NsScheduleReader *r, const NsScheduleLimits *limits)
{
  /* the thread reads under the limits: it stops; what it read is delivered
   * first, then the reader reads on by itself under the new limits */
  if (r->ahead != NULL)
    ns_read_ahead_stop(r->ahead);
  r->limits = *limits;
  apply_early_limits(r);
  apply_limits(r);
}

/**
 * \function ns_schedule_reader_open
 * \brief Starts reading a schedule file (nothing is read yet).
 *
 * \param path The file; "-" reads standard input (named "<stdin>" in messages).
 * \param error Set on failure (see errors).
 * \return The reader (ns_schedule_reader_free() it), or NULL.
 * \errors NS_ERROR_IO "PATH: cannot open: why".
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
NsScheduleReader *ns_schedule_reader_open(const char *path, GError **error)
{
  NsByteSource *in = ns_byte_source_open(path, error);
  return in != NULL ? reader_new(in) : NULL;
}

/**
 * \function ns_schedule_reader_new_for_data
 * \brief Reads a schedule from memory (compressed data recognised too).
 *
 * \param source Names it in messages (NULL: "<schedule>").
 * \param text The bytes; not copied, they must outlive the reader (need not be NUL-terminated).
 * \param len Their number.
 * \return The reader.
 * \errors none here (they come with the reads).
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
NsScheduleReader *ns_schedule_reader_new_for_data(const char *source, const void *text,
                                                  gsize len)
{
  return reader_new(ns_byte_source_new_for_data(source != NULL ? source : "<schedule>", text,
                                                len));
}

/**
 * \function ns_schedule_reader_set_read_size
 * \brief Bytes asked of the file per read (default 1 MiB), before the first read.
 *
 * \param r The reader.
 * \param bytes The size (1 is allowed: tests cross every boundary).
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
void ns_schedule_reader_set_read_size(NsScheduleReader *r, gsize bytes)
{
  r->tok.chunk = CLAMP(bytes, 1, r->tok.cap);
}

void ns_schedule_reader_set_general_only(NsScheduleReader *r, gboolean general_only)
{
  r->general_only = general_only;
}

/**
 * \function ns_schedule_reader_free
 * \brief Frees a reader (and closes its file).
 *
 * \param r The reader (NULL is accepted).
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
void ns_schedule_reader_free(NsScheduleReader *r)
{
  if (r == NULL)
    return;
  ahead_end(r); /* first: the thread uses everything below */
  ns_tok_clear(&r->tok);
  for (Key k = 0; k < N_KEYS; k++) {
    g_free(r->slot[k].s);
    if (r->tape[k].b != NULL)
      g_byte_array_unref(r->tape[k].b);
  }
  g_ptr_array_unref(r->machines.names);
  if (r->sizes.sizes != NULL)
    g_array_unref(r->sizes.sizes);
  if (r->machine_index != NULL)
    g_hash_table_unref(r->machine_index);
  ns_schedule_free(r->header);
  g_array_unref(r->transfers);
  g_array_unref(r->pool);
  g_array_unref(r->elems);
  g_array_unref(r->sync);
  g_array_unref(r->routes);
  g_ptr_array_unref(r->route_names);
  g_clear_error(&r->err);
  g_clear_error(&r->failed);
  g_clear_error(&r->transfer_err);
  g_free(r->limit_text);
  g_free(r);
}

static void propagate(NsScheduleReader *r, GError **error)
{
  if (r->failed != NULL)
    g_propagate_error(error, g_error_copy(r->failed));
}

/**
 * \function ns_schedule_reader_header
 * \brief Reads until the schedule's header is complete and checked.
 *
 * \param r The reader.
 * \param error Set on failure (see errors).
 * \return A schedule with no phases, sync edges or routes, owned by the reader; NULL on error.
 * \errors NS_ERROR_INPUT (the file's first error) or NS_ERROR_IO.
 * \complexity O(header) for files netsched writes; a JSON document listing its phases before its
 *        header keys is read to its end first.
 * \source docs/schedule-format.md.
 */
const NsSchedule *ns_schedule_reader_header(NsScheduleReader *r, GError **error)
{
  if (r->ahead != NULL) /* reading phases: the header was read and checked */
    return r->header;
  if (advance(r, TRUE) < 0) {
    propagate(r, error);
    return NULL;
  }
  if (r->header == NULL || !r->header_ok) {
    /* the document ended without a usable header: its error */
    while (advance(r, FALSE) > 0)
      ;
    if (r->state != S_FAILED)
      fail_with(r, g_error_new(NS_ERROR, NS_ERROR_INPUT, "%s: no header", r->tok.source));
    propagate(r, error);
    return NULL;
  }
  /* JSON: sync edges or routes before the phases (a tape holding more
   * than "[]") are known to come */
  if (!r->lines && r->tail_known == NS_TAIL_UNKNOWN)
    for (Key k = K_SYNC; k <= K_ROUTES; k++)
      if (r->tape[k].b != NULL && r->tape[k].b->len > 2)
        r->tail_known = NS_TAIL_SOME;
  return r->header;
}

/**
 * \function ns_schedule_reader_format
 * \brief The file's format (after the header).
 *
 * \param r The reader.
 * \return NS_SCHEDULE_JSON or NS_SCHEDULE_JSONL.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
NsScheduleFormat ns_schedule_reader_format(const NsScheduleReader *r)
{
  return r->lines ? NS_SCHEDULE_JSONL : NS_SCHEDULE_JSON;
}

/**
 * \function ns_schedule_reader_compression
 * \brief The file's compression (after the header).
 *
 * \param r The reader.
 * \return NS_COMPRESS_NONE, _GZIP or _ZSTD.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
NsCompression ns_schedule_reader_compression(const NsScheduleReader *r)
{
  return ns_byte_source_compression(r->tok.in);
}

/**
 * \function ns_schedule_reader_rereadable
 * \brief Whether the file can be read again from the start.
 *
 * \param r The reader.
 * \return FALSE for standard input and files that are not regular (pipes, FIFOs);
 *        TRUE for regular files and data in memory.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
gboolean ns_schedule_reader_rereadable(const NsScheduleReader *r)
{
  return ns_byte_source_rereadable(r->tok.in);
}

/**
 * \function ns_schedule_reader_tail_known
 * \brief Whether sync edges or routes will follow the phases.
 *
 * \param r The reader.
 * \return NS_TAIL_NONE, NS_TAIL_SOME or NS_TAIL_UNKNOWN (a JSON document may list some after its
 *        phases).
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
NsTailKnown ns_schedule_reader_tail_known(const NsScheduleReader *r) { return r->tail_known; }

/**
 * \function ns_schedule_reader_n_transfers
 * \brief Transfers read so far.
 *
 * \param r The reader.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
uint64_t ns_schedule_reader_n_transfers(const NsScheduleReader *r)
{
  return r->ahead != NULL ? r->seen.total : r->total;
}

/**
 * \function ns_schedule_reader_n_phases
 * \brief Phases read so far.
 *
 * \param r The reader.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
uint32_t ns_schedule_reader_n_phases(const NsScheduleReader *r)
{
  return r->ahead != NULL ? r->seen.n_phases : r->n_phases;
}

/**
 * \function ns_schedule_reader_position
 * \brief Bytes of the (decompressed) document read so far, for progress lines.
 *
 * \param r The reader.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
uint64_t ns_schedule_reader_position(const NsScheduleReader *r)
{
  if (r->ahead != NULL)
    return r->seen.position;
  return r->tok.base + (uint64_t)(r->tok.p - r->tok.buf);
}

/**
 * \function ns_schedule_reader_next_phase
 * \brief Reads the next phase.
 *
 * \param r The reader.
 * \param phase Filled, valid until the next call.
 * \param error Set on failure (see errors).
 * \return 1 with a phase, 0 when the phases are over, -1 on error.
 * \errors NS_ERROR_INPUT "FILE:LINE:COLUMN: what" or "FILE: $.path: what", NS_ERROR_IO.
 * \complexity O(phase).
 * \source docs/schedule-format.md.
 */
int ns_schedule_reader_next_phase(NsScheduleReader *r, NsPhase *phase, GError **error)
{
  if (r->header == NULL && ns_schedule_reader_header(r, error) == NULL)
    return -1;
  if (r->ahead == NULL)
    ahead_maybe_start(r);
  if (r->ahead != NULL && ahead_next(r, phase) > 0)
    return 1;
  int got = advance(r, FALSE);
  if (got < 0) {
    propagate(r, error);
    return -1;
  }
  if (got == 0)
    return 0;
  phase->index = r->n_phases - 1;
  phase->n = r->transfers->len;
  phase->first = r->total - phase->n;
  phase->transfers = (const NsTransfer *)(void *)r->transfers->data;
  phase->chunk_pool = (const uint32_t *)(void *)r->pool->data;
  return 1;
}

/**
 * \function ns_schedule_reader_finish
 * \brief Reads to the end and returns the tail.
 *
 * \param r The reader.
 * \param error Set on failure (see errors).
 * \return The header with the sync edges, routes and sync scheme and no phases (the caller frees
 *        it), or NULL.
 * \errors the file's first error.
 * \complexity O(rest of the file).
 * \source docs/schedule-format.md.
 */
NsSchedule *ns_schedule_reader_finish(NsScheduleReader *r, GError **error)
{
  if (r->header == NULL && ns_schedule_reader_header(r, error) == NULL)
    return NULL;
  ahead_end(r); /* the phases it read are skipped: the reader reads on from the thread's stop */
  int got;
  while ((got = advance(r, FALSE)) > 0)
    ;
  if (got < 0) {
    propagate(r, error);
    return NULL;
  }
  NsSchedule *tail = ns_schedule_copy(r->header);
  if (r->slot[K_SCHEME].seen)
    tail->sync_scheme = g_strdup(r->slot[K_SCHEME].s);
  g_array_append_vals(tail->sync, r->sync->data, r->sync->len);
  tail->sync_set = r->sync_seen || r->slot[K_SYNC].seen; /* JSON "sync": [...], JSON Lines "sync": N */
  g_array_append_vals(tail->routes, r->routes->data, r->routes->len);
  for (guint i = 0; i < r->route_names->len; i++)
    g_ptr_array_add(tail->route_names, g_strdup(g_ptr_array_index(r->route_names, i)));
  return tail;
}

/**
 * \function ns_schedule_reader_read_all
 * \brief Reads the whole schedule into memory.
 *
 * \param r The reader.
 * \param error Set on failure (see errors).
 * \return The schedule (16 bytes a transfer), or NULL.
 * \errors the reader's.
 * \complexity O(file).
 * \source docs/schedule-format.md.
 */
NsSchedule *ns_schedule_reader_read_all(NsScheduleReader *r, GError **error)
{
  const NsSchedule *header = ns_schedule_reader_header(r, error);
  if (header == NULL)
    return NULL;
  NsSchedule *s = ns_schedule_copy(header);
  NsPhase ph;
  int got;
  while ((got = ns_schedule_reader_next_phase(r, &ph, error)) > 0) {
    ns_schedule_begin_phase(s);
    gboolean simple = TRUE;
    for (uint64_t t = 0; t < ph.n && simple; t++)
      simple = ph.transfers[t].n_chunks == 1;
    if (simple) {
      g_array_append_vals(s->transfers, ph.transfers, (guint)ph.n);
      continue;
    }
    for (uint64_t t = 0; t < ph.n; t++) {
      const NsTransfer *tr = &ph.transfers[t];
      ns_schedule_add_like(s, tr, tr->n_chunks == 1 ? &tr->chunk : ph.chunk_pool + tr->chunk);
    }
  }
  NsSchedule *tail = got < 0 ? NULL : ns_schedule_reader_finish(r, error);
  if (tail == NULL) {
    ns_schedule_free(s);
    return NULL;
  }
  s->sync_scheme = g_steal_pointer(&tail->sync_scheme);
  s->sync_set = tail->sync_set;
  GArray *swap = s->sync;
  s->sync = tail->sync;
  tail->sync = swap;
  swap = s->routes;
  s->routes = tail->routes;
  tail->routes = swap;
  GPtrArray *names = s->route_names;
  s->route_names = tail->route_names;
  tail->route_names = names;
  ns_schedule_free(tail);
  return s;
}

/**
 * \function ns_schedule_load
 * \brief Reads a schedule file of either format, compressed or not.
 *
 * \param path The file ("-": standard input).
 * \param error Set on failure (see errors).
 * \return The schedule, or NULL.
 * \errors the reader's, "PATH...".
 * \complexity O(file).
 * \source docs/schedule-format.md.
 */
NsSchedule *ns_schedule_load(const char *path, GError **error)
{
  return ns_schedule_load_limited(path, NULL, error);
}

/**
 * \function ns_schedule_load_limited
 * \brief ns_schedule_load() under limits, for callers that must bound what a file costs.
 *
 * \param path The file ("-": standard input).
 * \param limits The limits (NULL: none).
 * \param error Set on failure (see errors).
 * \return The schedule, or NULL.
 * \errors the reader's, and the limits' NS_ERROR_INPUT.
 * \complexity O(min(file, limits)).
 * \source docs/schedule-format.md and docs/security.md, "Limits".
 */
NsSchedule *ns_schedule_load_limited(const char *path, const NsScheduleLimits *limits,
                                     GError **error)
{
  NsScheduleReader *r = ns_schedule_reader_open(path, error);
  if (r == NULL)
    return NULL;
  if (limits != NULL)
    ns_schedule_reader_set_limits(r, limits);
  NsSchedule *s = ns_schedule_reader_read_all(r, error);
  ns_schedule_reader_free(r);
  return s;
}
