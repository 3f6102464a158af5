/* netsched — the files a finished sweep writes: rows.jsonl in task order,
 * rows.csv, aggregate.json, aggregate.csv and the plots. Everything is a
 * function of the rows alone, taken in task order, so an unsharded run and
 * a merge of shards write the same bytes. */
#include "analysis/csv_internal.h"
#include "analysis/plot_internal.h"
#include "analysis/stats.h"
#include "analysis/sweep_engine_internal.h"
#include "platforms/model/error.h"
#include "platforms/io/output_file_internal.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

char *ns_sweep_header(const NsSweep *sw, int shard, int n_shards)
{
  guint mine = 0;
  for (guint t = 0; t < sw->n_tasks; t++)
    mine += (int)(t % (guint)n_shards) == shard;
  return g_strdup_printf("{\"format\":\"netsched-sweep-rows\",\"version\":%d,\"sweep\":\"%s\","
                         "\"shard\":\"%d/%d\",\"tasks\":%u,\"shard_tasks\":%u}\n",
                         NS_SWEEP_ROW_VERSION, sw->digest, shard, n_shards, sw->n_tasks, mine);
}

/* A node as a number; NaN when absent, null or not a number. */
static double node_number(JsonNode *n)
{
  if (n == NULL || JSON_NODE_TYPE(n) != JSON_NODE_VALUE)
    return NAN;
  GType t = json_node_get_value_type(n);
  return t == G_TYPE_INT64 ? (double)json_node_get_int(n)
         : t == G_TYPE_DOUBLE ? json_node_get_double(n) : NAN;
}

static double number(JsonObject *o, const char *name)
{
  return node_number(o != NULL ? json_object_get_member(o, name) : NULL);
}

static const char *string(JsonObject *o, const char *name)
{
  JsonNode *n = json_object_get_member(o, name);
  return n != NULL && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
             ? json_node_get_string(n)
             : "";
}

/* The value of aggregated metric `name` in a row: a row metric, or
 * "<label>.completion_s" / "<label>.ratio" of its measures. */
static double metric_value(JsonObject *row, const char *name)
{
  const char *dot = strrchr(name, '.');
  if (dot == NULL || strchr(name, '/') == NULL)
    return number(row, name);
  JsonObject *ms = json_object_has_member(row, "measures")
                       ? json_object_get_object_member(row, "measures") : NULL;
  g_autofree char *label = g_strndup(name, (gsize)(dot - name));
  JsonObject *m = ms != NULL && json_object_has_member(ms, label)
                      ? json_object_get_object_member(ms, label) : NULL;
  return number(m, dot + 1);
}

/* ---- CSV ------------------------------------------------------------------------------ */

static void csv_number(GString *line, double v, gboolean integer)
{
  g_autoptr(GString) s = g_string_new(NULL);
  if (isfinite(v))
    ns_json_append_number(s, v, integer);
  ns_csv_append(line, s->str);
}

static const char csv_head[] = "key,task,point,seed,generator,model,tree,params,topology,status";

