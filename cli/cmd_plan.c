/* netsched plan — topology -> schedule with a registered algorithm. */
#include "cli/cli.h"
#include "sched/planners/registry.h"
#include "sched/io/schedule_json.h"
#include "sched/io/schedule_stream.h"
#include "platforms/model/error.h"
#include <glib/gstdio.h>
#include <string.h>

static void list_planners(void)
{
  int n;
  const NsPlanner *p = ns_planners(&n);
  printf("%-22s %s\n", "collective/algorithm", "what it does [source]");
  for (int i = 0; i < n; i++) {
    g_autofree char *key = g_strdup_printf("%s/%s", ns_collective_name(p[i].collective), p[i].name);
    printf("%-22s %s\n%-22s [%s]\n", key, p[i].summary, "", p[i].source);
  }
}

/* Writes the phases as the planner hands them on (ns_plan_streamed): a
 * planner that streams never holds its schedule whole. As a schedule file,
 * or as a table: one line per phase, its transfers as src->dst. */
typedef struct {
  FILE *out;
  gboolean table;
  NsScheduleFormat format;
  NsCompression compression;
  NsSchedule *header;        /* a copy: the writer writes its tail at the end */
  NsScheduleWriter *writer;
  NsCliProgress progress;
  uint64_t n_transfers;
  guint n_phases;
} Writing;

static gboolean write_begin(const NsSchedule *header, gpointer data, GError **error)
{
  Writing *w = data;
  w->header = ns_schedule_copy_header(header);
  if (w->table)
    return TRUE;
  w->writer = ns_schedule_writer_new_compressed(w->out, w->format, w->compression, w->header,
                                               NULL, error);
  return w->writer != NULL;
}

static void print_table_row(const Writing *w, const NsPhase *phase)
{
  char *const *name = w->header->machines;
  fprintf(w->out, "%s %4u:", w->header->execution == NS_EXEC_POSTED ? "posted" : "phase",
          phase->index);
  for (uint64_t i = 0; i < phase->n; i++)
    fprintf(w->out, " %s->%s", name[phase->transfers[i].src], name[phase->transfers[i].dst]);
  fputc('\n', w->out);
}

static gboolean write_phase(const NsPhase *phase, gpointer data, GError **error)
{
  Writing *w = data;
  if (w->table)
    print_table_row(w, phase);
  else
    ns_schedule_writer_phase(w->writer, phase);
  w->n_transfers += phase->n;
  w->n_phases++;
  ns_cli_progress_show(&w->progress, "plan: %u phases, %" G_GUINT64_FORMAT " transfers written",
                       phase->index + 1, w->n_transfers);
  /* a full disk stops planning now, not hours later */
  if (!w->table)
    return ns_schedule_writer_check(w->writer, error);
  if (ferror(w->out)) {
    g_set_error(error, NS_ERROR, NS_ERROR_IO, "cannot write the table");
    return FALSE;
  }
  return TRUE;
}

/* Plans into `out`, counting what it wrote into *written; FALSE with the
 * error (the output is then incomplete). */
static gboolean plan_into(const NsTopology *t, const NsPlanOptions *po, gboolean table,
                          NsScheduleFormat fmt, NsCompression compression, FILE *out,
                          Writing *written, GError **error)
{
  NsCollective c;
  const char *algorithm;
  NsPlanParams params;
  if (!ns_cli_plan_options_params(t, po, "faraj", &c, &algorithm, &params, error))
    return FALSE;
  Writing w = { .out = out, .table = table, .format = fmt, .compression = compression };
  ns_cli_progress_init(&w.progress);
  NsPhaseSink sink = { .begin = write_begin, .phase = write_phase, .data = &w };
  g_autoptr(NsSchedule) tail =
      ns_plan_streamed(t, c, algorithm, &params, &sink, NULL, NULL, error);
  ns_cli_progress_end(&w.progress);
  gboolean ok = tail != NULL;
  if (ok && !table)
    ok = ns_schedule_writer_finish(w.writer, error);
  else if (w.writer != NULL)
    ns_schedule_writer_abort(w.writer);
  ns_schedule_free(w.header);
  *written = w;
  return ok;
}

