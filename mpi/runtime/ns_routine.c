/* netsched routine runtime (see ns_routine.h; the table format is
 * sched/lower/routine_format.h).
 *
 * Execution follows the simulator's replay of the same lowered program
 * (sim/replay.c) step for step, so that the routine does what the
 * prediction assumed: a machine performs its steps (one per phase it takes
 * part in) in order; in a step it posts its receives (telling each sender
 * "ready" first under the light barrier), then each send once the sync
 * messages it awaits have arrived, in posting order, then waits for them
 * all, sending a sync message to the sender of every transfer a completed
 * operation releases (sender- or receiver-based, Faraj & Yuan §5).
 * Barriers are dissemination barriers of sync-size messages, as replayed.
 *
 * Send mode (issue #23, docs/generate.md "Eager and rendezvous"): the
 * replay sends a message of fewer bytes than its eager threshold eagerly
 * (it completes at the sender when posted, as MPI's eager protocol) and a
 * larger one as a rendezvous (it completes when its data arrived). Phased
 * tables follow the threshold they carry: MPI_Isend below it, MPI_Issend
 * at or above it, so that a large send completes on arrival whatever the
 * MPI library's own eager limit, and a sender runs ahead into its next
 * phase exactly where the prediction lets it. Posted tables (one step)
 * have no later phase to protect and use MPI_Isend. The table's
 * NSR_FLAG_SYNCHRONOUS says which; a version 1 table carries no threshold
 * (0: MPI_Issend at every size, as it was made for).
 */
#ifndef NSR_EMBEDDED
#include "mpi/runtime/ns_routine.h"
#include "sched/lower/routine_format.h"
#endif
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct NsrRoutine {
  unsigned char *data;       /* the table (a copy) */
  size_t len;
  NsrCollective collective;
  int p, root;
  uint32_t segments, flags, sync_size;
  uint32_t window;           /* Tam & Wang's W; 0: none */
  uint64_t item_bytes;       /* the window's item */
  uint64_t eager_threshold;  /* phased: MPI_Isend below it, MPI_Issend at or above */
  char *algorithm, *topology, *sync, *digest;
  char **machines;           /* p names */
  uint32_t n_barriers;
  uint32_t *barrier_phase;
  size_t *section;           /* offset of machine m's section in data */
  uint32_t *n_sends;         /* per machine */
  uint64_t *n_messages;      /* per machine: sync messages it sends in one run */
};

/* ---- reading ------------------------------------------------------------ */

typedef struct {
  const unsigned char *start, *pos, *end;
  int bad;
  const char *what;          /* the first problem, with bad */
} NsrReader;

static uint64_t rd_u(NsrReader *r)
{
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (r->pos >= r->end) {
      if (!r->bad)
        r->what = "truncated";
      r->bad = 1;
      return 0;
    }
    unsigned char b = *r->pos++;
    if (shift == 63 && (b & 0x7e) != 0)
      break;
    v |= (uint64_t)(b & 0x7f) << shift;
    if ((b & 0x80) == 0)
      return v;
  }
  if (!r->bad)
    r->what = "varint out of range";
  r->bad = 1;
  return 0;
}

/* A varint that must be <= max. */
static uint64_t rd_max(NsrReader *r, uint64_t max, const char *what)
{
  uint64_t v = rd_u(r);
  if (!r->bad && v > max) {
    r->bad = 1;
    r->what = what;
    return 0;
  }
  return r->bad ? 0 : v;
}

static size_t rd_left(const NsrReader *r)
{
  return (size_t)(r->end - r->pos);
}

static char *rd_string(NsrReader *r)
{
  uint64_t n = rd_max(r, NSR_MAX_STRING, "string longer than 4096 bytes");
  if (r->bad)
    return NULL;
  if (n > rd_left(r)) {
    r->bad = 1;
    r->what = "truncated string";
    return NULL;
  }
  if (memchr(r->pos, 0, (size_t)n) != NULL) {
    r->bad = 1;
    r->what = "NUL byte in a string";
    return NULL;
  }
  char *s = malloc((size_t)n + 1);
  if (s == NULL) {
    r->bad = 1;
    r->what = "out of memory";
    return NULL;
  }
  memcpy(s, r->pos, (size_t)n);
  s[n] = '\0';
  r->pos += n;
  return s;
}

static uint64_t nsr_fnv1a(const unsigned char *data, size_t len)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

static void set_why(char *why, size_t why_len, const char *fmt, ...)
{
  if (why == NULL || why_len == 0)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, why_len, fmt, ap);
  va_end(ap);
}

/* ---- one operation of a step ---------------------------------------------
 * Decoded on the fly from the table, when checking it and when running it;
 * the locations and releases are re-read from their positions. */

typedef struct {
  int send;
  uint32_t peer;
  uint64_t payload;          /* NSR_PAYLOAD_* or 1 + number of locations */
  const unsigned char *locs; /* payload > 1: the locations */
  uint64_t needed;           /* send: sync messages to await */
  uint64_t ready;            /* light receive: the peer's send to tell */
  uint64_t n_release;
  const unsigned char *releases;
  uint32_t index;            /* send: its index among the machine's sends */
} NsrOp;

static void rd_op(NsrReader *r, const NsrRoutine *rt, int send, NsrOp *op)
{
  memset(op, 0, sizeof *op);
  op->send = send;
  op->peer = (uint32_t)rd_max(r, (uint64_t)rt->p - 1, "peer out of range");
  op->payload = rd_max(r, (uint64_t)rd_left(r) + 1, "payload longer than the table");
  op->locs = r->pos;
  for (uint64_t i = 1; i < op->payload && !r->bad; i++)
    rd_u(r);
  if (send)
    op->needed = rd_max(r, UINT32_MAX, "sync count out of range");
  else if (rt->flags & NSR_FLAG_LIGHT)
    op->ready = rd_max(r, UINT32_MAX, "ready index out of range");
  op->n_release = rd_max(r, (uint64_t)rd_left(r) / 2, "more releases than the table holds");
  op->releases = r->pos;
  for (uint64_t i = 0; i < 2 * op->n_release && !r->bad; i++)
    rd_u(r);
}

