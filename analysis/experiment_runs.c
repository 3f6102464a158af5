/* netsched — experiments whose rows are computed over worker processes
 * (analysis/pool_internal.h) and written by this process in the order of
 * one at a time (see experiment_internal.h, ns_compare_experiments).
 *
 * Why in order: the table, compare.csv and a study's files then do not
 * depend on -j and compare byte for byte with one row at a time. A row
 * that finishes ahead of an earlier one waits in memory until the earlier
 * one is written, so an interrupted run leaves a prefix of the rows, as one
 * at a time does; --resume computes the rest. */
#include "analysis/experiment_run_internal.h"
#include "analysis/pool_internal.h"

typedef struct {
  NsCompareRun **runs;
  const NsCompareSpec *const *specs;
  guint n_runs;
  NsCompareBanner banner;
  void *banner_data;
  NsProgress *progress;
  gboolean in_workers;  /* the rows are computed by forked workers */
  /* tasks: the rows to compute, in order */
  guint *task_run, *task_row;
  guint n_tasks;
  GBytes **done;        /* per task: its result, until written */
  /* the next row to write */
  guint at_run, at_row, at_task;
  gboolean started;     /* run at_run's banner and header are out */
} Runs;

static void work(guint task, GString *out, void *user)
{
  const Runs *rs = user;
  const NsCompareRun *r = rs->runs[rs->task_run[task]];
  guint row = rs->task_row[task];
  if (rs->in_workers) {
    ns_progress_silence(rs->progress); /* this process's copy: the parent reports */
    ns_compare_run_compute(r, row, out);
    return;
  }
  if (ns_progress_on(rs->progress)) {
    g_autofree char *name = ns_compare_run_row_name(r, row);
    ns_progress_item(rs->progress, 1, "%s", name);
  }
  ns_compare_run_compute(r, row, out);
  ns_progress_item_done(rs->progress);
}

static char *task_name(guint task, void *user)
{
  const Runs *rs = user;
  const NsCompareRun *r = rs->runs[rs->task_run[task]];
  g_autofree char *row = ns_compare_run_row_name(r, rs->task_row[task]);
  const NsCompareSpec *spec = rs->specs[rs->task_run[task]];
  return g_strdup_printf("%s (%s on %s, %s model)", row, ns_collective_name(spec->collective),
                         spec->name != NULL ? spec->name : ns_topology_source(spec->topo),
                         spec->model);
}

/* Writes every row whose turn has come: kept ones, computed ones, and
 * each run's banner, header and end around its rows. */
static gboolean write_ready(Runs *rs, GError **error)
{
  while (rs->at_run < rs->n_runs) {
    NsCompareRun *r = rs->runs[rs->at_run];
    if (!rs->started) {
      if (rs->banner != NULL)
        rs->banner(rs->at_run, rs->banner_data);
      ns_compare_run_start(r);
      rs->started = TRUE;
    }
    if (rs->at_row == ns_compare_run_n_rows(r)) {
      if (!ns_compare_run_finish(r, error))
        return FALSE;
      ns_compare_run_close(r);
      rs->runs[rs->at_run++] = NULL;
      rs->at_row = 0;
      rs->started = FALSE;
      continue;
    }
    gboolean ok;
    if (ns_compare_run_kept(r, rs->at_row)) {
      ns_progress_skip(rs->progress, 1);
      ok = ns_compare_run_commit(r, rs->at_row, NULL, 0, error);
    } else if (rs->at_task < rs->n_tasks && rs->done[rs->at_task] != NULL) {
      gsize len;
      const char *bytes = g_bytes_get_data(rs->done[rs->at_task], &len);
      ok = ns_compare_run_commit(r, rs->at_row, bytes, len, error);
      g_clear_pointer(&rs->done[rs->at_task], g_bytes_unref);
      rs->at_task++;
    } else {
      return TRUE; /* waits for a worker */
    }
    if (!ok)
      return FALSE;
    rs->at_row++;
  }
  return TRUE;
}

static gboolean task_done(guint task, const char *bytes, gsize len, void *data, GError **error)
{
  Runs *rs = data;
  if (rs->in_workers)
    ns_progress_add(rs->progress, 1);
  rs->done[task] = g_bytes_new(bytes, len);
  return write_ready(rs, error);
}

gboolean ns_compare_experiments(const NsCompareSpec *const *specs, guint n, int jobs,
                                NsCompareBanner banner, void *banner_data, GError **error)
{
  Runs rs = { .runs = g_new0(NsCompareRun *, n), .specs = specs, .n_runs = n,
              .banner = banner, .banner_data = banner_data };
  gboolean ok = FALSE;
  /* Every run opened (and every resume read) before the first row. */
  guint total = 0;
  for (guint i = 0; i < n; i++) {
    if ((rs.runs[i] = ns_compare_run_open(specs[i], error)) == NULL)
      goto out;
    total += ns_compare_run_n_rows(rs.runs[i]);
    if (specs[i]->progress != NULL)
      rs.progress = specs[i]->progress;
  }
  rs.task_run = g_new(guint, total);
  rs.task_row = g_new(guint, total);
  for (guint i = 0; i < n; i++)
    for (guint row = 0; row < ns_compare_run_n_rows(rs.runs[i]); row++)
      if (!ns_compare_run_kept(rs.runs[i], row)) {
        rs.task_run[rs.n_tasks] = i;
        rs.task_row[rs.n_tasks++] = row;
      }
  rs.done = g_new0(GBytes *, rs.n_tasks + 1);
  rs.in_workers = jobs > 1 && rs.n_tasks > 1; /* as ns_pool_run decides */
  guint *tasks = g_new(guint, rs.n_tasks + 1);
  for (guint t = 0; t < rs.n_tasks; t++)
    tasks[t] = t;
  NsPool pool = { .work = work, .name = task_name, .user = &rs, .n_tasks = rs.n_tasks,
                  .worker = "worker",
                  .kept = "the rows written so far are kept; run again with --resume to "
                          "continue" };
  ok = write_ready(&rs, error) &&
       ns_pool_run(&pool, tasks, rs.n_tasks, jobs, task_done, &rs, error) &&
       write_ready(&rs, error);
  g_free(tasks);
out:
  for (guint i = 0; i < n; i++)
    ns_compare_run_close(rs.runs[i]);
  for (guint t = 0; rs.done != NULL && t < rs.n_tasks; t++)
    if (rs.done[t] != NULL)
      g_bytes_unref(rs.done[t]);
  g_free(rs.done);
  g_free(rs.task_run);
  g_free(rs.task_row);
  g_free(rs.runs);
  return ok;
}

gboolean ns_compare_experiment(const NsCompareSpec *spec, GError **error)
{
  return ns_compare_experiments(&spec, 1, spec->jobs, NULL, NULL, error);
}
