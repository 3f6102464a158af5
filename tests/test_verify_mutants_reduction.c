/* Mutation test of the verifier on reduce, allreduce, alltoallv and
 * allgatherv (issue #22), against a reference written here from the
 * semantics of sched/ir/schedule.h ("Reductions", "Variable sizes").
 *
 * Hand-built correct schedules (binomial reduce, reduce-bcast, ring and
 * recursive-doubling allreduce with and without segment sizes, direct
 * alltoallv and ring allgatherv on random size patterns with zeros) on
 * seeded random trees, spread over phases until no directed edge carries
 * two transfers of a phase. Seeded operators then break each in one small
 * way (drop, duplicate, redirect a transfer, flip combine <-> copy, change
 * a segment or block, move a transfer to another phase, a size to or from
 * 0). For every schedule, mutated or not, the reference decides data flow,
 * completeness and contention from the definitions alone, and ns_verify()
 * must give the same verdict on each: no false accept, no false reject —
 * and the same again when the schedule is written to a file (JSON or JSON
 * Lines), read back and verified phase by phase as `netsched verify` does.
 *
 * The reference shares no code with sched/: it reads the schedule it
 * built as plain data, routes over the tree's links by its own breadth-
 * first search (the unique path), keeps each machine's origin set of each
 * segment as a 64-bit mask (p <= 64) and each chunk's holders as bytes.
 */
#include "platforms/model/error.h"
#include "platforms/model/topology.h"
#include "sched/io/schedule_stream.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <string.h>

#define MAX_CHUNKS 8

typedef struct {
  int phase, src, dst;
  gboolean combine, raw; /* raw: chunks o·S + s, raw contributions */
  guint n;
  uint32_t c[MAX_CHUNKS];
} X;

typedef struct {
  NsCollective coll;
  int p, root;
  uint32_t n_segments;
  GArray *sizes; /* uint64 per chunk, or NULL */
  GArray *x;     /* X */
} Plan;

static Plan *plan_new(NsCollective coll, int p)
{
  Plan *pl = g_new0(Plan, 1);
  pl->coll = coll;
  pl->p = p;
  pl->root = -1;
  pl->x = g_array_new(FALSE, FALSE, sizeof(X));
  return pl;
}

static Plan *plan_copy(const Plan *a)
{
  Plan *pl = g_new0(Plan, 1);
  *pl = *a;
  pl->sizes = a->sizes != NULL ? g_array_copy(a->sizes) : NULL;
  pl->x = g_array_copy(a->x);
  return pl;
}

static void plan_free(Plan *pl)
{
  if (pl->sizes != NULL)
    g_array_unref(pl->sizes);
  g_array_unref(pl->x);
  g_free(pl);
}

static X *xat(const Plan *pl, guint i)
{
  return &g_array_index(pl->x, X, i);
}

static void add(Plan *pl, int phase, int src, int dst, gboolean combine, guint n,
                const uint32_t *c)
{
  X x = { .phase = phase, .src = src, .dst = dst, .combine = combine, .n = n };
  g_assert_cmpuint(n, <=, MAX_CHUNKS);
  memcpy(x.c, c, MIN(n, MAX_CHUNKS) * sizeof(uint32_t)); /* MIN: for gcc -O3 -Warray-bounds */
  g_array_append_val(pl->x, x);
}

/* A transfer of raw contributions, chunk o·S + s each. */
static void add_raw(Plan *pl, int phase, int src, int dst, guint n, const uint32_t *c)
{
  X x = { .phase = phase, .src = src, .dst = dst, .raw = TRUE, .n = n };
  g_assert_cmpuint(n, <=, MAX_CHUNKS);
  memcpy(x.c, c, MIN(n, MAX_CHUNKS) * sizeof(uint32_t)); /* MIN: for gcc -O3 -Warray-bounds */
  g_array_append_val(pl->x, x);
}

static int n_phases(const Plan *pl)
{
  int n = 0;
  for (guint i = 0; i < pl->x->len; i++)
    n = MAX(n, xat(pl, i)->phase + 1);
  return n;
}

static guint n_chunk_ids(const Plan *pl)
{
  switch (pl->coll) {
  case NS_COLL_ALLTOALLV: return (guint)(pl->p * pl->p);
  case NS_COLL_ALLGATHERV: return (guint)pl->p;
  default: return pl->n_segments;
  }
}

/* The chunk ids a transfer may carry: a raw one any origin's. */
static guint ids_of(const Plan *pl, const X *x)
{
  return x->raw ? (guint)pl->p * pl->n_segments : n_chunk_ids(pl);
}

static uint64_t size_of(const Plan *pl, uint32_t c)
{
  return pl->sizes != NULL ? g_array_index(pl->sizes, uint64_t, c) : 1;
}

