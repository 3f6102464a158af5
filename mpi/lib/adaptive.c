/* STAR-MPI's dynamic AEOS in libnetsched-mpi (adaptive.h; Faraj's
 * dissertation §4.3.1.2, Figure 4.24's Measure_Select, with §4.3.1.3's
 * algorithm grouping). Plain C over MPI, like the rest of the library. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr, when built by mpicc/smpicc alone */
#endif
#include "mpi/lib/adaptive.h"
#include "mpi/lib/report.h"
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { PROBE_GROUPS, PROBE_MEMBERS, FIXED } Stage;

/* One (call site, bytes per block) context: STAR-MPI's per-site,
 * per-size routine state. Candidates are indices into the collective's
 * NsmpiAdaptiveSpec. */
typedef struct NsmpiContext {
  const void *site;
  size_t bytes;
  int site_number;                      /* 1, 2, ...: order of the site's first call */
  Stage stage;
  int order[NSMPI_MAX_CANDIDATES];      /* the candidates this stage measures, in turn */
  int n_order, pos, iter;               /* order[pos] runs its iter-th measured call */
  double *runs;                         /* this rank's times, [n_order][measure] */
  double mean[NSMPI_MAX_CANDIDATES];    /* reduced mean time; < 0: not measured */
  int chosen;                           /* when FIXED; -1 with no candidate measured */
  int measured_calls, n_allreduce;
  double allreduce_time;                /* this rank's time in the stages' reductions */
} NsmpiContext;

typedef struct {
  int ready;
  int usable[NSMPI_MAX_CANDIDATES];     /* the candidate fits this communicator */
  NsmpiReason whole;                    /* NSMPI_OK, or why every call falls through */
  char whole_detail[320];
  NsmpiContext *ctx[NSMPI_ADAPTIVE_CONTEXTS];
  int n_ctx;
  const void *site[NSMPI_ADAPTIVE_CONTEXTS]; /* sites in order of first call */
  int n_sites;
} PerCollective;

struct NsmpiAdaptive {
  PerCollective coll[3]; /* by NsrCollective; bcast is never adaptive */
};

void nsmpi_adaptive_free(struct NsmpiAdaptive *a)
{
  if (a == NULL)
    return;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < a->coll[k].n_ctx; i++) {
      free(a->coll[k].ctx[i]->runs);
      free(a->coll[k].ctx[i]);
    }
  free(a);
}

/* A candidate's name in the log: its table's file, or "native". */
static const char *candidate_name(const NsmpiState *s, NsrCollective k, int cand, char *out,
                                  size_t len)
{
  int t = s->config.adaptive[k].cand[cand].table;
  if (t < 0)
    return "native";
  return nsmpi_escape(out, len, nsmpi_basename(s->config.tables[t].path));
}

static const char *group_name(const NsmpiState *s, NsrCollective k, int cand, char *out,
                              size_t len)
{
  const NsmpiAdaptiveSpec *a = &s->config.adaptive[k];
  return nsmpi_escape(out, len, a->group[a->cand[cand].group]);
}

/* The start of every log line of a context: which call, where, what size.
 * The site is named as its object file and offset (what addr2line reads). */
static void context_label(const NsmpiComm *c, NsrCollective k, const NsmpiContext *x, char *out,
                          size_t len)
{
  char where[160], esc[96];
  Dl_info info;
  if (dladdr(x->site, &info) != 0 && info.dli_fname != NULL && info.dli_fname[0] != '\0')
    snprintf(where, sizeof where, "%s+0x%lx",
             nsmpi_escape(esc, sizeof esc, nsmpi_basename(info.dli_fname)),
             (unsigned long)((uintptr_t)x->site - (uintptr_t)info.dli_fbase));
  else
    snprintf(where, sizeof where, "%p", x->site);
  snprintf(out, len, "%s on %s (%d ranks), site %d (%s), %zu bytes per block",
           nsmpi_collective_function(k), c->label, c->size, x->site_number, where, x->bytes);
}

/* Which candidates fit the communicator: a table with another size or
 * membership is left out (said once); a configuration error, ranks that
 * disagree or an inter-communicator make every call fall through (the
 * verdicts are the same on every rank, comm.h). */
