/* netsched — one row of a sweep: a random topology and its metrics.
 * The row schema is documented in docs/sweeps.md ("Rows"). */
#include "analysis/bounds.h"
#include "analysis/bounds_allgather.h"
#include "analysis/bounds_bcast.h"
#include "analysis/experiment_pattern_internal.h"
#include "analysis/sweep_engine_internal.h"
#include "platforms/model/error.h"
#include "platforms/gen/gtitm.h"
#include "platforms/gen/shapes.h"
#include "platforms/routing/spanning.h"
#include "platforms/io/topology_io.h"
#include "platforms/io/topology_spec.h"
#include "platforms/routing/tree.h"
#include "sched/planners/allgather/allgather_ring_common_internal.h"
#include "sched/bound/pattern_bound.h"
#include "sched/planners/registry.h"
#include <math.h>
#include <string.h>

const NsSweepMetricInfo ns_sweep_metrics[N_METRICS] = {
  [M_MACHINES] = { "machines", TRUE, 0 },
  [M_SWITCHES] = { "switches", TRUE, 0 },
  [M_LINKS] = { "links", TRUE, 0 },
  [M_GRAPH_LINKS] = { "graph_links", TRUE, 0 },
  [M_GRAPH_DEGREE] = { "graph_degree", FALSE, 0 },
  [M_PATCH_LINKS] = { "patch_links", TRUE, 0 },
  [M_PATH_MIN] = { "path_min", TRUE, NS_METRICS_PATHS },
  [M_PATH_MEAN] = { "path_mean", FALSE, NS_METRICS_PATHS },
  [M_PATH_MAX] = { "path_max", TRUE, NS_METRICS_PATHS },
  [M_A2A_LOAD] = { "a2a_load", TRUE, NS_METRICS_ALLTOALL },
  [M_A2A_BOTTLENECKS] = { "a2a_bottleneck_links", TRUE, NS_METRICS_ALLTOALL },
  [M_A2A_TIME] = { "a2a_time_s", FALSE, NS_METRICS_ALLTOALL },
  [M_A2A_THROUGHPUT] = { "a2a_throughput_bps", FALSE, NS_METRICS_ALLTOALL },
  [M_A2A_CUT_LOAD] = { "a2a_cut_load", TRUE, NS_METRICS_ALLTOALL },
  [M_A2A_CUT_TIME] = { "a2a_cut_time_s", FALSE, NS_METRICS_ALLTOALL },
  [M_ROUTED_MAX] = { "routed_load_max", TRUE, NS_METRICS_ALLTOALL },
  [M_ROUTED_MEAN] = { "routed_load_mean", FALSE, NS_METRICS_ALLTOALL },
  [M_ROUTED_P50] = { "routed_load_p50", FALSE, NS_METRICS_ALLTOALL },
  [M_ROUTED_P90] = { "routed_load_p90", FALSE, NS_METRICS_ALLTOALL },
  [M_ROUTED_P99] = { "routed_load_p99", FALSE, NS_METRICS_ALLTOALL },
  [M_TWO_HOP] = { "two_hop", TRUE, NS_METRICS_ALLGATHER },
  [M_LR1_MAX] = { "lr1_max_path", TRUE, NS_METRICS_ALLGATHER },
  [M_LR1_MEAN] = { "lr1_mean_hop", FALSE, NS_METRICS_ALLGATHER },
  [M_LR2_MAX] = { "lr2_max_path", TRUE, NS_METRICS_ALLGATHER },
  [M_LR2_MEAN] = { "lr2_mean_hop", FALSE, NS_METRICS_ALLGATHER },
  [M_LR3_MAX] = { "lr3_max_path", TRUE, NS_METRICS_ALLGATHER },
  [M_LR3_MEAN] = { "lr3_mean_hop", FALSE, NS_METRICS_ALLGATHER },
  [M_ALG4_HEIGHT] = { "alg4_height", TRUE, NS_METRICS_BCAST },
  [M_ALG5_HEIGHT] = { "alg5_height", TRUE, NS_METRICS_BCAST },
  [M_ALG5_DEGREE] = { "alg5_degree", TRUE, NS_METRICS_BCAST },
  [M_CBT_HEIGHT] = { "cbt_height", TRUE, NS_METRICS_BCAST },
  [M_ALG5_OVER_CBT] = { "alg5_over_cbt", FALSE, NS_METRICS_BCAST },
};

