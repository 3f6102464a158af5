/* Schedule JSON reader/writer: round trips and malformed documents (read
 * whole, and in reads of 1 and 7 bytes). */
#include "platforms/model/error.h"
#include "sched/io/schedule_json.h"
#include "sched/io/schedule_stream.h"
#include "platforms/model/units.h"
#include "sched/ir/sync.h"
#include "tests/testutil.h"

#include <glib/gstdio.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------- */

static void assert_same_schedule(const NsSchedule *a, const NsSchedule *b)
{
  g_assert_cmpint(a->collective, ==, b->collective);
  g_assert_cmpstr(a->algorithm, ==, b->algorithm);
  g_assert_cmpint(a->n_machines, ==, b->n_machines);
  for (int i = 0; i < a->n_machines; i++)
    g_assert_cmpstr(a->machines[i], ==, b->machines[i]);
  g_assert_null(b->machines[b->n_machines]);
  g_assert_cmpuint(a->msize, ==, b->msize);
  g_assert_cmpint(a->root, ==, b->root);
  g_assert_cmpuint(a->n_segments, ==, b->n_segments);
  g_assert_cmpint(a->execution, ==, b->execution);
  g_assert_cmpint(a->chunk_bytes != NULL, ==, b->chunk_bytes != NULL);
  for (guint c = 0; a->chunk_bytes != NULL && c < a->chunk_bytes->len; c++)
    g_assert_cmpuint(g_array_index(a->chunk_bytes, uint64_t, c), ==,
                     g_array_index(b->chunk_bytes, uint64_t, c));
  g_assert_cmpstr(a->sync_scheme, ==, b->sync_scheme);
  g_assert_cmpuint(a->routes->len, ==, b->routes->len);
  for (uint64_t t = 0; t < ns_schedule_n_transfers(a); t++) {
    const char *const *ra, *const *rb;
    int na = ns_schedule_route_of(a, t, &ra), nb = ns_schedule_route_of(b, t, &rb);
    g_assert_cmpint(na, ==, nb);
    for (int k = 0; k < na; k++)
      g_assert_cmpstr(ra[k], ==, rb[k]);
  }
  g_assert_cmpuint(ns_schedule_n_phases(a), ==, ns_schedule_n_phases(b));
  g_assert_cmpuint(ns_schedule_n_transfers(a), ==, ns_schedule_n_transfers(b));
  for (uint32_t p = 0; p < ns_schedule_n_phases(a); p++) {
    uint64_t fa, ca, fb, cb;
    ns_schedule_phase_range(a, p, &fa, &ca);
    ns_schedule_phase_range(b, p, &fb, &cb);
    g_assert_cmpuint(fa, ==, fb);
    g_assert_cmpuint(ca, ==, cb);
  }
  for (uint64_t t = 0; t < ns_schedule_n_transfers(a); t++) {
    const NsTransfer *ta = ns_schedule_transfer(a, t), *tb = ns_schedule_transfer(b, t);
    g_assert_cmpint(ta->src, ==, tb->src);
    g_assert_cmpint(ta->dst, ==, tb->dst);
    g_assert_cmpuint(ta->n_chunks, ==, tb->n_chunks);
    g_assert_cmpuint(ta->raw, ==, tb->raw);
    g_assert_cmpuint(ta->combine, ==, tb->combine);
    const uint32_t *ka = ns_schedule_chunks(a, ta), *kb = ns_schedule_chunks(b, tb);
    for (uint32_t k = 0; k < ta->n_chunks; k++)
      g_assert_cmpuint(ka[k], ==, kb[k]);
  }
  g_assert_cmpuint(a->sync->len, ==, b->sync->len);
  for (guint i = 0; i < a->sync->len; i++) {
    const NsSyncEdge *ea = &g_array_index(a->sync, NsSyncEdge, i);
    const NsSyncEdge *eb = &g_array_index(b->sync, NsSyncEdge, i);
    g_assert_cmpuint(ea->from, ==, eb->from);
    g_assert_cmpuint(ea->to, ==, eb->to);
  }
}

/* Writes s into memory (newly allocated text). */
static char *write_to_string(const NsSchedule *s, gsize *len)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  g_assert_nonnull(f);
  GError *err = NULL;
  gboolean ok = ns_schedule_write_json(s, f, &err);
  g_assert_no_error(err);
  g_assert_true(ok);
  g_assert_cmpint(fclose(f), ==, 0);
  *len = size;
  return buf;
}

/* Write -> parse -> compare -> write again: the text must be identical. */
static void round_trip(const NsSchedule *s)
{
  gsize len, len2;
  char *text = write_to_string(s, &len);
  GError *err = NULL;
  NsSchedule *back = ns_schedule_parse_json("rt.json", text, len, &err);
  g_assert_no_error(err);
  g_assert_nonnull(back);
  assert_same_schedule(s, back);
  char *text2 = write_to_string(back, &len2);
  g_assert_cmpstr(text, ==, text2);
  ns_schedule_free(back);
  free(text2);
  free(text);
}

static NsSchedule *make(NsCollective c, const char *algorithm, int n, uint64_t msize)
{
  char **names = g_new0(char *, n + 1);
  for (int i = 0; i < n; i++)
    names[i] = g_strdup_printf("node%02d", i);
  NsSchedule *s = ns_schedule_new(c, algorithm, n, (const char *const *)names, msize);
  g_strfreev(names);
  return s;
}

/* ---- round trips ----------------------------------------------------- */

/* Direct alltoall: phase k sends i -> (i + k) mod n, one chunk each, plus
 * pair-wise sync edges between consecutive phases. */
static void test_round_trip_alltoall(void)
{
  const int n = 6;
  NsSchedule *s = make(NS_COLL_ALLTOALL, "faraj", n, 65536);
  for (int k = 1; k < n; k++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < n; i++)
      ns_schedule_add(s, i, (i + k) % n, ns_a2a_chunk(n, i, (i + k) % n));
  }
  for (uint32_t t = 0; t + n < ns_schedule_n_transfers(s); t += 2)
    ns_schedule_add_sync(s, t, t + n);
  ns_schedule_relabel(s, "faraj", "sender-partial:2");
  /* a Bruck-like combined transfer in a last phase */
  ns_schedule_begin_phase(s);
  const uint32_t combined[] = { ns_a2a_chunk(n, 0, 3), ns_a2a_chunk(n, 5, 2),
                                ns_a2a_chunk(n, 4, 1) };
  ns_schedule_add_chunks(s, 0, 3, 3, combined);
  round_trip(s);

  gsize len;
  char *text = write_to_string(s, &len);
  /* line-oriented: one phase per line */
  g_assert_nonnull(strstr(text, "\n    [[0,1,[0,1]],[1,2,[1,2]],"));
  g_assert_nonnull(strstr(text, "\n    [[0,3,[0,3],[5,2],[4,1]]]\n  ]"));
  g_assert_nonnull(strstr(text, "\"sync_scheme\": \"sender-partial:2\",\n  \"sync\": [\n    [0,6],[2,8],"));
  free(text);
  ns_schedule_free(s);
}

