/* netsched — bounded reading of topology files and escaping of invisible
 * characters in messages (platforms/topology_input.h). */
#include "platforms/error.h"
#include "platforms/topology_input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KIB ((gsize)1024)
#define MIB (KIB * KIB)
/* Buffer size for streams of unknown length, and the most read() is asked
 * for at once. */
#define FIRST_CHUNK (64 * KIB)
#define MAX_CHUNK MIB

/**
 * \function ns_input_format_limit
 * \brief A byte limit as messages show it: "256 MiB", "1 KiB", "100-byte".
 *
 * \param max_bytes The limit.
 * \return A newly allocated string. Time complexity: O(1).
 */
char *ns_input_format_limit(gsize max_bytes)
{
  if (max_bytes >= MIB && max_bytes % MIB == 0)
    return g_strdup_printf("%" G_GSIZE_FORMAT " MiB", max_bytes / MIB);
  if (max_bytes >= KIB && max_bytes % KIB == 0)
    return g_strdup_printf("%" G_GSIZE_FORMAT " KiB", max_bytes / KIB);
  return g_strdup_printf("%" G_GSIZE_FORMAT "-byte", max_bytes);
}

static gboolean too_large(const char *path, gsize max_bytes, const char *what, GError **error)
{
  char *limit = ns_input_format_limit(max_bytes);
  ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "%s larger than the %s limit", what, limit);
  g_free(limit);
  return FALSE;
}

/**
 * \function ns_input_read_file
 * \brief Reads a whole input file into memory, never more than a limit.
 *
 * Regular files are checked against the limit by their size before any
 * byte is read. Pipes, FIFOs, sockets and character devices (/dev/stdin,
 * /dev/zero) have no size: they are read in chunks of at most 1 MiB into a
 * buffer that doubles up to `max_bytes` + 1 bytes, and reading stops as
 * soon as that last byte arrives. Allocation failures are reported, never
 * fatal (g_try_realloc).
 *
 * \param path The file; opening blocks like cat(1) on a FIFO without writer.
 * \param max_bytes The largest accepted size (NS_TOPOLOGY_MAX_BYTES for the
 *        topology readers, NS_INPUT_CONFIG_MAX_BYTES for scenario, price
 *        and calibration files; a parameter so that tests can use a small
 *        one).
 * \param what What the file is, for messages: "topology", "scenario", ...
 * \param text On success, a newly allocated NUL-terminated copy of the
 *        contents (free with g_free); NULL on error.
 * \param len On success, the length of the contents without the NUL.
 * \param error NS_ERROR_INPUT "path: WHAT larger than the 256 MiB limit";
 *        NS_ERROR_IO "path: cannot read: <reason>" (missing file, read
 *        error, out of memory) or "path: is a directory, not a WHAT file".
 * \return TRUE on success.
 *
 * Time complexity: O(min(size, max_bytes)); memory at most max_bytes + 2
 * bytes.
 */
gboolean ns_input_read_file(const char *path, gsize max_bytes, const char *what, char **text,
                            gsize *len, GError **error)
{
  g_return_val_if_fail(path != NULL && text != NULL && len != NULL, FALSE);
  *text = NULL;
  *len = 0;
  max_bytes = MIN(max_bytes, G_MAXSIZE - 2);
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", g_strerror(e));
    return FALSE;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", g_strerror(e));
    return FALSE;
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "is a directory, not a %s file", what);
    return FALSE;
  }
  gsize cap = FIRST_CHUNK;
  if (S_ISREG(st.st_mode)) {
    if (st.st_size < 0 || (guint64)st.st_size > max_bytes) {
      close(fd);
      return too_large(path, max_bytes, what, error);
    }
    /* One more byte than the size, to see the end of file at once. */
    cap = (gsize)st.st_size + 1;
  }
  cap = MIN(cap, max_bytes + 1);
  char *buf = g_try_malloc(cap + 1);
  gsize n = 0;
  gboolean ok = buf != NULL;
  const char *why = ok ? NULL : "out of memory";
  while (ok) {
    if (n == cap) {
      if (cap > max_bytes) {
        ok = too_large(path, max_bytes, what, error);
        break;
      }
      gsize want = cap <= (max_bytes + 1) / 2 ? 2 * cap : max_bytes + 1;
      char *bigger = g_try_realloc(buf, want + 1);
      if (bigger == NULL) {
        ok = FALSE;
        why = "out of memory";
        break;
      }
      buf = bigger;
      cap = want;
    }
    ssize_t got = read(fd, buf + n, MIN(cap - n, MAX_CHUNK));
    if (got < 0) {
      if (errno == EINTR)
        continue;
      ok = FALSE;
      why = g_strerror(errno);
      break;
    }
    if (got == 0)
      break;
    n += (gsize)got;
  }
  close(fd);
  if (!ok) {
    if (why != NULL)
      ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", why);
    g_free(buf);
    return FALSE;
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return TRUE;
}