typedef struct {
  uint32_t phase, n_sends, n_recvs;
} NsrStep;

static void rd_step(NsrReader *r, NsrStep *st, uint32_t *next_phase)
{
  uint64_t gap = rd_max(r, UINT32_MAX - *next_phase, "phase out of range");
  st->phase = *next_phase + (uint32_t)gap;
  *next_phase = st->phase + 1;
  st->n_sends = (uint32_t)rd_max(r, rd_left(r) / 3, "more sends than the table holds");
  st->n_recvs = (uint32_t)rd_max(r, rd_left(r) / 3, "more receives than the table holds");
}

/* Blocks of the caller's buffers a location may name. */
static uint64_t send_blocks(const NsrRoutine *rt, uint32_t machine)
{
  switch (rt->collective) {
  case NSR_ALLTOALL: return (uint64_t)rt->p;
  case NSR_ALLGATHER: return 1;
  case NSR_BCAST: return machine == (uint32_t)rt->root ? rt->segments : 0;
  }
  return 0;
}

static uint64_t recv_blocks(const NsrRoutine *rt)
{
  return rt->collective == NSR_BCAST ? rt->segments : (uint64_t)rt->p;
}

/* Mixes a message's ends and size for the send/receive balance check. */
static uint64_t message_hash(uint32_t src, uint32_t dst, uint64_t payload)
{
  uint64_t x = ((uint64_t)src << 32 | dst) ^ (payload * 0x9e3779b97f4a7c15ull);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

/* Pass 1 over machine m's section: structure, peers, locations, counts.
 * Records the section's sends (peer, syncs awaited) into the routine-wide
 * arrays from `base`, and the sync messages the machine sends. */
static const char *check_section(NsrReader *r, NsrRoutine *rt, uint32_t m, uint64_t base,
                                 int32_t *send_peer, int64_t *need, uint64_t *balance,
                                 uint32_t *n_sends_out)
{
  uint64_t scratch = rd_max(r, rd_left(r), "more scratch slots than the table has bytes");
  uint64_t n_sends = rd_max(r, rd_left(r) / 3, "more sends than the table holds");
  uint64_t n_steps = rd_max(r, rd_left(r) / 3, "more steps than the table holds");
  if (r->bad)
    return r->what;
  *n_sends_out = (uint32_t)n_sends;
  uint32_t next_phase = 0;
  uint64_t sends_seen = 0, messages = 0;
  for (uint64_t s = 0; s < n_steps; s++) {
    NsrStep st;
    rd_step(r, &st, &next_phase);
    if (r->bad)
      return r->what;
    for (uint64_t k = 0; k < (uint64_t)st.n_sends + st.n_recvs; k++) {
      int send = k < st.n_sends;
      NsrOp op;
      rd_op(r, rt, send, &op);
      if (r->bad)
        return r->what;
      if (op.peer == m)
        return "a machine sends to itself";
      if (op.payload == NSR_PAYLOAD_DIRECT && rt->collective == NSR_BCAST)
        return "a direct block in a broadcast";
      NsrReader lr = { r->start, op.locs, r->end, 0, NULL };
      for (uint64_t i = 1; i < op.payload; i++) {
        uint64_t loc = rd_u(&lr), index = loc >> 2;
        switch (loc & 3) {
        case NSR_LOC_SEND:
          if (!send)
            return "a receive into the send buffer";
          if (index >= send_blocks(rt, m))
            return "send-buffer block out of range";
          break;
        case NSR_LOC_RECV:
          if (index >= recv_blocks(rt))
            return "receive-buffer block out of range";
          break;
        case NSR_LOC_SCRATCH:
          if (index >= scratch)
            return "scratch slot out of range";
          break;
        default:
          return "unknown block location";
        }
      }
      uint32_t src = send ? m : op.peer, dst = send ? op.peer : m;
      uint64_t h = message_hash(src, dst, op.payload);
      *balance += send ? h : -h;
      if (send) {
        if (sends_seen >= n_sends)
          return "more sends than the section declares";
        send_peer[base + sends_seen] = (int32_t)op.peer;
        need[base + sends_seen] += (int64_t)op.needed;
        sends_seen++;
      } else if (rt->flags & NSR_FLAG_LIGHT) {
        messages++;
      }
      messages += op.n_release;
    }
  }
  if (sends_seen != n_sends)
    return "fewer sends than the section declares";
  rt->n_messages[m] = messages;
  return NULL;
}

/* Pass 2 over machine m's section: every release and "ready" names a send
 * that exists (and, for "ready", comes to m); counts what each send gets. */
static const char *check_releases(NsrReader *r, const NsrRoutine *rt, uint32_t m,
                                  const uint64_t *base, const int32_t *send_peer, int64_t *need)
{
  rd_u(r);
  rd_u(r);
  uint64_t n_steps = rd_u(r);
  uint32_t next_phase = 0;
  for (uint64_t s = 0; s < n_steps; s++) {
    NsrStep st;
    rd_step(r, &st, &next_phase);
    for (uint64_t k = 0; k < (uint64_t)st.n_sends + st.n_recvs; k++) {
      NsrOp op;
      rd_op(r, rt, k < st.n_sends, &op);
      if (!op.send && (rt->flags & NSR_FLAG_LIGHT)) {
        if (op.ready >= rt->n_sends[op.peer] || send_peer[base[op.peer] + op.ready] != (int32_t)m)
          return "a \"ready\" names no send to this machine";
        need[base[op.peer] + op.ready]--;
      }
      NsrReader lr = { r->start, op.releases, r->end, 0, NULL };
      for (uint64_t i = 0; i < op.n_release; i++) {
        uint64_t q = rd_u(&lr), idx = rd_u(&lr);
        if (q >= (uint64_t)rt->p || idx >= rt->n_sends[q])
          return "a release names no send";
        need[base[q] + idx]--;
      }
    }
  }
  return r->bad ? r->what : NULL;
}

static const char *check_machines(NsrReader *r, NsrRoutine *rt)
{
  uint32_t p = (uint32_t)rt->p;
  rt->section = calloc(p, sizeof *rt->section);
  rt->n_sends = calloc(p, sizeof *rt->n_sends);
  rt->n_messages = calloc(p, sizeof *rt->n_messages);
  uint64_t *base = calloc((size_t)p + 1, sizeof *base);
  /* sends are bounded by the table's bytes (three each) */
  size_t max_sends = rd_left(r) / 3 + 1;
  int32_t *send_peer = malloc(max_sends * sizeof *send_peer);
  int64_t *need = calloc(max_sends, sizeof *need);
  const char *what = NULL;
  uint64_t balance = 0;
  if (rt->section == NULL || rt->n_sends == NULL || rt->n_messages == NULL || base == NULL ||
      send_peer == NULL || need == NULL)
    what = "out of memory";
  for (uint32_t m = 0; what == NULL && m < p; m++) {
    rt->section[m] = (size_t)(r->pos - r->start);
    if (base[m] >= max_sends)
      what = "more sends than the table holds";
    else
      what = check_section(r, rt, m, base[m], send_peer, need, &balance, &rt->n_sends[m]);
    if (what == NULL && base[m] + rt->n_sends[m] > max_sends)
      what = "more sends than the table holds";
    base[m + 1] = base[m] + rt->n_sends[m];
  }
  if (what == NULL && r->pos != r->end)
    what = "bytes after the last machine";
  if (what == NULL && balance != 0)
    what = "sends and receives do not pair up";
  for (uint32_t m = 0; what == NULL && m < p; m++) {
    NsrReader sr = { r->start, r->start + rt->section[m], r->end, 0, NULL };
    what = check_releases(&sr, rt, m, base, send_peer, need);
  }
  for (uint64_t i = 0; what == NULL && i < base[p]; i++)
    if (need[i] != 0)
      what = "a send awaits more or fewer sync messages than are sent to it";
  free(base);
  free(send_peer);
  free(need);
  return what;
}

static const char *parse(NsrRoutine *rt)
{
  NsrReader r = { rt->data, rt->data, rt->data + rt->len, 0, NULL };
  if (rt->len < NSR_MAGIC_LEN + 10 || memcmp(rt->data, NSR_MAGIC, NSR_MAGIC_LEN) != 0)
    return "not a netsched routine table (no NSRTABLE magic)";
  r.pos += NSR_MAGIC_LEN;
  uint64_t version = rd_u(&r);
  if (r.bad || version < 1 || version > NSR_VERSION)
    return "routine table version not supported (this runtime reads versions 1 and 2)";
  uint64_t body = rd_u(&r);
  if (r.bad || body + 8 != rd_left(&r))
    return "length does not match the header (truncated or extended)";
  uint64_t h = 0;
  for (int i = 0; i < 8; i++)
    h |= (uint64_t)rt->data[rt->len - 8 + i] << (8 * i);
  if (h != nsr_fnv1a(rt->data, rt->len - 8))
    return "digest mismatch (the table was altered or damaged)";
  r.end -= 8;
  uint64_t coll = rd_max(&r, NSR_BCAST, "unknown collective");
  uint64_t p = rd_max(&r, NSR_MAX_MACHINES, "more than 65536 machines");
  uint64_t root = rd_max(&r, p, "root out of range");
  uint64_t segments = rd_max(&r, UINT32_MAX, "segments out of range");
  uint64_t flags = rd_max(&r, NSR_FLAGS_ALL, "unknown flags");
  uint64_t sync_size = rd_max(&r, NSR_MAX_SYNC_SIZE, "sync message size above 65536");
  uint64_t window = rd_max(&r, UINT32_MAX, "window out of range");
  uint64_t item_bytes = rd_max(&r, INT_MAX, "window item larger than 2 GiB");
  uint64_t eager_threshold = version >= 2 ? rd_u(&r) : 0;
  if (r.bad)
    return r.what;
  if (p < 1)
    return "no machines";
  if (sync_size < NSR_MIN_SYNC_SIZE)
    return "sync message size below 4 bytes";
  if ((coll == NSR_BCAST) != (root > 0))
    return "a root for a collective other than broadcast, or none for a broadcast";
  if (coll == NSR_BCAST && segments < 1)
    return "a broadcast without segments";
  if (window != 0 && (!(flags & NSR_FLAG_POSTED) || item_bytes == 0))
    return "a window on a phased table, or without an item size";
  rt->collective = (NsrCollective)coll;
  rt->p = (int)p;
  rt->root = (int)root - 1;
  rt->segments = (uint32_t)segments;
  rt->flags = (uint32_t)flags;
  rt->sync_size = (uint32_t)sync_size;
  rt->window = (uint32_t)window;
  rt->item_bytes = item_bytes;
  rt->eager_threshold = eager_threshold;
  rt->algorithm = rd_string(&r);
  rt->topology = rd_string(&r);
  rt->sync = rd_string(&r);
  rt->digest = rd_string(&r);
  if (r.bad)
    return r.what;
  rt->machines = calloc((size_t)p, sizeof *rt->machines);
  if (rt->machines == NULL)
    return "out of memory";
  for (uint64_t m = 0; m < p && !r.bad; m++)
    rt->machines[m] = rd_string(&r);
  uint64_t nb = rd_max(&r, rd_left(&r), "more barriers than the table holds");
  if (r.bad)
    return r.what;
  rt->barrier_phase = calloc((size_t)nb + 1, sizeof *rt->barrier_phase);
  if (rt->barrier_phase == NULL)
    return "out of memory";
  rt->n_barriers = (uint32_t)nb;
  for (uint64_t b = 0; b < nb && !r.bad; b++) {
    rt->barrier_phase[b] = (uint32_t)rd_max(&r, UINT32_MAX, "barrier phase out of range");
    if (b > 0 && rt->barrier_phase[b] <= rt->barrier_phase[b - 1] && !r.bad)
      return "barrier phases not increasing";
  }
  if (r.bad)
    return r.what;
  return check_machines(&r, rt);
}

NSR_API void nsr_routine_free(NsrRoutine *r)
{
  if (r == NULL)
    return;
  if (r->machines != NULL)
    for (int m = 0; m < r->p; m++)
      free(r->machines[m]);
  free(r->machines);
  free(r->algorithm);
  free(r->topology);
  free(r->sync);
  free(r->digest);
  free(r->barrier_phase);
  free(r->section);
  free(r->n_sends);
  free(r->n_messages);
  free(r->data);
  free(r);
}

static NsrRoutine *from_data(const void *data, size_t len, const char *name, char *why,
                             size_t why_len)
{
  if (len > NSR_MAX_TABLE_BYTES) {
    set_why(why, why_len, "%s: larger than %zu bytes", name, NSR_MAX_TABLE_BYTES);
    return NULL;
  }
  NsrRoutine *rt = calloc(1, sizeof *rt);
  if (rt != NULL)
    rt->data = malloc(len ? len : 1);
  if (rt == NULL || rt->data == NULL) {
    set_why(why, why_len, "%s: out of memory", name);
    nsr_routine_free(rt);
    return NULL;
  }
  memcpy(rt->data, data, len);
  rt->len = len;
  const char *what = parse(rt);
  if (what != NULL) {
    set_why(why, why_len, "%s: %s", name, what);
    nsr_routine_free(rt);
    return NULL;
  }
  return rt;
}

NSR_API NsrRoutine *nsr_routine_from_data(const void *data, size_t len, char *why,
                                          size_t why_len)
{
  return from_data(data, len, "routine table", why, why_len);
}

NSR_API NsrRoutine *nsr_routine_load(const char *path, char *why, size_t why_len)
{
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    set_why(why, why_len, "%s: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = malloc(cap);
  int too_big = 0;
  while (buf != NULL) {
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap)
      break;
    if (cap > NSR_MAX_TABLE_BYTES) {
      too_big = 1;
      break;
    }
    unsigned char *more = realloc(buf, cap * 2);
    if (more == NULL) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = more;
    cap *= 2;
  }
  int failed = ferror(f);
  fclose(f);
  NsrRoutine *rt = NULL;
  if (buf == NULL)
    set_why(why, why_len, "%s: out of memory", path);
  else if (failed)
    set_why(why, why_len, "%s: read error", path);
  else if (too_big)
    set_why(why, why_len, "%s: larger than %zu bytes", path, NSR_MAX_TABLE_BYTES);
  else
    rt = from_data(buf, len, path, why, why_len);
  free(buf);
  return rt;
}

NSR_API NsrCollective nsr_routine_collective(const NsrRoutine *r) { return r->collective; }
NSR_API int nsr_routine_size(const NsrRoutine *r) { return r->p; }
NSR_API int nsr_routine_root(const NsrRoutine *r) { return r->root; }
NSR_API const char *nsr_routine_algorithm(const NsrRoutine *r) { return r->algorithm; }
NSR_API const char *nsr_routine_digest(const NsrRoutine *r) { return r->digest; }
NSR_API const char *nsr_routine_sync(const NsrRoutine *r) { return r->sync; }
NSR_API const char *nsr_routine_topology(const NsrRoutine *r) { return r->topology; }
NSR_API const char *nsr_routine_machine(const NsrRoutine *r, int m)
{
  return m >= 0 && m < r->p ? r->machines[m] : NULL;
}

/* ---- the private communicator ------------------------------------------
 * Cached on the caller's communicator as an attribute: one MPI_Comm_dup at
 * the first call, freed with the communicator. The call counter goes into
 * the tags, so that the sync messages of a rank already in its next call
 * are never counted by a rank still in this one. */

typedef struct {
  MPI_Comm comm;
  unsigned calls;
} NsrCommCache;

static int nsr_keyval = MPI_KEYVAL_INVALID;

static int nsr_cache_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
  (void)comm;
  (void)keyval;
  (void)extra;
  NsrCommCache *c = value;
  MPI_Comm_free(&c->comm);
  free(c);
  return MPI_SUCCESS;
}

