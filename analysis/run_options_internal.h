/* netsched — the options every long run shares, one spelling each, for
 * every program that runs one (netsched's simulate, compare, design,
 * scenario and sweep; netsched-mpi's sweep): --progress and
 * --progress-interval (the reporter of analysis/progress_internal.h), --resume and
 * --overwrite (the output-directory policy of analysis/outdir_internal.h). */
#ifndef NETSCHED_RUN_OPTIONS_H
#define NETSCHED_RUN_OPTIONS_H

#include "analysis/progress_internal.h"
#include <glib.h>
#include <stdio.h>

/* --progress auto|bar|lines|none and --progress-interval S. */
typedef struct {
  char *mode;
  double interval;
} NsProgressArgs;
void ns_progress_args_add(GOptionContext *ctx, NsProgressArgs *a);
void ns_progress_args_clear(NsProgressArgs *a);
/* The reporter of the options on `stream` (`what` starts its lines, `unit`
 * names what it counts, e.g. "rows"). FALSE with NS_ERROR_INPUT for an
 * unknown mode or a negative interval. */
gboolean ns_progress_args_reporter(const NsProgressArgs *a, FILE *stream, const char *what,
                                   const char *unit, NsProgress **reporter, GError **error);

/* --resume and --overwrite (and sweep's deprecated --restart): what a run
 * does with an output directory holding results (analysis/outdir_internal.h). */
typedef struct {
  gboolean resume, overwrite, restart;
} NsOutdirArgs;
/* `restart`: also the hidden, deprecated --restart (= --overwrite). */
void ns_outdir_args_add(GOptionContext *ctx, NsOutdirArgs *a, gboolean restart);
/* Applies the policy to `dir` for the result files `results`
 * (ns_outdir_policy); *resume tells whether the rows there are kept. */
gboolean ns_outdir_args_apply(const NsOutdirArgs *a, const char *dir, const char *const *results,
                              gboolean *resume, GError **error);

#endif
