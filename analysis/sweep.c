/* netsched — running, resuming and merging sweeps. See sweep_internal.h. */
#include "analysis/output_dir_internal.h"
#include "analysis/rowfile_internal.h"
#include "analysis/sweep_engine_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

/* ---- headers and rows of a rows file ----------------------------------------------- */

typedef struct {
  const NsSweep *sw;
  const char *path;
  int shard, n_shards;     /* expected; n_shards 0: any (merge), filled from the header */
  char **rows;             /* rows[task] = the line (merge, finish); NULL: keys only */
  int *lines;              /* lines[task] = its line number, 0 when absent */
  NsWarnFunc warn;         /* told of a last row cut short */
  void *warn_data;
} Reader;

static const char restart_hint[] = "choose another output directory, or --restart to start over";

/* The JSON object of one journal line, owned by `p`; NULL when the line is
 * not a JSON object. */
static JsonObject *object_of_line(JsonParser *p, const char *line)
{
  if (!json_parser_load_from_data(p, line, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p)))
    return NULL;
  return json_node_get_object(json_parser_get_root(p));
}

static gboolean check_header(const char *line, void *user, GError **error)
{
  Reader *r = user;
  g_autoptr(JsonParser) p = json_parser_new();
  JsonObject *o = object_of_line(p, line);
  if (o == NULL || g_strcmp0(json_object_get_string_member_with_default(o, "format", ""),
                             "netsched-sweep-rows") != 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, 1,
                    "not the rows of a netsched sweep (no netsched-sweep-rows header): %s",
                    restart_hint);
    return FALSE;
  }
  gint64 version = json_object_get_int_member_with_default(o, "version", 0);
  if (version != NS_SWEEP_ROW_VERSION) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, 1,
                    "rows of sweep format version %" G_GINT64_FORMAT " (this netsched writes "
                    "version %d): %s",
                    version, NS_SWEEP_ROW_VERSION, restart_hint);
    return FALSE;
  }
  const char *digest = json_object_get_string_member_with_default(o, "sweep", "");
  if (strcmp(digest, r->sw->digest) != 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, 1,
                    "rows of another sweep (grid digest %s in the file, %s in this run: the "
                    "generators, parameters, seeds, trees, metrics or measurements differ); "
                    "resuming would mix them: %s",
                    digest, r->sw->digest, restart_hint);
    return FALSE;
  }
  const char *shard = json_object_get_string_member_with_default(o, "shard", "");
  int i = -1, n = 0;
  char tail = 0;
  if (sscanf(shard, "%d/%d%c", &i, &n, &tail) != 2 || n < 1 || i < 0 || i >= n) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, 1, "malformed shard '%s' in the header",
                    shard);
    return FALSE;
  }
  if (r->n_shards > 0 && (i != r->shard || n != r->n_shards)) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, 1,
                    "rows of shard %d/%d, this run is shard %d/%d: choose another output "
                    "directory",
                    i, n, r->shard, r->n_shards);
    return FALSE;
  }
  r->shard = i;
  r->n_shards = n;
  return TRUE;
}

static gboolean read_row(const char *line, int lineno, char **key, void *user, GError **error)
{
  Reader *r = user;
  g_autoptr(JsonParser) p = json_parser_new();
  JsonObject *o = object_of_line(p, line);
  const char *k = o != NULL ? json_object_get_string_member_with_default(o, "key", NULL) : NULL;
  gint64 task = o != NULL ? json_object_get_int_member_with_default(o, "task", -1) : -1;
  if (k == NULL || task < 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, lineno,
                    "malformed row (not a JSON object with a key and a task): remove the row, "
                    "or --restart");
    return FALSE;
  }
  g_autofree char *expected =
      (guint64)task < r->sw->n_tasks ? ns_sweep_task_key(r->sw, (guint)task) : NULL;
  if (expected == NULL || strcmp(k, expected) != 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, lineno,
                    "row of another configuration (key %s is not the key of task %" G_GINT64_FORMAT
                    " of this sweep): %s",
                    k, task, restart_hint);
    return FALSE;
  }
  if ((int)(task % r->n_shards) != r->shard) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, lineno,
                    "the row of task %" G_GINT64_FORMAT " belongs to shard %d/%d, not to this "
                    "file's shard %d/%d",
                    task, (int)(task % r->n_shards), r->n_shards, r->shard, r->n_shards);
    return FALSE;
  }
  if (r->lines != NULL && r->lines[task] > 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, lineno,
                    "the row of task %" G_GINT64_FORMAT " is here a second time (first at "
                    "line %d): remove one of them", task, r->lines[task]);
    return FALSE;
  }
  if (r->lines != NULL)
    r->lines[task] = lineno;
  if (r->rows != NULL)
    r->rows[task] = g_strdup(line);
  *key = g_strdup(k);
  return TRUE;
}