static int private_comm(MPI_Comm comm, NsrCommCache **out)
{
  int rc;
  if (nsr_keyval == MPI_KEYVAL_INVALID &&
      (rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, nsr_cache_delete, &nsr_keyval,
                                   NULL)) != MPI_SUCCESS)
    return rc;
  int found = 0;
  NsrCommCache *c = NULL;
  if ((rc = MPI_Comm_get_attr(comm, nsr_keyval, &c, &found)) != MPI_SUCCESS)
    return rc;
  if (!found) {
    c = calloc(1, sizeof *c);
    if (c == NULL)
      return MPI_ERR_NO_MEM;
    if ((rc = MPI_Comm_dup(comm, &c->comm)) != MPI_SUCCESS ||
        (rc = MPI_Comm_set_attr(comm, nsr_keyval, c)) != MPI_SUCCESS) {
      free(c);
      return rc;
    }
  }
  *out = c;
  return MPI_SUCCESS;
}

/* ---- running ------------------------------------------------------------ */

enum { NSR_TAG_DATA, NSR_TAG_SYNC, NSR_TAG_BARRIER };

typedef struct {
  const NsrRoutine *rt;
  uint32_t me;               /* the machine this rank plays */
  size_t rank;               /* this rank */
  int *rank_of;              /* comm rank of every machine */
  MPI_Comm comm;
  int tag_base;
  const char *sendbuf;
  char *recvbuf, *scratch;
  size_t block, segment;     /* bytes of a block; bcast: of a segment */
  uint32_t *got;             /* per send of this machine: sync messages received */
  unsigned char *messages;   /* payloads of the sync messages this machine sends */
  MPI_Request *message_reqs;
  uint64_t n_messages;
  uint32_t send_cursor;      /* index of the machine's next send */
  int64_t eta;               /* window: items sent - items received */
} NsrRun;

