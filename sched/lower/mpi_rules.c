/* netsched — what the Open MPI and MPICH rules writers share: tables
 * grouped by collective, a row's planner as the library's algorithm
 * (mpi_rules_internal.h). */
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/lower/mpi_rules_internal.h"
#include <string.h>

static void group_clear(gpointer p)
{
  NsRulesGroup *g = p;
  g_ptr_array_unref(g->tables);
}

static gint by_machines(gconstpointer a, gconstpointer b)
{
  const NsDecisionTable *x = *(const NsDecisionTable *const *)a;
  const NsDecisionTable *y = *(const NsDecisionTable *const *)b;
  return (x->n_machines > y->n_machines) - (x->n_machines < y->n_machines);
}

/* The collectives the rules files hold, in the order they are written. */
static const NsCollective written[] = { NS_COLL_ALLTOALL, NS_COLL_ALLGATHER, NS_COLL_BCAST };

/**
 * \function ns_rules_collective_written
 * \brief Whether the Open MPI and MPICH rules writers take tables of a collective.
 *
 * \param collective The collective.
 * \return TRUE for alltoall, allgather and bcast.
 * \errors none.
 * \complexity O(1).
 * \source docs/mpi-rules.md.
 */
gboolean ns_rules_collective_written(NsCollective collective)
{
  for (guint c = 0; c < G_N_ELEMENTS(written); c++)
    if (written[c] == collective)
      return TRUE;
  return FALSE;
}

GArray *ns_rules_groups(const NsDecisionTable *const *tables, guint n, GError **error)
{
  if (n == 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "no decision table to write");
    return NULL;
  }
  for (guint i = 0; i < n; i++) {
    /* a table the file cannot hold is refused, never left out of it */
    if (!ns_rules_collective_written(tables[i]->collective)) {
      ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                      "%s table for %" G_GINT64_FORMAT " machines: netsched writes the MPI "
                      "libraries' selection files for alltoall, allgather and bcast only",
                      ns_collective_name(tables[i]->collective), tables[i]->n_machines);
      return NULL;
    }
  }
  for (guint i = 0; i < n; i++) {
    GError *e = NULL;
    if (!ns_decision_table_check(tables[i], &e)) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "%s table for %" G_GINT64_FORMAT " machines: %s",
                      ns_collective_name(tables[i]->collective), tables[i]->n_machines, e->message);
      g_error_free(e);
      return NULL;
    }
  }
  GArray *groups = g_array_new(FALSE, TRUE, sizeof(NsRulesGroup));
  g_array_set_clear_func(groups, group_clear);
  for (guint c = 0; c < G_N_ELEMENTS(written); c++) {
    NsRulesGroup g = { .collective = written[c], .tables = g_ptr_array_new() };
    for (guint i = 0; i < n; i++)
      if (tables[i]->collective == written[c])
        g_ptr_array_add(g.tables, (gpointer)tables[i]);
    if (g.tables->len == 0) {
      g_ptr_array_unref(g.tables);
      continue;
    }
    g_ptr_array_sort(g.tables, by_machines);
    g_array_append_val(groups, g);
    for (guint i = 1; i < g.tables->len; i++) {
      const NsDecisionTable *t = g.tables->pdata[i];
      if (t->n_machines == ((const NsDecisionTable *)g.tables->pdata[i - 1])->n_machines) {
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "two %s tables for %" G_GINT64_FORMAT " machines: give one per "
                        "collective and communicator size",
                        ns_collective_name(t->collective), t->n_machines);
        g_array_unref(groups);
        return NULL;
      }
    }
  }
  return groups;
}

/* "segment=8192 arity=4" (blanks or commas between): FALSE with *bad the
 * first item it cannot read. */
static gboolean parse_params(const char *text, NsRulesParams *p, char **bad)
{
  g_auto(GStrv) items = g_strsplit_set(text != NULL ? text : "", " ,", -1);
  for (char **it = items; *it != NULL; it++) {
    if (**it == '\0')
      continue;
    const char *why = NULL;
    uint64_t v = 0;
    const char *eq = strchr(*it, '=');
    /* A bare number of bytes, or a size with its unit ("8KiB"). */
    gboolean ok =
        eq != NULL && (g_ascii_string_to_unsigned(eq + 1, 10, 0, NS_MAX_MSIZE, &v, NULL) ||
                       ns_parse_size(eq + 1, &v, &why));
    if (ok && g_str_has_prefix(*it, "segment="))
      p->segment = v;
    else if (ok && g_str_has_prefix(*it, "arity=") && v <= 1024)
      p->arity = (int)v;
    else {
      *bad = g_strdup(*it);
      return FALSE;
    }
  }
  return TRUE;
}

/* Which parameters `a` of `lib` can carry: Open MPI's broadcasts a segment
 * size (the rule's fourth number); its knomial only the radix 4 of
 * coll_tuned_bcast_knomial_radix; nothing else. */
static const char *params_refusal(NsMpiLibrary lib, const NsMpiAlgorithm *a, const NsRulesParams *p)
{
  gboolean ompi_bcast = lib == NS_MPI_OMPI && a->collective == NS_COLL_BCAST;
  gboolean knomial = ompi_bcast && strcmp(a->name, "knomial") == 0;
  if (p->segment != 0 && !ompi_bcast)
    return "a segment size";
  if (p->arity != 0 && !(knomial && p->arity == 4))
    return knomial ? "a radix other than 4 (its radix is the MCA parameter "
                     "coll_tuned_bcast_knomial_radix, not the rule's)"
                   : "a fan-out (arity)";
  return NULL;
}

const NsMpiAlgorithm *ns_rules_row_algorithm(NsMpiLibrary lib, const NsDecisionTable *t,
                                             const NsDecisionRow *r, NsRulesParams *params,
                                             GError **error)
{
  g_autofree char *from = ns_format_size(r->from_bytes);
  g_autofree char *where = g_strdup_printf("%s table for %" G_GINT64_FORMAT " machines, row "
                                           "from %s",
                                           ns_collective_name(t->collective), t->n_machines, from);
  const NsMpiAlgorithm *a = ns_mpi_library_lookup(lib, t->collective, r->algorithm, t->n_machines);
  if (a == NULL) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "%s: %s has no algorithm that runs %s on %" G_GINT64_FORMAT " machines; "
                    "run netsched's routine instead (netsched generate -a %s, preloaded with "
                    "libnetsched-mpi: docs/mpi-library.md)",
                    where, ns_mpi_library_name(lib), r->algorithm, t->n_machines, r->algorithm);
    return NULL;
  }
  *params = (NsRulesParams){ 0 };
  g_autofree char *bad = NULL;
  if (!parse_params(r->params, params, &bad)) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0, "%s: %s cannot set '%s' of %s (%s)",
                    where, ns_mpi_library_name(lib), bad, r->algorithm, a->name);
    return NULL;
  }
  const char *refusal = params_refusal(lib, a, params);
  if (refusal != NULL) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0, "%s: %s's %s cannot take %s ('%s')",
                    where, ns_mpi_library_name(lib), a->name, refusal, r->params);
    return NULL;
  }
  return a;
}