/**
 * \function ns_input_is_invisible
 * \brief Whether a character cannot be seen when a message is printed.
 *
 * Controls (C0, DEL, C1), format characters (U+200B, U+FEFF, bidi marks,
 * ...), line and paragraph separators, spaces other than U+0020,
 * unassigned code points and the other default-ignorable code points.
 *
 * \param c A Unicode code point.
 * \return TRUE if `c` must be escaped in messages. Time complexity: O(1).
 */
gboolean ns_input_is_invisible(gunichar c)
{
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
    return TRUE;
  if (c == ' ')
    return FALSE;
  switch (g_unichar_type(c)) {
  case G_UNICODE_CONTROL:
  case G_UNICODE_FORMAT:
  case G_UNICODE_UNASSIGNED:
  case G_UNICODE_SURROGATE:
  case G_UNICODE_LINE_SEPARATOR:
  case G_UNICODE_PARAGRAPH_SEPARATOR:
  case G_UNICODE_SPACE_SEPARATOR:
    return TRUE;
  default:
    break;
  }
  /* Default-ignorable code points that are not format characters:
   * combining grapheme joiner, Hangul fillers, Khmer inherent vowels,
   * Mongolian variation selectors, braille blank, variation selectors. */
  return c == 0x034f || c == 0x115f || c == 0x1160 || c == 0x17b4 || c == 0x17b5 ||
         (c >= 0x180b && c <= 0x180f) || c == 0x2800 || c == 0x3164 ||
         (c >= 0xfe00 && c <= 0xfe0f) || c == 0xffa0 || (c >= 0xe0100 && c <= 0xe01ef);
}

/**
 * \function ns_input_escape
 * \brief Makes user text safe to quote in a message.
 *
 * Every invisible character (ns_input_is_invisible()) becomes \uXXXX, or
 * \UXXXXXXXX above U+FFFF, and every byte that is not part of valid UTF-8
 * becomes \xNN; everything else, backslashes included, is copied.
 *
 * \param text NUL-terminated text; NULL is taken as "".
 * \return A newly allocated string (a plain copy when nothing is escaped).
 *
 * Time complexity: O(length of text).
 */
char *ns_input_escape(const char *text)
{
  if (text == NULL)
    return g_strdup("");
  const char *end = text + strlen(text);
  GString *out = NULL;
  const char *copied = text; /* start of what is not yet in `out` */
  for (const char *p = text; p < end;) {
    gunichar c = g_utf8_get_char_validated(p, end - p);
    gsize step = c == (gunichar)-1 || c == (gunichar)-2 ? 1 : (gsize)g_utf8_skip[(guchar)*p];
    gboolean bad = step == 1 && (guchar)*p >= 0x80;
    if (bad || ns_input_is_invisible(c)) {
      if (out == NULL)
        out = g_string_sized_new((gsize)(end - text) + 16);
      g_string_append_len(out, copied, p - copied);
      if (bad)
        g_string_append_printf(out, "\\x%02x", (guchar)*p);
      else if (c <= 0xffff)
        g_string_append_printf(out, "\\u%04x", c);
      else
        g_string_append_printf(out, "\\U%08x", c);
      copied = p + step;
    }
    p += step;
  }
  if (out == NULL)
    return g_strdup(text);
  g_string_append_len(out, copied, end - copied);
  return g_string_free(out, FALSE);
}

/**
 * \function ns_input_escape_error
 * \brief Applies ns_input_escape() to an error message in place.
 *
 * \param error The error to rewrite; NULL is ignored.
 *
 * Time complexity: O(length of the message).
 */
void ns_input_escape_error(GError *error)
{
  if (error == NULL || error->message == NULL)
    return;
  char *escaped = ns_input_escape(error->message);
  g_free(error->message);
  error->message = escaped;
}

/**
 * \function ns_input_escaping_warn
 * \brief A NsWarnFunc that escapes a warning, then passes it on.
 *
 * \param message The warning ("source:line: text").
 * \param data A NsInputWarn naming the callback to call (none if NULL).
 *
 * Time complexity: O(length of the message) plus the callback's.
 */
void ns_input_escaping_warn(const char *message, void *data)
{
  const NsInputWarn *w = data;
  if (w == NULL || w->warn == NULL)
    return;
  char *escaped = ns_input_escape(message);
  w->warn(escaped, w->data);
  g_free(escaped);
}

void ns_input_warnf(NsWarnFunc warn, void *warn_data, const char *fmt, ...)
{
  if (warn == NULL)
    return;
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  NsInputWarn w = { warn, warn_data };
  ns_input_escaping_warn(msg, &w);
}