/* One line of rows.csv (with its '\n') for the row of task t. */
static void csv_row(const NsSweep *sw, guint t, JsonObject *r, GString *out)
{
  g_autoptr(GString) line = g_string_new(NULL);
  ns_csv_append(line, string(r, "key"));
  ns_csv_appendf(line, "%u", t);
  ns_csv_appendf(line, "%u", t / sw->seeds->len);
  ns_csv_appendf(line, "%" G_GUINT64_FORMAT, ns_sweep_task_seed(sw, t));
  ns_csv_append(line, string(r, "generator"));
  ns_csv_append(line, string(r, "model"));
  ns_csv_append(line, string(r, "tree"));
  g_autoptr(GString) params = g_string_new(NULL);
  const NsSweepPoint *pt = ns_sweep_task_point(sw, t);
  for (int i = 0; pt->names[i] != NULL; i++)
    g_string_append_printf(params, "%s%s=%s", i ? ";" : "", pt->names[i], pt->values[i]);
  ns_csv_append(line, params->str);
  ns_csv_append(line, string(r, "topology"));
  ns_csv_append(line, string(r, "status"));
  for (int m = 0; m < N_METRICS; m++)
    csv_number(line, number(r, ns_sweep_metrics[m].name), ns_sweep_metrics[m].integer);
  g_autoptr(GString) hist = g_string_new(NULL);
  JsonNode *hn = json_object_get_member(r, "path_hist");
  JsonArray *h = hn != NULL && JSON_NODE_HOLDS_ARRAY(hn) ? json_node_get_array(hn) : NULL;
  for (guint i = 0; h != NULL && i < json_array_get_length(h); i++) {
    if (i > 0)
      g_string_append_c(hist, ';');
    ns_json_append_number(hist, node_number(json_array_get_element(h, i)), TRUE);
  }
  ns_csv_append(line, hist->str);
  ns_csv_append(line, json_object_has_member(r, "lr3_error") ? string(r, "lr3_error") : "");
  ns_csv_append(line, json_object_has_member(r, "alg5_error") ? string(r, "alg5_error") : "");
  g_autoptr(GString) ms = g_string_new(NULL);
  for (guint i = 0; i < sw->measures->len; i++) {
    const char *label = g_array_index(sw->measures, NsSweepMeasureItem, i).label;
    g_autofree char *name = g_strdup_printf("%s.completion_s", label);
    double c = metric_value(r, name);
    g_string_append_printf(ms, "%s%s=", i ? ";" : "", label);
    if (isfinite(c))
      ns_json_append_number(ms, c, FALSE);
    else
      g_string_append(ms, "error");
  }
  ns_csv_append(line, ms->str);
  g_string_append_printf(out, "%s\n", line->str);
}

/* ---- aggregates ----------------------------------------------------------------------------- */

typedef struct {
  NsSummary *summary;  /* per metric */
  guint failed;
  GArray *hist;        /* pooled path-length counts */
} PointStats;

/* What the aggregates need of the rows: values[t * n_names + m] (NaN when
 * null), failed rows and pooled histograms per point; filled row by row. */
typedef struct {
  double *values;
  guint n_names;
} Table;

static void table_add(const NsSweep *sw, Table *tab, GPtrArray *names, PointStats *ps, guint t,
                      JsonObject *r)
{
  PointStats *p = &ps[t / sw->seeds->len];
  for (guint m = 0; m < names->len; m++)
    tab->values[(gsize)t * tab->n_names + m] = metric_value(r, g_ptr_array_index(names, m));
  p->failed += strcmp(string(r, "status"), "ok") != 0;
  JsonNode *hn = json_object_get_member(r, "path_hist");
  JsonArray *h = hn != NULL && JSON_NODE_HOLDS_ARRAY(hn) ? json_node_get_array(hn) : NULL;
  for (guint i = 0; h != NULL && i < json_array_get_length(h); i++) {
    if (i >= p->hist->len)
      g_array_set_size(p->hist, i + 1);
    g_array_index(p->hist, double, i) += node_number(json_array_get_element(h, i));
  }
}

static void summarize_points(const NsSweep *sw, const Table *tab, PointStats *ps)
{
  guint seeds = sw->seeds->len;
  double *x = g_new(double, seeds);
  for (guint p = 0; p < sw->points->len; p++)
    for (guint m = 0; m < tab->n_names; m++) {
      gsize n = 0;
      for (guint s = 0; s < seeds; s++) {
        double v = tab->values[(gsize)(p * seeds + s) * tab->n_names + m];
        if (isfinite(v))
          x[n++] = v;
      }
      ns_summary_compute(x, n, &ps[p].summary[m]);
    }
  g_free(x);
}

static void append_params_json(GString *out, const NsSweepPoint *pt)
{
  g_string_append_c(out, '{');
  for (int i = 0; pt->names[i] != NULL; i++) {
    if (i > 0)
      g_string_append_c(out, ',');
    ns_json_append_string(out, pt->names[i]);
    g_string_append_c(out, ':');
    ns_json_append_string(out, pt->values[i]);
  }
  g_string_append_c(out, '}');
}

