/* netsched — what the readers share about their input: a bounded file
 * reader (regular files, pipes, FIFOs and character devices alike), used by
 * the topology readers and by analysis/'s scenario, price and calibration
 * readers, and the escaping of invisible characters in the messages that
 * quote user text (topology readers). */
#ifndef NETSCHED_TOPOLOGY_INPUT_H
#define NETSCHED_TOPOLOGY_INPUT_H

#include "platforms/model/text_internal.h"
#include "platforms/model/topology.h"
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

/* The UTF-8 byte-order mark, U+FEFF. */
#define NS_INPUT_BOM "\xEF\xBB\xBF"

/* TRUE when text starts with a UTF-16 byte-order mark (FF FE or FE FF). */
static inline gboolean ns_input_utf16_bom(const char *text, gsize len)
{
  return len >= 2 && (((guchar)text[0] == 0xff && (guchar)text[1] == 0xfe) ||
                      ((guchar)text[0] == 0xfe && (guchar)text[1] == 0xff));
}

#endif
