/* netsched — a generated routine measured under smpirun with Figure 4.3's
 * timing loops (see smpi_routine.h; Faraj's dissertation §4.1.1.2). */
#include "sim/smpi_routine.h"
#include "analysis/bounds_collective.h"
#include "platforms/io/output_file_internal.h"
#include "platforms/model/error.h"
#include "sched/lower/routine_internal.h"
#include "sim/child.h"
#include "sim/smpi_files.h"
#include "sim/smpi_tool.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

/* The driver: the runtime (ns_routine_c_append_runtime), then this main.
 *   driver TABLE BLOCK ITERATIONS GAP COMPUTE_S
 * GAP is NsIterationGap's value: 0 nothing, 1 a barrier, 2 a computation
 * of COMPUTE_S simulated seconds before each invocation. */
static const char driver_main[] =
  "/* ==== netsched tune's smpirun driver (Figure 4.3's timing loops) ==== */\n"
  "#include <stdlib.h>\n"
  "#include <time.h>\n"
  "static void simulated_sleep(double s)\n"
  "{\n"
  "  if (s <= 0) return;\n"
  "  struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };\n"
  "  nanosleep(&ts, NULL);\n"
  "}\n"
  "int main(int argc, char **argv)\n"
  "{\n"
  "  MPI_Init(&argc, &argv);\n"
  "  int rank, size;\n"
  "  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
  "  MPI_Comm_size(MPI_COMM_WORLD, &size);\n"
  "  if (argc != 6) MPI_Abort(MPI_COMM_WORLD, 2);\n"
  "  char why[512];\n"
  "  NsrRoutine *r = nsr_routine_load(argv[1], why, sizeof why);\n"
  "  if (r == NULL || nsr_routine_size(r) != size) {\n"
  "    fprintf(stderr, \"rank %d: %s\\n\", rank, r == NULL ? why : \"table for another size\");\n"
  "    MPI_Abort(MPI_COMM_WORLD, 2);\n"
  "  }\n"
  "  size_t block = (size_t)strtoull(argv[2], NULL, 10);\n"
  "  int iterations = atoi(argv[3]), gap = atoi(argv[4]);\n"
  "  double compute = strtod(argv[5], NULL);\n"
  "  size_t n = nsr_routine_collective(r) == NSR_BCAST ? block : (size_t)size * block;\n"
  "  char *out = SMPI_SHARED_MALLOC(n + 1), *in = SMPI_SHARED_MALLOC(n + 1);\n"
  "  int rc = nsr_routine_run(r, out, in, block, NULL, MPI_COMM_WORLD);\n"
  "  double now = MPI_Wtime(), latest;\n"
  "  MPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);\n"
  "  simulated_sleep(latest + 0.01 - MPI_Wtime()); /* start together */\n"
  "  double t0 = MPI_Wtime();\n"
  "  for (int i = 0; i < iterations; i++) {\n"
  "    if (gap == 1) MPI_Barrier(MPI_COMM_WORLD);\n"
  "    else if (gap == 2) simulated_sleep(compute);\n"
  "    rc |= nsr_routine_run(r, out, in, block, NULL, MPI_COMM_WORLD);\n"
  "  }\n"
  "  double t1 = MPI_Wtime();\n"
  "  if (rc != MPI_SUCCESS)\n"
  "    fprintf(stderr, \"rank %d: nsr_routine_run failed (%d)\\n\", rank, rc);\n"
  "  printf(\"rank %d start %.9f end %.9f\\n\", rank, t0, t1);\n"
  "  SMPI_SHARED_FREE(out);\n"
  "  SMPI_SHARED_FREE(in);\n"
  "  nsr_routine_free(r);\n"
  "  MPI_Finalize();\n"
  "  return rc != MPI_SUCCESS;\n"
  "}\n";

G_STATIC_ASSERT(NS_ITERATION_NOTHING == 0 && NS_ITERATION_BARRIER == 1 &&
                NS_ITERATION_COMPUTE == 2);

uint64_t ns_smpi_routine_sync_block(const NsRoutine *routine, const NsRoutineOptions *ro)
{
  /* A message costs the table at least two bytes: a release is a machine
   * and a send index, a light receive's op a peer, a payload, a ready
   * index and a release count (mpi/runtime/ns_routine.c, rd_op). */
  return ((uint64_t)routine->table->len / 2 + 1) * ro->sync_size;
}

void ns_smpi_routine_runner_init(NsSmpiRoutineRunner *r, const NsSimOptions *opt,
                                 const char *parent)
{
  /* absolute: smpirun runs in the private directory and is told its path */
  *r = (NsSmpiRoutineRunner){ .opt = opt, .parent = g_canonicalize_filename(parent, NULL) };
}

void ns_smpi_routine_runner_clear(NsSmpiRoutineRunner *r)
{
  if (r->dir != NULL)
    ns_child_remove_tree(r->dir);
  g_clear_pointer(&r->dir, g_free);
  g_clear_pointer(&r->parent, g_free);
}

