/* netsched — "what to configure and how" (configure_advice_internal.h). */
#include "analysis/configure_advice_internal.h"
#include "analysis/experiment_pattern_internal.h"
#include "platforms/model/text_internal.h"
#include "platforms/model/units.h"
#include "sched/planners/select/mpi_library.h"
#include <string.h>

/* The upper-case collective in MPICH's CVAR names: MPIR_CVAR_ALLTOALL_... */
static char *cvar_collective(NsCollective c) { return g_ascii_strup(ns_collective_name(c), -1); }

static void library_lines(GString *out, const NsAdvice *a, const NsMpiAlgorithm *ompi,
                          const NsMpiAlgorithm *mpich)
{
  const char *coll = ns_collective_name(a->collective);
  if (ompi != NULL) {
    g_autofree char *segment =
        a->segment != 0 && a->collective == NS_COLL_BCAST
            ? g_strdup_printf(" --mca coll_tuned_bcast_algorithm_segmentsize %" G_GUINT64_FORMAT,
                              a->segment)
            : g_strdup("");
    g_string_append_printf(
        out,
        "  - Open MPI 4.1 (its %s, algorithm %d): `mpirun --mca "
        "coll_tuned_use_dynamic_rules 1 --mca coll_tuned_%s_algorithm %d%s ...`\n",
        ompi->name, ompi->id, coll, ompi->id, segment);
  }
  if (mpich != NULL) {
    g_autofree char *up = cvar_collective(a->collective);
    g_string_append_printf(out,
                           "  - MPICH 4.0 (its %s): `MPIR_CVAR_%s_INTRA_ALGORITHM=%s "
                           "mpirun.mpich ...`\n",
                           mpich->name, up, mpich->name);
  }
}

/* A file name for the routine: "[PREFIX-]alltoall-faraj-sender-all.nsr". */
static char *routine_file(const NsAdvice *a)
{
  g_autofree char *name =
      g_strdup_printf("%s%s%s-%s.nsr", a->prefix != NULL ? a->prefix : "",
                      a->prefix != NULL ? "-" : "", ns_collective_name(a->collective), a->label);
  for (char *c = name; *c != '\0'; c++)
    if (!g_ascii_isalnum(*c) && *c != '.' && *c != '-' && *c != '_')
      *c = '-';
  return g_steal_pointer(&name);
}

/* The collectives netsched plans but `generate` does not lower yet
 * (sched/lower/routine.c: a routine table has no combining receive and no
 * per-chunk sizes): the advice is the command that plans the schedule. */
static void plan_lines(GString *out, const NsAdvice *a, const char *algorithm)
{
  g_autofree char *topo = ns_shell_word(a->topology);
  g_autofree char *algo = ns_shell_word(algorithm);
  g_autofree char *routine = routine_file(a);
  g_autofree char *file =
      g_strdup_printf("%.*s.json", (int)(strrchr(routine, '.') - routine), routine);
  g_string_append_printf(out, "  - `netsched plan -T %s -c %s -a %s", topo,
                         ns_collective_name(a->collective), algo);
  if (a->pattern != NULL) {
    g_autofree char *spec =
        ns_pattern_axis_spec(a->pattern, a->collective, (int)a->n_machines, a->msize);
    g_autofree char *pat = ns_shell_word(spec);
    g_string_append_printf(out, " --pattern %s", pat);
  } else if (a->msize != 0) {
    g_string_append_printf(out, " -m %" G_GUINT64_FORMAT "B", a->msize);
  }
  if (a->root != NULL && a->collective == NS_COLL_REDUCE) {
    g_autofree char *r = ns_shell_word(a->root);
    g_string_append_printf(out, " -r %s", r);
  }
  if (a->segment != 0)
    g_string_append_printf(out, " -s %" G_GUINT64_FORMAT "B", a->segment);
  g_string_append_printf(out, " -o %s` writes the schedule; `netsched generate` does not lower "
                              "%s to an MPI routine yet (alltoall, allgather and bcast only)\n",
                         file, ns_collective_name(a->collective));
}