/* The schedule the verifier sees: phases in order, transfers in list order. */
static NsSchedule *plan_write(const Plan *pl, const NsTopology *t)
{
  NsSchedule *s = ns_schedule_for_topology(t, pl->coll, "mutant", 1000);
  s->root = pl->root;
  s->n_segments = ns_collective_is_reduction(pl->coll) ? pl->n_segments : 0;
  if (pl->sizes != NULL) {
    GError *err = NULL;
    g_assert_true(ns_schedule_set_chunk_bytes(s, (const uint64_t *)(void *)pl->sizes->data,
                                              pl->sizes->len, &err));
  }
  for (int ph = 0; ph < n_phases(pl); ph++) {
    ns_schedule_begin_phase(s);
    for (guint i = 0; i < pl->x->len; i++) {
      const X *x = xat(pl, i);
      if (x->phase == ph)
        (x->raw       ? ns_schedule_add_raw
         : x->combine ? ns_schedule_add_combine
                      : ns_schedule_add_chunks)(s, x->src, x->dst, x->n, x->c);
    }
  }
  return s;
}

/* ======================================================================
 * Routes on a tree: the unique path, as directed edges (2·link from
 * link.a, 2·link + 1 the other way)
 * ====================================================================== */

typedef struct {
  int p;
  GPtrArray *route; /* GArray of int per (a, b) */
} Net;

static void net_init(Net *net, const NsTopology *t)
{
  net->p = ns_topology_n_machines(t);
  net->route = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  int n = ns_topology_n_nodes(t);
  g_autofree int *via = g_new(int, n);
  g_autofree int *queue = g_new(int, n);
  for (int a = 0; a < net->p; a++) {
    int src = ns_topology_machine_node(t, a), head = 0, tail = 0;
    for (int v = 0; v < n; v++)
      via[v] = -1;
    via[src] = -2;
    queue[tail++] = src;
    while (head < tail) {
      int u = queue[head++];
      const int *inc = ns_topology_incident(t, u);
      for (int k = 0; k < ns_topology_degree(t, u); k++) {
        int v = ns_topology_link_other(t, inc[k], u);
        if (via[v] == -1) {
          via[v] = inc[k];
          queue[tail++] = v;
        }
      }
    }
    for (int b = 0; b < net->p; b++) {
      GArray *r = g_array_new(FALSE, FALSE, sizeof(int));
      for (int v = ns_topology_machine_node(t, b); v != src;) {
        int l = via[v], u = ns_topology_link_other(t, l, v);
        int e = ns_topology_link(t, l)->a == u ? 2 * l : 2 * l + 1;
        g_array_prepend_val(r, e);
        v = u;
      }
      g_ptr_array_add(net->route, r);
    }
  }
}

static const GArray *route(const Net *net, int a, int b)
{
  return g_ptr_array_index(net->route, (guint)(a * net->p + b));
}

/* ======================================================================
 * The reference
 * ====================================================================== */

typedef struct {
  gboolean dataflow, complete, contention; /* TRUE: the check fails */
} Verdict;

/* Reductions: each machine's set of origins per segment; a transfer's
 * receiver combines (the two sets must be disjoint) or copies the sender's
 * set as it was when the phase began; a segment listed twice in one
 * transfer is delivered twice. Raw contributions: each machine's raw
 * chunks (o·S + s) held, its own from the start; a raw transfer's sender
 * must hold each when the phase begins, a receiver that holds one already
 * gets it redundantly, the partial sets do not change. The root (reduce)
 * or every machine (allreduce) must end with every origin in every
 * segment, in its set or as another origin's raw chunk it holds. */
static void ref_reduction(const Plan *pl, Verdict *v)
{
  guint segs = pl->n_segments, raws = (guint)pl->p * segs;
  int p = pl->p;
  g_assert_cmpint(p, <=, 64);
  g_autofree guint64 *set = g_new0(guint64, (gsize)p * segs);
  g_autofree guint64 *before = g_new0(guint64, (gsize)p * segs);
  g_autofree guint8 *raw = g_new0(guint8, (gsize)p * raws);
  g_autofree guint8 *raw_before = g_new0(guint8, (gsize)p * raws);
  for (int m = 0; m < p; m++)
    for (guint c = 0; c < segs; c++) {
      set[(gsize)m * segs + c] = G_GUINT64_CONSTANT(1) << m;
      raw[(gsize)m * raws + (guint)m * segs + c] = 1;
    }
  for (int ph = 0; ph < n_phases(pl); ph++) {
    memcpy(before, set, sizeof(guint64) * (gsize)p * segs);
    memcpy(raw_before, raw, (gsize)p * raws);
    for (guint i = 0; i < pl->x->len; i++) {
      const X *x = xat(pl, i);
      if (x->phase != ph)
        continue;
      for (guint k = 0; k < x->n; k++) {
        for (guint j = 0; j < k; j++)
          if (x->c[j] == x->c[k])
            v->complete = TRUE;
        if (x->raw) {
          if (!raw_before[(gsize)x->src * raws + x->c[k]])
            v->dataflow = TRUE;
          guint8 *h = &raw[(gsize)x->dst * raws + x->c[k]];
          if (*h)
            v->complete = TRUE;
          *h = 1;
          continue;
        }
        guint64 in = before[(gsize)x->src * segs + x->c[k]];
        guint64 *mine = &set[(gsize)x->dst * segs + x->c[k]];
        if (x->combine && (*mine & in) != 0)
          v->complete = TRUE;
        *mine = x->combine ? *mine | in : in;
      }
    }
  }
  guint64 all = p == 64 ? ~G_GUINT64_CONSTANT(0) : (G_GUINT64_CONSTANT(1) << p) - 1;
  for (int m = 0; m < p; m++)
    for (guint c = 0; c < segs; c++) {
      guint64 have = set[(gsize)m * segs + c];
      for (int o = 0; o < p; o++) /* the final local combine: other origins' raw chunks */
        if (o != m && raw[(gsize)m * raws + (guint)o * segs + c])
          have |= G_GUINT64_CONSTANT(1) << o;
      if ((pl->coll == NS_COLL_ALLREDUCE || m == pl->root) && have != all)
        v->complete = TRUE;
    }
}

