/* netsched — verification reports: text, JSON and JUnit XML. */
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/verify/verify.h"
#include <json-glib/json-glib.h>

static char *transfer_text(const NsSchedule *s, int64_t t)
{
  const NsTransfer *tr = ns_schedule_transfer(s, (uint64_t)t);
  return g_strdup_printf("#%" G_GINT64_FORMAT " %s->%s", t, s->machines[tr->src],
                         s->machines[tr->dst]);
}

/* A reduction's raw chunk o·S + seg (schedule.h, "Raw contributions"). */
static char *raw_chunk_text(const NsSchedule *s, uint32_t c)
{
  uint32_t segs = MAX(s->n_segments, 1);
  return g_strdup_printf("the raw contribution of %s to segment %u", s->machines[c / segs],
                         c % segs);
}

static char *chunk_text(const NsSchedule *s, uint32_t c)
{
  switch (s->collective) {
  case NS_COLL_ALLTOALL:
    return g_strdup_printf("message %s->%s", s->machines[c / (uint32_t)s->n_machines],
                           s->machines[c % (uint32_t)s->n_machines]);
  case NS_COLL_ALLGATHER:
    return g_strdup_printf("block of %s", s->machines[c]);
  case NS_COLL_BCAST:
  case NS_COLL_REDUCE:
  case NS_COLL_ALLREDUCE:
    return g_strdup_printf("segment %u", c);
  case NS_COLL_ALLTOALLV:
    return g_strdup_printf("message %s->%s (%" G_GUINT64_FORMAT " B)",
                           s->machines[c / (uint32_t)s->n_machines],
                           s->machines[c % (uint32_t)s->n_machines], ns_schedule_chunk_size(s, c));
  case NS_COLL_ALLGATHERV:
    return g_strdup_printf("block of %s (%" G_GUINT64_FORMAT " B)", s->machines[c],
                           ns_schedule_chunk_size(s, c));
  }
  return g_strdup("?");
}

/* "#5 n0->n1 (phase 2) waits for #9 n2->n3 (phase 1) waits for ... #5":
 * the first wait cycle, in wait order. */
static char *cycle_text(const NsSchedule *s, const GArray *cycle)
{
  GString *g = g_string_new("sync edges and program order wait in a cycle, so every execution "
                            "deadlocks: ");
  for (guint i = 0; cycle != NULL && i <= cycle->len && cycle->len > 0; i++) {
    uint32_t t = g_array_index(cycle, uint32_t, i % cycle->len);
    g_autofree char *text = transfer_text(s, t);
    g_string_append_printf(g, "%s%s (phase %u)", i ? " -> " : "", text,
                           ns_schedule_transfer_phase(s, t));
    if (i > 10 && i + 1 < cycle->len) {
      g_string_append_printf(g, " -> ... (%u transfers in all)", cycle->len);
      break;
    }
  }
  return g_string_free(g, FALSE);
}

/* "phase 3", or "phase 0 step 7" in a schedule checked step by step. */
static char *where_text(const NsFinding *f)
{
  if (f->step >= 0)
    return g_strdup_printf("phase %" G_GINT64_FORMAT " step %" G_GINT64_FORMAT, f->phase,
                           f->step);
  return g_strdup_printf("phase %" G_GINT64_FORMAT, f->phase);
}

/**
 * \function ns_finding_describe
 * \brief One line describing a finding.
 *
 * E.g. "phase 3: transfers #12 n0->n5 and #9 n1->n6 share edge s0->s1";
 * user text in it is escaped.
 *
 * \param f The finding.
 * \param topo The topology verified on.
 * \param s The schedule (ns_verify_session_schedule() for a session).
 * \return Newly allocated text.
 * \errors none.
 * \complexity O(length of the line).
 * \source docs/verify.md.
 */
