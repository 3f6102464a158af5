/* netsched — what the readers share about their input: a bounded file
 * reader (regular files, pipes, FIFOs and character devices alike), used by
 * the topology readers and by analysis/'s scenario, price and calibration
 * readers, and the escaping of invisible characters in the messages that
 * quote user text (topology readers). */
#ifndef NETSCHED_TOPOLOGY_INPUT_H
#define NETSCHED_TOPOLOGY_INPUT_H

#include "platforms/topology.h"
#include <glib.h>

/* The limit for scenario, sweep, price and calibration files and tables:
 * hand-written text, never near it. */
#define NS_INPUT_CONFIG_MAX_BYTES ((gsize)16 * 1024 * 1024)

/* Reads the whole of `path`, at most `max_bytes` of it, into a newly
 * allocated, NUL-terminated buffer (*text, free with g_free; *len excludes
 * the NUL); `what` names the kind of file in messages ("topology"). See
 * the definition for errors and complexity. */
gboolean ns_input_read_file(const char *path, gsize max_bytes, const char *what, char **text,
                            gsize *len, GError **error);

/* "256 MiB", "1 KiB", "100-byte": a limit as it appears in messages
 * (newly allocated). */
char *ns_input_format_limit(gsize max_bytes);

/* TRUE for a character a reader cannot see in a message: controls, format
 * characters (U+200B, U+FEFF, ...), separators other than the ASCII
 * space, other default-ignorable and unassigned code points. */
gboolean ns_input_is_invisible(gunichar c);

/* `text` with every invisible character written as \uXXXX (\UXXXXXXXX
 * above U+FFFF) and every byte that is not UTF-8 as \xNN (newly
 * allocated; a plain copy when there is nothing to escape). */
char *ns_input_escape(const char *text);

/* Rewrites error->message with ns_input_escape() (no-op for NULL). */
void ns_input_escape_error(GError *error);

/* A warning callback that escapes the message before passing it on: give
 * ns_input_escaping_warn and a NsInputWarn to ns_topology_finalize(). */
typedef struct {
  NsWarnFunc warn;
  void *data;
} NsInputWarn;
void ns_input_escaping_warn(const char *message, void *data);

/* A reader's warning, formatted, escaped and passed to `warn` (nothing when
 * `warn` is NULL): ns_input_escaping_warn for a printf-style message. */
void ns_input_warnf(NsWarnFunc warn, void *warn_data, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* The UTF-8 byte-order mark, U+FEFF. */
#define NS_INPUT_BOM "\xEF\xBB\xBF"

/* TRUE when text starts with a UTF-16 byte-order mark (FF FE or FE FF). */
static inline gboolean ns_input_utf16_bom(const char *text, gsize len)
{
  return len >= 2 && (((guchar)text[0] == 0xff && (guchar)text[1] == 0xfe) ||
                      ((guchar)text[0] == 0xfe && (guchar)text[1] == 0xff));
}

#endif