/* Reads every complete row of a rows file through the Reader (header
 * checked; a last line cut short is ignored with a warning). */
static gboolean read_rows_file(Reader *r, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  GError *io = NULL;
  if (!g_file_get_contents(r->path, &text, &len, &io)) {
    ns_set_error_at(error, NS_ERROR_IO, r->path, 0, "cannot read: %s", io->message);
    g_error_free(io);
    return FALSE;
  }
  char *nl = strchr(text, '\n');
  if (nl == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, r->path, 1, "no header line: not a rows file");
    return FALSE;
  }
  *nl = '\0';
  if (!check_header(text, r, error))
    return FALSE;
  int lineno = 2;
  for (char *line = nl + 1; *line != '\0'; lineno++) {
    char *end = strchr(line, '\n');
    if (end == NULL) {
      ns_warnf(r->warn, r->warn_data,
               "%s:%d: the last row was cut short (interrupted run): ignored", r->path, lineno);
      break;
    }
    *end = '\0';
    char *key = NULL;
    if (*line != '\0' && !read_row(line, lineno, &key, r, error))
      return FALSE;
    g_free(key);
    line = end + 1;
  }
  return TRUE;
}

/* ---- the run ---------------------------------------------------------------------------- */

typedef struct {
  const NsSweep *sw;
  NsRowFile *file;
  NsProgress *progress;
  guint ran;               /* rows computed by this run */
} Sink;

static gboolean sink_row(guint task, const char *row, gsize len, void *data, GError **error)
{
  Sink *s = data;
  g_autofree char *key = ns_sweep_task_key(s->sw, task);
  if (!ns_row_file_append(s->file, key, row, len, error))
    return FALSE;
  s->ran++;
  ns_progress_add(s->progress, 1);
  return TRUE;
}

static void free_rows(char **rows, guint n)
{
  for (guint t = 0; t < n; t++)
    g_free(rows[t]);
  g_free(rows);
}

