/* netsched verify — prove a schedule correct on a topology. */
#include "cli/cli.h"
#include "platforms/model/error.h"
#include "platforms/io/hostlist_internal.h"
#include "platforms/model/units.h"
#include "sched/io/schedule_json.h"
#include "sched/io/schedule_stream.h"
#include "sched/verify/verify.h"
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sys/stat.h>

/* The progress line is formatted at most once every 2^16 transfers (and
 * for the last count): after each phase it took a third of the CPU time
 * of `verify -a faraj` on 16,384 machines (15.7 M phases of 17 transfers). */
#define PROGRESS_EVERY ((uint64_t)1 << 16)
#include <string.h>

/* Everything a run writes: text, one JSON document (an object for one
 * schedule, an array for several), one JUnit document with a suite per
 * schedule. Inputs that cannot be verified (bad files: exit status 2) get a
 * report too, saying why, so a CI job's report step never finds nothing. */
typedef struct {
  gboolean json, quiet;
  unsigned required;
  GPtrArray *reports;     /* --json: JsonNode per schedule */
  FILE *junit;            /* --junit, NULL otherwise */
  int n;                  /* schedules handled */
} Output;

static void report_error(Output *o, const char *name, const GError *error)
{
  if (o->reports != NULL) {
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "format");
    json_builder_add_string_value(b, "netsched-verify");
    json_builder_set_member_name(b, "schedule");
    json_builder_add_string_value(b, name);
    json_builder_set_member_name(b, "passed");
    json_builder_add_boolean_value(b, FALSE);
    json_builder_set_member_name(b, "exit_status");
    json_builder_add_int_value(b, ns_error_exit_status(error));
    json_builder_set_member_name(b, "error");
    json_builder_add_string_value(b, error->message);
    json_builder_end_object(b);
    g_ptr_array_add(o->reports, json_builder_get_root(b));
  }
  if (o->junit != NULL)
    ns_verify_junit_error(name, error->message, o->junit);
}

static void print_reports(GPtrArray *reports, gboolean as_array)
{
  g_autoptr(JsonNode) root = NULL;
  if (as_array || reports->len != 1) {
    JsonArray *a = json_array_new();
    for (guint i = 0; i < reports->len; i++)
      json_array_add_element(a, json_node_ref(g_ptr_array_index(reports, i)));
    root = json_node_init_array(json_node_alloc(), a);
    json_array_unref(a);
  } else {
    root = json_node_ref(g_ptr_array_index(reports, 0));
  }
  g_autoptr(JsonGenerator) gen = json_generator_new();
  json_generator_set_pretty(gen, TRUE);
  json_generator_set_root(gen, root);
  g_autofree char *text = json_generator_to_data(gen, NULL);
  printf("%s\n", text);
}

/* Writes the report of one verified schedule; returns the exit status. */
static int report_one(const NsVerifyReport *r, const NsTopology *t, const NsSchedule *s,
                      const char *file, Output *o)
{
  if (o->reports != NULL) {
    g_ptr_array_add(o->reports, ns_verify_report_json(r, t, s, file, o->required));
  }
  else if (!o->quiet) {
    if (o->n > 0)
      putchar('\n');
    ns_verify_write_text(r, t, s, file, o->required, stdout);
  }
  if (o->junit != NULL)
    ns_verify_junit_suite(r, t, s, file, o->required, o->junit);
  return ns_verify_passed(r, o->required) ? 0 : 1;
}

/* Verifies a schedule file as it is read (sched/io/schedule_stream.h into a
 * verifier session): the phases are never all in memory, unless sync edges,
 * routes or a window scheme (a posted schedule checked step by step) need
 * them. A JSON file may list those after its phases, which
 * is known only at its end: the file is then read a second time, keeping
 * the phases (standard input, which cannot be read twice, keeps them from
 * the start). The reader's errors come first (exit status 2), as when the
 * file was read whole before being verified. Returns FALSE with the error;
 * on success fills *r and *session (which describes the findings: see
 * ns_verify_session_schedule; the caller frees it). */