static char *aggregate_json(const NsSweep *sw, GPtrArray *names, const PointStats *ps)
{
  GString *out = g_string_new(NULL);
  g_string_append_printf(out, "{\"format\":\"netsched-sweep-aggregate\",\"version\":%d,"
                              "\"sweep\":\"%s\",\"tasks\":%u,\"seeds\":%u,\"points\":[\n",
                         NS_SWEEP_ROW_VERSION, sw->digest, sw->n_tasks, sw->seeds->len);
  for (guint p = 0; p < sw->points->len; p++) {
    const NsSweepPoint *pt = g_ptr_array_index(sw->points, p);
    const NsSweepGen *gen = g_ptr_array_index(sw->gens, pt->gen);
    g_string_append_printf(out, "%s{\"point\":%u,\"label\":", p ? ",\n" : "", p);
    ns_json_append_string(out, pt->label);
    g_string_append(out, ",\"generator\":");
    ns_json_append_string(out, gen->name);
    g_string_append(out, ",\"model\":");
    ns_json_append_string(out, ns_sweep_model_name(gen->model));
    g_string_append(out, ",\"tree\":");
    ns_json_append_string(out, pt->tree);
    g_string_append(out, ",\"params\":");
    append_params_json(out, pt);
    g_string_append_printf(out, ",\"rows\":%u,\"failed\":%u,\"metrics\":{", sw->seeds->len,
                           ps[p].failed);
    for (guint m = 0; m < names->len; m++) {
      const NsSummary *s = &ps[p].summary[m];
      if (m > 0)
        g_string_append_c(out, ',');
      ns_json_append_string(out, g_ptr_array_index(names, m));
      g_string_append_printf(out, ":{\"n\":%u", s->n);
      const char *fields[] = { "mean", "sd", "min", "p5", "p25", "median", "p75", "p95", "max" };
      const double vals[] = { s->mean, s->sd, s->min, s->p5, s->p25, s->median, s->p75, s->p95,
                              s->max };
      for (gsize f = 0; f < G_N_ELEMENTS(fields); f++) {
        g_string_append_printf(out, ",\"%s\":", fields[f]);
        ns_json_append_number(out, vals[f], FALSE);
        if (f == 1) {
          g_string_append(out, ",\"ci95\":[");
          ns_json_append_number(out, s->ci95_lo, FALSE);
          g_string_append_c(out, ',');
          ns_json_append_number(out, s->ci95_hi, FALSE);
          g_string_append_c(out, ']');
        }
      }
      g_string_append_c(out, '}');
    }
    g_string_append(out, "},\"path_hist\":");
    double total = 0;
    for (guint h = 0; h < ps[p].hist->len; h++)
      total += g_array_index(ps[p].hist, double, h);
    if (total <= 0)
      g_string_append(out, "null");
    else {
      g_string_append_c(out, '[');
      for (guint h = 0; h < ps[p].hist->len; h++) {
        if (h > 0)
          g_string_append_c(out, ',');
        ns_json_append_number(out, g_array_index(ps[p].hist, double, h) / total, FALSE);
      }
      g_string_append_c(out, ']');
    }
    g_string_append_c(out, '}');
  }
  g_string_append(out, "\n]}\n");
  return g_string_free(out, FALSE);
}

