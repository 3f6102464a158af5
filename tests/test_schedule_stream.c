/* Schedule streams: JSON <-> JSON Lines round trips, reads in chunks of
 * any size, keys in any order, gzip and zstd, bounded memory, the JSON
 * Lines errors, the fast path for transfers against the general one, and
 * the verifier session against ns_verify. */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "platforms/model/units.h"
#include "platforms/io/topology_io.h"
#include "sched/planners/registry.h"
#include "sched/io/schedule_json.h"
#include "sched/io/schedule_stream.h"
#include "sched/io/schedule_stream_internal.h"
#include "sched/io/schedule_stream_ahead_internal.h"
#include "sched/ir/sync.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <zstd.h>

/* ---- helpers --------------------------------------------------------- */

static char *write_text(const NsSchedule *s, NsScheduleFormat format, gsize *len)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  g_assert_nonnull(f);
  GError *err = NULL;
  g_assert_true(ns_schedule_write(s, format, f, &err));
  g_assert_no_error(err);
  g_assert_cmpint(fclose(f), ==, 0);
  *len = size;
  return buf;
}

/* Reads `text` asking `read_size` bytes at a time (0: the default). */
static NsSchedule *read_text(const char *text, gsize len, gsize read_size, GError **err)
{
  NsScheduleReader *r = ns_schedule_reader_new_for_data("t.json", text, len);
  if (read_size > 0)
    ns_schedule_reader_set_read_size(r, read_size);
  NsSchedule *s = ns_schedule_reader_read_all(r, err);
  ns_schedule_reader_free(r);
  return s;
}

/* The same schedule: written as JSON, the same text. */
static void assert_same(const NsSchedule *a, const NsSchedule *b)
{
  gsize la, lb;
  char *ta = write_text(a, NS_SCHEDULE_JSON, &la), *tb = write_text(b, NS_SCHEDULE_JSON, &lb);
  g_assert_cmpstr(ta, ==, tb);
  free(ta);
  free(tb);
}

static const char *const schemes[] = { "sender-all", "receiver-partial:2", "light",
                                       "barrier-all" };

/* A random schedule of collective c: random transfers (shape-valid, not a
 * correct collective), multi-chunk ones, empty phases, sync edges, routes,
 * a scheme, odd names; posted sometimes. */
static NsSchedule *random_schedule(GRand *rng, NsCollective c)
{
  int n = g_rand_int_range(rng, 2, 14);
  char **names = g_new0(char *, n + 1);
  for (int i = 0; i < n; i++)
    names[i] = g_rand_int_range(rng, 0, 8) == 0 ? g_strdup_printf("m\"%d\\\xc3\xa9\t", i)
                                                  : g_strdup_printf("n%d", i);
  NsSchedule *s = ns_schedule_new(c, g_rand_boolean(rng) ? "random" : "r\\nd", n,
                                  (const char *const *)names, (uint64_t)g_rand_int_range(rng, 1, 1 << 20));
  g_strfreev(names);
  if (c == NS_COLL_BCAST) {
    s->root = g_rand_int_range(rng, 0, n);
    s->n_segments = (uint32_t)g_rand_int_range(rng, 1, 6);
  }
  gboolean posted = g_rand_int_range(rng, 0, 5) == 0;
  s->execution = posted ? NS_EXEC_POSTED : NS_EXEC_PHASED;
  int phases = posted ? 1 : g_rand_int_range(rng, 0, 7);
  for (int p = 0; p < phases; p++) {
    ns_schedule_begin_phase(s);
    int m = g_rand_int_range(rng, 0, 9);
    for (int i = 0; i < m; i++) {
      int src = g_rand_int_range(rng, 0, n), dst = (src + g_rand_int_range(rng, 1, n)) % n;
      uint32_t chunks[5];
      int k = g_rand_int_range(rng, 0, 3) == 0 ? g_rand_int_range(rng, 2, 6) : 1;
      for (int j = 0; j < k; j++) {
        if (c == NS_COLL_ALLTOALL) {
          int o = g_rand_int_range(rng, 0, n), d = (o + g_rand_int_range(rng, 1, n)) % n;
          if (j == 0 && g_rand_boolean(rng)) /* the direct message, often */
            o = src, d = dst;
          chunks[j] = ns_a2a_chunk(n, o, d);
        } else if (c == NS_COLL_ALLGATHER) {
          chunks[j] = j == 0 && g_rand_boolean(rng) ? (uint32_t)src
                                                    : (uint32_t)g_rand_int_range(rng, 0, n);
        } else {
          chunks[j] = (uint32_t)g_rand_int_range(rng, 0, (gint32)s->n_segments);
        }
      }
      ns_schedule_add_chunks(s, src, dst, (uint32_t)k, chunks);
    }
  }
  uint32_t nt = (uint32_t)ns_schedule_n_transfers(s);
  if (nt >= 2 && g_rand_boolean(rng)) {
    int e = g_rand_int_range(rng, 1, 40);
    for (int i = 0; i < e; i++) {
      uint32_t a = (uint32_t)g_rand_int_range(rng, 0, (gint32)nt);
      uint32_t b = (a + (uint32_t)g_rand_int_range(rng, 1, (gint32)nt)) % nt;
      ns_schedule_add_sync(s, a, b);
    }
  }
  if (g_rand_boolean(rng))
    s->sync_scheme = g_strdup(schemes[g_rand_int_range(rng, 0, G_N_ELEMENTS(schemes))]);
  for (uint32_t t = 0; t < nt; t++)
    if (g_rand_int_range(rng, 0, 6) == 0) {
      const char *route[] = { "a", "s\xc3\xa9", "\"q\"", "b" };
      ns_schedule_set_route(s, t, g_rand_int_range(rng, 2, 5), route);
    }
  return s;
}

/* ---- round trips ------------------------------------------------------- */

/* JSON -> JSON Lines -> JSON gives the identical JSON text, for random
 * schedules of every collective; each text reads the same in reads of any
 * size. */
static void test_round_trip_random(void)
{
  GRand *rng = g_rand_new_with_seed(20240611);
  const NsCollective colls[] = { NS_COLL_ALLTOALL, NS_COLL_ALLGATHER, NS_COLL_BCAST };
  for (int iter = 0; iter < 300; iter++) {
    NsSchedule *s = random_schedule(rng, colls[iter % 3]);
    gsize jl, ll, jl2, ll2;
    char *json = write_text(s, NS_SCHEDULE_JSON, &jl);
    GError *err = NULL;
    NsSchedule *a = read_text(json, jl, 0, &err);
    g_assert_no_error(err);
    char *lines = write_text(a, NS_SCHEDULE_JSONL, &ll);
    NsSchedule *b = read_text(lines, ll, 0, &err);
    g_assert_no_error(err);
    char *json2 = write_text(b, NS_SCHEDULE_JSON, &jl2);
    g_assert_cmpuint(jl, ==, jl2);
    g_assert_cmpstr(json, ==, json2);
    char *lines2 = write_text(b, NS_SCHEDULE_JSONL, &ll2);
    g_assert_cmpstr(lines, ==, lines2);
    /* reads of 1, 2, 7 and 64 bytes agree */
    const gsize sizes[] = { 1, 2, 7, 64 };
    for (unsigned k = 0; k < G_N_ELEMENTS(sizes); k++) {
      NsSchedule *c = read_text(json, jl, sizes[k], &err);
      g_assert_no_error(err);
      assert_same(s, c);
      ns_schedule_free(c);
      c = read_text(lines, ll, sizes[k], &err);
      g_assert_no_error(err);
      assert_same(s, c);
      ns_schedule_free(c);
    }
    free(json);
    free(json2);
    free(lines);
    free(lines2);
    ns_schedule_free(a);
    ns_schedule_free(b);
    ns_schedule_free(s);
  }
  g_rand_free(rng);
}

/* Keys in any order: phases before the header keys, sync edges and routes
 * before the phases, unknown keys between. */
static void test_key_order(void)
{
  const char *normal =
    "{\"format\":\"netsched-schedule\",\"version\":1,\"collective\":\"allgather\","
    "\"algorithm\":\"x\",\"machines\":[\"n0\",\"n1\",\"n2\",\"n3\"],\"msize_bytes\":64,"
    "\"execution\":\"phased\",\"phases\":[[[0,2,0],[1,3,1]],[],[[2,1,0,2]]],"
    "\"sync_scheme\":\"sender-all\",\"sync\":[[0,2],[1,2]],\"routes\":[[1,[\"n1\",\"n0\",\"n3\"]]]}";
  const char *shuffled =
    "{\"routes\":[[1,[\"n1\",\"n0\",\"n3\"]]],\"phases\":[[[0,2,0],[1,3,1]],[],[[2,1,0,2]]],"
    "\"x-big\":{\"a\":[1,2,{\"b\":\"c\"}]},\"sync\":[[0,2],[1,2]],\"msize_bytes\":64,"
    "\"machines\":[\"n0\",\"n1\",\"n2\",\"n3\"],\"sync_scheme\":\"sender-all\",\"algorithm\":\"x\","
    "\"execution\":\"phased\",\"collective\":\"allgather\",\"version\":1,"
    "\"format\":\"netsched-schedule\"}";
  GError *err = NULL;
  NsSchedule *a = read_text(normal, strlen(normal), 0, &err);
  g_assert_no_error(err);
  for (gsize rs = 1; rs <= 9; rs += 4) {
    NsSchedule *b = read_text(shuffled, strlen(shuffled), rs, &err);
    g_assert_no_error(err);
    assert_same(a, b);
    ns_schedule_free(b);
  }
  g_assert_cmpuint(a->sync->len, ==, 2);
  g_assert_cmpuint(a->routes->len, ==, 1);

  /* what the reader knows of the tail when the header is read */
  NsScheduleReader *r = ns_schedule_reader_new_for_data("t.json", normal, strlen(normal));
  g_assert_nonnull(ns_schedule_reader_header(r, &err));
  g_assert_cmpint(ns_schedule_reader_tail_known(r), ==, NS_TAIL_UNKNOWN);
  ns_schedule_reader_free(r);
  const char *early = strstr(shuffled, "\"sync\"") != NULL ? shuffled : NULL;
  r = ns_schedule_reader_new_for_data("t.json", early, strlen(early));
  g_assert_nonnull(ns_schedule_reader_header(r, &err));
  g_assert_cmpint(ns_schedule_reader_tail_known(r), ==, NS_TAIL_SOME);
  ns_schedule_reader_free(r);
  gsize ll;
  char *lines = write_text(a, NS_SCHEDULE_JSONL, &ll);
  r = ns_schedule_reader_new_for_data("t.jsonl", lines, ll);
  g_assert_nonnull(ns_schedule_reader_header(r, &err));
  g_assert_cmpint(ns_schedule_reader_format(r), ==, NS_SCHEDULE_JSONL);
  g_assert_cmpint(ns_schedule_reader_tail_known(r), ==, NS_TAIL_SOME);
  ns_schedule_reader_free(r);
  free(lines);
  ns_schedule_free(a);
}