char *ns_finding_describe(const NsFinding *f, const NsTopology *topo, const NsSchedule *s)
{
  g_autofree char *t1 = f->t1 >= 0 ? transfer_text(s, f->t1) : NULL;
  g_autofree char *t2 = f->t2 >= 0 ? transfer_text(s, f->t2) : NULL;
  /* NOT_HELD and REDUNDANT of a reduction's raw transfer: `bound` 1 */
  gboolean raw = ns_collective_is_reduction(s->collective) && f->bound == 1 &&
                 (f->kind == NS_FIND_NOT_HELD || f->kind == NS_FIND_REDUNDANT);
  g_autofree char *chunk = raw ? raw_chunk_text(s, f->chunk) : chunk_text(s, f->chunk);
  const char *who = f->machine >= 0 ? s->machines[f->machine] : "?";
  switch (f->kind) {
  case NS_FIND_NOT_HELD:
    if (s->store_forward && s->collective == NS_COLL_ALLTOALL) /* one holder a message */
      return g_strdup_printf("phase %" G_GINT64_FORMAT ": transfer %s sends %s, which %s "
                             "does not hold (store and forward: a copy is gone once "
                             "forwarded)",
                             f->phase, t1, chunk, who);
    return g_strdup_printf("phase %" G_GINT64_FORMAT ": transfer %s sends %s, which %s "
                           "does not hold yet",
                           f->phase, t1, chunk, who);
  case NS_FIND_DUPLICATE:
    if (ns_collective_is_reduction(s->collective))
      return g_strdup_printf("phase %" G_GINT64_FORMAT ": transfer %s combines %s into %s's "
                             "partial result, which holds %s's contribution already: it is "
                             "counted twice",
                             f->phase, t1, chunk, who, s->machines[f->value]);
    return g_strdup_printf("phase %" G_GINT64_FORMAT ": transfer %s delivers %s to %s a "
                           "second time",
                           f->phase, t1, chunk, who);
  case NS_FIND_MISSING:
    if (ns_collective_is_reduction(s->collective))
      return g_strdup_printf("%s's %s lacks %" G_GUINT64_FORMAT " contribution%s (first: %s's)",
                             who, chunk, f->value, f->value == 1 ? "" : "s",
                             s->machines[f->bound]);
    if (f->value > 1) /* whole segments no transfer carries */
      return g_strdup_printf("segments %u and up are carried by no transfer: %" G_GUINT64_FORMAT
                             " deliveries missing",
                             f->chunk, f->value);
    return g_strdup_printf("%s never reaches %s", chunk, who);
  case NS_FIND_REDUNDANT:
    if (f->value == 1)
      return g_strdup_printf("phase %" G_GINT64_FORMAT ": transfer %s carries %s twice",
                             f->phase, t1, chunk);
    return g_strdup_printf("phase %" G_GINT64_FORMAT ": transfer %s delivers %s to %s, which "
                           "holds it already (redundant delivery)",
                           f->phase, t1, chunk, who);
  case NS_FIND_CYCLE:
    return cycle_text(s, f->cycle);
  case NS_N_FINDING_KINDS:
    break;
  case NS_FIND_UNCOVERED:
    return g_strdup_printf(f->bound ? "machine %s, asked for, is not in the schedule"
                                    : "machine %s of the topology is not in the schedule",
                           ns_topology_machine_name(topo, (int)f->value));
  case NS_FIND_UNLISTED:
    return g_strdup_printf("schedule machine %s is not among the machines asked for", who);
  case NS_FIND_EDGE: {
    g_autofree char *where = where_text(f);
    g_autofree char *edge = ns_topology_edge_name(topo, f->edge);
    if (f->count <= 2)
      return g_strdup_printf("%s: transfers %s and %s share edge %s", where, t2, t1, edge);
    g_autofree char *bw = ns_format_bandwidth(ns_topology_link(topo, ns_edge_link(f->edge))->bandwidth);
    return g_strdup_printf("%s: edge %s (%s) carries %u transfers, more than its bandwidth "
                           "allows (first %s, now %s)",
                           where, edge, bw, f->count, t2, t1);
  }
  case NS_FIND_PORT_SEND:
  case NS_FIND_PORT_RECV: {
    g_autofree char *where = where_text(f);
    if (f->bound == 1)
      return g_strdup_printf("%s: %s %s twice (%s and %s), 1-port model", where, who,
                             f->kind == NS_FIND_PORT_SEND ? "sends" : "receives", t2, t1);
    return g_strdup_printf("%s: %s %s %u transfers (first %s, now %s) with %" G_GUINT64_FORMAT
                           " ports",
                           where, who, f->kind == NS_FIND_PORT_SEND ? "sends" : "receives",
                           f->count, t2, t1, f->bound);
  }
  case NS_FIND_DETOUR:
    return g_strdup_printf("phase %" G_GINT64_FORMAT ": %s arrives with transfer %s after %"
                           G_GUINT64_FORMAT " hops, a shortest path has %" G_GUINT64_FORMAT,
                           f->phase, chunk, t1, f->value, f->bound);
  case NS_FIND_SLOWER:
    return g_strdup("the transmission time exceeds the lower bound (see the optimal line)");
  case NS_FIND_UNORDERED:
    return g_strdup_printf("transfers %s and %s contend in different phases but neither program "
                           "order nor the %s sync edges order them (%" G_GUINT64_FORMAT
                           " such pair%s)",
                           t2, t1, s->sync_scheme ? s->sync_scheme : "", f->value,
                           f->value == 1 ? "" : "s");
  case NS_FIND_PHASES:
    return g_strdup_printf("%" G_GUINT64_FORMAT " phases where the bottleneck load "
                           "allows %" G_GUINT64_FORMAT "%s",
                           f->value, f->bound,
                           f->value < f->bound ? " (only possible with contention)" : "");
  }
  return g_strdup("?");
}

