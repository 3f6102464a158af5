/* netsched — Slurm-style hostlist expressions (see hostlist_internal.h).
 *
 * Grammar (no white space anywhere):
 *   expr   := item (',' item)*          commas outside brackets separate items
 *   item   := (text | '[' ranges ']')+  text: any characters but [ ] , and
 *                                       control/space characters
 *   ranges := range (',' range)*
 *   range  := NUM | NUM '-' NUM         NUM: 1 to 18 decimal digits
 * An item with several bracket groups expands to the cartesian product, the
 * first group varying slowest. The expansion is counted before anything is
 * allocated, so hostile input costs O(|expr|) until it is refused.
 */
#include "platforms/io/hostlist_internal.h"

#include <string.h>

/* Upper bound on the bytes of all expanded names together. */
#define HOSTLIST_MAX_BYTES (64u * 1024u * 1024u)
#define HOSTLIST_MAX_DIGITS 18

typedef struct {
  guint64 lo, hi;
  int width;                    /* digits of the lower bound, for padding */
} Range;

/* One piece of an item: literal text (ranges == NULL) or a bracket group. */
typedef struct {
  const char *text;
  gsize len;
  GArray *ranges;               /* of Range */
  guint64 count;                /* numbers in the group */
  int max_digits;               /* widest number the group prints */
  guint cur_range;              /* expansion cursor: current range ... */
  guint64 cur_off;              /* ... and offset in it */
} Piece;

static void piece_clear(gpointer p)
{
  Piece *piece = p;
  if (piece->ranges != NULL)
    g_array_free(piece->ranges, TRUE);
}

/* Sets *why to "HEAD in 'EXPR'" and frees head. */
static void fail(char **why, const char *expr, char *head)
{
  if (why != NULL && *why == NULL)
    *why = g_strdup_printf("%s in '%s'", head, expr);
  g_free(head);
}

static int digits_of(guint64 v)
{
  int d = 1;
  while (v >= 10) {
    v /= 10;
    d++;
  }
  return d;
}

/* Parses a number of 1..18 digits at s[0..len). */
static gboolean parse_num(const char *s, gsize len, guint64 *out)
{
  if (len == 0 || len > HOSTLIST_MAX_DIGITS)
    return FALSE;
  guint64 v = 0;
  for (gsize i = 0; i < len; i++) {
    if (!g_ascii_isdigit(s[i]))
      return FALSE;
    v = v * 10 + (guint64)(s[i] - '0');
  }
  *out = v;
  return TRUE;
}

/* Parses the inside of a bracket group, s[0..len). Sets *err to a message
 * newly allocated description on failure. */
static gboolean parse_group(const char *s, gsize len, Piece *piece, char **err)
{
  piece->ranges = g_array_new(FALSE, FALSE, sizeof(Range));
  piece->count = 0;
  piece->max_digits = 0;
  if (len == 0) {
    *err = g_strdup("empty brackets '[]'");
    return FALSE;
  }
  gsize start = 0;
  while (start <= len) {
    gsize end = start;
    while (end < len && s[end] != ',')
      end++;
    const char *r = s + start;
    gsize rlen = end - start;
    if (rlen == 0) {
      *err = g_strdup("empty range in brackets");
      return FALSE;
    }
    const char *dash = memchr(r, '-', rlen);
    Range range;
    if (dash == NULL) {
      if (!parse_num(r, rlen, &range.lo)) {
        *err = g_strdup_printf("bad number '%.*s' (expected 1 to 18 digits)", (int)rlen, r);
        return FALSE;
      }
      range.hi = range.lo;
      range.width = (int)rlen;
    } else {
      gsize llen = (gsize)(dash - r), hlen = rlen - llen - 1;
      if (!parse_num(r, llen, &range.lo) || !parse_num(dash + 1, hlen, &range.hi)) {
        *err = g_strdup_printf("bad range '%.*s' (expected N or N-M, 1 to 18 digits each)",
                               (int)rlen, r);
        return FALSE;
      }
      if (range.hi < range.lo) {
        *err = g_strdup_printf("descending range '%.*s'", (int)rlen, r);
        return FALSE;
      }
      range.width = (int)llen;
    }
    guint64 n = range.hi - range.lo + 1;
    if (n > NS_HOSTLIST_MAX || piece->count + n > NS_HOSTLIST_MAX) {
      *err = g_strdup_printf("range '%.*s' expands to more than %d names", (int)rlen, r,
                             NS_HOSTLIST_MAX);
      return FALSE;
    }
    piece->count += n;
    int w = MAX(range.width, digits_of(range.hi));
    piece->max_digits = MAX(piece->max_digits, w);
    g_array_append_val(piece->ranges, range);
    start = end + 1;
  }
  return TRUE;
}

/* Appends the current number of a group (its cursor) to `out`. */
static void append_number(GString *out, const Piece *piece)
{
  const Range *r = &g_array_index(piece->ranges, Range, piece->cur_range);
  /* Digits by hand: printf would dominate the expansion of big lists. */
  char buf[24];
  int len = 0;
  guint64 v = r->lo + piece->cur_off;
  do {
    buf[sizeof buf - 1 - len++] = (char)('0' + v % 10);
    v /= 10;
  } while (v > 0);
  for (int pad = r->width - len; pad > 0; pad--)
    g_string_append_c(out, '0');
  g_string_append_len(out, buf + sizeof buf - len, len);
}