/* alltoallv (chunk o·p + d, held by o) and allgatherv (chunk o, every
 * machine wants it): a sender must hold what it sends when the phase
 * begins; a receipt by a machine that holds the chunk already (its origin,
 * a destination or a relay a second time) is redundant; every chunk of
 * more than 0 bytes must reach its destinations. */
static void ref_vector(const Plan *pl, Verdict *v)
{
  int p = pl->p;
  guint ids = n_chunk_ids(pl);
  gboolean a2a = pl->coll == NS_COLL_ALLTOALLV;
  g_autofree guint8 *held = g_new0(guint8, (gsize)p * ids);
  for (guint c = 0; c < ids; c++)
    held[(gsize)(a2a ? c / (guint)p : c) * ids + c] = 1;
  for (int ph = 0; ph < n_phases(pl); ph++) {
    for (guint i = 0; i < pl->x->len; i++) {
      const X *x = xat(pl, i);
      for (guint k = 0; x->phase == ph && k < x->n; k++)
        if (!held[(gsize)x->src * ids + x->c[k]])
          v->dataflow = TRUE;
    }
    for (guint i = 0; i < pl->x->len; i++) {
      const X *x = xat(pl, i);
      for (guint k = 0; x->phase == ph && k < x->n; k++) {
        guint8 *h = &held[(gsize)x->dst * ids + x->c[k]];
        if (*h)
          v->complete = TRUE;
        *h = 1;
      }
    }
  }
  for (guint c = 0; c < ids; c++)
    for (int m = 0; m < p; m++) {
      gboolean wanted = a2a ? (guint)m == c % (guint)p && c / (guint)p != c % (guint)p
                            : (guint)m != c;
      if (wanted && size_of(pl, c) > 0 && !held[(gsize)m * ids + c])
        v->complete = TRUE;
    }
}

/* Contention: two transfers of a phase on one directed edge (links of one
 * speed), whatever their sizes. */
static void ref_contention(const Plan *pl, const Net *net, int n_edges, Verdict *v)
{
  g_autofree int *used = g_new(int, n_edges);
  for (int ph = 0; ph < n_phases(pl); ph++) {
    for (int e = 0; e < n_edges; e++)
      used[e] = 0;
    for (guint i = 0; i < pl->x->len; i++) {
      const X *x = xat(pl, i);
      if (x->phase != ph)
        continue;
      const GArray *r = route(net, x->src, x->dst);
      for (guint k = 0; k < r->len; k++)
        if (++used[g_array_index(r, int, k)] > 1)
          v->contention = TRUE;
    }
  }
}

static Verdict reference(const Plan *pl, const Net *net, int n_edges)
{
  Verdict v = { FALSE, FALSE, FALSE };
  if (ns_collective_is_reduction(pl->coll))
    ref_reduction(pl, &v);
  else
    ref_vector(pl, &v);
  ref_contention(pl, net, n_edges, &v);
  return v;
}

static Verdict verdict_of(NsVerifyReport *r)
{
  Verdict v = { r->failures[NS_CHECK_DATAFLOW] > 0, r->failures[NS_CHECK_COMPLETE] > 0,
                r->failures[NS_CHECK_CONTENTION] > 0 };
  ns_verify_report_clear(r);
  return v;
}

/* The schedule written in `format`, read back phase by phase and verified
 * as `netsched verify` does it (a session; `keep`: the phases kept, as for
 * a file with sync edges or routes): the file path must give the verdict
 * of the schedule in memory. */