/* The streaming API: header, phases one at a time, tail. */
static void test_phases_one_at_a_time(void)
{
  GRand *rng = g_rand_new_with_seed(7);
  NsSchedule *s = random_schedule(rng, NS_COLL_ALLTOALL);
  while (ns_schedule_n_phases(s) < 2 || s->execution == NS_EXEC_POSTED) {
    ns_schedule_free(s);
    s = random_schedule(rng, NS_COLL_ALLTOALL);
  }
  for (int f = 0; f < 2; f++) {
    gsize len;
    char *text = write_text(s, f == 0 ? NS_SCHEDULE_JSON : NS_SCHEDULE_JSONL, &len);
    GError *err = NULL;
    NsScheduleReader *r = ns_schedule_reader_new_for_data("t", text, len);
    const NsSchedule *h = ns_schedule_reader_header(r, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(ns_schedule_n_phases(h), ==, 0);
    g_assert_cmpint(h->n_machines, ==, s->n_machines);
    NsPhase ph;
    uint32_t p = 0;
    while (ns_schedule_reader_next_phase(r, &ph, &err) > 0) {
      uint64_t first, n;
      ns_schedule_phase_range(s, p, &first, &n);
      g_assert_cmpuint(ph.index, ==, p);
      g_assert_cmpuint(ph.first, ==, first);
      g_assert_cmpuint(ph.n, ==, n);
      for (uint64_t i = 0; i < n; i++) {
        const NsTransfer *a = ns_schedule_transfer(s, first + i), *b = &ph.transfers[i];
        g_assert_cmpint(a->src, ==, b->src);
        g_assert_cmpint(a->dst, ==, b->dst);
        g_assert_cmpuint(a->n_chunks, ==, b->n_chunks);
        const uint32_t *ca = ns_schedule_chunks(s, a);
        const uint32_t *cb = b->n_chunks == 1 ? &b->chunk : ph.chunk_pool + b->chunk;
        for (uint32_t k = 0; k < a->n_chunks; k++)
          g_assert_cmpuint(ca[k], ==, cb[k]);
      }
      p++;
    }
    g_assert_no_error(err);
    g_assert_cmpuint(p, ==, ns_schedule_n_phases(s));
    NsSchedule *tail = ns_schedule_reader_finish(r, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(tail->sync->len, ==, s->sync->len);
    g_assert_cmpuint(tail->routes->len, ==, s->routes->len);
    g_assert_cmpstr(tail->sync_scheme, ==, s->sync_scheme);
    ns_schedule_free(tail);
    ns_schedule_reader_free(r);
    free(text);
  }
  ns_schedule_free(s);
  g_rand_free(rng);
}

/* ---- compression and files -------------------------------------------- */

/* All of `len` bytes through a GLib converter (taken) into `out`; the
 * bytes it consumed. */
static gsize convert_all(gpointer converter, const char *text, gsize len, GByteArray *out)
{
  guchar buf[4096];
  gsize pos = 0;
  for (;;) {
    gsize read = 0, written = 0;
    GConverterResult res = g_converter_convert(G_CONVERTER(converter), text + pos, len - pos,
                                               buf, sizeof buf, G_CONVERTER_INPUT_AT_END,
                                               &read, &written, NULL);
    g_assert_cmpint(res, !=, G_CONVERTER_ERROR);
    pos += read;
    g_byte_array_append(out, buf, (guint)written);
    if (res == G_CONVERTER_FINISHED)
      break;
  }
  g_object_unref(converter);
  return pos;
}

static GBytes *gzip_bytes(const char *text, gsize len)
{
  GByteArray *out = g_byte_array_new();
  convert_all(g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6), text, len, out);
  return g_byte_array_free_to_bytes(out);
}

static GBytes *zstd_bytes(const char *text, gsize len)
{
  gsize cap = ZSTD_compressBound(len);
  void *out = g_malloc(cap);
  size_t n = ZSTD_compress(out, cap, text, len, 3);
  g_assert_false(ZSTD_isError(n));
  return g_bytes_new_take(out, n);
}

static void test_compressed(void)
{
  GRand *rng = g_rand_new_with_seed(11);
  NsSchedule *s = random_schedule(rng, NS_COLL_BCAST);
  char *dir = g_dir_make_tmp("netsched-stream-XXXXXX", NULL);
  for (int f = 0; f < 2; f++) {
    gsize len;
    char *text = write_text(s, f == 0 ? NS_SCHEDULE_JSON : NS_SCHEDULE_JSONL, &len);
    GBytes *packed[2] = { gzip_bytes(text, len), zstd_bytes(text, len) };
    for (int c = 0; c < 2; c++) {
      gsize n;
      const char *data = g_bytes_get_data(packed[c], &n);
      GError *err = NULL;
      /* from memory, in reads of several sizes */
      for (gsize rs = 1; rs <= 4097; rs += 4096) {
        NsScheduleReader *r = ns_schedule_reader_new_for_data("p", data, n);
        ns_schedule_reader_set_read_size(r, rs);
        NsSchedule *back = ns_schedule_reader_read_all(r, &err);
        g_assert_no_error(err);
        g_assert_cmpint(ns_schedule_reader_compression(r), ==,
                        c == 0 ? NS_COMPRESS_GZIP : NS_COMPRESS_ZSTD);
        assert_same(s, back);
        ns_schedule_free(back);
        ns_schedule_reader_free(r);
      }
      /* from a file, whatever its name */
      char *path = g_build_filename(dir, c == 0 ? "s.data" : "s.json", NULL);
      g_assert_true(g_file_set_contents(path, data, (gssize)n, NULL));
      NsSchedule *back = ns_schedule_load(path, &err);
      g_assert_no_error(err);
      assert_same(s, back);
      ns_schedule_free(back);
      /* truncated: an error naming the file, never a schedule */
      g_assert_true(g_file_set_contents(path, data, (gssize)(n - 5), NULL));
      g_assert_null(ns_schedule_load(path, &err));
      g_assert_nonnull(err);
      g_assert_true(g_str_has_prefix(err->message, path));
      g_clear_error(&err);
      /* corrupt */
      char *bad = g_memdup2(data, n);
      for (gsize i = 12; i < n; i += 7)
        bad[i] ^= 0x5a;
      g_assert_null(read_text(bad, n, 0, &err));
      g_assert_error(err, NS_ERROR, NS_ERROR_INPUT);
      g_clear_error(&err);
      g_free(bad);
      g_unlink(path);
      g_free(path);
      g_bytes_unref(packed[c]);
    }
    free(text);
  }
  /* the exact messages for truncated data */
  const char *doc = "{\"format\":\"netsched-schedule\"}";
  GBytes *z = zstd_bytes(doc, strlen(doc));
  gsize n;
  const char *data = g_bytes_get_data(z, &n);
  GError *err = NULL;
  g_assert_null(read_text(data, n - 3, 0, &err));
  g_assert_cmpstr(err->message, ==, "t.json: truncated zstd data: the input ends inside a frame");
  g_clear_error(&err);
  g_bytes_unref(z);
  g_rmdir(dir);
  g_free(dir);
  ns_schedule_free(s);
  g_rand_free(rng);
}

/* Inflates gzip or zstd data with the libraries themselves (not the
 * reader), so the writer is checked against the formats, not against
 * netsched's own reading. */
static GBytes *unpack(const char *data, gsize n, NsCompression c)
{
  GByteArray *out = g_byte_array_new();
  guchar buf[4096];
  if (c == NS_COMPRESS_ZSTD) {
    ZSTD_DCtx *z = ZSTD_createDCtx();
    ZSTD_inBuffer in = { data, n, 0 };
    size_t left = 1;
    while (in.pos < in.size || left != 0) {
      ZSTD_outBuffer o = { buf, sizeof buf, 0 };
      left = ZSTD_decompressStream(z, &o, &in);
      g_assert_false(ZSTD_isError(left));
      g_byte_array_append(out, buf, (guint)o.pos);
      if (in.pos == in.size && o.pos == 0 && left != 0)
        g_error("truncated zstd frame");
    }
    ZSTD_freeDCtx(z);
  } else { /* one gzip member, nothing after it */
    g_assert_cmpuint(convert_all(g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP), data, n,
                                 out), ==, n);
  }
  return g_byte_array_free_to_bytes(out);
}

/* The compressed writer: for random schedules of every collective, in
 * both formats, the gzip member or zstd frame it writes inflates to the
 * bytes the plain writer writes, and the reader reads it back; a file
 * saved as *.gz or *.zst is compressed. */
static void test_write_compressed(void)
{
  GRand *rng = g_rand_new_with_seed(77);
  const NsCollective colls[] = { NS_COLL_ALLTOALL, NS_COLL_ALLGATHER, NS_COLL_BCAST };
  const NsCompression packs[] = { NS_COMPRESS_GZIP, NS_COMPRESS_ZSTD };
  for (int iter = 0; iter < 60; iter++) {
    NsSchedule *s = random_schedule(rng, colls[iter % 3]);
    NsScheduleFormat format = iter % 2 ? NS_SCHEDULE_JSONL : NS_SCHEDULE_JSON;
    gsize plain_len;
    char *plain = write_text(s, format, &plain_len);
    NsCompression c = packs[(iter / 2) % 2];
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    GError *err = NULL;
    NsScheduleWriter *w = ns_schedule_writer_new_compressed(f, format, c, s, NULL, &err);
    g_assert_no_error(err);
    for (uint32_t p = 0; p < ns_schedule_n_phases(s); p++) {
      NsPhase ph = ns_schedule_phase(s, p);
      ns_schedule_writer_phase(w, &ph);
    }
    g_assert_true(ns_schedule_writer_finish(w, &err));
    g_assert_cmpint(fclose(f), ==, 0);
    GBytes *inflated = unpack(buf, size, c);
    gsize n;
    const char *text = g_bytes_get_data(inflated, &n);
    g_assert_cmpuint(n, ==, plain_len);
    g_assert_true(memcmp(text, plain, n) == 0);
    NsScheduleReader *r = ns_schedule_reader_new_for_data("c", buf, size);
    NsSchedule *back = ns_schedule_reader_read_all(r, &err);
    g_assert_no_error(err);
    g_assert_cmpint(ns_schedule_reader_compression(r), ==, c);
    assert_same(s, back);
    ns_schedule_free(back);
    ns_schedule_reader_free(r);
    g_bytes_unref(inflated);
    free(buf);
    free(plain);
    ns_schedule_free(s);
  }
  /* by name */
  g_assert_cmpint(ns_schedule_compression_for_name("a.jsonl.zst"), ==, NS_COMPRESS_ZSTD);
  g_assert_cmpint(ns_schedule_compression_for_name("a.json.gz"), ==, NS_COMPRESS_GZIP);
  g_assert_cmpint(ns_schedule_compression_for_name("a.json"), ==, NS_COMPRESS_NONE);
  g_assert_cmpint(ns_schedule_compression_for_name(NULL), ==, NS_COMPRESS_NONE);
  char *dir = g_dir_make_tmp("netsched-stream-XXXXXX", NULL);
  char *path = g_build_filename(dir, "s.jsonl.gz", NULL);
  NsSchedule *s = random_schedule(rng, NS_COLL_ALLTOALL);
  GError *err = NULL;
  g_assert_true(ns_schedule_save(s, NS_SCHEDULE_JSONL, path, &err));
  g_assert_no_error(err);
  char *data;
  gsize len;
  g_assert_true(g_file_get_contents(path, &data, &len, NULL));
  g_assert_cmpuint(len, >, 2);
  g_assert_cmpint((guchar)data[0], ==, 0x1f); /* gzip's magic bytes */
  g_assert_cmpint((guchar)data[1], ==, 0x8b);
  NsSchedule *back = ns_schedule_load(path, &err);
  g_assert_no_error(err);
  assert_same(s, back);
  ns_schedule_free(back);
  ns_schedule_free(s);
  g_free(data);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
  g_rand_free(rng);
}