/* Optimality and shortest paths are informative unless required. */
static gboolean informative(NsCheck c, unsigned required)
{
  return (c == NS_CHECK_OPTIMAL && !(required & NS_REQUIRE_OPTIMAL)) ||
         (c == NS_CHECK_SHORTEST && !(required & NS_REQUIRE_SHORTEST));
}

/* Why optimality did not run, for the reports. */
static const char *optimal_skip_text(NsOptimalSkip why, NsCollective c)
{
  switch (why) {
  case NS_OPTIMAL_RAN: break;
  case NS_OPTIMAL_POSTED: return "not applicable (posted: no phases to count)";
  case NS_OPTIMAL_SUBSET: return "not applicable (the bound is for all the topology's machines)";
  case NS_OPTIMAL_INVALID: return "not checked (the schedule fails a check above)";
  case NS_OPTIMAL_UNDEFINED:
    return c == NS_COLL_REDUCE ? "not defined for reduce" : "not defined for broadcast";
  case NS_OPTIMAL_PATTERN: return "not checked (the bound of a size pattern: netsched bound)";
  }
  return "not applicable";
}

static const char *verdict(const NsVerifyReport *r, NsCheck c, unsigned required)
{
  if (!r->ran[c])
    return c == NS_CHECK_OPTIMAL ? optimal_skip_text(r->optimal_skip, r->collective) : "not applicable";
  if (r->failures[c] == 0)
    return "ok";
  return informative(c, required) ? "no" : "FAILED";
}

/* "— 9 phases, bottleneck load 9" on trees of one speed, else times. */
static void optimal_detail(const NsVerifyReport *r, const NsTopology *topo, unsigned required,
                           FILE *out)
{
  g_autofree char *why = ns_lower_bound_describe(topo, &r->bound);
  if (r->lower_bound > 0)
    fprintf(out, " — %" G_GUINT64_FORMAT " phase%s, bound %" G_GUINT64_FORMAT " (%s)",
            r->n_phases, r->n_phases == 1 ? "" : "s", r->lower_bound, why);
  if (r->lower_bound == 0)
    fprintf(out, " — transmission %.6g s against the lower bound %.6g s (x%.4f; %s)",
            r->transmission_s, r->bound_s, r->bound_s > 0 ? r->transmission_s / r->bound_s : 0,
            why);
  if (!(required & NS_REQUIRE_OPTIMAL) || r->optimal_skip == NS_OPTIMAL_UNDEFINED)
    fputs(" (informative)", out);
}