static Verdict verify_streamed(const NsTopology *t, const NsSchedule *s, NsScheduleFormat format,
                               gboolean keep, gboolean *refused)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  GError *err = NULL;
  g_assert_true(ns_schedule_write(s, format, f, &err));
  g_assert_cmpint(fclose(f), ==, 0);
  NsScheduleReader *r = ns_schedule_reader_new_for_data("mutant", buf, size);
  const NsSchedule *h = ns_schedule_reader_header(r, &err);
  g_assert_no_error(err);
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.port = NS_PORT_ALL;
  NsVerifySession *vs = ns_verify_begin(t, h, &opt, keep ? NS_VERIFY_KEEP : 0, &err);
  g_assert_no_error(err);
  NsPhase ph;
  int got;
  *refused = FALSE;
  while (!*refused && (got = ns_schedule_reader_next_phase(r, &ph, &err)) > 0)
    if (!ns_verify_phase(vs, ph.transfers, ph.n, ph.chunk_pool, &err)) {
      /* kept phases: more transfers than the collective can need */
      g_assert_nonnull(strstr(err->message, "unless it delivers something twice"));
      g_clear_error(&err);
      *refused = TRUE;
    }
  if (*refused) {
    ns_verify_session_free(vs);
    ns_schedule_reader_free(r);
    free(buf);
    return (Verdict){ FALSE, TRUE, FALSE };
  }
  g_assert_cmpint(got, ==, 0);
  g_autoptr(NsSchedule) tail = ns_schedule_reader_finish(r, &err);
  g_assert_no_error(err);
  NsVerifyReport rep = { 0 };
  g_assert_true(ns_verify_end(vs, tail, &rep, &err));
  g_assert_no_error(err);
  ns_verify_session_free(vs);
  ns_schedule_reader_free(r);
  free(buf);
  return verdict_of(&rep);
}

static Verdict verifier(const Plan *pl, const NsTopology *t)
{
  g_autoptr(NsSchedule) s = plan_write(pl, t);
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.port = NS_PORT_ALL;
  NsVerifyReport r = { 0 };
  GError *err = NULL;
  g_assert_true(ns_verify(t, s, &opt, &r, &err));
  g_assert_no_error(err);
  Verdict v = verdict_of(&r);
  /* the same through each file format, with and without kept phases */
  static guint turn;
  turn++;
  gboolean refused;
  Verdict w = verify_streamed(t, s, turn % 2 ? NS_SCHEDULE_JSONL : NS_SCHEDULE_JSON, turn % 4 < 2,
                              &refused);
  g_assert_cmpint(w.complete, ==, v.complete); /* a refused file delivers something twice */
  if (!refused) {
    g_assert_cmpint(w.dataflow, ==, v.dataflow);
    g_assert_cmpint(w.contention, ==, v.contention);
  }
  return v;
}

/* ======================================================================
 * The originals
 * ====================================================================== */

/* Spreads each phase over sub-phases until no directed edge carries two of
 * its transfers; the two transfers of one pair (recursive doubling's
 * exchange) stay together. Safe for the schedules below: within a phase no
 * machine forwards the segment or block it receives. */
static void spread(Plan *pl, const Net *net, int n_edges)
{
  int n = n_phases(pl), next = 0;
  g_autofree int *owner = g_new(int, n_edges);
  g_autofree int *sub = g_new(int, pl->x->len);
  for (int ph = 0; ph < n; ph++) {
    int used = 0;
    for (guint i = 0; i < pl->x->len; i++)
      if (xat(pl, i)->phase == ph)
        sub[i] = -1;
    for (int round = 0;; round++) {
      gboolean left = FALSE;
      for (int e = 0; e < n_edges; e++)
        owner[e] = -1;
      for (guint i = 0; i < pl->x->len; i++) {
        X *x = xat(pl, i);
        if (x->phase != ph || sub[i] >= 0)
          continue;
        /* the pair's other transfer, if any, goes along */
        gint64 mate = -1;
        for (guint j = 0; j < pl->x->len; j++)
          if (j != i && xat(pl, j)->phase == ph && xat(pl, j)->src == x->dst &&
              xat(pl, j)->dst == x->src && sub[j] < 0)
            mate = j;
        gboolean fits = TRUE;
        for (int side = 0; side < (mate >= 0 ? 2 : 1) && fits; side++) {
          const X *y = side == 0 ? x : xat(pl, (guint)mate);
          const GArray *r = route(net, y->src, y->dst);
          for (guint k = 0; k < r->len; k++)
            fits = fits && owner[g_array_index(r, int, k)] < 0;
        }
        if (!fits) {
          left = TRUE;
          continue;
        }
        for (int side = 0; side < (mate >= 0 ? 2 : 1); side++) {
          guint idx = side == 0 ? i : (guint)mate;
          const X *y = xat(pl, idx);
          const GArray *r = route(net, y->src, y->dst);
          for (guint k = 0; k < r->len; k++)
            owner[g_array_index(r, int, k)] = (int)idx;
          sub[idx] = round;
        }
      }
      used = round + 1;
      if (!left)
        break;
    }
    for (guint i = 0; i < pl->x->len; i++)
      if (xat(pl, i)->phase == ph)
        sub[i] += next;
    next += used;
  }
  for (guint i = 0; i < pl->x->len; i++)
    xat(pl, i)->phase = sub[i];
}