/* ---- JSON ---------------------------------------------------------------------- */

void ns_json_append_string(GString *out, const char *s)
{
  g_string_append_c(out, '"');
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p != '\0'; p++) {
    if (*p == '"' || *p == '\\')
      g_string_append_printf(out, "\\%c", *p);
    else if (*p == '\n')
      g_string_append(out, "\\n");
    else if (*p == '\t')
      g_string_append(out, "\\t");
    else if (*p < 0x20 || *p == 0x7f)
      g_string_append_printf(out, "\\u%04x", *p);
    else
      g_string_append_c(out, (char)*p);
  }
  g_string_append_c(out, '"');
}

void ns_json_append_number(GString *out, double v, gboolean integer)
{
  if (!isfinite(v)) {
    g_string_append(out, "null");
    return;
  }
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (integer && fabs(v) < 9007199254740992.0 && v == floor(v))
    g_string_append_printf(out, "%.0f", v);
  else
    g_string_append(out, g_ascii_formatd(buf, sizeof buf, "%.10g", v));
}

/* ---- path lengths ----------------------------------------------------------------- */

/* Switched network: every machine is a leaf on a switch. */
static gboolean machines_are_leaves(const NsTopology *t)
{
  for (int m = 0; m < ns_topology_n_machines(t); m++) {
    int v = ns_topology_machine_node(t, m);
    if (ns_topology_degree(t, v) != 1 ||
        ns_topology_node(t, ns_topology_link_other(t, ns_topology_incident(t, v)[0], v))->kind !=
            NS_NODE_SWITCH)
      return FALSE;
  }
  return ns_topology_n_machines(t) >= 2;
}

/* The distribution of path lengths (switches crossed) over the P(P−1)
 * ordered machine pairs of a switched network: a breadth-first search
 * over the switches from every switch holding machines; a pair on
 * switches at distance d crosses d + 1 switches (the unique path of a
 * tree, a shortest path of a graph: what tree and shortest routing use).
 * The searches run on the switch graph alone, compacted once into arrays
 * (switch-to-switch adjacency, machines per switch), 64 at a time as the
 * bits of a word, with exact integer pair counts: they were 60 % of a
 * path-statistics sweep when they walked the whole topology one search at
 * a time through its accessors (issue #24).
 * O(⌈H/64⌉·D·(S + L)) for H host switches and diameter D. Returns the histogram (index = switches crossed). */
