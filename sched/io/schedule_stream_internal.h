/* netsched — schedule streams: the byte sources and the incremental JSON
 * tokenizer behind sched/io/schedule_stream.h. Private to sched/schedule_*.c.
 *
 * NsByteSource reads a file, standard input or a memory block in bounded
 * chunks, decompressing gzip (GLib's GZlibDecompressor, every member) or
 * zstd (libzstd, every frame) when the first bytes carry their magic
 * numbers, and stops at a limit on the bytes read and delivered.
 *
 * NsTok turns those bytes into JSON tokens, one at a time, enforcing strict
 * RFC 8259 syntax as it goes (the checks and messages of the former
 * whole-document syntax pass: "source:line:column: what"). It never holds
 * more than its buffer (NS_TOK_BUFFER bytes) plus the strings its caller
 * asks it to keep; nesting is tracked in a fixed stack of
 * NS_JSON_MAX_DEPTH levels (no recursion). Line and column are counted
 * only as bytes leave the buffer and when an error is reported.
 */
#ifndef NETSCHED_SCHEDULE_STREAM_PRIVATE_H
#define NETSCHED_SCHEDULE_STREAM_PRIVATE_H

#include "sched/io/schedule_stream.h"
#include <glib.h>

/* Deepest nesting accepted. A schedule needs 5 levels (document, phases,
 * phase, transfer, chunk); the rest is headroom for unknown keys. */
#define NS_JSON_MAX_DEPTH 64
/* Longest string the reader keeps (names, keys); skipped strings are
 * validated but not kept, whatever their length. */
#define NS_JSON_MAX_STRING (1u << 20)
/* Longest number, in characters. */
#define NS_JSON_MAX_NUMBER 4096
/* Bytes of top-level key names remembered for duplicate detection. */
#define NS_JSON_MAX_TOP_KEY_BYTES (1u << 20)
/* The tokenizer's buffer and default read size: room for whole
 * decompressed blocks (schedule_stream_input.c) after a partial token. */
#define NS_TOK_BUFFER (1u << 20)

/* ---- byte sources ------------------------------------------------------ */

typedef struct NsByteSource NsByteSource;

/* Opens `path` ("-": standard input, named "<stdin>"). NS_ERROR_IO
 * "PATH: cannot open: why". The compression is recognised from the first
 * bytes at the first read. */
NsByteSource *ns_byte_source_open(const char *path, GError **error);
/* Reads `len` bytes at `data` (not copied: they must outlive the source). */
NsByteSource *ns_byte_source_new_for_data(const char *name, const void *data, gsize len);
/* Up to `n` decompressed bytes into buf: the number read, 0 at the end, -1
 * with NS_ERROR_IO (cannot read) or NS_ERROR_INPUT (corrupt or truncated
 * compressed data), "NAME: what". */
gssize ns_byte_source_read(NsByteSource *s, void *buf, gsize n, GError **error);
const char *ns_byte_source_name(const NsByteSource *s);
/* Known after the first read. */
NsCompression ns_byte_source_compression(const NsByteSource *s);
/* TRUE when the same bytes can be read again by opening the same name (a
 * regular file, or memory). */
gboolean ns_byte_source_rereadable(const NsByteSource *s);
/* The most bytes a source reads from its file and delivers (each counted;
 * 0: no limit, the default). Past it a read fails with NS_ERROR_INPUT "NAME:
 * the schedule is larger than the input limit of ...". Any time. */
void ns_byte_source_set_limit(NsByteSource *s, guint64 bytes);
guint64 ns_byte_source_limit(const NsByteSource *s);
void ns_byte_source_free(NsByteSource *s);

/* ---- tokenizer --------------------------------------------------------- */

typedef enum {
  NS_TOK_EOF,           /* end of input after a complete top-level value */
  NS_TOK_BEGIN_ARRAY,
  NS_TOK_END_ARRAY,
  NS_TOK_BEGIN_OBJECT,
  NS_TOK_END_OBJECT,
  NS_TOK_KEY,           /* an object key; decoded text in str when kept */
  NS_TOK_STRING,        /* decoded text in str when capture is on */
  NS_TOK_INT,           /* ival */
  NS_TOK_FLOAT,         /* a number with a fraction or exponent (value not kept) */
  NS_TOK_TRUE,
  NS_TOK_FALSE,
  NS_TOK_NULL,
} NsTokType;

/* A position in the input: absolute byte offset, resolved to line and
 * column (line 0: not yet resolved) before its bytes leave the buffer. */
typedef struct {
  guint64 abs;
  guint64 line, col;
} NsTokMark;

