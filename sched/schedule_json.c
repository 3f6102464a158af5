/* netsched — Schedule IR as JSON. See schedule_json.h and
 * docs/schedule-format.md.
 *
 * Reading is three steps:
 *  1. a strict syntax check of the raw text (check_syntax). json-glib 1.6
 *     is lenient and in places unsafe: it accepts comments, hex and
 *     leading-zero numbers, single-quoted strings, raw control characters
 *     in strings and trailing garbage after the document; it wraps integer
 *     literals beyond 64 bits silently (-18446744073709551615 reads as 1);
 *     and its recursive descent overflows the stack on deeply nested input.
 *     The check rejects all of that with "source:line:column:" messages,
 *     limits nesting, refuses integers outside int64, and catches duplicate
 *     top-level keys. It builds nothing, so it costs one linear pass;
 *  2. json-glib's JsonParser builds the DOM (its own errors, if any get
 *     past step 1, are reformatted to "source:line:column: ...");
 *  3. a schema walk converts the DOM into an NsSchedule, checking every
 *     value and naming it by its JSON path ("$.phases[3][7][1]").
 *
 * Writing streams through a private buffer onto the FILE: no DOM, so a
 * 16.8 M-transfer schedule needs no memory beyond the schedule itself.
 */
#include "sched/schedule_json.h"
#include "platforms/units.h"
#include "sched/sync.h"
#include "platforms/error.h"

#include <errno.h>
#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

/* Deepest nesting accepted. A schedule needs 5 levels (document, phases,
 * phase, transfer, chunk); the rest is headroom for unknown keys. */
#define NS_JSON_MAX_DEPTH 64

/* Alltoall chunks are stored as origin * n + destination in 32 bits. */
#define NS_A2A_MAX_MACHINES 65536

/* ===================================================================== */
/* Step 1: strict syntax check                                            */
/* ===================================================================== */

typedef enum {
  ST_VALUE,          /* a value must come (document start, after ':' or ',' in an array) */
  ST_VALUE_OR_CLOSE, /* just after '[' */
  ST_KEY_OR_CLOSE,   /* just after '{' */
  ST_KEY,            /* after ',' in an object */
  ST_COLON,          /* after a key */
  ST_COMMA_OR_CLOSE, /* after a value inside a container */
  ST_END,            /* after the top-level value */
} ScanState;

typedef struct {
  const char *source;
  const guchar *start, *end;
  GError **error;
} Scan;

/* Line (1-based) and column (1-based, in characters) of `at`. Computed on
 * error only, so the scan itself never counts lines. */
static void scan_position(const Scan *s, const guchar *at, int *line, int *column)
{
  gint64 l = 1;
  const guchar *line_start = s->start;
  for (const guchar *q = s->start; q < at; q++)
    if (*q == '\n') {
      l++;
      line_start = q + 1;
    }
  int col = 1;
  for (const guchar *q = line_start; q < at; q++)
    if ((*q & 0xC0) != 0x80) /* count lead bytes, not UTF-8 continuations */
      col++;
  *line = (int)MIN(l, (gint64)G_MAXINT);
  *column = col;
}

static gboolean scan_fail(const Scan *s, const guchar *at, const char *fmt, ...)
  G_GNUC_PRINTF(3, 4);

static gboolean scan_fail(const Scan *s, const guchar *at, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  int line, column;
  scan_position(s, at, &line, &column);
  /* "source:line:column: what" (ns_set_error_at has no column) */
  ns_set_error_at(s->error, NS_ERROR_INPUT, NULL, 0, "%s:%d:%d: %s", s->source, line, column,
                  msg);
  g_free(msg);
  return FALSE;
}

static gboolean is_word_char(guchar c)
{
  return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-';
}

/* What stands at `p`, for "found ..." in messages (newly allocated). */
static char *scan_describe(const Scan *s, const guchar *p)
{
  if (p >= s->end)
    return g_strdup("end of input");
  if (g_ascii_isalnum(*p) || *p == '_') {
    const guchar *q = p;
    while (q < s->end && q - p < 24 && is_word_char(*q))
      q++;
    return g_strdup_printf("'%.*s%s'", (int)(q - p), (const char *)p,
                           q < s->end && is_word_char(*q) ? "..." : "");
  }
  if (*p == '\'')
    return g_strdup("\"'\"");
  if (*p > 0x20 && *p < 0x7f)
    return g_strdup_printf("'%c'", *p);
  return g_strdup_printf("byte 0x%02X", *p);
}

