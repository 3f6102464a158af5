/* netsched — how messages show user text: every character a reader cannot
 * see is escaped. Used by the topology model (names) and every reader. */
#ifndef NETSCHED_MODEL_TEXT_H
#define NETSCHED_MODEL_TEXT_H

#include "platforms/model/topology.h"
#include <glib.h>

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

/* A library's own warning (no user text to escape beyond paths the user
 * typed), formatted and passed to `warn` (nothing when `warn` is NULL). */
void ns_warnf(NsWarnFunc warn, void *warn_data, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* `word` as one word of a POSIX shell command line: as is when it holds
 * only characters no shell treats specially ([A-Za-z0-9_./=:,+@%-], not
 * empty), else single-quoted (g_shell_quote). Newly allocated. For the
 * command lines netsched prints for the user to run. */
char *ns_shell_word(const char *word);

/* The index of `name` in `names` (n entries, NULL entries never match), or
 * -1: the parse half of every name <-> enum table (models, transports,
 * forwarding, buffering, ...). */
int ns_name_index(const char *const *names, gsize n, const char *name);

#endif
