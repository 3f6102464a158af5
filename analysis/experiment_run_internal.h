/* netsched — one experiment (experiment_internal.h) in steps, so that the rows
 * of several experiments can be computed in worker processes and written
 * in order by this one (experiment_runs.c):
 *
 *   open      checks, locks OUTDIR, reads what a resume keeps;
 *   compute   plans, verifies and measures one row into bytes, changing
 *             nothing (a forked worker calls it);
 *   start, commit (every row in order: computed bytes, or NULL for a row
 *             kept), finish (the plot and the "wrote" line): the table,
 *             compare.csv and the sink;
 *   close     frees and unlocks.
 * A row is a variant × size, numbered variant-major (variant · sizes + size). */
#ifndef NETSCHED_EXPERIMENT_RUN_H
#define NETSCHED_EXPERIMENT_RUN_H

#include "analysis/experiment_internal.h"

typedef struct NsCompareRun NsCompareRun;

/* Everything of ns_compare_experiment before the first row: the errors of
 * the collective's size, the pattern axis, the lock and the resume. */
NsCompareRun *ns_compare_run_open(const NsCompareSpec *spec, GError **error);
void ns_compare_run_close(NsCompareRun *r);
guint ns_compare_run_n_rows(const NsCompareRun *r);
/* A row the resumed compare.csv holds: not computed again. */
gboolean ns_compare_run_kept(const NsCompareRun *r, guint row);
/* "faraj:sender-all 64KiB" (newly allocated). */
char *ns_compare_run_row_name(const NsCompareRun *r, guint row);
/* Appends row's result to `out`: opaque bytes for ns_compare_run_commit. */
void ns_compare_run_compute(const NsCompareRun *r, guint row, GString *out);
/* The table's header. */
void ns_compare_run_start(NsCompareRun *r);
/* Writes row (NULL bytes: kept) to compare.csv, the table and the sink.
 * NS_ERROR_IO when compare.csv cannot be written. */
gboolean ns_compare_run_commit(NsCompareRun *r, guint row, const char *bytes, gsize len,
                               GError **error);
/* After the last row: the plot and the table's last line; the error of
 * `need_result` with no result. */
gboolean ns_compare_run_finish(NsCompareRun *r, GError **error);

#endif
