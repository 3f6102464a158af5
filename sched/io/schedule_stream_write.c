/* netsched — schedule streams: the writer. See schedule_stream.h and
 * docs/schedule-format.md ("What the writer produces").
 *
 * Output goes through a private 256 KiB buffer onto the FILE. Transfers
 * are formatted in place: the buffer is flushed when fewer bytes remain
 * than the longest transfer could need, and numbers are written by a
 * small digit loop, so a phase costs a few bytes of copying per transfer
 * and nothing is held beyond the phase being written. A compressed
 * writer passes each flushed buffer through libzstd's streaming
 * compressor or GLib's GZlibCompressor (one zstd frame, one gzip member),
 * the formats the reader recognises by their magic bytes.
 */
#include "sched/io/schedule_stream.h"
#include "sched/io/schedule_json.h"
#include "platforms/model/error.h"
#include "platforms/io/output_file_internal.h"
#include "platforms/model/units.h"

#include <errno.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define OUT_SIZE (256u << 10)
/* Sync edges per line in JSON, and per trailing line in JSON Lines. */
#define JSON_SYNC_PER_LINE 16
#define LINES_SYNC_PER_LINE 4096
#define LINES_ROUTES_PER_LINE 256

/* Compressed bytes per write. */
#define ZOUT_SIZE (128u << 10)

struct NsScheduleWriter {
  FILE *out;
  NsScheduleFormat format;
  NsCompression compression;
  ZSTD_CCtx *zstd;    /* NS_COMPRESS_ZSTD */
  GConverter *gzip;   /* NS_COMPRESS_GZIP */
  char *zout;         /* compressed bytes on their way to `out` */
  const NsSchedule *header;
  char *name;
  int err;            /* errno of the first failed write, 0 if none */
  uint32_t n_phases;
  uint64_t n_transfers;
  gsize len;
  char buf[OUT_SIZE];
};

/* Bytes onto the FILE as they are. */
static void raw_write(NsScheduleWriter *w, const void *data, gsize n)
{
  if (n == 0 || w->err != 0)
    return;
  errno = 0;
  if (fwrite(data, 1, n, w->out) != n)
    w->err = errno != 0 ? errno : EIO;
}

static void zstd_write(NsScheduleWriter *w, const void *data, gsize n, gboolean end)
{
  ZSTD_inBuffer in = { data, n, 0 };
  for (;;) {
    ZSTD_outBuffer out = { w->zout, ZOUT_SIZE, 0 };
    size_t left = ZSTD_compressStream2(w->zstd, &out, &in, end ? ZSTD_e_end : ZSTD_e_continue);
    if (ZSTD_isError(left)) {
      w->err = w->err != 0 ? w->err : EIO;
      return;
    }
    raw_write(w, w->zout, out.pos);
    if (end ? left == 0 : in.pos == in.size)
      return;
  }
}

static void gzip_write(NsScheduleWriter *w, const char *data, gsize n, gboolean end)
{
  for (;;) {
    gsize read = 0, written = 0;
    GError *e = NULL;
    GConverterResult r = g_converter_convert(w->gzip, data, n, w->zout, ZOUT_SIZE,
                                             end ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS,
                                             &read, &written, &e);
    if (r == G_CONVERTER_ERROR) {
      g_error_free(e);
      w->err = w->err != 0 ? w->err : EIO;
      return;
    }
    raw_write(w, w->zout, written);
    data += read;
    n -= read;
    if (r == G_CONVERTER_FINISHED || (!end && n == 0))
      return;
  }
}

/* Bytes onto the FILE, compressed when asked; `end` closes the frame. */
static void sink_write(NsScheduleWriter *w, const char *data, gsize n, gboolean end)
{
  switch (w->compression) {
  case NS_COMPRESS_NONE: raw_write(w, data, n); break;
  case NS_COMPRESS_ZSTD: if (n > 0 || end) zstd_write(w, data, n, end); break;
  case NS_COMPRESS_GZIP: if (n > 0 || end) gzip_write(w, data, n, end); break;
  }
}

static void out_flush(NsScheduleWriter *w)
{
  if (w->len > 0)
    sink_write(w, w->buf, w->len, FALSE);
  w->len = 0;
}

/* Room for n more bytes in the buffer (n <= OUT_SIZE). */
static inline char *out_reserve(NsScheduleWriter *w, gsize n)
{
  if (OUT_SIZE - w->len < n)
    out_flush(w);
  return w->buf + w->len;
}