static void routine_lines(GString *out, const NsAdvice *a, const char *algorithm, const char *sync)
{
  if (ns_collective_chunk_kind(a->collective) != a->collective) {
    plan_lines(out, a, algorithm);
    return;
  }
  g_autofree char *file = routine_file(a);
  g_autofree char *topo = ns_shell_word(a->topology);
  g_autofree char *algo = ns_shell_word(algorithm);
  g_string_append_printf(out, "  - `netsched generate -T %s -c %s -a %s", topo,
                         ns_collective_name(a->collective), algo);
  if (sync != NULL) {
    g_autofree char *s = ns_shell_word(sync);
    g_string_append_printf(out, " -S %s", s);
  }
  if (a->collective == NS_COLL_BCAST && a->root != NULL) {
    g_autofree char *r = ns_shell_word(a->root);
    g_string_append_printf(out, " -r %s", r);
  }
  if (a->collective == NS_COLL_BCAST && a->segment != 0)
    g_string_append_printf(out, " -s %" G_GUINT64_FORMAT "B", a->segment);
  g_string_append_printf(out, " -o %s`\n", file);
  g_string_append_printf(out, "  - in netsched-mpi.conf, beside it: `schedule %s %s %s`\n",
                         ns_collective_name(a->collective), a->range != NULL ? a->range : "*",
                         file);
  /* A bare name: the loader finds it where `cmake --install` puts it in
   * the library path; the line stays the same whatever the prefix. */
  g_string_append(out, "  - `mpirun -x LD_PRELOAD=libnetsched-mpi.so "
                       "-x NETSCHED_MPI_CONFIG=$PWD/netsched-mpi.conf ...`\n");
}

static void advise(GString *out, const NsAdvice *a)
{
  g_autofree char *algorithm = g_strdup(a->label);
  char *colon = strchr(algorithm, ':');
  const char *sync = NULL;
  if (g_str_has_prefix(a->label, "smpi:")) {
    g_string_append_printf(out,
                           "- %s: `%s` is SimGrid's own MPI implementation, measured "
                           "under smpirun: nothing to configure on a cluster\n",
                           a->context, a->label);
    return;
  }
  if (colon != NULL) {
    *colon = '\0';
    sync = colon + 1;
  }
  if (strcmp(algorithm, "mpich") == 0 || strcmp(algorithm, "ompi") == 0 ||
      strcmp(algorithm, "ompi-legacy") == 0) {
    g_string_append_printf(out,
                           "- %s: `%s` is %s's own selection: nothing to configure — "
                           "run the library as installed\n",
                           a->context, a->label,
                           strcmp(algorithm, "mpich") == 0  ? "MPICH 4.0"
                           : strcmp(algorithm, "ompi") == 0 ? "Open MPI 4.1"
                                                            : "Open MPI 1.6 - 3.x");
    return;
  }
  /* A sync scheme is netsched's: a library's algorithm does not take one. */
  const NsMpiAlgorithm *ompi =
      sync == NULL ? ns_mpi_library_lookup(NS_MPI_OMPI, a->collective, algorithm, a->n_machines)
                   : NULL;
  const NsMpiAlgorithm *mpich =
      sync == NULL ? ns_mpi_library_lookup(NS_MPI_MPICH, a->collective, algorithm, a->n_machines)
                   : NULL;
  if (ompi != NULL && mpich != NULL)
    g_string_append_printf(out, "- %s: `%s`, an algorithm of both libraries:\n", a->context,
                           a->label);
  else if (ompi != NULL || mpich != NULL)
    g_string_append_printf(out,
                           "- %s: `%s`, an algorithm of %s (%s has none: run netsched's "
                           "routine there):\n",
                           a->context, a->label, ompi != NULL ? "Open MPI 4.1" : "MPICH 4.0",
                           ompi != NULL ? "MPICH 4.0" : "Open MPI 4.1");
  else
    g_string_append_printf(out,
                           "- %s: `%s`, netsched's own (neither Open MPI 4.1 nor MPICH "
                           "4.0 has it on %" G_GINT64_FORMAT " machines): %s:\n",
                           a->context, a->label, a->n_machines,
                           ns_collective_chunk_kind(a->collective) == a->collective
                               ? "generate its routine and preload libnetsched-mpi"
                               : "plan its schedule");
  library_lines(out, a, ompi, mpich);
  if (ompi == NULL || mpich == NULL)
    routine_lines(out, a, algorithm, sync);
}