/* The name a report gives the schedule: its file, or "(planned)". */
static const char *schedule_name(const char *file)
{
  return file != NULL ? file : "(planned)";
}

/* "covers all 32 machines of the topology", "subset of 31 of 32, as asked". */
static char *coverage_text(const NsVerifyReport *r)
{
  gboolean ok = r->failures[NS_CHECK_COVERAGE] == 0;
  switch (r->coverage) {
  case NS_COVER_SUBSET:
    return g_strdup_printf("subset of %d of %d, as asked", r->n_machines, r->topo_machines);
  case NS_COVER_LISTED:
    if (ok)
      return g_strdup_printf("the %d machines asked for, of %d in the topology", r->n_listed,
                             r->topo_machines);
    return g_strdup_printf("%d machines, not the %d asked for (%d in the topology)", r->n_machines,
                           r->n_listed, r->topo_machines);
  case NS_COVER_ALL:
    break;
  }
  if (ok)
    return g_strdup_printf("covers all %d machines of the topology", r->topo_machines);
  return g_strdup_printf("%d of the topology's %d machines: a sub-communicator needs --machines "
                         "or --subset",
                         r->n_machines, r->topo_machines);
}

/**
 * \function ns_verify_write_text
 * \brief Writes a verification report for people.
 *
 * \param r The report.
 * \param topo The topology verified on.
 * \param s The schedule (ns_verify_session_schedule() for a session).
 * \param file The schedule's file, or NULL for "(planned)".
 * \param required NsRequire bits that decide the verdict.
 * \param out The stream (the caller checks it).
 * \errors none (the caller checks the stream).
 * \complexity O(checks + findings kept).
 * \source docs/verify.md.
 */
void ns_verify_write_text(const NsVerifyReport *r, const NsTopology *topo,
                          const NsSchedule *s, const char *file, unsigned required, FILE *out)
{
  g_autofree char *coverage = coverage_text(r);
  fprintf(out, "schedule   %s: %s/%s on %s\n", schedule_name(file),
          ns_collective_name(s->collective), s->algorithm, ns_topology_source(topo));
  fprintf(out, "machines   %s\n", coverage);
  fprintf(out, "execution  %s: %" G_GUINT64_FORMAT " phase%s, %" G_GUINT64_FORMAT
               " transfers, %" G_GUINT64_FORMAT " chunk moves\n",
          ns_execution_name(s->execution), r->n_phases, r->n_phases == 1 ? "" : "s",
          r->n_transfers, r->n_chunk_moves);
  if (r->stepped)
    fprintf(out, "steps      under %s, contention and ports checked step by step: %"
                 G_GUINT64_FORMAT " steps, step k = each sender's k-th transfer (Tam & Wang "
                 "§3.1); the window's overlap of consecutive steps is left to the switch "
                 "buffers it is sized for (§3.2)\n",
            s->sync_scheme, r->n_steps);
  fprintf(out, "delivered  %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " required\n",
          r->n_delivered, r->n_required);
  for (int c = 0; c < NS_N_CHECKS; c++) {
    fprintf(out, "  %-16s %s", ns_check_name(c), verdict(r, c, required));
    if (r->ran[c] && r->failures[c] > 0 && c != NS_CHECK_OPTIMAL)
      fprintf(out, " (%" G_GUINT64_FORMAT " finding%s)", r->failures[c],
              r->failures[c] == 1 ? "" : "s");
    if (c == NS_CHECK_OPTIMAL && (r->ran[c] || r->optimal_skip == NS_OPTIMAL_UNDEFINED))
      optimal_detail(r, topo, required, out);
    if (c == NS_CHECK_SHORTEST && r->ran[c] && !(required & NS_REQUIRE_SHORTEST))
      fputs(" (informative)", out);
    if (c == NS_CHECK_CONTENTION && r->max_edge_use > 1)
      fprintf(out, " — up to %" G_GUINT64_FORMAT " transfers on one edge in a %s",
              r->max_edge_use, r->stepped ? "step" : "phase");
    fputc('\n', out);
  }
  fprintf(out, "path       longest route crosses %d node%s between its ends\n", r->max_path_len,
          r->max_path_len == 1 ? "" : "s");
  /* Findings grouped by check, each group with its overflow count. */
  for (int c = 0; c < NS_N_CHECKS; c++) {
    uint64_t shown = 0;
    for (guint i = 0; i < r->findings->len; i++) {
      const NsFinding *f = &g_array_index(r->findings, NsFinding, i);
      if (ns_finding_check(f->kind) != (NsCheck)c || f->kind == NS_FIND_SLOWER)
        continue;
      g_autofree char *d = ns_finding_describe(f, topo, s);
      fprintf(out, "  [%s] %s\n", ns_check_name(c), d);
      shown++;
    }
    if (r->failures[c] > shown && c != NS_CHECK_OPTIMAL)
      fprintf(out, "  [%s] ... and %" G_GUINT64_FORMAT " more\n", ns_check_name(c),
              r->failures[c] - shown);
  }
  fprintf(out, "verdict    %s\n", ns_verify_passed(r, required) ? "PASS" : "FAIL");
}