/* Bytes of chunk `index` (bcast: a segment; else a block). */
static size_t chunk_bytes(const NsrRun *x, uint64_t index)
{
  if (x->rt->collective != NSR_BCAST)
    return x->block;
  uint64_t off = index * x->segment;
  return off >= x->block ? 0 : (x->block - off < x->segment ? x->block - off : x->segment);
}

/* Where a block location of the table lies in this call's buffers. The
 * table numbers blocks by schedule machine; the caller's buffers hold
 * them by comm rank (rank_of), as MPI_Alltoall and MPI_Allgather do. */
static char *location(const NsrRun *x, uint64_t loc, size_t *len)
{
  uint64_t index = loc >> 2;
  size_t unit = x->rt->collective == NSR_BCAST ? x->segment : x->block;
  *len = chunk_bytes(x, index);
  int by_machine = x->rt->collective == NSR_ALLTOALL ||
                   (x->rt->collective == NSR_ALLGATHER && (loc & 3) == NSR_LOC_RECV);
  if (by_machine && (loc & 3) != NSR_LOC_SCRATCH)
    index = (uint64_t)x->rank_of[index];
  switch (loc & 3) {
  case NSR_LOC_SEND: return (char *)x->sendbuf + index * unit;
  case NSR_LOC_RECV: return x->recvbuf + index * unit;
  default: return x->scratch + index * unit;
  }
}