static gboolean verify_stream(const NsTopology *t, const char *file, const NsVerifyOptions *opt,
                              const NsScheduleLimits *limits, NsVerifySession **session,
                              NsVerifyReport *r, GError **error)
{
  gboolean keep = FALSE;
  for (int pass = 0; pass < 2; pass++) {
    g_autoptr(NsScheduleReader) reader = ns_schedule_reader_open(file, error);
    if (reader == NULL)
      return FALSE;
    ns_schedule_reader_set_limits(reader, limits);
    const NsSchedule *header = ns_schedule_reader_header(reader, error);
    if (header == NULL)
      return FALSE;
    NsTailKnown known = ns_schedule_reader_tail_known(reader);
    keep = keep || known == NS_TAIL_SOME ||
           (known == NS_TAIL_UNKNOWN && !ns_schedule_reader_rereadable(reader));
    GError *verr = NULL; /* the verifier's error, reported after the reader's */
    NsVerifySession *vs = ns_verify_begin(t, header, opt, keep ? NS_VERIFY_KEEP : 0, &verr);
    NsPhase ph;
    int got;
    NsCliProgress progress;
    ns_cli_progress_init(&progress);
    GStatBuf st;
    guint64 size = ns_schedule_reader_compression(reader) == NS_COMPRESS_NONE &&
                           strcmp(file, "-") != 0 && g_stat(file, &st) == 0 && S_ISREG(st.st_mode)
                       ? (guint64)st.st_size
                       : 0;
    uint64_t shown = 0;
    while ((got = ns_schedule_reader_next_phase(reader, &ph, error)) >= 0) {
      if (got > 0 && vs != NULL && verr == NULL)
        ns_verify_phase(vs, ph.transfers, ph.n, ph.chunk_pool, &verr);
      uint64_t n = ns_schedule_reader_n_transfers(reader);
      /* every PROGRESS_EVERY transfers, and the last count (for the "done" line) */
      if (got > 0 ? n - shown >= PROGRESS_EVERY : n > shown) {
        shown = n;
        if (size > 0)
          ns_cli_progress_show(&progress, "verify %s: %.0f %%, %" G_GUINT64_FORMAT " transfers",
                               file,
                               100.0 * (double)ns_schedule_reader_position(reader) / (double)size,
                               n);
        else
          ns_cli_progress_show(&progress, "verify %s: %" G_GUINT64_FORMAT " transfers", file, n);
      }
      if (got == 0)
        break;
    }
    ns_cli_progress_end(&progress);
    g_autoptr(NsSchedule) tail = got < 0 ? NULL : ns_schedule_reader_finish(reader, error);
    if (tail == NULL || verr != NULL) {
      if (tail != NULL) /* the reader's errors name the file; the verifier's do not */
        g_propagate_prefixed_error(error, verr, "%s: ", file);
      else
        g_clear_error(&verr);
      ns_verify_session_free(vs);
      return FALSE;
    }
    if (!keep && ns_verify_tail_needs_phases(header, tail)) {
      /* sync edges, routes or a window scheme after the phases */
      ns_verify_session_free(vs);
      keep = TRUE;
      continue;
    }
    if (!ns_verify_end(vs, tail, r, &verr)) {
      g_propagate_prefixed_error(error, verr, "%s: ", file);
      ns_verify_session_free(vs);
      return FALSE;
    }
    *session = vs;
    return TRUE;
  }
  g_assert_not_reached();
  return FALSE;
}

/* verify -a's progress: the transfers planned so far, and those shown. */
typedef struct {
  NsCliProgress progress;
  uint64_t transfers, shown;
} PlannedProgress;

static void show_planned(uint64_t transfers, gpointer data)
{
  PlannedProgress *p = data;
  p->transfers = transfers;
  if (transfers - p->shown < PROGRESS_EVERY)
    return;
  p->shown = transfers;
  ns_cli_progress_show(&p->progress, "verify: %" G_GUINT64_FORMAT " transfers planned and checked",
                       transfers);
}

/* Verifies one schedule (a file, or planned when `file` is NULL): exit
 * status 0, 1 or 2. */
