/* netsched — SMPI's own collectives as baselines (see smpi_baseline.h). */
#include "sim/smpi_baseline.h"
#include "sim/smpi_files.h"
#include "sim/smpi_tool.h"
#include "analysis/bounds_collective.h"
#include "platforms/model/error.h"
#include "platforms/io/output_file_internal.h"
#include "platforms/io/topology_simgrid.h"
#include "sim/child.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The algorithms SMPI 3.32 ships (src/smpi/colls; the list its
 * "has no algorithm" error prints), "automatic" left out: it runs them all. */
static const char *const alltoall_algos[] = {
  "default", "2dmesh", "3dmesh", "basic_linear", "bruck", "pair", "pair_rma",
  "pair_light_barrier", "pair_mpi_barrier", "pair_one_barrier", "rdb", "ring",
  "ring_light_barrier", "ring_mpi_barrier", "ring_one_barrier", "mvapich2",
  "mvapich2_scatter_dest", "ompi", "mpich", "impi", NULL,
};
static const char *const allgather_algos[] = {
  "default", "2dmesh", "3dmesh", "bruck", "GB", "loosely_lr", "NTSLR", "NTSLR_NB", "pair", "rdb",
  "rhv", "ring", "SMP_NTS", "smp_simple", "spreading_simple", "ompi", "ompi_neighborexchange",
  "mvapich2", "mvapich2_smp", "mpich", "impi", NULL,
};
static const char *const bcast_algos[] = {
  "default", "arrival_pattern_aware", "arrival_pattern_aware_wait", "arrival_scatter",
  "binomial_tree", "flattree", "flattree_pipeline", "NTSB", "NTSL", "NTSL_Isend",
  "scatter_LR_allgather", "scatter_rdb_allgather", "SMP_binary", "SMP_binomial", "SMP_linear",
  "ompi", "ompi_split_bintree", "ompi_pipeline", "mpich", "mvapich2", "mvapich2_inter_node",
  "mvapich2_intra_node", "mvapich2_knomial_intra_node", "impi", NULL,
};
static const char *const allreduce_algos[] = {
  "default", "lr", "rab1", "rab2", "rab_rdb", "rdb", "smp_binomial", "smp_binomial_pipeline",
  "smp_rdb", "smp_rsag", "smp_rsag_lr", "smp_rsag_rab", "redbcast", "ompi",
  "ompi_ring_segmented", "mpich", "mvapich2", "mvapich2_rs", "mvapich2_two_level", "impi", "rab",
  NULL,
};
static const char *const selectors[] = { "ompi", "mpich", "mvapich2", "impi", "default", NULL };

#define SELECTOR "coll-selector="

static const char *const *algorithms_of(NsCollective c)
{
  switch (c) {
  case NS_COLL_ALLTOALL:
    return alltoall_algos;
  case NS_COLL_ALLGATHER:
    return allgather_algos;
  case NS_COLL_ALLREDUCE:
    return allreduce_algos;
  default:
    return bcast_algos;
  }
}

static gboolean listed(const char *const *names, const char *name)
{
  for (int i = 0; names[i] != NULL; i++)
    if (strcmp(names[i], name) == 0)
      return TRUE;
  return FALSE;
}

gboolean ns_smpi_baseline_check(NsCollective c, const char *spec, GError **error)
{
  if (g_str_has_prefix(spec, SELECTOR) ? listed(selectors, spec + strlen(SELECTOR))
                                       : listed(algorithms_of(c), spec))
    return TRUE;
  g_autofree char *shown = g_strescape(spec, NULL);
  g_autofree char *algos = g_strjoinv(", ", (char **)algorithms_of(c));
  g_autofree char *sels = g_strjoinv(", ", (char **)selectors);
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "unknown SMPI baseline 'smpi:%s' for %s (SMPI 3.32 ships smpi:ALGO with ALGO "
                  "one of %s; or smpi:coll-selector=NAME with NAME one of %s)",
                  shown, ns_collective_name(c), algos, sels);
  return FALSE;
}

/* The timing program: one collective of MSIZE bytes; every rank prints
 * when it started and ended (simulated time). Buffers are SMPI's shared
 * allocations, so memory does not grow with ranks × message size. */
