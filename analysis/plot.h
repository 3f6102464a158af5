/* netsched — gnuplot scripts that cannot run anything but gnuplot.
 *
 * netsched writes gnuplot scripts beside the data they draw (so a person
 * can edit and rerun them) and runs gnuplot on them. No user string — an
 * algorithm label, a topology or file name — is ever pasted into a script
 * raw: names are validated against the registry before a run starts, and
 * every string that reaches a script goes through ns_gnuplot_string(),
 * which makes a single-quoted gnuplot literal. gnuplot performs neither
 * backquote command substitution nor backslash processing inside single
 * quotes; a quote is doubled; and control characters (a line feed would
 * end the command and start another) are replaced by '?'. Text is drawn
 * `noenhanced`, so '^', '_' and '{' in a name stay literal.
 */
#ifndef NETSCHED_PLOT_H
#define NETSCHED_PLOT_H

#include <glib.h>

/* 'text' as a gnuplot single-quoted string literal, newly allocated.
 * O(length). */
char *ns_gnuplot_string(const char *text);

/* Runs `gnuplot SCRIPT` in directory `dir` (no shell; the child is reaped
 * before this returns). A missing gnuplot or a failing script is not an
 * error of the experiment: FALSE with a one-line reason in *why (newly
 * allocated), so the caller can warn and keep its data. */
gboolean ns_plot_run(const char *dir, const char *script, char **why);

#endif
