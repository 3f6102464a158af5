/* netsched — the planning options shared by plan, verify and simulate:
 * -T -f (topology), -c -a (collective, algorithm), -m (message size),
 * -r -s --arity (broadcast root, segment, k-ary arity), --pattern (the
 * sizes of alltoallv and allgatherv: sched/ir/pattern.h). */
#include "cli/cli.h"
#include "platforms/model/error.h"
#include "sched/planners/registry.h"
#include "sched/io/schedule_json.h"
#include "sched/io/schedule_stream.h"

void ns_cli_add_plan_options(GOptionContext *ctx, NsPlanOptions *o)
{
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_FILENAME, &o->topology, "Topology file or gen:SPEC", "T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &o->format, "Topology format (default: guessed)",
      "native|slurm|graphml|simgrid[:OPT]" },
    { "spanning", 0, 0, G_OPTION_ARG_STRING, &o->spanning, NS_CLI_SPANNING_HELP,
      "METHOD[:SEED][@ROOT]" },
    { "collective", 'c', 0, G_OPTION_ARG_STRING, &o->collective,
      "Collective to plan (default alltoall)", ns_cli_collective_choices() },
    { "algorithm", 'a', 0, G_OPTION_ARG_STRING, &o->algorithm,
      "Algorithm to plan with (netsched plan --list)", "NAME" },
    { "msize", 'm', 0, G_OPTION_ARG_STRING, &o->msize,
      "Message size: per pair (alltoall), per machine (allgather), whole (bcast), the vector "
      "(reduce, allreduce); default 64KiB",
      "SIZE" },
    { "root", 'r', 0, G_OPTION_ARG_STRING, &o->root, "bcast, reduce: root machine (default the first)",
      "MACHINE" },
    { "segment", 's', 0, G_OPTION_ARG_STRING, &o->segment,
      "bcast, reduce, allreduce: pipeline segment size (default: no pipelining)", "SIZE" },
    { "arity", 0, 0, G_OPTION_ARG_INT, &o->arity,
      "bcast/kary-cf: children per machine (default 3); bcast/knomial: radix (default 4)", "K" },
    { "pattern", 0, 0, G_OPTION_ARG_FILENAME, &o->pattern,
      "alltoallv/allgatherv: the sizes, a pattern file (docs/pattern-format.md) or "
      "uniform:SIZE, random:AVG,SKEW,SEED, nas-is:KEYS,SEED",
      "FILE|SPEC" },
    { NULL },
  };
  /* GOption copies the entries; the variables they point to are *o. */
  g_option_context_add_main_entries(ctx, entries, NULL);
}

void ns_cli_plan_options_clear(NsPlanOptions *o)
{
  g_free(o->topology);
  g_free(o->format);
  g_free(o->spanning);
  g_free(o->collective);
  g_free(o->algorithm);
  g_free(o->msize);
  g_free(o->root);
  g_free(o->segment);
  g_free(o->pattern);
  ns_size_pattern_free(o->pattern_loaded);
  *o = (NsPlanOptions){ 0 };
}

gboolean ns_cli_plan_sizes(const NsPlanOptions *o, uint64_t *msize, uint64_t *segment,
                           GError **error)
{
  *msize = 65536;
  *segment = 0;
  return (o->msize == NULL || ns_cli_parse_size("--msize", o->msize, msize, error)) &&
         (o->segment == NULL || ns_cli_parse_size("--segment", o->segment, segment, error));
}

NsTopology *ns_cli_plan_topology(const NsPlanOptions *o, GError **error)
{
  return ns_cli_load_topology(o->topology, o->format, o->spanning, error);
}

/* --pattern into params->pattern: loaded once, then kept by the options
 * (they are the pattern's owner, whatever the const of their readers). */
static gboolean plan_pattern(const NsTopology *t, const NsPlanOptions *o, NsCollective c,
                             NsPlanParams *params, GError **error)
{
  NsPlanOptions *owner = (NsPlanOptions *)o;
  if (o->pattern == NULL)
    return TRUE;
  if (!ns_collective_is_vector(c)) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                "--pattern: only alltoallv and allgatherv take a size pattern (not %s)",
                ns_collective_name(c));
    return FALSE;
  }
  if (o->pattern_loaded == NULL) {
    owner->pattern_loaded =
        ns_size_pattern_load(o->pattern, c, ns_topology_n_machines(t), error);
    if (o->pattern_loaded == NULL)
      return FALSE;
  }
  params->pattern = o->pattern_loaded;
  return TRUE;
}

gboolean ns_cli_plan_options_params(const NsTopology *t, const NsPlanOptions *o,
                                    const char *default_algorithm, NsCollective *c,
                                    const char **algorithm, NsPlanParams *params,
                                    GError **error)
{
  uint64_t msize, segment;
  *algorithm = o->algorithm ? o->algorithm : default_algorithm;
  return ns_cli_plan_sizes(o, &msize, &segment, error) &&
         ns_cli_plan_params(t, o->collective ? o->collective : "alltoall", msize, o->root,
                            segment, o->arity, c, params, error) &&
         plan_pattern(t, o, *c, params, error);
}

NsSchedule *ns_cli_plan_schedule(const NsTopology *t, const NsPlanOptions *o,
                                 const char *default_algorithm, GError **error)
{
  NsCollective c;
  const char *algorithm;
  NsPlanParams params;
  if (!ns_cli_plan_options_params(t, o, default_algorithm, &c, &algorithm, &params, error))
    return NULL;
  return ns_plan(t, c, algorithm, &params, error);
}

gboolean ns_cli_topology_and_schedule(const NsPlanOptions *o, const char *file, NsTopology **topo,
                                      NsSchedule **schedule, GError **error)
{
  *topo = ns_cli_plan_topology(o, error);
  if (*topo == NULL)
    return FALSE;
  /* a file is read up to what its collective can need on the topology's
   * machines (sched/io/schedule_stream.h, limits): a bomb is refused, not held */
  NsScheduleLimits limits = { .need = TRUE,
                              .max_machines = (uint32_t)ns_topology_n_machines(*topo) };
  *schedule = o->algorithm != NULL ? ns_cli_plan_schedule(*topo, o, NULL, error)
                                   : ns_schedule_load_limited(file, &limits, error);
  return *schedule != NULL;
}