/**
 * \function ns_verify_report_json
 * \brief A verification report as a JSON node (for arrays of reports).
 *
 * \param r The report.
 * \param topo The topology verified on.
 * \param s The schedule (ns_verify_session_schedule() for a session).
 * \param file The schedule's file, or NULL for "(planned)".
 * \param required NsRequire bits that decide the verdict.
 * \return A new JsonNode (json_node_unref() it).
 * \errors none.
 * \complexity O(checks + findings kept).
 * \source docs/verify.md (the JSON report's fields).
 */
JsonNode *ns_verify_report_json(const NsVerifyReport *r, const NsTopology *topo,
                                const NsSchedule *s, const char *file, unsigned required)
{
  g_autoptr(JsonBuilder) b = json_builder_new();
  gboolean bounded = r->ran[NS_CHECK_OPTIMAL] || r->optimal_skip == NS_OPTIMAL_UNDEFINED;
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "format");
  json_builder_add_string_value(b, "netsched-verify");
  json_builder_set_member_name(b, "version");
  json_builder_add_int_value(b, 1);
  json_builder_set_member_name(b, "schedule");
  json_builder_add_string_value(b, schedule_name(file));
  json_builder_set_member_name(b, "topology");
  json_builder_add_string_value(b, ns_topology_source(topo));
  json_builder_set_member_name(b, "collective");
  json_builder_add_string_value(b, ns_collective_name(s->collective));
  json_builder_set_member_name(b, "algorithm");
  json_builder_add_string_value(b, s->algorithm);
  json_builder_set_member_name(b, "execution");
  json_builder_add_string_value(b, ns_execution_name(s->execution));
  json_builder_set_member_name(b, "passed");
  json_builder_add_boolean_value(b, ns_verify_passed(r, required));
  json_builder_set_member_name(b, "machines");
  json_builder_add_int_value(b, r->n_machines);
  json_builder_set_member_name(b, "topology_machines");
  json_builder_add_int_value(b, r->topo_machines);
  json_builder_set_member_name(b, "coverage");
  json_builder_add_string_value(b, r->coverage == NS_COVER_SUBSET   ? "subset"
                                   : r->coverage == NS_COVER_LISTED ? "listed"
                                                                    : "all");
  if (r->stepped) {
    json_builder_set_member_name(b, "steps");
    json_builder_add_int_value(b, (gint64)r->n_steps);
  }
  json_builder_set_member_name(b, "phases");
  json_builder_add_int_value(b, (gint64)r->n_phases);
  json_builder_set_member_name(b, "transfers");
  json_builder_add_int_value(b, (gint64)r->n_transfers);
  json_builder_set_member_name(b, "chunk_moves");
  json_builder_add_int_value(b, (gint64)r->n_chunk_moves);
  json_builder_set_member_name(b, "required");
  json_builder_add_int_value(b, (gint64)r->n_required);
  json_builder_set_member_name(b, "delivered");
  json_builder_add_int_value(b, (gint64)r->n_delivered);
  json_builder_set_member_name(b, "lower_bound_phases");
  if (r->ran[NS_CHECK_OPTIMAL] && r->lower_bound > 0)
    json_builder_add_int_value(b, (gint64)r->lower_bound);
  else
    json_builder_add_null_value(b);
  json_builder_set_member_name(b, "lower_bound_s");
  if (bounded)
    json_builder_add_double_value(b, r->bound_s);
  else
    json_builder_add_null_value(b);
  json_builder_set_member_name(b, "transmission_s");
  if (bounded)
    json_builder_add_double_value(b, r->transmission_s);
  else
    json_builder_add_null_value(b);
  json_builder_set_member_name(b, "bottleneck");
  if (bounded) {
    g_autofree char *why = ns_lower_bound_describe(topo, &r->bound);
    json_builder_add_string_value(b, why);
  } else {
    json_builder_add_null_value(b);
  }
  json_builder_set_member_name(b, "max_edge_use");
  json_builder_add_int_value(b, (gint64)r->max_edge_use);
  json_builder_set_member_name(b, "max_path_length");
  json_builder_add_int_value(b, r->max_path_len);
  json_builder_set_member_name(b, "checks");
  json_builder_begin_object(b);
  for (int c = 0; c < NS_N_CHECKS; c++) {
    json_builder_set_member_name(b, ns_check_name(c));
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "ran");
    json_builder_add_boolean_value(b, r->ran[c]);
    json_builder_set_member_name(b, "failures");
    json_builder_add_int_value(b, (gint64)r->failures[c]);
    json_builder_set_member_name(b, "verdict");
    json_builder_add_string_value(b, verdict(r, c, required));
    json_builder_end_object(b);
  }
  json_builder_end_object(b);
  json_builder_set_member_name(b, "findings");
  json_builder_begin_array(b);
  for (guint i = 0; i < r->findings->len; i++) {
    const NsFinding *f = &g_array_index(r->findings, NsFinding, i);
    g_autofree char *d = ns_finding_describe(f, topo, s);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "check");
    json_builder_add_string_value(b, ns_check_name(ns_finding_check(f->kind)));
    json_builder_set_member_name(b, "message");
    json_builder_add_string_value(b, d);
    if (f->phase >= 0) {
      json_builder_set_member_name(b, "phase");
      json_builder_add_int_value(b, f->phase);
    }
    if (f->t1 >= 0) {
      json_builder_set_member_name(b, "transfer");
      json_builder_add_int_value(b, f->t1);
    }
    if (f->t2 >= 0) {
      json_builder_set_member_name(b, "other_transfer");
      json_builder_add_int_value(b, f->t2);
    }
    if (f->edge >= 0) {
      g_autofree char *edge = ns_topology_edge_name(topo, f->edge);
      json_builder_set_member_name(b, "edge");
      json_builder_add_string_value(b, edge);
    }
    if (f->machine >= 0 || f->kind == NS_FIND_UNCOVERED) {
      json_builder_set_member_name(b, "machine");
      json_builder_add_string_value(b, f->machine >= 0
                                           ? s->machines[f->machine]
                                           : ns_topology_machine_name(topo, (int)f->value));
    }
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  json_builder_end_object(b);
  return json_builder_get_root(b);
}