static const char timing_source[] =
  "#include <mpi.h>\n"
  "#include <stdio.h>\n"
  "#include <stdlib.h>\n"
  "#include <string.h>\n"
  "int main(int argc, char **argv)\n"
  "{\n"
  "  MPI_Init(&argc, &argv);\n"
  "  int rank, size;\n"
  "  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
  "  MPI_Comm_size(MPI_COMM_WORLD, &size);\n"
  "  if (argc < 4) MPI_Abort(MPI_COMM_WORLD, 2);\n"
  "  const char *coll = argv[1];\n"
  "  int count = atoi(argv[2]), root = atoi(argv[3]);\n"
  "  size_t n = (size_t)count;\n"
  "  char *out = SMPI_SHARED_MALLOC(n * (size_t)size + 1);\n"
  "  char *in = SMPI_SHARED_MALLOC(n * (size_t)size + 1);\n"
  "  double t0 = MPI_Wtime();\n"
  "  if (strcmp(coll, \"alltoall\") == 0)\n"
  "    MPI_Alltoall(out, count, MPI_CHAR, in, count, MPI_CHAR, MPI_COMM_WORLD);\n"
  "  else if (strcmp(coll, \"allgather\") == 0)\n"
  "    MPI_Allgather(out, count, MPI_CHAR, in, count, MPI_CHAR, MPI_COMM_WORLD);\n"
  "  else if (strcmp(coll, \"allreduce\") == 0)\n"
  "    MPI_Allreduce(out, in, count, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);\n"
  "  else\n"
  "    MPI_Bcast(in, count, MPI_CHAR, root, MPI_COMM_WORLD);\n"
  "  double t1 = MPI_Wtime();\n"
  "  printf(\"rank %d start %.9f end %.9f\\n\", rank, t0, t1);\n"
  "  SMPI_SHARED_FREE(out);\n"
  "  SMPI_SHARED_FREE(in);\n"
  "  MPI_Finalize();\n"
  "  return 0;\n"
  "}\n";

/* The compiled program, once per process (a forked worker of design -j
 * compiles its own or inherits the parent's). */
static GBytes *compiled;

/* Puts the timing program into dir/time: compiled there the first time. */
static gboolean place_program(const char *dir, GError **error)
{
  g_autofree char *exe = g_build_filename(dir, "time", NULL);
  if (compiled == NULL) {
    if (!ns_output_write_in(dir, "time.c", timing_source, -1, error))
      return FALSE;
    const char *argv[] = { "smpicc", "-O1", "time.c", "-o", "time", NULL };
    g_autoptr(GString) out = g_string_new(NULL);
    if (!ns_smpi_run_tool(argv, dir, 600, out, error))
      return FALSE;
    gchar *data = NULL;
    gsize len = 0;
    if (!g_file_get_contents(exe, &data, &len, error))
      return FALSE;
    compiled = g_bytes_new_take(data, len);
    return TRUE;
  }
  gsize len = 0;
  const char *data = g_bytes_get_data(compiled, &len);
  int fd = open(exe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0700);
  gboolean ok = fd >= 0 && ns_write_all(fd, data, len);
  int e = errno;
  if (fd >= 0 && close(fd) != 0 && ok) {
    e = errno;
    ok = FALSE;
  }
  if (!ok)
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: cannot write: %s", exe, g_strerror(e));
  return ok;
}

