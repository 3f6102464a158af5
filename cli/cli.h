/* netsched — command-line front end: shared helpers of the subcommands. */
#ifndef NETSCHED_CLI_H
#define NETSCHED_CLI_H

#include "analysis/progress_internal.h"
#include "analysis/run_options_internal.h"
#include "platforms/model/topology.h"
#include "sched/lower/decision.h"
#include "sched/planners/registry.h"
#include "sched/planners/select/mpi_library.h"
#include "sched/ir/schedule.h"
#include <glib.h>
#include <stdio.h>

/* A subcommand: returns the process exit status (0 ok, 1 check failed,
 * 2 bad input). argv[0] is the subcommand name. */
typedef int (*NsCommandFunc)(int argc, char **argv);

int ns_cmd_topo(int argc, char **argv);
int ns_cmd_plan(int argc, char **argv);
int ns_cmd_verify(int argc, char **argv);
int ns_cmd_bound(int argc, char **argv);
int ns_cmd_simulate(int argc, char **argv);
int ns_cmd_compare(int argc, char **argv);
int ns_cmd_tune(int argc, char **argv);
int ns_cmd_generate(int argc, char **argv);

/* `topo show`: the summary of any fabric as text or JSON (cli/topo_show.c).
 * Returns the exit status. */
int ns_cli_topo_show(const NsTopology *t, gboolean json, gboolean all);

/* The members every `bound --json` document starts with: format, version,
 * collective, topology, machines, msize_bytes (cli/cmd_bound.c). */
struct _JsonBuilder;
void ns_cli_bound_json_head(struct _JsonBuilder *j, const NsTopology *t, const char *collective,
                            uint64_t msize);
/* `bound -c alltoallv|allgatherv --pattern P` (cli/bound_pattern.c): the
 * bound of the size pattern P on t, printed; FALSE with the error. */
gboolean ns_cli_pattern_bound(const NsTopology *t, NsCollective c, const char *pattern,
                              gboolean json, GError **error);

/* The planning options of plan, verify and simulate (cli/plan_options.c). */
typedef struct {
  char *topology, *format, *spanning, *collective, *algorithm, *msize, *root, *segment;
  int arity;
  char *pattern;                 /* --pattern SPEC|FILE (alltoallv, allgatherv) */
  NsSizePattern *pattern_loaded; /* what it loaded, kept until the options are cleared */
} NsPlanOptions;
void ns_cli_add_plan_options(GOptionContext *ctx, NsPlanOptions *o);
void ns_cli_plan_options_clear(NsPlanOptions *o);
/* --msize (default 64KiB) and --segment (default 0). */
gboolean ns_cli_plan_sizes(const NsPlanOptions *o, uint64_t *msize, uint64_t *segment,
                           GError **error);
NsTopology *ns_cli_plan_topology(const NsPlanOptions *o, GError **error);
/* Plans with -a, or `default_algorithm` when -a was not given. */
NsSchedule *ns_cli_plan_schedule(const NsTopology *t, const NsPlanOptions *o,
                                 const char *default_algorithm, GError **error);
/* verify and simulate: the topology of -T, and the schedule planned with -a
 * or read from `file`. FALSE with the error of the step that failed. */
gboolean ns_cli_topology_and_schedule(const NsPlanOptions *o, const char *file, NsTopology **topo,
                                      NsSchedule **schedule, GError **error);

int ns_cmd_scenario(int argc, char **argv);
int ns_cmd_design(int argc, char **argv);
int ns_cmd_calibrate(int argc, char **argv);
int ns_cmd_sweep(int argc, char **argv);

int ns_cmd_torus(int argc, char **argv);

/* A GOptionArgFunc for an option that may be given once: stores a copy of
 * the value in the char* its group's user data points to; a second
 * occurrence is an error naming both values (a silently ignored repeat
 * would run something else than asked). */
gboolean ns_cli_option_once(const char *option, const char *value, gpointer data,
                            GError **error);

/* Prints "netsched: <message>" to stderr and returns the exit status the
 * error calls for (see platforms/model/error.h). Frees the error. */
int ns_cli_fail(GError *error);
/* Prints an option the parser refused, with the --help hint; returns 2.
 * Frees the error. */
