/* netsched — `bound -c reduce|allreduce`: the lower bound of a reduction
 * of an --msize vector, fluid and, with --segment, in whole segments
 * (sched/bound/lower_bound.h, ns_lower_bound_reduction; docs/verify.md,
 * "Bounds of the reductions"). */
#include "cli/cli.h"
#include "platforms/model/units.h"
#include "sched/bound/lower_bound.h"
#include <json-glib/json-glib.h>
#include <stdio.h>

/* What the bound of each collective counts, in words (text and JSON). */
static const char *model_of(NsCollective c)
{
  return c == NS_COLL_REDUCE
             ? "every machine but the root sends its contribution to every segment, the root "
               "receives every segment, every cut carries every segment towards the root"
             : "every machine sends its contribution to and receives every segment, every cut "
               "carries every segment both ways, and the machines together send each segment "
               "2(P-1) times (one-way gossip: 2(P-1)/P of the vector through some machine, "
               "Patarasuk & Yuan 2009)";
}

/**
 * \function ns_cli_bound_reduction
 * \brief Prints the reduce or all-reduce bound of `bound` (text or JSON).
 *
 * \param t The topology.
 * \param c NS_COLL_REDUCE or NS_COLL_ALLREDUCE.
 * \param msize The vector's bytes.
 * \param root --root (reduce; NULL: the first machine).
 * \param segment --segment bytes (0: none).
 * \param json Print JSON.
 * \param why Set (newly allocated) to the usage error when the options do not fit.
 * \return 0 when printed, 2 (nothing printed, `why` set) for an unknown --root or a
 *         --segment larger than --msize.
 * \errors `option: what` in `why`; the caller reports it as a usage error (exit 2).
 * \complexity Twice ns_lower_bound().
 * \source docs/verify.md, "Bounds of the reductions".
 */
int ns_cli_bound_reduction(const NsTopology *t, NsCollective c, uint64_t msize, const char *root,
                           uint64_t segment, gboolean json, char **why_not)
{
  int r = 0;
  if (c == NS_COLL_REDUCE && root != NULL && (r = ns_topology_find_machine(t, root)) < 0) {
    *why_not = g_strdup_printf("--root: no machine '%s' in the topology", root);
    return 2;
  }
  g_autofree char *size = ns_format_size(msize);
  if (segment > msize) {
    g_autofree char *seg = ns_format_size(segment);
    *why_not = g_strdup_printf("--segment: %s is larger than the vector (--msize %s)", seg, size);
    return 2;
  }
  NsLowerBound fluid, best;
  ns_lower_bound_reduction(t, c, msize, 0, r, &fluid);
  ns_lower_bound_reduction(t, c, msize, segment, r, &best);
  uint64_t whole = segment > 0 ? msize / segment : 0;
  g_autofree char *why = ns_lower_bound_describe(t, &best);
  if (json) {
    g_autoptr(JsonBuilder) j = json_builder_new();
    json_builder_begin_object(j);
    ns_cli_bound_json_head(j, t, ns_collective_name(c), msize);
    if (c == NS_COLL_REDUCE) {
      json_builder_set_member_name(j, "root");
      json_builder_add_string_value(j, ns_topology_machine_name(t, r));
    }
    json_builder_set_member_name(j, "segment_bytes");
    json_builder_add_int_value(j, (gint64)segment);
    json_builder_set_member_name(j, "segments");
    json_builder_add_int_value(j, (gint64)whole);
    json_builder_set_member_name(j, "lower_bound_s");
    json_builder_add_double_value(j, best.seconds);
    json_builder_set_member_name(j, "fluid_s");
    json_builder_add_double_value(j, fluid.seconds);
    json_builder_set_member_name(j, "bottleneck");
    json_builder_add_string_value(j, why);
    json_builder_set_member_name(j, "load");
    if (best.load > 0)
      json_builder_add_int_value(j, (gint64)best.load);
    else
      json_builder_add_null_value(j);
    json_builder_set_member_name(j, "model");
    json_builder_add_string_value(j, model_of(c));
    json_builder_end_object(j);
    ns_cli_print_json(j);
    return 0;
  }
  printf("topology           %s (%d machines), %s of %s", ns_topology_source(t),
         ns_topology_n_machines(t), ns_collective_name(c), size);
  if (c == NS_COLL_REDUCE)
    printf(" to %s", ns_topology_machine_name(t, r));
  if (whole > 0) {
    g_autofree char *seg = ns_format_size(segment);
    printf(", %" G_GUINT64_FORMAT " whole segment%s of %s", whole, whole == 1 ? "" : "s", seg);
  }
  printf("\nlower bound        %.6f s: %s\n", best.seconds, why);
  printf("fluid bound        %.6f s (the vector divisible)\n", fluid.seconds);
  printf("model              %s\n", model_of(c));
  return 0;
}