static void out_bytes(NsScheduleWriter *w, const char *s, gsize n)
{
  if (n > OUT_SIZE - w->len) {
    out_flush(w);
    if (n > OUT_SIZE) {
      sink_write(w, s, n, FALSE);
      return;
    }
  }
  memcpy(w->buf + w->len, s, n);
  w->len += n;
}

static void out_str(NsScheduleWriter *w, const char *s)
{
  out_bytes(w, s, strlen(s));
}

static inline void out_char(NsScheduleWriter *w, char c)
{
  *out_reserve(w, 1) = c;
  w->len++;
}

static const char digit_pairs[201] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* Decimal digits of v at q (room for 20); returns the end. Two digits a
 * step, written from the end once the length is known. */
static inline char *put_uint(char *q, guint64 v)
{
  if (v < 10) {
    *q = (char)('0' + v);
    return q + 1;
  }
  int n = 1; /* digits: 4 per factor of 10^4, then those of the rest */
  guint64 top = v;
  for (; top >= 10000; top /= 10000)
    n += 4;
  n += top >= 1000 ? 3 : top >= 100 ? 2 : top >= 10 ? 1 : 0;
  char *e = q + n, *w = e;
  while (v >= 100) {
    guint64 r = v % 100;
    v /= 100;
    w -= 2;
    memcpy(w, digit_pairs + 2 * r, 2);
  }
  if (v >= 10) {
    w -= 2;
    memcpy(w, digit_pairs + 2 * v, 2);
  } else {
    *--w = (char)('0' + v);
  }
  return e;
}

static void out_int(NsScheduleWriter *w, gint64 v)
{
  char *q = out_reserve(w, 21), *start = q;
  if (v < 0) {
    *q++ = '-';
    q = put_uint(q, (guint64)0 - (guint64)v);
  } else {
    q = put_uint(q, (guint64)v);
  }
  w->len += (gsize)(q - start);
}

/* A JSON string; s must be valid UTF-8. */
static void out_json_string(NsScheduleWriter *w, const char *s)
{
  out_char(w, '"');
  for (const guchar *p = (const guchar *)s; *p != '\0'; p++) {
    switch (*p) {
    case '"': out_str(w, "\\\""); break;
    case '\\': out_str(w, "\\\\"); break;
    case '\n': out_str(w, "\\n"); break;
    case '\t': out_str(w, "\\t"); break;
    case '\r': out_str(w, "\\r"); break;
    default:
      if (*p < 0x20) {
        char esc[8];
        g_snprintf(esc, sizeof esc, "\\u%04x", *p);
        out_str(w, esc);
      } else {
        out_char(w, (char)*p);
      }
    }
  }
  out_char(w, '"');
}

static gboolean valid_name(const char *s)
{
  return s != NULL && *s != '\0' && g_utf8_validate(s, -1, NULL);
}

/* What the reader would refuse and the writer cannot express. Transfer
 * contents are written as they are (the reader range-checks them). */
static gboolean check_writable(const NsSchedule *s, const char *name, GError **error)
{
  if (!valid_name(s->algorithm)) {
    ns_set_error_at(error, NS_ERROR_INPUT, name, 0,
                    "cannot write schedule: algorithm name is empty or not UTF-8");
    return FALSE;
  }
  if (s->n_machines <= 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, name, 0, "cannot write schedule: no machines");
    return FALSE;
  }
  for (int i = 0; i < s->n_machines; i++)
    if (!valid_name(s->machines[i])) {
      ns_set_error_at(error, NS_ERROR_INPUT, name, 0,
                      "cannot write schedule: machine %d has an empty or non-UTF-8 name", i);
      return FALSE;
    }
  if ((s->collective == NS_COLL_BCAST || s->collective == NS_COLL_REDUCE) &&
      (s->root < 0 || s->root >= s->n_machines)) {
    ns_set_error_at(error, NS_ERROR_INPUT, name, 0,
                    "cannot write schedule: %s root %d out of range (%d machines)",
                    ns_collective_name(s->collective), s->root, s->n_machines);
    return FALSE;
  }
  if (ns_collective_is_vector(s->collective) && s->chunk_bytes == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, name, 0,
                    "cannot write schedule: %s without chunk sizes",
                    ns_collective_name(s->collective));
    return FALSE;
  }
  if (s->sync_scheme != NULL && !valid_name(s->sync_scheme)) {
    ns_set_error_at(error, NS_ERROR_INPUT, name, 0,
                    "cannot write schedule: sync scheme name is empty or not UTF-8");
    return FALSE;
  }
  if (s->store_forward && s->collective != NS_COLL_ALLTOALL) {
    ns_set_error_at(error, NS_ERROR_INPUT, name, 0,
                    "cannot write schedule: store-and-forward relays apply to all-to-all "
                    "schedules only (this is %s)", ns_collective_name(s->collective));
    return FALSE;
  }
  if (s->msize == 0 || s->msize > NS_MAX_MSIZE) {
    ns_set_error_at(error, NS_ERROR_INPUT, name, 0,
                    "cannot write schedule: message size %" G_GUINT64_FORMAT " out of range",
                    s->msize);
    return FALSE;
  }
  return TRUE;
}

