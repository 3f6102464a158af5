/* netsched — what a run may do with an output directory that already holds
 * results (compare, design, scenario and sweep share this one policy).
 *
 * A result file is appended to row by row, so a second run into the same
 * directory either continues the first (resume) or starts it over
 * (overwrite). Neither is a safe default: continuing mixes in rows the user
 * may not expect, starting over silently destroys hours of simulation (a
 * `compare -o DIR` once overwrote packet-model results that way). So a run
 * into a directory holding results of the kind it writes is refused until
 * the user says which: --resume or --overwrite.
 *
 * This decides only; it creates, locks and deletes nothing (the engines
 * open their files, analysis/rowfile_internal.h). */
#ifndef NETSCHED_OUTDIR_H
#define NETSCHED_OUTDIR_H

#include <glib.h>

typedef enum {
  NS_OUTDIR_NEW,       /* default: refuse a directory holding results */
  NS_OUTDIR_RESUME,    /* keep the rows there (same configuration) and run the rest */
  NS_OUTDIR_OVERWRITE, /* start the result files over */
} NsOutdirMode;

/* The mode of the --resume and --overwrite flags: both at once is
 * NS_ERROR_INPUT naming both. */
gboolean ns_outdir_mode(gboolean resume, gboolean overwrite, NsOutdirMode *mode, GError **error);

/*
 * ns_outdir_policy — may a run in `mode` write into `dir`? `results` is a
 * NULL-terminated list of the result files the run appends to, relative to
 * `dir`, as shell-style patterns ('*', '?'), at most one '/' deep
 * ("compare.csv", "*" "/compare.csv" for the run directories of a study).
 * TRUE with *resume set (keep the rows there) when the run may go on: no
 * result there (a missing or empty `dir` included), or RESUME (TRUE), or
 * OVERWRITE (FALSE). In mode NEW, a directory holding a result file is
 * NS_ERROR_INPUT "DIR holds results of an earlier run (FILE): add --resume
 * to continue them or --overwrite to start afresh". O(entries of dir and
 * of its subdirectories matching the pattern).
 */
gboolean ns_outdir_policy(const char *dir, const char *const *results, NsOutdirMode mode,
                          gboolean *resume, GError **error);

#endif