static gboolean scan_unexpected(const Scan *s, const guchar *p, const char *expected)
{
  char *what = scan_describe(s, p);
  scan_fail(s, p, "expected %s, found %s", expected, what);
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

/* Reads the 4 hex digits after "\u" at p (p points at 'u'). */
static gboolean scan_u_escape(const Scan *s, const guchar *p, unsigned *value)
{
  unsigned v = 0;
  for (int i = 1; i <= 4; i++) {
    if (p + i >= s->end || hex_value(p[i]) < 0)
      return scan_fail(s, p - 1, "invalid \\u escape in string (4 hex digits expected)");
    v = v * 16 + (unsigned)hex_value(p[i]);
  }
  *value = v;
  return TRUE;
}

/* A string starting at *pp (the opening quote). Leaves *pp after the
 * closing quote. */
static gboolean scan_string(const Scan *s, const guchar **pp)
{
  const guchar *open = *pp, *p = *pp + 1;
  while (p < s->end) {
    guchar c = *p;
    if (c == '"') {
      *pp = p + 1;
      return TRUE;
    }
    if (c < 0x20)
      return scan_fail(s, p, "control character U+%04X in string (write it as an escape)", c);
    if (c == '\\') {
      if (p + 1 >= s->end)
        break;
      guchar e = p[1];
      if (strchr("\"\\/bfnrt", e) != NULL && e != '\0') {
        p += 2;
        continue;
      }
      if (e != 'u')
        return scan_fail(s, p, "invalid escape '\\%c' in string",
                         e >= 0x20 && e < 0x7f ? e : '?');
      unsigned u = 0;
      if (!scan_u_escape(s, p + 1, &u))
        return FALSE;
      if (u == 0)
        return scan_fail(s, p, "\\u0000 (NUL) is not allowed in strings");
      if (u >= 0xDC00 && u <= 0xDFFF)
        return scan_fail(s, p, "invalid \\u escape: lone low surrogate \\u%04X", u);
      if (u >= 0xD800 && u <= 0xDBFF) {
        unsigned low = 0;
        if (p + 7 >= s->end || p[6] != '\\' || p[7] != 'u')
          return scan_fail(s, p, "invalid \\u escape: high surrogate \\u%04X not followed "
                                 "by a low surrogate", u);
        if (!scan_u_escape(s, p + 7, &low))
          return FALSE;
        if (low < 0xDC00 || low > 0xDFFF)
          return scan_fail(s, p, "invalid \\u escape: high surrogate \\u%04X not followed "
                                 "by a low surrogate", u);
        p += 12;
        continue;
      }
      p += 6;
      continue;
    }
    if (c < 0x80) {
      p++;
      continue;
    }
    gunichar uc = g_utf8_get_char_validated((const char *)p, (gssize)(s->end - p));
    if (uc == (gunichar)-1 || uc == (gunichar)-2)
      return scan_fail(s, p, "invalid UTF-8 in string");
    p = (const guchar *)g_utf8_next_char(p);
  }
  return scan_fail(s, open, "unterminated string");
}

/* A number at *pp: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, and, when
 * it is an integer, within int64. */
static gboolean scan_number(const Scan *s, const guchar **pp)
{
  const guchar *p = *pp, *q = p;
  if (*q == '-')
    q++;
  const guchar *digits = q;
  if (q >= s->end || !g_ascii_isdigit(*q))
    goto malformed;
  if (*q == '0')
    q++;
  else
    while (q < s->end && g_ascii_isdigit(*q))
      q++;
  const guchar *digits_end = q;
  gboolean integer = TRUE;
  if (q < s->end && *q == '.') {
    q++;
    if (q >= s->end || !g_ascii_isdigit(*q))
      goto malformed;
    while (q < s->end && g_ascii_isdigit(*q))
      q++;
    integer = FALSE;
  }
  if (q < s->end && (*q == 'e' || *q == 'E')) {
    q++;
    if (q < s->end && (*q == '+' || *q == '-'))
      q++;
    if (q >= s->end || !g_ascii_isdigit(*q))
      goto malformed;
    while (q < s->end && g_ascii_isdigit(*q))
      q++;
    integer = FALSE;
  }
  if (q < s->end && is_word_char(*q))
    goto malformed;
  if (integer) {
    gsize n = (gsize)(digits_end - digits);
    if (n > 19 || (n == 19 && memcmp(digits, "9223372036854775807", 19) > 0))
      return scan_fail(s, p, "integer %s%.*s%s is out of range", *p == '-' ? "-" : "",
                       (int)MIN(n, 24), (const char *)digits, n > 24 ? "..." : "");
  }
  *pp = q;
  return TRUE;
malformed:
  q = p;
  while (q < s->end && q - p < 24 && (is_word_char(*q) || *q == '-'))
    q++;
  return scan_fail(s, p, "malformed number '%.*s%s'", (int)(q - p), (const char *)p,
                   q < s->end && is_word_char(*q) ? "..." : "");
}

static gboolean scan_literal(const Scan *s, const guchar **pp)
{
  static const char *const words[] = { "true", "false", "null" };
  const guchar *p = *pp;
  for (unsigned i = 0; i < G_N_ELEMENTS(words); i++) {
    gsize n = strlen(words[i]);
    if ((gsize)(s->end - p) >= n && memcmp(p, words[i], n) == 0 &&
        (p + n == s->end || !is_word_char(p[n]))) {
      *pp = p + n;
      return TRUE;
    }
  }
  return scan_unexpected(s, p, "a value");
}

/* Checks that text is one strict RFC 8259 JSON value (UTF-8, no BOM),
 * nested at most NS_JSON_MAX_DEPTH deep, with integers within int64, no
 * NUL characters in strings and no duplicate keys in the top-level object
 * (compared as written; *n_top_keys receives the number of top-level keys,
 * so the caller can catch duplicates that differ only in escapes). */
static gboolean check_syntax(const char *source, const char *text, gsize len,
                             guint64 *n_top_keys, GError **error)
{
  Scan s = { source, (const guchar *)text, (const guchar *)text + len, error };
  const guchar *open[NS_JSON_MAX_DEPTH]; /* the '[' or '{' of each open container */
  int depth = 0;
  ScanState state = ST_VALUE;
  gboolean ok = TRUE;
  GHashTable *top_keys = NULL; /* raw key text -> position, top-level object only */
  const guchar *p = s.start;
  *n_top_keys = 0;

  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
    return scan_fail(&s, p, "byte order mark at the start of the document (not allowed in JSON)");

  for (;;) {
    while (p < s.end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
      p++;
    if (p >= s.end)
      break;
    guchar c = *p;

    if (state == ST_END) {
      char *what = scan_describe(&s, p);
      ok = scan_fail(&s, p, "unexpected %s after the end of the document", what);
      g_free(what);
      goto out;
    }
    if (state == ST_COLON) {
      if (c != ':') {
        ok = scan_unexpected(&s, p, "':' after the key");
        goto out;
      }
      p++;
      state = ST_VALUE;
      continue;
    }
    if (state == ST_KEY || state == ST_KEY_OR_CLOSE) {
      if (c == '"') {
        const guchar *key = p;
        if (!(ok = scan_string(&s, &p)))
          goto out;
        if (depth == 1) {
          (*n_top_keys)++;
          if (top_keys == NULL)
            top_keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
          char *k = g_strndup((const char *)key, (gsize)(p - key));
          const guchar *first = g_hash_table_lookup(top_keys, k);
          if (first != NULL) {
            int line, column;
            scan_position(&s, first, &line, &column);
            ok = scan_fail(&s, key, "duplicate key %s (first at line %d)", k, line);
            g_free(k);
            goto out;
          }
          g_hash_table_insert(top_keys, k, (gpointer)key);
        }
        state = ST_COLON;
        continue;
      }
      if (c == '}' && state == ST_KEY) {
        ok = scan_fail(&s, p, "trailing comma before '}'");
        goto out;
      }
      if (c != '}') {
        ok = scan_unexpected(&s, p, state == ST_KEY ? "a string key" : "a string key or '}'");
        goto out;
      }
      /* '}' right after '{': falls through to the closing code below */
    } else if (state == ST_COMMA_OR_CLOSE) {
      if (c == ',') {
        p++;
        state = *open[depth - 1] == '{' ? ST_KEY : ST_VALUE;
        continue;
      }
      if (c != ']' && c != '}') {
        ok = scan_unexpected(&s, p, *open[depth - 1] == '{' ? "',' or '}'" : "',' or ']'");
        goto out;
      }
    } else if (c == ']' && state == ST_VALUE && depth > 0 && *open[depth - 1] == '[') {
      ok = scan_fail(&s, p, "trailing comma before ']'");
      goto out;
    } else if (!(c == ']' && state == ST_VALUE_OR_CLOSE)) {
      /* ST_VALUE / ST_VALUE_OR_CLOSE: a value */
      if (c == '[' || c == '{') {
        if (depth == NS_JSON_MAX_DEPTH) {
          ok = scan_fail(&s, p, "nesting deeper than %d levels", NS_JSON_MAX_DEPTH);
          goto out;
        }
        open[depth++] = p++;
        state = c == '[' ? ST_VALUE_OR_CLOSE : ST_KEY_OR_CLOSE;
        continue;
      }
      if (c == '"')
        ok = scan_string(&s, &p);
      else if (c == '-' || g_ascii_isdigit(c))
        ok = scan_number(&s, &p);
      else if (g_ascii_isalpha(c))
        ok = scan_literal(&s, &p);
      else
        ok = scan_unexpected(&s, p, "a value");
      if (!ok)
        goto out;
      state = depth == 0 ? ST_END : ST_COMMA_OR_CLOSE;
      continue;
    }

    /* Closing bracket c, allowed by the state; it must match. */
    g_assert(depth > 0);
    guchar want = *open[depth - 1] == '[' ? ']' : '}';
    if (c != want) {
      int line, column;
      scan_position(&s, open[depth - 1], &line, &column);
      ok = scan_fail(&s, p, "'%c' does not match the '%c' at line %d, column %d", c,
                     *open[depth - 1], line, column);
      goto out;
    }
    p++;
    depth--;
    if (depth == 0 && top_keys != NULL)
      g_clear_pointer(&top_keys, g_hash_table_unref);
    state = depth == 0 ? ST_END : ST_COMMA_OR_CLOSE;
  }

  if (state == ST_END)
    goto out;
  if (depth == 0 && state == ST_VALUE) {
    ns_set_error_at(error, NS_ERROR_INPUT, source, 0, "empty document");
    ok = FALSE;
    goto out;
  }
  {
    int line, column;
    scan_position(&s, open[depth - 1], &line, &column);
    ok = scan_fail(&s, s.end, "unexpected end of input ('%c' at line %d, column %d is not "
                              "closed)",
                   *open[depth - 1], line, column);
  }
out:
  if (top_keys != NULL)
    g_hash_table_unref(top_keys);
  return ok;
}

/* Turns json-glib's "<data>:LINE:COL: Parse error: what" into
 * "source:LINE:COL: what". Only reached if step 1 let through something
 * json-glib refuses. */
static void set_json_glib_error(const char *source, const GError *err, GError **error)
{
  const char *m = err->message;
  long line = 0, column = 0;
  if (g_str_has_prefix(m, "<data>:")) {
    char *q;
    line = strtol(m + 7, &q, 10);
    if (*q == ':' && g_ascii_isdigit(q[1]))
      column = strtol(q + 1, &q, 10);
    if (*q == ':') {
      q++;
      while (*q == ' ')
        q++;
      m = q;
    } else {
      line = column = 0;
    }
  }
  if (g_str_has_prefix(m, "Parse error: "))
    m += strlen("Parse error: ");
  if (line > 0 && line <= G_MAXINT && column > 0)
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s:%ld:%ld: %s", source, line, column, m);
  else
    ns_set_error_at(error, NS_ERROR_INPUT, source, (int)CLAMP(line, 0, G_MAXINT), "%s", m);
}

/* ===================================================================== */
/* Step 3: schema walk                                                    */
/* ===================================================================== */

/* The JSON path of the value being checked, kept as a small stack and
 * rendered ("$.phases[3][7][1]") only when an error is reported. */
typedef struct {
  const char *key; /* NULL for an array index */
  guint64 index;
} PathPart;

#define PATH_MAX_PARTS 8

typedef struct {
  const char *source;
  GError **error;
  PathPart path[PATH_MAX_PARTS];
  int depth;
} Ctx;

static void push_key(Ctx *c, const char *key)
{
  g_assert(c->depth < PATH_MAX_PARTS);
  c->path[c->depth++] = (PathPart){ key, 0 };
}

static void push_index(Ctx *c, guint64 index)
{
  g_assert(c->depth < PATH_MAX_PARTS);
  c->path[c->depth++] = (PathPart){ NULL, index };
}

/* Replaces the index on top of the path (the loop variable of an array). */
static inline void set_index(Ctx *c, guint64 index)
{
  c->path[c->depth - 1].index = index;
}

static void pop(Ctx *c)
{
  g_assert(c->depth > 0);
  c->depth--;
}

static gboolean fail(Ctx *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean fail(Ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  GString *path = g_string_new("$");
  for (int i = 0; i < c->depth; i++) {
    if (c->path[i].key != NULL)
      g_string_append_printf(path, ".%s", c->path[i].key);
    else
      g_string_append_printf(path, "[%" G_GUINT64_FORMAT "]", c->path[i].index);
  }
  ns_set_error_at(c->error, NS_ERROR_INPUT, c->source, 0, "%s: %s", path->str, msg);
  g_string_free(path, TRUE);
  g_free(msg);
  return FALSE;
}

static const char *describe(JsonNode *n)
{
  if (n == NULL)
    return "nothing";
  switch (JSON_NODE_TYPE(n)) {
  case JSON_NODE_OBJECT:
    return "an object";
  case JSON_NODE_ARRAY:
    return "an array";
  case JSON_NODE_NULL:
    return "null";
  case JSON_NODE_VALUE:
    break;
  }
  GType t = json_node_get_value_type(n);
  if (t == G_TYPE_INT64)
    return "an integer";
  if (t == G_TYPE_DOUBLE)
    return "a number with a fraction or exponent";
  if (t == G_TYPE_BOOLEAN)
    return "a boolean";
  if (t == G_TYPE_STRING)
    return "a string";
  return "an unknown value";
}

static JsonArray *get_array(Ctx *c, JsonNode *n, const char *what)
{
  if (n == NULL || JSON_NODE_TYPE(n) != JSON_NODE_ARRAY) {
    fail(c, "expected %s, got %s", what, describe(n));
    return NULL;
  }
  return json_node_get_array(n);
}

static const char *get_string(Ctx *c, JsonNode *n, const char *what)
{
  if (n == NULL || JSON_NODE_TYPE(n) != JSON_NODE_VALUE ||
      json_node_get_value_type(n) != G_TYPE_STRING) {
    fail(c, "expected %s (a string), got %s", what, describe(n));
    return NULL;
  }
  return json_node_get_string(n);
}

static gboolean get_integer(Ctx *c, JsonNode *n, const char *what, gint64 *v)
{
  if (n == NULL || JSON_NODE_TYPE(n) != JSON_NODE_VALUE ||
      json_node_get_value_type(n) != G_TYPE_INT64)
    return fail(c, "expected %s (an integer), got %s", what, describe(n));
  *v = json_node_get_int(n);
  return TRUE;
}

/* A positive integer <= max. */
static gboolean get_positive(Ctx *c, JsonNode *n, const char *what, gint64 max, gint64 *v)
{
  if (!get_integer(c, n, what, v))
    return FALSE;
  if (*v <= 0)
    return fail(c, "%s must be positive, got %" G_GINT64_FORMAT, what, *v);
  if (*v > max)
    return fail(c, "%s %" G_GINT64_FORMAT " is too large (at most %" G_GINT64_FORMAT ")",
                what, *v, max);
  return TRUE;
}

static gboolean get_machine(Ctx *c, JsonNode *n, int n_machines, int32_t *m)
{
  gint64 v = 0;
  if (!get_integer(c, n, "a machine index", &v))
    return FALSE;
  if (v < 0 || v >= n_machines)
    return fail(c, "machine index %" G_GINT64_FORMAT " out of range (%d machine%s)", v,
                n_machines, n_machines == 1 ? "" : "s");
  *m = (int32_t)v;
  return TRUE;
}

/* Looks up a required member; pushes its key on the path on success. */
static JsonNode *member(Ctx *c, JsonObject *o, const char *key)
{
  JsonNode *n = json_object_get_member(o, key);
  if (n == NULL)
    fail(c, "missing required key \"%s\"", key);
  else
    push_key(c, key);
  return n;
}

/* One chunk of a transfer, encoded for the IR. */
static gboolean read_chunk(Ctx *c, const NsSchedule *s, JsonNode *n, uint32_t *chunk)
{
  switch (s->collective) {
  case NS_COLL_ALLTOALL: {
    JsonArray *pair = get_array(c, n, "an alltoall chunk [origin, destination]");
    if (pair == NULL)
      return FALSE;
    if (json_array_get_length(pair) != 2)
      return fail(c, "an alltoall chunk is [origin, destination], got %u element%s",
                  json_array_get_length(pair), json_array_get_length(pair) == 1 ? "" : "s");
    int32_t origin, destination;
    push_index(c, 0);
    if (!get_machine(c, json_array_get_element(pair, 0), s->n_machines, &origin))
      return FALSE;
    set_index(c, 1);
    if (!get_machine(c, json_array_get_element(pair, 1), s->n_machines, &destination))
      return FALSE;
    pop(c);
    if (origin == destination)
      return fail(c, "chunk origin and destination are the same machine (%d)", origin);
    *chunk = ns_a2a_chunk(s->n_machines, origin, destination);
    return TRUE;
  }
  case NS_COLL_ALLGATHER: {
    int32_t origin;
    if (!get_machine(c, n, s->n_machines, &origin))
      return FALSE;
    *chunk = (uint32_t)origin;
    return TRUE;
  }
  case NS_COLL_BCAST: {
    gint64 v;
    if (!get_integer(c, n, "a segment index", &v))
      return FALSE;
    if (v < 0 || v >= s->n_segments)
      return fail(c, "segment %" G_GINT64_FORMAT " out of range (%u segment%s)", v,
                  s->n_segments, s->n_segments == 1 ? "" : "s");
    *chunk = (uint32_t)v;
    return TRUE;
  }
  }
  g_assert_not_reached();
  return FALSE;
}

static gboolean read_phases(Ctx *c, NsSchedule *s, JsonArray *phases)
{
  guint n_phases = json_array_get_length(phases);
  if (s->execution == NS_EXEC_POSTED && n_phases != 1)
    return fail(c, "posted execution needs exactly 1 phase, got %u", n_phases);

  /* Shapes first, so the arrays can be sized exactly (bounded by input). */
  guint64 total = 0;
  push_index(c, 0);
  for (guint p = 0; p < n_phases; p++) {
    set_index(c, p);
    JsonArray *phase = get_array(c, json_array_get_element(phases, p),
                                 "a phase (an array of transfers)");
    if (phase == NULL)
      return FALSE;
    total += json_array_get_length(phase);
  }
  pop(c);
  if (total >= G_MAXUINT32)
    return fail(c, "too many transfers (%" G_GUINT64_FORMAT "; at most %u)", total,
                G_MAXUINT32 - 1);
  ns_schedule_reserve(s, n_phases, total);

  GArray *chunks = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  gboolean ok = FALSE;
  push_index(c, 0);
  for (guint p = 0; p < n_phases; p++) {
    set_index(c, p);
    JsonArray *phase = json_node_get_array(json_array_get_element(phases, p));
    guint n_transfers = json_array_get_length(phase);
    ns_schedule_begin_phase(s);
    push_index(c, 0);
    for (guint i = 0; i < n_transfers; i++) {
      set_index(c, i);
      JsonArray *t = get_array(c, json_array_get_element(phase, i),
                               "a transfer [src, dst, chunk, ...]");
      if (t == NULL)
        goto out;
      guint len = json_array_get_length(t);
      if (len < 3) {
        fail(c, "a transfer is [src, dst, chunk, ...] with at least one chunk, got %u "
                "element%s", len, len == 1 ? "" : "s");
        goto out;
      }
      int32_t src, dst;
      push_index(c, 0);
      if (!get_machine(c, json_array_get_element(t, 0), s->n_machines, &src))
        goto out;
      set_index(c, 1);
      if (!get_machine(c, json_array_get_element(t, 1), s->n_machines, &dst))
        goto out;
      pop(c);
      if (src == dst) {
        fail(c, "transfer from machine %d (%s) to itself", src, s->machines[src]);
        goto out;
      }
      guint n_chunks = len - 2;
      if ((guint64)s->chunk_pool->len + n_chunks >= G_MAXUINT32) {
        fail(c, "too many chunks in multi-chunk transfers (at most %u)", G_MAXUINT32 - 1);
        goto out;
      }
      g_array_set_size(chunks, n_chunks);
      push_index(c, 0);
      for (guint k = 0; k < n_chunks; k++) {
        set_index(c, k + 2);
        if (!read_chunk(c, s, json_array_get_element(t, k + 2),
                        &g_array_index(chunks, uint32_t, k)))
          goto out;
      }
      pop(c);
      ns_schedule_add_chunks(s, src, dst, n_chunks, (const uint32_t *)(void *)chunks->data);
    }
    pop(c);
  }
  pop(c);
  ok = TRUE;
out:
  g_array_unref(chunks);
  return ok;
}

static gboolean read_sync(Ctx *c, NsSchedule *s, JsonArray *sync)
{
  guint n = json_array_get_length(sync);
  uint64_t n_transfers = ns_schedule_n_transfers(s);
  push_index(c, 0);
  for (guint i = 0; i < n; i++) {
    set_index(c, i);
    JsonArray *e = get_array(c, json_array_get_element(sync, i), "a sync edge [from, to]");
    if (e == NULL)
      return FALSE;
    if (json_array_get_length(e) != 2)
      return fail(c, "a sync edge is [from, to], got %u element%s", json_array_get_length(e),
                  json_array_get_length(e) == 1 ? "" : "s");
    gint64 v[2];
    push_index(c, 0);
    for (guint k = 0; k < 2; k++) {
      set_index(c, k);
      if (!get_integer(c, json_array_get_element(e, k), "a transfer index", &v[k]))
        return FALSE;
      if (v[k] < 0 || (uint64_t)v[k] >= n_transfers)
        return fail(c, "transfer index %" G_GINT64_FORMAT " out of range (%" G_GUINT64_FORMAT
                       " transfer%s)", v[k], n_transfers, n_transfers == 1 ? "" : "s");
    }
    pop(c);
    if (v[0] == v[1])
      return fail(c, "transfer %" G_GINT64_FORMAT " cannot wait for itself", v[0]);
    ns_schedule_add_sync(s, (uint32_t)v[0], (uint32_t)v[1]);
  }
  pop(c);
  return TRUE;
}

static NsSchedule *read_document(Ctx *c, JsonNode *root)
{
  if (root == NULL || JSON_NODE_TYPE(root) != JSON_NODE_OBJECT) {
    fail(c, "expected an object, got %s", describe(root));
    return NULL;
  }
  JsonObject *o = json_node_get_object(root);
  JsonNode *n;
  const char *str;
  gint64 v;

  /* format and version first: a document of another kind or version gets
   * that message, not a schema error about some key it uses differently. */
  if ((n = member(c, o, "format")) == NULL || (str = get_string(c, n, "the format")) == NULL)
    return NULL;
  if (strcmp(str, NS_SCHEDULE_FORMAT) != 0) {
    fail(c, "expected \"%s\", got \"%s\"", NS_SCHEDULE_FORMAT, str);
    return NULL;
  }
  pop(c);
  if ((n = member(c, o, "version")) == NULL || !get_integer(c, n, "the version", &v))
    return NULL;
  if (v != NS_SCHEDULE_VERSION) {
    fail(c, "unsupported version %" G_GINT64_FORMAT " (this netsched reads version %d)", v,
         NS_SCHEDULE_VERSION);
    return NULL;
  }
  pop(c);

  NsCollective collective;
  if ((n = member(c, o, "collective")) == NULL ||
      (str = get_string(c, n, "a collective")) == NULL)
    return NULL;
  if (!ns_collective_from_name(str, &collective)) {
    fail(c, "unknown collective \"%s\" (expected alltoall, allgather or bcast)", str);
    return NULL;
  }
  pop(c);

  const char *algorithm;
  if ((n = member(c, o, "algorithm")) == NULL ||
      (algorithm = get_string(c, n, "an algorithm name")) == NULL)
    return NULL;
  if (*algorithm == '\0') {
    fail(c, "empty algorithm name");
    return NULL;
  }
  pop(c);

  JsonArray *machines;
  if ((n = member(c, o, "machines")) == NULL ||
      (machines = get_array(c, n, "an array of machine names")) == NULL)
    return NULL;
  guint n_machines = json_array_get_length(machines);
  if (n_machines == 0) {
    fail(c, "no machines");
    return NULL;
  }
  if (n_machines > G_MAXINT32 ||
      (collective == NS_COLL_ALLTOALL && n_machines > NS_A2A_MAX_MACHINES)) {
    fail(c, "too many machines (%u; %s supports at most %d)", n_machines,
         ns_collective_name(collective),
         collective == NS_COLL_ALLTOALL ? NS_A2A_MAX_MACHINES : G_MAXINT32);
    return NULL;
  }
  const char **names = g_new(const char *, n_machines + 1);
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  gboolean names_ok = TRUE;
  push_index(c, 0);
  for (guint i = 0; i < n_machines && names_ok; i++) {
    set_index(c, i);
    names[i] = get_string(c, json_array_get_element(machines, i), "a machine name");
    if (names[i] == NULL) {
      names_ok = FALSE;
    } else if (*names[i] == '\0') {
      names_ok = fail(c, "empty machine name");
    } else {
      gpointer first;
      if (g_hash_table_lookup_extended(seen, names[i], NULL, &first))
        names_ok = fail(c, "duplicate machine name \"%s\" (also $.machines[%u])", names[i],
                        GPOINTER_TO_UINT(first));
      else
        g_hash_table_insert(seen, (gpointer)names[i], GUINT_TO_POINTER(i));
    }
  }
  names[n_machines] = NULL;
  if (!names_ok) {
    g_hash_table_unref(seen);
    g_free(names);
    return NULL;
  }
  c->depth -= 2;

  gint64 msize;
  if ((n = member(c, o, "msize_bytes")) == NULL ||
      !get_positive(c, n, "the message size", (gint64)NS_MAX_MSIZE, &msize)) {
    g_hash_table_unref(seen);
    g_free(names);
    return NULL;
  }
  pop(c);

  NsSchedule *s = ns_schedule_new(collective, algorithm, (int)n_machines, names,
                                  (uint64_t)msize);
  g_free(names);

  if ((n = member(c, o, "execution")) == NULL || (str = get_string(c, n, "an execution")) == NULL)
    goto fail;
  if (strcmp(str, "phased") == 0)
    s->execution = NS_EXEC_PHASED;
  else if (strcmp(str, "posted") == 0)
    s->execution = NS_EXEC_POSTED;
  else {
    fail(c, "unknown execution \"%s\" (expected \"phased\" or \"posted\")", str);
    goto fail;
  }
  pop(c);

  if (collective == NS_COLL_BCAST) {
    if ((n = member(c, o, "root")) == NULL || (str = get_string(c, n, "the root machine")) == NULL)
      goto fail;
    gpointer index;
    if (!g_hash_table_lookup_extended(seen, str, NULL, &index)) {
      fail(c, "root \"%s\" is not one of the machines", str);
      goto fail;
    }
    s->root = (int)GPOINTER_TO_UINT(index);
    pop(c);
    if ((n = member(c, o, "segments")) == NULL ||
        !get_positive(c, n, "the number of segments", G_MAXINT32, &v))
      goto fail;
    s->n_segments = (uint32_t)v;
    pop(c);
  } else {
    static const char *const bcast_only[] = { "root", "segments" };
    for (unsigned i = 0; i < G_N_ELEMENTS(bcast_only); i++)
      if (json_object_has_member(o, bcast_only[i])) {
        push_key(c, bcast_only[i]);
        fail(c, "only bcast schedules have \"%s\" (this is %s)", bcast_only[i],
             ns_collective_name(collective));
        goto fail;
      }
  }
  g_clear_pointer(&seen, g_hash_table_unref);

  JsonArray *phases;
  if ((n = member(c, o, "phases")) == NULL ||
      (phases = get_array(c, n, "an array of phases")) == NULL || !read_phases(c, s, phases))
    goto fail;
  pop(c);

  if ((n = json_object_get_member(o, "sync")) != NULL) {
    push_key(c, "sync");
    JsonArray *sync = get_array(c, n, "an array of sync edges");
    if (sync == NULL || !read_sync(c, s, sync))
      goto fail;
    pop(c);
  }
  if ((n = json_object_get_member(o, "sync_scheme")) != NULL) {
    push_key(c, "sync_scheme");
    NsSyncScheme scheme;
    if ((str = get_string(c, n, "a sync scheme name")) == NULL)
      goto fail;
    if (!ns_sync_scheme_parse(str, &scheme, NULL)) {
      fail(c, "unknown sync scheme '%s' (known: %s)", str, ns_sync_scheme_names());
      goto fail;
    }
    s->sync_scheme = g_strdup(str);
    pop(c);
  }
  /* Any other key is ignored (forward compatibility within version 1). */
  return s;

fail:
  if (seen != NULL)
    g_hash_table_unref(seen);
  ns_schedule_free(s);
  return NULL;
}

NsSchedule *ns_schedule_parse_json(const char *source, const char *text, gsize len,
                                   GError **error)
{
  g_return_val_if_fail(text != NULL || len == 0, NULL);
  if (source == NULL)
    source = "<schedule>";
  if (text == NULL)
    text = "";
  if (len > G_MAXSSIZE) {
    ns_set_error_at(error, NS_ERROR_INPUT, source, 0, "document too large");
    return NULL;
  }
  guint64 n_top_keys;
  if (!check_syntax(source, text, len, &n_top_keys, error))
    return NULL;

  JsonParser *parser = json_parser_new();
  GError *err = NULL;
  NsSchedule *s = NULL;
  if (!json_parser_load_from_data(parser, text, (gssize)len, &err)) {
    set_json_glib_error(source, err, error);
    g_error_free(err);
  } else {
    Ctx c = { .source = source, .error = error };
    JsonNode *root = json_parser_get_root(parser);
    if (root != NULL && JSON_NODE_HOLDS_OBJECT(root) &&
        json_object_get_size(json_node_get_object(root)) != n_top_keys)
      fail(&c, "duplicate key in the top-level object (written with different escapes)");
    else
      s = read_document(&c, root);
  }
  g_object_unref(parser);
  return s;
}

NsSchedule *ns_schedule_load_json(const char *path, GError **error)
{
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot open: %s", g_strerror(e));
    return NULL;
  }
  GString *buf = g_string_sized_new(1 << 16);
  char *chunk = g_malloc(1 << 16);
  gsize got;
  errno = 0;
  while ((got = fread(chunk, 1, 1 << 16, f)) > 0)
    g_string_append_len(buf, chunk, (gssize)got);
  int e = ferror(f) ? (errno != 0 ? errno : EIO) : 0;
  fclose(f);
  g_free(chunk);
  NsSchedule *s = NULL;
  if (e != 0)
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", g_strerror(e));
  else
    s = ns_schedule_parse_json(path, buf->str, buf->len, error);
  g_string_free(buf, TRUE);
  return s;
}

/* ===================================================================== */
/* Writing                                                                */
/* ===================================================================== */

typedef struct {
  FILE *out;
  gsize len;
  int err;           /* errno of the first failed write, 0 if none */
  char buf[1 << 16];
} Out;

static void out_flush(Out *o)
{
  if (o->len > 0 && o->err == 0) {
    errno = 0;
    if (fwrite(o->buf, 1, o->len, o->out) != o->len)
      o->err = errno != 0 ? errno : EIO;
  }
  o->len = 0;
}

static void out_bytes(Out *o, const char *s, gsize n)
{
  if (n > sizeof o->buf - o->len) {
    out_flush(o);
    if (n > sizeof o->buf) {
      if (o->err == 0 && fwrite(s, 1, n, o->out) != n)
        o->err = errno != 0 ? errno : EIO;
      return;
    }
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
}

static void out_str(Out *o, const char *s)
{
  out_bytes(o, s, strlen(s));
}

static void out_char(Out *o, char ch)
{
  if (o->len == sizeof o->buf)
    out_flush(o);
  o->buf[o->len++] = ch;
}

static void out_int(Out *o, gint64 v)
{
  char tmp[24];
  char *e = tmp + sizeof tmp, *q = e;
  guint64 u = v < 0 ? (guint64)0 - (guint64)v : (guint64)v;
  do {
    *--q = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0)
    *--q = '-';
  out_bytes(o, q, (gsize)(e - q));
}

/* A JSON string; s must be valid UTF-8. */
static void out_json_string(Out *o, const char *s)
{
  out_char(o, '"');
  for (const guchar *p = (const guchar *)s; *p != '\0'; p++) {
    switch (*p) {
    case '"':
      out_str(o, "\\\"");
      break;
    case '\\':
      out_str(o, "\\\\");
      break;
    case '\n':
      out_str(o, "\\n");
      break;
    case '\t':
      out_str(o, "\\t");
      break;
    case '\r':
      out_str(o, "\\r");
      break;
    default:
      if (*p < 0x20) {
        char esc[8];
        g_snprintf(esc, sizeof esc, "\\u%04x", *p);
        out_str(o, esc);
      } else {
        out_char(o, (char)*p);
      }
    }
  }
  out_char(o, '"');
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
  if (s->collective == NS_COLL_BCAST && (s->root < 0 || s->root >= s->n_machines)) {
    ns_set_error_at(error, NS_ERROR_INPUT, name, 0,
                    "cannot write schedule: bcast root %d out of range (%d machines)", s->root,
                    s->n_machines);
    return FALSE;
  }
  if (s->sync_scheme != NULL && !valid_name(s->sync_scheme)) {
    ns_set_error_at(error, NS_ERROR_INPUT, name, 0,
                    "cannot write schedule: sync scheme name is empty or not UTF-8");
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

/* Writes s onto out; `name` (a path, or NULL) is used in error messages. */
static gboolean write_schedule(const NsSchedule *s, FILE *out, const char *name, GError **error)
{
  if (!check_writable(s, name, error))
    return FALSE;
  Out *o = g_new(Out, 1);
  o->out = out;
  o->len = 0;
  o->err = 0;

  out_str(o, "{\n  \"format\": ");
  out_json_string(o, NS_SCHEDULE_FORMAT);
  out_str(o, ",\n  \"version\": ");
  out_int(o, NS_SCHEDULE_VERSION);
  out_str(o, ",\n  \"collective\": ");
  out_json_string(o, ns_collective_name(s->collective));
  out_str(o, ",\n  \"algorithm\": ");
  out_json_string(o, s->algorithm);
  out_str(o, ",\n  \"machines\": [");
  for (int i = 0; i < s->n_machines; i++) {
    if (i > 0)
      out_str(o, ", ");
    out_json_string(o, s->machines[i]);
  }
  out_str(o, "],\n  \"msize_bytes\": ");
  out_int(o, (gint64)s->msize);
  out_str(o, ",\n  \"execution\": ");
  out_json_string(o, ns_execution_name(s->execution));
  if (s->collective == NS_COLL_BCAST) {
    out_str(o, ",\n  \"root\": ");
    out_json_string(o, s->machines[s->root]);
    out_str(o, ",\n  \"segments\": ");
    out_int(o, s->n_segments);
  }

  out_str(o, ",\n  \"phases\": [");
  uint32_t n_phases = ns_schedule_n_phases(s);
  uint32_t n = (uint32_t)s->n_machines;
  for (uint32_t p = 0; p < n_phases; p++) {
    uint64_t first, count;
    ns_schedule_phase_range(s, p, &first, &count);
    out_str(o, p == 0 ? "\n    [" : ",\n    [");
    for (uint64_t t = first; t < first + count; t++) {
      const NsTransfer *tr = ns_schedule_transfer(s, t);
      const uint32_t *chunks = ns_schedule_chunks(s, tr);
      out_str(o, t == first ? "[" : ",[");
      out_int(o, tr->src);
      out_char(o, ',');
      out_int(o, tr->dst);
      for (uint32_t k = 0; k < tr->n_chunks; k++) {
        out_char(o, ',');
        if (s->collective == NS_COLL_ALLTOALL) {
          out_char(o, '[');
          out_int(o, chunks[k] / n);
          out_char(o, ',');
          out_int(o, chunks[k] % n);
          out_char(o, ']');
        } else {
          out_int(o, chunks[k]);
        }
      }
      out_char(o, ']');
    }
    out_char(o, ']');
  }
  out_str(o, n_phases > 0 ? "\n  ]" : "]");

  if (s->sync_scheme != NULL) {
    out_str(o, ",\n  \"sync_scheme\": ");
    out_json_string(o, s->sync_scheme);
  }
  if (s->sync->len > 0) {
    out_str(o, ",\n  \"sync\": [");
    for (guint i = 0; i < s->sync->len; i++) {
      const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
      out_str(o, i == 0 ? "\n    " : i % 16 == 0 ? ",\n    " : ",");
      out_char(o, '[');
      out_int(o, e->from);
      out_char(o, ',');
      out_int(o, e->to);
      out_char(o, ']');
    }
    out_str(o, "\n  ]");
  }
  out_str(o, "\n}\n");
  out_flush(o);
  int err = o->err;
  g_free(o);
  if (err == 0 && fflush(out) != 0)
    err = errno != 0 ? errno : EIO;
  if (err == 0 && ferror(out))
    err = EIO;
  if (err != 0) {
    ns_set_error_at(error, NS_ERROR_IO, name, 0, "cannot write schedule: %s", g_strerror(err));
    return FALSE;
  }
  return TRUE;
}

gboolean ns_schedule_write_json(const NsSchedule *s, FILE *out, GError **error)
{
  return write_schedule(s, out, NULL, error);
}

gboolean ns_schedule_save_json(const NsSchedule *s, const char *path, GError **error)
{
  if (!check_writable(s, path, error))
    return FALSE;
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot open for writing: %s", g_strerror(e));
    return FALSE;
  }
  struct stat st;
  gboolean regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  gboolean ok = write_schedule(s, f, path, error);
  if (fclose(f) != 0 && ok) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write schedule: %s", g_strerror(e));
    ok = FALSE;
  }
  if (!ok && regular)
    remove(path); /* no truncated schedule left behind (never a device or pipe) */
  return ok;
}