/* ---- headers ------------------------------------------------------------- */

/* The keys of the collectives that have them: root (bcast, reduce),
 * segments (bcast, reduce, allreduce), chunk_bytes (alltoallv, allgatherv,
 * reductions with sizes), each after `sep`, with `colon` after the key. */
static void write_collective_keys(NsScheduleWriter *w, const char *sep, const char *colon)
{
  const NsSchedule *s = w->header;
  NsCollective c = s->collective;
  if (c == NS_COLL_BCAST || c == NS_COLL_REDUCE) {
    out_str(w, sep);
    out_str(w, "\"root\"");
    out_str(w, colon);
    out_json_string(w, s->machines[s->root]);
  }
  if (c == NS_COLL_BCAST || ns_collective_is_reduction(c)) {
    out_str(w, sep);
    out_str(w, "\"segments\"");
    out_str(w, colon);
    out_int(w, s->n_segments);
  }
  if (s->chunk_bytes != NULL) {
    out_str(w, sep);
    out_str(w, "\"chunk_bytes\"");
    out_str(w, colon);
    out_char(w, '[');
    for (guint i = 0; i < s->chunk_bytes->len; i++) {
      if (i > 0)
        out_char(w, ',');
      out_int(w, (gint64)g_array_index(s->chunk_bytes, uint64_t, i));
    }
    out_char(w, ']');
  }
}

static void write_json_header(NsScheduleWriter *w)
{
  const NsSchedule *s = w->header;
  out_str(w, "{\n  \"format\": ");
  out_json_string(w, NS_SCHEDULE_FORMAT);
  out_str(w, ",\n  \"version\": ");
  out_int(w, NS_SCHEDULE_VERSION);
  out_str(w, ",\n  \"collective\": ");
  out_json_string(w, ns_collective_name(s->collective));
  out_str(w, ",\n  \"algorithm\": ");
  out_json_string(w, s->algorithm);
  out_str(w, ",\n  \"machines\": [");
  for (int i = 0; i < s->n_machines; i++) {
    if (i > 0)
      out_str(w, ", ");
    out_json_string(w, s->machines[i]);
  }
  out_str(w, "],\n  \"msize_bytes\": ");
  out_int(w, (gint64)s->msize);
  out_str(w, ",\n  \"execution\": ");
  out_json_string(w, ns_execution_name(s->execution));
  if (s->store_forward) /* absent: relays keep their copies (docs/schedule-format.md) */
    out_str(w, ",\n  \"relays\": \"" NS_RELAYS_STORE_FORWARD "\"");
  write_collective_keys(w, ",\n  ", ": ");
  out_str(w, ",\n  \"phases\": [");
}