static char *aggregate_csv(const NsSweep *sw, GPtrArray *names, const PointStats *ps)
{
  GString *out = g_string_new("point,label,generator,model,tree,params,metric,n,mean,sd,"
                              "ci95_lo,ci95_hi,min,p5,p25,median,p75,p95,max\n");
  for (guint p = 0; p < sw->points->len; p++) {
    const NsSweepPoint *pt = g_ptr_array_index(sw->points, p);
    const NsSweepGen *gen = g_ptr_array_index(sw->gens, pt->gen);
    g_autoptr(GString) params = g_string_new(NULL);
    for (int i = 0; pt->names[i] != NULL; i++)
      g_string_append_printf(params, "%s%s=%s", i ? ";" : "", pt->names[i], pt->values[i]);
    for (guint m = 0; m < names->len; m++) {
      const NsSummary *s = &ps[p].summary[m];
      g_autoptr(GString) line = g_string_new(NULL);
      ns_csv_appendf(line, "%u", p);
      ns_csv_append(line, pt->label);
      ns_csv_append(line, gen->name);
      ns_csv_append(line, ns_sweep_model_name(gen->model));
      ns_csv_append(line, pt->tree);
      ns_csv_append(line, params->str);
      ns_csv_append(line, g_ptr_array_index(names, m));
      ns_csv_appendf(line, "%u", s->n);
      const double vals[] = { s->mean, s->sd, s->ci95_lo, s->ci95_hi, s->min, s->p5, s->p25,
                              s->median, s->p75, s->p95, s->max };
      for (gsize f = 0; f < G_N_ELEMENTS(vals); f++)
        csv_number(line, vals[f], FALSE);
      g_string_append_printf(out, "%s\n", line->str);
    }
  }
  return g_string_free(out, FALSE);
}

/* ---- plots ---------------------------------------------------------------------------------- */

static int metric_index(GPtrArray *names, const char *name)
{
  for (guint m = 0; m < names->len; m++)
    if (strcmp(g_ptr_array_index(names, m), name) == 0)
      return (int)m;
  return -1;
}

/* The x of a point: its parameter named x, else the mean of metric x. */
static double point_x(const NsSweep *sw, guint p, GPtrArray *names, const PointStats *ps)
{
  const NsSweepPoint *pt = g_ptr_array_index(sw->points, p);
  for (int i = 0; pt->names[i] != NULL; i++)
    if (strcmp(pt->names[i], sw->x) == 0)
      return g_ascii_strtod(pt->values[i], NULL);
  int m = metric_index(names, sw->x);
  return m >= 0 ? ps[p].summary[m].mean : NAN;
}

/* A series: the points that differ only in x. */
static char *series_label(const NsSweep *sw, guint p)
{
  const NsSweepPoint *pt = g_ptr_array_index(sw->points, p);
  const NsSweepGen *gen = g_ptr_array_index(sw->gens, pt->gen);
  GString *s = g_string_new(gen->name);
  for (int i = 0; pt->names[i] != NULL; i++) {
    const NsSweepParam *param = g_ptr_array_index(gen->params, i);
    if (param->values->len > 1 && strcmp(pt->names[i], sw->x) != 0 &&
        strcmp(pt->names[i], "spec") != 0) /* the keys that tell series apart */
      g_string_append_printf(s, " %s=%s", pt->names[i], pt->values[i]);
  }
  if (strcmp(pt->tree, "none") != 0)
    g_string_append_printf(s, " tree=%s", pt->tree);
  return g_string_free(s, FALSE);
}

/* An axis label that says what a metric or parameter counts and in what
 * unit: path lengths count the switches a path crosses, times are in
 * seconds. Names without an entry are shown as they are. */
