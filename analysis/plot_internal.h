/* netsched — gnuplot scripts that cannot run anything but gnuplot, and
 * plots written whole or not at all.
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
 *
 * gnuplot opens its outputs with fopen(…, "w"), which follows a link
 * planted at the output's name, and it exits 0 when a full disk truncated
 * them. So netsched never lets gnuplot write into the output directory:
 * `set output` (ns_gnuplot_output) names the file under a prefix that
 * ns_plot_run sets to a new private directory inside the output directory;
 * when gnuplot has exited 0 and every output is complete (an SVG ends with
 * </svg>, a PNG with its IEND chunk), each is renamed into place, which
 * replaces a link instead of writing through it. A person rerunning the
 * script writes the outputs directly.
 */
#ifndef NETSCHED_PLOT_H
#define NETSCHED_PLOT_H

#include "platforms/model/topology.h" /* NsWarnFunc */
#include <glib.h>

/* 'text' as a gnuplot single-quoted string literal, newly allocated.
 * O(length). */
char *ns_gnuplot_string(const char *text);

/* Appends the `set output` command of output file `name` (a plain file
 * name in the script's directory) to a script. */
void ns_gnuplot_output(GString *script, const char *name);

/*
 * ns_gnuplot_size_xtics — appends "set xtics (...)" for a log-scale x axis
 * of message sizes (n sizes, any order; written increasing): a tic at
 * every size, a label ("488B", "1KiB") only where it stands at least 1/8
 * of the axis's span (in log2 of the size) from the last labelled one —
 * about 8 labels fit across a plot — so that neighbours such as 488 B
 * and 512 B, or every octave of 4 B … 128 KiB, do not print over each
 * other; an unlabelled size keeps a minor tic. The smallest size is
 * always labelled. O(n log n).
 */
void ns_gnuplot_size_xtics(GString *script, const uint64_t *sizes, guint n);

/*
 * ns_plot_run — runs `gnuplot SCRIPT` in directory `dir` (no shell; the
 * child is reaped before this returns; SIGINT, SIGTERM and SIGHUP are held
 * until the private directory is removed) and moves its outputs (the
 * NULL-terminated file names the script sets with ns_gnuplot_output) into
 * `dir`.
 * TRUE: every output was written. A missing gnuplot is not an error of the
 * caller's run: FALSE with a one-line reason in *why (newly allocated) and
 * no error, so the caller can warn and keep its data. gnuplot failing, or
 * an output missing or incomplete (a full disk): FALSE with NS_ERROR_IO
 * "DIR/NAME: ...", and no output replaced.
 * The caller holds `dir`'s lock (analysis/output_dir_internal.h): private
 * directories that a run killed by SIGKILL during a plot left in `dir` are
 * removed first.
 */
gboolean ns_plot_run(const char *dir, const char *script, const char *const *outputs,
                     char **why, GError **error);

/* Tells `warn` (nothing when NULL) that no plot was drawn because of `why`
 * (ns_plot_run's reason): "no plot[ WHAT] (WHY); the data and script are
 * in DIR". `what` may be NULL. */
void ns_plot_warn_none(NsWarnFunc warn, void *warn_data, const char *what, const char *why,
                       const char *dir);

#endif