static void write_lines_header(NsScheduleWriter *w)
{
  const NsSchedule *s = w->header;
  out_str(w, "{\"format\":");
  out_json_string(w, NS_SCHEDULE_LINES_FORMAT);
  out_str(w, ",\"version\":");
  out_int(w, NS_SCHEDULE_VERSION);
  out_str(w, ",\"collective\":");
  out_json_string(w, ns_collective_name(s->collective));
  out_str(w, ",\"algorithm\":");
  out_json_string(w, s->algorithm);
  out_str(w, ",\"machines\":[");
  for (int i = 0; i < s->n_machines; i++) {
    if (i > 0)
      out_char(w, ',');
    out_json_string(w, s->machines[i]);
  }
  out_str(w, "],\"msize_bytes\":");
  out_int(w, (gint64)s->msize);
  out_str(w, ",\"execution\":");
  out_json_string(w, ns_execution_name(s->execution));
  if (s->store_forward)
    out_str(w, ",\"relays\":\"" NS_RELAYS_STORE_FORWARD "\"");
  write_collective_keys(w, ",", ":");
  if (s->sync_scheme != NULL) {
    out_str(w, ",\"sync_scheme\":");
    out_json_string(w, s->sync_scheme);
  }
  if (s->sync->len > 0 || s->sync_set) { /* absent: the scheme is only a recommendation */
    out_str(w, ",\"sync\":");
    out_int(w, s->sync->len);
  }
  out_str(w, ",\"routes\":");
  out_int(w, s->routes != NULL ? s->routes->len : 0);
  out_str(w, "}\n");
}

/**
 * \function ns_schedule_writer_new
 * \brief Starts writing a schedule onto a stream.
 *
 * \param out The stream.
 * \param format JSON or JSON Lines.
 * \param header Everything but the phases (sync edges, routes and scheme are written at finish
 *        and must be there already); it must live until finish.
 * \param name A path for messages, or NULL.
 * \param error Set on failure (see errors).
 * \return The writer, or NULL.
 * \errors NS_ERROR_INPUT when the header cannot be written (empty or non-UTF-8 names, a bad root
 *        or message size).
 * \complexity O(header).
 * \source docs/schedule-format.md.
 */
NsScheduleWriter *ns_schedule_writer_new(FILE *out, NsScheduleFormat format,
                                         const NsSchedule *header, const char *name,
                                         GError **error)
{
  return ns_schedule_writer_new_compressed(out, format, NS_COMPRESS_NONE, header, name, error);
}

/**
 * \function ns_schedule_writer_new_compressed
 * \brief Starts writing a schedule compressed (one zstd frame or gzip member).
 *
 * \param out The stream.
 * \param format JSON or JSON Lines.
 * \param compression NS_COMPRESS_GZIP, _ZSTD or _NONE (then ns_schedule_writer_new()).
 * \param header As ns_schedule_writer_new().
 * \param name A path for messages, or NULL.
 * \param error Set on failure (see errors).
 * \return The writer, or NULL.
 * \errors those of ns_schedule_writer_new().
 * \complexity O(header).
 * \source docs/schedule-format.md.
 */
NsScheduleWriter *ns_schedule_writer_new_compressed(FILE *out, NsScheduleFormat format,
                                                    NsCompression compression,
                                                    const NsSchedule *header, const char *name,
                                                    GError **error)
{
  if (!check_writable(header, name, error))
    return NULL;
  NsScheduleWriter *w = g_new0(NsScheduleWriter, 1);
  w->out = out;
  w->format = format;
  w->compression = compression;
  w->header = header;
  w->name = g_strdup(name);
  if (compression != NS_COMPRESS_NONE)
    w->zout = g_malloc(ZOUT_SIZE);
  if (compression == NS_COMPRESS_ZSTD) {
    w->zstd = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(w->zstd, ZSTD_c_checksumFlag, 1);
  } else if (compression == NS_COMPRESS_GZIP) {
    w->gzip = G_CONVERTER(g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1));
  }
  if (format == NS_SCHEDULE_JSON)
    write_json_header(w);
  else
    write_lines_header(w);
  return w;
}

/* ---- phases ---------------------------------------------------------------- */

/**
 * \function ns_schedule_writer_phase
 * \brief Appends one phase (numbered in the order written).
 *
 * \param w The writer.
 * \param phase The phase (its index and first are ignored).
 * \errors none here: write errors surface at check and finish.
 * \complexity O(phase).
 * \source docs/schedule-format.md.
 */
