/* netsched — schedule streams: byte sources (files, standard input,
 * memory), with gzip and zstd recognised by their magic bytes. See
 * schedule_stream_internal.h.
 *
 * Every source is a GInputStream: a file descriptor (a small stream class
 * of our own, so that messages carry the system's own words, "No such file
 * or directory"), or memory. A GBufferedInputStream on top lets the first
 * bytes be looked at without consuming them; gzip then goes through a
 * GConverterInputStream with a GZlibDecompressor, zstd through libzstd's
 * streaming decoder (its window limited to 2^27 bytes, the library's
 * default, so a file cannot ask for more memory than that).
 */
#include "sched/io/schedule_stream_internal.h"
#include "platforms/model/error.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* ---- a GInputStream over a file descriptor ------------------------------ */

typedef struct {
  GInputStream parent;
  int fd;
  gboolean close_fd;
} NsFdStream;

typedef struct {
  GInputStreamClass parent_class;
} NsFdStreamClass;

GType ns_fd_stream_get_type(void);
G_DEFINE_TYPE(NsFdStream, ns_fd_stream, G_TYPE_INPUT_STREAM)

static gssize ns_fd_stream_read(GInputStream *stream, void *buffer, gsize count,
                                GCancellable *cancellable, GError **error)
{
  NsFdStream *s = (NsFdStream *)stream;
  for (;;) {
    gssize n = read(s->fd, buffer, MIN(count, (gsize)G_MAXSSIZE));
    if (n >= 0)
      return n;
    if (errno == EINTR)
      continue;
    int e = errno;
    g_set_error_literal(error, G_IO_ERROR, g_io_error_from_errno(e), g_strerror(e));
    return -1;
  }
}

static gboolean ns_fd_stream_close(GInputStream *stream, GCancellable *cancellable,
                                   GError **error)
{
  NsFdStream *s = (NsFdStream *)stream;
  if (s->close_fd && s->fd >= 0)
    close(s->fd);
  s->fd = -1;
  return TRUE;
}

static void ns_fd_stream_class_init(NsFdStreamClass *klass)
{
  GInputStreamClass *in = G_INPUT_STREAM_CLASS(klass);
  in->read_fn = ns_fd_stream_read;
  in->close_fn = ns_fd_stream_close;
}

static void ns_fd_stream_init(NsFdStream *s)
{
  s->fd = -1;
}

static GInputStream *fd_stream_new(int fd, gboolean close_fd)
{
  NsFdStream *s = g_object_new(ns_fd_stream_get_type(), NULL);
  s->fd = fd;
  s->close_fd = close_fd;
  return G_INPUT_STREAM(s);
}

/* ---- sources ------------------------------------------------------------- */

#define ZSTD_IN_SIZE (128u << 10)
/* Decompressed bytes are made in blocks of this size, whatever the reader
 * asks for: where corrupt data is noticed (and what came before it) then
 * depends on the data only, never on the size of the reads. Twice zstd's
 * largest block (ZSTD_BLOCKSIZE_MAX, 128 KiB: ZSTD_DStreamOutSize()), so
 * that a call flushes whole blocks; a read that asks for a block or more
 * gets it decompressed straight into its buffer, without a copy. */
#define BLOCK_SIZE (256u << 10)

struct NsByteSource {
  char *name;
  GInputStream *base;      /* the buffered stream over the file or memory */
  gboolean started, rereadable;
  NsCompression compression;
  ZSTD_DCtx *zstd;
  GConverter *gzip;        /* a GZlibDecompressor, reset at each member */
  guchar *zin;             /* compressed input (both formats) */
  ZSTD_inBuffer zbuf;      /* its unread part: zin + pos .. zin + size */
  gboolean zframe_open;    /* inside a zstd frame or gzip member (its end not seen yet) */
  gboolean zeof;
  guint64 n_raw, n_out;    /* bytes read from the file, bytes delivered */
  guint64 limit;           /* on both; 0: none */
  guchar *block;           /* compressed input: the decompressed block being served */
  gsize block_len, block_pos;
};

static NsByteSource *source_new(const char *name, GInputStream *raw, gboolean rereadable)
{
  NsByteSource *s = g_new0(NsByteSource, 1);
  s->name = g_strdup(name);
  s->base = g_buffered_input_stream_new_sized(raw, 64u << 10);
  g_object_unref(raw);
  s->rereadable = rereadable;
  return s;
}