/* The one block a direct payload moves. */
static uint64_t direct_location(const NsrRun *x, const NsrOp *op)
{
  if (op->send)
    return x->rt->collective == NSR_ALLTOALL ? (uint64_t)op->peer << 2 | NSR_LOC_SEND
                                             : NSR_LOC_SEND;
  return (uint64_t)op->peer << 2 | NSR_LOC_RECV;
}

typedef struct {
  NsrOp op;
  char *buf;                 /* what MPI sends or receives into */
  size_t bytes;
  int owned;                 /* buf is a packing buffer */
} NsrPending;

/* Points p->buf at the payload: the block itself for one block, a packed
 * copy (sends) or a buffer to unpack from (receives) for several. */
static int prepare(const NsrRun *x, NsrPending *pd)
{
  const NsrOp *op = &pd->op;
  NsrReader lr = { x->rt->data, op->locs, x->rt->data + x->rt->len, 0, NULL };
  if (op->payload == NSR_PAYLOAD_DUMMY || op->payload == NSR_PAYLOAD_DIRECT ||
      op->payload == 2) {
    uint64_t loc = op->payload == NSR_PAYLOAD_DIRECT ? direct_location(x, op)
                   : op->payload == 2                ? rd_u(&lr)
                                                     : 0;
    if (op->payload != NSR_PAYLOAD_DUMMY) {
      pd->buf = location(x, loc, &pd->bytes);
      return MPI_SUCCESS;
    }
    pd->bytes = chunk_bytes(x, 0);
    pd->buf = calloc(pd->bytes ? pd->bytes : 1, 1); /* filler, or where it lands */
    pd->owned = 1;
    return pd->buf != NULL ? MPI_SUCCESS : MPI_ERR_NO_MEM;
  }
  size_t total = 0, len;
  for (uint64_t i = 1; i < op->payload; i++) {
    location(x, rd_u(&lr), &len);
    total += len;
  }
  pd->buf = malloc(total ? total : 1);
  pd->bytes = total;
  pd->owned = 1;
  if (pd->buf == NULL)
    return MPI_ERR_NO_MEM;
  if (op->send) {
    NsrReader pr = { x->rt->data, op->locs, x->rt->data + x->rt->len, 0, NULL };
    char *at = pd->buf;
    for (uint64_t i = 1; i < op->payload; i++) {
      const char *from = location(x, rd_u(&pr), &len);
      memcpy(at, from, len);
      at += len;
    }
  }
  return MPI_SUCCESS;
}

static void unpack(const NsrRun *x, const NsrPending *pd)
{
  if (pd->op.payload < 3)
    return;
  NsrReader lr = { x->rt->data, pd->op.locs, x->rt->data + x->rt->len, 0, NULL };
  const char *at = pd->buf;
  for (uint64_t i = 1; i < pd->op.payload; i++) {
    size_t len;
    char *to = location(x, rd_u(&lr), &len);
    memcpy(to, at, len);
    at += len;
  }
}

/* One sync message to send `index` of machine `to`. */
static int send_sync(NsrRun *x, uint32_t to, uint64_t index)
{
  size_t size = x->rt->sync_size;
  unsigned char *msg = x->messages + x->n_messages * size;
  for (int i = 0; i < 4; i++)
    msg[i] = (unsigned char)(index >> (8 * i));
  int rc = MPI_Isend(msg, (int)size, MPI_BYTE, x->rank_of[to], x->tag_base + NSR_TAG_SYNC,
                     x->comm, &x->message_reqs[x->n_messages]);
  x->n_messages++;
  return rc;
}