static void segments_all(uint32_t n, uint32_t *c)
{
  for (uint32_t k = 0; k < n; k++)
    c[k] = k;
}

/* Binomial tree to the root (relative ranks; MPICH's MPI_Reduce), every
 * segment combined, from phase `phase` on; returns the next free phase. */
static int binomial_reduce(Plan *pl, int phase)
{
  int p = pl->p;
  uint32_t c[MAX_CHUNKS];
  segments_all(pl->n_segments, c);
  for (int k = 0; (1 << k) < p; k++, phase++)
    for (int rel = 0; rel < p; rel++)
      if ((rel & ((2 << k) - 1)) == (1 << k))
        add(pl, phase, (rel + pl->root) % p, (rel - (1 << k) + pl->root) % p, TRUE,
            pl->n_segments, c);
  return phase;
}

/* Binomial broadcast from the root, every segment copied. */
static void binomial_bcast(Plan *pl, int phase, int root)
{
  int p = pl->p, top = 1;
  while (top < p)
    top <<= 1;
  uint32_t c[MAX_CHUNKS];
  segments_all(pl->n_segments, c);
  for (int k = top >> 1; k >= 1; k >>= 1, phase++)
    for (int rel = 0; rel < p; rel += 2 * k)
      if (rel + k < p)
        add(pl, phase, (rel + root) % p, (rel + k + root) % p, FALSE, pl->n_segments, c);
}

static GArray *random_sizes(GRand *rng, guint n, double zeros)
{
  GArray *a = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t), n);
  for (guint i = 0; i < n; i++) {
    uint64_t v = g_rand_double(rng) < zeros ? 0 : (uint64_t)g_rand_int_range(rng, 1, 5000);
    g_array_append_val(a, v);
  }
  return a;
}

/* A ring all-gather of raw vectors from phase `phase` on: step k, i
 * passes origin i - k's raw chunks of every segment to i + 1. */
static void raw_ring(Plan *pl, int phase)
{
  int p = pl->p;
  uint32_t c[MAX_CHUNKS];
  for (int k = 0; k < p - 1; k++)
    for (int i = 0; i < p; i++) {
      int o = (i - k + p) % p;
      for (uint32_t s = 0; s < pl->n_segments; s++)
        c[s] = (uint32_t)o * pl->n_segments + s;
      add_raw(pl, phase + k, i, (i + 1) % p, pl->n_segments, c);
    }
}

/* The all-gather-based allreduce (raw contributions; Faraj's dissertation
 * §4.1.1.1): a raw ring all-gather of 1 or 2 segments; recursive doubling
 * of the raw vectors (p a power of two, one segment: step k, i sends the
 * 2^k origins it holds to i ^ 2^k); or a binomial reduce to a root
 * (combining) followed by a raw ring all-gather, so that the root ends
 * with a complete partial and every other machine with a partial and raw
 * vectors that together cover everyone. */
static Plan *original_raw(int variant, int p, GRand *rng)
{
  Plan *pl = plan_new(NS_COLL_ALLREDUCE, p);
  if (variant % 3 == 1 && (p & (p - 1)) == 0 && p <= 2 * MAX_CHUNKS) {
    pl->n_segments = 1;
    uint32_t c[MAX_CHUNKS];
    for (int k = 0; (1 << k) < p; k++)
      for (int i = 0; i < p; i++) {
        int base = i & ~((1 << k) - 1); /* i holds origins base .. base + 2^k - 1 */
        for (int j = 0; j < (1 << k); j++)
          c[j] = (uint32_t)(base + j);
        add_raw(pl, k, i, i ^ (1 << k), (guint)(1 << k), c);
      }
    return pl;
  }
  pl->n_segments = (uint32_t)g_rand_int_range(rng, 1, 3);
  if (variant % 3 == 2) {
    pl->root = g_rand_int_range(rng, 0, p);
    raw_ring(pl, binomial_reduce(pl, 0));
    pl->root = -1;
  } else {
    raw_ring(pl, 0);
  }
  return pl;
}