/* Allgather by recursive doubling on 8 machines: transfers carry 1, 2 and
 * 4 origins. */
static void test_round_trip_allgather(void)
{
  const int n = 8;
  NsSchedule *s = make(NS_COLL_ALLGATHER, "recursive-doubling", n, 1000);
  for (int d = 1; d < n; d *= 2) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < n; i++) {
      int partner = i ^ d;
      uint32_t chunks[8];
      int base = i & ~(d - 1);
      for (int k = 0; k < d; k++)
        chunks[k] = (uint32_t)(base + k);
      ns_schedule_add_chunks(s, i, partner, (uint32_t)d, chunks);
    }
  }
  g_assert_cmpuint(ns_schedule_n_phases(s), ==, 3);
  g_assert_cmpuint(s->chunk_pool->len, ==, 8 * 2 + 8 * 4);
  round_trip(s);
  ns_schedule_free(s);
}

/* Pipelined bcast from root 2 (not 0), 4 segments, along a chain. */
static void test_round_trip_bcast(void)
{
  const int n = 5;
  NsSchedule *s = make(NS_COLL_BCAST, "pipeline", n, 4096);
  s->root = 2;
  s->n_segments = 4;
  const int chain[] = { 2, 0, 1, 3, 4 };
  for (int step = 0; step < 4 + n - 2; step++) {
    ns_schedule_begin_phase(s);
    for (int hop = 0; hop < n - 1; hop++) {
      int seg = step - hop;
      if (seg >= 0 && seg < 4)
        ns_schedule_add(s, chain[hop], chain[hop + 1], (uint32_t)seg);
    }
  }
  const uint32_t two[] = { 1, 3 };
  ns_schedule_add_chunks(s, 2, 4, 2, two);
  round_trip(s);

  gsize len;
  char *text = write_to_string(s, &len);
  g_assert_nonnull(strstr(text, "\"root\": \"node02\",\n  \"segments\": 4,"));
  free(text);
  ns_schedule_free(s);
}

/* Writes s as JSON Lines into memory. */
static char *write_lines_to_string(const NsSchedule *s, gsize *len)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  GError *err = NULL;
  g_assert_true(ns_schedule_write(s, NS_SCHEDULE_JSONL, f, &err));
  g_assert_no_error(err);
  g_assert_cmpint(fclose(f), ==, 0);
  *len = size;
  return buf;
}

/* JSON -> JSON Lines -> JSON: the same schedule and the same JSON text. */
static void round_trip_both(const NsSchedule *s)
{
  round_trip(s);
  gsize len, len2;
  char *lines = write_lines_to_string(s, &len);
  GError *err = NULL;
  NsSchedule *back = ns_schedule_parse_json("rt.jsonl", lines, len, &err);
  g_assert_no_error(err);
  assert_same_schedule(s, back);
  char *text = write_to_string(s, &len), *text2 = write_to_string(back, &len2);
  g_assert_cmpstr(text, ==, text2);
  ns_schedule_free(back);
  free(text);
  free(text2);
  free(lines);
}

/* Reductions: root and segments, the combine marker "+" (one chunk and
 * several), copies, sizes per segment (issue #22); the raw marker "r". */
static void test_round_trip_reductions(void)
{
  NsSchedule *s = make(NS_COLL_REDUCE, "binomial", 4, 1024);
  s->root = 1;
  s->n_segments = 2;
  const uint32_t both[] = { 0, 1 };
  ns_schedule_begin_phase(s);
  ns_schedule_add_combine(s, 0, 1, 2, both);
  ns_schedule_add_combine(s, 3, 2, 1, both + 1);
  ns_schedule_add(s, 2, 3, 0); /* a copy */
  ns_schedule_begin_phase(s);
  ns_schedule_add_combine(s, 2, 1, 1, both + 1);
  round_trip_both(s);
  gsize len;
  char *text = write_to_string(s, &len);
  g_assert_nonnull(strstr(text, "\"root\": \"node01\",\n  \"segments\": 2,\n  \"phases\""));
  g_assert_nonnull(strstr(text, "[[\"+\",0,1,0,1],[\"+\",3,2,1],[2,3,0]]"));
  free(text);
  text = write_lines_to_string(s, &len);
  g_assert_nonnull(strstr(text, "\n[[\"+\",0,1,0,1],[\"+\",3,2,1],[2,3,0]]\n[[\"+\",2,1,1]]\n"));
  free(text);
  ns_schedule_free(s);

  NsSchedule *a = make(NS_COLL_ALLREDUCE, "ring", 3, 1);
  a->n_segments = 3;
  const uint64_t sizes[] = { 400, 400, 399 };
  g_assert_true(ns_schedule_set_chunk_bytes(a, sizes, 3, NULL));
  ns_schedule_begin_phase(a);
  for (int m = 0; m < 3; m++)
    ns_schedule_add_combine(a, m, (m + 1) % 3, 1, (const uint32_t[]){ (uint32_t)m });
  round_trip_both(a);
  text = write_to_string(a, &len);
  g_assert_nonnull(strstr(text, "\"msize_bytes\": 400,"));
  g_assert_nonnull(strstr(text, "\"segments\": 3,\n  \"chunk_bytes\": [400,400,399],"));
  g_assert_null(strstr(text, "\"root\""));
  free(text);
  ns_schedule_free(a);

  /* the phases before the header keys: the markers replayed from the tape */
  const char *early = "{\"phases\":[[[\"+\",1,0,0],[0,2,0]]],\"format\":\"netsched-schedule\","
                      "\"version\":1,\"collective\":\"allreduce\",\"algorithm\":\"t\","
                      "\"machines\":[\"a\",\"b\",\"c\"],\"msize_bytes\":8,"
                      "\"execution\":\"phased\",\"segments\":1}";
  GError *err = NULL;
  NsSchedule *back = ns_schedule_parse_json("early.json", early, strlen(early), &err);
  g_assert_no_error(err);
  g_assert_cmpuint(ns_schedule_n_transfers(back), ==, 2);
  g_assert_true(ns_schedule_transfer(back, 0)->combine);
  g_assert_false(ns_schedule_transfer(back, 1)->combine);
  ns_schedule_free(back);

  /* raw contributions: ["r", src, dst, [origin, segment], ...], one chunk
   * and several, next to combines and copies */
  NsSchedule *r = make(NS_COLL_ALLREDUCE, "ag", 3, 64);
  r->n_segments = 2;
  const uint32_t raws[] = { ns_raw_chunk(2, 0, 1), ns_raw_chunk(2, 2, 0) };
  ns_schedule_begin_phase(r);
  ns_schedule_add_raw(r, 0, 1, 1, raws);
  ns_schedule_add_combine(r, 1, 2, 1, both);
  ns_schedule_begin_phase(r);
  ns_schedule_add_raw(r, 1, 2, 2, raws);
  round_trip_both(r);
  text = write_to_string(r, &len);
  g_assert_nonnull(strstr(text, "[[\"r\",0,1,[0,1]],[\"+\",1,2,0]]"));
  g_assert_nonnull(strstr(text, "[[\"r\",1,2,[0,1],[2,0]]]"));
  free(text);
  text = write_lines_to_string(r, &len);
  g_assert_nonnull(strstr(text, "\n[[\"r\",0,1,[0,1]],[\"+\",1,2,0]]\n[[\"r\",1,2,[0,1],[2,0]]]\n"));
  free(text);
  ns_schedule_free(r);
}