static GArray *path_histogram(const NsTopology *t)
{
  int n = ns_topology_n_nodes(t), n_sw = 0;
  int *index = g_new(int, n); /* node -> switch index, or -1 */
  for (int v = 0; v < n; v++)
    index[v] = ns_topology_node(t, v)->kind == NS_NODE_SWITCH ? n_sw++ : -1;
  gint64 *count = g_new0(gint64, n_sw); /* machines on each switch */
  for (int m = 0; m < ns_topology_n_machines(t); m++) {
    int v = ns_topology_machine_node(t, m);
    count[index[ns_topology_link_other(t, ns_topology_incident(t, v)[0], v)]]++;
  }
  int *adj_start = g_new(int, n_sw + 1), *adj = NULL, n_adj = 0;
  for (int pass = 0; pass < 2; pass++) { /* count, then fill */
    n_adj = 0;
    for (int v = 0; v < n; v++) {
      if (index[v] < 0)
        continue;
      adj_start[index[v]] = n_adj;
      const int *inc = ns_topology_incident(t, v);
      for (int k = 0; k < ns_topology_degree(t, v); k++) {
        int w = index[ns_topology_link_other(t, inc[k], v)];
        if (w >= 0 && pass == 1)
          adj[n_adj] = w;
        n_adj += w >= 0;
      }
    }
    adj_start[n_sw] = n_adj;
    if (pass == 0)
      adj = g_new(int, MAX(n_adj, 1));
  }
  /* Breadth-first searches from 64 host switches at a time, level by
   * level, one bit per search: a switch's next frontier is the union of its
   * neighbours' frontiers less what it has seen. */
  int *hosts = g_new(int, n_sw), n_hosts = 0;
  for (int v = 0; v < n_sw; v++)
    if (count[v] > 0)
      hosts[n_hosts++] = v;
  gint64 *pairs = g_new0(gint64, n_sw + 1); /* by switches crossed */
  guint64 *seen = g_new(guint64, n_sw), *frontier = g_new(guint64, n_sw),
          *next = g_new(guint64, n_sw);
  int longest = 0; /* the longest distance between two host switches */
  for (int first = 0; first < n_hosts; first += 64) {
    int n_src = MIN(64, n_hosts - first);
    memset(seen, 0, sizeof(guint64) * (gsize)n_sw);
    memset(frontier, 0, sizeof(guint64) * (gsize)n_sw);
    for (int i = 0; i < n_src; i++) {
      gint64 c = count[hosts[first + i]];
      frontier[hosts[first + i]] = seen[hosts[first + i]] = (guint64)1 << i;
      pairs[1] += c * (c - 1); /* machines on one switch */
    }
    for (int d = 1;; d++) {
      guint64 any = 0;
      for (int v = 0; v < n_sw; v++) {
        guint64 reach = 0;
        for (int k = adj_start[v]; k < adj_start[v + 1]; k++)
          reach |= frontier[adj[k]];
        next[v] = reach & ~seen[v];
        any |= next[v];
      }
      if (any == 0)
        break;
      for (int v = 0; v < n_sw; v++) {
        seen[v] |= next[v];
        if (count[v] == 0 || next[v] == 0)
          continue;
        gint64 from = 0; /* machines on the sources at distance d */
        for (guint64 bits = next[v]; bits != 0; bits &= bits - 1)
          from += count[hosts[first + __builtin_ctzll(bits)]];
        pairs[d + 1] += from * count[v];
        longest = MAX(longest, d);
      }
      guint64 *swap = frontier;
      frontier = next;
      next = swap;
    }
  }
  GArray *hist = g_array_sized_new(FALSE, TRUE, sizeof(double), (guint)(longest + 2));
  for (int h = 0; h < longest + 2; h++) {
    double c = (double)pairs[h];
    g_array_append_val(hist, c);
  }
  g_free(index);
  g_free(count);
  g_free(adj_start);
  g_free(adj);
  g_free(pairs);
  g_free(hosts);
  g_free(seen);
  g_free(frontier);
  g_free(next);
  return hist;
}

static void path_metrics(const NsTopology *t, double *v, GArray **hist_out)
{
  if (!machines_are_leaves(t)) { /* a direct network: the routed figures */
    NsA2ABound b;
    ns_a2a_bound(t, 1, &b);
    v[M_PATH_MIN] = b.path_min;
    v[M_PATH_MEAN] = b.path_mean;
    v[M_PATH_MAX] = b.path_max;
    return;
  }
  GArray *hist = path_histogram(t);
  double pairs = 0, sum = 0;
  v[M_PATH_MIN] = NAN;
  for (guint h = 0; h < hist->len; h++) {
    double c = g_array_index(hist, double, h);
    if (c > 0 && isnan(v[M_PATH_MIN]))
      v[M_PATH_MIN] = h;
    if (c > 0)
      v[M_PATH_MAX] = h;
    pairs += c;
    sum += c * h;
  }
  v[M_PATH_MEAN] = pairs > 0 ? sum / pairs : NAN;
  *hist_out = hist;
}

/* ---- the collectives ------------------------------------------------------------------ */

static void ring_figures(const NsTopology *t, const int *ring, double *max, double *mean)
{
  int p = ns_topology_n_machines(t);
  double sum = 0;
  for (int i = 0; i < p; i++)
    sum += ns_path_length(t, ring[i], ring[(i + 1) % p]);
  *max = ns_ring_max_path_length(t, ring);
  *mean = sum / p;
}