static Plan *original(NsCollective coll, int variant, int p, GRand *rng)
{
  Plan *pl = plan_new(coll, p);
  switch (coll) {
  case NS_COLL_REDUCE:
    pl->root = g_rand_int_range(rng, 0, p);
    pl->n_segments = (uint32_t)g_rand_int_range(rng, 1, 4);
    binomial_reduce(pl, 0);
    break;
  case NS_COLL_ALLREDUCE:
    if (variant % 3 == 0) { /* ring: reduce-scatter (combine), all-gather (copy) */
      pl->n_segments = (uint32_t)p;
      if (g_rand_boolean(rng)) /* n bytes into p unequal blocks */
        pl->sizes = random_sizes(rng, (guint)p, 0);
      for (int k = 0; k < 2 * (p - 1); k++)
        for (int i = 0; i < p; i++) {
          uint32_t seg = (uint32_t)((k < p - 1 ? i - k : i + 1 - (k - (p - 1))) + 2 * p) %
                         (uint32_t)p;
          add(pl, k, i, (i + 1) % p, k < p - 1, 1, &seg);
        }
    } else if (variant % 3 == 1 && (p & (p - 1)) == 0) { /* recursive doubling */
      pl->n_segments = (uint32_t)g_rand_int_range(rng, 1, 3);
      uint32_t c[MAX_CHUNKS];
      segments_all(pl->n_segments, c);
      for (int k = 0; (1 << k) < p; k++)
        for (int i = 0; i < p; i++)
          add(pl, k, i, i ^ (1 << k), TRUE, pl->n_segments, c);
    } else { /* reduce to a root, broadcast back (copies) */
      pl->root = g_rand_int_range(rng, 0, p);
      pl->n_segments = (uint32_t)g_rand_int_range(rng, 1, 3);
      binomial_bcast(pl, binomial_reduce(pl, 0), pl->root);
      pl->root = -1;
    }
    break;
  case NS_COLL_ALLTOALLV: /* direct, shifted: phase k, i -> i + k; some zero-size pairs skipped */
    pl->sizes = random_sizes(rng, (guint)(p * p), 0.3);
    for (int k = 1; k < p; k++)
      for (int i = 0; i < p; i++) {
        uint32_t c = (uint32_t)(i * p + (i + k) % p);
        if (g_array_index(pl->sizes, uint64_t, c) > 0 || g_rand_boolean(rng))
          add(pl, k - 1, i, (i + k) % p, FALSE, 1, &c);
      }
    break;
  case NS_COLL_ALLGATHERV: /* ring: step k, i sends block i - k to i + 1 */
    pl->sizes = random_sizes(rng, (guint)p, 0.25);
    for (int k = 0; k < p - 1; k++)
      for (int i = 0; i < p; i++) {
        uint32_t c = (uint32_t)((i - k + p) % p);
        add(pl, k, i, (i + 1) % p, FALSE, 1, &c);
      }
    break;
  default:
    g_assert_not_reached();
  }
  return pl;
}

/* ======================================================================
 * The operators
 * ====================================================================== */

static guint pick(GRand *rng, guint n)
{
  return (guint)g_rand_int_range(rng, 0, (gint32)n);
}

static gboolean op_drop(Plan *pl, GRand *rng)
{
  g_array_remove_index(pl->x, pick(rng, pl->x->len));
  return TRUE;
}

static gboolean op_dup_same(Plan *pl, GRand *rng)
{
  X x = *xat(pl, pick(rng, pl->x->len));
  g_array_append_val(pl->x, x);
  return TRUE;
}

static gboolean op_dup_other(Plan *pl, GRand *rng)
{
  X x = *xat(pl, pick(rng, pl->x->len));
  x.phase = (int)pick(rng, (guint)n_phases(pl) + 1);
  g_array_append_val(pl->x, x);
  return TRUE;
}

static gboolean op_move(Plan *pl, GRand *rng)
{
  X *x = xat(pl, pick(rng, pl->x->len));
  int to = (int)pick(rng, (guint)n_phases(pl) + 1);
  if (to == x->phase)
    return FALSE;
  x->phase = to;
  return TRUE;
}

static gboolean op_redirect(Plan *pl, GRand *rng)
{
  X *x = xat(pl, pick(rng, pl->x->len));
  int m = (int)pick(rng, (guint)pl->p);
  gboolean dst = g_rand_boolean(rng);
  if (m == x->src || m == x->dst)
    return FALSE;
  if (dst)
    x->dst = m;
  else
    x->src = m;
  return TRUE;
}

static gboolean op_swap_ends(Plan *pl, GRand *rng)
{
  X *x = xat(pl, pick(rng, pl->x->len));
  int s = x->src;
  x->src = x->dst;
  x->dst = s;
  return TRUE;
}

static gboolean op_flip_combine(Plan *pl, GRand *rng)
{
  if (!ns_collective_is_reduction(pl->coll))
    return FALSE;
  X *x = xat(pl, pick(rng, pl->x->len));
  if (x->raw)
    return FALSE; /* a raw transfer never combines (schedule.h) */
  x->combine = !x->combine;
  return TRUE;
}

/* A raw transfer turned into a copy of the same segments, or a partial's
 * transfer into one of the sender's own raw chunks of them. */
static gboolean op_flip_raw(Plan *pl, GRand *rng)
{
  if (!ns_collective_is_reduction(pl->coll))
    return FALSE;
  X *x = xat(pl, pick(rng, pl->x->len));
  for (guint k = 0; k < x->n; k++)
    x->c[k] = x->raw ? x->c[k] % pl->n_segments : (uint32_t)x->src * pl->n_segments + x->c[k];
  x->raw = !x->raw;
  x->combine = FALSE;
  return TRUE;
}

