/* netsched — escaping of invisible characters in messages that quote user
 * text (platforms/model/text_internal.h). The topology model checks names with it, so
 * it lives with the model; the readers (platforms/io/) use it too. */
#include "platforms/model/text_internal.h"

#include <stdarg.h>
#include <string.h>

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

/* Formats a warning and passes it on, escaped for ns_input_warnf. */
static void warn_vformat(NsWarnFunc warn, void *warn_data, gboolean escape, const char *fmt,
                         va_list ap) G_GNUC_PRINTF(4, 0);
static void warn_vformat(NsWarnFunc warn, void *warn_data, gboolean escape, const char *fmt,
                         va_list ap)
{
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  NsInputWarn w = { warn, warn_data };
  if (escape)
    ns_input_escaping_warn(msg, &w);
  else
    warn(msg, warn_data);
}

void ns_input_warnf(NsWarnFunc warn, void *warn_data, const char *fmt, ...)
{
  if (warn == NULL)
    return;
  va_list ap;
  va_start(ap, fmt);
  warn_vformat(warn, warn_data, TRUE, fmt, ap);
  va_end(ap);
}

void ns_warnf(NsWarnFunc warn, void *warn_data, const char *fmt, ...)
{
  if (warn == NULL)
    return;
  va_list ap;
  va_start(ap, fmt);
  warn_vformat(warn, warn_data, FALSE, fmt, ap);
  va_end(ap);
}

/**
 * \function ns_shell_word
 * \brief A string as one shell word: as is when nothing in it is special, else quoted.
 *
 * \param word The string (a path, a name the user gave).
 * \return A newly allocated word (g_free).
 * \errors none.
 * \complexity O(length).
 * \source POSIX sh, Quoting (2.2); docs/security.md (no user string into a command line unescaped).
 */
char *ns_shell_word(const char *word)
{
  gboolean plain = word[0] != '\0';
  for (const char *c = word; plain && *c != '\0'; c++)
    plain = g_ascii_isalnum(*c) || strchr("_./=:,+@%-", *c) != NULL;
  return plain ? g_strdup(word) : g_shell_quote(word);
}

int ns_name_index(const char *const *names, gsize n, const char *name)
{
  for (gsize i = 0; i < n; i++)
    if (names[i] != NULL && g_strcmp0(name, names[i]) == 0)
      return (int)i;
  return -1;
}