/* Peak resident memory of the process, in KiB (VmHWM). */
static guint64 peak_kib(void)
{
  gchar *status = NULL;
  guint64 kib = 0;
  if (g_file_get_contents("/proc/self/status", &status, NULL, NULL)) {
    const char *p = strstr(status, "VmHWM:");
    if (p != NULL)
      kib = g_ascii_strtoull(p + 6, NULL, 10);
  }
  g_free(status);
  return kib;
}

/* Reading is bounded: 100 MB of an ignored key costs no memory to speak
 * of, and endless input fails at its first byte. */
static void test_bounded(void)
{
  char *dir = g_dir_make_tmp("netsched-stream-XXXXXX", NULL);
  char *path = g_build_filename(dir, "big.json", NULL);
  FILE *f = fopen(path, "w");
  g_assert_nonnull(f);
  fputs("{\"x-notes\": [", f);
  char *chunk = g_malloc(1 << 20);
  for (int i = 0; i < (1 << 20) / 8; i++)
    memcpy(chunk + 8 * i, "\"abcd\", ", 8);
  for (int i = 0; i < 100; i++)
    fwrite(chunk, 1, 1 << 20, f);
  fputs("0], \"x-long\": \"", f);
  memset(chunk, 'y', 1 << 20);
  for (int i = 0; i < 8; i++)
    fwrite(chunk, 1, 1 << 20, f);
  fputs("\"}", f);
  g_assert_cmpint(fclose(f), ==, 0);
  g_free(chunk);
  guint64 before = peak_kib();
  GError *err = NULL;
  g_assert_null(ns_schedule_load(path, &err));
  g_assert_cmpstr(g_strrstr(err->message, ": "), ==, ": missing required key \"format\"");
  g_clear_error(&err);
  guint64 after = peak_kib();
  if (before > 0)
    g_assert_cmpuint(after - before, <, 32 * 1024); /* 108 MB read */
  g_unlink(path);
  g_free(path);
  g_rmdir(dir);
  g_free(dir);

  if (g_file_test("/dev/zero", G_FILE_TEST_EXISTS)) {
    g_assert_null(ns_schedule_load("/dev/zero", &err));
    g_assert_cmpstr(err->message, ==, "/dev/zero:1:1: expected a value, found byte 0x00");
    g_clear_error(&err);
  }
  /* a kept string has a limit; a skipped one has none (above) */
  GString *doc = g_string_new("{\"algorithm\":\"");
  for (int i = 0; i <= (1 << 20); i++)
    g_string_append_c(doc, 'a');
  g_string_append(doc, "\"}");
  g_assert_null(read_text(doc->str, doc->len, 0, &err));
  g_assert_cmpstr(err->message, ==, "t.json:1:14: string longer than 1048576 bytes (the longest "
                                    "a schedule may hold)");
  g_clear_error(&err);
  g_string_free(doc, TRUE);
}

/* ---- JSON Lines errors ------------------------------------------------- */

#define LH "{\"format\":\"netsched-schedule-lines\",\"version\":1,\"collective\":\"alltoall\"," \
  "\"algorithm\":\"t\",\"machines\":[\"a\",\"b\",\"c\"],\"msize_bytes\":8,\"execution\":\"phased\","

typedef struct {
  const char *name, *doc, *message;
} BadLines;

static const BadLines bad_lines[] = {
  { "truncated", LH "\"sync\":0,\"routes\":0}\n[[0,1],[1,2]]\n",
    "t.json:3:1: unexpected end of input: the end line is missing (a truncated file?)" },
  { "counts", LH "\"sync\":0,\"routes\":0}\n[[0,1]]\n{\"end\":{\"phases\":2,\"transfers\":1}}\n",
    "t.json:3: $.end: the end line counts 2 phases and 1 transfers, the file has 1 and 1 (a "
    "damaged file?)" },
  { "sync-count", LH "\"sync\":2,\"routes\":0}\n[[0,1],[1,2]]\n{\"sync\":[[0,1]]}\n"
    "{\"end\":{\"phases\":1,\"transfers\":2}}\n",
    "t.json:4: $.end: the header announces 2 sync edges and 0 routes, the file has 1 and 0" },
  { "bad-transfer", LH "\"sync\":0,\"routes\":0}\n[[0,1]]\n[[0,1],[2,2]]\n",
    "t.json:3: $.phases[1][1]: transfer from machine 2 (c) to itself" },
  { "bcast-short", "{\"format\":\"netsched-schedule-lines\",\"version\":1,\"collective\":\"bcast\","
    "\"algorithm\":\"t\",\"machines\":[\"a\",\"b\"],\"msize_bytes\":8,\"execution\":\"phased\","
    "\"root\":\"a\",\"segments\":1}\n[[0,1]]\n",
    "t.json:2: $.phases[0][0]: a transfer is [src, dst, chunk, ...] with at least one chunk, "
    "got 2 elements" },
  { "sync-range", LH "\"sync\":1}\n[[0,1]]\n{\"sync\":[[0,1]]}\n",
    "t.json:3: $.sync[0][1]: transfer index 1 out of range (1 transfer)" },
  { "phase-after-trailer", LH "\"sync\":1}\n[[0,1],[1,0]]\n{\"sync\":[[0,1]]}\n[[1,2]]\n",
    "t.json:4: $.phases[1]: a phase after the sync edges or routes" },
  { "same-line", LH "\"sync\":0}\n[[0,1]] [[1,2]]\n",
    "t.json:2:9: expected a line break after the value, found '['" },
  { "after-end", LH "\"sync\":0}\n[[0,1]]\n{\"end\":{\"phases\":1,\"transfers\":1}}\n[]\n",
    "t.json:4:1: unexpected line after the end line" },
  { "phases-in-header", LH "\"phases\":[]}\n{\"end\":{\"phases\":0,\"transfers\":0}}\n",
    "t.json: $.phases: a JSON Lines header lists no phases (they follow it, one per line)" },
  { "count-type", LH "\"sync\":[]}\n", "t.json: $.sync: expected the number of sync edges after "
    "the phases (an integer), got an array" },
  { "posted", "{\"format\":\"netsched-schedule-lines\",\"version\":1,\"collective\":\"allgather\","
    "\"algorithm\":\"t\",\"machines\":[\"a\",\"b\"],\"msize_bytes\":8,\"execution\":\"posted\"}\n"
    "[[0,1]]\n[[1,0]]\n{\"end\":{\"phases\":2,\"transfers\":2}}\n",
    "t.json:4: $.phases: posted execution needs exactly 1 phase, got 2" },
  { "scalar-line", LH "\"sync\":0}\n7\n", "t.json:2: $.phases[0]: expected a phase (an array of "
    "transfers) or a trailing object, got a number or a literal" },
  { "missing-key", "{\"format\":\"netsched-schedule-lines\",\"version\":1}\n[]\n",
    "t.json: $: missing required key \"collective\"" },
  { "scheme", LH "\"sync_scheme\":\"sdnder-all\"}\n[]\n", "t.json: $.sync_scheme: unknown sync "
    "scheme 'sdnder-all' (known: %s)" }, /* %s: ns_sync_scheme_names() */
};

static void test_bad_lines(gconstpointer data)
{
  const BadLines *c = data;
  char *message = strstr(c->message, "%s") != NULL
                      ? g_strdup_printf(c->message, ns_sync_scheme_names())
                      : g_strdup(c->message);
  for (gsize rs = 0; rs <= 3; rs += 3) {
    GError *err = NULL;
    g_assert_null(read_text(c->doc, strlen(c->doc), rs, &err));
    g_assert_error(err, NS_ERROR, NS_ERROR_INPUT);
    g_assert_cmpstr(err->message, ==, message);
    g_error_free(err);
  }
  g_free(message);
}

