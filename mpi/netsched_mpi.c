/* netsched-mpi — `netsched sweep` spread over MPI ranks (docs/sweeps.md).
 *
 *   mpirun -np N netsched-mpi sweep SPEC.ini [options of netsched sweep]
 *
 * Every rank parses the same command line and builds the same sweep
 * (analysis/sweep_command.c, the command netsched sweep runs, given the
 * MPI executor below as a parameter). Rank 0 runs the sweep as netsched does — resume, rows
 * written one write(2) each, progress, aggregates, plots — with an executor
 * that hands tasks to the other ranks and computes tasks itself while they
 * work; the other ranks only compute rows and send them to rank 0, so they
 * need no shared file system.
 *
 * Protocol (MPI_COMM_WORLD, point to point):
 *   every rank r > 0 sends rank 0 exactly one HELLO: "ok DIGEST" once it
 *     has built the sweep, or "error MESSAGE" if it could not;
 *   rank 0 checks that every DIGEST is its own (one grid everywhere), then
 *     sends TASK messages (a uint32 task index), at most two ahead per
 *     rank, and receives ROW messages (uint32 task + the row's bytes);
 *   rank 0 sends every rank r > 0 exactly one STOP, after the last row or
 *     when it gives up (bad input, resume refused), having received its
 *     HELLO first, so no rank is ever left waiting.
 * MPI calls stay on one thread per rank (MPI_Init, MPI_THREAD_SINGLE).
 * The ranks compute metrics only: SimGrid's library defines MPI's symbols
 * itself (SMPI), so this program cannot link the simulator.
 */
#include "analysis/sweep_command_internal.h"
#include "analysis/sweep_internal.h"
#include "cli/cli.h"
#include "platforms/model/error.h"
#include <fcntl.h>
#include <locale.h>
#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

enum { TAG_HELLO = 101, TAG_TASK, TAG_ROW, TAG_STOP };
#define AHEAD 2

static int rank, size;
static char **hellos;          /* rank 0: HELLO text per rank, NULL until received */
static gboolean stopped;       /* rank 0: STOP sent to everyone */
static gboolean served;        /* rank > 0: HELLO sent and STOP received */

/* Receives a message of any length from `source` with `tag` (rank 0 may
 * use MPI_ANY_SOURCE); returns it NUL-terminated, its sender in *from. */
static char *receive(int source, int tag, int *from, int *len)
{
  MPI_Status st;
  MPI_Probe(source, tag, MPI_COMM_WORLD, &st);
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  char *buf = g_malloc((gsize)count + 1);
  MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  buf[count] = '\0';
  if (from != NULL)
    *from = st.MPI_SOURCE;
  if (len != NULL)
    *len = count;
  return buf;
}

static void receive_hellos(void)
{
  for (int r = 1; r < size; r++)
    if (hellos[r] == NULL)
      hellos[r] = receive(r, TAG_HELLO, NULL, NULL);
}

static void stop_everyone(void)
{
  if (stopped)
    return;
  receive_hellos();
  for (int r = 1; r < size; r++)
    MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
  stopped = TRUE;
}

static void send_task(int r, guint task, int *queued)
{
  uint32_t t = task;
  MPI_Send(&t, (int)sizeof t, MPI_BYTE, r, TAG_TASK, MPI_COMM_WORLD);
  queued[r]++;
}

/* Rank 0's executor: the other ranks are kept two tasks ahead; rank 0
 * computes the next task itself whenever no row is waiting. */
static gboolean mpi_run(const NsSweep *sw, const guint *tasks, guint n, NsSweepSink sink,
                        void *sink_data, void *self, GError **error)
{
  receive_hellos();
  g_autofree char *mine = g_strdup_printf("ok %s", ns_sweep_digest(sw));
  for (int r = 1; r < size; r++)
    if (strcmp(hellos[r], mine) != 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "MPI rank %d %s: every rank must build the same sweep (same command "
                      "line, same files)",
                      r, g_str_has_prefix(hellos[r], "error ") ? hellos[r] + 6
                                                               : "built another sweep");
      return FALSE;
    }
  int *queued = g_new0(int, size);
  guint next = 0, done = 0;
  for (int k = 0; k < AHEAD; k++)
    for (int r = 1; r < size && next < n; r++)
      send_task(r, tasks[next++], queued);
  GString *row = g_string_new(NULL);
  gboolean ok = TRUE;
  while (ok && done < n) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_ROW, MPI_COMM_WORLD, &flag, &st);
    if (!flag && next < n) { /* nothing waiting: rank 0 works too */
      guint t = tasks[next++];
      g_string_truncate(row, 0);
      ns_sweep_task_row(sw, t, row);
      ok = sink(t, row->str, row->len, sink_data, error);
      done++;
      continue;
    }
    int from = 0, len = 0;
    char *msg = receive(MPI_ANY_SOURCE, TAG_ROW, &from, &len);
    uint32_t t = 0;
    if (len < (int)sizeof t) {
      ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "MPI rank %d sent a malformed row", from);
      ok = FALSE;
    } else {
      memcpy(&t, msg, sizeof t);
      ok = sink(t, msg + sizeof t, (gsize)len - sizeof t, sink_data, error);
      done++;
      queued[from]--;
      if (next < n)
        send_task(from, tasks[next++], queued);
    }
    g_free(msg);
  }
  /* On a failed sink, rows still under way are drained before the STOPs. */
  for (int r = 1; r < size; r++)
    while (queued[r] > 0) {
      g_free(receive(r, TAG_ROW, NULL, NULL));
      queued[r]--;
    }
  g_string_free(row, TRUE);
  g_free(queued);
  stop_everyone();
  return ok;
}


