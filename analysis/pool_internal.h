/* netsched — forked worker processes that compute independent tasks and
 * hand their results back to the parent: the sweep's topologies
 * (analysis/sweep_internal.h) and the design study's runs (analysis/design_internal.h).
 *
 * Why processes and not threads: see pool.c. A worker computes one task
 * at a time; its result (any bytes) comes back framed through a pipe, and
 * the parent hands it to the sink in the order tasks finish. Workers die
 * with the parent (PR_SET_PDEATHSIG) and are reaped before ns_pool_run
 * returns, on every path. */
#ifndef NETSCHED_POOL_H
#define NETSCHED_POOL_H

#include <glib.h>

typedef struct {
  /* Computes `task` in a worker, appending its result to `out`. */
  void (*work)(guint task, GString *out, void *user);
  /* A name of `task` for error messages (newly allocated). */
  char *(*name)(guint task, void *user);
  void *user;
  guint n_tasks;       /* task numbers are below this */
  const char *worker;  /* "sweep worker", for error messages */
  const char *kept;    /* what a dead worker leaves, e.g. "the rows written so far are
                          kept; run the sweep again with --resume to continue" */
} NsPool;

/* Receives a finished task's result in the parent: FALSE (with an error)
 * stops the run. */
typedef gboolean (*NsPoolSink)(guint task, const char *bytes, gsize len, void *data,
                               GError **error);

/*
 * ns_pool_run — computes `tasks` with `jobs` worker processes (1, or one
 * task: in this process, no fork), fed task numbers through pipes two
 * ahead. NS_ERROR_IO when a worker cannot be started or dies (its exit
 * status and task are named); the sink's error.
 */
gboolean ns_pool_run(const NsPool *pool, const guint *tasks, guint n_tasks, int jobs,
                     NsPoolSink sink, void *sink_data, GError **error);

#endif
