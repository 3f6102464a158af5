/* netsched bound — theoretical bounds of the all-to-all on a topology. */
#include "analysis/bounds.h"
#include "analysis/bounds_allgather.h"
#include "analysis/bounds_bcast.h"
#include "analysis/bounds_tamwang.h"
#include "sched/planners/registry.h"
#include "cli/cli.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include <json-glib/json-glib.h>
#include <string.h>

/* NsBoundKind in the JSON documents. */
static const char *const bound_kinds[] = { "port-send", "port-receive", "link", "bisection",
                                           "block" };

static void print_json(const NsTopology *t, const NsA2ABound *b, uint64_t msize)
{
  g_autoptr(JsonBuilder) j = json_builder_new();
  g_autofree char *routing = ns_topology_routing_describe(t);
  g_autofree char *why = ns_lower_bound_describe(t, &b->bound);
  json_builder_begin_object(j);
#define MEMBER(name, kind, value) \
  do { json_builder_set_member_name(j, name); json_builder_add_##kind##_value(j, value); } while (0)
  MEMBER("format", string, "netsched-bound");
  MEMBER("version", int, 2);
  MEMBER("collective", string, "alltoall");
  MEMBER("topology", string, ns_topology_source(t));
  MEMBER("machines", int, ns_topology_n_machines(t));
  MEMBER("routing", string, ns_routing_kind_name(ns_topology_routing(t)));
  MEMBER("routing_rule", string, routing);
  MEMBER("msize_bytes", int, (gint64)msize);
  MEMBER("bottleneck", string, why);
  MEMBER("bottleneck_kind", string, bound_kinds[b->bound.kind]);
  json_builder_set_member_name(j, "bottleneck_load");
  if (b->load > 0)
    json_builder_add_int_value(j, (gint64)b->load);
  else
    json_builder_add_null_value(j);
  MEMBER("bottleneck_links", int, b->n_bottlenecks);
  json_builder_set_member_name(j, "bottleneck_link");
  if (b->bottleneck_link >= 0) {
    const NsLink *l = ns_topology_link(t, b->bottleneck_link);
    json_builder_begin_array(j);
    json_builder_add_string_value(j, ns_topology_node(t, l->a)->name);
    json_builder_add_string_value(j, ns_topology_node(t, l->b)->name);
    json_builder_end_array(j);
  } else {
    json_builder_add_null_value(j);
  }
  if (b->root >= 0) {
    MEMBER("m_u", int, b->m_u);
    MEMBER("m_v", int, b->m_v);
    MEMBER("root", string, ns_topology_node(t, b->root)->name);
  }
  MEMBER("time_bound_s", double, b->time_bound);
  MEMBER("throughput_bound_bps", double, b->throughput_bound);
  g_autofree char *cut = ns_lower_bound_describe(t, &b->cut);
  MEMBER("cut_bottleneck", string, cut);
  MEMBER("cut_time_bound_s", double, b->cut.seconds);
  json_builder_set_member_name(j, "routed_load");
  if (b->routed_computed) {
    json_builder_begin_object(j);
    MEMBER("max", double, b->routed_max);
    MEMBER("mean", double, b->routed_mean);
    MEMBER("p50", double, b->routed_p50);
    MEMBER("p90", double, b->routed_p90);
    MEMBER("p99", double, b->routed_p99);
    json_builder_end_object(j);
  } else {
    json_builder_add_null_value(j);
  }
  MEMBER("path_length_min", int, b->path_min);
  MEMBER("path_length_max", int, b->path_max);
  MEMBER("path_length_mean", double, b->path_mean);
  MEMBER("path_lengths_sampled", boolean, b->path_sampled);
#undef MEMBER
  NsTwBound tw;
  if (ns_tw_bound(t, msize, 0, NS_TW_UPLINK_MEASURED, &tw))
    ns_tw_bound_json(j, t, &tw);
  json_builder_end_object(j);
  ns_cli_print_json(j);
}

static void print_a2a(const NsTopology *t, const NsA2ABound *b, uint64_t msize)
{
  g_autofree char *size = ns_format_size(msize);
  g_autofree char *routing = ns_topology_routing_describe(t);
  g_autofree char *why = ns_lower_bound_describe(t, &b->bound);
  int p = ns_topology_n_machines(t);
  printf("topology           %s (%d machines)\n", ns_topology_source(t), p);
  printf("routing            %s\n", routing);
  if (b->root >= 0 && b->bound.kind == NS_BOUND_LINK && b->load > 0) {
    const NsLink *l = ns_topology_link(t, b->bottleneck_link);
    printf("bottleneck load    %" G_GUINT64_FORMAT " = %d x %d messages per direction "
           "(%d bottleneck link%s, e.g. %s-%s)\n",
           b->load, b->m_u, b->m_v, b->n_bottlenecks, b->n_bottlenecks == 1 ? "" : "s",
           ns_topology_node(t, l->a)->name, ns_topology_node(t, l->b)->name);
  } else {
    printf("bottleneck         %s\n", why);
  }
  gboolean one_speed = TRUE;
  for (int i = 1; i < ns_topology_n_links(t); i++)
    one_speed = one_speed && ns_topology_link(t, i)->bandwidth == ns_topology_link(t, 0)->bandwidth;
  if (b->load > 0 && one_speed)
    printf("optimal phases     %" G_GUINT64_FORMAT "%s\n", b->load,
           b->bound.kind == NS_BOUND_PORT_SEND || b->bound.kind == NS_BOUND_PORT_RECV
               ? " (one message per port and phase)" : "");
  if (b->root >= 0)
    printf("root               %s\n", ns_topology_node(t, b->root)->name);
  printf("time bound         %.6f s for msize %s (the routing in use)\n", b->time_bound, size);
  printf("throughput bound   %.3f Mbit/s aggregate\n", b->throughput_bound / 1e6);
  g_autofree char *cut = ns_lower_bound_describe(t, &b->cut);
  printf("any routing        %.6f s, %s\n", b->cut.seconds, cut);
  if (b->routed_computed)
    printf("routed load        max %.10g, mean %.10g, p50 %.10g, p90 %.10g, p99 %.10g messages a "
           "directed link\n",
           b->routed_max, b->routed_mean, b->routed_p50, b->routed_p90, b->routed_p99);
  else
    printf("routed load        not computed (more than 2^27 steps of work, 2^29 level by level on fat trees); the bound is the cut bound\n");
  printf("path length        min %d, max %d, mean %.3f %s%s\n", b->path_min, b->path_max,
         b->path_mean, ns_topology_n_switches(t) > 0 ? "switches" : "routing machines",
         b->path_sampled ? " (sample of 2^22 pairs)" : "");
}

/* The members every bound document starts with. */

/* Machines with several ports (all-port tori, k-port): the bound in
 * whole blocks, what binds it, and the fluid and one-port figures beside
 * it (analysis/bounds_allgather.h). One-port fabrics print as before. */
static void allgather_port_text(const NsTopology *t, const NsAllgatherBound *b, const char *size)
{
  g_autofree char *why = ns_lower_bound_describe(t, &b->port_model);
  gboolean port = b->port_model.kind == NS_BOUND_PORT_SEND ||
                  b->port_model.kind == NS_BOUND_PORT_RECV;
  printf("allgather bound    %.6f s for msize %s per machine, %s: %s\n", b->time_bound, size,
         port ? "ceil((P-1)/ports) blocks a port" : "a cut binds, above the ports", why);
  printf("                   (blocks whole, as schedules move them: the verifier's and the "
         "design study's bound)\n");
  printf("fluid              %.6f s = (P-1) msize / (ports B): blocks split across a machine's "
         "ports\n", b->fluid_bound);
  printf("one-port           %.6f s = (P-1) msize / B: the bound of 1-port machines, not of these\n",
         b->one_port_bound);
}

static void allgather_port_json(JsonBuilder *j, const NsTopology *t, const NsAllgatherBound *b)
{
  g_autofree char *why = ns_lower_bound_describe(t, &b->port_model);
  json_builder_set_member_name(j, "ports");
  json_builder_add_int_value(j, b->max_ports);
  json_builder_set_member_name(j, "bottleneck");
  json_builder_add_string_value(j, why);
  json_builder_set_member_name(j, "bottleneck_kind");
  json_builder_add_string_value(j, bound_kinds[b->port_model.kind]);
  json_builder_set_member_name(j, "bottleneck_load");
  if (b->port_model.load > 0)
    json_builder_add_int_value(j, (gint64)b->port_model.load);
  else
    json_builder_add_null_value(j);
  json_builder_set_member_name(j, "fluid_time_bound_s");
  json_builder_add_double_value(j, b->fluid_bound);
  json_builder_set_member_name(j, "one_port_time_bound_s");
  json_builder_add_double_value(j, b->one_port_bound);
}

/* All-gather (§3.3.1.1): (P−1)·msize/B on any topology; Theorem 3 and
 * the logical rings' estimates on trees (the ring builders need the
 * unique paths of tree routing). */
static int allgather_bound(const NsTopology *t, uint64_t msize, gboolean json)
{
  NsAllgatherBound b;
  GError *error = NULL;
  gboolean tree = ns_topology_routing(t) == NS_ROUTING_TREE;
  ns_allgather_bounds(t, msize, NS_DEFAULT_PACKET, &b, &error);
  g_autofree char *th = tree ? ns_two_hop_describe(t, &b.two_hop) : NULL;
  const char *keys[] = { "lr1", "lr2", "lr3" };
  const char *names[] = { "LR1 (DFS ring)", "LR2 (2-hop ring)", "LR3 (optimal ring)" };
  int paths[] = { b.lr1_path, b.lr2_path, b.lr3_path };
  double times[] = { b.lr1_time, b.lr2_time, b.lr3_time };
  if (json) {
    g_autoptr(JsonBuilder) j = json_builder_new();
    json_builder_begin_object(j);
    ns_cli_bound_json_head(j, t, "allgather", msize);
    json_builder_set_member_name(j, "bandwidth_bps");
    json_builder_add_double_value(j, b.bandwidth);
    json_builder_set_member_name(j, "time_bound_s");
    json_builder_add_double_value(j, b.time_bound);
    json_builder_set_member_name(j, "tree");
    json_builder_add_boolean_value(j, tree);
    json_builder_set_member_name(j, "store_and_forward");
    json_builder_add_boolean_value(j, b.store_and_forward);
    json_builder_set_member_name(j, "packet_bytes");
    json_builder_add_int_value(j, NS_DEFAULT_PACKET);
    json_builder_set_member_name(j, "two_hop_ring");
    if (tree)
      json_builder_add_boolean_value(j, b.two_hop.holds);
    else
      json_builder_add_null_value(j);
    json_builder_set_member_name(j, "two_hop_violation");
    if (th != NULL)
      json_builder_add_string_value(j, th);
    else
      json_builder_add_null_value(j);
    json_builder_set_member_name(j, "rings");
    json_builder_begin_object(j);
    for (int i = 0; i < 3; i++) {
      json_builder_set_member_name(j, keys[i]);
      if (paths[i] < 0) {
        json_builder_add_null_value(j);
        continue;
      }
      json_builder_begin_object(j);
      json_builder_set_member_name(j, "max_path");
      json_builder_add_int_value(j, paths[i]);
      json_builder_set_member_name(j, "time_s");
      json_builder_add_double_value(j, times[i]);
      json_builder_end_object(j);
    }
    json_builder_end_object(j);
    json_builder_set_member_name(j, "rings_error");
    if (error != NULL)
      json_builder_add_string_value(j, error->message);
    else
      json_builder_add_null_value(j);
    if (b.max_ports > 1)
      allgather_port_json(j, t, &b);
    json_builder_end_object(j);
    ns_cli_print_json(j);
    g_clear_error(&error);
    return 0;
  }
  g_autofree char *size = ns_format_size(msize);
  printf("topology           %s (%d machines)\n", ns_topology_source(t), b.n_machines);
  if (b.max_ports > 1)
    allgather_port_text(t, &b, size);
  else
    printf("allgather bound    %.6f s = (P-1) msize / B for msize %s per machine\n", b.time_bound,
           size);
  if (!tree) {
    printf("logical rings      not applicable: they need a tree topology (--spanning METHOD)\n");
    g_clear_error(&error);
    return 0;
  }
  printf("2-hop ring         %s\n", th ? th : "exists (Theorem 3: every switch has at least as many "
                                               "machines as switch neighbours)");
  for (int i = 0; i < 3; i++) {
    if (paths[i] < 0)
      printf("%-18s not applicable\n", names[i]);
    else
      printf("%-18s max path %d switches, estimate %.6f s%s\n", names[i], paths[i], times[i],
             b.store_and_forward ? " (store-and-forward, 1500 B packets)" : "");
  }
  if (error != NULL) {
    printf("(LR3: %s)\n", error->message);
    g_error_free(error);
  }
  return 0;
}

/* Broadcast (§3.4.1, Table 3.7): T(msize) and the estimates of the
 * contention-free trees and the classic ones (ns_bcast_estimates). */
static int bcast_bound(const NsTopology *t, uint64_t msize, const char *root, uint64_t segment,
                       gboolean json)
{
  g_autofree char *size = ns_format_size(msize);
  g_autoptr(JsonBuilder) j = json ? json_builder_new() : NULL;
  double lower = -1, t_msize = -1;
  gboolean multi_port = ns_bounds_max_ports(t) > 1, t_msize_bound = TRUE;
  NsCollective c;
  NsPlanParams params;
  GError *bad = NULL; /* a --root or --segment every planner would refuse */
  int n = 0;
  NsBcastEstimate *e = NULL;
  if (ns_cli_plan_params(t, "bcast", msize, root, segment, 0, &c, &params, &bad))
    e = ns_bcast_estimates(t, &params, &n);
  else
    e = ns_bcast_estimates(NULL, NULL, &n); /* the names only */
  if (json) {
    json_builder_begin_object(j);
    ns_cli_bound_json_head(j, t, "bcast", msize);
    json_builder_set_member_name(j, "root");
    int r = root != NULL ? ns_topology_find_machine(t, root) : 0;
    json_builder_add_string_value(j, ns_topology_machine_name(t, r >= 0 ? r : 0));
    json_builder_set_member_name(j, "segment_bytes");
    json_builder_add_int_value(j, (gint64)segment);
    json_builder_set_member_name(j, "algorithms");
    json_builder_begin_array(j);
  } else {
    printf("topology           %s (%d machines), msize %s\n", ns_topology_source(t),
           ns_topology_n_machines(t), size);
  }
  for (int i = 0; i < n; i++) {
    const NsBcastBound *b = &e[i].bound;
    gboolean ok = bad == NULL && e[i].ok;
    const char *why = bad != NULL ? bad->message : e[i].error ? e[i].error->message : "";
    if (json) {
      json_builder_begin_object(j);
      json_builder_set_member_name(j, "algorithm");
      json_builder_add_string_value(j, e[i].algorithm);
      if (!ok) {
        json_builder_set_member_name(j, "error");
        json_builder_add_string_value(j, why);
      } else {
        if (lower < 0 && multi_port) {
          t_msize = b->t_msize;
          t_msize_bound = !b->t_msize_estimate;
        }
        lower = b->lower_bound;
        json_builder_set_member_name(j, "estimate_s");
        json_builder_add_double_value(j, b->estimate);
        json_builder_set_member_name(j, "formula");
        json_builder_add_string_value(j, b->formula);
        json_builder_set_member_name(j, "tree");
        json_builder_add_boolean_value(j, b->is_tree);
        json_builder_set_member_name(j, "height");
        json_builder_add_int_value(j, b->height);
        json_builder_set_member_name(j, "degree");
        json_builder_add_int_value(j, b->degree);
        json_builder_set_member_name(j, "segments");
        json_builder_add_int_value(j, b->n_segments);
        json_builder_set_member_name(j, "phases");
        json_builder_add_int_value(j, (gint64)b->n_phases);
      }
      json_builder_end_object(j);
      continue;
    }
    if (!ok) {
      printf("%-18s n/a: %s\n", e[i].algorithm, why);
      continue;
    }
    if (lower < 0) {
      if (b->t_msize_estimate) {
        printf("lower bound        %.6f s = max(T(msize/X) to the farthest machine, the X segments "
               "through the ports)\n", b->lower_bound);
        printf("T(msize)           %.6f s from the root to the farthest machine: an estimate, not a "
               "bound (all-port machines take segments over several links at once)\n", b->t_msize);
      } else {
        printf("lower bound        %.6f s = T(msize) from the root to the farthest machine%s\n",
               b->lower_bound, multi_port ? " (one message on one route: a bound under all-port "
                                            "too)" : "");
      }
      lower = b->lower_bound;
    }
    printf("%-18s %.6f s  %s", e[i].algorithm, b->estimate, b->formula);
    if (b->is_tree)
      printf("  (H %d, D %d, X %u)", b->height, b->degree, b->n_segments);
    printf("\n");
  }
  ns_bcast_estimates_free(e, n);
  g_clear_error(&bad);
  if (json) {
    json_builder_end_array(j);
    json_builder_set_member_name(j, "lower_bound_s");
    if (lower >= 0)
      json_builder_add_double_value(j, lower);
    else
      json_builder_add_null_value(j);
    if (multi_port && t_msize >= 0) { /* one-port fabrics: T(msize) is the bound above */
      json_builder_set_member_name(j, "t_msize_s");
      json_builder_add_double_value(j, t_msize);
      json_builder_set_member_name(j, "t_msize_is_bound");
      json_builder_add_boolean_value(j, t_msize_bound);
    }
    json_builder_end_object(j);
    ns_cli_print_json(j);
  }
  return 0;
}

/* Bad input under --json: besides the message on standard error, an
 * object on standard output saying why, with the exit status — as
 * `verify --json` reports a file it cannot verify — so a script reading
 * the JSON never finds nothing. */
static void print_json_error(const char *topology, const char *message, int status)
{
  g_autoptr(JsonBuilder) j = json_builder_new();
  json_builder_begin_object(j);
  json_builder_set_member_name(j, "format");
  json_builder_add_string_value(j, "netsched-bound");
  json_builder_set_member_name(j, "version");
  json_builder_add_int_value(j, 2);
  json_builder_set_member_name(j, "topology");
  if (topology != NULL)
    json_builder_add_string_value(j, topology);
  else
    json_builder_add_null_value(j);
  json_builder_set_member_name(j, "exit_status");
  json_builder_add_int_value(j, status);
  json_builder_set_member_name(j, "error");
  json_builder_add_string_value(j, message);
  json_builder_end_object(j);
  ns_cli_print_json(j);
}

static int fail(GError *error, const char *topology, gboolean json)
{
  if (json)
    print_json_error(topology, error->message, ns_error_exit_status(error));
  return ns_cli_fail(error);
}

/* A usage error (exit 2), reported as JSON too under --json. */
static int usage(const char *topology, gboolean json, const char *message)
{
  if (json)
    print_json_error(topology, message, 2);
  return ns_cli_usage("bound", "%s", message);
}

int ns_cmd_bound(int argc, char **argv)
{
  char *topology = NULL, *format = NULL, *spanning = NULL, *msize_text = NULL, *collective = NULL;
  char *root = NULL, *segment_text = NULL, *pattern = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_FILENAME, &topology, "Topology file or gen:SPEC", "T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Topology format (default: guessed)",
      "native|slurm|graphml|simgrid[:OPT]" },
    { "spanning", 0, 0, G_OPTION_ARG_STRING, &spanning, NS_CLI_SPANNING_HELP,
      "METHOD[:SEED][@ROOT]" },
    { "msize", 'm', 0, G_OPTION_ARG_STRING, &msize_text, "Message size (default 64KiB)", "SIZE" },
    { "collective", 'c', 0, G_OPTION_ARG_STRING, &collective,
      "Collective (default alltoall)", ns_cli_collective_choices() },
    { "root", 'r', 0, G_OPTION_ARG_STRING, &root, "bcast: root machine (default the first)",
      "MACHINE" },
    { "segment", 's', 0, G_OPTION_ARG_STRING, &segment_text,
      "bcast: pipeline segment size (default: none)", "SIZE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      "Print the bounds as JSON (schema: docs/sweeps.md, \"bound --json\")", NULL },
    { "pattern", 0, 0, G_OPTION_ARG_FILENAME, &pattern,
      "alltoallv/allgatherv: the size pattern, a file (docs/pattern-format.md) or a generator",
      "FILE|SPEC" },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("- bounds of a collective on a topology");
  g_option_context_set_summary(
      ctx, "alltoall: bottleneck load |Mu|x|Mv| (the optimal number of phases), the root\n"
           "switch, the best-case completion time |Mu||Mv|msize/B, the peak aggregate\n"
           "throughput |M|(|M|-1)B/(|Mu||Mv|) and path lengths (Faraj & Yuan §3, §4.1).\n"
           "The bound is the one for the routing in use (the busiest routed link, a port\n"
           "or a cut); \"any routing\" is the cut bound, valid whatever the routes, and\n"
           "\"routed load\" the messages per directed link under the routing.\n"
           "allgather: (P-1)msize/B, Theorem 3 and the LR1/LR2/LR3 ring estimates (§3.3);\n"
           "with all-port or k-port machines ceil((P-1)/ports) blocks a port (or a cut\n"
           "when larger), beside the fluid (P-1)msize/(ports B).\n"
           "bcast: T(msize) and the Table 3.7 estimates of the trees (§3.4); with\n"
           "segments on all-port machines T(msize) is an estimate, the bound the larger\n"
           "of T(msize/X) and the segments through the ports.\n"
           "reduce, allreduce: the vector of msize bytes through the ports and cuts (a\n"
           "non-root sends it, the root receives it; allreduce both ways, and 2(P-1)/P\n"
           "of it through some machine: Patarasuk & Yuan), fluid and, with --segment,\n"
           "in whole segments (docs/verify.md, \"Bounds of the reductions\").");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  g_autoptr(NsTopology) t = NULL;
  GError *error = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if (argc != 1) {
    g_autofree char *why = g_strdup_printf("unexpected argument '%s'", argv[1]);
    status = usage(topology, json, why);
    goto out;
  }
  uint64_t msize = 65536, segment = 0;
  if ((msize_text != NULL && !ns_cli_parse_size("--msize", msize_text, &msize, &error)) ||
      (segment_text != NULL && !ns_cli_parse_size("--segment", segment_text, &segment, &error))) {
    status = fail(error, topology, json);
    goto out;
  }
  NsCollective coll = NS_COLL_ALLTOALL;
  if (collective != NULL && !ns_collective_from_name(collective, &coll)) {
    g_autofree char *known = ns_collective_names(", ");
    g_autofree char *why = g_strdup_printf("unknown collective '%s' (%s)", collective, known);
    status = usage(topology, json, why);
    goto out;
  }
  t = ns_cli_load_topology(topology, format, spanning, &error);
  if (t == NULL) {
    status = fail(error, topology, json);
    goto out;
  }
  if (coll == NS_COLL_ALLGATHER) {
    status = allgather_bound(t, msize, json);
    goto out;
  }
  if (coll == NS_COLL_BCAST) {
    status = bcast_bound(t, msize, root, segment, json);
    goto out;
  }
  if (ns_collective_is_reduction(coll)) {
    g_autofree char *why = NULL;
    status = ns_cli_bound_reduction(t, coll, msize, root, segment, json, &why);
    if (why != NULL)
      status = usage(topology, json, why);
    goto out;
  }
  if (ns_collective_is_vector(coll)) {
    status = ns_cli_pattern_bound(t, coll, pattern, json, &error) ? 0
                                                                   : fail(error, topology, json);
    goto out;
  }
  if (coll != NS_COLL_ALLTOALL) { /* the reductions' and size patterns' bounds: issue #22 */
    g_autofree char *why = g_strdup_printf("no bound for %s yet (alltoall, allgather, bcast)",
                                           ns_collective_name(coll));
    status = usage(topology, json, why);
    goto out;
  }
  NsA2ABound b;
  ns_a2a_bound(t, msize, &b);
  if (json)
    print_json(t, &b, msize);
  else
    print_a2a(t, &b, msize);
  NsTwBound tw;
  if (!json && ns_tw_bound(t, msize, 0, NS_TW_UPLINK_MEASURED, &tw))
    ns_tw_bound_print(stdout, t, &tw);
  status = 0;
out:
  g_free(topology);
  g_free(format);
  g_free(spanning);
  g_free(msize_text);
  g_free(collective);
  g_free(root);
  g_free(segment_text);
  g_free(pattern);
  return status;
}