gboolean ns_smpi_baseline_measure(const NsTopology *topo, NsCollective c, const char *spec,
                                  uint64_t msize, int root, const NsSimOptions *opt,
                                  double *completion, GError **error)
{
  gboolean calibrated = opt->lat_factor != NULL || opt->bw_factor != NULL;
  if (opt->model != NS_MODEL_SMPI && !calibrated) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "smpi:%s is measured by smpirun under SMPI's network model: use the smpi "
                    "model, not %s", spec, ns_net_model_name(opt->model));
    return FALSE;
  }
  if (!ns_smpi_baseline_check(c, spec, error))
    return FALSE;
  if (msize > (uint64_t)G_MAXINT32) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "smpi:%s: %" G_GUINT64_FORMAT " bytes do not fit MPI's int count", spec,
                    msize);
    return FALSE;
  }
  NsSignalGuard guard;
  ns_signals_catch(&guard);
  g_autofree char *dir = g_dir_make_tmp("netsched-smpi-XXXXXX", error);
  int p = ns_topology_n_machines(topo);
  g_autofree const char **hosts = g_new(const char *, (gsize)p + 1);
  for (int m = 0; m < p; m++)
    hosts[m] = ns_topology_machine_name(topo, m);
  /* the topology's own routes: SMPI's algorithm, not a schedule of netsched's */
  NsSimGridExport exp = { .store_forward_packet = opt->store_forward_packet };
  gboolean ok = dir != NULL && place_program(dir, error) &&
                ns_smpi_write_platform(dir, "platform.xml", topo, &exp, error) &&
                ns_smpi_write_hostfile(dir, "hostfile", hosts, p, error);
  if (ok) {
    g_autofree char *np = g_strdup_printf("%d", p);
    g_autofree char *count = g_strdup_printf("%" G_GUINT64_FORMAT, msize);
    g_autofree char *root_rank = g_strdup_printf("%d", root);
    g_autofree char *algo =
        g_str_has_prefix(spec, SELECTOR)
            ? g_strdup_printf("--cfg=smpi/coll-selector:%s", spec + strlen(SELECTOR))
            : g_strdup_printf("--cfg=smpi/%s:%s", ns_collective_name(c), spec);
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
    /* SMPI's copies of the program go to the private directory too
     * (smpirun 3.32's -tmpdir takes the directory for the program:
     * the option is given as SimGrid's, after smpirun's own). */
    g_autofree char *tmpdir = g_strdup_printf("--cfg=smpi/tmpdir:%s", dir);
    const char *fixed[] = { "smpirun", "-np", np, "-platform", "platform.xml", "-hostfile",
                            "hostfile", "./time", ns_collective_name(c), count, root_rank,
                            tmpdir, algo, "--cfg=smpi/simulate-computation:no",
                            "--log=root.thres:warning" };
    for (gsize i = 0; i < G_N_ELEMENTS(fixed); i++)
      g_ptr_array_add(argv, g_strdup(fixed[i]));
    ns_sim_model_cfg(argv, opt); /* the replay's SMPI settings (smpi or a calibration) */
    /* a timing run: ./time reads none of the data it moves */
    ns_smpi_timing_args(argv, opt, 0, 0, msize);
    g_ptr_array_add(argv, NULL);
    g_autoptr(GString) out = g_string_new(NULL);
    ok = ns_smpi_run_tool((const char *const *)argv->pdata, dir, opt->wall_limit, out, error) &&
         ns_smpi_parse_times(out->str, p, completion, error);
  }
  if (dir != NULL)
    ns_child_remove_tree(dir);
  ns_signals_release(&guard);
  return ok;
}

gboolean ns_smpi_baselines_check(const GArray *variants, NsCollective c, const NsSimOptions *opt,
                                 GError **error)
{
  for (guint i = 0; i < variants->len; i++) {
    const NsVariant *v = &g_array_index(variants, NsVariant, i);
    if (!v->external)
      continue;
    if (!ns_smpi_baseline_check(c, v->algorithm + strlen(NS_VARIANT_EXTERNAL_PREFIX), error))
      return FALSE;
    if (opt != NULL && opt->model != NS_MODEL_SMPI && opt->lat_factor == NULL &&
        opt->bw_factor == NULL) {
      g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                  "%s is measured by smpirun under SMPI's network model: use --model smpi, "
                  "not %s", v->label, ns_net_model_name(opt->model));
      return FALSE;
    }
  }
  return TRUE;
}

gboolean ns_smpi_baseline_row(const NsTopology *topo, const NsSchedule *s, const NsVariant *v,
                              uint64_t msize, NsMeasure *out, const NsSimOptions *opt,
                              GError **error)
{
  int root = s->root >= 0 ? ns_topology_find_machine(topo, s->machines[s->root]) : 0;
  double t = 0;
  if (!ns_smpi_baseline_measure(topo, s->collective,
                                v->algorithm + strlen(NS_VARIANT_EXTERNAL_PREFIX), msize,
                                MAX(root, 0), opt, &t, error))
    return FALSE;
  *out = (NsMeasure){ .completion_s = t, .min_s = t, .max_s = t, .runs = 1,
                      .bound_s = ns_collective_bound(topo, s, s->msize),
                      .throughput_bps = t > 0 ? ns_collective_required_bytes(s, s->msize) * 8.0 / t
                                              : 0,
                      .valid = FALSE /* no schedule of netsched's was verified */ };
  g_strlcpy(out->sync, "smpirun", sizeof out->sync);
  return TRUE;
}