/* The private directory and the compiled driver in it, the first time. */
static gboolean prepare(NsSmpiRoutineRunner *r, GError **error)
{
  if (r->dir != NULL)
    return TRUE;
  char *dir = g_build_filename(r->parent, ".smpirun-XXXXXX", NULL);
  if (g_mkdtemp_full(dir, 0700) == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: cannot create: %s", dir,
                    g_strerror(errno));
    g_free(dir);
    return FALSE;
  }
  r->dir = dir;
  GString *src = g_string_new(NULL);
  ns_routine_c_append_runtime(src);
  g_string_append(src, driver_main);
  gboolean ok = ns_output_write_in(dir, "driver.c", src->str, (gssize)src->len, error);
  g_string_free(src, TRUE);
  const char *argv[] = { "smpicc", "-O1", "driver.c", "-o", "driver", NULL };
  g_autoptr(GString) out = g_string_new(NULL);
  if (ok && ns_smpi_run_tool(argv, dir, 600, out, error))
    return TRUE;
  ns_child_remove_tree(dir); /* the next measurement tries again */
  g_clear_pointer(&r->dir, g_free);
  return FALSE;
}

gboolean ns_smpi_routine_measure(const NsTopology *topo, const NsSchedule *s, const NsVariant *v,
                                 uint64_t msize, const NsRowFacts *facts, NsMeasure *out,
                                 void *user, GError **error)
{
  NsSmpiRoutineRunner *r = user;
  const NsSimOptions *opt = r->opt;
  (void)facts;
  if (opt->model != NS_MODEL_SMPI && opt->lat_factor == NULL && opt->bw_factor == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "a routine under smpirun runs on SMPI's network model: use the smpi model, "
                    "not %s", ns_net_model_name(opt->model));
    return FALSE;
  }
  NsRoutineOptions ro;
  ns_routine_options_init(&ro);
  ro.eager_threshold = opt->eager_threshold; /* the routine sends as the replay does */
  NsSyncScheme scheme;
  if (v->sync != NULL && !ns_sync_scheme_parse(v->sync, &scheme, error))
    return FALSE;
  ro.scheme = v->sync != NULL ? &scheme : NULL;
  g_autoptr(NsRoutine) routine = ns_routine_build(topo, s, &ro, error);
  if (routine == NULL)
    return FALSE;
  NsSignalGuard guard;
  ns_signals_catch(&guard);
  double t = 0;
  gboolean ok = prepare(r, error) &&
                ns_output_write_in(r->dir, "routine.nsr", (const char *)routine->table->data,
                                   (gssize)routine->table->len, error) &&
                ns_smpi_write_schedule_platform(r->dir, "platform.xml", topo, s, error) &&
                ns_smpi_write_hostfile(r->dir, "hostfile", (const char *const *)s->machines,
                                       s->n_machines, error);
  if (ok) {
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
    char compute[G_ASCII_DTOSTR_BUF_SIZE];
    g_ascii_formatd(compute, sizeof compute, "%.17g", opt->iteration_compute_s);
    const char *fixed[] = { "smpirun", "-np", NULL, "-platform", "platform.xml", "-hostfile",
                            "hostfile", "./driver", "routine.nsr", NULL, NULL, NULL, compute,
                            "--cfg=smpi/simulate-computation:no", "--log=root.thres:warning" };
    for (gsize i = 0; i < G_N_ELEMENTS(fixed); i++)
      g_ptr_array_add(argv, g_strdup(fixed[i]));
    argv->pdata[2] = g_strdup_printf("%d", s->n_machines);
    argv->pdata[9] = g_strdup_printf("%" G_GUINT64_FORMAT, msize);
    argv->pdata[10] = g_strdup_printf("%d", MAX(opt->iterations, 1));
    argv->pdata[11] = g_strdup_printf("%d", (int)opt->iteration_gap);
    /* SMPI's copies of the program go to the private directory too */
    g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/tmpdir:%s", r->dir));
    ns_sim_model_cfg(argv, opt); /* the replay's SMPI settings (smpi or a calibration) */
    /* a timing run: the driver reads its table and its sync messages,
     * never the data it moves */
    ns_smpi_timing_args(argv, opt, routine->table->len, ns_smpi_routine_sync_block(routine, &ro),
                        msize);
    g_ptr_array_add(argv, NULL);
    g_autoptr(GString) text = g_string_new(NULL);
    ok = ns_smpi_run_tool((const char *const *)argv->pdata, r->dir, opt->wall_limit, text,
                          error) &&
         ns_smpi_parse_times(text->str, s->n_machines, &t, error);
    r->runs++;
  }
  if (ns_stop_signal() != 0 && r->dir != NULL) { /* leave nothing behind */
    ns_child_remove_tree(r->dir);
    g_clear_pointer(&r->dir, g_free);
  }
  ns_signals_release(&guard);
  if (!ok)
    return FALSE;
  *out = (NsMeasure){ .completion_s = t, .min_s = t, .max_s = t, .runs = 1,
                      .bound_s = ns_collective_bound(topo, s, s->msize),
                      .throughput_bps = t > 0 ? ns_collective_required_bytes(s, s->msize) * 8.0 /
                                                    t
                                              : 0,
                      .valid = TRUE /* ns_routine_build verified s */ };
  g_strlcpy(out->sync, routine->scheme_name, sizeof out->sync);
  return TRUE;
}