gboolean ns_sweep_run(const NsSweep *sw, const NsSweepRunOptions *opt, GError **error)
{
  int shard = opt->n_shards > 0 ? opt->shard : 0, n_shards = MAX(opt->n_shards, 1);
  if (shard < 0 || shard >= n_shards) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "shard %d/%d: expected 0 <= I < N", shard,
                    n_shards);
    return FALSE;
  }
  if (sw->measures->len > 0 && sw->measure == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, sw->source, 0,
                    "the sweep measures %u schedule%s but no measurement is installed (the "
                    "netsched command simulates them)",
                    sw->measures->len, sw->measures->len == 1 ? "" : "s");
    return FALSE;
  }
  /* One run writes rows.jsonl and the reports: it locks the directory;
   * the shards of a grid share it, each locking its own row file. */
  g_autoptr(NsOutputLock) lock = NULL;
  if (n_shards == 1 && (lock = ns_output_dir_lock(opt->outdir, NULL, error)) == NULL)
    return FALSE;
  g_autofree char *name = n_shards == 1 ? g_strdup("rows.jsonl")
                                        : g_strdup_printf("shard-%d-of-%d.jsonl", shard, n_shards);
  g_autofree char *path = g_build_filename(opt->outdir, name, NULL);
  g_autofree char *header = ns_sweep_header(sw, shard, n_shards);
  Reader reader = { .sw = sw, .path = path, .shard = shard, .n_shards = n_shards };
  reader.lines = g_new0(int, sw->n_tasks + 1);
  NsRowFileSpec spec = { .path = path, .header = header, .header_check = check_header,
                         .resume = !opt->restart, .unique_keys = TRUE, .lock = n_shards > 1,
                         .row = read_row, .user = &reader, .warn = opt->warn,
                         .warn_data = opt->warn_data };
  Sink sink = { .sw = sw };
  sink.file = ns_row_file_open(&spec, error);
  g_free(reader.lines);
  reader.lines = NULL;
  if (sink.file == NULL)
    return FALSE;
  GArray *pending = g_array_new(FALSE, FALSE, sizeof(guint));
  guint mine = 0;
  for (guint t = (guint)shard; t < sw->n_tasks; t += (guint)n_shards) {
    mine++;
    g_autofree char *key = ns_sweep_task_key(sw, t);
    if (!ns_row_file_has(sink.file, key))
      g_array_append_val(pending, t);
  }
  int jobs = MAX(opt->jobs, 1);
  int workers = opt->executor != NULL ? opt->executor->workers : MIN(jobs, (int)MAX(pending->len, 1));
  const char *how = opt->executor != NULL ? opt->executor->name
                    : workers > 1         ? "processes" : "process";
  if (opt->report != NULL) {
    fprintf(opt->report, "sweep %s: %u task%s (%u point%s x %u %s%s)", sw->digest,
            sw->n_tasks, sw->n_tasks == 1 ? "" : "s", sw->points->len,
            sw->points->len == 1 ? "" : "s", sw->seeds->len, sw->files ? "file" : "seed",
            sw->seeds->len == 1 ? "" : "s");
    if (n_shards > 1)
      fprintf(opt->report, "; shard %d/%d: %u tasks", shard, n_shards, mine);
    fprintf(opt->report, "; %u done, %u to run on %d %s\n", mine - pending->len, pending->len,
            workers, how);
    fflush(opt->report);
  }
  sink.progress = opt->progress;
  if (pending->len > 0) {
    ns_progress_add_total(sink.progress, mine);
    ns_progress_skip(sink.progress, mine - pending->len);
  }
  gint64 start = g_get_monotonic_time();
  gboolean ok = pending->len == 0 ||
                (opt->executor != NULL
                     ? opt->executor->run(sw, (guint *)(void *)pending->data, pending->len,
                                          sink_row, &sink, opt->executor->self, error)
                     : ns_sweep_pool_run(sw, (guint *)(void *)pending->data, pending->len, jobs,
                                         sink_row, &sink, error));
  ns_progress_finish(sink.progress);
  double elapsed = (g_get_monotonic_time() - start) / 1e6;
  if (ok && opt->report != NULL && pending->len > 0)
    fprintf(opt->report, "sweep: %u rows in %.1f s (%.2f topologies/s)\n", sink.ran,
            elapsed, elapsed > 0 ? sink.ran / elapsed : 0);
  g_array_unref(pending);
  if (ok && n_shards == 1) { /* finish while holding the lock */
    char **rows = g_new0(char *, sw->n_tasks + 1);
    Reader all = { .sw = sw, .path = path, .shard = 0, .n_shards = 1, .rows = rows,
                   .warn = opt->warn, .warn_data = opt->warn_data };
    all.lines = g_new0(int, sw->n_tasks + 1);
    ok = read_rows_file(&all, error);
    for (guint t = 0; ok && t < sw->n_tasks; t++)
      if (rows[t] == NULL) {
        g_autofree char *label = ns_sweep_task_label(sw, t);
        ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "the row of task %u (%s) is missing",
                        t, label);
        ok = FALSE;
      }
    ok = ok && ns_sweep_finish(sw, opt->outdir, rows, opt->report, opt->warn, opt->warn_data,
                                 error);
    free_rows(rows, sw->n_tasks);
    g_free(all.lines);
  } else if (ok && opt->report != NULL) {
    fprintf(opt->report, "shard %d/%d complete in %s; once every shard is, run: netsched sweep "
                         "merge (with the same specification)\n",
            shard, n_shards, path);
  }
  ns_row_file_close(sink.file);
  return ok;
}

/* ---- merging shards ----------------------------------------------------------------------- */

static int compare_paths(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static GPtrArray *shard_files(const char *outdir, GError **error)
{
  GError *io = NULL;
  GDir *dir = g_dir_open(outdir, 0, &io);
  if (dir == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, outdir, 0, "cannot read: %s", io->message);
    g_error_free(io);
    return NULL;
  }
  GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
  const char *name;
  while ((name = g_dir_read_name(dir)) != NULL) {
    int i = 0, n = 0;
    char canonical[64];
    if (sscanf(name, "shard-%d-of-%d.jsonl", &i, &n) == 2) {
      g_snprintf(canonical, sizeof canonical, "shard-%d-of-%d.jsonl", i, n);
      if (strcmp(canonical, name) == 0)
        g_ptr_array_add(files, g_build_filename(outdir, name, NULL));
    }
  }
  g_dir_close(dir);
  g_ptr_array_sort(files, compare_paths);
  return files;
}