static char *axis_label(const char *name)
{
  static const struct { const char *name, *label; } known[] = {
    { "machines", "machines" },
    { "switches", "switches" },
    { "links", "links (machine and switch links)" },
    { "graph_links", "switch-graph links" },
    { "graph_degree", "mean switch-graph degree (links per switch)" },
    { "degree", "mean switch-graph degree (links per switch)" },
    { "patch_links", "links added to connect the graph" },
    { "ratio", "machines per switch" },
    { "path_min", "shortest machine-to-machine path (switches crossed)" },
    { "path_mean", "mean machine-to-machine path (switches crossed)" },
    { "path_max", "longest machine-to-machine path (switches crossed)" },
    { "a2a_load", "all-to-all bottleneck load (messages on one link)" },
    { "a2a_bottleneck_links", "links at the all-to-all bottleneck load" },
    { "a2a_time_s", "all-to-all time bound (s)" },
    { "a2a_throughput_bps", "all-to-all throughput bound (bit/s)" },
    { "two_hop", "2-hop ring condition holds (1) or not (0)" },
    { "lr1_max_path", "LR1 longest ring hop (switches crossed)" },
    { "lr1_mean_hop", "LR1 mean ring hop (switches crossed)" },
    { "lr2_max_path", "LR2 longest ring hop (switches crossed)" },
    { "lr2_mean_hop", "LR2 mean ring hop (switches crossed)" },
    { "lr3_max_path", "LR3 longest ring hop (switches crossed)" },
    { "lr3_mean_hop", "LR3 mean ring hop (switches crossed)" },
    { "alg4_height", "Algorithm 4 tree height (levels)" },
    { "alg5_height", "Algorithm 5 tree height (levels)" },
    { "alg5_degree", "Algorithm 5 largest fan-out (children)" },
    { "cbt_height", "complete binary tree height (levels)" },
    { "alg5_over_cbt", "Algorithm 5 height / complete binary tree height" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(known); i++)
    if (strcmp(known[i].name, name) == 0)
      return g_strdup(known[i].label);
  if (g_str_has_suffix(name, ".completion_s"))
    return g_strdup_printf("%.*s completion time (s)", (int)(strlen(name) - 13), name);
  if (g_str_has_suffix(name, ".ratio"))
    return g_strdup_printf("%.*s time / bound", (int)(strlen(name) - 6), name);
  return g_strdup(name);
}

/* TRUE when x is a parameter of the point's generator: its values order
 * the series, so points are joined by lines. When x is a metric (the mean
 * machine count of a point, say), it does not order anything: points. */
static gboolean x_is_parameter(const NsSweep *sw, guint p)
{
  const NsSweepPoint *pt = g_ptr_array_index(sw->points, p);
  for (int i = 0; pt->names[i] != NULL; i++)
    if (strcmp(pt->names[i], sw->x) == 0)
      return TRUE;
  return FALSE;
}

typedef struct {
  double x;
  guint p;
} XPoint;

static int compare_x(const void *a, const void *b)
{
  const XPoint *u = a, *v = b;
  return u->x != v->x ? (u->x > v->x) - (u->x < v->x) : (u->p > v->p) - (u->p < v->p);
}

static char *plot_name(const char *metrics)
{
  GString *s = g_string_new("plot-");
  for (const char *c = metrics; *c != '\0'; c++)
    g_string_append_c(s, g_ascii_isalnum(*c) || *c == '_' || *c == '.' || *c == '-' ? *c
                         : *c == '+' ? '+' : '_');
  return g_string_free(s, FALSE);
}

/* Counts in *drawn the plots gnuplot wrote (none without gnuplot). */
static gboolean write_plot(const NsSweep *sw, const char *outdir, const char *entry,
                           GPtrArray *names, const PointStats *ps, guint *drawn,
                           NsWarnFunc warn, void *warn_data, GError **error)
{
  g_auto(GStrv) metrics = g_strsplit(entry, "+", -1);
  g_autofree char *base = plot_name(entry);
  g_autofree char *dat_name = g_strdup_printf("%s.dat", base);
  g_autofree char *gp_name = g_strdup_printf("%s.gp", base);
  g_autoptr(GString) dat = g_string_new(NULL);
  g_string_append_printf(dat, "# netsched sweep %s: x mean ci95_lo ci95_hi per series\n",
                         sw->digest);
  g_autoptr(GString) plot = g_string_new("plot ");
  guint n_points = sw->points->len;
  XPoint *xs = g_new(XPoint, n_points);
  gboolean *done = g_new0(gboolean, n_points);
  int block = 0;
  for (int k = 0; metrics[k] != NULL; k++) {
    int m = metric_index(names, g_strstrip(metrics[k]));
    memset(done, 0, sizeof(gboolean) * n_points);
    for (guint p = 0; p < n_points; p++) {
      if (done[p])
        continue;
      g_autofree char *label = series_label(sw, p);
      guint n = 0;
      for (guint q = p; q < n_points; q++) {
        g_autofree char *other = series_label(sw, q);
        if (!done[q] && strcmp(label, other) == 0) {
          done[q] = TRUE;
          double x = point_x(sw, q, names, ps);
          if (isfinite(x) && m >= 0 && ps[q].summary[m].n > 0)
            xs[n++] = (XPoint){ x, q };
        }
      }
      if (n == 0)
        continue;
      qsort(xs, n, sizeof(XPoint), compare_x);
      g_string_append_printf(dat, "%s# %s: %s\n", block ? "\n\n" : "", metrics[k], label);
      for (guint i = 0; i < n; i++) {
        const NsSummary *s = &ps[xs[i].p].summary[m];
        g_autoptr(GString) line = g_string_new(NULL);
        ns_json_append_number(line, xs[i].x, FALSE);
        const double vals[] = { s->mean, s->ci95_lo, s->ci95_hi };
        for (int f = 0; f < 3; f++) {
          g_string_append_c(line, ' ');
          ns_json_append_number(line, vals[f], FALSE);
        }
        g_string_append_printf(dat, "%s\n", line->str);
      }
      g_autofree char *title_text = metrics[1] != NULL ? g_strdup_printf("%s, %s", metrics[k], label)
                                                       : g_strdup(label);
      g_autofree char *title = ns_gnuplot_string(title_text);
      g_autofree char *file = ns_gnuplot_string(dat_name);
      g_string_append_printf(plot, "%s%s index %d using 1:2:3:4 with %s pt %d title %s",
                             block ? ", \\\n     " : "", file, block,
                             x_is_parameter(sw, p) ? "yerrorlines" : "yerrorbars",
                             1 + block % 13, title);
      block++;
    }
  }
  g_free(xs);
  g_free(done);
  if (block == 0)
    return TRUE;
  g_autofree char *title_text = sw->description != NULL
                                   ? g_strdup(sw->description)
                                   : g_strdup_printf("%s against %s", entry, sw->x);
  g_autofree char *title = ns_gnuplot_string(title_text);
  g_autofree char *xlabel_text = axis_label(sw->x);
  g_autofree char *xlabel = ns_gnuplot_string(xlabel_text);
  g_auto(GStrv) parts = g_strsplit(entry, "+", -1);
  for (int k = 0; parts[k] != NULL; k++) {
    char *label = axis_label(g_strstrip(parts[k]));
    g_free(parts[k]);
    parts[k] = label;
  }
  g_autofree char *joined = g_strjoinv("; ", parts);
  g_autofree char *ylabel = ns_gnuplot_string(joined);
  g_autoptr(GString) gp = g_string_new(NULL);
  g_string_append_printf(gp,
                         "# netsched sweep: %s against %s, means with 95%% confidence "
                         "intervals.\n# Data in %s, one block per series.\n"
                         "set title %s noenhanced\nset xlabel %s noenhanced\n"
                         "set ylabel %s noenhanced\nset key below noenhanced\n"
                         "set grid\nset offsets graph 0.03, graph 0.03, graph 0.05, 0\n",
                         entry, sw->x, dat_name, title, xlabel, ylabel);
  const char *terms[][2] = { { "svg size 1000,550", "svg" }, { "pngcairo size 1000,550", "png" } };
  g_autofree char *svg = g_strdup_printf("%s.%s", base, terms[0][1]);
  g_autofree char *png = g_strdup_printf("%s.%s", base, terms[1][1]);
  const char *outputs[] = { svg, png, NULL };
  for (int t = 0; t < 2; t++) {
    g_string_append_printf(gp, "set terminal %s\n", terms[t][0]);
    ns_gnuplot_output(gp, outputs[t]);
    g_string_append_printf(gp, "%s\n", plot->str);
  }
  g_autofree char *dat_path = g_build_filename(outdir, dat_name, NULL);
  g_autofree char *gp_path = g_build_filename(outdir, gp_name, NULL);
  if (!g_file_set_contents(dat_path, dat->str, -1, error) ||
      !g_file_set_contents(gp_path, gp->str, -1, error))
    return FALSE;
  g_autofree char *why = NULL;
  if (ns_plot_run(outdir, gp_name, outputs, &why, error)) {
    (*drawn)++;
    return TRUE;
  }
  if (why == NULL)
    return FALSE;
  ns_plot_warn_none(warn, warn_data, base, why, outdir);
  return TRUE;
}

/* ---- finishing ---------------------------------------------------------------------------- */

gboolean ns_sweep_finish(const NsSweep *sw, const char *outdir, char **rows, FILE *report,
                         NsWarnFunc warn, void *warn_data, GError **error)
{
  gboolean ok = FALSE;
  char *agg_json = NULL, *agg_csv = NULL;
  g_autofree char *header = ns_sweep_header(sw, 0, 1);
  GString *jsonl = g_string_new(header);
  GString *csv = g_string_new(csv_head);
  for (int m = 0; m < N_METRICS; m++)
    g_string_append_printf(csv, ",%s", ns_sweep_metrics[m].name);
  g_string_append(csv, ",path_hist,lr3_error,alg5_error,measures\n");
  g_autoptr(GPtrArray) names = ns_sweep_metric_names(sw);
  Table tab = { .n_names = names->len };
  tab.values = g_new(double, (gsize)sw->n_tasks * MAX(names->len, 1));
  PointStats *ps = g_new0(PointStats, sw->points->len);
  for (guint p = 0; p < sw->points->len; p++) {
    ps[p].summary = g_new0(NsSummary, MAX(names->len, 1));
    ps[p].hist = g_array_new(FALSE, TRUE, sizeof(double));
  }
  for (guint t = 0; t < sw->n_tasks; t++) { /* one row parsed at a time */
    g_string_append_printf(jsonl, "%s\n", rows[t]);
    g_autoptr(JsonParser) parser = json_parser_new();
    GError *perr = NULL;
    if (!json_parser_load_from_data(parser, rows[t], -1, &perr) ||
        !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
      g_autofree char *label = ns_sweep_task_label(sw, t);
      g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "%s: the row of task %u (%s) is not a JSON "
                  "object: %s", outdir, t, label, perr ? perr->message : "not an object");
      g_clear_error(&perr);
      goto out;
    }
    JsonObject *r = json_node_get_object(json_parser_get_root(parser));
    csv_row(sw, t, r, csv);
    table_add(sw, &tab, names, ps, t, r);
  }
  summarize_points(sw, &tab, ps);
  agg_json = aggregate_json(sw, names, ps);
  agg_csv = aggregate_csv(sw, names, ps);
  if (!ns_output_write_in(outdir, "rows.jsonl", jsonl->str, -1, error) ||
      !ns_output_write_in(outdir, "rows.csv", csv->str, -1, error) ||
      !ns_output_write_in(outdir, "aggregate.json", agg_json, -1, error) ||
      !ns_output_write_in(outdir, "aggregate.csv", agg_csv, -1, error))
    goto out;
  guint drawn = 0;
  for (guint i = 0; i < sw->plots->len; i++)
    if (!write_plot(sw, outdir, g_ptr_array_index(sw->plots, i), names, ps, &drawn, warn,
                    warn_data, error))
      goto out;
  if (report != NULL) {
    g_autofree char *files = g_build_filename(outdir, "{rows.jsonl,rows.csv,aggregate.json,"
                                                      "aggregate.csv}", NULL);
    fprintf(report, "wrote %s", files);
    if (drawn > 0)
      fprintf(report, " and %u plot%s", drawn, drawn == 1 ? "" : "s");
    fprintf(report, "\n");
  }
  ok = TRUE;
out:
  g_free(agg_json);
  g_free(agg_csv);
  g_free(tab.values);
  for (guint p = 0; p < sw->points->len; p++) {
    g_free(ps[p].summary);
    g_array_unref(ps[p].hist);
  }
  g_free(ps);
  g_string_free(jsonl, TRUE);
  g_string_free(csv, TRUE);
  return ok;
}