/**
 * \function ns_verify_write_json
 * \brief Writes a verification report as a JSON document, pretty.
 *
 * \param r The report.
 * \param topo The topology verified on.
 * \param s The schedule (ns_verify_session_schedule() for a session).
 * \param file The schedule's file, or NULL for "(planned)".
 * \param required NsRequire bits that decide the verdict.
 * \param out The stream.
 * \param error Set on failure (see errors).
 * \return TRUE when written.
 * \errors NS_ERROR_IO when the stream cannot be written.
 * \complexity O(checks + findings kept).
 * \source docs/verify.md (the JSON report's fields).
 */
gboolean ns_verify_write_json(const NsVerifyReport *r, const NsTopology *topo,
                              const NsSchedule *s, const char *file, unsigned required,
                              FILE *out, GError **error)
{
  g_autoptr(JsonNode) root = ns_verify_report_json(r, topo, s, file, required);
  g_autoptr(JsonGenerator) gen = json_generator_new();
  json_generator_set_pretty(gen, TRUE);
  json_generator_set_root(gen, root);
  g_autofree char *text = json_generator_to_data(gen, NULL);
  if (fputs(text, out) == EOF || fputc('\n', out) == EOF) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot write the JSON report");
    return FALSE;
  }
  return TRUE;
}