static void allgather_metrics(const NsTopology *t, double *v, char **lr3_error)
{
  int p = ns_topology_n_machines(t);
  int *ring = g_new(int, p);
  NsTwoHop th;
  v[M_TWO_HOP] = ns_allgather_two_hop(t, &th) ? 1 : 0;
  ns_ring_lr1(t, ring);
  ring_figures(t, ring, &v[M_LR1_MAX], &v[M_LR1_MEAN]);
  if (th.holds && ns_ring_lr2(t, ring, NULL))
    ring_figures(t, ring, &v[M_LR2_MAX], &v[M_LR2_MEAN]);
  GError *err = NULL;
  int d = -1;
  if (ns_ring_lr3(t, ring, &d, &err))
    ring_figures(t, ring, &v[M_LR3_MAX], &v[M_LR3_MEAN]);
  else {
    *lr3_error = g_strdup(err->message);
    g_error_free(err);
  }
  g_free(ring);
}

/* Height and degree of a planned broadcast tree. */
static gboolean bcast_shape(const NsTopology *t, const char *algorithm, uint64_t msize,
                            int *height, int *degree, GError **error)
{
  NsPlanParams params = { .msize = msize, .root = 0 };
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_BCAST, algorithm, &params, error);
  if (s == NULL)
    return FALSE;
  int n = ns_topology_n_machines(t);
  int *parent = g_new(int, n);
  gboolean ok = ns_bcast_schedule_tree(s, parent, error) &&
                ns_bcast_tree_shape(n, 0, parent, height, degree, error);
  g_free(parent);
  return ok;
}

static void bcast_metrics(const NsTopology *t, uint64_t msize, double *v, char **alg5_error)
{
  int p = ns_topology_n_machines(t), h = 0, d = 0;
  GError *err = NULL;
  if (bcast_shape(t, "linear-cf", msize, &h, &d, &err))
    v[M_ALG4_HEIGHT] = h;
  else
    g_clear_error(&err);
  int cbt = 0; /* the complete binary tree on p nodes: ⌈log2(p+1)⌉ − 1 edges */
  while (((gint64)2 << cbt) - 1 < p)
    cbt++;
  v[M_CBT_HEIGHT] = cbt;
  if (bcast_shape(t, "binary-cf", msize, &h, &d, &err)) {
    v[M_ALG5_HEIGHT] = h;
    v[M_ALG5_DEGREE] = d;
    v[M_ALG5_OVER_CBT] = cbt > 0 ? (double)h / cbt : NAN;
  } else {
    *alg5_error = g_strdup(err->message);
    g_error_free(err);
  }
}

/* ---- the row --------------------------------------------------------------------------- */

/* A file of a sweep over files, read as -T FILE -f FORMAT reads it. */
static NsTopology *load_file(const NsSweep *sw, guint task, GError **error)
{
  NsTopologySpecOptions options = { .format = sw->format, .warn = sw->warn,
                                    .warn_data = sw->warn_data };
  return ns_topology_from_spec(ns_sweep_task_file_path(sw, task), &options, error);
}

static NsTopology *task_topology(const NsSweep *sw, guint task, const char *spec,
                                 NsGtitmInfo *info, gboolean *have_info, GError **error)
{
  const NsSweepPoint *pt = ns_sweep_task_point(sw, task);
  const NsSweepGen *gen = g_ptr_array_index(sw->gens, pt->gen);
  if (gen->model != NS_SWEEP_SPEC && gen->model != NS_SWEEP_FILES) {
    *have_info = TRUE;
    return ns_gtitm_generate(spec, info, error);
  }
  NsTopology *t = gen->model == NS_SWEEP_FILES ? load_file(sw, task, error)
                                                : ns_shape_from_spec(spec, error);
  if (t == NULL || strcmp(pt->tree, "none") == 0)
    return t;
  NsSpanSpec span = { .seed = ns_sweep_task_seed(sw, task) };
  span.method = strcmp(pt->tree, "bfs") == 0       ? NS_SPAN_BFS
                : strcmp(pt->tree, "dfs") == 0     ? NS_SPAN_DFS
                : strcmp(pt->tree, "kruskal") == 0 ? NS_SPAN_KRUSKAL
                                                   : NS_SPAN_UNIFORM;
  NsTopology *tree = ns_topology_spanning_tree(t, &span, error);
  ns_topology_free(t);
  return tree;
}