static void setup(const NsmpiState *s, NsmpiComm *c, NsrCollective k, PerCollective *pc)
{
  const NsmpiAdaptiveSpec *a = &s->config.adaptive[k];
  char name[96];
  int tables = 0, fitting = 0, first_misfit = -1;
  pc->ready = 1;
  pc->whole = NSMPI_OK;
  for (int i = 0; i < a->n; i++) {
    int t = a->cand[i].table;
    if (t < 0) {
      pc->usable[i] = 1;
      continue;
    }
    tables++;
    NsmpiReason v = c->verdict[t];
    if (v == NSMPI_OK) {
      pc->usable[i] = 1;
      fitting++;
    } else if (v == NSMPI_COMM_SIZE || v == NSMPI_MEMBERSHIP || v == NSMPI_DUPLICATE) {
      if (first_misfit < 0)
        first_misfit = t;
      if (c->rank == 0 && s->config.verbose)
        nsmpi_say("%s on %s (%d ranks): candidate %s left out: %s", nsmpi_collective_function(k),
                  c->label, c->size, candidate_name(s, k, i, name, sizeof name), c->detail[t]);
    } else {
      pc->whole = v;
      snprintf(pc->whole_detail, sizeof pc->whole_detail, "%s", c->detail[t]);
      return;
    }
  }
  if (tables == 0) { /* every table of the list failed to load or parse (said) */
    pc->whole = NSMPI_CONFIG_ERROR;
    snprintf(pc->whole_detail, sizeof pc->whole_detail,
             "a configuration error concerns %s (said above)", nsmpi_collective_function(k));
  } else if (fitting == 0) {
    pc->whole = NSMPI_NO_CANDIDATE;
    snprintf(pc->whole_detail, sizeof pc->whole_detail, "no %s candidate table fits: %s",
             nsmpi_collective_name(k), c->detail[first_misfit]);
  }
}

/* One line per candidate measured in the stage that just ended. */
static void log_candidate(const NsmpiState *s, const NsmpiComm *c, NsrCollective k,
                          const NsmpiContext *x, int cand, const double *times, int n)
{
  char label[400], name[96], group[64], runs[400];
  double lo = times[0], hi = times[0];
  size_t o = 0;
  runs[0] = '\0';
  for (int j = 0; j < n; j++) {
    lo = times[j] < lo ? times[j] : lo;
    hi = times[j] > hi ? times[j] : hi;
    if (j < 10 && o < sizeof runs)
      o += (size_t)snprintf(runs + o, sizeof runs - o, "%s%.1f", j > 0 ? " " : "",
                            times[j] * 1e6);
  }
  if (n > 10 && o < sizeof runs)
    snprintf(runs + o, sizeof runs - o, " ...");
  context_label(c, k, x, label, sizeof label);
  nsmpi_say("%s: measured %s (group %s): mean %.1f us over %d calls (min %.1f, max %.1f; "
            "each the slowest rank's): %s",
            label, candidate_name(s, k, cand, name, sizeof name),
            group_name(s, k, cand, group, sizeof group), x->mean[cand] * 1e6, n, lo * 1e6,
            hi * 1e6, runs);
}

/* Fixes the measured candidate of least mean time and says why: the
 * margin over the runner-up and what measuring cost — the extra time of
 * the other candidates' measured calls over the choice's mean (STAR-MPI's
 * O_MS^c, §4.3.2) and this rank's time in the reductions. */
static void fix(const NsmpiState *s, const NsmpiComm *c, NsrCollective k, NsmpiContext *x)
{
  const NsmpiAdaptiveSpec *a = &s->config.adaptive[k];
  int best = -1, second = -1;
  for (int i = 0; i < a->n; i++) {
    if (x->mean[i] < 0)
      continue;
    if (best < 0 || x->mean[i] < x->mean[best]) {
      second = best;
      best = i;
    } else if (second < 0 || x->mean[i] < x->mean[second]) {
      second = i;
    }
  }
  x->stage = FIXED;
  x->chosen = best;
  free(x->runs);
  x->runs = NULL;
  if (c->rank != 0 || !s->config.verbose || best < 0)
    return;
  double cost = 0;
  for (int i = 0; i < a->n; i++)
    if (x->mean[i] >= 0 && i != best)
      cost += (x->mean[i] - x->mean[best]) * a->measure;
  char label[400], name[96], group[64], rname[96], rgroup[64], margin[300] = "";
  context_label(c, k, x, label, sizeof label);
  if (x->measured_calls == 0) {
    nsmpi_say("%s: runs %s (group %s), the only candidate that fits", label,
              candidate_name(s, k, best, name, sizeof name),
              group_name(s, k, best, group, sizeof group));
    return;
  }
  if (second >= 0)
    snprintf(margin, sizeof margin, "; the runner-up %s (group %s) takes %.2f %% longer",
             candidate_name(s, k, second, rname, sizeof rname),
             group_name(s, k, second, rgroup, sizeof rgroup),
             x->mean[best] > 0 ? (x->mean[second] / x->mean[best] - 1) * 100 : 0.0);
  nsmpi_say("%s: chooses %s (group %s) after %d measured calls%s; measuring cost %.1f us over "
            "the choice and %d MPI_Allreduce taking %.1f us",
            label, candidate_name(s, k, best, name, sizeof name),
            group_name(s, k, best, group, sizeof group), x->measured_calls, margin, cost * 1e6,
            x->n_allreduce, x->allreduce_time * 1e6);
}

