/* netsched — one binary, subcommands:
 *   topo show|convert   look at and convert topologies
 *   plan                plan a collective with a registered algorithm
 *   verify              prove a schedule complete, contention-free, optimal
 *   bound               theoretical bounds of a collective on a topology
 *   generate            a schedule as an MPI routine (table or C)
 *   simulate            replay a schedule on SimGrid (fluid or ns-3 packet models)
 *   compare             algorithms x message sizes: table, CSV and plot
 *   scenario            run a declarative experiment file
 *   design              candidate cluster designs side by side
 *   calibrate, tune, sweep, torus (see their --help)
 */
#include "cli/cli.h"
#include "sched/ir/counts_internal.h"
#include <errno.h>
#include <locale.h>
#include <string.h>

typedef struct {
  const char *name;
  NsCommandFunc run;
  const char *summary;
} Command;

static const Command commands[] = {
  { "topo", ns_cmd_topo, "show or convert a topology (native, Slurm, GraphML, DOT)" },
  { "plan", ns_cmd_plan, "plan a collective: topology -> schedule (JSON)" },
  { "verify", ns_cmd_verify, "verify a schedule: data flow, completeness, contention, optimality" },
  { "bound", ns_cmd_bound, "bottleneck load, root, time and throughput bounds, path lengths" },
  { "generate", ns_cmd_generate, "turn a schedule into an MPI routine: table or C over MPI" },
#ifdef NETSCHED_HAVE_SIMULATOR /* -DNETSCHED_SIMULATOR=OFF builds verify-only */
  { "simulate", ns_cmd_simulate, "replay a schedule on SimGrid: completion time vs the bound" },
  { "compare", ns_cmd_compare, "plan, verify and simulate algorithms x sizes: table, CSV, plot" },
  { "scenario", ns_cmd_scenario, "run a declarative experiment (scenarios/*.ini), resumably" },
  { "design", ns_cmd_design, "compare cluster designs: best schedule, MPI defaults, bound, cost" },
  { "calibrate", ns_cmd_calibrate, "fit a point-to-point timing table for the simulator" },
  { "tune", ns_cmd_tune, "tune a collective by simulation: decision table, tuned routine" },
#endif
  { "sweep", ns_cmd_sweep, "random topologies x parameters x seeds: rows, statistics, plots" },
  { "torus", ns_cmd_torus, "Liu Gang et al.'s torus cost model: Table II and Fig. 6 (-o DIR)" },
};

#ifndef NETSCHED_HAVE_SIMULATOR
/* The commands of the table above that a verify-only build leaves out. */
static const char *const simulator_commands[] = { "simulate", "compare", "scenario", "design",
                                                  "calibrate", "tune" };
#endif

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: netsched COMMAND [OPTIONS...]\n\n"
          "Plans, proves and simulates collective-communication schedules on cluster\n"
          "interconnects.\n\nCommands:\n");
  for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
    fprintf(out, "  %-9s  %s\n", commands[i].name, commands[i].summary);
  fprintf(out,
          "\nRun 'netsched COMMAND --help' for the options of a command.\n"
          "Topologies are files (*.topo native, topology.conf Slurm, *.graphml) or\n"
          "generators: switch trees 'gen:star:24', 'gen:chain:4,8', 'gen:tree:4,16,16',\n"
          "'gen:random:SEED,P,S'; fat trees 'gen:fattree:4,3'; direct networks\n"
          "'gen:torus:8x8', 'gen:mesh:4x4', 'gen:ring:16', 'gen:hypercube:6'; random\n"
          "graphs 'gen:waxman:SEED,200', 'gen:transit-stub:SEED'; options after the\n"
          "shape, e.g. 'gen:tree:4,16:bandwidth=1Gbps:uplink=10Gbps' (docs/topology-format.md).\n"
          "Exit status: 0 success, 1 a verification failed, 2 bad input.\n");
}

static int run(int argc, char **argv)
{
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    if (strcmp(cmd, "help") == 0 && argc > 2) {
      char *help_argv[] = { argv[2], (char *)"--help", NULL };
      for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
        if (strcmp(commands[i].name, argv[2]) == 0)
          return commands[i].run(2, help_argv);
    }
    usage(stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
    printf("netsched %s\n", NETSCHED_VERSION);
    return 0;
  }
  if (strcmp(cmd, "--list-commands") == 0) { /* NAME<TAB>SUMMARY: man pages, scripts */
    for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
      printf("%s\t%s\n", commands[i].name, commands[i].summary);
    return 0;
  }
  for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
    if (strcmp(commands[i].name, cmd) == 0)
      return commands[i].run(argc - 1, argv + 1);
#ifndef NETSCHED_HAVE_SIMULATOR
  for (gsize i = 0; i < G_N_ELEMENTS(simulator_commands); i++)
    if (strcmp(simulator_commands[i], cmd) == 0) {
      fprintf(stderr,
              "netsched: '%s' simulates: this netsched was built without the simulator "
              "(-DNETSCHED_SIMULATOR=OFF)\n",
              cmd);
      return 2;
    }
#endif
  fprintf(stderr, "netsched: unknown command '%s'\n\n", cmd);
  usage(stderr);
  return 2;
}

/* Results printed on standard output are results too: a write that failed
 * (a full disk, a closed pipe that does not kill us) is an error, never
 * exit 0 with the output lost. */
static int check_stdout(int status)
{
  errno = 0;
  gboolean failed = fflush(stdout) != 0;
  int e = errno;
  if (!failed && !ferror(stdout))
    return status;
  fprintf(stderr, "netsched: standard output: write failed%s%s\n", e ? ": " : "",
          e ? g_strerror(e) : "");
  return status == 0 ? 2 : status;
}

/* NETSCHED_COUNTS set: how often this process derived each fact of a
 * schedule (sched/ir/counts_internal.h), for tests and benchmarks; never otherwise. */
static void print_counts(void)
{
  if (g_getenv("NETSCHED_COUNTS") == NULL)
    return;
  fprintf(stderr, "counts:");
  for (int c = 0; c < NS_N_COUNTS; c++)
    fprintf(stderr, " %s %" G_GUINT64_FORMAT, ns_count_name(c), ns_count_get(c));
  fputc('\n', stderr);
}

int main(int argc, char **argv)
{
  setlocale(LC_ALL, "");
  int status = check_stdout(run(argc, argv));
  print_counts();
  return status;
}