/**
 * \function ns_verify_junit_begin
 * \brief Writes the head of a JUnit XML document (several suites follow).
 *
 * \param out The stream.
 * \errors none (the caller checks the stream).
 * \complexity O(1).
 * \source The JUnit XML format CI systems read; docs/verify.md.
 */
void ns_verify_junit_begin(FILE *out)
{
  fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
}

/**
 * \function ns_verify_junit_end
 * \brief Writes the end of a JUnit XML document.
 *
 * \param out The stream.
 * \errors none (the caller checks the stream).
 * \complexity O(1).
 * \source The JUnit XML format CI systems read; docs/verify.md.
 */
void ns_verify_junit_end(FILE *out) { fprintf(out, "</testsuites>\n"); }

/**
 * \function ns_verify_junit_error
 * \brief Writes a JUnit suite with an error, for an input that could not be
 *        verified.
 *
 * \param name The suite's name (the file).
 * \param message Why it could not be verified (escaped for XML).
 * \param out The stream.
 * \errors none (the caller checks the stream).
 * \complexity O(length of the message).
 * \source The JUnit XML format CI systems read; docs/verify.md.
 */
void ns_verify_junit_error(const char *name, const char *message, FILE *out)
{
  g_autofree char *suite = g_markup_escape_text(name, -1);
  g_autofree char *why = g_markup_escape_text(message, -1);
  fprintf(out, "  <testsuite name=\"%s\" tests=\"1\" failures=\"0\" errors=\"1\">\n"
               "    <testcase classname=\"netsched.verify\" name=\"input\">\n"
               "      <error message=\"%s\">%s</error>\n    </testcase>\n  </testsuite>\n",
          suite, why, why);
}

/* JUnit: one testcase per check. A check that did not run, and an
 * informative check that found something (the text says "no"), are
 * <skipped> with the reason, never a pass. */
/**
 * \function ns_verify_junit_suite
 * \brief Writes one JUnit suite for a verified schedule.
 *
 * Named "FILE: collective/algorithm on TOPOLOGY", one test case per check.
 *
 * \param r The report.
 * \param topo The topology verified on.
 * \param s The schedule (ns_verify_session_schedule() for a session).
 * \param file The schedule's file, or NULL for "(planned)".
 * \param required NsRequire bits that decide the verdict.
 * \param out The stream.
 * \errors none (the caller checks the stream).
 * \complexity O(checks + findings kept).
 * \source The JUnit XML format CI systems read; docs/verify.md.
 */