/* Unknown keys in trailing lines are ignored; blank lines are white space. */
static void test_lines_lenient(void)
{
  const char *doc = LH "\"sync\":1,\"x\":3}\n\n[[0,1],[1,2,[1,2],[0,2]]]\n"
                       "{\"x-note\":{\"a\":[1]},\"sync\":[[0,1]]}\n"
                       "{\"end\":{\"phases\":1,\"transfers\":2,\"x\":0}}\n\n";
  GError *err = NULL;
  NsSchedule *s = read_text(doc, strlen(doc), 0, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(ns_schedule_n_transfers(s), ==, 2);
  g_assert_cmpuint(ns_schedule_transfer(s, 1)->n_chunks, ==, 2);
  g_assert_cmpuint(s->sync->len, ==, 1);
  ns_schedule_free(s);
}

/* "sync": 0 in a JSON Lines header says the sync edges were computed and
 * none is needed (JSON "sync": []); absent, none were computed. The
 * writer's round trip keeps the difference. */
static void test_lines_sync_zero(void)
{
  const char *tail = "[[0,1]]\n{\"end\":{\"phases\":1,\"transfers\":1}}\n";
  for (int given = 0; given < 2; given++) {
    g_autofree char *doc = g_strconcat(LH, given ? "\"sync\":0," : "", "\"routes\":0}\n", tail,
                                       NULL);
    GError *err = NULL;
    NsSchedule *s = read_text(doc, strlen(doc), 0, &err);
    g_assert_no_error(err);
    g_assert_cmpint(s->sync_set, ==, given);
    g_assert_cmpuint(s->sync->len, ==, 0);
    gsize len;
    g_autofree char *json = write_text(s, NS_SCHEDULE_JSON, &len);
    g_assert_cmpint(strstr(json, "\"sync\": [") != NULL, ==, given);
    g_autofree char *lines = write_text(s, NS_SCHEDULE_JSONL, &len);
    g_assert_cmpstr(lines, ==, doc);
    ns_schedule_free(s);
  }
}

/* Limits: the moves a schedule can need, and a reader held to them. */
static void test_limits(void)
{
  g_assert_cmpuint(ns_schedule_max_moves(NS_COLL_ALLTOALL, 24, 0), ==, 24 * 23 * 23);
  g_assert_cmpuint(ns_schedule_max_moves(NS_COLL_ALLGATHER, 24, 0), ==, 24 * 23);
  g_assert_cmpuint(ns_schedule_max_moves(NS_COLL_BCAST, 24, 10), ==, 10 * 23);
  /* a reduction's segment from every machine to every other, as a partial
   * result and as a raw contribution (the all-gather-based allreduce) */
  g_assert_cmpuint(ns_schedule_max_moves(NS_COLL_ALLREDUCE, 24, 10), ==, 2 * 10 * 24 * 23);
  g_assert_cmpuint(ns_schedule_max_moves(NS_COLL_ALLTOALL, 1, 0), ==, 0);
  g_assert_cmpuint(ns_schedule_max_moves(NS_COLL_ALLTOALL, 65536, 0), ==,
                   G_GUINT64_CONSTANT(65536) * 65535 * 65535);
  g_assert_cmpuint(ns_schedule_max_input(NS_COLL_ALLTOALL, 24, 0), ==,
                   (64u << 20) + 64 * (24 * 23 * 23 + 24));
  g_assert_cmpuint(ns_schedule_max_input(NS_COLL_BCAST, G_MAXUINT32, G_MAXUINT32), ==,
                   G_MAXUINT64);
  /* 3 machines: at most 12 transfers */
  GString *doc = g_string_new(LH "\"routes\":0}\n[");
  for (int i = 0; i < 13; i++)
    g_string_append(doc, i ? ",[0,1]" : "[0,1]");
  g_string_append(doc, "]\n{\"end\":{\"phases\":1,\"transfers\":13}}\n");
  for (int need = 0; need < 2; need++) {
    NsScheduleReader *r = ns_schedule_reader_new_for_data("t.jsonl", doc->str, doc->len);
    NsScheduleLimits limits = { .need = need };
    ns_schedule_reader_set_limits(r, &limits);
    GError *err = NULL;
    NsSchedule *s = ns_schedule_reader_read_all(r, &err);
    if (need) {
      g_assert_null(s);
      g_assert_cmpstr(err->message, ==, "t.jsonl: more than 12 transfers: a schedule of alltoall "
                      "on 3 machines holds no more unless it delivers something twice");
      g_clear_error(&err);
    } else {
      g_assert_no_error(err);
      ns_schedule_free(s);
    }
    ns_schedule_reader_free(r);
  }
  /* a byte limit, on gzip members read one byte at a time */
  GBytes *a = gzip_bytes(doc->str, 100), *b = gzip_bytes(doc->str + 100, doc->len - 100);
  GByteArray *both = g_byte_array_new();
  g_byte_array_append(both, g_bytes_get_data(a, NULL), (guint)g_bytes_get_size(a));
  g_byte_array_append(both, g_bytes_get_data(b, NULL), (guint)g_bytes_get_size(b));
  for (gsize limit = doc->len - 1; limit <= doc->len; limit++) {
    NsScheduleReader *r = ns_schedule_reader_new_for_data("t.gz", both->data, both->len);
    ns_schedule_reader_set_read_size(r, 1);
    NsScheduleLimits limits = { .max_input = limit };
    ns_schedule_reader_set_limits(r, &limits);
    GError *err = NULL;
    NsSchedule *s = ns_schedule_reader_read_all(r, &err);
    if (limit < doc->len) {
      g_assert_null(s);
      g_assert_true(g_str_has_prefix(err->message, "t.gz: the schedule is larger than the input "
                                                   "limit of "));
      g_clear_error(&err);
    } else {
      g_assert_no_error(err);
      g_assert_cmpuint(ns_schedule_n_transfers(s), ==, 13);
      ns_schedule_free(s);
    }
    ns_schedule_reader_free(r);
  }
  g_byte_array_unref(both);
  g_bytes_unref(a);
  g_bytes_unref(b);
  g_string_free(doc, TRUE);
}

/* ---- verifier sessions -------------------------------------------------- */

static void assert_same_report(const NsVerifyReport *a, const NsSchedule *sa,
                               const NsVerifyReport *b, const NsSchedule *sb,
                               const NsTopology *t)
{
  for (int c = 0; c < NS_N_CHECKS; c++) {
    g_assert_cmpint(a->ran[c], ==, b->ran[c]);
    g_assert_cmpuint(a->failures[c], ==, b->failures[c]);
  }
  g_assert_cmpuint(a->n_phases, ==, b->n_phases);
  g_assert_cmpuint(a->n_transfers, ==, b->n_transfers);
  g_assert_cmpuint(a->n_chunk_moves, ==, b->n_chunk_moves);
  g_assert_cmpuint(a->n_required, ==, b->n_required);
  g_assert_cmpuint(a->n_delivered, ==, b->n_delivered);
  g_assert_cmpuint(a->lower_bound, ==, b->lower_bound);
  g_assert_true(a->transmission_s == b->transmission_s);
  g_assert_cmpuint(a->max_edge_use, ==, b->max_edge_use);
  g_assert_cmpint(a->max_path_len, ==, b->max_path_len);
  g_assert_cmpuint(a->findings->len, ==, b->findings->len);
  for (guint i = 0; i < a->findings->len; i++) {
    const NsFinding *fa = &g_array_index(a->findings, NsFinding, i);
    const NsFinding *fb = &g_array_index(b->findings, NsFinding, i);
    char *da = ns_finding_describe(fa, t, sa), *db = ns_finding_describe(fb, t, sb);
    g_assert_cmpstr(da, ==, db);
    g_free(da);
    g_free(db);
  }
}

/* Streams s's phases through a session. */
static gboolean verify_streamed(const NsTopology *t, const NsSchedule *s, unsigned flags,
                                NsVerifySession **out, NsVerifyReport *r, GError **err)
{
  NsSchedule *header = ns_schedule_copy(s);
  g_array_set_size(header->sync, 0);
  header->sync_set = FALSE; /* as read: sync edges come after the phases */
  g_array_set_size(header->routes, 0);
  NsVerifySession *vs = ns_verify_begin(t, header, NULL, flags, err);
  ns_schedule_free(header);
  if (vs == NULL)
    return FALSE;
  for (uint32_t p = 0; p < ns_schedule_n_phases(s); p++) {
    NsPhase ph = ns_schedule_phase(s, p);
    if (!ns_verify_phase(vs, ph.transfers, ph.n, ph.chunk_pool, err)) {
      ns_verify_session_free(vs);
      return FALSE;
    }
  }
  if (!ns_verify_end(vs, s, r, err)) {
    ns_verify_session_free(vs);
    return FALSE;
  }
  *out = vs;
  return TRUE;
}

static void compare_session(const NsTopology *t, const NsSchedule *s)
{
  /* ns_verify with its link checks on the calling thread, the session with
   * them on a thread of their own (from the first transfer), and back */
  g_setenv("NETSCHED_VERIFY_INLINE_TRANSFERS", "18446744073709551615", TRUE);
  NsVerifyReport a = ns_test_verify(t, s), b;
  g_setenv("NETSCHED_VERIFY_INLINE_TRANSFERS", "0", TRUE);
  NsVerifySession *vs = NULL;
  GError *err = NULL;
  gboolean tail = s->sync->len > 0 || s->routes->len > 0;
  g_assert_true(verify_streamed(t, s, tail ? NS_VERIFY_KEEP : 0, &vs, &b, &err));
  g_assert_no_error(err);
  g_assert_cmpint(ns_verify_session_keeps(vs), ==, tail);
  assert_same_report(&a, s, &b, ns_verify_session_schedule(vs), t);
  NsVerifyReport c = ns_test_verify(t, s); /* whole, threaded */
  g_unsetenv("NETSCHED_VERIFY_INLINE_TRANSFERS");
  assert_same_report(&a, s, &c, s, t);
  ns_verify_report_clear(&a);
  ns_verify_report_clear(&b);
  ns_verify_report_clear(&c);
  ns_verify_session_free(vs);
}

/* Planned schedules, correct and damaged, on several fabrics: a session
 * fed phase by phase reports exactly what ns_verify reports. */
static void test_session_matches(void)
{
  static const struct {
    const char *topo, *coll, *algo;
  } cases[] = {
    { "tree:2,3,4", "alltoall", "faraj" },  { "tree:2,3,4", "alltoall", "bruck" },
    { "tree:2,3,4", "alltoall", "ring" },   { "tree:2,3,4", "alltoall", "simple" },
    { "tree:4,4", "allgather", "ring" },    { "tree:4,4", "allgather", "rdb" },
    { "tree:4,4", "bcast", "binomial" },    { "tree:4,4", "bcast", "linear-cf" },
    { "fattree:2,3", "alltoall", "shift" }, { "tree:2,3,4", "alltoall", "pair" },
  };
  GRand *rng = g_rand_new_with_seed(3);
  for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
    GError *err = NULL;
    NsTopology *t = ns_shape_from_spec(cases[i].topo, &err);
    g_assert_no_error(err);
    NsCollective c;
    g_assert_true(ns_collective_from_name(cases[i].coll, &c));
    NsPlanParams params = { .msize = 4096, .root = 1, .segment = 1024 };
    NsSchedule *s = ns_plan(t, c, cases[i].algo, &params, &err);
    if (s == NULL) { /* a planner this fabric does not suit */
      g_clear_error(&err);
      ns_topology_free(t);
      continue;
    }
    compare_session(t, s);
    /* damaged copies: dropped, duplicated and swapped transfers */
    for (int m = 0; m < 6 && ns_schedule_n_transfers(s) > 2; m++) {
      NsSchedule *d = ns_schedule_copy(s);
      guint n = d->transfers->len;
      guint a = (guint)g_rand_int_range(rng, 0, (gint32)n), b = (guint)g_rand_int_range(rng, 0, (gint32)n);
      NsTransfer *ta = &g_array_index(d->transfers, NsTransfer, a);
      NsTransfer *tb = &g_array_index(d->transfers, NsTransfer, b);
      if (m % 3 == 0) {
        NsTransfer tmp = *ta;
        *ta = *tb;
        *tb = tmp;
      } else if (m % 3 == 1) {
        *ta = *tb;
      } else if (ta->n_chunks == 1) {
        ta->chunk = tb->n_chunks == 1 ? tb->chunk : ta->chunk;
      }
      compare_session(t, d);
      ns_schedule_free(d);
    }
    /* with sync edges (kept whole) */
    if (c == NS_COLL_ALLTOALL && g_strcmp0(cases[i].algo, "faraj") == 0) {
      NsSyncScheme sc;
      g_assert_true(ns_sync_scheme_parse("sender-all", &sc, NULL));
      NsSyncStats stats;
      g_assert_true(ns_schedule_compute_sync(t, s, &sc, &stats, &err));
      g_assert_no_error(err);
      compare_session(t, s);
      /* a session that streams cannot take late sync edges */
      NsVerifySession *vs = NULL;
      NsVerifyReport r;
      g_assert_false(verify_streamed(t, s, 0, &vs, &r, &err));
      g_assert_error(err, NS_ERROR, NS_ERROR_UNSUPPORTED);
      g_clear_error(&err);
    }
    ns_schedule_free(s);
    ns_topology_free(t);
  }
  g_rand_free(rng);
}

/* Streams s's phases through a session with options. */
static NsVerifyReport verify_streamed_with(const NsTopology *t, const NsSchedule *s,
                                           const NsVerifyOptions *opt)
{
  GError *err = NULL;
  NsVerifySession *vs = ns_verify_begin(t, s, opt, 0, &err);
  g_assert_no_error(err);
  for (uint32_t p = 0; p < ns_schedule_n_phases(s); p++) {
    NsPhase ph = ns_schedule_phase(s, p);
    g_assert_true(ns_verify_phase(vs, ph.transfers, ph.n, ph.chunk_pool, &err));
  }
  NsVerifyReport r;
  g_assert_true(ns_verify_end(vs, NULL, &r, &err));
  g_assert_no_error(err);
  ns_verify_session_free(vs);
  return r;
}

/* Two replays of one schedule found the same: findings in the same order
 * (kind, transfers, edge, machine), counts, transmission time bit for bit,
 * deliveries. */
static void assert_same_outcome(const NsVerifyReport *want, const NsVerifyReport *got)
{
  g_assert_cmpuint(got->findings->len, ==, want->findings->len);
  for (guint i = 0; i < got->findings->len; i++) {
    const NsFinding *f = &g_array_index(want->findings, NsFinding, i);
    const NsFinding *g = &g_array_index(got->findings, NsFinding, i);
    g_assert_cmpint(f->kind, ==, g->kind);
    g_assert_cmpint(f->t1, ==, g->t1);
    g_assert_cmpint(f->t2, ==, g->t2);
    g_assert_cmpint(f->edge, ==, g->edge);
    g_assert_cmpint(f->machine, ==, g->machine);
  }
  for (int c = 0; c < NS_N_CHECKS; c++)
    g_assert_cmpuint(got->failures[c], ==, want->failures[c]);
  g_assert_true(got->transmission_s == want->transmission_s);
  g_assert_cmpuint(got->n_delivered, ==, want->n_delivered);
}