/* Size patterns: alltoallv's p² sizes (0 on the diagonal and for a pair
 * that sends nothing), allgatherv's p; JSON Lines' direct transfers. */
static void test_round_trip_vectors(void)
{
  NsSchedule *v = make(NS_COLL_ALLTOALLV, "simple", 3, 1);
  const uint64_t sizes[] = { 0, 5, 0, 7, 0, 9, 1, 2, 0 };
  g_assert_true(ns_schedule_set_chunk_bytes(v, sizes, 9, NULL));
  ns_schedule_begin_phase(v);
  ns_schedule_add(v, 0, 1, ns_a2a_chunk(3, 0, 1));
  ns_schedule_add(v, 1, 0, ns_a2a_chunk(3, 1, 0));
  ns_schedule_add(v, 1, 2, ns_a2a_chunk(3, 1, 2));
  ns_schedule_add(v, 2, 1, ns_a2a_chunk(3, 0, 1)); /* not direct: written in full */
  round_trip_both(v);
  gsize len;
  char *text = write_lines_to_string(v, &len);
  g_assert_nonnull(strstr(text, "\"chunk_bytes\":[0,5,0,7,0,9,1,2,0],"));
  g_assert_nonnull(strstr(text, "\n[[0,1],[1,0],[1,2],[2,1,[0,1]]]\n"));
  free(text);
  ns_schedule_free(v);

  NsSchedule *g = make(NS_COLL_ALLGATHERV, "ring", 2, 1);
  g_assert_true(ns_schedule_set_chunk_bytes(g, (const uint64_t[]){ 3, 0 }, 2, NULL));
  ns_schedule_begin_phase(g);
  ns_schedule_add(g, 0, 1, 0);
  round_trip_both(g);
  text = write_to_string(g, &len);
  g_assert_nonnull(strstr(text, "\"msize_bytes\": 3,"));
  free(text);
  ns_schedule_free(g);
}

/* Posted execution: one phase, posting order preserved. */
static void test_round_trip_posted(void)
{
  const int n = 4;
  NsSchedule *s = make(NS_COLL_ALLTOALL, "lam", n, 1);
  s->execution = NS_EXEC_POSTED;
  ns_schedule_begin_phase(s);
  for (int i = 0; i < n; i++)
    for (int j = n - 1; j >= 0; j--)
      if (i != j)
        ns_schedule_add(s, i, j, ns_a2a_chunk(n, i, j));
  round_trip(s);
  gsize len;
  char *text = write_to_string(s, &len);
  g_assert_nonnull(strstr(text, "\"execution\": \"posted\""));
  free(text);
  ns_schedule_free(s);
}

/* Names that need escaping, the largest message size, empty phases, no phases. */
/* Transfers' own routes survive a round trip (written in transfer order). */
static void test_round_trip_routes(void)
{
  const char *names[] = { "n0", "n1", "n2", "n3" };
  NsSchedule *s = ns_schedule_new(NS_COLL_ALLGATHER, "routed", 4, names, 64);
  ns_schedule_begin_phase(s);
  ns_schedule_add(s, 0, 2, 0);
  ns_schedule_add(s, 1, 3, 1);
  ns_schedule_set_route(s, 1, 3, (const char *const[]){ "n1", "n0", "n3" });
  round_trip(s);
  gsize len;
  char *text = write_to_string(s, &len);
  g_assert_nonnull(strstr(text, "\"routes\": [\n    [1, [\"n1\", \"n0\", \"n3\"]]\n  ]"));
  GError *err = NULL;
  NsSchedule *back = ns_schedule_parse_json("t.json", text, len, &err);
  g_assert_no_error(err);
  const char *const *nodes;
  g_assert_cmpint(ns_schedule_route_of(back, 1, &nodes), ==, 3);
  g_assert_cmpstr(nodes[1], ==, "n0");
  g_assert_cmpint(ns_schedule_route_of(back, 0, &nodes), ==, 0);
  ns_schedule_free(back);
  free(text);
  ns_schedule_free(s);
}

static void test_round_trip_edge_cases(void)
{
  const char *names[] = { "a\"b", "back\\slash", "tab\there", "nl\nx", "\x01ctl",
                          "caf\xc3\xa9", "\xf0\x9f\x98\x80", "/slash/" };
  NsSchedule *s = ns_schedule_new(NS_COLL_ALLGATHER, "odd \"name\"", G_N_ELEMENTS(names),
                                  names, NS_MAX_MSIZE);
  ns_schedule_begin_phase(s);
  ns_schedule_begin_phase(s); /* empty phase 0 */
  ns_schedule_add(s, 7, 0, 7);
  ns_schedule_begin_phase(s); /* empty last phase */
  round_trip(s);
  ns_schedule_free(s);

  NsSchedule *empty = make(NS_COLL_ALLTOALL, "none", 1, 8);
  round_trip(empty);
  gsize len;
  char *text = write_to_string(empty, &len);
  g_assert_nonnull(strstr(text, "\"phases\": []\n}\n"));
  free(text);
  ns_schedule_free(empty);
}

/* Keys this version does not know are ignored; key order is free; escapes
 * in names are decoded. */