void ns_schedule_writer_phase(NsScheduleWriter *w, const NsPhase *phase)
{
  const NsSchedule *s = w->header;
  gboolean lines = w->format == NS_SCHEDULE_JSONL;
  uint32_t n = (uint32_t)s->n_machines;
  if (lines)
    out_char(w, '[');
  else
    out_str(w, w->n_phases == 0 ? "\n    [" : ",\n    [");
  for (uint64_t t = 0; t < phase->n; t++) {
    const NsTransfer *tr = &phase->transfers[t];
    const uint32_t *chunks = tr->n_chunks == 1 ? &tr->chunk : phase->chunk_pool + tr->chunk;
    NsCollective kind = ns_collective_chunk_kind(s->collective);
    gboolean direct = lines && tr->n_chunks == 1 &&
                      ((kind == NS_COLL_ALLTOALL &&
                        tr->chunk == (uint32_t)tr->src * n + (uint32_t)tr->dst) ||
                       (kind == NS_COLL_ALLGATHER && tr->chunk == (uint32_t)tr->src));
    /* ",[src,dst" then ",[o,d]" or ",c" per chunk, then "]": the longest
     * possible, so that one reserve covers a transfer up to 4096 chunks */
    uint32_t batch = 0;
    char *q = out_reserve(w, 48), *start = q;
    if (t > 0)
      *q++ = ',';
    *q++ = '[';
    if (tr->combine || tr->raw) { /* the markers of docs/schedule-format.md, "Reductions" */
      memcpy(q, tr->raw ? "\"" NS_SCHEDULE_RAW_MARK "\"," : "\"" NS_SCHEDULE_COMBINE_MARK "\",", 4);
      q += 4;
    }
    q = put_uint(q, (uint32_t)tr->src);
    *q++ = ',';
    q = put_uint(q, (uint32_t)tr->dst);
    for (uint32_t k = 0; k < tr->n_chunks && !direct; k++) {
      if (batch == 0) {
        w->len += (gsize)(q - start);
        q = start = out_reserve(w, 48 * 256);
        batch = 256;
      }
      batch--;
      *q++ = ',';
      if (kind == NS_COLL_ALLTOALL || tr->raw) { /* [origin, destination], [origin, segment] */
        uint32_t d = tr->raw ? MAX(s->n_segments, 1) : n;
        *q++ = '[';
        q = put_uint(q, chunks[k] / d);
        *q++ = ',';
        q = put_uint(q, chunks[k] % d);
        *q++ = ']';
      } else {
        q = put_uint(q, chunks[k]);
      }
    }
    *q++ = ']';
    w->len += (gsize)(q - start);
  }
  out_str(w, lines ? "]\n" : "]");
  w->n_phases++;
  w->n_transfers += phase->n;
}

/* ---- tails ------------------------------------------------------------------ */

static void write_route(NsScheduleWriter *w, const NsTransferRoute *r, const char *sep)
{
  const NsSchedule *s = w->header;
  out_char(w, '[');
  out_int(w, r->transfer);
  out_str(w, sep);
  out_char(w, '[');
  for (uint32_t k = 0; k < r->n; k++) {
    if (k > 0)
      out_str(w, sep);
    out_json_string(w, g_ptr_array_index(s->route_names, r->first + k));
  }
  out_str(w, "]]");
}

static void write_json_tail(NsScheduleWriter *w)
{
  const NsSchedule *s = w->header;
  out_str(w, w->n_phases > 0 ? "\n  ]" : "]");
  if (s->sync_scheme != NULL) {
    out_str(w, ",\n  \"sync_scheme\": ");
    out_json_string(w, s->sync_scheme);
  }
  if (s->sync->len > 0 || s->sync_set) {
    out_str(w, ",\n  \"sync\": [");
    for (guint i = 0; i < s->sync->len; i++) {
      const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
      out_str(w, i == 0 ? "\n    " : i % JSON_SYNC_PER_LINE == 0 ? ",\n    " : ",");
      out_char(w, '[');
      out_int(w, e->from);
      out_char(w, ',');
      out_int(w, e->to);
      out_char(w, ']');
    }
    out_str(w, "\n  ]");
  }
  if (s->routes != NULL && s->routes->len > 0) {
    out_str(w, ",\n  \"routes\": [");
    for (guint i = 0; i < s->routes->len; i++) {
      out_str(w, i == 0 ? "\n    " : ",\n    ");
      write_route(w, &g_array_index(s->routes, NsTransferRoute, i), ", ");
    }
    out_str(w, "\n  ]");
  }
  out_str(w, "\n}\n");
}