typedef struct {
  NsByteSource *in;         /* owned */
  const char *source;       /* name in messages (the source's) */
  guchar *buf;
  gsize cap, chunk;         /* buffer size; bytes asked of the source per read */
  guchar *p, *end;          /* unread bytes */
  guint64 base;             /* absolute offset of buf[0] */
  gboolean eof;
  /* line and column (in characters, both 1-based) at absolute offset acc */
  guint64 acc, line, col;
  /* open containers */
  struct {
    NsTokMark at;
    guchar ch;              /* '[' or '{' */
  } stack[NS_JSON_MAX_DEPTH];
  int depth, n_resolved;    /* stack[0 .. n_resolved) have resolved marks */
  NsTokMark tok;            /* start of the last token */
  int state;
  gboolean started;         /* the byte order mark check was made */
  gboolean lines;           /* several top-level values, one per line */
  gboolean newline;         /* a line break since the last top-level value */
  guint64 n_values;         /* complete top-level values so far */
  /* the last token */
  NsTokType type;
  gint64 ival;
  GString *str;             /* NS_TOK_STRING (when capture) and NS_TOK_KEY text */
  gboolean capture;         /* keep the text of strings (keys at the top level always) */
  gboolean top_key;         /* NS_TOK_KEY of a top-level object */
  gboolean key_dup_escaped; /* ... whose decoded text an earlier key had */
  /* keys of the current top-level object: raw text -> line; decoded texts */
  GHashTable *top_raw, *top_decoded;
  gsize top_bytes;
  GString *raw;
  GError *error;            /* set once failed: syntax, I/O or a limit */
} NsTok;

void ns_tok_init(NsTok *t, NsByteSource *in, gsize chunk);
void ns_tok_clear(NsTok *t);
/* The next token into t->type (and ival / str). FALSE on a syntax error,
 * an I/O error or a limit, with t->error set. */
gboolean ns_tok_next(NsTok *t);
/* After NS_TOK_BEGIN_ARRAY or NS_TOK_BEGIN_OBJECT: skips to the end of
 * that container (its strings validated, not kept). */
gboolean ns_tok_skip_container(NsTok *t);
/* Fails with "source:line:column: what" at the start of the last token. */
gboolean ns_tok_fail_here(NsTok *t, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Line of the start of the last token (resolves it). */
guint64 ns_tok_line(NsTok *t);
/* Line of the start of the top-level value being read: its outermost open
 * container's (a mark kept countable until the container closes), or the
 * last token's at the top level. */
guint64 ns_tok_value_line(NsTok *t);

/* Fast path for the bulk of a schedule: transfers written without spaces,
 * [src,dst,chunk,...] with chunks as ints or (alltoall) [o,d] pairs, every
 * index in range. Called where a phase's transfer (or its closing ']')
 * may come. Parses as many such transfers (and the commas between them) as
 * it can, appending them to `transfers` and multi-chunk lists to `pool`,
 * and stops, without consuming it, at anything else: the caller's general
 * path then reads that (and reports any error exactly). `direct_ok`
 * accepts [src,dst] as the direct chunk (JSON Lines). `pool_total` counts
 * chunks of multi-chunk transfers; returns the number of transfers read.
 * When the phase's ']' follows its last transfer, it is taken too (the
 * tokenizer then stands after an NS_TOK_END_ARRAY) and *closed is TRUE.
 * `*reserved`: elements `transfers` is known to have room for (0: none
 * known), raised as the fast path grows it; valid while the caller passes
 * the same array, which a GArray's truncation and appends never shrink
 * (set it to 0 when passing another array). */
typedef struct {
  NsCollective collective;
  uint32_t n_machines, n_segments;
  gboolean direct_ok;
} NsTokSchema;
guint64 ns_tok_fast_transfers(NsTok *t, const NsTokSchema *schema, GArray *transfers,
                              guint *reserved, GArray *pool, guint64 *pool_total,
                              guint64 max_transfers, gboolean *closed);

/* Reads every transfer through the general path (the tokenizer's tokens
 * and the schema checks), never ns_tok_fast_transfers: tests compare the
 * two. Before the first phase. */
void ns_schedule_reader_set_general_only(NsScheduleReader *r, gboolean general_only);

/* Bytes of the document read before phases are read ahead on a thread of
 * their own (schedule_stream_ahead_internal.h; default 4 MiB; 0: from the first
 * phase, G_MAXUINT64: never). Tests compare the two. Before the first phase. */
void ns_schedule_reader_set_read_ahead(NsScheduleReader *r, guint64 from);
/* Whether a thread reads ahead now (tests). */
gboolean ns_schedule_reader_reading_ahead(const NsScheduleReader *r);
/* The most bytes of phases read ahead held at once (tests; see
 * schedule_stream_ahead_internal.h, "Memory"). */
gsize ns_schedule_reader_ahead_peak(NsScheduleReader *r);

/* Drops the elements of `a` from `len` on (an array without a clear
 * function, not zero-terminated): g_array_set_size() without its call to
 * g_array_remove_range(), for the arrays the reader refills at each phase. */
static inline void ns_array_truncate(GArray *a, guint len)
{
  g_assert(len <= a->len);
  a->len = len;
}

#endif