/* Starts measuring `order` (n candidates), or fixes the choice if empty. */
static void start_stage(const NsmpiState *s, const NsmpiComm *c, NsrCollective k,
                        NsmpiContext *x, Stage stage, const int *order, int n)
{
  if (n == 0) {
    fix(s, c, k, x);
    return;
  }
  x->stage = stage;
  memcpy(x->order, order, sizeof(int) * (size_t)n);
  x->n_order = n;
  x->pos = x->iter = 0;
  free(x->runs);
  x->runs = calloc((size_t)n * (size_t)s->config.adaptive[k].measure, sizeof(double));
  if (x->runs == NULL)
    nsmpi_out_of_memory("adaptive measurements");
}

/* Stage 2: the members of group g not measured yet. */
static void start_members(const NsmpiState *s, const NsmpiComm *c, NsrCollective k,
                          const PerCollective *pc, NsmpiContext *x, int g)
{
  const NsmpiAdaptiveSpec *a = &s->config.adaptive[k];
  int order[NSMPI_MAX_CANDIDATES], n = 0;
  for (int i = 0; i < a->n; i++)
    if (pc->usable[i] && a->cand[i].group == g && x->mean[i] < 0)
      order[n++] = i;
  start_stage(s, c, k, x, PROBE_MEMBERS, order, n);
}

/* Stage 1: each group's representative, its first usable candidate. With
 * one group only, its members are measured at once (stage 2). */
static void start_groups(const NsmpiState *s, const NsmpiComm *c, NsrCollective k,
                         const PerCollective *pc, NsmpiContext *x)
{
  const NsmpiAdaptiveSpec *a = &s->config.adaptive[k];
  int order[NSMPI_MAX_CANDIDATES], n = 0, seen[NSMPI_MAX_CANDIDATES] = {0}, usable = 0;
  for (int i = 0; i < a->n; i++) {
    if (!pc->usable[i])
      continue;
    usable++;
    if (!seen[a->cand[i].group]) {
      seen[a->cand[i].group] = 1;
      order[n++] = i;
    }
  }
  if (usable == 1) { /* nothing to compare: no measuring */
    x->mean[order[0]] = 0;
    fix(s, c, k, x);
    return;
  }
  if (n == 1)
    start_members(s, c, k, pc, x, a->cand[order[0]].group);
  else
    start_stage(s, c, k, x, PROBE_GROUPS, order, n);
}

/* The context of (site, bytes), made on its first call; NULL (said) when
 * the site has tuned NSMPI_ADAPTIVE_SIZES_PER_SITE sizes already or the
 * contexts are used up: such calls run the MPI library's own, as STAR-MPI
 * leaves a site's sizes beyond its first X to the default routine. */