void ns_verify_junit_suite(const NsVerifyReport *r, const NsTopology *topo, const NsSchedule *s,
                           const char *file, unsigned required, FILE *out)
{
  int tests = 0, failures = 0, skipped = 0;
  for (int c = 0; c < NS_N_CHECKS; c++) {
    tests++;
    if (!r->ran[c] || (r->failures[c] > 0 && informative(c, required)))
      skipped++;
    else if (r->failures[c] > 0)
      failures++;
  }
  g_autofree char *suite = g_markup_printf_escaped("%s: %s/%s on %s", schedule_name(file),
                                                   ns_collective_name(s->collective),
                                                   s->algorithm, ns_topology_source(topo));
  fprintf(out, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
          suite, tests, failures, skipped);
  for (int c = 0; c < NS_N_CHECKS; c++) {
    fprintf(out, "    <testcase classname=\"netsched.verify\" name=\"%s\">", ns_check_name(c));
    GString *body = g_string_new(NULL);
    for (guint i = 0; i < r->findings->len; i++) {
      const NsFinding *f = &g_array_index(r->findings, NsFinding, i);
      if (ns_finding_check(f->kind) != (NsCheck)c)
        continue;
      g_autofree char *d = ns_finding_describe(f, topo, s);
      g_string_append_printf(body, "%s\n", d);
    }
    if (c == NS_CHECK_OPTIMAL && (r->ran[c] || r->optimal_skip == NS_OPTIMAL_UNDEFINED)) {
      g_autofree char *why = ns_lower_bound_describe(topo, &r->bound);
      g_string_append_printf(body, "transmission %.9g s, lower bound %.9g s (%s)\n",
                             r->transmission_s, r->bound_s, why);
    }
    g_autofree char *esc = g_markup_escape_text(body->str, -1);
    if (!r->ran[c] && body->len > 0) {
      fprintf(out, "\n      <skipped message=\"%s\">%s</skipped>\n    ", verdict(r, c, required),
              esc);
    } else if (!r->ran[c]) {
      fprintf(out, "<skipped message=\"%s\"/>", verdict(r, c, required));
    } else if (r->failures[c] > 0 && informative(c, required)) {
      fprintf(out, "\n      <skipped message=\"informative: %s (not required)\">%s</skipped>\n    ",
              c == NS_CHECK_OPTIMAL ? "not optimal" : "not all on shortest paths", esc);
    } else if (r->failures[c] > 0) {
      fprintf(out, "\n      <failure message=\"%" G_GUINT64_FORMAT " finding(s)\">%s</failure>\n    ",
              r->failures[c], esc);
    } else if (body->len > 0) {
      fprintf(out, "\n      <system-out>%s</system-out>\n    ", esc);
    }
    g_string_free(body, TRUE);
    fprintf(out, "</testcase>\n");
  }
  fprintf(out, "  </testsuite>\n");
}

/**
 * \function ns_verify_write_junit
 * \brief Writes a verification report as a JUnit XML document of one suite.
 *
 * \param r The report.
 * \param topo The topology verified on.
 * \param s The schedule (ns_verify_session_schedule() for a session).
 * \param file The schedule's file, or NULL for "(planned)".
 * \param required NsRequire bits that decide the verdict.
 * \param out The stream.
 * \param error Set on failure (see errors).
 * \return TRUE when written.
 * \errors NS_ERROR_IO when the stream has an error.
 * \complexity O(checks + findings kept).
 * \source The JUnit XML format CI systems read; docs/verify.md.
 */
gboolean ns_verify_write_junit(const NsVerifyReport *r, const NsTopology *topo,
                               const NsSchedule *s, const char *file, unsigned required,
                               FILE *out, GError **error)
{
  ns_verify_junit_begin(out);
  ns_verify_junit_suite(r, topo, s, file, required, out);
  ns_verify_junit_end(out);
  if (ferror(out)) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot write the JUnit report");
    return FALSE;
  }
  return TRUE;
}