NsByteSource *ns_byte_source_open(const char *path, GError **error)
{
  if (strcmp(path, "-") == 0)
    return source_new("<stdin>", fd_stream_new(STDIN_FILENO, FALSE), FALSE);
  int fd;
  do
    fd = open(path, O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot open: %s", g_strerror(e));
    return NULL;
  }
  struct stat st;
  gboolean regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  return source_new(path, fd_stream_new(fd, TRUE), regular);
}

NsByteSource *ns_byte_source_new_for_data(const char *name, const void *data, gsize len)
{
  GInputStream *raw = g_memory_input_stream_new_from_data(len > 0 ? data : "", (gssize)len,
                                                           NULL);
  return source_new(name, raw, TRUE);
}

const char *ns_byte_source_name(const NsByteSource *s) { return s->name; }

NsCompression ns_byte_source_compression(const NsByteSource *s) { return s->compression; }

gboolean ns_byte_source_rereadable(const NsByteSource *s) { return s->rereadable; }

void ns_byte_source_free(NsByteSource *s)
{
  if (s == NULL)
    return;
  if (s->gzip != NULL)
    g_object_unref(s->gzip);
  if (s->base != NULL) {
    g_input_stream_close(s->base, NULL, NULL);
    g_object_unref(s->base);
  }
  if (s->zstd != NULL)
    ZSTD_freeDCtx(s->zstd);
  g_free(s->zin);
  g_free(s->block);
  g_free(s->name);
  g_free(s);
}

/* A GIO read error of the file as ours. */
static void set_read_error(NsByteSource *s, const GError *e, GError **error)
{
  ns_set_error_at(error, NS_ERROR_IO, s->name, 0, "cannot read: %s", e->message);
}

/* Looks at the first bytes and stacks the decompressor they call for. */
static gboolean start(NsByteSource *s, GError **error)
{
  GBufferedInputStream *b = G_BUFFERED_INPUT_STREAM(s->base);
  GError *e = NULL;
  while (g_buffered_input_stream_get_available(b) < 4) {
    gssize got = g_buffered_input_stream_fill(b, 4 - (gssize)g_buffered_input_stream_get_available(b),
                                              NULL, &e);
    if (got < 0) {
      set_read_error(s, e, error);
      g_error_free(e);
      return FALSE;
    }
    if (got == 0)
      break;
  }
  gsize n;
  const guchar *head = g_buffered_input_stream_peek_buffer(b, &n);
  if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
    s->compression = NS_COMPRESS_GZIP;
    s->gzip = G_CONVERTER(g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP));
  } else if (n >= 4 && head[0] == 0x28 && head[1] == 0xb5 && head[2] == 0x2f &&
             head[3] == 0xfd) {
    s->compression = NS_COMPRESS_ZSTD;
    s->zstd = ZSTD_createDCtx();
  }
  if (s->compression != NS_COMPRESS_NONE) {
    s->zin = g_malloc(ZSTD_IN_SIZE);
    s->zbuf = (ZSTD_inBuffer){ s->zin, 0, 0 };
    s->block = g_malloc(BLOCK_SIZE);
  }
  s->started = TRUE;
  return TRUE;
}

/* Past the limit? Then NS_ERROR_INPUT. */
static gboolean within_limit(NsByteSource *s, GError **error)
{
  if (s->limit == 0 || (s->n_raw <= s->limit && s->n_out <= s->limit))
    return TRUE;
  ns_set_error_at(error, NS_ERROR_INPUT, s->name, 0,
                  "the schedule is larger than the input limit of %" G_GUINT64_FORMAT
                  " bytes (%.1f MiB%s)",
                  s->limit, (double)s->limit / (1 << 20),
                  s->compression != NS_COMPRESS_NONE ? ", decompressed" : "");
  return FALSE;
}

/* Refills the compressed input once it is used up (zeof at the end). */
static gboolean fill_input(NsByteSource *s, GError **error)
{
  if (s->zbuf.pos < s->zbuf.size || s->zeof)
    return TRUE;
  GError *e = NULL;
  gssize got = g_input_stream_read(s->base, s->zin, ZSTD_IN_SIZE, NULL, &e);
  if (got < 0) {
    set_read_error(s, e, error);
    g_error_free(e);
    return FALSE;
  }
  s->zbuf.size = (size_t)got;
  s->zbuf.pos = 0;
  s->zeof = got == 0;
  s->n_raw += (guint64)got;
  return within_limit(s, error);
}

/* gzip: member after member until the input ends (RFC 1952 §2.2: "a gzip
 * file consists of a series of members"), each through the same
 * decompressor, reset between them. */