static int release(NsrRun *x, const NsrOp *op)
{
  NsrReader lr = { x->rt->data, op->releases, x->rt->data + x->rt->len, 0, NULL };
  for (uint64_t i = 0; i < op->n_release; i++) {
    uint32_t q = (uint32_t)rd_u(&lr);
    int rc = send_sync(x, q, rd_u(&lr));
    if (rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

/* Receives sync messages until send `index` has all it awaits. */
static int await_syncs(NsrRun *x, uint32_t index, uint64_t needed)
{
  unsigned char *msg = malloc(x->rt->sync_size);
  if (msg == NULL)
    return MPI_ERR_NO_MEM;
  int rc = MPI_SUCCESS;
  while (x->got[index] < needed) {
    rc = MPI_Recv(msg, (int)x->rt->sync_size, MPI_BYTE, MPI_ANY_SOURCE,
                  x->tag_base + NSR_TAG_SYNC, x->comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
      break;
    uint32_t got = (uint32_t)msg[0] | (uint32_t)msg[1] << 8 | (uint32_t)msg[2] << 16 |
                   (uint32_t)msg[3] << 24;
    if (got >= x->rt->n_sends[x->me]) {
      rc = MPI_ERR_OTHER;
      break;
    }
    x->got[got]++;
  }
  free(msg);
  return rc;
}

/* Dissemination barrier over the machines (as replayed); MPI_Barrier when
 * the table models barrier hardware. */
static int barrier(const NsrRun *x)
{
  if (x->rt->flags & NSR_FLAG_HW_BARRIER)
    return MPI_Barrier(x->comm);
  uint32_t p = (uint32_t)x->rt->p;
  unsigned char *out = calloc(2, x->rt->sync_size);
  if (out == NULL)
    return MPI_ERR_NO_MEM;
  int rc = MPI_SUCCESS;
  for (uint32_t dist = 1; dist < p && rc == MPI_SUCCESS; dist *= 2) {
    MPI_Request req[2];
    int size = (int)x->rt->sync_size, tag = x->tag_base + NSR_TAG_BARRIER;
    rc = MPI_Irecv(out + x->rt->sync_size, size, MPI_BYTE, x->rank_of[(x->me + p - dist) % p],
                   tag, x->comm, &req[0]);
    if (rc == MPI_SUCCESS)
      rc = MPI_Isend(out, size, MPI_BYTE, x->rank_of[(x->me + dist) % p], tag, x->comm,
                     &req[1]);
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: gcc 12 warns on MPICH's (stringop-overflow) */
    if (rc == MPI_SUCCESS)
      rc = MPI_Waitall(2, req, st);
  }
  free(out);
  return rc;
}

static int run_step(NsrRun *x, NsrReader *r, const NsrStep *st)
{
  uint32_t n = st->n_sends + st->n_recvs;
  NsrPending *pd = calloc((size_t)n + 1, sizeof *pd);
  MPI_Request *req = malloc(((size_t)n + 1) * sizeof *req);
  if (pd == NULL || req == NULL) {
    free(pd);
    free(req);
    return MPI_ERR_NO_MEM;
  }
  /* the table lists sends first; receives are posted first */
  for (uint32_t k = 0; k < n; k++)
    rd_op(r, x->rt, k < st->n_sends, &pd[k].op);
  int data_tag = x->tag_base + NSR_TAG_DATA;
  int synchronous = (x->rt->flags & NSR_FLAG_SYNCHRONOUS) != 0;
  int rc = MPI_SUCCESS;
  uint32_t posted = 0;
  for (uint32_t k = st->n_sends; k < n && rc == MPI_SUCCESS; k++, posted++) {
    NsrPending *p = &pd[k];
    req[k] = MPI_REQUEST_NULL;
    if (x->rt->flags & NSR_FLAG_LIGHT)
      rc = send_sync(x, p->op.peer, p->op.ready);
    if (rc == MPI_SUCCESS)
      rc = prepare(x, p);
    if (rc == MPI_SUCCESS && p->bytes > INT_MAX)
      rc = MPI_ERR_COUNT;
    if (rc == MPI_SUCCESS)
      rc = MPI_Irecv(p->buf, (int)p->bytes, MPI_BYTE, x->rank_of[p->op.peer], data_tag, x->comm,
                     &req[k]);
  }
  for (uint32_t k = 0; k < st->n_sends; k++)
    req[k] = MPI_REQUEST_NULL;
  for (uint32_t k = 0; k < st->n_sends && rc == MPI_SUCCESS; k++, posted++) {
    NsrPending *p = &pd[k];
    p->op.index = x->send_cursor++;
    rc = await_syncs(x, p->op.index, p->op.needed);
    if (rc == MPI_SUCCESS)
      rc = prepare(x, p);
    if (rc == MPI_SUCCESS && p->bytes > INT_MAX)
      rc = MPI_ERR_COUNT;
    if (rc == MPI_SUCCESS)
      rc = (synchronous && p->bytes >= x->rt->eager_threshold ? MPI_Issend : MPI_Isend)(
          p->buf, (int)p->bytes, MPI_BYTE, x->rank_of[p->op.peer], data_tag, x->comm, &req[k]);
  }
  int receiver_based = (x->rt->flags & NSR_FLAG_RECEIVER_BASED) != 0;
  for (uint32_t done = 0; done < n && rc == MPI_SUCCESS; done++) {
    int k;
    rc = MPI_Waitany((int)n, req, &k, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || k == MPI_UNDEFINED)
      break;
    NsrPending *p = &pd[k];
    if (!p->op.send)
      unpack(x, p);
    if (p->op.send != receiver_based)
      rc = release(x, &p->op);
  }
  if (rc != MPI_SUCCESS)
    for (uint32_t k = 0; k < n; k++)
      if (req[k] != MPI_REQUEST_NULL) {
        MPI_Cancel(&req[k]);
        MPI_Request_free(&req[k]);
      }
  for (uint32_t k = 0; k < n; k++)
    if (pd[k].owned)
      free(pd[k].buf);
  free(pd);
  free(req);
  return rc;
}

/* ---- the global window (Tam & Wang §3.2, Algorithm 2), as replayed ------
 * A posted step under window:W (sim/replay.c, run_window_step): every
 * message is cut into items of item_bytes, sent in Algorithm 1's order —
 * item 1 of every send in posting order, then item 2, ... — but only while
 * eta = items sent - items received < W. Receives are posted ahead,
 * min(W, W / sources + 2) per source; a source's items arrive in its
 * order (MPI does not overtake), which the receiver replays over its
 * receives from that source to place each item. */

static uint64_t items_of(const NsrRun *x, size_t bytes)
{
  uint64_t ib = x->rt->item_bytes;
  return bytes <= ib ? 1 : bytes / ib + (bytes % ib != 0);
}

typedef struct {
  uint32_t *ops;             /* its receives (indices into the step's ops), in order */
  uint32_t n;
  uint64_t round;            /* Algorithm 1's cursor over them: item `round` of ops[next] */
  uint32_t next;
  uint64_t unposted, posted; /* items */
} NsrSource;

typedef struct {
  uint32_t op;
  uint64_t item;
  int send;
  uint32_t source;
} NsrItem;

typedef struct {
  NsrRun *x;
  NsrPending *pd;
  uint64_t *items, *done;    /* per op */
  NsrSource *src;
  uint32_t n_sources, n_sends;
  uint64_t depth, round, max_items;
  uint32_t next;
  MPI_Request *req;
  NsrItem *what;
  size_t n, cap;
} NsrWindow;

static int window_room(NsrWindow *w)
{
  if (w->n < w->cap)
    return MPI_SUCCESS;
  size_t cap = w->cap * 2;
  MPI_Request *req = realloc(w->req, cap * sizeof *req);
  if (req != NULL)
    w->req = req;
  NsrItem *what = req != NULL ? realloc(w->what, cap * sizeof *what) : NULL;
  if (what == NULL)
    return MPI_ERR_NO_MEM;
  w->what = what;
  w->cap = cap;
  return MPI_SUCCESS;
}

static char *item_at(const NsrWindow *w, uint32_t op, uint64_t j, int *len)
{
  uint64_t ib = w->x->rt->item_bytes;
  size_t bytes = w->pd[op].bytes;
  size_t off = (size_t)(j * ib);
  *len = (int)(w->items[op] == 1 ? bytes : (bytes - off < ib ? bytes - off : ib));
  return w->pd[op].buf + off;
}

static int window_post_recvs(NsrWindow *w, uint32_t s)
{
  NsrSource *src = &w->src[s];
  int rc = MPI_SUCCESS;
  while (rc == MPI_SUCCESS && src->unposted > 0 && src->posted < w->depth) {
    /* the source's next item to this machine, in its Algorithm 1 order */
    while (w->items[src->ops[src->next]] <= src->round)
      if (++src->next == src->n)
        src->next = 0, src->round++;
    uint32_t op = src->ops[src->next];
    uint64_t j = src->round;
    if (++src->next == src->n)
      src->next = 0, src->round++;
    if ((rc = window_room(w)) != MPI_SUCCESS)
      break;
    int len;
    char *buf = item_at(w, op, j, &len);
    w->what[w->n] = (NsrItem){ op, j, 0, s };
    rc = MPI_Irecv(buf, len, MPI_BYTE, w->x->rank_of[w->pd[op].op.peer],
                   w->x->tag_base + NSR_TAG_DATA, w->x->comm, &w->req[w->n++]);
    src->unposted--;
    src->posted++;
  }
  return rc;
}

static int window_post_sends(NsrWindow *w)
{
  int rc = MPI_SUCCESS;
  while (rc == MPI_SUCCESS && w->x->eta < (int64_t)w->x->rt->window &&
         w->round < w->max_items) {
    if (w->next == w->n_sends) {
      w->next = 0;
      w->round++;
      continue;
    }
    uint32_t op = w->next++;
    if (w->items[op] <= w->round)
      continue;
    if ((rc = window_room(w)) != MPI_SUCCESS)
      break;
    int len;
    char *buf = item_at(w, op, w->round, &len);
    w->what[w->n] = (NsrItem){ op, w->round, 1, 0 };
    w->x->eta++;
    rc = MPI_Isend(buf, len, MPI_BYTE, w->x->rank_of[w->pd[op].op.peer],
                   w->x->tag_base + NSR_TAG_DATA, w->x->comm, &w->req[w->n++]);
  }
  return rc;
}

static int window_sends_left(const NsrWindow *w)
{
  for (uint64_t round = w->round; round < w->max_items; round++)
    for (uint32_t op = round == w->round ? w->next : 0; op < w->n_sends; op++)
      if (w->items[op] > round)
        return 1;
  return 0;
}

static int run_window_step(NsrRun *x, NsrReader *r, const NsrStep *st)
{
  uint32_t n = st->n_sends + st->n_recvs;
  NsrWindow w = { .x = x, .n_sends = st->n_sends, .cap = 64 };
  w.pd = calloc((size_t)n + 1, sizeof *w.pd);
  w.items = calloc((size_t)n + 1, sizeof *w.items);
  w.done = calloc((size_t)n + 1, sizeof *w.done);
  w.src = calloc((size_t)st->n_recvs + 1, sizeof *w.src);
  uint32_t *order = malloc(((size_t)st->n_recvs + 1) * sizeof *order);
  w.req = malloc(w.cap * sizeof *w.req);
  w.what = malloc(w.cap * sizeof *w.what);
  int rc = MPI_SUCCESS;
  if (w.pd == NULL || w.items == NULL || w.done == NULL || w.src == NULL || order == NULL ||
      w.req == NULL || w.what == NULL)
    rc = MPI_ERR_NO_MEM;
  for (uint32_t k = 0; rc == MPI_SUCCESS && k < n; k++) {
    rd_op(r, x->rt, k < st->n_sends, &w.pd[k].op);
    if (k < st->n_sends)
      x->send_cursor++;
    rc = prepare(x, &w.pd[k]);
    if (rc == MPI_SUCCESS && w.pd[k].bytes > INT_MAX)
      rc = MPI_ERR_COUNT;
    w.items[k] = items_of(x, w.pd[k].bytes);
    if (k < st->n_sends && w.items[k] > w.max_items)
      w.max_items = w.items[k];
  }
  /* receives grouped by source (in order of first appearance), each group
   * in list order, which is the sender's posting order */
  uint32_t filled = 0;
  for (uint32_t k = st->n_sends; rc == MPI_SUCCESS && k < n; k++) {
    uint32_t peer = w.pd[k].op.peer, s = 0;
    while (s < w.n_sources && w.pd[w.src[s].ops[0]].op.peer != peer)
      s++;
    if (s < w.n_sources)
      continue; /* grouped with its source's first receive */
    NsrSource *src = &w.src[w.n_sources++];
    src->ops = order + filled;
    for (uint32_t q = k; q < n; q++)
      if (w.pd[q].op.peer == peer) {
        order[filled++] = q;
        src->n++;
        src->unposted += w.items[q];
      }
  }
  uint64_t W = x->rt->window;
  w.depth = W / (w.n_sources ? w.n_sources : 1) + 2;
  if (w.depth > W)
    w.depth = W;
  for (uint32_t s = 0; rc == MPI_SUCCESS && s < w.n_sources; s++)
    rc = window_post_recvs(&w, s);
  if (rc == MPI_SUCCESS)
    rc = window_post_sends(&w);
  while (rc == MPI_SUCCESS && w.n > 0) {
    int k;
    rc = MPI_Waitany((int)w.n, w.req, &k, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || k == MPI_UNDEFINED)
      break;
    NsrItem it = w.what[k];
    w.n--;
    w.req[k] = w.req[w.n];
    w.what[k] = w.what[w.n];
    if (!it.send) { /* Algorithm 2: dec eta on every item received */
      x->eta--;
      w.src[it.source].posted--;
      if (++w.done[it.op] == w.items[it.op])
        unpack(x, &w.pd[it.op]);
      rc = window_post_recvs(&w, it.source);
    }
    if (rc == MPI_SUCCESS)
      rc = window_post_sends(&w);
  }
  if (rc == MPI_SUCCESS && window_sends_left(&w))
    rc = MPI_ERR_OTHER; /* eta >= W with nothing left to receive: the table deadlocks */
  for (size_t k = 0; rc != MPI_SUCCESS && k < w.n; k++) {
    MPI_Cancel(&w.req[k]);
    MPI_Request_free(&w.req[k]);
  }
  for (uint32_t k = 0; w.pd != NULL && k < n; k++)
    if (w.pd[k].owned)
      free(w.pd[k].buf);
  free(w.pd);
  free(w.items);
  free(w.done);
  free(w.src);
  free(order);
  free(w.req);
  free(w.what);
  return rc;
}

/* The copy every collective makes locally: a machine's own block. */
static void local_copy(const NsrRun *x)
{
  const NsrRoutine *rt = x->rt;
  switch (rt->collective) {
  case NSR_ALLTOALL:
    if (x->sendbuf + x->rank * x->block != x->recvbuf + x->rank * x->block)
      memcpy(x->recvbuf + x->rank * x->block, x->sendbuf + x->rank * x->block, x->block);
    break;
  case NSR_ALLGATHER:
    if (x->sendbuf != x->recvbuf + x->rank * x->block)
      memcpy(x->recvbuf + x->rank * x->block, x->sendbuf, x->block);
    break;
  case NSR_BCAST:
    if (x->me == (uint32_t)rt->root && x->sendbuf != x->recvbuf)
      memcpy(x->recvbuf, x->sendbuf, x->block);
    break;
  }
}

static int run_machine(NsrRun *x)
{
  const NsrRoutine *rt = x->rt;
  NsrReader r = { rt->data, rt->data + rt->section[x->me], rt->data + rt->len - 8, 0, NULL };
  uint64_t scratch = rd_u(&r);
  rd_u(&r);
  uint64_t n_steps = rd_u(&r);
  size_t unit = rt->collective == NSR_BCAST ? x->segment : x->block;
  if (scratch > 0 && unit > SIZE_MAX / scratch)
    return MPI_ERR_NO_MEM;
  x->scratch = malloc(scratch * unit + 1);
  x->got = calloc((size_t)rt->n_sends[x->me] + 1, sizeof *x->got);
  x->messages = calloc((size_t)rt->n_messages[x->me] + 1, rt->sync_size);
  x->message_reqs = malloc(((size_t)rt->n_messages[x->me] + 1) * sizeof *x->message_reqs);
  int rc = MPI_SUCCESS;
  if (x->scratch == NULL || x->got == NULL || x->messages == NULL || x->message_reqs == NULL)
    rc = MPI_ERR_NO_MEM;
  if (rc == MPI_SUCCESS)
    local_copy(x);
  uint32_t next_phase = 0, b = 0;
  for (uint64_t s = 0; s < n_steps && rc == MPI_SUCCESS; s++) {
    NsrStep st;
    rd_step(&r, &st, &next_phase);
    while (rc == MPI_SUCCESS && b < rt->n_barriers && rt->barrier_phase[b] <= st.phase)
      rc = barrier(x), b++;
    if (rc == MPI_SUCCESS)
      rc = rt->window ? run_window_step(x, &r, &st) : run_step(x, &r, &st);
  }
  while (rc == MPI_SUCCESS && b < rt->n_barriers)
    rc = barrier(x), b++;
  for (uint64_t k = 0; k < x->n_messages && rc == MPI_SUCCESS; k++)
    rc = MPI_Wait(&x->message_reqs[k], MPI_STATUS_IGNORE);
  free(x->scratch);
  free(x->got);
  free(x->messages);
  free(x->message_reqs);
  return rc;
}

NSR_API int nsr_routine_run(const NsrRoutine *r, const void *sendbuf, void *recvbuf,
                            size_t block_bytes, const int *machine_of_rank, MPI_Comm comm)
{
  if (r == NULL || recvbuf == NULL || (sendbuf == NULL && r->collective != NSR_BCAST))
    return MPI_ERR_ARG;
  int size, rank, rc;
  if ((rc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS ||
      (rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
    return rc;
  if (size != r->p || (size_t)r->p > SIZE_MAX / (block_bytes ? block_bytes : 1))
    return MPI_ERR_ARG;
  NsrRun x = { .rt = r, .sendbuf = sendbuf, .recvbuf = recvbuf, .block = block_bytes };
  if (r->collective == NSR_BCAST)
    x.segment = block_bytes / r->segments + (block_bytes % r->segments != 0);
  x.rank_of = malloc((size_t)r->p * sizeof *x.rank_of);
  if (x.rank_of == NULL)
    return MPI_ERR_NO_MEM;
  for (int m = 0; m < r->p; m++)
    x.rank_of[m] = -1;
  for (int k = 0; k < r->p; k++) {
    int m = machine_of_rank != NULL ? machine_of_rank[k] : k;
    if (m < 0 || m >= r->p || x.rank_of[m] != -1) {
      free(x.rank_of);
      return MPI_ERR_ARG; /* not a permutation */
    }
    x.rank_of[m] = k;
  }
  x.me = (uint32_t)(machine_of_rank != NULL ? machine_of_rank[rank] : rank);
  x.rank = (size_t)rank;
  NsrCommCache *cache;
  rc = private_comm(comm, &cache);
  if (rc == MPI_SUCCESS) {
    x.comm = cache->comm;
    x.tag_base = (int)(cache->calls++ % 1024u) * 4;
    rc = run_machine(&x);
  }
  free(x.rank_of);
  return rc;
}