void ns_configure_advice_append(GString *out, const NsAdvice *items, guint n)
{
  g_string_append(out, "\n## What to configure and how\n\n");
  for (guint i = 0; i < n; i++)
    advise(out, &items[i]);
}

static void winner_clear(gpointer p) { g_free(((NsSizeWinner *)p)->label); }

GArray *ns_size_winners_new(void)
{
  GArray *w = g_array_new(FALSE, TRUE, sizeof(NsSizeWinner));
  g_array_set_clear_func(w, winner_clear);
  return w;
}

void ns_size_winners_add(GArray *winners, uint64_t msize, const char *label, double time_s)
{
  guint i = 0;
  while (i < winners->len && g_array_index(winners, NsSizeWinner, i).msize < msize)
    i++;
  if (i < winners->len && g_array_index(winners, NsSizeWinner, i).msize == msize) {
    NsSizeWinner *w = &g_array_index(winners, NsSizeWinner, i);
    if (time_s < w->time_s) {
      g_free(w->label);
      w->label = g_strdup(label);
      w->time_s = time_s;
    }
    return;
  }
  NsSizeWinner w = { .msize = msize, .label = g_strdup(label), .time_s = time_s };
  g_array_insert_val(winners, i, w);
}

void ns_configure_advice_by_size(GString *out, const NsAdvice *base, const GArray *winners)
{
  g_string_append(out, "\n## What to configure and how\n\n");
  gboolean mixed = FALSE;
  for (guint i = 0; i < winners->len;) {
    const NsSizeWinner *first = &g_array_index(winners, NsSizeWinner, i);
    guint j = i + 1;
    while (j < winners->len &&
           strcmp(g_array_index(winners, NsSizeWinner, j).label, first->label) == 0)
      j++;
    const NsSizeWinner *last = &g_array_index(winners, NsSizeWinner, j - 1);
    uint64_t lo = i == 0 ? 0 : first->msize;
    g_autofree char *range =
        i == 0 && j == winners->len ? g_strdup("*")
        : j == winners->len         ? g_strdup_printf("%" G_GUINT64_FORMAT "-", lo)
                            : g_strdup_printf("%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT, lo,
                                              g_array_index(winners, NsSizeWinner, j).msize - 1);
    g_autofree char *from = ns_format_size(first->msize);
    g_autofree char *to = ns_format_size(last->msize);
    g_autofree char *context =
        j == i + 1
            ? g_strdup_printf("%s, fastest at %s", ns_collective_name(base->collective), from)
            : g_strdup_printf("%s, fastest from %s to %s", ns_collective_name(base->collective),
                              from, to);
    NsAdvice a = *base;
    a.label = first->label;
    a.context = context;
    a.range = range;
    a.msize = last->msize; /* the size a plan line reproduces */
    advise(out, &a);
    i = j;
    if (i < winners->len)
      mixed = TRUE;
  }
  if (mixed)
    g_string_append(
        out, "\nThe fastest changes with the size: forcing one algorithm gives up the "
             "others' sizes. Keep each at its sizes with libnetsched-mpi's ranges above, or "
             "with the library's own rules: `netsched tune` writes a decision file, "
             "`netsched generate --decision FILE -F ompi-rules|mpich-csel -o OUT` turns it "
             "into an Open MPI rules file or an MPICH selection file (docs/mpi-rules.md).\n");
}