static void test_unknown_keys_and_order(void)
{
  const char *doc =
    "{\"phases\": [[[1, 0, [1, 0]]], []], \"x-comment\": {\"nested\": [1, 2.5, null, true]},\n"
    " \"machines\": [\"m\\u00e9\", \"\\ud83d\\ude00\"], \"msize_bytes\": 1099511627775,\n"
    " \"algorithm\": \"hand\", \"collective\": \"alltoall\", \"execution\": \"phased\",\n"
    " \"sync\": [], \"version\": 1, \"format\": \"netsched-schedule\", \"future\": -1e300}";
  GError *err = NULL;
  NsSchedule *s = ns_schedule_parse_json("t.json", doc, strlen(doc), &err);
  g_assert_no_error(err);
  g_assert_cmpstr(s->machines[0], ==, "m\xc3\xa9");
  g_assert_cmpstr(s->machines[1], ==, "\xf0\x9f\x98\x80");
  g_assert_cmpuint(s->msize, ==, G_GUINT64_CONSTANT(1099511627775));
  g_assert_cmpuint(ns_schedule_n_phases(s), ==, 2);
  g_assert_cmpuint(ns_schedule_n_transfers(s), ==, 1);
  g_assert_cmpuint(ns_schedule_transfer(s, 0)->chunk, ==, ns_a2a_chunk(2, 1, 0));
  g_assert_cmpuint(s->sync->len, ==, 0);
  ns_schedule_free(s);
  /* Above the 1 TiB message limit: refused, so totals never overflow. */
  g_autofree char *big = g_strdup(doc);
  memcpy(strstr(big, "1099511627775"), "9007199254740", 13);
  g_assert_null(ns_schedule_parse_json("t.json", big, strlen(big), &err));
  g_assert_nonnull(strstr(err->message, "too large (at most 1099511627776)"));
  g_clear_error(&err);
}