/* `plan -o FILE` says what it wrote, on stderr (stdout may be the data):
 * "plan: wrote c.json (json, 31 phases, 992 transfers, 81234 bytes)". */
static void say_written(const char *path, NsScheduleFormat fmt, NsCompression compression,
                        gboolean table, const Writing *w)
{
  GStatBuf st;
  g_autofree char *bytes = g_stat(path, &st) == 0
                               ? g_strdup_printf("%" G_GUINT64_FORMAT " bytes", (guint64)st.st_size)
                               : g_strdup("size unknown");
  static const char *const packing[] = { [NS_COMPRESS_NONE] = "", [NS_COMPRESS_GZIP] = ", gzip",
                                         [NS_COMPRESS_ZSTD] = ", zstd" };
  fprintf(stderr,
          "plan: wrote %s (%s%s, %u phase%s, %" G_GUINT64_FORMAT " transfer%s, %s)\n", path,
          table ? "table" : ns_schedule_format_name(fmt), table ? "" : packing[compression],
          w->n_phases, w->n_phases == 1 ? "" : "s", w->n_transfers,
          w->n_transfers == 1 ? "" : "s", bytes);
}

int ns_cmd_plan(int argc, char **argv)
{
  NsPlanOptions po = { 0 };
  char *output = NULL, *format = NULL;
  gboolean list = FALSE, table = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Schedule file (default stdout); FILE.gz and FILE.zst are written compressed",
      "FILE" },
    { "schedule-format", 0, 0, G_OPTION_ARG_STRING, &format,
      "json (the default) or jsonl (JSON Lines, for very large schedules; the default for "
      "-o *.jsonl)", "json|jsonl" },
    { "table", 0, 0, G_OPTION_ARG_NONE, &table, "Print the phases as a table instead of JSON", NULL },
    { "list", 'l', 0, G_OPTION_ARG_NONE, &list, "List the registered algorithms", NULL },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("- plan a collective");
  g_option_context_set_summary(ctx, "Plans a collective on a topology and writes the schedule\n"
                                    "(JSON or JSON Lines, docs/schedule-format.md). The algorithm\n"
                                    "defaults to faraj.");
  g_option_context_set_description(ctx, "Example:\n  netsched plan -T scenarios/topologies/"
                                        "faraj-c.topo -a faraj -m 64KiB -o c.json\n");
  ns_cli_add_plan_options(ctx, &po);
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  GError *error = NULL;
  g_autoptr(NsTopology) t = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if (list) {
    list_planners();
    status = 0;
    goto out;
  }
  if (argc != 1) {
    status = ns_cli_usage("plan", "unexpected argument '%s'", argv[1]);
    goto out;
  }
  NsScheduleFormat fmt = ns_schedule_format_for_name(output);
  if (format != NULL && !ns_schedule_format_from_name(format, &fmt)) {
    status = ns_cli_usage("plan", "--schedule-format takes json or jsonl, not '%s'", format);
    goto out;
  }
  t = ns_cli_plan_topology(&po, &error);
  if (t == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  FILE *out = ns_cli_open_output(output, &error);
  if (out == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  NsCompression compression = ns_schedule_compression_for_name(output);
  Writing written = { 0 };
  if (!plan_into(t, &po, table, fmt, compression, out, &written, &error)) {
    ns_cli_abort_output(out);
    status = ns_cli_fail(error);
    goto out;
  }
  status = ns_cli_close_output(out, output, &error) ? 0 : ns_cli_fail(error);
  if (status == 0 && output != NULL && strcmp(output, "-") != 0)
    say_written(output, fmt, compression, table, &written);
out:
  ns_cli_plan_options_clear(&po);
  g_free(output);
  g_free(format);
  return status;
}
