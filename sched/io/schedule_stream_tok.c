/* netsched — schedule streams: the incremental strict JSON tokenizer. See
 * schedule_stream_internal.h.
 *
 * The grammar is checked by a state machine over a fixed stack of open
 * containers, one token at a time. Bytes come into a buffer in bounded
 * reads; a token that may straddle two reads is either scanned
 * incrementally (strings: their text is decoded into a GString as it
 * goes, or only validated) or has enough bytes brought in first (numbers,
 * at most NS_JSON_MAX_NUMBER characters, literals, escapes, UTF-8
 * sequences, and the lookahead of "found 'word...'" messages).
 *
 * Positions: a message needs the line and column (in characters) of some
 * byte. They are counted only for bytes about to leave the buffer (a memchr
 * for line breaks, and characters counted on the last line only) and when a
 * message is written; the start of every open container and of the current
 * token is resolved before its bytes leave, for "'[' at line 2, column 8 is
 * not closed" and "unterminated string".
 */
#include "sched/io/schedule_stream_internal.h"
#include "platforms/model/error.h"

#include <stdarg.h>
#include <string.h>

typedef enum {
  ST_VALUE,          /* a value must come (document start, after ':' or ',' in an array) */
  ST_VALUE_OR_CLOSE, /* just after '[' */
  ST_KEY_OR_CLOSE,   /* just after '{' */
  ST_KEY,            /* after ',' in an object */
  ST_COLON,          /* after a key */
  ST_COMMA_OR_CLOSE, /* after a value inside a container */
  ST_END,            /* after a top-level value */
} ScanState;

void ns_tok_init(NsTok *t, NsByteSource *in, gsize chunk)
{
  memset(t, 0, sizeof *t);
  t->in = in;
  t->source = ns_byte_source_name(in);
  t->cap = NS_TOK_BUFFER;
  t->chunk = chunk > 0 ? MIN(chunk, t->cap) : t->cap;
  t->buf = g_malloc(t->cap);
  t->p = t->end = t->buf;
  t->line = t->col = 1;
  t->state = ST_VALUE;
  t->str = g_string_sized_new(64);
  t->raw = g_string_sized_new(64);
  t->capture = TRUE;
}

void ns_tok_clear(NsTok *t)
{
  ns_byte_source_free(t->in);
  g_free(t->buf);
  g_string_free(t->str, TRUE);
  g_string_free(t->raw, TRUE);
  if (t->top_raw != NULL)
    g_hash_table_unref(t->top_raw);
  if (t->top_decoded != NULL)
    g_hash_table_unref(t->top_decoded);
  g_clear_error(&t->error);
  memset(t, 0, sizeof *t);
}

/* ---- positions ------------------------------------------------------- */

static inline guint64 abs_of(const NsTok *t, const guchar *q)
{
  return t->base + (guint64)(q - t->buf);
}

/* Advances the line/column count from t->acc to `to` (bytes in the buffer). */
static void account_span(NsTok *t, guint64 to)
{
  const guchar *q = t->buf + (t->acc - t->base), *e = t->buf + (to - t->base);
  const guchar *nl;
  while (q < e && (nl = memchr(q, '\n', (size_t)(e - q))) != NULL) {
    t->line++;
    t->col = 1;
    q = nl + 1;
  }
  guint64 chars = 0;
  for (; q < e; q++)
    chars += (*q & 0xC0) != 0x80; /* lead bytes, not UTF-8 continuations */
  t->col += chars;
  t->acc = to;
}

static void resolve(NsTok *t, NsTokMark *m)
{
  account_span(t, m->abs);
  m->line = t->line;
  m->col = t->col;
}

/* Counts up to absolute offset `to`, resolving the marks before it. */
static void account_to(NsTok *t, guint64 to)
{
  while (t->n_resolved < t->depth && t->stack[t->n_resolved].at.abs <= to) {
    if (t->stack[t->n_resolved].at.line == 0)
      resolve(t, &t->stack[t->n_resolved].at);
    t->n_resolved++;
  }
  if (t->tok.line == 0 && t->tok.abs <= to && t->tok.abs >= t->acc)
    resolve(t, &t->tok);
  if (to > t->acc)
    account_span(t, to);
}