/* The buffer need not be NUL-terminated: parsing stops at len. */
static void test_length_bounded(void)
{
  const char *doc =
    "{\"format\":\"netsched-schedule\",\"version\":1,\"collective\":\"allgather\","
    "\"algorithm\":\"x\",\"machines\":[\"a\",\"b\"],\"msize_bytes\":1,\"execution\":\"posted\","
    "\"phases\":[[[0,1,0],[1,0,1]]]}GARBAGE";
  GError *err = NULL;
  NsSchedule *s = ns_schedule_parse_json("t.json", doc, strlen(doc) - 7, &err);
  g_assert_no_error(err);
  g_assert_cmpint(s->execution, ==, NS_EXEC_POSTED);
  ns_schedule_free(s);
  s = ns_schedule_parse_json("t.json", doc, strlen(doc), &err);
  g_assert_null(s);
  g_assert_error(err, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(err->message, ==, "t.json:1:171: unexpected 'GARBAGE' after the end of the document");
  g_clear_error(&err);
}

static void test_files(void)
{
  char *dir = g_dir_make_tmp("netsched-json-XXXXXX", NULL);
  g_assert_nonnull(dir);
  char *path = g_build_filename(dir, "s.json", NULL);
  NsSchedule *s = make(NS_COLL_BCAST, "binomial", 3, 100);
  s->root = 1;
  s->n_segments = 1;
  ns_schedule_add(s, 1, 0, 0);
  ns_schedule_begin_phase(s);
  ns_schedule_add(s, 1, 2, 0);
  ns_schedule_add_sync(s, 0, 1);
  GError *err = NULL;
  g_assert_true(ns_schedule_save_json(s, path, &err));
  g_assert_no_error(err);
  NsSchedule *back = ns_schedule_load_json(path, &err);
  g_assert_no_error(err);
  assert_same_schedule(s, back);
  ns_schedule_free(back);

  /* a schedule the writer cannot express leaves no file behind */
  char *bad_path = g_build_filename(dir, "bad.json", NULL);
  s->root = 7;
  g_assert_false(ns_schedule_save_json(s, bad_path, &err));
  g_assert_error(err, NS_ERROR, NS_ERROR_INPUT);
  char *expected = g_strdup_printf("%s: cannot write schedule: bcast root 7 out of range "
                                   "(3 machines)", bad_path);
  g_assert_cmpstr(err->message, ==, expected);
  g_free(expected);
  g_clear_error(&err);
  g_assert_false(g_file_test(bad_path, G_FILE_TEST_EXISTS));

  /* missing file */
  char *missing = g_build_filename(dir, "missing.json", NULL);
  g_assert_null(ns_schedule_load_json(missing, &err));
  g_assert_error(err, NS_ERROR, NS_ERROR_IO);
  expected = g_strdup_printf("%s: cannot open: No such file or directory", missing);
  g_assert_cmpstr(err->message, ==, expected);
  g_free(expected);
  g_clear_error(&err);

  /* a directory */
  g_assert_null(ns_schedule_load_json(dir, &err));
  g_assert_error(err, NS_ERROR, NS_ERROR_IO);
  g_clear_error(&err);

  /* write errors are reported (ENOSPC on /dev/full) */
  FILE *full = fopen("/dev/full", "w");
  if (full != NULL) {
    s->root = 1;
    g_assert_false(ns_schedule_write_json(s, full, &err));
    g_assert_error(err, NS_ERROR, NS_ERROR_IO);
    g_assert_cmpstr(err->message, ==, "cannot write schedule: No space left on device");
    g_clear_error(&err);
    fclose(full);
  }

  ns_schedule_free(s);
  g_unlink(path);
  g_rmdir(dir);
  g_free(missing);
  g_free(bad_path);
  g_free(path);
  g_free(dir);
}

/* ---- malformed documents -------------------------------------------- */

#define HDR "\"format\":\"netsched-schedule\",\"version\":1,"
#define A2A HDR "\"collective\":\"alltoall\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\",\"c\"]," \
  "\"msize_bytes\":8,\"execution\":\"phased\","
#define AG HDR "\"collective\":\"allgather\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\",\"c\"]," \
  "\"msize_bytes\":8,\"execution\":\"phased\","
#define RD HDR "\"collective\":\"reduce\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\",\"c\"]," \
  "\"msize_bytes\":1,\"execution\":\"phased\","
#define AR HDR "\"collective\":\"allreduce\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\",\"c\"]," \
  "\"msize_bytes\":1,\"execution\":\"phased\","
#define AV HDR "\"collective\":\"alltoallv\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\",\"c\"]," \
  "\"msize_bytes\":1,\"execution\":\"phased\","
#define BC HDR "\"collective\":\"bcast\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\",\"c\"]," \
  "\"msize_bytes\":8,\"execution\":\"phased\","

typedef struct {
  const char *name;
  const char *doc;
  const char *message;
} BadCase;

static const BadCase bad_cases[] = {
  /* syntax */
  { "empty", "  \n ", "t.json: empty document" },
  { "unclosed", "{\n  \"a\": [1,\n", "t.json:3:1: unexpected end of input ('[' at line 2, column 8 is not closed)" },
  { "trailing-comma-array", "[1,]", "t.json:1:4: trailing comma before ']'" },
  { "trailing-comma-object", "{\"a\":1,}", "t.json:1:8: trailing comma before '}'" },
  { "two-documents", "{}\n{}", "t.json:2:1: unexpected '{' after the end of the document" },
  { "leading-zero", "{\n  \"a\": 01\n}", "t.json:2:8: malformed number '01'" },
  { "hex", "{\"a\": 0x10}", "t.json:1:7: malformed number '0x10'" },
  { "comment", "/* c */ {}", "t.json:1:1: expected a value, found '/'" },
  { "single-quotes", "{'a': 1}", "t.json:1:2: expected a string key or '}', found \"'\"" },
  { "raw-tab", "[\"a\tb\"]", "t.json:1:4: control character U+0009 in string (write it as an escape)" },
  { "nul-escape", "[\"a\\u0000\"]", "t.json:1:4: \\u0000 (NUL) is not allowed in strings" },
  { "lone-surrogate", "[\"\\ud800x\"]", "t.json:1:3: invalid \\u escape: high surrogate \\uD800 not followed by a low surrogate" },
  { "bad-escape", "[\"\\x41\"]", "t.json:1:3: invalid escape '\\x' in string" },
  { "bad-utf8", "[\"\xc3\x28\"]", "t.json:1:3: invalid UTF-8 in string" },
  { "huge-integer", "[99999999999999999999]", "t.json:1:2: integer 99999999999999999999 is out of range" },
  { "wrapping-negative", "[-18446744073709551615]", "t.json:1:2: integer -18446744073709551615 is out of range" },
  { "mismatched", "[1}", "t.json:1:3: '}' does not match the '[' at line 1, column 1" },
  { "missing-colon", "{\"a\" 1}", "t.json:1:6: expected ':' after the key, found '1'" },
  { "missing-comma", "[1 2]", "t.json:1:4: expected ',' or ']', found '2'" },
  { "bad-literal", "[nul]", "t.json:1:2: expected a value, found 'nul'" },
  { "nan", "[NaN]", "t.json:1:2: expected a value, found 'NaN'" },
  { "unterminated-string", "[\n \"abc", "t.json:2:2: unterminated string" },
  { "bom", "\xef\xbb\xbf{}", "t.json:1:1: byte order mark at the start of the document (not allowed in JSON)" },
  { "duplicate-key", "{\"a\":1,\n \"b\":{\"a\":2},\n \"a\":3}", "t.json:3:2: duplicate key \"a\" (first at line 1)" },
  { "duplicate-key-escaped", "{\"format\":1,\"\\u0066ormat\":2}", "t.json: $: duplicate key in the top-level object (written with different escapes)" },
  { "column-counts-characters", "[\"\xc3\xa9\xc3\xa9\", x]", "t.json:1:8: expected a value, found 'x'" },
  /* document */
  { "not-object", "[]", "t.json: $: expected an object, got an array" },
  { "no-format", "{}", "t.json: $: missing required key \"format\"" },
  { "wrong-format", "{\"format\":\"netsched-topology\"}", "t.json: $.format: expected \"netsched-schedule\", got \"netsched-topology\"" },
  { "version-2", "{\"format\":\"netsched-schedule\",\"version\":2,\"whatever\":[]}", "t.json: $.version: unsupported version 2 (this netsched reads version 1)" },
  { "version-string", "{\"format\":\"netsched-schedule\",\"version\":\"1\"}", "t.json: $.version: expected the version (an integer), got a string" },
  { "unknown-collective", "{" HDR "\"collective\":\"scatter\"}", "t.json: $.collective: unknown collective \"scatter\" (expected alltoall, allgather, bcast, reduce, allreduce, alltoallv or allgatherv)" },
  { "empty-algorithm", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"\"}", "t.json: $.algorithm: empty algorithm name" },
  { "no-machines", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[]}", "t.json: $.machines: no machines" },
  { "machines-object", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":{}}", "t.json: $.machines: expected an array of machine names, got an object" },
  { "machine-not-string", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[\"a\",7]}", "t.json: $.machines[1]: expected a machine name (a string), got an integer" },
  { "machine-empty", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[\"a\",\"\"]}", "t.json: $.machines[1]: empty machine name" },
  { "machine-duplicate", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[\"a\",\"b\",\"a\"]}", "t.json: $.machines[2]: duplicate machine name \"a\" (also $.machines[0])" },
  { "msize-missing", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[\"a\"]}", "t.json: $: missing required key \"msize_bytes\"" },
  { "msize-zero", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[\"a\"],\"msize_bytes\":0}", "t.json: $.msize_bytes: the message size must be positive, got 0" },
  { "msize-negative", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[\"a\"],\"msize_bytes\":-8}", "t.json: $.msize_bytes: the message size must be positive, got -8" },
  { "msize-fraction", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[\"a\"],\"msize_bytes\":1.5}", "t.json: $.msize_bytes: expected the message size (an integer), got a number with a fraction or exponent" },
  { "msize-exponent", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[\"a\"],\"msize_bytes\":1e3}", "t.json: $.msize_bytes: expected the message size (an integer), got a number with a fraction or exponent" },
  { "unknown-execution", "{" HDR "\"collective\":\"bcast\",\"algorithm\":\"x\",\"machines\":[\"a\"],\"msize_bytes\":1,\"execution\":\"async\"}", "t.json: $.execution: unknown execution \"async\" (expected \"phased\" or \"posted\")" },
  { "root-in-alltoall", "{" A2A "\"root\":\"a\",\"phases\":[]}", "t.json: $.root: only bcast and reduce schedules have \"root\" (this is alltoall)" },
  { "segments-in-allgather", "{" AG "\"segments\":2,\"phases\":[]}", "t.json: $.segments: only bcast, reduce and allreduce schedules have \"segments\" (this is allgather)" },
  /* reductions and size patterns (issue #22) */
  { "root-in-allreduce", "{" AR "\"root\":\"a\",\"segments\":1,\"phases\":[]}", "t.json: $.root: only bcast and reduce schedules have \"root\" (this is allreduce)" },
  { "reduce-no-root", "{" RD "\"segments\":2,\"phases\":[]}", "t.json: $: missing required key \"root\"" },
  { "allreduce-no-segments", "{" AR "\"phases\":[]}", "t.json: $: missing required key \"segments\"" },
  { "combine-in-bcast", "{" BC "\"root\":\"a\",\"segments\":2,\"phases\":[[[\"+\",0,1,0]]]}", "t.json: $.phases[0][0][0]: only reduce and allreduce transfers combine (this is bcast)" },
  { "combine-other-string", "{" AR "\"segments\":2,\"phases\":[[[\"*\",0,1,0]]]}", "t.json: $.phases[0][0][0]: expected a machine index, the combine marker \"+\" or the raw marker \"r\", got another string" },
  { "combine-segment-range", "{" AR "\"segments\":2,\"phases\":[[[\"+\",0,1,2]]]}", "t.json: $.phases[0][0][3]: segment 2 out of range (2 segments)" },
  { "combine-no-segment", "{" AR "\"segments\":2,\"phases\":[[[\"+\",0,1]]]}", "t.json: $.phases[0][0]: a transfer is [src, dst, chunk, ...] with at least one chunk, got 2 elements" },
  { "combine-marker-late", "{" AR "\"segments\":2,\"phases\":[[[0,\"+\",1,0]]]}", "t.json: $.phases[0][0][1]: expected a machine index (an integer), got a string" },
  { "combine-before-header", "{\"phases\":[[[\"-\",0,1,0]]]," AR "\"segments\":2}", "t.json: $.phases[0][0][0]: expected a machine index, the combine marker \"+\" or the raw marker \"r\", got another string" },
  /* raw contributions ["r", src, dst, [origin, segment], ...] (schedule.h) */
  { "raw-in-allgather", "{" AG "\"phases\":[[[\"r\",0,1,0]]]}", "t.json: $.phases[0][0][0]: only reduce and allreduce transfers carry raw contributions (this is allgather)" },
  { "raw-bare-chunk", "{" AR "\"segments\":2,\"phases\":[[[\"r\",0,1,0]]]}", "t.json: $.phases[0][0][3]: expected a raw contribution [origin, segment], got an integer" },
  { "raw-short-chunk", "{" AR "\"segments\":2,\"phases\":[[[\"r\",0,1,[0]]]]}", "t.json: $.phases[0][0][3]: a raw contribution is [origin, segment], got 1 element" },
  { "raw-origin-range", "{" AR "\"segments\":2,\"phases\":[[[\"r\",0,1,[3,0]]]]}", "t.json: $.phases[0][0][3][0]: machine index 3 out of range (3 machines)" },
  { "raw-segment-range", "{" AR "\"segments\":2,\"phases\":[[[\"r\",0,1,[0,2]]]]}", "t.json: $.phases[0][0][3][1]: segment 2 out of range (2 segments)" },
  { "raw-segment-negative", "{" AR "\"segments\":2,\"phases\":[[[\"r\",0,1,[0,-1]]]]}", "t.json: $.phases[0][0][3][1]: segment -1 out of range (2 segments)" },
  { "raw-segment-string", "{" AR "\"segments\":2,\"phases\":[[[\"r\",0,1,[0,\"1\"]]]]}", "t.json: $.phases[0][0][3][1]: expected a segment index (an integer), got a string" },
  { "raw-no-chunk", "{" AR "\"segments\":2,\"phases\":[[[\"r\",0,1]]]}", "t.json: $.phases[0][0]: a transfer is [src, dst, chunk, ...] with at least one chunk, got 2 elements" },
  { "raw-marker-late", "{" AR "\"segments\":2,\"phases\":[[[0,1,\"r\",[0,0]]]]}", "t.json: $.phases[0][0][2]: expected a segment index (an integer), got a string" },
  { "raw-and-combine", "{" AR "\"segments\":2,\"phases\":[[[\"r\",\"+\",0,1,[0,0]]]]}", "t.json: $.phases[0][0][1]: expected a machine index (an integer), got a string" },
  { "raw-too-many-ids", "{" HDR "\"collective\":\"allreduce\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\",\"c\"],\"msize_bytes\":8,\"execution\":\"phased\",\"segments\":2147483647,\"phases\":[[[\"r\",0,1,[0,0]]]]}", "t.json: $.phases[0][0][3]: raw contributions need fewer than 2^32 of them (machines × segments: 3 × 2147483647)" },
  { "sizes-missing", "{" AV "\"phases\":[]}", "t.json: $: missing required key \"chunk_bytes\"" },
  { "sizes-in-alltoall", "{" A2A "\"chunk_bytes\":[1,1,1,1,1,1,1,1,1],\"phases\":[]}", "t.json: $.chunk_bytes: only reduce, allreduce, alltoallv and allgatherv schedules have \"chunk_bytes\" (this is alltoall)" },
  { "sizes-count", "{" AV "\"chunk_bytes\":[0,1,1],\"phases\":[]}", "t.json: $.chunk_bytes: alltoallv on 3 machines takes 9 chunk sizes (one per ordered pair of machines), got 3" },
  { "sizes-count-segments", "{" AR "\"segments\":2,\"chunk_bytes\":[1],\"phases\":[]}", "t.json: $.chunk_bytes: allreduce on 3 machines takes 2 chunk sizes (one per segment), got 1" },
  { "sizes-negative", "{" AV "\"chunk_bytes\":[0,1,1,1,-4,1,1,1,0],\"phases\":[]}", "t.json: $.chunk_bytes[4]: chunk size -4 out of range (0 to 1099511627776 bytes)" },
  { "sizes-huge", "{" AV "\"chunk_bytes\":[0,1,1,1,1099511627777,1,1,1,0],\"phases\":[]}", "t.json: $.chunk_bytes[4]: chunk size 1099511627777 out of range (0 to 1099511627776 bytes)" },
  { "sizes-string", "{" AV "\"chunk_bytes\":[0,\"1\"],\"phases\":[]}", "t.json: $.chunk_bytes[1]: expected a chunk size in bytes (an integer), got a string" },
  { "sizes-object", "{" AV "\"chunk_bytes\":{},\"phases\":[]}", "t.json: $.chunk_bytes: expected an array of chunk sizes in bytes, got an object" },
  { "sizes-msize", "{" HDR "\"collective\":\"allgatherv\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\"],\"msize_bytes\":8,\"execution\":\"phased\",\"chunk_bytes\":[4,2],\"phases\":[]}", "t.json: $.msize_bytes: 8 is not the largest chunk size (4; at least 1): a schedule with \"chunk_bytes\" gives it as msize_bytes" },
  { "sizes-after-phases", "{" AR "\"segments\":1,\"phases\":[],\"chunk_bytes\":[1]}", "t.json: $.chunk_bytes: \"chunk_bytes\" must come before \"phases\"" },
  { "bcast-no-root", "{" BC "\"segments\":2,\"phases\":[]}", "t.json: $: missing required key \"root\"" },
  { "bcast-unknown-root", "{" BC "\"root\":\"z\",\"segments\":2,\"phases\":[]}", "t.json: $.root: root \"z\" is not one of the machines" },
  { "bcast-root-index", "{" BC "\"root\":0,\"segments\":2,\"phases\":[]}", "t.json: $.root: expected the root machine (a string), got an integer" },
  { "bcast-no-segments", "{" BC "\"root\":\"a\",\"phases\":[]}", "t.json: $: missing required key \"segments\"" },
  { "bcast-segments-zero", "{" BC "\"root\":\"a\",\"segments\":0,\"phases\":[]}", "t.json: $.segments: the number of segments must be positive, got 0" },
  { "bcast-segments-huge", "{" BC "\"root\":\"a\",\"segments\":2147483648,\"phases\":[]}", "t.json: $.segments: the number of segments 2147483648 is too large (at most 2147483647)" },
  { "no-phases", "{" A2A "\"sync\":[]}", "t.json: $: missing required key \"phases\"" },
  { "phases-object", "{" A2A "\"phases\":{}}", "t.json: $.phases: expected an array of phases, got an object" },
  { "posted-two-phases", "{" HDR "\"collective\":\"allgather\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\"],\"msize_bytes\":8,\"execution\":\"posted\",\"phases\":[[],[]]}", "t.json: $.phases: posted execution needs exactly 1 phase, got 2" },
  { "posted-no-phase", "{" HDR "\"collective\":\"allgather\",\"algorithm\":\"t\",\"machines\":[\"a\",\"b\"],\"msize_bytes\":8,\"execution\":\"posted\",\"phases\":[]}", "t.json: $.phases: posted execution needs exactly 1 phase, got 0" },
  /* transfers */
  { "phase-not-array", "{" A2A "\"phases\":[[],3]}", "t.json: $.phases[1]: expected a phase (an array of transfers), got an integer" },
  { "transfer-object", "{" A2A "\"phases\":[[{\"src\":0}]]}", "t.json: $.phases[0][0]: expected a transfer [src, dst, chunk, ...], got an object" },
  { "transfer-no-chunk", "{" A2A "\"phases\":[[[0,1]]]}", "t.json: $.phases[0][0]: a transfer is [src, dst, chunk, ...] with at least one chunk, got 2 elements" },
  { "src-out-of-range", "{" A2A "\"phases\":[[[0,1,[0,1]]],[[1,2,[1,2]],[40,1,[0,1]]]]}", "t.json: $.phases[1][1][0]: machine index 40 out of range (3 machines)" },
  { "dst-negative", "{" A2A "\"phases\":[[[0,-1,[0,1]]]]}", "t.json: $.phases[0][0][1]: machine index -1 out of range (3 machines)" },
  { "index-beyond-int32", "{" A2A "\"phases\":[[[0,4294967297,[0,1]]]]}", "t.json: $.phases[0][0][1]: machine index 4294967297 out of range (3 machines)" },
  { "index-string", "{" A2A "\"phases\":[[[\"a\",1,[0,1]]]]}", "t.json: $.phases[0][0][0]: expected a machine index (an integer), got a string" },
  { "index-float", "{" A2A "\"phases\":[[[0.0,1,[0,1]]]]}", "t.json: $.phases[0][0][0]: expected a machine index (an integer), got a number with a fraction or exponent" },
  { "self-transfer", "{" A2A "\"phases\":[[[0,1,[0,1]],[1,1,[1,0]]]]}", "t.json: $.phases[0][1]: transfer from machine 1 (b) to itself" },
  { "a2a-chunk-integer", "{" A2A "\"phases\":[[[0,1,1]]]}", "t.json: $.phases[0][0][2]: expected an alltoall chunk [origin, destination], got an integer" },
  { "a2a-chunk-triple", "{" A2A "\"phases\":[[[0,1,[0,1],[0,1,2]]]]}", "t.json: $.phases[0][0][3]: an alltoall chunk is [origin, destination], got 3 elements" },
  { "a2a-chunk-self", "{" A2A "\"phases\":[[[0,1,[1,1]]]]}", "t.json: $.phases[0][0][2]: chunk origin and destination are the same machine (1)" },
  { "a2a-chunk-range", "{" A2A "\"phases\":[[[0,1,[0,3]]]]}", "t.json: $.phases[0][0][2][1]: machine index 3 out of range (3 machines)" },
  { "allgather-chunk-range", "{" AG "\"phases\":[[[0,1,0,5]]]}", "t.json: $.phases[0][0][3]: machine index 5 out of range (3 machines)" },
  { "allgather-chunk-bool", "{" AG "\"phases\":[[[0,1,true]]]}", "t.json: $.phases[0][0][2]: expected a machine index (an integer), got a boolean" },
  { "allgather-chunk-null", "{" AG "\"phases\":[[[0,1,null]]]}", "t.json: $.phases[0][0][2]: expected a machine index (an integer), got null" },
  { "bcast-segment-range", "{" BC "\"root\":\"b\",\"segments\":4,\"phases\":[[[1,0,0],[1,2,4]]]}", "t.json: $.phases[0][1][2]: segment 4 out of range (4 segments)" },
  { "bcast-segment-negative", "{" BC "\"root\":\"b\",\"segments\":4,\"phases\":[[[1,0,-1]]]}", "t.json: $.phases[0][0][2]: segment -1 out of range (4 segments)" },
  /* sync */
  { "sync-object", "{" AG "\"phases\":[[[0,1,0]]],\"sync\":{}}", "t.json: $.sync: expected an array of sync edges, got an object" },
  { "sync-triple", "{" AG "\"phases\":[[[0,1,0]]],\"sync\":[[0,0,0]]}", "t.json: $.sync[0]: a sync edge is [from, to], got 3 elements" },
  { "sync-range", "{" AG "\"phases\":[[[0,1,0],[1,2,1]],[[1,0,1]]],\"sync\":[[0,2],[1,3]]}", "t.json: $.sync[1][1]: transfer index 3 out of range (3 transfers)" },
  { "sync-negative", "{" AG "\"phases\":[[[0,1,0],[1,2,1]]],\"sync\":[[-1,1]]}", "t.json: $.sync[0][0]: transfer index -1 out of range (2 transfers)" },
  { "sync-self", "{" AG "\"phases\":[[[0,1,0],[1,2,1]]],\"sync\":[[1,1]]}", "t.json: $.sync[0]: transfer 1 cannot wait for itself" },
  { "sync-scheme-integer", "{" AG "\"phases\":[],\"sync_scheme\":3}", "t.json: $.sync_scheme: expected a sync scheme name (a string), got an integer" },
  { "sync-null", "{" AG "\"phases\":[],\"sync\":null}", "t.json: $.sync: expected an array of sync edges, got null" },
};

/* The reader streams: the same message whatever the size of its reads
 * (1 and 7 bytes cross every token boundary). */
static void expect_error_in_reads(const char *doc, gsize len, const char *message)
{
  const gsize sizes[] = { 1, 7 };
  for (unsigned i = 0; i < G_N_ELEMENTS(sizes); i++) {
    GError *err = NULL;
    NsScheduleReader *r = ns_schedule_reader_new_for_data("t.json", doc, len);
    ns_schedule_reader_set_read_size(r, sizes[i]);
    NsSchedule *s = ns_schedule_reader_read_all(r, &err);
    ns_schedule_reader_free(r);
    g_assert_null(s);
    g_assert_error(err, NS_ERROR, NS_ERROR_INPUT);
    g_assert_cmpstr(err->message, ==, message);
    g_error_free(err);
  }
}

static void test_bad(gconstpointer data)
{
  const BadCase *c = data;
  GError *err = NULL;
  NsSchedule *s = ns_schedule_parse_json("t.json", c->doc, strlen(c->doc), &err);
  g_assert_null(s);
  g_assert_error(err, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(err->message, ==, c->message);
  g_error_free(err);
  expect_error_in_reads(c->doc, strlen(c->doc), c->message);
}

static void expect_error(const char *doc, gsize len, const char *message)
{
  GError *err = NULL;
  NsSchedule *s = ns_schedule_parse_json("t.json", doc, len, &err);
  g_assert_null(s);
  g_assert_error(err, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(err->message, ==, message);
  g_error_free(err);
  if (len < 4096)
    expect_error_in_reads(doc, len, message);
}

/* Built documents: deep nesting (json-glib 1.6 would overflow its stack),
 * an embedded NUL byte, too many machines for the alltoall chunk encoding. */
static void test_bad_built(void)
{
  GString *deep = g_string_new("");
  for (int i = 0; i < 100000; i++)
    g_string_append_c(deep, '[');
  expect_error(deep->str, deep->len, "t.json:1:65: nesting deeper than 64 levels");
  g_string_free(deep, TRUE);

  const char nul[] = "{\"a\":\"x\0y\"}";
  expect_error(nul, sizeof nul - 1, "t.json:1:8: control character U+0000 in string (write it as an escape)");
  const char nul2[] = "{}\0";
  expect_error(nul2, sizeof nul2 - 1, "t.json:1:3: unexpected byte 0x00 after the end of the document");

  GString *big = g_string_new("{" HDR "\"collective\":\"alltoall\",\"algorithm\":\"x\",\"machines\":[");
  for (int i = 0; i <= 65536; i++)
    g_string_append_printf(big, "%s\"m%d\"", i ? "," : "", i);
  g_string_append(big, "],\"msize_bytes\":1,\"execution\":\"phased\",\"phases\":[]}");
  expect_error(big->str, big->len, "t.json: $.machines: too many machines (65537; alltoall supports at most 65536)");
  g_string_free(big, TRUE);

  /* an unknown sync scheme lists the known ones */
  const char *scheme = "{" AG "\"phases\":[],\"sync_scheme\":\"fast\"}";
  char *expected = g_strdup_printf("t.json: $.sync_scheme: unknown sync scheme 'fast' (known: %s)",
                                   ns_sync_scheme_names());
  expect_error(scheme, strlen(scheme), expected);
  g_free(expected);

  /* a NULL source still gives a located message */
  GError *err = NULL;
  g_assert_null(ns_schedule_parse_json(NULL, "[", 1, &err));
  g_assert_cmpstr(err->message, ==, "<schedule>:1:2: unexpected end of input ('[' at line 1, column 1 is not closed)");
  g_clear_error(&err);
}

/* Files under tests/data/bad-schedules/: realistic multi-line documents,
 * loaded from disk so the message carries the path. */
static const struct {
  const char *file;
  const char *message; /* after "<path>" */
} bad_files[] = {
  { "trailing-comma.json", ":11:5: trailing comma before ']'" },
  { "unclosed.json", ":13:1: unexpected end of input ('{' at line 1, column 1 is not closed)" },
  { "index-out-of-range.json", ": $.phases[1][2][1]: machine index 4 out of range (4 machines)" },
  { "version-2.json", ": $.version: unsupported version 2 (this netsched reads version 1)" },
  { "bcast-segment.json", ": $.phases[2][0][3]: segment 3 out of range (3 segments)" },
  { "sync-range.json", ": $.sync[2][1]: transfer index 12 out of range (12 transfers)" },
  { "posted-phases.json", ": $.phases: posted execution needs exactly 1 phase, got 3" },
};

static void test_bad_files(void)
{
  for (unsigned i = 0; i < G_N_ELEMENTS(bad_files); i++) {
    char *rel = g_build_filename("bad-schedules", bad_files[i].file, NULL);
    char *path = ns_test_data(rel);
    GError *err = NULL;
    NsSchedule *s = ns_schedule_load_json(path, &err);
    g_assert_null(s);
    g_assert_error(err, NS_ERROR, NS_ERROR_INPUT);
    char *expected = g_strconcat(path, bad_files[i].message, NULL);
    g_assert_cmpstr(err->message, ==, expected);
    g_free(expected);
    g_error_free(err);
    g_free(path);
    g_free(rel);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/schedule-json/round-trip/alltoall", test_round_trip_alltoall);
  g_test_add_func("/schedule-json/round-trip/allgather", test_round_trip_allgather);
  g_test_add_func("/schedule-json/round-trip/bcast", test_round_trip_bcast);
  g_test_add_func("/schedule-json/round-trip/routes", test_round_trip_routes);
  g_test_add_func("/schedule-json/round-trip/posted", test_round_trip_posted);
  g_test_add_func("/schedule-json/round-trip/reductions", test_round_trip_reductions);
  g_test_add_func("/schedule-json/round-trip/vectors", test_round_trip_vectors);
  g_test_add_func("/schedule-json/round-trip/edge-cases", test_round_trip_edge_cases);
  g_test_add_func("/schedule-json/unknown-keys", test_unknown_keys_and_order);
  g_test_add_func("/schedule-json/length-bounded", test_length_bounded);
  g_test_add_func("/schedule-json/files", test_files);
  for (unsigned i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
    char *name = g_strdup_printf("/schedule-json/bad/%s", bad_cases[i].name);
    g_test_add_data_func(name, &bad_cases[i], test_bad);
    g_free(name);
  }
  g_test_add_func("/schedule-json/bad/built", test_bad_built);
  g_test_add_func("/schedule-json/bad/files", test_bad_files);
  return g_test_run();
}