static gssize read_gzip(NsByteSource *s, void *buf, gsize n, GError **error)
{
  gsize written = 0;
  while (written == 0) {
    if (!fill_input(s, error))
      return -1;
    gsize left = s->zbuf.size - s->zbuf.pos;
    if (left == 0 && !s->zframe_open && s->zeof)
      return 0;
    if (!s->zframe_open && left > 0) {
      g_converter_reset(s->gzip);
      s->zframe_open = TRUE;
    }
    gsize used = 0;
    GError *e = NULL;
    GConverterResult res =
        g_converter_convert(s->gzip, s->zin + s->zbuf.pos, left, buf, n,
                            s->zeof ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS, &used,
                            &written, &e);
    if (res == G_CONVERTER_ERROR) {
      if (g_error_matches(e, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) && !s->zeof) {
        g_error_free(e); /* wants more input than is buffered: read on */
        s->zbuf.pos = s->zbuf.size;
        continue;
      }
      ns_set_error_at(error, NS_ERROR_INPUT, s->name, 0, "%s gzip data: %s",
                      g_error_matches(e, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) ? "truncated"
                                                                               : "corrupt",
                      e->message);
      g_error_free(e);
      return -1;
    }
    s->zbuf.pos += used;
    if (res == G_CONVERTER_FINISHED)
      s->zframe_open = FALSE;
    else if (used == 0 && written == 0 && s->zeof) {
      ns_set_error_at(error, NS_ERROR_INPUT, s->name, 0,
                      "truncated gzip data: the input ends inside a member");
      return -1;
    }
  }
  return (gssize)written;
}

static gssize read_zstd(NsByteSource *s, void *buf, gsize n, GError **error)
{
  ZSTD_outBuffer out = { buf, n, 0 };
  while (out.pos == 0) {
    if (!fill_input(s, error))
      return -1;
    if (s->zbuf.pos == s->zbuf.size) { /* no more input */
      if (s->zframe_open) {
        ns_set_error_at(error, NS_ERROR_INPUT, s->name, 0,
                        "truncated zstd data: the input ends inside a frame");
        return -1;
      }
      return 0;
    }
    size_t r = ZSTD_decompressStream(s->zstd, &out, &s->zbuf);
    if (ZSTD_isError(r)) {
      ns_set_error_at(error, NS_ERROR_INPUT, s->name, 0, "corrupt zstd data: %s",
                      ZSTD_getErrorName(r));
      return -1;
    }
    s->zframe_open = r != 0;
  }
  return (gssize)out.pos;
}

/* Up to n bytes of the file as it is. */
static gssize read_plain(NsByteSource *s, void *buf, gsize n, GError **error)
{
  GError *e = NULL;
  gssize got = g_input_stream_read(s->base, buf, n, NULL, &e);
  if (got < 0) {
    set_read_error(s, e, error);
    g_error_free(e);
    return -1;
  }
  s->n_raw += (guint64)got;
  s->n_out += (guint64)got;
  return within_limit(s, error) ? got : -1;
}

gssize ns_byte_source_read(NsByteSource *s, void *buf, gsize n, GError **error)
{
  if (!s->started && !start(s, error))
    return -1;
  if (n == 0)
    return 0;
  if (s->compression == NS_COMPRESS_NONE)
    return read_plain(s, buf, n, error);
  if (s->block_pos == s->block_len && n >= BLOCK_SIZE) {
    /* the block the reader would be served, made in its own buffer */
    gssize got = s->compression == NS_COMPRESS_ZSTD ? read_zstd(s, buf, BLOCK_SIZE, error)
                                                    : read_gzip(s, buf, BLOCK_SIZE, error);
    if (got <= 0)
      return got;
    s->n_out += (guint64)got;
    return within_limit(s, error) ? got : -1;
  }
  if (s->block_pos == s->block_len) {
    gssize got = s->compression == NS_COMPRESS_ZSTD ? read_zstd(s, s->block, BLOCK_SIZE, error)
                                                    : read_gzip(s, s->block, BLOCK_SIZE, error);
    if (got <= 0)
      return got;
    s->n_out += (guint64)got;
    if (!within_limit(s, error))
      return -1;
    s->block_len = (gsize)got;
    s->block_pos = 0;
  }
  gsize k = MIN(n, s->block_len - s->block_pos);
  memcpy(buf, s->block + s->block_pos, k);
  s->block_pos += k;
  return (gssize)k;
}

void ns_byte_source_set_limit(NsByteSource *s, guint64 bytes)
{
  s->limit = bytes;
}

guint64 ns_byte_source_limit(const NsByteSource *s) { return s->limit; }