/* Two switches of four machines each, links of three speeds (1 Gbit/s,
 * 100 Mbit/s, 300 Mbit/s between the switches): the session tests' fabric. */
static NsTopology *two_speed_switches(const char *name)
{
  static const char text[] = "machine n[0-7]\nswitch s[0-1]\n"
                             "link n[0-3] s0 bandwidth=1Gbps\nlink n[4-7] s1 bandwidth=100Mbps\n"
                             "link s0 s1 bandwidth=300Mbps\n";
  GError *err = NULL;
  NsTopology *t = ns_topology_parse_native(name, text, sizeof text - 1, NULL, NULL, &err);
  g_assert_no_error(err);
  return t;
}

/* The link checks split over both threads by batches of phases (the
 * calling thread checks every other batch, batches of at most 3
 * transfers), the data flow on the link thread until a phase with a chunk
 * list brings it back: the same report as a sequential replay — findings
 * in the same order under the same caps (2 of each kind here, many more
 * found), the transmission time's floating-point sum over links of three
 * speeds bit for bit. */
static void test_session_split(void)
{
  g_autoptr(NsTopology) t = two_speed_switches("split.topo");
  GError *err = NULL;
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.max_findings = 2;
  static const char *const algos[] = { "ring", "pair", "simple", "shuffled" };
  GRand *rng = g_rand_new_with_seed(24);
  for (gsize a = 0; a < G_N_ELEMENTS(algos); a++)
    for (int damage = 0; damage < 3; damage++) {
      NsPlanParams params = { .msize = 1000 };
      NsSchedule *s;
      if (strcmp(algos[a], "shuffled") == 0) {
        /* a message a phase in a random order: phases of 8 µs (1 Gbit/s)
         * and 80 µs (100 Mbit/s) mixed, a sum that depends on its order */
        s = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "shuffled", 1000);
        uint32_t pairs[56], n = 0;
        for (uint32_t i = 0; i < 8; i++)
          for (uint32_t j = 0; j < 8; j++)
            if (i != j)
              pairs[n++] = i * 8 + j;
        for (uint32_t i = n - 1; i > 0; i--) {
          uint32_t k = (uint32_t)g_rand_int_range(rng, 0, (gint32)i + 1), x = pairs[i];
          pairs[i] = pairs[k];
          pairs[k] = x;
        }
        for (uint32_t i = 0; i < n; i++) {
          ns_schedule_begin_phase(s);
          ns_schedule_add(s, (int)(pairs[i] / 8), (int)(pairs[i] % 8), pairs[i]);
        }
      } else {
        s = ns_plan(t, NS_COLL_ALLTOALL, algos[a], &params, &err);
      }
      g_assert_no_error(err);
      for (guint i = 2; damage > 0 && i < s->transfers->len; i += 3) /* each a second time */
        g_array_index(s->transfers, NsTransfer, i) = g_array_index(s->transfers, NsTransfer, i - 1);
      if (damage == 2) { /* and a last phase with a chunk list: n0 relays n1's messages */
        ns_schedule_begin_phase(s);
        uint32_t chunks[] = { ns_a2a_chunk(8, 1, 5), ns_a2a_chunk(8, 1, 6) };
        ns_schedule_add_chunks(s, 0, 5, 2, chunks);
        ns_schedule_add(s, 2, 6, ns_a2a_chunk(8, 2, 6));
      }
      g_setenv("NETSCHED_VERIFY_INLINE_TRANSFERS", "18446744073709551615", TRUE);
      NsVerifyReport sequential;
      g_assert_true(ns_verify(t, s, &opt, &sequential, &err));
      g_assert_no_error(err);
      g_assert_cmpuint(sequential.findings->len, >, (guint)(damage > 0 ? 3 : 0));
      g_setenv("NETSCHED_VERIFY_INLINE_TRANSFERS", "0", TRUE);
      static const char *const splits[] = { "alternate", "never", "dynamic" };
      for (gsize k = 0; k < 2 * G_N_ELEMENTS(splits); k++) {
        g_setenv("NETSCHED_VERIFY_BATCH_TRANSFERS", k % 2 == 0 ? "3" : "16", TRUE);
        g_setenv("NETSCHED_VERIFY_SPLIT", splits[k / 2], TRUE);
        NsVerifyReport whole, streamed = verify_streamed_with(t, s, &opt);
        g_assert_true(ns_verify(t, s, &opt, &whole, &err));
        g_assert_no_error(err);
        assert_same_report(&sequential, s, &whole, s, t);
        assert_same_outcome(&sequential, &streamed);
        ns_verify_report_clear(&whole);
        ns_verify_report_clear(&streamed);
      }
      g_unsetenv("NETSCHED_VERIFY_SPLIT");
      g_unsetenv("NETSCHED_VERIFY_BATCH_TRANSFERS");
      g_unsetenv("NETSCHED_VERIFY_INLINE_TRANSFERS");
      ns_verify_report_clear(&sequential);
      ns_schedule_free(s);
    }
  g_rand_free(rng);
}

/* A streamed planner's phases kept by the link thread in their own arrays
 * (NsPhaseSink.phase_array, no copy; every phase taken here, batches of 3
 * or 16 transfers, each split): the same report as a sequential replay —
 * findings in the same order, naming the same transfers by their ends,
 * the same counts and transmission time bit for bit. */
static void test_session_planned_taken(void)
{
  g_autoptr(NsTopology) t = two_speed_switches("taken.topo");
  GError *err = NULL;
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.max_findings = 3;
  NsPlanParams params = { .msize = 1000 };
  static const char *const algos[] = { "ring", "pair", "shift" };
  static const char *const splits[] = { "alternate", "never", "dynamic" };
  for (gsize a = 0; a < G_N_ELEMENTS(algos); a++) {
    g_setenv("NETSCHED_VERIFY_INLINE_TRANSFERS", "18446744073709551615", TRUE);
    NsVerifyReport want;
    NsVerifySession *ws = ns_verify_planned(t, NS_COLL_ALLTOALL, algos[a], &params, &opt, NULL,
                                            NULL, &want, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(want.findings->len, >, 0);
    g_setenv("NETSCHED_VERIFY_INLINE_TRANSFERS", "0", TRUE);
    g_setenv("NETSCHED_VERIFY_TAKE_TRANSFERS", "1", TRUE);
    for (gsize k = 0; k < 2 * G_N_ELEMENTS(splits); k++) {
      g_setenv("NETSCHED_VERIFY_BATCH_TRANSFERS", k % 2 == 0 ? "3" : "16", TRUE);
      g_setenv("NETSCHED_VERIFY_SPLIT", splits[k / 2], TRUE);
      NsVerifyReport got;
      NsVerifySession *gs = ns_verify_planned(t, NS_COLL_ALLTOALL, algos[a], &params, &opt,
                                              NULL, NULL, &got, &err);
      g_assert_no_error(err);
      assert_same_outcome(&want, &got);
      for (guint i = 0; i < got.findings->len; i++) { /* named from the right phase */
        g_autofree char *fd = ns_finding_describe(&g_array_index(want.findings, NsFinding, i), t,
                                                  ns_verify_session_schedule(ws));
        g_autofree char *gd = ns_finding_describe(&g_array_index(got.findings, NsFinding, i), t,
                                                  ns_verify_session_schedule(gs));
        g_assert_cmpstr(gd, ==, fd);
      }
      g_assert_cmpuint(got.n_transfers, ==, want.n_transfers);
      ns_verify_report_clear(&got);
      ns_verify_session_free(gs);
    }
    g_unsetenv("NETSCHED_VERIFY_SPLIT");
    g_unsetenv("NETSCHED_VERIFY_BATCH_TRANSFERS");
    g_unsetenv("NETSCHED_VERIFY_TAKE_TRANSFERS");
    g_unsetenv("NETSCHED_VERIFY_INLINE_TRANSFERS");
    ns_verify_report_clear(&want);
    ns_verify_session_free(ws);
  }
}

/* Index errors come from the phase that holds them; unknown machines from
 * the header. */
static void test_session_errors(void)
{
  GError *err = NULL;
  NsTopology *t = ns_shape_from_spec("tree:2,2", &err);
  g_assert_no_error(err);
  NsSchedule *h = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "x", 8);
  NsVerifySession *vs = ns_verify_begin(t, h, NULL, 0, &err);
  g_assert_no_error(err);
  NsTransfer tr[2] = { { .src = 0, .dst = 1, .n_chunks = 1, .chunk = ns_a2a_chunk(4, 0, 1) },
                       { .src = 2, .dst = 9, .n_chunks = 1, .chunk = 0 } };
  g_assert_true(ns_verify_phase(vs, tr, 1, NULL, &err));
  g_assert_false(ns_verify_phase(vs, tr, 2, NULL, &err));
  g_assert_cmpstr(err->message, ==, "transfer #2 2->9: machine indices out of range or equal "
                                    "(4 machines)");
  g_clear_error(&err);
  ns_verify_session_free(vs);
  g_free(h->machines[2]);
  h->machines[2] = g_strdup("nosuch");
  g_assert_null(ns_verify_begin(t, h, NULL, 0, &err));
  g_assert_error(err, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&err);
  ns_schedule_free(h);
  ns_topology_free(t);
}

/* A session that keeps its phases (sync edges may follow) keeps no more
 * than opt.max_kept transfers, nor more than the collective can need. */
static void test_session_kept(void)
{
  GError *err = NULL;
  NsTopology *t = ns_shape_from_spec("tree:2,2", &err);
  g_assert_no_error(err);
  NsSchedule *h = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "x", 8);
  NsTransfer tr[8];
  for (int i = 0; i < 8; i++)
    tr[i] = (NsTransfer){ .src = 0, .dst = 1, .n_chunks = 1, .chunk = ns_a2a_chunk(4, 0, 1) };
  for (int bounded = 0; bounded < 2; bounded++) {
    NsVerifyOptions opt;
    ns_verify_options_init(&opt);
    g_assert_cmpuint(opt.max_kept, ==, NS_VERIFY_MAX_KEPT);
    opt.max_kept = bounded ? 10 : 0; /* 4 machines: 36 moves at most */
    NsVerifySession *vs = ns_verify_begin(t, h, &opt, NS_VERIFY_KEEP, &err);
    g_assert_no_error(err);
    int phases = 0;
    while (ns_verify_phase(vs, tr, 8, NULL, &err))
      phases++;
    g_assert_cmpint(phases, ==, bounded ? 1 : 4);
    g_assert_cmpstr(err->message, ==,
                    bounded ? "more than 10 transfers to keep for the sync edges or routes (16 "
                              "bytes each; verify --max-input lifts this limit)"
                            : "more than 36 transfers to keep for the sync edges or routes: a "
                              "schedule of alltoall on 4 machines holds no more unless it "
                              "delivers something twice");
    g_clear_error(&err);
    ns_verify_session_free(vs);
  }
  ns_schedule_free(h);
  ns_topology_free(t);
}

/* ---- the fast path against the general path ------------------------------ */