/* Ranks > 0: HELLO, then rows for rank 0 until STOP. */
static void serve(const NsSweep *sw, const char *hello)
{
  MPI_Send(hello, (int)strlen(hello), MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD);
  GString *row = g_string_new(NULL);
  for (;;) {
    MPI_Status st;
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_TAG == TAG_STOP) {
      MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    }
    int len = 0;
    char *msg = receive(0, st.MPI_TAG, NULL, &len);
    uint32_t t = 0;
    if (st.MPI_TAG == TAG_TASK && sw != NULL && len == (int)sizeof t) {
      memcpy(&t, msg, sizeof t);
      g_string_set_size(row, sizeof t);
      memcpy(row->str, &t, sizeof t);
      if (t < ns_sweep_n_tasks(sw))
        ns_sweep_task_row(sw, t, row);
      MPI_Send(row->str, (int)row->len, MPI_BYTE, 0, TAG_ROW, MPI_COMM_WORLD);
    }
    g_free(msg);
  }
  g_string_free(row, TRUE);
  served = TRUE;
}

/* Ranks > 0 serve rank 0's run once they have built the sweep. */
static gboolean serves(const NsSweep *sw, void *self)
{
  if (rank == 0)
    return FALSE;
  g_autofree char *hello = g_strdup_printf("ok %s", ns_sweep_digest(sw));
  serve(sw, hello);
  return TRUE;
}

/* SimGrid's library defines the MPI functions itself (SMPI), which would
 * shadow the real MPI's: this program cannot link the simulator. */
static gboolean no_measure(NsSweep *sw, void *data, GError **error)
{
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "netsched-mpi computes metrics only: it cannot link the simulator (SimGrid's "
                  "library defines MPI's functions itself); measure with netsched sweep "
                  "--shard I/N (or a Slurm job array) instead");
  return FALSE;
}

static void print_warning(const char *message, void *data)
{
  fprintf(stderr, "warning: %s\n", message);
}

static void print_note(const char *message, void *data)
{
  fprintf(stderr, "note: %s\n", message);
}

/* What failed, as netsched sweep says it. */
static int print_failure(NsSweepFailure failure, GError *error)
{
  int status = ns_error_exit_status(error);
  if (failure == NS_SWEEP_USAGE)
    fprintf(stderr, "netsched sweep: %s\nTry 'netsched sweep --help'.\n", error->message);
  else
    fprintf(stderr, "netsched: %s\n%s", error->message,
            failure == NS_SWEEP_BAD_OPTION ? "Try '--help'.\n" : "");
  g_error_free(error);
  return status;
}

int main(int argc, char **argv)
{
  setlocale(LC_ALL, "");
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank > 0 && g_getenv("NETSCHED_MPI_VERBOSE") == NULL) {
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC); /* rank 0 speaks for everyone */
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
      close(null);
    }
  }
  int status = 2;
  if (argc < 2 || strcmp(argv[1], "sweep") != 0 || (argc > 2 && strcmp(argv[2], "merge") == 0)) {
    if (rank == 0)
      fprintf(stderr, "Usage: mpirun -np N netsched-mpi sweep [SPEC.ini] [OPTIONS...]\n"
                      "(the options of 'netsched sweep'; 'netsched sweep merge' runs without "
                      "MPI)\n");
  } else {
    hellos = g_new0(char *, size);
    NsSweepExecutor executor = { .name = "MPI ranks", .run = mpi_run, .workers = size,
                                 .serves = serves };
    NsSweepCommandHooks hooks = { .executor = &executor, .install_measure = no_measure,
                                  .warn = print_warning, .note = print_note,
                                  .report = stdout, .progress = stderr };
    NsSweepFailure failure;
    GError *error = NULL;
    status = ns_sweep_command(argc - 1, argv + 1, &hooks, &failure, &error);
    if (status != 0 && error != NULL)
      status = print_failure(failure, error);
    if (rank == 0) {
      stop_everyone();
    } else if (!served) { /* this rank could not build the sweep: say so, wait for STOP */
      serve(NULL, "error could not build the sweep (run it with netsched sweep to see why)");
    }
    for (int r = 0; r < size; r++)
      g_free(hellos[r]);
    g_free(hellos);
  }
  MPI_Finalize();
  return status;
}