/* Another segment or block in place of one the transfer carries. */
static gboolean op_change_chunk(Plan *pl, GRand *rng)
{
  X *x = xat(pl, pick(rng, pl->x->len));
  guint k = pick(rng, x->n);
  uint32_t c = pick(rng, ids_of(pl, x));
  if (c == x->c[k] || (pl->coll == NS_COLL_ALLTOALLV && c / (guint)pl->p == c % (guint)pl->p))
    return FALSE;
  x->c[k] = c;
  return TRUE;
}

/* A transfer carries one chunk more (perhaps one it carries already) or one less. */
static gboolean op_chunk_count(Plan *pl, GRand *rng)
{
  X *x = xat(pl, pick(rng, pl->x->len));
  if (g_rand_boolean(rng) && x->n > 1) {
    x->c[pick(rng, x->n)] = x->c[x->n - 1];
    x->n--;
    return TRUE;
  }
  if (x->n == MAX_CHUNKS)
    return FALSE;
  uint32_t c = g_rand_boolean(rng) ? x->c[pick(rng, x->n)] : pick(rng, ids_of(pl, x));
  if (pl->coll == NS_COLL_ALLTOALLV && c / (guint)pl->p == c % (guint)pl->p)
    return FALSE;
  x->c[x->n++] = c;
  return TRUE;
}

/* A chunk's size to 0, or from 0 to some bytes. */
static gboolean op_size(Plan *pl, GRand *rng)
{
  if (pl->sizes == NULL)
    return FALSE;
  uint64_t *v = &g_array_index(pl->sizes, uint64_t, pick(rng, pl->sizes->len));
  *v = *v > 0 ? 0 : 1 + pick(rng, 4000);
  return TRUE;
}

/* A transfer sent one phase earlier than its data can be there. */
static gboolean op_earlier(Plan *pl, GRand *rng)
{
  X *x = xat(pl, pick(rng, pl->x->len));
  if (x->phase == 0)
    return FALSE;
  x->phase--;
  return TRUE;
}

typedef struct {
  const char *name;
  gboolean (*apply)(Plan *pl, GRand *rng);
} Operator;

static const Operator operators[] = {
  { "none", NULL },
  { "drop", op_drop },
  { "dup-same-phase", op_dup_same },
  { "dup-other-phase", op_dup_other },
  { "move", op_move },
  { "earlier", op_earlier },
  { "redirect", op_redirect },
  { "swap-ends", op_swap_ends },
  { "flip-combine", op_flip_combine },
  { "flip-raw", op_flip_raw },
  { "change-chunk", op_change_chunk },
  { "chunk-count", op_chunk_count },
  { "size-zero", op_size },
};

/* ======================================================================
 * The test
 * ====================================================================== */

typedef struct {
  guint mutants, accepted, false_accepts, false_rejects;
} Stats;

static void describe(const Plan *pl, GString *out)
{
  for (guint i = 0; i < pl->x->len; i++) {
    const X *x = xat(pl, i);
    g_string_append_printf(out, " [%d]%s%d->%d:", x->phase,
                           x->raw ? "r" : x->combine ? "+" : "", x->src, x->dst);
    for (guint k = 0; k < x->n; k++)
      g_string_append_printf(out, "%s%u", k ? "," : "", x->c[k]);
  }
}

static void judge(const Plan *pl, const NsTopology *t, const Net *net, const char *op,
                  Stats *st)
{
  Verdict ref = reference(pl, net, 2 * ns_topology_n_links(t));
  Verdict got = verifier(pl, t);
  st->mutants++;
  gboolean ref_fails[3] = { ref.dataflow, ref.complete, ref.contention };
  gboolean got_fails[3] = { got.dataflow, got.complete, got.contention };
  gboolean all_pass = TRUE;
  for (int k = 0; k < 3; k++) {
    all_pass = all_pass && !got_fails[k];
    if (ref_fails[k] == got_fails[k])
      continue;
    if (ref_fails[k])
      st->false_accepts++;
    else
      st->false_rejects++;
    g_autoptr(GString) d = g_string_new(NULL);
    describe(pl, d);
    g_test_message("%s %s: check %s: reference %s, verifier %s;%s", ns_collective_name(pl->coll),
                   op, (const char *[]){ "dataflow", "complete", "contention" }[k],
                   ref_fails[k] ? "fails" : "passes", got_fails[k] ? "fails" : "passes", d->str);
  }
  st->accepted += all_pass;
}