/* Advances the cursors of an item like an odometer, the last group
 * fastest. O(1) amortized. */
static void advance(GArray *pieces)
{
  for (guint j = pieces->len; j-- > 0;) {
    Piece *p = &g_array_index(pieces, Piece, j);
    if (p->ranges == NULL)
      continue;
    const Range *r = &g_array_index(p->ranges, Range, p->cur_range);
    if (r->lo + p->cur_off < r->hi) {
      p->cur_off++;
      return;
    }
    p->cur_off = 0;
    if (p->cur_range + 1 < p->ranges->len) {
      p->cur_range++;
      return;
    }
    p->cur_range = 0; /* carry into the previous group */
  }
}

char **ns_hostlist_expand(const char *expr, char **why)
{
  if (why != NULL)
    *why = NULL;
  if (expr == NULL || *expr == '\0') {
    if (why != NULL)
      *why = g_strdup("empty host list");
    return NULL;
  }
  if (!g_utf8_validate(expr, -1, NULL)) {
    if (why != NULL)
      *why = g_strdup("host list is not valid UTF-8");
    return NULL;
  }

  /* Pass 1: split into items and pieces, check syntax, count. */
  GPtrArray *items = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  guint64 total = 0, total_bytes = 0;
  const char *p = expr;
  char **result = NULL;
  for (;;) {
    GArray *pieces = g_array_new(FALSE, TRUE, sizeof(Piece));
    g_array_set_clear_func(pieces, piece_clear);
    g_ptr_array_add(items, pieces);
    guint64 count = 1, text_bytes = 0, digit_bytes = 0;
    const char *item_start = p;
    while (*p != '\0' && *p != ',') {
      Piece piece = {0};
      if (*p == '[') {
        const char *open = p++;
        while (*p != '\0' && *p != ']' && *p != '[')
          p++;
        if (*p != ']') {
          fail(why, expr, g_strdup(*p == '[' ? "nested '['" : "unbalanced '['"));
          goto out;
        }
        char *err = NULL;
        if (!parse_group(open + 1, (gsize)(p - open - 1), &piece, &err)) {
          fail(why, expr, err);
          piece_clear(&piece);
          goto out;
        }
        p++; /* ']' */
        count *= piece.count; /* both <= NS_HOSTLIST_MAX: no overflow */
        if (count > NS_HOSTLIST_MAX) {
          fail(why, expr, g_strdup_printf("'%.*s' expands to more than %d names",
                                          (int)(p - item_start), item_start, NS_HOSTLIST_MAX));
          piece_clear(&piece);
          goto out;
        }
        digit_bytes += (guint64)piece.max_digits;
      } else if (*p == ']') {
        fail(why, expr, g_strdup("unbalanced ']'"));
        goto out;
      } else {
        piece.text = p;
        while (*p != '\0' && *p != ',' && *p != '[' && *p != ']') {
          if ((guchar)*p <= ' ' || *p == 0x7f) {
            fail(why, expr, g_strdup("white space or control character"));
            goto out;
          }
          p++;
        }
        piece.len = (gsize)(p - piece.text);
        text_bytes += piece.len;
      }
      g_array_append_val(pieces, piece);
    }
    if (pieces->len == 0) {
      fail(why, expr, g_strdup("empty name"));
      goto out;
    }
    total += count;
    total_bytes += count * (text_bytes + digit_bytes + 1 + sizeof(char *));
    if (total > NS_HOSTLIST_MAX) {
      fail(why, expr, g_strdup_printf("host list expands to more than %d names",
                                      NS_HOSTLIST_MAX));
      goto out;
    }
    if (total_bytes > HOSTLIST_MAX_BYTES) {
      fail(why, expr, g_strdup("host list expands to more than 64 MiB of names"));
      goto out;
    }
    if (*p == '\0')
      break;
    p++; /* ',' */
  }

  /* Pass 2: expand. */
  result = g_new0(char *, total + 1);
  gsize k = 0;
  GString *name = g_string_new(NULL);
  for (guint i = 0; i < items->len; i++) {
    GArray *pieces = g_ptr_array_index(items, i);
    guint64 count = 1;
    for (guint j = 0; j < pieces->len; j++)
      if (g_array_index(pieces, Piece, j).ranges != NULL)
        count *= g_array_index(pieces, Piece, j).count;
    for (guint64 c = 0; c < count; c++) {
      g_string_truncate(name, 0);
      for (guint j = 0; j < pieces->len; j++) {
        const Piece *piece = &g_array_index(pieces, Piece, j);
        if (piece->ranges == NULL)
          g_string_append_len(name, piece->text, (gssize)piece->len);
        else
          append_number(name, piece);
      }
      result[k++] = g_strndup(name->str, name->len);
      advance(pieces);
    }
  }
  g_string_free(name, TRUE);

out:
  g_ptr_array_free(items, TRUE);
  return result;
}