static void write_lines_tail(NsScheduleWriter *w)
{
  const NsSchedule *s = w->header;
  for (guint i = 0; i < s->sync->len; i++) {
    const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
    out_str(w, i % LINES_SYNC_PER_LINE == 0 ? "{\"sync\":[" : ",");
    out_char(w, '[');
    out_int(w, e->from);
    out_char(w, ',');
    out_int(w, e->to);
    out_char(w, ']');
    if (i % LINES_SYNC_PER_LINE == LINES_SYNC_PER_LINE - 1 || i + 1 == s->sync->len)
      out_str(w, "]}\n");
  }
  guint n_routes = s->routes != NULL ? s->routes->len : 0;
  for (guint i = 0; i < n_routes; i++) {
    out_str(w, i % LINES_ROUTES_PER_LINE == 0 ? "{\"routes\":[" : ",");
    write_route(w, &g_array_index(s->routes, NsTransferRoute, i), ",");
    if (i % LINES_ROUTES_PER_LINE == LINES_ROUTES_PER_LINE - 1 || i + 1 == n_routes)
      out_str(w, "]}\n");
  }
  out_str(w, "{\"end\":{\"phases\":");
  out_int(w, w->n_phases);
  out_str(w, ",\"transfers\":");
  out_int(w, (gint64)w->n_transfers);
  out_str(w, "}}\n");
}

/**
 * \function ns_schedule_writer_abort
 * \brief Frees a writer without finishing (after an error).
 *
 * \param w The writer.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
void ns_schedule_writer_abort(NsScheduleWriter *w)
{
  if (w == NULL)
    return;
  ZSTD_freeCCtx(w->zstd);
  g_clear_object(&w->gzip);
  g_free(w->zout);
  g_free(w->name);
  g_free(w);
}

/* The error of a failed write (errno `err`), naming the writer's file. */
static void write_error(const NsScheduleWriter *w, int err, GError **error)
{
  ns_set_error_at(error, NS_ERROR_IO, w->name, 0, "cannot write schedule: %s", g_strerror(err));
}

/**
 * \function ns_schedule_writer_check
 * \brief Whether a write has failed, so that a long producer can stop early.
 *
 * \param w The writer.
 * \param error Set on failure (see errors).
 * \return FALSE once a write failed.
 * \errors NS_ERROR_IO "cannot write schedule: why" (a full disk).
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
gboolean ns_schedule_writer_check(const NsScheduleWriter *w, GError **error)
{
  if (w->err != 0)
    write_error(w, w->err, error);
  return w->err == 0;
}

/**
 * \function ns_schedule_writer_finish
 * \brief Writes the tail (sync edges, routes), flushes and frees the writer.
 *
 * \param w The writer.
 * \param error Set on failure (see errors).
 * \return FALSE when any write failed.
 * \errors NS_ERROR_IO "cannot write schedule: why".
 * \complexity O(tail).
 * \source docs/schedule-format.md.
 */
gboolean ns_schedule_writer_finish(NsScheduleWriter *w, GError **error)
{
  if (w->format == NS_SCHEDULE_JSON)
    write_json_tail(w);
  else
    write_lines_tail(w);
  out_flush(w);
  sink_write(w, NULL, 0, TRUE); /* the end of the zstd frame or gzip member */
  int err = w->err;
  if (err == 0 && fflush(w->out) != 0)
    err = errno != 0 ? errno : EIO;
  if (err == 0 && ferror(w->out))
    err = EIO;
  if (err != 0)
    write_error(w, err, error);
  ns_schedule_writer_abort(w);
  return err == 0;
}

/* ---- whole schedules --------------------------------------------------------- */

static gboolean write_schedule(const NsSchedule *s, NsScheduleFormat format,
                               NsCompression compression, FILE *out, const char *name,
                               GError **error)
{
  NsScheduleWriter *w = ns_schedule_writer_new_compressed(out, format, compression, s, name, error);
  if (w == NULL)
    return FALSE;
  for (uint32_t p = 0; p < ns_schedule_n_phases(s); p++) {
    NsPhase ph = ns_schedule_phase(s, p);
    ns_schedule_writer_phase(w, &ph);
  }
  return ns_schedule_writer_finish(w, error);
}

/**
 * \function ns_schedule_write
 * \brief Writes a schedule held in memory, in either format, streaming it.
 *
 * \param s The schedule.
 * \param format JSON or JSON Lines.
 * \param out The stream.
 * \param error Set on failure (see errors).
 * \return TRUE when written.
 * \errors NS_ERROR_INPUT for what the format cannot express, NS_ERROR_IO for write errors.
 * \complexity O(schedule), no copy.
 * \source docs/schedule-format.md.
 */