static void measures(const NsSweep *sw, const NsTopology *t, GString *row)
{
  g_string_append(row, ",\"measures\":{");
  for (guint i = 0; i < sw->measures->len; i++) {
    const NsSweepMeasureItem *m = &g_array_index(sw->measures, NsSweepMeasureItem, i);
    if (i > 0)
      g_string_append_c(row, ',');
    ns_json_append_string(row, m->label);
    g_string_append_c(row, ':');
    GError *err = NULL;
    NsPlanParams params = { .msize = sw->msize, .root = 0 };
    /* a v-collective: this topology's pattern at msize, and its bound */
    g_autoptr(NsSizePattern) pat = NULL;
    NsRowFacts facts = { 0 };
    NsPatternBound pb;
    if (ns_collective_is_vector(m->collective) &&
        (pat = ns_pattern_axis_at(sw->pattern, "pattern", m->collective,
                                  ns_topology_n_machines(t), sw->msize, &err)) != NULL &&
        ns_pattern_bound(t, pat, &pb, &err))
      facts.bound_s = pb.seconds;
    params.pattern = pat;
    g_autoptr(NsSchedule) s =
        err == NULL ? ns_plan(t, m->collective, m->variant.algorithm, &params, &err) : NULL;
    NsMeasure r = { 0 };
    if (s != NULL && sw->measure == NULL)
      err = g_error_new(NS_ERROR, NS_ERROR_INPUT, "no measurement installed");
    if (s == NULL || err != NULL ||
        !sw->measure(t, s, &m->variant, sw->msize, pat != NULL ? &facts : NULL, &r,
                     sw->measure_data, &err)) {
      g_string_append(row, "{\"error\":");
      ns_json_append_string(row, err != NULL ? err->message : "?");
      g_string_append_c(row, '}');
      g_clear_error(&err);
      continue;
    }
    g_string_append(row, "{\"completion_s\":");
    ns_json_append_number(row, r.completion_s, FALSE);
    g_string_append(row, ",\"bound_s\":");
    ns_json_append_number(row, r.bound_s, FALSE);
    g_string_append(row, ",\"ratio\":");
    ns_json_append_number(row, r.bound_s > 0 ? r.completion_s / r.bound_s : NAN, FALSE);
    g_string_append_printf(row, ",\"valid\":%s}", r.valid ? "true" : "false");
  }
  g_string_append_c(row, '}');
}