static NsmpiContext *context_for(const NsmpiState *s, NsmpiComm *c, NsrCollective k,
                                 PerCollective *pc, const void *site, size_t bytes)
{
  int sizes = 0;
  for (int i = 0; i < pc->n_ctx; i++) {
    if (pc->ctx[i]->site != site)
      continue;
    if (pc->ctx[i]->bytes == bytes)
      return pc->ctx[i];
    sizes++;
  }
  char detail[200];
  if (sizes >= NSMPI_ADAPTIVE_SIZES_PER_SITE || pc->n_ctx == NSMPI_ADAPTIVE_CONTEXTS) {
    snprintf(detail, sizeof detail,
             "%zu bytes per block: the adaptive mode tunes %d sizes per call site and %d "
             "contexts per communicator, used up",
             bytes, NSMPI_ADAPTIVE_SIZES_PER_SITE, NSMPI_ADAPTIVE_CONTEXTS);
    nsmpi_say_fallthrough(s, c, k, NSMPI_SITE_FULL, detail);
    return NULL;
  }
  NsmpiContext *x = calloc(1, sizeof *x);
  if (x == NULL)
    nsmpi_out_of_memory("adaptive context");
  x->site = site;
  x->bytes = bytes;
  x->chosen = -1;
  for (int i = 0; i < NSMPI_MAX_CANDIDATES; i++)
    x->mean[i] = -1;
  int number = 0;
  while (number < pc->n_sites && pc->site[number] != site)
    number++;
  if (number == pc->n_sites)
    pc->site[pc->n_sites++] = site;
  x->site_number = number + 1;
  pc->ctx[pc->n_ctx++] = x;
  start_groups(s, c, k, pc, x);
  return x;
}

int nsmpi_adaptive_begin(const NsmpiState *s, NsmpiComm *c, NsrCollective k, const void *site,
                         size_t bytes, NsmpiAdaptiveCall *call)
{
  call->context = NULL;
  if (c->adaptive == NULL) {
    c->adaptive = calloc(1, sizeof *c->adaptive);
    c->adaptive_free = nsmpi_adaptive_free;
    if (c->adaptive == NULL)
      nsmpi_out_of_memory("adaptive state");
  }
  PerCollective *pc = &c->adaptive->coll[k];
  if (!pc->ready)
    setup(s, c, k, pc);
  if (pc->whole != NSMPI_OK) {
    char detail[400];
    snprintf(detail, sizeof detail, "%zu bytes per block: %s", bytes, pc->whole_detail);
    nsmpi_say_fallthrough(s, c, k, pc->whole, detail);
    return -1;
  }
  NsmpiContext *x = context_for(s, c, k, pc, site, bytes);
  if (x == NULL)
    return -1;
  const NsmpiAdaptiveSpec *a = &s->config.adaptive[k];
  if (x->stage == FIXED)
    return x->chosen >= 0 ? a->cand[x->chosen].table : -1;
  call->context = x;
  call->collective = k;
  call->start = PMPI_Wtime();
  return a->cand[x->order[x->pos]].table;
}

void nsmpi_adaptive_end(const NsmpiState *s, NsmpiComm *c, const NsmpiAdaptiveCall *call,
                        MPI_Comm comm)
{
  NsmpiContext *x = call->context;
  if (x == NULL)
    return;
  NsrCollective k = call->collective;
  const NsmpiAdaptiveSpec *a = &s->config.adaptive[k];
  int m = a->measure;
  x->runs[x->pos * m + x->iter] = PMPI_Wtime() - call->start;
  x->measured_calls++;
  if (++x->iter == m) {
    x->iter = 0;
    x->pos++;
  }
  if (x->pos < x->n_order)
    return;
  /* The stage's last measured call, on every rank alike: one reduction of
   * all its times (STAR-MPI's Dist_Time, one all-reduce per stage). MAX
   * rather than the dissertation's average over ranks: a call is over for
   * the application when its slowest rank leaves it. */
  int n = x->n_order * m;
  double *slowest = malloc(sizeof(double) * (size_t)n);
  if (slowest == NULL)
    nsmpi_out_of_memory("adaptive measurements");
  double t0 = PMPI_Wtime();
  int rc = PMPI_Allreduce(x->runs, slowest, n, MPI_DOUBLE, MPI_MAX, comm);
  x->allreduce_time += PMPI_Wtime() - t0;
  x->n_allreduce++;
  if (rc != MPI_SUCCESS) { /* under MPI_ERRORS_RETURN: stop measuring, on every rank */
    free(slowest);
    fix(s, c, k, x);
    return;
  }
  int best = -1;
  for (int j = 0; j < x->n_order; j++) {
    int cand = x->order[j];
    double sum = 0;
    for (int r = 0; r < m; r++)
      sum += slowest[j * m + r];
    x->mean[cand] = sum / m;
    if (best < 0 || x->mean[cand] < x->mean[best])
      best = cand;
    if (c->rank == 0 && s->config.verbose)
      log_candidate(s, c, k, x, cand, &slowest[j * m], m);
  }
  free(slowest);
  if (x->stage == PROBE_GROUPS)
    start_members(s, c, k, &c->adaptive->coll[k], x, a->cand[best].group);
  else
    fix(s, c, k, x);
}