/* Reads `text` through the fast path for transfers or the general path
 * only, asking `read_size` bytes at a time (0: the default), on a thread
 * reading ahead from the first phase or (`ahead` FALSE) on this one. */
static NsSchedule *read_by_ahead(const char *text, gsize len, gsize read_size, gboolean general,
                                 gboolean ahead, GError **err)
{
  NsScheduleReader *r = ns_schedule_reader_new_for_data("t.json", text, len);
  if (read_size > 0)
    ns_schedule_reader_set_read_size(r, read_size);
  ns_schedule_reader_set_general_only(r, general);
  ns_schedule_reader_set_read_ahead(r, ahead ? 0 : G_MAXUINT64);
  NsSchedule *s = ns_schedule_reader_read_all(r, err);
  ns_schedule_reader_free(r);
  return s;
}

static NsSchedule *read_by(const char *text, gsize len, gsize read_size, gboolean general,
                           GError **err)
{
  return read_by_ahead(text, len, read_size, general, FALSE, err);
}

/* Both paths, in whole and 1-byte reads, on this thread or read ahead on
 * another, give the same schedule or the same message; returns the fast
 * path's on this thread (the message in *message). */
static NsSchedule *read_both(const char *text, gsize len, char **message)
{
  GError *fast_err = NULL;
  NsSchedule *fast = read_by(text, len, 0, FALSE, &fast_err);
  for (int k = 0; k < 5; k++) {
    GError *err = NULL;
    /* k: 1 general, 2 general in 1-byte reads, 3 read ahead, 4 read ahead
     * through the general path in 1-byte reads */
    NsSchedule *other = read_by_ahead(text, len, k == 2 || k == 4 ? 1 : 0, k == 1 || k == 2 || k == 4,
                                      k >= 3, &err);
    g_assert_true((fast == NULL) == (other == NULL));
    if (fast == NULL)
      g_assert_cmpstr(fast_err->message, ==, err->message);
    else
      assert_same(fast, other);
    ns_schedule_free(other);
    g_clear_error(&err);
  }
  *message = fast_err != NULL ? g_strdup(fast_err->message) : NULL;
  g_clear_error(&fast_err);
  return fast;
}

/* Schedules as `plan -o` writes them (JSON Lines, also JSON and zstd):
 * several collectives, multi-chunk transfers, sync edges, routes. */
static void test_fast_path_planned(void)
{
  static const struct {
    const char *topo, *coll, *algo;
  } cases[] = {
    { "tree:4,8", "alltoall", "faraj" },     { "tree:2,3,4", "alltoall", "bruck" },
    { "tree:2,3,4", "alltoall", "simple" },  { "fattree:2,3", "alltoall", "shift" },
    { "tree:4,4", "allgather", "ring" },     { "tree:4,4", "allgather", "rdb" },
    { "tree:4,4", "bcast", "binomial" },     { "tree:4,4", "bcast", "linear-cf" },
  };
  int with_sync = 0;
  for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
    GError *err = NULL;
    NsTopology *t = ns_shape_from_spec(cases[i].topo, &err);
    g_assert_no_error(err);
    NsCollective c;
    g_assert_true(ns_collective_from_name(cases[i].coll, &c));
    NsPlanParams params = { .msize = 4096, .root = 1, .segment = 1024 };
    NsSchedule *s = ns_plan(t, c, cases[i].algo, &params, &err);
    g_assert_no_error(err);
    for (int extra = 0; extra < 2; extra++) {
      if (extra == 1) { /* sync edges and a few routes */
        NsSyncScheme sc;
        g_assert_true(ns_sync_scheme_parse("sender-all", &sc, NULL));
        NsSyncStats stats;
        if (s->execution == NS_EXEC_PHASED) { /* pair-wise sync is for phases */
          g_assert_true(ns_schedule_compute_sync(t, s, &sc, &stats, &err));
          g_assert_no_error(err);
          with_sync += s->sync->len > 0;
        }
        const char *route[] = { "m0", "s0", "m1" };
        for (uint32_t k = 0; k < ns_schedule_n_transfers(s); k += 5)
          ns_schedule_set_route(s, k, 3, route);
      }
      for (int f = 0; f < 2; f++) {
        gsize len;
        char *text = write_text(s, f == 0 ? NS_SCHEDULE_JSONL : NS_SCHEDULE_JSON, &len);
        char *message = NULL;
        NsSchedule *back = read_both(text, len, &message);
        g_assert_null(message);
        assert_same(s, back);
        ns_schedule_free(back);
        if (f == 0) { /* compressed: blocks decompressed straight into the buffer */
          GBytes *z = zstd_bytes(text, len);
          gsize n;
          const char *data = g_bytes_get_data(z, &n);
          back = read_both(data, n, &message);
          g_assert_null(message);
          assert_same(s, back);
          ns_schedule_free(back);
          g_bytes_unref(z);
        }
        free(text);
      }
    }
    ns_schedule_free(s);
    ns_topology_free(t);
  }
  g_assert_cmpint(with_sync, >=, 4);
}

/* A JSON Lines all-to-all on 12 machines: `phases` phases of 12 direct
 * transfers (lines long enough for the fast path's bulk scan), but `line`
 * (with `transfers` transfers) as line 42, then the end line. */
static char *lines_many(const char *line, int transfers, int phases)
{
  GString *g = g_string_new("{\"format\":\"netsched-schedule-lines\",\"version\":1,"
                            "\"collective\":\"alltoall\",\"algorithm\":\"t\",\"machines\":[");
  for (int m = 0; m < 12; m++)
    g_string_append_printf(g, "%s\"n%d\"", m > 0 ? "," : "", m);
  g_string_append(g, "],\"msize_bytes\":8,\"execution\":\"phased\",\"sync\":0,\"routes\":0}\n");
  for (int p = 0; p < phases; p++) {
    if (p == 40) {
      g_string_append_printf(g, "%s\n", line);
      continue;
    }
    g_string_append_c(g, '[');
    for (int m = 0; m < 12; m++)
      g_string_append_printf(g, "%s[%d,%d]", m > 0 ? "," : "", m, (m + 1 + p % 11) % 12);
    g_string_append(g, "]\n");
  }
  g_string_append_printf(g, "{\"end\":{\"phases\":%d,\"transfers\":%d}}\n", phases,
                         12 * (phases - 1) + transfers);
  return g_string_free(g, FALSE);
}

/* lines_many with 40 phases before `line` and 40 after. */
static char *lines_around(const char *line, int transfers)
{
  return lines_many(line, transfers, 81);
}
typedef struct {
  const char *name, *line, *message;
  int transfers; /* of the line, when it reads */
} FastCase;

/* Malformed transfers in the middle of long lines: the messages of the
 * general path (NULL: the file reads, 961 + its transfers). */
static const FastCase fast_cases[] = {
  /* the next line is read as the transfer's third element */
  { "truncated", "[[0,1],[1,2],[2,", "t.json:44:1: expected ',' or ']', found '['", 0 },
  { "truncated-number", "[[0,1],[1,2],[2,3", "t.json:43:1: expected ',' or ']', found '['", 0 },
  { "overflow", "[[0,1],[1,99999999999999999999],[2,3]]",
    "t.json:42:11: integer 99999999999999999999 is out of range", 0 },
  { "ten-digits", "[[0,1],[1,1000000000],[2,3]]",
    "t.json:42: $.phases[40][1][1]: machine index 1000000000 out of range (12 machines)", 0 },
  { "nine-digits", "[[0,1],[1,999999999],[2,3]]",
    "t.json:42: $.phases[40][1][1]: machine index 999999999 out of range (12 machines)", 0 },
  { "range", "[[0,1],[1,12],[2,3]]",
    "t.json:42: $.phases[40][1][1]: machine index 12 out of range (12 machines)", 0 },
  { "leading-zero", "[[0,1],[01,2],[2,3]]", "t.json:42:9: malformed number '01'", 0 },
  { "negative", "[[0,1],[-1,2],[2,3]]",
    "t.json:42: $.phases[40][1][0]: machine index -1 out of range (12 machines)", 0 },
  { "fraction", "[[0,1],[1.5,2],[2,3]]",
    "t.json:42: $.phases[40][1][0]: expected a machine index (an integer), got a number with "
    "a fraction or exponent", 0 },
  { "exponent", "[[0,1],[1,2e0],[2,3]]",
    "t.json:42: $.phases[40][1][1]: expected a machine index (an integer), got a number with "
    "a fraction or exponent", 0 },
  { "self", "[[0,1],[2,2],[2,3]]", "t.json:42: $.phases[40][1]: transfer from machine 2 (n2) "
    "to itself", 0 },
  { "extra-field", "[[0,1],[1,2,[1,2],7],[2,3]]",
    "t.json:42: $.phases[40][1][3]: expected an alltoall chunk [origin, destination], got an "
    "integer", 0 },
  { "short", "[[0,1],[1],[2,3]]", "t.json:42: $.phases[40][1]: a transfer is [src, dst, chunk, "
    "...] with at least one chunk, got 1 element", 0 },
  { "chunk-self", "[[0,1],[1,2,[3,3]],[2,3]]", "t.json:42: $.phases[40][1][2]: chunk origin "
    "and destination are the same machine (3)", 0 },
  { "trailing-comma", "[[0,1],[1,2],]", "t.json:42:14: trailing comma before ']'", 0 },
  { "object", "[[0,1],{\"src\":1},[2,3]]",
    "t.json:42: $.phases[40][1]: expected a transfer [src, dst, chunk, ...], got an object", 0 },
  { "string", "[[0,1],[\"1\",2],[2,3]]",
    "t.json:42: $.phases[40][1][0]: expected a machine index (an integer), got a string", 0 },
  { "spaces", "[ [0, 1] ,[1,2] , [2,3]]", NULL, 3 },
  { "multi-chunk", "[[0,1],[1,2,[1,2],[0,2]],[2,3,[2,3]]]", NULL, 3 },
  { "nine-digit-chunk", "[[0,1],[1,2,[000000001,2]]]", "t.json:42:14: malformed number '000000001'", 0 },
  { "empty", "[]", NULL, 0 },
};

static void test_fast_path_errors(gconstpointer data)
{
  const FastCase *c = data;
  char *text = lines_around(c->line, c->transfers);
  char *message = NULL;
  NsSchedule *s = read_both(text, strlen(text), &message);
  g_assert_cmpstr(message, ==, c->message);
  if (c->message == NULL) {
    g_assert_nonnull(s);
    g_assert_cmpuint(ns_schedule_n_phases(s), ==, 81);
  }
  ns_schedule_free(s);
  g_free(message);
  g_free(text);
}

/* Blocks decompressed straight into the reader's buffer are counted
 * against the input limit as the others. */
static void test_fast_path_limit(void)
{
  char *text = lines_many("[[0,1]]", 1, 8000); /* 624 KB: three blocks */
  gsize len = strlen(text);
  GBytes *z = zstd_bytes(text, len);
  gsize n;
  const char *data = g_bytes_get_data(z, &n);
  for (guint64 limit = len - 1; limit <= len; limit++) {
    NsScheduleReader *r = ns_schedule_reader_new_for_data("t.zst", data, n);
    NsScheduleLimits limits = { .max_input = limit };
    ns_schedule_reader_set_limits(r, &limits);
    GError *err = NULL;
    NsSchedule *s = ns_schedule_reader_read_all(r, &err);
    if (limit < len) {
      g_assert_null(s);
      char *want = g_strdup_printf("t.zst: the schedule is larger than the input limit of %"
                                   G_GUINT64_FORMAT " bytes (0.6 MiB, decompressed)", limit);
      g_assert_cmpstr(err->message, ==, want);
      g_free(want);
      g_clear_error(&err);
    } else {
      g_assert_no_error(err);
      g_assert_cmpuint(ns_schedule_n_transfers(s), ==, 12 * 7999 + 1);
      ns_schedule_free(s);
    }
    ns_schedule_reader_free(r);
  }
  g_bytes_unref(z);
  g_free(text);
}

