/* netsched plan — topology -> schedule with a registered algorithm. */
#include "cli/cli.h"
#include "sched/registry.h"
#include "sched/schedule_json.h"

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

/* The phases as a table: one line per phase, its transfers as src->dst. */
static void print_table(const NsSchedule *s, FILE *out)
{
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    uint64_t first, n;
    ns_schedule_phase_range(s, ph, &first, &n);
    fprintf(out, "%s %4u:", s->execution == NS_EXEC_POSTED ? "posted" : "phase", ph);
    for (uint64_t t = first; t < first + n; t++) {
      const NsTransfer *tr = ns_schedule_transfer(s, t);
      fprintf(out, " %s->%s", s->machines[tr->src], s->machines[tr->dst]);
    }
    fputc('\n', out);
  }
}

int ns_cmd_plan(int argc, char **argv)
{
  char *topology = NULL, *format = NULL, *collective = NULL, *algorithm = NULL;
  char *msize_text = NULL, *output = NULL, *root = NULL, *segment_text = NULL;
  gboolean list = FALSE, table = FALSE;
  int arity = 0;
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_FILENAME, &topology, "Topology file or gen:SPEC", "T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Topology format (default: guessed)",
      "native|slurm|graphml" },
    { "collective", 'c', 0, G_OPTION_ARG_STRING, &collective, "Collective (default alltoall)",
      "alltoall" },
    { "algorithm", 'a', 0, G_OPTION_ARG_STRING, &algorithm, "Algorithm (default faraj)", "NAME" },
    { "msize", 'm', 0, G_OPTION_ARG_STRING, &msize_text, "Message size (default 64KiB)", "SIZE" },
    { "root", 'r', 0, G_OPTION_ARG_STRING, &root, "bcast: root machine (default the first)",
      "MACHINE" },
    { "arity", 0, 0, G_OPTION_ARG_INT, &arity, "bcast/kary-cf: children per machine (default 3)", "K" },
    { "segment", 's', 0, G_OPTION_ARG_STRING, &segment_text,
      "bcast: pipeline segment size (default: no pipelining)", "SIZE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Schedule JSON file (default stdout)",
      "FILE" },
    { "table", 0, 0, G_OPTION_ARG_NONE, &table, "Print the phases as a table instead of JSON", NULL },
    { "list", 'l', 0, G_OPTION_ARG_NONE, &list, "List the registered algorithms", NULL },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("- plan a collective");
  g_option_context_set_summary(ctx, "Plans a collective on a topology and writes the schedule\n"
                                    "(JSON, docs/schedule-format.md).");
  g_option_context_set_description(ctx, "Example:\n  netsched plan -T scenarios/topologies/"
                                        "faraj-c.topo -a faraj -m 64KiB -o c.json\n");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  g_autoptr(NsTopology) t = NULL;
  g_autoptr(NsSchedule) s = NULL;
  GError *error = NULL;
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
  uint64_t msize = 65536, segment = 0;
  if ((msize_text != NULL && !ns_cli_parse_size("--msize", msize_text, &msize, &error)) ||
      (segment_text != NULL && !ns_cli_parse_size("--segment", segment_text, &segment, &error))) {
    status = ns_cli_fail(error);
    goto out;
  }
  t = ns_cli_load_topology(topology, format, &error);
  if (t == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  s = ns_cli_plan(t, collective ? collective : "alltoall",
                                        algorithm ? algorithm : "faraj", msize, root, segment, arity,
                                        &error);
  if (s == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  FILE *out = ns_cli_open_output(output, &error);
  if (out == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (table)
    print_table(s, out);
  else if (!ns_schedule_write_json(s, out, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  status = ns_cli_close_output(out, output, &error) ? 0 : ns_cli_fail(error);
out:
  g_free(topology);
  g_free(format);
  g_free(collective);
  g_free(algorithm);
  g_free(msize_text);
  g_free(output);
  g_free(root);
  g_free(segment_text);
  return status;
}