gboolean ns_schedule_write(const NsSchedule *s, NsScheduleFormat format, FILE *out,
                           GError **error)
{
  return write_schedule(s, format, NS_COMPRESS_NONE, out, NULL, error);
}

/**
 * \function ns_schedule_save
 * \brief Writes a schedule into a file, whole or not at all.
 *
 * \param s The schedule.
 * \param format JSON or JSON Lines.
 * \param path The file; compressed for *.gz and *.zst. A temporary file beside it is renamed
 *        over it when complete (a link is replaced, never followed); a device or pipe is written
 *        directly.
 * \param error Set on failure (see errors).
 * \return TRUE when written.
 * \errors those of ns_schedule_write(), "PATH: what".
 * \complexity O(schedule).
 * \source docs/schedule-format.md; docs/security.md, "Output files and directories".
 */
gboolean ns_schedule_save(const NsSchedule *s, NsScheduleFormat format, const char *path,
                          GError **error)
{
  if (!check_writable(s, path, error))
    return FALSE;
  /* A temporary file renamed over `path` (platforms/io/output_file_internal.h): a
   * link there is replaced, not written through, and a failed write
   * leaves the old file; a device or pipe is written directly. */
  char *temp = NULL;
  int fd = ns_output_open(path, &temp, error);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (f == NULL) {
    if (fd >= 0) {
      ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot open for writing: %s",
                      g_strerror(errno));
      close(fd);
    }
    if (temp != NULL)
      remove(temp);
    g_free(temp);
    return FALSE;
  }
  gboolean ok = write_schedule(s, format, ns_schedule_compression_for_name(path), f, path, error);
  if (fclose(f) != 0 && ok) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write schedule: %s", g_strerror(e));
    ok = FALSE;
  }
  if (temp != NULL) {
    if (!ok)
      remove(temp); /* no truncated schedule left behind */
    else
      ok = ns_output_commit(temp, path, error);
  }
  g_free(temp);
  return ok;
}

/* ---- names ------------------------------------------------------------------------ */

/**
 * \function ns_schedule_compression_for_name
 * \brief The compression a file name asks for.
 *
 * \param path The file name.
 * \return gzip for *.gz, zstd for *.zst, else none.
 * \errors none.
 * \complexity O(length of path).
 * \source docs/schedule-format.md.
 */
NsCompression ns_schedule_compression_for_name(const char *path)
{
  if (path != NULL && g_str_has_suffix(path, ".gz"))
    return NS_COMPRESS_GZIP;
  if (path != NULL && g_str_has_suffix(path, ".zst"))
    return NS_COMPRESS_ZSTD;
  return NS_COMPRESS_NONE;
}

/**
 * \function ns_schedule_format_for_name
 * \brief The format a file name asks for.
 *
 * \param path The file name.
 * \return JSON Lines for *.jsonl (also .jsonl.gz, .jsonl.zst), else JSON.
 * \errors none.
 * \complexity O(length of path).
 * \source docs/schedule-format.md.
 */
NsScheduleFormat ns_schedule_format_for_name(const char *path)
{
  if (path == NULL)
    return NS_SCHEDULE_JSON;
  return g_str_has_suffix(path, ".jsonl") || g_str_has_suffix(path, ".jsonl.gz") ||
                 g_str_has_suffix(path, ".jsonl.zst")
             ? NS_SCHEDULE_JSONL
             : NS_SCHEDULE_JSON;
}

/**
 * \function ns_schedule_format_from_name
 * \brief A schedule format from its name.
 *
 * \param name "json" or "jsonl".
 * \param format Receives the format.
 * \return FALSE for anything else.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
gboolean ns_schedule_format_from_name(const char *name, NsScheduleFormat *format)
{
  if (g_strcmp0(name, "json") == 0)
    *format = NS_SCHEDULE_JSON;
  else if (g_strcmp0(name, "jsonl") == 0)
    *format = NS_SCHEDULE_JSONL;
  else
    return FALSE;
  return TRUE;
}

/**
 * \function ns_schedule_format_name
 * \brief A schedule format's name ("json", "jsonl").
 *
 * \param format The format.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
const char *ns_schedule_format_name(NsScheduleFormat format)
{
  return format == NS_SCHEDULE_JSONL ? "jsonl" : "json";
}