static int verify_one(const NsPlanOptions *po, const NsTopology *t, const char *file,
                      const NsVerifyOptions *opt, uint64_t max_input, Output *o)
{
  GError *error = NULL;
  const char *name = file != NULL ? file : po->algorithm;
  NsVerifyReport r = { 0 };
  int status;
  if (file != NULL) {
    NsVerifySession *vs = NULL;
    /* a header naming more machines than the topology has cannot raise the limits */
    NsScheduleLimits limits = { .max_input = max_input, .need = max_input == 0,
                                .max_machines = (uint32_t)ns_topology_n_machines(t) };
    if (!verify_stream(t, file, opt, &limits, &vs, &r, &error)) {
      ns_verify_report_clear(&r);
      report_error(o, name, error);
      return ns_cli_fail(error);
    }
    status = report_one(&r, t, ns_verify_session_schedule(vs), file, o);
    ns_verify_session_free(vs);
  } else { /* planned straight into the verifier: never held whole */
    NsCollective c;
    const char *algorithm;
    NsPlanParams params;
    NsVerifySession *vs = NULL;
    PlannedProgress progress = { 0 };
    ns_cli_progress_init(&progress.progress);
    if (ns_cli_plan_options_params(t, po, NULL, &c, &algorithm, &params, &error))
      vs = ns_verify_planned(t, c, algorithm, &params, opt, show_planned, &progress, &r, &error);
    if (progress.transfers > progress.shown) /* the last count, for the "done" line */
      ns_cli_progress_show(&progress.progress,
                           "verify: %" G_GUINT64_FORMAT " transfers planned and checked",
                           progress.transfers);
    ns_cli_progress_end(&progress.progress);
    if (vs == NULL) {
      ns_verify_report_clear(&r);
      report_error(o, name, error);
      return ns_cli_fail(error);
    }
    status = report_one(&r, t, ns_verify_session_schedule(vs), NULL, o);
    ns_verify_session_free(vs);
  }
  ns_verify_report_clear(&r);
  return status;
}