/* Line and column of a mark (resolving it if its bytes are still here). */
static void mark_position(NsTok *t, NsTokMark *m, int *line, int *col)
{
  if (m->line == 0) {
    /* marks are resolved before their bytes leave, so m is still here */
    if (m->abs >= t->acc)
      account_to(t, m->abs);
    if (m->line == 0) {
      m->line = t->line;
      m->col = t->col;
    }
  }
  *line = (int)MIN(m->line, (guint64)G_MAXINT);
  *col = (int)MIN(m->col, (guint64)G_MAXINT);
}

static gboolean fail_mark(NsTok *t, NsTokMark *m, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean fail_markv(NsTok *t, NsTokMark *m, const char *fmt, va_list ap)
  G_GNUC_PRINTF(3, 0);

static gboolean fail_markv(NsTok *t, NsTokMark *m, const char *fmt, va_list ap)
{
  if (t->error != NULL)
    return FALSE;
  char *msg = g_strdup_vprintf(fmt, ap);
  int line, col;
  mark_position(t, m, &line, &col);
  /* "source:line:column: what" (ns_set_error_at has no column) */
  ns_set_error_at(&t->error, NS_ERROR_INPUT, NULL, 0, "%s:%d:%d: %s", t->source, line, col,
                  msg);
  g_free(msg);
  return FALSE;
}

static gboolean fail_mark(NsTok *t, NsTokMark *m, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fail_markv(t, m, fmt, ap);
  va_end(ap);
  return FALSE;
}

static gboolean fail_at(NsTok *t, const guchar *q, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static gboolean fail_at(NsTok *t, const guchar *q, const char *fmt, ...)
{
  NsTokMark m = { abs_of(t, q), 0, 0 };
  va_list ap;
  va_start(ap, fmt);
  fail_markv(t, &m, fmt, ap);
  va_end(ap);
  return FALSE;
}

gboolean ns_tok_fail_here(NsTok *t, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fail_markv(t, &t->tok, fmt, ap);
  va_end(ap);
  return FALSE;
}

guint64 ns_tok_line(NsTok *t)
{
  if (t->tok.line == 0)
    account_to(t, t->tok.abs);
  return t->tok.line;
}

guint64 ns_tok_value_line(NsTok *t)
{
  if (t->depth == 0)
    return ns_tok_line(t);
  int line, col;
  mark_position(t, &t->stack[0].at, &line, &col);
  return (guint64)line;
}

/* ---- input ------------------------------------------------------------- */

/* Makes at least `need` bytes available from t->p, unless the input ends
 * first; bytes before t->p may leave the buffer. FALSE on a read error. */
static gboolean fill(NsTok *t, gsize need)
{
  if ((gsize)(t->end - t->p) >= need || t->eof || t->error != NULL)
    return t->error == NULL;
  g_assert(need <= t->cap);
  account_to(t, abs_of(t, t->p));
  gsize keep = (gsize)(t->end - t->p);
  if (t->p > t->buf) {
    memmove(t->buf, t->p, keep);
    t->base = abs_of(t, t->p);
    t->p = t->buf;
    t->end = t->buf + keep;
  }
  while ((gsize)(t->end - t->p) < need && !t->eof) {
    gsize room = t->cap - (gsize)(t->end - t->buf);
    gssize got = ns_byte_source_read(t->in, t->end, MIN(room, t->chunk), &t->error);
    if (got < 0)
      return FALSE;
    if (got == 0)
      t->eof = TRUE;
    t->end += got;
  }
  return TRUE;
}

/* ---- scanning ---------------------------------------------------------- */

static inline gboolean is_word_char(guchar c)
{
  return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-';
}

/* What stands at t->p, for "found ..." in messages (newly allocated). */
static char *describe_here(NsTok *t)
{
  fill(t, 32);
  const guchar *p = t->p;
  if (p >= t->end)
    return g_strdup("end of input");
  if (g_ascii_isalnum(*p) || *p == '_') {
    const guchar *q = p;
    while (q < t->end && q - p < 24 && is_word_char(*q))
      q++;
    return g_strdup_printf("'%.*s%s'", (int)(q - p), (const char *)p,
                           q < t->end && is_word_char(*q) ? "..." : "");
  }
  if (*p == '\'')
    return g_strdup("\"'\"");
  if (*p > 0x20 && *p < 0x7f)
    return g_strdup_printf("'%c'", *p);
  return g_strdup_printf("byte 0x%02X", *p);
}

static gboolean unexpected(NsTok *t, const char *expected)
{
  char *what = describe_here(t);
  fail_at(t, t->p, "expected %s, found %s", expected, what);
  g_free(what);
  return FALSE;
}

static int hex_value(guchar c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* The 4 hex digits after the 'u' at u; `at` is the backslash (for the
 * message). */
static gboolean u_escape(NsTok *t, const guchar *u, const guchar *at, unsigned *value)
{
  unsigned v = 0;
  for (int i = 1; i <= 4; i++) {
    if (u + i >= t->end || hex_value(u[i]) < 0)
      return fail_at(t, at, "invalid \\u escape in string (4 hex digits expected)");
    v = v * 16 + (unsigned)hex_value(u[i]);
  }
  *value = v;
  return TRUE;
}

static gboolean keep_bytes(NsTok *t, GString *g, const guchar *from, gsize n)
{
  if (g == NULL || n == 0)
    return TRUE;
  if (g->len + n > NS_JSON_MAX_STRING)
    return fail_mark(t, &t->tok, "string longer than %u bytes (the longest a schedule may "
                                 "hold)", NS_JSON_MAX_STRING);
  g_string_append_len(g, (const char *)from, (gssize)n);
  return TRUE;
}

/* A string whose opening quote is at t->p (and t->tok). Decoded text goes
 * into `dec` and the raw text, quotes included, into `raw` (either may be
 * NULL). Leaves t->p after the closing quote. */
static gboolean scan_string(NsTok *t, GString *dec, GString *raw)
{
  if (dec != NULL)
    g_string_truncate(dec, 0);
  if (raw != NULL)
    g_string_truncate(raw, 0);
  if (!keep_bytes(t, raw, t->p, 1))
    return FALSE;
  guchar *p = t->p + 1;
  for (;;) {
    guchar *run = p;
    while (p < t->end && *p >= 0x20 && *p != '"' && *p != '\\' && *p < 0x80)
      p++;
    if (!keep_bytes(t, dec, run, (gsize)(p - run)) || !keep_bytes(t, raw, run, (gsize)(p - run)))
      return FALSE;
    if (p == t->end) {
      t->p = p;
      if (!fill(t, 1))
        return FALSE;
      p = t->p;
      if (p == t->end)
        return fail_mark(t, &t->tok, "unterminated string");
      continue;
    }
    guchar c = *p;
    if (c == '"') {
      t->p = p + 1;
      return keep_bytes(t, raw, p, 1);
    }
    if (c < 0x20)
      return fail_at(t, p, "control character U+%04X in string (write it as an escape)", c);
    if (c == '\\') {
      t->p = p;
      if (!fill(t, 12))
        return FALSE;
      p = t->p;
      if (p + 1 >= t->end)
        return fail_mark(t, &t->tok, "unterminated string");
      guchar e = p[1];
      gsize len = 2;
      char out[8];
      gsize out_len = 1;
      switch (e) {
      case '"': out[0] = '"'; break;
      case '\\': out[0] = '\\'; break;
      case '/': out[0] = '/'; break;
      case 'b': out[0] = '\b'; break;
      case 'f': out[0] = '\f'; break;
      case 'n': out[0] = '\n'; break;
      case 'r': out[0] = '\r'; break;
      case 't': out[0] = '\t'; break;
      case 'u': {
        unsigned u = 0;
        if (!u_escape(t, p + 1, p, &u))
          return FALSE;
        if (u == 0)
          return fail_at(t, p, "\\u0000 (NUL) is not allowed in strings");
        if (u >= 0xDC00 && u <= 0xDFFF)
          return fail_at(t, p, "invalid \\u escape: lone low surrogate \\u%04X", u);
        len = 6;
        if (u >= 0xD800 && u <= 0xDBFF) {
          unsigned low = 0;
          if (p + 7 >= t->end || p[6] != '\\' || p[7] != 'u')
            return fail_at(t, p, "invalid \\u escape: high surrogate \\u%04X not followed by "
                                 "a low surrogate", u);
          if (!u_escape(t, p + 7, p + 6, &low))
            return FALSE;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail_at(t, p, "invalid \\u escape: high surrogate \\u%04X not followed by "
                                 "a low surrogate", u);
          u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
          len = 12;
        }
        out_len = (gsize)g_unichar_to_utf8(u, out);
        break;
      }
      default:
        return fail_at(t, p, "invalid escape '\\%c' in string", e >= 0x20 && e < 0x7f ? e : '?');
      }
      if (!keep_bytes(t, dec, (const guchar *)out, out_len) || !keep_bytes(t, raw, p, len))
        return FALSE;
      p += len;
      continue;
    }
    /* c >= 0x80: one UTF-8 sequence */
    t->p = p;
    if (!fill(t, 4))
      return FALSE;
    p = t->p;
    gunichar uc = g_utf8_get_char_validated((const char *)p, (gssize)(t->end - p));
    if (uc == (gunichar)-1 || uc == (gunichar)-2)
      return fail_at(t, p, "invalid UTF-8 in string");
    guchar *next = (guchar *)g_utf8_next_char(p);
    if (!keep_bytes(t, dec, p, (gsize)(next - p)) || !keep_bytes(t, raw, p, (gsize)(next - p)))
      return FALSE;
    p = next;
  }
}

/* A number at t->p: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, an
 * integer within int64 (NS_TOK_INT) or not (NS_TOK_FLOAT). */
static gboolean scan_number(NsTok *t)
{
  if (!fill(t, NS_JSON_MAX_NUMBER + 32))
    return FALSE;
  const guchar *p = t->p, *q = p, *end = t->end;
  if (*q == '-')
    q++;
  const guchar *digits = q;
  if (q >= end || !g_ascii_isdigit(*q))
    goto malformed;
  if (*q == '0')
    q++;
  else
    while (q < end && g_ascii_isdigit(*q))
      q++;
  const guchar *digits_end = q;
  gboolean integer = TRUE;
  if (q < end && *q == '.') {
    q++;
    if (q >= end || !g_ascii_isdigit(*q))
      goto malformed;
    while (q < end && g_ascii_isdigit(*q))
      q++;
    integer = FALSE;
  }
  if (q < end && (*q == 'e' || *q == 'E')) {
    q++;
    if (q < end && (*q == '+' || *q == '-'))
      q++;
    if (q >= end || !g_ascii_isdigit(*q))
      goto malformed;
    while (q < end && g_ascii_isdigit(*q))
      q++;
    integer = FALSE;
  }
  if (q - p > NS_JSON_MAX_NUMBER)
    return fail_at(t, p, "number longer than %d characters", NS_JSON_MAX_NUMBER);
  if (q < end && is_word_char(*q))
    goto malformed;
  if (integer) {
    gsize n = (gsize)(digits_end - digits);
    if (n > 19 || (n == 19 && memcmp(digits, "9223372036854775807", 19) > 0))
      return fail_at(t, p, "integer %s%.*s%s is out of range", *p == '-' ? "-" : "",
                     (int)MIN(n, 24), (const char *)digits, n > 24 ? "..." : "");
    guint64 v = 0;
    for (const guchar *d = digits; d < digits_end; d++)
      v = v * 10 + (guint64)(*d - '0');
    t->ival = *p == '-' ? -(gint64)v : (gint64)v;
    t->type = NS_TOK_INT;
  } else {
    t->type = NS_TOK_FLOAT;
  }
  t->p = (guchar *)q;
  return TRUE;
malformed:
  q = p;
  while (q < end && q - p < 24 && (is_word_char(*q) || *q == '-'))
    q++;
  return fail_at(t, p, "malformed number '%.*s%s'", (int)(q - p), (const char *)p,
                 q < end && is_word_char(*q) ? "..." : "");
}

static gboolean scan_literal(NsTok *t)
{
  static const struct {
    const char *word;
    NsTokType type;
  } words[] = { { "true", NS_TOK_TRUE }, { "false", NS_TOK_FALSE }, { "null", NS_TOK_NULL } };
  if (!fill(t, 32))
    return FALSE;
  const guchar *p = t->p;
  for (unsigned i = 0; i < G_N_ELEMENTS(words); i++) {
    gsize n = strlen(words[i].word);
    if ((gsize)(t->end - p) >= n && memcmp(p, words[i].word, n) == 0 &&
        (p + n == t->end || !is_word_char(p[n]))) {
      t->p += n;
      t->type = words[i].type;
      return TRUE;
    }
  }
  return unexpected(t, "a value");
}

/* ---- keys of the top-level object ------------------------------------- */

static gboolean top_key(NsTok *t)
{
  if (t->top_raw == NULL) {
    t->top_raw = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    t->top_decoded = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  }
  gpointer first;
  if (g_hash_table_lookup_extended(t->top_raw, t->raw->str, NULL, &first))
    return fail_mark(t, &t->tok, "duplicate key %s (first at line %u)", t->raw->str,
                     GPOINTER_TO_UINT(first));
  t->top_bytes += t->raw->len + t->str->len;
  if (t->top_bytes > NS_JSON_MAX_TOP_KEY_BYTES)
    return fail_mark(t, &t->tok, "the top-level object's keys take more than %u bytes",
                     NS_JSON_MAX_TOP_KEY_BYTES);
  guint64 line = ns_tok_line(t);
  g_hash_table_insert(t->top_raw, g_strdup(t->raw->str),
                      GUINT_TO_POINTER((guint)MIN(line, (guint64)G_MAXINT)));
  t->key_dup_escaped = !g_hash_table_add(t->top_decoded, g_strdup(t->str->str));
  return TRUE;
}

static void forget_top_keys(NsTok *t)
{
  if (t->top_bytes == 0)
    return; /* none kept (every key counts its quotes): each phase line comes here */
  if (t->top_raw != NULL) {
    g_hash_table_remove_all(t->top_raw);
    g_hash_table_remove_all(t->top_decoded);
  }
  t->top_bytes = 0;
}

/* ---- tokens ------------------------------------------------------------ */

static inline void set_tok_mark(NsTok *t)
{
  t->tok.abs = abs_of(t, t->p);
  t->tok.line = 0;
}

/* After a value: the container's comma-or-close, or the end of a
 * top-level value. */
static inline void after_value(NsTok *t)
{
  if (t->depth == 0) {
    t->state = ST_END;
    t->n_values++;
    t->newline = FALSE;
  } else {
    t->state = ST_COMMA_OR_CLOSE;
  }
}

static gboolean at_eof(NsTok *t)
{
  set_tok_mark(t);
  if (t->state == ST_END) {
    t->type = NS_TOK_EOF;
    return TRUE;
  }
  if (t->depth == 0 && t->state == ST_VALUE) {
    ns_set_error_at(&t->error, NS_ERROR_INPUT, t->source, 0, "empty document");
    return FALSE;
  }
  int line, col;
  mark_position(t, &t->stack[t->depth - 1].at, &line, &col);
  return fail_at(t, t->p, "unexpected end of input ('%c' at line %d, column %d is not closed)",
                 t->stack[t->depth - 1].ch, line, col);
}

/* The matching ']' or '}' at t->p (and t->tok) closes the innermost container. */
static inline void close_container(NsTok *t)
{
  t->type = *t->p == ']' ? NS_TOK_END_ARRAY : NS_TOK_END_OBJECT;
  t->p++;
  t->depth--;
  if (t->n_resolved > t->depth)
    t->n_resolved = t->depth;
  after_value(t);
}

gboolean ns_tok_next(NsTok *t)
{
  if (t->error != NULL)
    return FALSE;
  if (!t->started) {
    t->started = TRUE;
    if (!fill(t, 3))
      return FALSE;
    if (t->end - t->p >= 3 && memcmp(t->p, "\xEF\xBB\xBF", 3) == 0)
      return fail_at(t, t->p, "byte order mark at the start of the document (not allowed in "
                              "JSON)");
  }
  for (;;) {
    /* white space */
    for (;;) {
      guchar *p = t->p, *end = t->end;
      if (t->state == ST_END) {
        for (; p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'); p++)
          if (*p == '\n')
            t->newline = TRUE;
      } else {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
          p++;
      }
      t->p = p;
      if (p < end)
        break;
      if (!fill(t, 1))
        return FALSE;
      if (t->p == t->end)
        return at_eof(t);
    }
    guchar c = *t->p;
    set_tok_mark(t);

    switch ((ScanState)t->state) {
    case ST_END:
      if (!t->lines) {
        char *what = describe_here(t);
        fail_at(t, t->p, "unexpected %s after the end of the document", what);
        g_free(what);
        return FALSE;
      }
      if (!t->newline)
        return unexpected(t, "a line break after the value");
      t->state = ST_VALUE;
      forget_top_keys(t);
      continue;
    case ST_COLON:
      if (c != ':')
        return unexpected(t, "':' after the key");
      t->p++;
      t->state = ST_VALUE;
      continue;
    case ST_COMMA_OR_CLOSE:
      if (c == ',') {
        t->p++;
        t->state = t->stack[t->depth - 1].ch == '{' ? ST_KEY : ST_VALUE;
        continue;
      }
      if (c != ']' && c != '}')
        return unexpected(t, t->stack[t->depth - 1].ch == '{' ? "',' or '}'" : "',' or ']'");
      break; /* closes below */
    case ST_KEY:
    case ST_KEY_OR_CLOSE:
      if (c == '"') {
        gboolean top = t->depth == 1 && t->stack[0].ch == '{';
        if (!scan_string(t, t->str, top ? t->raw : NULL))
          return FALSE;
        t->top_key = top;
        t->key_dup_escaped = FALSE;
        if (top && !top_key(t))
          return FALSE;
        t->state = ST_COLON;
        t->type = NS_TOK_KEY;
        return TRUE;
      }
      if (c == '}' && t->state == ST_KEY)
        return fail_at(t, t->p, "trailing comma before '}'");
      if (c != '}')
        return unexpected(t, t->state == ST_KEY ? "a string key" : "a string key or '}'");
      break; /* '}' right after '{' */
    case ST_VALUE:
    case ST_VALUE_OR_CLOSE:
      if (c == ']' && t->state == ST_VALUE && t->depth > 0 && t->stack[t->depth - 1].ch == '[')
        return fail_at(t, t->p, "trailing comma before ']'");
      if (c == ']' && t->state == ST_VALUE_OR_CLOSE)
        break; /* '[' ']' */
      if (c == '[' || c == '{') {
        if (t->depth == NS_JSON_MAX_DEPTH)
          return fail_at(t, t->p, "nesting deeper than %d levels", NS_JSON_MAX_DEPTH);
        /* the token's mark, unresolved (line 0), made anew: a copy of the
         * mark written just above would wait for its stores (a stall at
         * every phase line) */
        t->stack[t->depth].at = (NsTokMark){ .abs = t->tok.abs };
        t->stack[t->depth].ch = c;
        t->depth++;
        t->p++;
        t->state = c == '[' ? ST_VALUE_OR_CLOSE : ST_KEY_OR_CLOSE;
        t->type = c == '[' ? NS_TOK_BEGIN_ARRAY : NS_TOK_BEGIN_OBJECT;
        if (t->depth == 1)
          forget_top_keys(t);
        return TRUE;
      }
      if (c == '"') {
        if (!scan_string(t, t->capture ? t->str : NULL, NULL))
          return FALSE;
        t->type = NS_TOK_STRING;
      } else if (c == '-' || g_ascii_isdigit(c)) {
        if (!scan_number(t))
          return FALSE;
      } else if (g_ascii_isalpha(c)) {
        if (!scan_literal(t))
          return FALSE;
      } else {
        return unexpected(t, "a value");
      }
      after_value(t);
      return TRUE;
    }

    /* A closing bracket the state allows; it must match. */
    g_assert(t->depth > 0);
    guchar open = t->stack[t->depth - 1].ch;
    if (c != (open == '[' ? ']' : '}')) {
      int line, col;
      mark_position(t, &t->stack[t->depth - 1].at, &line, &col);
      return fail_at(t, t->p, "'%c' does not match the '%c' at line %d, column %d", c, open,
                     line, col);
    }
    close_container(t);
    return TRUE;
  }
}

gboolean ns_tok_skip_container(NsTok *t)
{
  int depth = t->depth;
  gboolean capture = t->capture;
  t->capture = FALSE;
  gboolean ok = TRUE;
  while (t->depth >= depth && (ok = ns_tok_next(t)))
    ;
  t->capture = capture;
  return ok;
}

/* ---- the fast path for transfers ---------------------------------------- */

/* An unsigned integer of 1 to 9 digits without a leading zero at *pp, ends
 * before `end`; FALSE (nothing consumed) otherwise. Digits are taken
 * without strtol (no locale, no errno): 9 digits cannot overflow. */
static inline gboolean fast_uint(const guchar **pp, const guchar *end, uint32_t *v)
{
  const guchar *p = *pp;
  if (p >= end || (unsigned)(*p - '0') > 9)
    return FALSE;
  uint32_t x = (uint32_t)(*p++ - '0');
  if (x == 0) {
    if (p < end && (unsigned)(*p - '0') <= 9)
      return FALSE;
  } else {
    int n = 1;
    while (p < end && (unsigned)(*p - '0') <= 9) {
      if (++n > 9)
        return FALSE;
      x = x * 10 + (uint32_t)(*p++ - '0');
    }
  }
  *pp = p;
  *v = x;
  return TRUE;
}

/* fast_uint where at least FAST_SLACK bytes follow p: no end checks (a
 * number is cut at 9 digits, so the scan stays within them). */
#define FAST_SLACK 32
static inline const guchar *fast_uint_unchecked(const guchar *p, uint32_t *v)
{
  uint32_t x = (uint32_t)(*p - '0');
  if (x > 9)
    return NULL;
  p++;
  unsigned d = (unsigned)(*p - '0');
  if (x == 0 && d <= 9)
    return NULL; /* a leading zero */
  for (int k = 1; d <= 9; k++) {
    if (k == 9)
      return NULL; /* 10 digits or more */
    x = x * 10 + d;
    d = (unsigned)(*++p - '0');
  }
  *v = x;
  return p;
}

/* The common transfers in bulk: JSON Lines' direct [src,dst] of an
 * all-to-all or all-gather, one after the other ("[a,b],[c,d],..."),
 * while FAST_SLACK bytes remain after each. Appends them from out[0] (room
 * for `room`), leaves *pp at the first byte not taken (after a transfer's
 * ']' when that is not followed by ",[", else at a '[' the general scan
 * must read) and returns how many. */
static guint64 fast_direct_run(const guchar **pp, const guchar *end, const NsTokSchema *sc,
                               NsTransfer *out, guint64 room, gboolean *more)
{
  const guchar *p = *pp;
  uint32_t n = sc->n_machines;
  gboolean a2a = sc->collective == NS_COLL_ALLTOALL;
  guint64 got = 0;
  *more = FALSE;
  while (got < room && end - p > FAST_SLACK) {
    uint32_t src, dst;
    const guchar *q = fast_uint_unchecked(p + 1, &src); /* p is at '[' */
    if (q == NULL || *q != ',' || (q = fast_uint_unchecked(q + 1, &dst)) == NULL || *q != ']' ||
        src >= n || dst >= n || src == dst)
      break;
    out[got++] = (NsTransfer){ .src = (int32_t)src, .dst = (int32_t)dst, .n_chunks = 1,
                               .chunk = a2a ? src * n + dst : src };
    p = q + 1;
    if (p[0] != ',' || p[1] != '[') {
      *pp = p;
      return got;
    }
    p++;
  }
  *pp = p;
  *more = TRUE;
  return got;
}

/* One chunk of a multi-chunk (or explicit single-chunk) transfer at p;
 * NULL when not in the simple form or out of range. */
static inline const guchar *fast_chunk(const guchar *p, const guchar *end, const NsTokSchema *sc,
                                       uint32_t *chunk)
{
  uint32_t n = sc->n_machines;
  if (sc->collective == NS_COLL_ALLTOALL) {
    uint32_t o, d;
    if (p >= end || *p != '[')
      return NULL;
    p++;
    if (!fast_uint(&p, end, &o) || p >= end || *p != ',')
      return NULL;
    p++;
    if (!fast_uint(&p, end, &d) || p >= end || *p != ']' || o >= n || d >= n || o == d)
      return NULL;
    *chunk = o * n + d;
    return p + 1;
  }
  if (!fast_uint(&p, end, chunk) ||
      *chunk >= (sc->collective == NS_COLL_ALLGATHER ? n : sc->n_segments))
    return NULL;
  return p;
}

/* One transfer at p (its '['), all within [p, end): fills *tr (multi-chunk
 * lists appended to `pool`) and returns the byte after its ']', or NULL
 * (nothing appended) when it is not in the simple form or not valid. */
static inline const guchar *fast_transfer(const guchar *p, const guchar *end,
                                          const NsTokSchema *sc, NsTransfer *tr, GArray *pool,
                                          guint64 *pool_total)
{
  uint32_t src, dst, n = sc->n_machines;
  p++;
  if (!fast_uint(&p, end, &src) || p >= end || *p != ',')
    return NULL;
  p++;
  if (!fast_uint(&p, end, &dst) || p >= end || src >= n || dst >= n || src == dst)
    return NULL;
  if (*p == ']') { /* [src,dst]: the direct chunk (JSON Lines) */
    if (!sc->direct_ok || sc->collective == NS_COLL_BCAST)
      return NULL;
    *tr = (NsTransfer){ .src = (int32_t)src, .dst = (int32_t)dst, .n_chunks = 1,
                        .chunk = sc->collective == NS_COLL_ALLTOALL ? src * n + dst : src };
    return p + 1;
  }
  guint pool_mark = pool->len;
  uint32_t first = 0, n_chunks = 0;
  while (*p == ',') {
    uint32_t chunk;
    p = fast_chunk(p + 1, end, sc, &chunk);
    if (p == NULL || p >= end)
      goto no;
    if (n_chunks == 0)
      first = chunk;
    else {
      if (n_chunks == 1)
        g_array_append_val(pool, first);
      g_array_append_val(pool, chunk);
    }
    n_chunks++;
  }
  /* too many chunks for NsTransfer.n_chunks: the checked path says so */
  if (*p != ']' || n_chunks == 0 || n_chunks > NS_TRANSFER_MAX_CHUNKS ||
      *pool_total + n_chunks >= G_MAXUINT32)
    goto no;
  *tr = (NsTransfer){ .src = (int32_t)src, .dst = (int32_t)dst, .n_chunks = n_chunks,
                      .chunk = n_chunks == 1 ? first : pool_mark };
  if (n_chunks > 1)
    *pool_total += n_chunks;
  return p + 1;
no:
  g_array_set_size(pool, pool_mark);
  return NULL;
}

/* Transfers are written straight into `transfers`, grown this many at a
 * time (no append call per transfer) and cut to what was read at the end. */
#define FAST_GROW 4096

guint64 ns_tok_fast_transfers(NsTok *t, const NsTokSchema *sc, GArray *transfers, guint *reserved,
                              GArray *pool, guint64 *pool_total, guint64 max_transfers,
                              gboolean *closed)
{
  guint64 got = 0;
  *closed = FALSE;
  if (t->error != NULL || (t->state != ST_VALUE_OR_CLOSE && t->state != ST_VALUE))
    return 0;
  guint len = transfers->len, cap = len;
  if (*reserved > len) {
    /* the room an earlier call made, taken back without g_array_set_size
     * (whose check divides: a division a phase) */
    transfers->len = *reserved;
    cap = *reserved;
  }
  NsTransfer *out = (NsTransfer *)(void *)transfers->data;
  gboolean bulk = sc->direct_ok && sc->collective != NS_COLL_BCAST;
  /* state: a value may come (after '[' or ','), with t->p at it */
  while (got < max_transfers) {
    /* the whole transfer must be in the buffer: bring enough in; a longer
     * one is left to the general path */
    if ((gsize)(t->end - t->p) < 4096 && !t->eof && !fill(t, 64u << 10))
      break;
    const guchar *p = t->p, *end = t->end;
    if (p >= end || *p != '[')
      break;
    if (len == cap) {
      g_array_set_size(transfers, cap + FAST_GROW);
      cap = transfers->len;
      *reserved = cap;
      out = (NsTransfer *)(void *)transfers->data;
    }
    if (bulk) {
      gboolean more;
      guint64 k = fast_direct_run(&p, end, sc, out + len, MIN(cap - len, max_transfers - got),
                                  &more);
      len += (guint)k;
      got += k;
      if (k > 0) {
        t->p = (guchar *)p;
        t->state = more ? ST_VALUE : ST_COMMA_OR_CLOSE;
      }
      if (!more)
        break; /* after a phase's last transfer, its ']' next */
      if (k > 0)
        continue; /* out of room, or near the end of the buffer */
      /* a transfer of another form: one at a time below */
    }
    const guchar *q = fast_transfer(p, end, sc, &out[len], pool, pool_total);
    if (q == NULL)
      break;
    len++;
    got++;
    t->p = (guchar *)q;
    t->state = ST_COMMA_OR_CLOSE;
    if (q + 1 >= end || q[0] != ',' || q[1] != '[')
      break; /* ']', white space, or anything else: the general path */
    t->p++;
    t->state = ST_VALUE;
  }
  ns_array_truncate(transfers, len);
  /* the phase's ']' right after a transfer: what ns_tok_next would do with it */
  if (got > 0 && t->error == NULL && t->state == ST_COMMA_OR_CLOSE && t->p < t->end &&
      *t->p == ']' && t->stack[t->depth - 1].ch == '[') {
    set_tok_mark(t);
    close_container(t);
    *closed = TRUE;
  }
  return got;
}