/* Header keys in another order and the end line's counts swapped read the same. */
static void test_fast_path_key_order(void)
{
  char *text = lines_around("[[0,1]]", 1);
  char *body = strchr(text, '\n') + 1;
  GString *g = g_string_new("{\"machines\":[\"n0\",\"n1\",\"n2\",\"n3\",\"n4\",\"n5\",\"n6\","
                            "\"n7\",\"n8\",\"n9\",\"n10\",\"n11\"],\"routes\":0,\"execution\":"
                            "\"phased\",\"msize_bytes\":8,\"algorithm\":\"t\",\"collective\":"
                            "\"alltoall\",\"sync\":0,\"version\":1,\"format\":"
                            "\"netsched-schedule-lines\"}\n");
  g_string_append(g, body);
  char *end = strstr(g->str, "{\"end\":");
  g_string_truncate(g, (gsize)(end - g->str));
  g_string_append(g, "{\"end\":{\"transfers\":961,\"phases\":81}}\n");
  char *message = NULL;
  NsSchedule *a = read_both(g->str, g->len, &message);
  g_assert_null(message);
  GError *err = NULL;
  NsSchedule *b = read_by(text, strlen(text), 0, TRUE, &err);
  g_assert_no_error(err);
  assert_same(a, b);
  ns_schedule_free(a);
  ns_schedule_free(b);
  g_string_free(g, TRUE);
  g_free(text);
}

/* Random damage to a file plan -o writes: both paths, in any read size,
 * the same schedule or the same message. */
static void test_fast_path_damaged(void)
{
  GError *err = NULL;
  NsTopology *t = ns_shape_from_spec("tree:4,8", &err);
  g_assert_no_error(err);
  NsPlanParams params = { .msize = 4096 };
  NsSchedule *s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, &err);
  g_assert_no_error(err);
  gsize len;
  char *text = write_text(s, NS_SCHEDULE_JSONL, &len);
  static const char bytes[] = "0123456789,[]-.e \n\"{}";
  GRand *rng = g_rand_new_with_seed(24);
  int failed = 0;
  for (int iter = 0; iter < 300; iter++) {
    char *bad = g_memdup2(text, len);
    int n = g_rand_int_range(rng, 1, 4);
    for (int k = 0; k < n; k++) /* past the header line, into the phases */
      bad[g_rand_int_range(rng, (gint32)(strchr(text, '\n') - text) + 1, (gint32)len)] =
          bytes[g_rand_int_range(rng, 0, (gint32)sizeof bytes - 1)];
    char *message = NULL;
    NsSchedule *back = read_both(bad, len, &message);
    failed += back == NULL;
    ns_schedule_free(back);
    g_free(message);
    g_free(bad);
  }
  g_assert_cmpint(failed, >, 200); /* most damage is noticed */
  g_rand_free(rng);
  free(text);
  ns_schedule_free(s);
  ns_topology_free(t);
}

/* ---- reading ahead on a thread of its own ----------------------------------- */

/* A JSON Lines file large enough for many batches and a full queue (the
 * thread waits): 30,000 phases of 12 transfers, 5.5 MiB of transfers. */
#define AHEAD_PHASES 30000
/* The most bytes of phases the thread may hold (see
 * schedule_stream_ahead_internal.h, "Memory"), with room to spare. */
#define AHEAD_MAX_HELD (NS_AHEAD_QUEUE_BYTES + 2 * NS_AHEAD_BATCH_BYTES)
static char *ahead_text(gsize *len)
{
  char *text = lines_many("[[0,1]]", 1, AHEAD_PHASES);
  *len = strlen(text);
  return text;
}

static NsScheduleReader *ahead_reader(const char *data, gsize len, gboolean ahead)
{
  NsScheduleReader *r = ns_schedule_reader_new_for_data("t.json", data, len);
  ns_schedule_reader_set_read_ahead(r, ahead ? 0 : G_MAXUINT64);
  return r;
}

/* Phase by phase, the same phases, counts and positions on either thread,
 * plain and compressed; the thread is joined at the end of the phases. */
static void test_ahead_same_phases(void)
{
  gsize len;
  char *text = ahead_text(&len);
  GBytes *z = zstd_bytes(text, len);
  for (int packed = 0; packed < 2; packed++) {
    gsize n = len;
    const char *data = packed ? g_bytes_get_data(z, &n) : text;
    NsScheduleReader *one = ahead_reader(data, n, FALSE), *two = ahead_reader(data, n, TRUE);
    GError *err = NULL;
    NsPhase a, b;
    int got_a, got_b;
    uint32_t phases = 0;
    do {
      got_a = ns_schedule_reader_next_phase(one, &a, &err);
      g_assert_no_error(err);
      got_b = ns_schedule_reader_next_phase(two, &b, &err);
      g_assert_no_error(err);
      g_assert_cmpint(got_a, ==, got_b);
      g_assert_false(ns_schedule_reader_reading_ahead(one));
      if (got_a > 0) {
        g_assert_true(ns_schedule_reader_reading_ahead(two));
        g_assert_cmpuint(a.index, ==, b.index);
        g_assert_cmpuint(a.first, ==, b.first);
        g_assert_cmpuint(a.n, ==, b.n);
        g_assert_cmpint(memcmp(a.transfers, b.transfers, a.n * sizeof(NsTransfer)), ==, 0);
        phases++;
      }
      g_assert_cmpuint(ns_schedule_reader_n_phases(one), ==, ns_schedule_reader_n_phases(two));
      g_assert_cmpuint(ns_schedule_reader_n_transfers(one), ==,
                       ns_schedule_reader_n_transfers(two));
      g_assert_cmpuint(ns_schedule_reader_position(one), ==, ns_schedule_reader_position(two));
    } while (got_a > 0);
    g_assert_cmpuint(phases, ==, AHEAD_PHASES);
    g_assert_false(ns_schedule_reader_reading_ahead(two)); /* joined */
    g_assert_cmpuint(ns_schedule_reader_ahead_peak(two), >, 0);
    g_assert_cmpuint(ns_schedule_reader_ahead_peak(two), <=, AHEAD_MAX_HELD);
    NsSchedule *ta = ns_schedule_reader_finish(one, &err);
    g_assert_no_error(err);
    NsSchedule *tb = ns_schedule_reader_finish(two, &err);
    g_assert_no_error(err);
    assert_same(ta, tb);
    ns_schedule_free(ta);
    ns_schedule_free(tb);
    ns_schedule_reader_free(one);
    ns_schedule_reader_free(two);
  }
  g_bytes_unref(z);
  g_free(text);
}

/* Phases without transfers still take a record each in a batch: they close
 * batches like transfers do, so that 300,000 of them (9.6 MB of records,
 * 0.9 MB of text) are held a few batches at a time, not in one batch
 * (memory grew with the file, 32 bytes a phase of 3 bytes of text). */
static void test_ahead_empty_phases(void)
{
  enum { EMPTY_PHASES = 300000 };
  GString *g = g_string_new("{\"format\":\"netsched-schedule-lines\",\"version\":1,"
                            "\"collective\":\"alltoall\",\"algorithm\":\"t\","
                            "\"machines\":[\"n0\",\"n1\"],\"msize_bytes\":8,"
                            "\"execution\":\"phased\",\"sync\":0,\"routes\":0}\n");
  for (int p = 0; p < EMPTY_PHASES; p++)
    g_string_append(g, "[]\n");
  g_string_append_printf(g, "{\"end\":{\"phases\":%d,\"transfers\":0}}\n", EMPTY_PHASES);
  NsScheduleReader *r = ahead_reader(g->str, g->len, TRUE);
  GError *err = NULL;
  NsPhase ph;
  int got, phases = 0;
  while ((got = ns_schedule_reader_next_phase(r, &ph, &err)) > 0) {
    g_assert_cmpuint(ph.n, ==, 0);
    phases++;
  }
  g_assert_no_error(err);
  g_assert_cmpint(phases, ==, EMPTY_PHASES);
  g_assert_cmpuint(ns_schedule_reader_ahead_peak(r), >, 0);
  g_assert_cmpuint(ns_schedule_reader_ahead_peak(r), <=, AHEAD_MAX_HELD);
  NsSchedule *tail = ns_schedule_reader_finish(r, &err);
  g_assert_no_error(err);
  ns_schedule_free(tail);
  ns_schedule_reader_free(r);
  g_string_free(g, TRUE);
}

/* The thread starts once 4 MiB of the document were read, never for a
 * small file. */
static void test_ahead_from_size(void)
{
  for (int big = 0; big < 2; big++) {
    char *text = lines_many("[[0,1]]", 1, big ? 60000 : 81);
    gsize len = strlen(text);
    NsScheduleReader *r = ns_schedule_reader_new_for_data("t.json", text, len);
    GError *err = NULL;
    NsPhase ph;
    guint64 started = 0;
    while (ns_schedule_reader_next_phase(r, &ph, &err) > 0)
      if (started == 0 && ns_schedule_reader_reading_ahead(r))
        started = ns_schedule_reader_position(r);
    g_assert_no_error(err);
    if (big) {
      g_assert_cmpuint(len, >, 4u << 20);
      g_assert_cmpuint(started, >=, 4u << 20);
    } else {
      g_assert_cmpuint(started, ==, 0);
    }
    NsSchedule *tail = ns_schedule_reader_finish(r, &err);
    g_assert_no_error(err);
    ns_schedule_free(tail);
    ns_schedule_reader_free(r);
    g_free(text);
  }
}

/* Reads `data` whole on this thread and read ahead: the same message. */
static void assert_same_error(const char *data, gsize len, const char *want)
{
  GError *e1 = NULL, *e2 = NULL;
  NsScheduleReader *one = ahead_reader(data, len, FALSE), *two = ahead_reader(data, len, TRUE);
  NsSchedule *a = ns_schedule_reader_read_all(one, &e1);
  NsSchedule *b = ns_schedule_reader_read_all(two, &e2);
  g_assert_null(a);
  g_assert_null(b);
  g_assert_nonnull(e1);
  g_assert_nonnull(e2);
  g_assert_cmpstr(e1->message, ==, want);
  g_assert_cmpstr(e2->message, ==, want);
  g_assert_cmpint(e1->code, ==, e2->code);
  g_assert_false(ns_schedule_reader_reading_ahead(two));
  g_clear_error(&e1);
  g_clear_error(&e2);
  ns_schedule_reader_free(one);
  ns_schedule_reader_free(two);
}

/* Bad input in the middle, in the last phase line, in the end line, and
 * corrupt or truncated compressed data: the messages of the reader on
 * this thread. */
