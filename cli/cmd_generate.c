/* netsched generate — a schedule as an MPI routine (Faraj & Yuan §5):
 * a routine table for the runtime (mpi/runtime/) or one C file over MPI
 * point-to-point. The work is sched/lower/routine_internal.h; this file parses
 * options and writes. docs/generate.md. */
#include "cli/cli.h"
#include "cli/cli_sim.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include "sched/lower/routine_internal.h"
#include <string.h>

/* The default entry-point name: the algorithm's, with '-' as '_'. */
static char *default_name(const char *algorithm)
{
  char *name = g_strdup(algorithm);
  for (char *c = name; *c != '\0'; c++)
    if (!g_ascii_isalnum(*c))
      *c = '_';
  return name;
}

int ns_cmd_generate(int argc, char **argv)
{
  NsPlanOptions po = { 0 };
  char *schedule_file = NULL, *sync = NULL, *format = NULL, *output = NULL, *name = NULL;
  char *sync_size = NULL, *eager_threshold = NULL;
  char **decision = NULL;
  gboolean hardware_barrier = FALSE, allow_invalid = FALSE;
  GOptionEntry entries[] = {
    { "schedule", 0, 0, G_OPTION_ARG_FILENAME, &schedule_file,
      "Generate from a schedule file instead of planning one", "FILE" },
    { "sync", 'S', 0, G_OPTION_ARG_STRING, &sync,
      "Synchronisation scheme (default: the algorithm's, else none; window:W for posted "
      "schedules)",
      "SCHEME" },
    /* --format is the topology's (the plan options) */
    { "output-format", 'F', 0, G_OPTION_ARG_STRING, &format,
      "table: a routine table for the runtime; c: one C file over MPI (default: c for -o "
      "*.c or stdout, else table); with --decision: ompi-rules (an Open MPI 4.1 dynamic-rules "
      "file) or mpich-csel (an MPICH 4.0 collective-selection JSON)",
      "table|c|ompi-rules|mpich-csel" },
    { "decision", 'D', 0, G_OPTION_ARG_FILENAME_ARRAY, &decision,
      "Write a decision file of netsched tune (repeatable: one per collective and "
      "communicator size) as the MPI library's own rules, for --output-format ompi-rules or "
      "mpich-csel; prints the mpirun line that uses them (docs/mpi-rules.md)",
      "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write here (default stdout, C only)",
      "FILE" },
    { "name", 'n', 0, G_OPTION_ARG_STRING, &name,
      "C: entry points netsched_NAME_COLLECTIVE (default: the algorithm's name)", "NAME" },
    { "sync-size", 0, 0, G_OPTION_ARG_STRING, &sync_size,
      "Bytes of a sync or barrier message (4 B to 64 KiB; default 8 B, as simulate)", "SIZE" },
    { "eager-threshold", 0, 0, G_OPTION_ARG_STRING, &eager_threshold,
      "Phased schedules send data of fewer bytes with MPI_Isend (eager), of more with "
      "MPI_Issend (rendezvous), as simulate --eager-threshold replays them; 0: MPI_Issend at "
      "every size (default 64KiB, simulate's)",
      "SIZE" },
    { "hardware-barrier", 0, 0, G_OPTION_ARG_NONE, &hardware_barrier,
      "Barriers as MPI_Barrier (simulate --hardware-barrier) instead of dissemination "
      "messages",
      NULL },
    { "allow-invalid", 0, 0, G_OPTION_ARG_NONE, &allow_invalid,
      "Generate from a schedule that fails verification (data flow, completeness, sync)", NULL },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx =
      g_option_context_new("[SCHEDULE] - turn a schedule into an MPI routine");
  g_option_context_set_summary(
      ctx, "Lowers a schedule, planned (-T -a) or read (--schedule FILE), under a\n"
           "synchronisation scheme into an MPI routine that does what `netsched simulate`\n"
           "replays: a routine table (.nsr) that libnetsched-mpi and the runtime load, or\n"
           "one C file that carries the runtime and the table and needs only MPI.");
  g_autofree char *desc = g_strdup_printf(
      "Sync schemes: %s.\n"
      "Phased schedules send data below the eager threshold with MPI_Isend and the rest\n"
      "with MPI_Issend, as the replay assumes; posted ones send with MPI_Isend.\n"
      "Examples:\n"
      "  netsched generate -T scenarios/topologies/faraj-c.topo -a faraj -o faraj.c\n"
      "  mpicc -O2 -c faraj.c    # defines netsched_faraj_alltoall(send, recv, bytes, comm)\n"
      "  netsched generate -T gen:star:16 -c allgather -a ring -o ring.nsr\n"
      "  netsched generate --decision a2a.json -F ompi-rules -o rules.txt\n"
      "  netsched generate --decision a2a.json -F mpich-csel -o csel.json\n",
      ns_sync_scheme_names());
  g_option_context_set_description(ctx, desc);
  ns_cli_add_plan_options(ctx, &po);
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  GError *error = NULL;
  g_autoptr(NsTopology) t = NULL;
  g_autoptr(NsSchedule) s = NULL;
  g_autoptr(NsRoutine) routine = NULL;
  g_autofree char *cmd = ns_cli_command_line(argc, argv);
  g_autofree char *source = NULL, *entry = NULL;
  NsSyncScheme scheme;
  NsRoutineOptions ro;
  ns_routine_options_init(&ro);
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if (decision != NULL) {
    if (argc != 1 || po.algorithm != NULL || po.topology != NULL || schedule_file != NULL)
      status = ns_cli_usage("generate", "--decision writes an MPI library's rules from decision "
                                        "files alone: give no topology, algorithm or schedule");
    else
      status = ns_cli_generate_rules(decision, format, output);
    goto out;
  }
  if (argc == 2 && schedule_file == NULL)
    schedule_file = g_strdup(argv[1]);
  else if (argc != 1) {
    status = ns_cli_usage("generate", "give one SCHEDULE file (or --schedule FILE)");
    goto out;
  }
  if ((po.algorithm == NULL) == (schedule_file == NULL)) {
    status = ns_cli_usage("generate", po.algorithm == NULL
                                          ? "give --algorithm to plan a schedule, or --schedule "
                                            "FILE"
                                          : "give --algorithm or a schedule file, not both");
    goto out;
  }
  gboolean c_form;
  if (format == NULL)
    c_form = output == NULL || strcmp(output, "-") == 0 || g_str_has_suffix(output, ".c");
  else if (strcmp(format, "c") == 0 || strcmp(format, "table") == 0)
    c_form = strcmp(format, "c") == 0;
  else {
    status = ns_cli_usage("generate", "--output-format takes table or c, not '%s'", format);
    goto out;
  }
  if (!c_form && (output == NULL || strcmp(output, "-") == 0)) {
    status = ns_cli_usage("generate", "a routine table is binary: write it to a file with -o");
    goto out;
  }
  if (name != NULL && !ns_routine_name_ok(name)) {
    status = ns_cli_usage("generate", "--name must be a C identifier part ([A-Za-z0-9_], at "
                                      "most 64 characters, not starting with a digit), not '%s'",
                          name);
    goto out;
  }
  if (sync != NULL && !ns_sync_scheme_parse(sync, &scheme, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  ro.scheme = sync != NULL ? &scheme : NULL;
  ro.hardware_barrier = hardware_barrier;
  ro.allow_invalid = allow_invalid;
  ro.eager_threshold = NS_SIM_EAGER_DEFAULT;
  if (eager_threshold != NULL &&
      !ns_cli_eager_threshold(eager_threshold, &ro.eager_threshold, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (sync_size != NULL && !ns_cli_parse_size("--sync-size", sync_size, &ro.sync_size, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (!ns_cli_topology_and_schedule(&po, schedule_file, &t, &s, &error) ||
      (routine = ns_routine_build(t, s, &ro, &error)) == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  FILE *f = ns_cli_open_output(output, &error);
  if (f == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (c_form) {
    entry = name != NULL ? g_strdup(name) : default_name(s->algorithm);
    if (!ns_routine_name_ok(entry)) {
      g_free(entry);
      entry = g_strdup("routine");
    }
    source = ns_routine_c_source(routine, entry, cmd);
    fputs(source, f);
  } else {
    fwrite(routine->table->data, 1, routine->table->len, f);
  }
  if (!ns_cli_close_output(f, output, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (output != NULL && strcmp(output, "-") != 0)
    printf("%s: %s/%s, %d machines, sync %s, %u-byte table, schedule %.16s\n", output,
           ns_collective_name(s->collective), s->algorithm, s->n_machines,
           routine->scheme_name, routine->table->len, routine->digest);
  status = 0;
out:
  ns_cli_plan_options_clear(&po);
  g_free(schedule_file);
  g_free(sync);
  g_free(format);
  g_free(output);
  g_free(name);
  g_free(sync_size);
  g_free(eager_threshold);
  g_strfreev(decision);
  return status;
}
