/* netsched — the sweep's built-in executor: its topologies computed by the
 * shared worker processes (analysis/pool_internal.h). See sweep_internal.h. */
#include "analysis/pool_internal.h"
#include "analysis/sweep_engine_internal.h"

static void work(guint task, GString *out, void *user)
{
  ns_sweep_task_row(user, task, out);
}

static char *name(guint task, void *user)
{
  return ns_sweep_task_label(user, task);
}

gboolean ns_sweep_pool_run(const NsSweep *sw, const guint *tasks, guint n_tasks, int jobs,
                           NsSweepSink sink, void *sink_data, GError **error)
{
  NsPool pool = { .work = work, .name = name, .user = (void *)sw, .n_tasks = sw->n_tasks,
                  .worker = "sweep worker",
                  .kept = "the rows written so far are kept; run the sweep again with "
                          "--resume to continue" };
  return ns_pool_run(&pool, tasks, n_tasks, jobs, sink, sink_data, error);
}