static void test_ahead_errors(void)
{
  gsize len;
  char *text = ahead_text(&len);
  char *end = strstr(text, "{\"end\"");
  /* a machine out of range halfway */
  const char *mid = strchr(text + len / 2, '\n') + 1; /* a phase line: "[[0,..." */
  g_assert_cmpint(mid[2], ==, '0');
  char *bad = g_strdup_printf("%.*s99%s", (int)(mid + 2 - text), text, mid + 3);
  guint64 line = 1;
  for (const char *c = text; c < mid; c++)
    line += *c == '\n';
  char *want = g_strdup_printf("t.json:%" G_GUINT64_FORMAT ": $.phases[%" G_GUINT64_FORMAT
                               "][0][0]: machine index 99 out of range (12 machines)", line,
                               line - 2);
  assert_same_error(bad, strlen(bad), want);
  g_free(want);
  g_free(bad);
  /* the end line counts one phase more */
  bad = g_strdup_printf("%.*s{\"end\":{\"phases\":%d,\"transfers\":%d}}\n", (int)(end - text),
                        text, AHEAD_PHASES + 1, 12 * (AHEAD_PHASES - 1) + 1);
  want = g_strdup_printf("t.json:%d: $.end: the end line counts %d phases and %d transfers, "
                         "the file has %d and %d (a damaged file?)", AHEAD_PHASES + 2,
                         AHEAD_PHASES + 1, 12 * (AHEAD_PHASES - 1) + 1, AHEAD_PHASES,
                         12 * (AHEAD_PHASES - 1) + 1);
  assert_same_error(bad, strlen(bad), want);
  g_free(want);
  g_free(bad);
  /* the last phase line cut in its middle, no end line */
  gsize cut = (gsize)(end - text) - 20;
  GError *err = NULL;
  NsSchedule *s = read_by(text, cut, 0, FALSE, &err);
  g_assert_null(s);
  g_assert_true(strstr(err->message, "unexpected end of input") != NULL);
  assert_same_error(text, cut, err->message);
  g_clear_error(&err);
  /* compressed: corrupt in the middle, cut short */
  GBytes *z = zstd_bytes(text, len);
  gsize n;
  const char *data = g_bytes_get_data(z, &n);
  char *zbad = g_memdup2(data, n);
  for (gsize k = n / 2; k < n / 2 + 64; k++)
    zbad[k] = (char)(zbad[k] ^ 0x5a);
  s = read_by(zbad, n, 0, FALSE, &err);
  g_assert_null(s);
  g_assert_true(g_str_has_prefix(err->message, "t.json: corrupt zstd data: "));
  assert_same_error(zbad, n, err->message);
  g_clear_error(&err);
  assert_same_error(data, n - 100,
                    "t.json: truncated zstd data: the input ends inside a frame");
  g_free(zbad);
  g_bytes_unref(z);
  g_free(text);
}

/* Stopping early: freeing the reader while the thread reads (or waits on
 * a full queue) joins it (the sanitizers see no leak, no use after free);
 * finish after a few phases skips the rest as on this thread, with the
 * same tail or the same error; limits set while it reads apply from then
 * on, after the phases it read. */
static void test_ahead_early_stop(void)
{
  gsize len;
  char *text = ahead_text(&len);
  char *end = strstr(text, "{\"end\"");
  char *bad = g_strdup_printf("%.*s{\"end\":{\"phases\":1,\"transfers\":1}}\n", (int)(end - text),
                              text);
  for (int which = 0; which < 2; which++) {
    const char *data = which == 0 ? text : bad;
    gsize n = strlen(data);
    for (int taken = 0; taken < 4; taken++) {
      /* freed after `taken` phases */
      NsScheduleReader *r = ahead_reader(data, n, TRUE);
      GError *err = NULL;
      NsPhase ph;
      for (int k = 0; k < taken; k++)
        g_assert_cmpint(ns_schedule_reader_next_phase(r, &ph, &err), ==, 1);
      g_assert_no_error(err);
      g_assert_true(ns_schedule_reader_reading_ahead(r) == (taken > 0));
      g_usleep(1000); /* let the thread fill its queue */
      ns_schedule_reader_free(r);
      /* finished after `taken` phases, on either thread */
      GError *e[2] = { NULL, NULL };
      NsSchedule *tail[2];
      for (int ahead = 0; ahead < 2; ahead++) {
        r = ahead_reader(data, n, ahead);
        for (int k = 0; k < taken; k++)
          g_assert_cmpint(ns_schedule_reader_next_phase(r, &ph, &err), ==, 1);
        tail[ahead] = ns_schedule_reader_finish(r, &e[ahead]);
        g_assert_false(ns_schedule_reader_reading_ahead(r));
        ns_schedule_reader_free(r);
      }
      g_assert_true((tail[0] == NULL) == (which == 1));
      g_assert_true((tail[1] == NULL) == (which == 1));
      if (which == 0) {
        assert_same(tail[0], tail[1]);
      } else {
        g_assert_cmpstr(e[0]->message, ==, e[1]->message);
        g_assert_true(strstr(e[0]->message, "the end line counts 1 phases") != NULL);
      }
      for (int k = 0; k < 2; k++) {
        ns_schedule_free(tail[k]);
        g_clear_error(&e[k]);
      }
    }
  }
  /* limits while reading ahead: the thread stops, its phases come first */
  NsScheduleReader *r = ahead_reader(text, len, TRUE);
  GError *err = NULL;
  NsPhase ph;
  for (int k = 0; k < 5; k++)
    g_assert_cmpint(ns_schedule_reader_next_phase(r, &ph, &err), ==, 1);
  NsScheduleLimits limits = { .max_input = len };
  ns_schedule_reader_set_limits(r, &limits);
  uint32_t phases = 5;
  while (ns_schedule_reader_next_phase(r, &ph, &err) > 0) {
    g_assert_cmpuint(ph.index, ==, phases);
    phases++;
  }
  g_assert_no_error(err);
  g_assert_cmpuint(phases, ==, AHEAD_PHASES);
  g_assert_false(ns_schedule_reader_reading_ahead(r));
  NsSchedule *tail = ns_schedule_reader_finish(r, &err);
  g_assert_no_error(err);
  ns_schedule_free(tail);
  ns_schedule_reader_free(r);
  g_free(bad);
  g_free(text);
}

/* Verifies the file `data` as `netsched verify FILE` does: the reader's
 * phases into a verifier session, on this thread or read ahead. */
static NsVerifySession *verify_read(const NsTopology *t, const char *data, gsize len,
                                    gboolean ahead, NsVerifyReport *r)
{
  NsScheduleReader *rd = ahead_reader(data, len, ahead);
  GError *err = NULL;
  const NsSchedule *header = ns_schedule_reader_header(rd, &err);
  g_assert_no_error(err);
  NsVerifySession *vs = ns_verify_begin(t, header, NULL, 0, &err);
  g_assert_no_error(err);
  NsPhase ph;
  int got;
  while ((got = ns_schedule_reader_next_phase(rd, &ph, &err)) > 0)
    g_assert_true(ns_verify_phase(vs, ph.transfers, ph.n, ph.chunk_pool, &err));
  g_assert_no_error(err);
  g_assert_true(ns_schedule_reader_reading_ahead(rd) == FALSE);
  NsSchedule *tail = ns_schedule_reader_finish(rd, &err);
  g_assert_no_error(err);
  g_assert_true(ns_verify_end(vs, tail, r, &err));
  g_assert_no_error(err);
  ns_schedule_free(tail);
  ns_schedule_reader_free(rd);
  return vs;
}

/* The verifier's findings on a file read ahead: those of the file read on
 * the verifier's thread (a damaged faraj schedule: contention, data flow). */
static void test_ahead_findings(void)
{
  GError *err = NULL;
  NsTopology *t = ns_shape_from_spec("tree:4,8", &err);
  g_assert_no_error(err);
  NsPlanParams params = { .msize = 4096 };
  NsSchedule *s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, &err);
  g_assert_no_error(err);
  guint n = s->transfers->len;
  for (guint k = 0; k < 8; k++) { /* swapped transfers of far apart phases */
    NsTransfer *a = &g_array_index(s->transfers, NsTransfer, k * 37 % n);
    NsTransfer *b = &g_array_index(s->transfers, NsTransfer, (k * 37 + n / 2) % n);
    NsTransfer tmp = *a;
    *a = *b;
    *b = tmp;
  }
  gsize len;
  char *text = write_text(s, NS_SCHEDULE_JSONL, &len);
  NsVerifyReport a, b;
  NsVerifySession *va = verify_read(t, text, len, FALSE, &a);
  NsVerifySession *vb = verify_read(t, text, len, TRUE, &b);
  g_assert_cmpuint(a.findings->len, >, 0);
  assert_same_report(&a, ns_verify_session_schedule(va), &b, ns_verify_session_schedule(vb), t);
  ns_verify_report_clear(&a);
  ns_verify_report_clear(&b);
  ns_verify_session_free(va);
  ns_verify_session_free(vb);
  free(text);
  ns_schedule_free(s);
  ns_topology_free(t);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/schedule-stream/round-trip/random", test_round_trip_random);
  g_test_add_func("/schedule-stream/key-order", test_key_order);
  g_test_add_func("/schedule-stream/phases", test_phases_one_at_a_time);
  g_test_add_func("/schedule-stream/compressed", test_compressed);
  g_test_add_func("/schedule-stream/write-compressed", test_write_compressed);
  g_test_add_func("/schedule-stream/bounded", test_bounded);
  g_test_add_func("/schedule-stream/lines/lenient", test_lines_lenient);
  g_test_add_func("/schedule-stream/lines/sync-zero", test_lines_sync_zero);
  g_test_add_func("/schedule-stream/limits", test_limits);
  /* before any thread reads ahead: they set the environment */
  for (unsigned i = 0; i < G_N_ELEMENTS(bad_lines); i++) {
    char *name = g_strdup_printf("/schedule-stream/lines/bad/%s", bad_lines[i].name);
    g_test_add_data_func(name, &bad_lines[i], test_bad_lines);
    g_free(name);
  }
  g_test_add_func("/schedule-stream/fast-path/planned", test_fast_path_planned);
  g_test_add_func("/schedule-stream/fast-path/key-order", test_fast_path_key_order);
  g_test_add_func("/schedule-stream/fast-path/limit", test_fast_path_limit);
  g_test_add_func("/schedule-stream/fast-path/damaged", test_fast_path_damaged);
  for (unsigned i = 0; i < G_N_ELEMENTS(fast_cases); i++) {
    char *name = g_strdup_printf("/schedule-stream/fast-path/bad/%s", fast_cases[i].name);
    g_test_add_data_func(name, &fast_cases[i], test_fast_path_errors);
    g_free(name);
  }
  g_test_add_func("/schedule-stream/read-ahead/same-phases", test_ahead_same_phases);
  g_test_add_func("/schedule-stream/read-ahead/from-size", test_ahead_from_size);
  g_test_add_func("/schedule-stream/read-ahead/empty-phases", test_ahead_empty_phases);
  g_test_add_func("/schedule-stream/read-ahead/errors", test_ahead_errors);
  g_test_add_func("/schedule-stream/read-ahead/early-stop", test_ahead_early_stop);
  g_test_add_func("/schedule-stream/read-ahead/findings", test_ahead_findings);
  g_test_add_func("/schedule-stream/session/matches", test_session_matches);
  g_test_add_func("/schedule-stream/session/split", test_session_split);
  g_test_add_func("/schedule-stream/session/planned-taken", test_session_planned_taken);
  g_test_add_func("/schedule-stream/session/errors", test_session_errors);
  g_test_add_func("/schedule-stream/session/kept", test_session_kept);
  return g_test_run();
}