/* `raw`: the originals are all-gather-based allreduces (original_raw). */
static void mutate_collective(NsCollective coll, guint n_trees, gboolean raw)
{
  Stats st = { 0 };
  for (guint tree = 0; tree < n_trees; tree++) {
    guint64 seed = 0x5eed0000u + tree * 7919u + (guint)coll + (raw ? 0x100u : 0u);
    g_autoptr(GRand) rng = g_rand_new_with_seed((guint32)seed);
    /* powers of two often, for recursive doubling */
    int p = tree % 2 == 0 ? 1 << g_rand_int_range(rng, 2, 5) : g_rand_int_range(rng, 3, 14);
    int switches = g_rand_int_range(rng, 1, MAX(2, p / 2));
    g_autoptr(NsTopology) t = ns_test_random_graph(seed, p, switches, 0);
    Net net;
    net_init(&net, t);
    int n_edges = 2 * ns_topology_n_links(t);
    Plan *base = raw ? original_raw((int)tree / 2, p, rng) : original(coll, (int)tree / 2, p, rng);
    spread(base, &net, n_edges);
    /* the original is correct and contention-free, by both */
    Verdict ref = reference(base, &net, n_edges), got = verifier(base, t);
    g_assert_false(ref.dataflow || ref.complete || ref.contention);
    g_assert_false(got.dataflow || got.complete || got.contention);
    for (guint op = 0; op < G_N_ELEMENTS(operators); op++)
      for (guint rep = 0, tries = 0; rep < 3 && tries < 30; tries++) {
        Plan *m = plan_copy(base);
        if (operators[op].apply == NULL || operators[op].apply(m, rng)) {
          judge(m, t, &net, operators[op].name, &st);
          rep++;
        }
        plan_free(m);
        if (operators[op].apply == NULL)
          break;
      }
    plan_free(base);
    g_ptr_array_unref(net.route);
  }
  g_test_message("%s%s: %u mutants, %u accepted, %u false accepts, %u false rejects",
                 ns_collective_name(coll), raw ? " (all-gather based)" : "", st.mutants, st.accepted, st.false_accepts,
                 st.false_rejects);
  g_assert_cmpuint(st.mutants, >=, 1000);
  g_assert_cmpuint(st.false_accepts, ==, 0);
  g_assert_cmpuint(st.false_rejects, ==, 0);
}

static void test_reduce(void)
{
  mutate_collective(NS_COLL_REDUCE, 40, FALSE);
}

static void test_allreduce(void)
{
  mutate_collective(NS_COLL_ALLREDUCE, 40, FALSE);
}

/* Raw contributions (schedule.h): the all-gather-based allreduce. */
static void test_allreduce_raw(void)
{
  mutate_collective(NS_COLL_ALLREDUCE, 40, TRUE);
}

static void test_alltoallv(void)
{
  mutate_collective(NS_COLL_ALLTOALLV, 40, FALSE);
}

static void test_allgatherv(void)
{
  mutate_collective(NS_COLL_ALLGATHERV, 40, FALSE);
}

/* The reference itself on hand-decided cases: a copy over a partial that
 * holds more loses contributions; two disjoint combines into one machine
 * in a phase are fine; an unsent chunk of 0 bytes is fine. */
static void test_reference_sanity(void)
{
  g_autoptr(NsTopology) t = ns_test_random_graph(1, 4, 1, 0);
  Net net;
  net_init(&net, t);
  int n_edges = 2 * ns_topology_n_links(t);
  Plan *pl = plan_new(NS_COLL_REDUCE, 4);
  pl->root = 0;
  pl->n_segments = 1;
  uint32_t s0 = 0;
  add(pl, 0, 1, 0, TRUE, 1, &s0);
  add(pl, 0, 2, 0, TRUE, 1, &s0);
  add(pl, 1, 3, 0, TRUE, 1, &s0);
  Verdict v = reference(pl, &net, n_edges);
  g_assert_false(v.complete || v.dataflow);
  g_assert_true(v.contention); /* two into machine 0 over its one link */
  xat(pl, 2)->combine = FALSE; /* 3's copy replaces 0's {0,1,2} */
  v = reference(pl, &net, n_edges);
  g_assert_true(v.complete);
  plan_free(pl);

  pl = plan_new(NS_COLL_ALLGATHERV, 2);
  pl->sizes = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  uint64_t sz[2] = { 5, 0 };
  g_array_append_vals(pl->sizes, sz, 2);
  add(pl, 0, 0, 1, FALSE, 1, &s0);
  g_ptr_array_unref(net.route);
  g_autoptr(NsTopology) t2 = ns_test_random_graph(2, 2, 1, 0);
  net_init(&net, t2);
  v = reference(pl, &net, 2 * ns_topology_n_links(t2));
  g_assert_false(v.complete || v.dataflow || v.contention);
  g_array_index(pl->sizes, uint64_t, 1) = 3; /* now machine 1's block is wanted */
  v = reference(pl, &net, 2 * ns_topology_n_links(t2));
  g_assert_true(v.complete);
  plan_free(pl);
  g_ptr_array_unref(net.route);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/verify-mutants-reduction/reference-sanity", test_reference_sanity);
  g_test_add_func("/verify-mutants-reduction/reduce", test_reduce);
  g_test_add_func("/verify-mutants-reduction/allreduce", test_allreduce);
  g_test_add_func("/verify-mutants-reduction/allreduce-raw", test_allreduce_raw);
  g_test_add_func("/verify-mutants-reduction/alltoallv", test_alltoallv);
  g_test_add_func("/verify-mutants-reduction/allgatherv", test_allgatherv);
  return g_test_run();
}