int ns_cmd_verify(int argc, char **argv)
{
  NsPlanOptions po = { 0 };
  char *junit = NULL, *port = NULL, *machines = NULL, *max_input_text = NULL;
  g_auto(GStrv) listed = NULL;
  gboolean json = FALSE, require_optimal = FALSE, require_shortest = FALSE, quiet = FALSE;
  gboolean subset = FALSE;
  int max_findings = 20;
  GOptionEntry entries[] = {
    { "port", 0, 0, G_OPTION_ARG_STRING, &port,
      "Port model of every machine (default: each machine's own, from the topology)",
      "one|all|K" },
    { "machines", 0, 0, G_OPTION_ARG_STRING, &machines,
      "The schedule is for exactly these machines, a sub-communicator (hostlist: "
      "n[0-30],x; default: every machine of the topology)", "HOSTLIST" },
    { "subset", 0, 0, G_OPTION_ARG_NONE, &subset,
      "The schedule may use any subset of the topology's machines", NULL },
    { "require-optimal", 0, 0, G_OPTION_ARG_NONE, &require_optimal,
      "Fail when the transmission time exceeds the lower bound (on trees of one speed: more "
      "phases than the bottleneck load); all-to-all and all-gather — not defined for "
      "broadcast, whose ratio to its bound is reported only", NULL },
    { "require-shortest", 0, 0, G_OPTION_ARG_NONE, &require_shortest,
      "Fail when an all-to-all message takes a longer path than a shortest one", NULL },
    { "max-findings", 0, 0, G_OPTION_ARG_INT, &max_findings,
      "Findings listed per kind (all are counted; default 20)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      "Print the report as JSON (an array with several schedules)", NULL },
    { "junit", 0, 0, G_OPTION_ARG_FILENAME, &junit,
      "Also write a JUnit XML report (one suite per schedule; written on bad input too)",
      "FILE" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing; the exit status tells", NULL },
    { "max-input", 0, 0, G_OPTION_ARG_STRING, &max_input_text,
      "Read at most SIZE of a schedule file, decompressed (default: what the schedule's "
      "collective can need on its machines, docs/verify.md)", "SIZE" },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx =
      g_option_context_new("[SCHEDULE...] - verify schedules (- reads standard input)");
  g_option_context_set_summary(
      ctx, "Replays chunk ownership symbolically and checks that every required chunk is\n"
           "delivered exactly once, that the rates of a phase's transfers fit every directed\n"
           "link, the machines' port models, shortest paths, the transmission time against\n"
           "the lower bound (optimality), the sync edges, and that the schedule covers every\n"
           "machine of the topology (or those of --machines, or any with --subset). A posted\n"
           "schedule under window:W (the shuffles) is checked step by step. Give SCHEDULE files, or\n"
           "--algorithm to plan one in memory. Files are JSON or JSON Lines, plain, gzip or\n"
           "zstd (recognised by content), and are verified as they are read.");
  g_option_context_set_description(
      ctx, "Exit status: 0 every check passed, 1 a check failed, 2 bad input (the worst\n"
           "over all schedules). --json and --junit report bad input too.\n"
           "Example:\n  netsched verify a.json b.json -T scenarios/topologies/faraj-c.topo "
           "--junit verify.xml\n");
  ns_cli_add_plan_options(ctx, &po);
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  GError *error = NULL;
  g_autoptr(NsTopology) t = NULL;
  Output o = { .json = json, .quiet = quiet };
  FILE *jf = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  o.json = json;
  o.quiet = quiet;
  o.required = (require_optimal ? NS_REQUIRE_OPTIMAL : 0) |
               (require_shortest ? NS_REQUIRE_SHORTEST : 0);
  if ((po.algorithm == NULL && argc < 2) || (po.algorithm != NULL && argc != 1)) {
    status = ns_cli_usage("verify", "give SCHEDULE files, or --algorithm to plan one");
    goto out;
  }
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.max_findings = MAX(max_findings, 0);
  if (machines != NULL && subset) {
    status = ns_cli_usage("verify", "--machines and --subset exclude each other");
    goto out;
  }
  if (machines != NULL) {
    g_autofree char *why = NULL;
    listed = ns_hostlist_expand(machines, &why);
    if (listed == NULL || listed[0] == NULL) {
      status = ns_cli_usage("verify", "--machines: %s", why != NULL ? why : "names no machine");
      goto out;
    }
    opt.coverage = NS_COVER_LISTED;
    opt.machines = (const char *const *)listed;
  } else if (subset) {
    opt.coverage = NS_COVER_SUBSET;
  }
  uint64_t max_input = 0; /* what the collective can need */
  if (max_input_text != NULL) {
    const char *why = NULL;
    if (!ns_parse_size(max_input_text, &max_input, &why)) {
      status = ns_cli_usage("verify", "--max-input '%s': %s", max_input_text, why);
      goto out;
    }
    opt.max_kept = 0; /* a size given: the phases kept are bounded by it too */
  }
  if (port != NULL) {
    NsPortKind kind;
    if (ns_port_kind_parse(port, &kind, &opt.k))
      opt.port = kind == NS_PORTS_ALL ? NS_PORT_ALL : kind == NS_PORTS_K ? NS_PORT_K : NS_PORT_ONE;
    else {
      status = ns_cli_usage("verify", "--port takes one, all or a number of ports, not '%s'", port);
      goto out;
    }
  }
  if (json)
    o.reports = g_ptr_array_new_with_free_func((GDestroyNotify)json_node_unref);
  if (junit != NULL) {
    if ((jf = ns_cli_open_output(junit, &error)) == NULL) {
      status = ns_cli_fail(error);
      goto out;
    }
    o.junit = jf;
    ns_verify_junit_begin(jf);
  }
  t = ns_cli_plan_topology(&po, &error);
  const char *bad = po.topology != NULL ? po.topology : "topology"; /* what bad input names */
  for (int i = 0; t != NULL && listed != NULL && listed[i] != NULL; i++)
    if (ns_topology_find_machine(t, listed[i]) < 0) {
      error = g_error_new(NS_ERROR, NS_ERROR_INPUT, "--machines: '%s' is not a machine of %s",
                          listed[i], ns_topology_source(t));
      bad = "--machines";
      g_clear_pointer(&t, ns_topology_free);
    }
  if (t == NULL) {
    report_error(&o, bad, error);
    status = ns_cli_fail(error);
  } else if (po.algorithm != NULL) {
    status = verify_one(&po, t, NULL, &opt, max_input, &o);
  } else {
    status = 0;
    for (int i = 1; i < argc; i++, o.n++) {
      int one = verify_one(&po, t, argv[i], &opt, max_input, &o); /* not inside MAX(): evaluated twice */
      status = MAX(status, one);
    }
  }
  if (o.reports != NULL) /* one object, or an array for several schedules */
    print_reports(o.reports, argc > 2 && po.algorithm == NULL);
  if (jf != NULL) {
    ns_verify_junit_end(jf);
    if (!ns_cli_close_output(jf, junit, &error))
      status = ns_cli_fail(error);
    jf = NULL;
  }
out:
  if (jf != NULL)
    ns_cli_abort_output(jf);
  if (o.reports != NULL)
    g_ptr_array_unref(o.reports);
  ns_cli_plan_options_clear(&po);
  g_free(junit);
  g_free(port);
  g_free(machines);
  g_free(max_input_text);
  return status;
}