int ns_cli_option_error(GError *error);
/* Prints a usage problem with the option context's help hint; returns 2. */
int ns_cli_usage(const char *command, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* An NsWarnFunc: "warning: MESSAGE" on stderr. */
void ns_cli_print_warning(const char *message, void *data);
/* "netsched ARGV..." with the arguments that need it shell-quoted: the
 * command line for generated files' comments. Newly allocated. */
char *ns_cli_command_line(int argc, char **argv);
/* An NsWarnFunc: "note: MESSAGE" on stderr. */
void ns_cli_print_note(const char *message, void *data);

/* -T SPEC -f FORMAT --spanning METHOD: the topology they name
 * (ns_topology_from_spec, platforms/io/topology_spec.h: FILE or gen:SPEC,
 * a spanning tree of it); a missing -T is "no topology given (--topology
 * FILE)", the readers' warnings go to stderr. */
NsTopology *ns_cli_load_topology(const char *path, const char *format, const char *spanning,
                                 GError **error);

/* The help line of --spanning. */
#define NS_CLI_SPANNING_HELP                                                                  \
  "Use a spanning tree of the graph: bfs, dfs, kruskal (the dissertation's random tree) or " \
  "uniform, [:SEED][@ROOT]"

#define NS_CLI_REDUCE_RATE_HELP                                                               \
  "reduce, allreduce: the rate at which a machine combines received data with its own, "      \
  "keeping it busy bytes/rate after each combining receive (docs/simulator.md, \"Reductions "   \
  "and variable sizes\"); 0: free; default 36GBps, MPI_Reduce_local measured"
/* The help line of tune's and compare's --cfg: SimGrid options for the
 * replay and for every smpirun run (sim/smpi_tool.h). */
#define NS_CLI_SMPIRUN_CFG_HELP                                                               \
  "Any SimGrid option (repeatable), for the replay and every smpirun run; yours win over "    \
  "netsched's own, as smpi/auto-shared-malloc-thresh (default 1 MiB, more for a large "      \
  "routine table; docs/tune.md, \"smpirun memory\")"
/* The help line of compare's, design's and sweep's --pattern: a size
 * pattern per row (analysis/experiment_pattern_internal.h). */
#define NS_CLI_PATTERN_AXIS_HELP                                                              \
  "alltoallv, allgatherv: the size pattern, scaled to each message size (uniform, "          \
  "random:SKEW,SEED, nas-is:SEED), or a file or whole generator spec with one message size " \
  "(docs/pattern-format.md, \"Patterns in experiments\")"
#define NS_CLI_EAGER_HELP                                                                     \
  "A send of fewer bytes completes when posted, before it is received (docs/simulator.md, "    \
  "\"Eager and rendezvous\"); default 64KiB, SMPI's smpi/send-is-detached-thresh and Open " \
  "MPI TCP's btl_tcp_eager_limit; 0: every send waits for its receive (rendezvous)"

/* Parses "64KiB" for option `option`; NS_ERROR_INPUT naming the option. */
gboolean ns_cli_parse_size(const char *option, const char *text, uint64_t *bytes,
                           GError **error);

/* Prints the builder's document, pretty, on stdout (JSON outputs for
 * programs: documented in docs/). */
struct _JsonBuilder;
void ns_cli_print_json(struct _JsonBuilder *builder);

/* `bound -c reduce|allreduce` (cli/bound_reduction.c): prints the bound of
 * a reduction of an `msize` vector; 0, or 2 with the usage error in
 * `why_not` (nothing printed). */
int ns_cli_bound_reduction(const NsTopology *t, NsCollective c, uint64_t msize, const char *root,
                           uint64_t segment, gboolean json, char **why_not);

/* Checks, before a long run, that `path` names a file that can be written
 * (created or truncated later by someone else, e.g. SimGrid's trace): not
 * a directory, in a directory that exists and is writable. NS_ERROR_INPUT
 * saying which. Creates nothing. */
gboolean ns_cli_check_writable(const char *path, GError **error);

/* The progress of plan -o and verify FILE (cli/output.c): the shared
 * reporter (analysis/progress_internal.h) on stderr in its AUTO mode — a line
 * redrawn in place on a terminal, a plain line every 10 s in a log. */
typedef struct {
  NsProgress *reporter;
} NsCliProgress;
void ns_cli_progress_init(NsCliProgress *p);
void ns_cli_progress_show(NsCliProgress *p, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void ns_cli_progress_end(NsCliProgress *p);

/* The options every long command shares (--progress, --resume, ...) are
 * analysis/run_options_internal.h's: netsched-mpi's sweep takes them too. */

/* -j: `given` 1 to 4096 worker processes, 0 (not given) the online cores
 * (design, scenario run, compare); else NS_ERROR_INPUT "-j N: ...". */
#define NS_CLI_JOBS_HELP "Worker processes computing rows at once; the output is the same " \
  "for every N (default: the cores)"
gboolean ns_cli_jobs(int given, int *jobs, GError **error);

/* Options whose values go through a callback (GOption gives every
 * callback of a group the same user data): the group's user data is a
 * table of slots ending with { NULL }, each naming its spellings ("-m
 * --msize --msizes": the old spelling accepted as a hidden alias), and
 * ns_cli_option_slot stores each value by the slot's kind. */
typedef enum {
  NS_CLI_ONCE,  /* char **: one value; a second is an error naming both */
  NS_CLI_LIST,  /* char **: repeatable, the values joined by ',' (-m 8KiB -m 1MiB = -m 8KiB,1MiB) */
  NS_CLI_ARRAY, /* GPtrArray * of char *: repeatable, values kept apart (they may hold ',') */
} NsCliSlotKind;
typedef struct {
  const char *names;
  NsCliSlotKind kind;
  void *slot;
} NsCliSlot;
gboolean ns_cli_option_slot(const char *option, const char *value, gpointer data,
                            GError **error);

/* What `compare` runs: every algorithm[:sync] x message size on one
 * topology and model, into OUTDIR/compare.{csv,gp,svg,png}. */
typedef struct {
  char *topology, *format, *spanning, *collective, *algorithms, *msizes, *model, *outdir, *root,
      *segment;
  NsOutdirArgs outdir_args; /* --resume, --overwrite */
  NsProgressArgs progress;
  int queue;      /* packet model: switch queue (packets), 0 = default */
  char *tcp;      /* packet model: TCP variant, NULL = default */
  char *calibration; /* smpi model factors: a calibration file or bundled name */
  double wall_limit; /* seconds per simulation, 0 = none */
  int runs;          /* packet model: simulations per row, 0 = one */
  char *arrival;     /* --arrival SPEC (sim/arrival.h), NULL = none */
  char *eager_threshold; /* --eager-threshold SIZE, NULL = NS_SIM_EAGER_DEFAULT */
  char *reduce_rate;     /* --reduce-rate RATE, NULL = NS_SIM_REDUCE_RATE_DEFAULT */
  char *pattern;         /* --pattern: alltoallv/allgatherv's size pattern axis */
  int jobs;              /* -j: rows at once (0: the cores) */
  char **cfg;            /* --cfg NAME:VALUE (repeatable), NULL = none */
  const struct NsCliNs3Args *ns3; /* the ns3 model's options (cli/cli_sim.h) */
} NsCompareArgs;
int ns_compare_run(const NsCompareArgs *args);

/* netsched generate --decision FILE... --output-format ompi-rules|mpich-csel
 * (cli/generate_rules.c): the exit status. */
int ns_cli_generate_rules(char **decision_files, const char *format, const char *output);
/* tune --for (cli/tune_library.c): "ompi" or "mpich"; the settings file's
 * name in the output directory; the library's algorithms that apply on p
 * machines as tune's comma-separated candidates (NULL: none). */
gboolean ns_cli_library_parse(const char *name, NsMpiLibrary *lib);
const char *ns_cli_library_file(NsMpiLibrary lib);
char *ns_cli_library_candidates(NsMpiLibrary lib, NsCollective collective, int64_t p);
/* The same from tables in memory (tune --for): the exit status. */
int ns_cli_write_rules(NsMpiLibrary lib, const NsDecisionTable *const *tables, guint n,
                       const char *output);

/* Outputs are written whole or not at all (cli/output.c): opens a
 * temporary file beside `path` ("-" or NULL = stdout) that
 * ns_cli_close_output() renames to `path` once everything is written, and
 * ns_cli_abort_output() removes; SIGINT, SIGTERM and SIGHUP remove it too.
 * A failed `plan -o` never leaves an empty or half-written file. */
FILE *ns_cli_open_output(const char *path, GError **error);
gboolean ns_cli_close_output(FILE *f, const char *path, GError **error);
void ns_cli_abort_output(FILE *f);

/* Runs a GOptionContext with the common conventions (--help text, error
 * handling). Returns FALSE after printing the problem. */
gboolean ns_cli_parse(GOptionContext *ctx, int *argc, char ***argv);
/* "alltoall|allgather|...": every collective, for --collective's help
 * (ns_collective_names; built once, kept for the process). */
const char *ns_cli_collective_choices(void);

/* Plans with the registry. `root` names the bcast root machine (NULL:
 * the first machine); `segment` is the bcast segment size in bytes (0: the
 * whole message, no pipelining); `arity` the children per machine of
 * bcast/kary-cf (0: its default). */
NsSchedule *ns_cli_plan(const NsTopology *topo, const char *collective, const char *algorithm,
                        uint64_t msize, const char *root, uint64_t segment, int arity,
                        GError **error);
/* The collective and planner parameters ns_cli_plan checks and plans with
 * (for ns_plan_streamed and ns_verify_planned). FALSE with the error. */
gboolean ns_cli_plan_params(const NsTopology *topo, const char *collective, uint64_t msize,
                            const char *root, uint64_t segment, int arity, NsCollective *c,
                            NsPlanParams *params, GError **error);
/* ns_cli_plan_params for -c, -m, --root, --segment and --arity; the
 * algorithm of -a, or `default_algorithm`, in *algorithm. */
gboolean ns_cli_plan_options_params(const NsTopology *t, const NsPlanOptions *o,
                                    const char *default_algorithm, NsCollective *c,
                                    const char **algorithm, NsPlanParams *params,
                                    GError **error);

#endif