gboolean ns_sweep_merge(const NsSweep *sw, const char *outdir, const char *const *files,
                        FILE *report, NsWarnFunc warn, void *warn_data, GError **error)
{
  gboolean ok = FALSE;
  g_autoptr(NsOutputLock) lock = ns_output_dir_lock(outdir, NULL, error);
  if (lock == NULL)
    return FALSE;
  g_autoptr(GPtrArray) list = NULL;
  if (files == NULL || files[0] == NULL) {
    if ((list = shard_files(outdir, error)) == NULL)
      return FALSE;
  } else {
    list = g_ptr_array_new_with_free_func(g_free);
    for (int i = 0; files[i] != NULL; i++)
      g_ptr_array_add(list, g_strdup(files[i]));
  }
  if (list->len == 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, outdir, 0,
                    "no shard-I-of-N.jsonl file to merge (run the shards first: netsched sweep "
                    "--shard I/N)");
    return FALSE;
  }
  char **rows = g_new0(char *, sw->n_tasks + 1);
  int *lines = g_new0(int, sw->n_tasks + 1);
  int n_shards = 0;
  const char **by_shard = NULL;
  for (guint f = 0; f < list->len; f++) {
    Reader r = { .sw = sw, .path = g_ptr_array_index(list, f), .rows = rows, .lines = lines,
                  .warn = warn, .warn_data = warn_data };
    /* The header first: the shard and its count. */
    g_autofree char *text = NULL;
    GError *io = NULL;
    if (!g_file_get_contents(r.path, &text, NULL, &io)) {
      ns_set_error_at(error, NS_ERROR_IO, r.path, 0, "cannot read: %s", io->message);
      g_error_free(io);
      goto out;
    }
    char *nl = strchr(text, '\n');
    if (nl != NULL)
      *nl = '\0';
    if (!check_header(text, &r, error))
      goto out;
    if (n_shards == 0) {
      n_shards = r.n_shards;
      by_shard = g_new0(const char *, n_shards);
    } else if (r.n_shards != n_shards) {
      ns_set_error_at(error, NS_ERROR_INPUT, r.path, 1,
                      "shard %d/%d, but %s is a shard of %d: the shards of one merge must "
                      "split the grid the same way",
                      r.shard, r.n_shards, by_shard[0] ? by_shard[0] : "another file", n_shards);
      goto out;
    }
    if (by_shard[r.shard] != NULL) {
      ns_set_error_at(error, NS_ERROR_INPUT, r.path, 1, "shard %d/%d is given twice (also %s)",
                      r.shard, n_shards, by_shard[r.shard]);
      goto out;
    }
    by_shard[r.shard] = g_ptr_array_index(list, f);
    if (!read_rows_file(&r, error))
      goto out;
  }
  for (int i = 0; i < n_shards; i++)
    if (by_shard[i] == NULL) {
      ns_set_error_at(error, NS_ERROR_INPUT, outdir, 0,
                      "shard %d/%d is missing (no shard-%d-of-%d.jsonl): run it with --shard "
                      "%d/%d, then merge again",
                      i, n_shards, i, n_shards, i, n_shards);
      goto out;
    }
  for (int i = 0; i < n_shards; i++) {
    guint missing = 0, first = 0, of = 0;
    for (guint t = (guint)i; t < sw->n_tasks; t += (guint)n_shards) {
      of++;
      if (rows[t] == NULL && missing++ == 0)
        first = t;
    }
    if (missing > 0) {
      g_autofree char *label = ns_sweep_task_label(sw, first);
      ns_set_error_at(error, NS_ERROR_INPUT, by_shard[i], 0,
                      "shard %d/%d lacks %u of its %u rows (the first: task %u, %s): run it "
                      "again to complete it (it resumes), then merge again",
                      i, n_shards, missing, of, first, label);
      goto out;
    }
  }
  if (report != NULL)
    fprintf(report, "sweep %s: merged %d shard%s, %u rows\n", sw->digest, n_shards,
            n_shards == 1 ? "" : "s", sw->n_tasks);
  ok = ns_sweep_finish(sw, outdir, rows, report, warn, warn_data, error);
out:
  free_rows(rows, sw->n_tasks);
  g_free(lines);
  g_free(by_shard);
  return ok;
}