void ns_sweep_task_row(const NsSweep *sw, guint task, GString *row)
{
  const NsSweepPoint *pt = ns_sweep_task_point(sw, task);
  const NsSweepGen *gen = g_ptr_array_index(sw->gens, pt->gen);
  g_autofree char *spec = ns_sweep_task_spec(sw, task);
  g_autofree char *topology = gen->model == NS_SWEEP_FILES
                                  ? g_strdup(ns_sweep_task_file(sw, task)) /* as listed */
                                  : g_strdup_printf("gen:%s", spec);
  double v[N_METRICS];
  for (int m = 0; m < N_METRICS; m++)
    v[m] = NAN;
  NsGtitmInfo info = { 0 };
  gboolean have_info = FALSE;
  GError *err = NULL;
  GArray *hist = NULL;
  g_autofree char *lr3_error = NULL, *alg5_error = NULL;
  NsTopology *t = task_topology(sw, task, spec, &info, &have_info, &err);
  if (t != NULL) {
    v[M_MACHINES] = ns_topology_n_machines(t);
    v[M_SWITCHES] = ns_topology_n_switches(t);
    v[M_LINKS] = ns_topology_n_links(t);
    if (have_info) {
      v[M_GRAPH_LINKS] = info.switch_links;
      v[M_GRAPH_DEGREE] = info.switches > 0 ? 2.0 * info.switch_links / info.switches : NAN;
      v[M_PATCH_LINKS] = info.patch_links;
    }
    gboolean tree = ns_topology_routing(t) == NS_ROUTING_TREE;
    if (sw->metrics & NS_METRICS_PATHS)
      path_metrics(t, v, &hist);
    if (sw->metrics & NS_METRICS_ALLTOALL) {
      NsA2ABound b;
      ns_a2a_bound(t, sw->msize, &b);
      v[M_A2A_LOAD] = b.load > 0 ? (double)b.load : NAN;
      v[M_A2A_BOTTLENECKS] = b.n_bottlenecks;
      v[M_A2A_TIME] = b.time_bound;
      v[M_A2A_THROUGHPUT] = b.throughput_bound;
      v[M_A2A_CUT_LOAD] = b.cut.load > 0 ? (double)b.cut.load : NAN;
      v[M_A2A_CUT_TIME] = b.cut.seconds;
      if (b.routed_computed) {
        v[M_ROUTED_MAX] = b.routed_max;
        v[M_ROUTED_MEAN] = b.routed_mean;
        v[M_ROUTED_P50] = b.routed_p50;
        v[M_ROUTED_P90] = b.routed_p90;
        v[M_ROUTED_P99] = b.routed_p99;
      }
    }
    if (tree && (sw->metrics & NS_METRICS_ALLGATHER))
      allgather_metrics(t, v, &lr3_error);
    if (tree && (sw->metrics & NS_METRICS_BCAST))
      bcast_metrics(t, sw->msize, v, &alg5_error);
  }
  g_string_append(row, "{\"key\":");
  g_autofree char *key = ns_sweep_task_key(sw, task);
  ns_json_append_string(row, key);
  g_string_append_printf(row, ",\"task\":%u,\"point\":%u,\"seed\":%" G_GUINT64_FORMAT
                              ",\"generator\":",
                         task, task / sw->seeds->len, ns_sweep_task_seed(sw, task));
  ns_json_append_string(row, gen->name);
  g_string_append(row, ",\"model\":");
  ns_json_append_string(row, ns_sweep_model_name(gen->model));
  g_string_append(row, ",\"tree\":");
  ns_json_append_string(row, pt->tree);
  g_string_append(row, ",\"params\":{");
  for (int i = 0; pt->names[i] != NULL; i++) {
    if (i > 0)
      g_string_append_c(row, ',');
    ns_json_append_string(row, pt->names[i]);
    g_string_append_c(row, ':');
    ns_json_append_string(row, pt->values[i]);
  }
  g_string_append(row, "},\"topology\":");
  ns_json_append_string(row, topology);
  g_string_append(row, ",\"status\":");
  ns_json_append_string(row, t != NULL ? "ok" : err->message);
  for (int m = 0; m < N_METRICS; m++) {
    g_string_append_printf(row, ",\"%s\":", ns_sweep_metrics[m].name);
    ns_json_append_number(row, v[m], ns_sweep_metrics[m].integer);
  }
  g_string_append(row, ",\"path_hist\":");
  if (hist == NULL)
    g_string_append(row, "null");
  else {
    g_string_append_c(row, '[');
    for (guint h = 0; h < hist->len; h++) {
      if (h > 0)
        g_string_append_c(row, ',');
      ns_json_append_number(row, g_array_index(hist, double, h), TRUE);
    }
    g_string_append_c(row, ']');
    g_array_unref(hist);
  }
  if (lr3_error != NULL) {
    g_string_append(row, ",\"lr3_error\":");
    ns_json_append_string(row, lr3_error);
  }
  if (alg5_error != NULL) {
    g_string_append(row, ",\"alg5_error\":");
    ns_json_append_string(row, alg5_error);
  }
  if (t != NULL && sw->measures->len > 0)
    measures(sw, t, row);
  g_string_append(row, "}\n");
  g_clear_error(&err);
  ns_topology_free(t);
}
