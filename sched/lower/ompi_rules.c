/* netsched — decision tables as an Open MPI 4.1 coll/tuned dynamic-rules
 * file (mpi_rules.h).
 *
 * The classic format Open MPI 4.1.4 reads (ompi/mca/coll/tuned/
 * coll_tuned_dynamic_file.c, ompi_coll_tuned_read_rules_config_file):
 * whitespace-separated integers — the number of collectives; per
 * collective its id (coll_base_functions.h) and the number of communicator
 * sizes; per communicator size the size and the number of message-size
 * rules; per rule the message size, the algorithm id, the fan-in/out and
 * the segment size. The reader skips any other character and, from a `#`,
 * the rest of the line: the comments below. It refuses a file whose first
 * rule of a communicator size is not for 0 bytes, and then silently uses
 * its fixed decisions (nothing is printed without a debug build).
 *
 * Lookups (coll_tuned_dynamic_rules.c): the communicator-size rule with
 * the largest size <= the communicator's (the first one below the
 * smallest), then the message rule with the largest size <= the call's,
 * where the call's size is dsize·count·comm_size for MPI_Alltoall and
 * MPI_Allgather (coll_tuned_alltoall_decision.c, _allgather_decision.c)
 * and dsize·count for MPI_Bcast — checked against Debian's Open MPI 4.1.4
 * by tests/cli_mpi_rules.sh.
 */
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/lower/mpi_rules_internal.h"

/* The size Open MPI compares for rows of `bytes` on t's communicator;
 * FALSE when it overflows its long. */
static gboolean ompi_size(const NsDecisionTable *t, uint64_t bytes, uint64_t *out)
{
  uint64_t p = t->collective == NS_COLL_BCAST ? 1 : (uint64_t)t->n_machines;
  if (bytes != 0 && p > (uint64_t)G_MAXINT64 / bytes)
    return FALSE;
  *out = bytes * p;
  return TRUE;
}

static void append_comment_row(GString *s, const NsDecisionTable *t, const NsDecisionRow *r,
                               const NsMpiAlgorithm *a)
{
  g_autofree char *from = ns_format_size(r->from_bytes);
  g_string_append_printf(s, " # from %s %s: %s (netsched %s%s%s)", from,
                         t->collective == NS_COLL_BCAST ? "messages" : "blocks", a->name,
                         r->algorithm, r->params[0] ? " " : "", r->params);
  if (r->time_s >= 0 && r->runner_up != NULL && r->runner_up_s >= 0)
    g_string_append_printf(s, ", %.3g s against %s's %.3g s", r->time_s, r->runner_up,
                           r->runner_up_s);
  g_string_append_c(s, '\n');
}

/* Whether a user string can go into a comment: no line end, no control
 * character (a newline would end the comment and the rest be read as
 * numbers). */
static gboolean comment_safe(const char *s)
{
  for (; s != NULL && *s != '\0'; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f)
      return FALSE;
  return s != NULL;
}

static gboolean append_table(GString *s, const NsDecisionTable *t, GError **error)
{
  gboolean named = comment_safe(t->topology);
  g_string_append_printf(s, "%" G_GINT64_FORMAT " # communicator size%s%s\n", t->n_machines,
                         named ? ", tuned on " : "", named ? t->topology : "");
  g_string_append_printf(s, "%u # message sizes\n", t->rows->len);
  for (guint i = 0; i < t->rows->len; i++) {
    const NsDecisionRow *r = t->rows->pdata[i];
    NsRulesParams p;
    const NsMpiAlgorithm *a = ns_rules_row_algorithm(NS_MPI_OMPI, t, r, &p, error);
    if (a == NULL)
      return FALSE;
    uint64_t size = 0;
    if (!ompi_size(t, r->from_bytes, &size)) {
      ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                      "%s table for %" G_GINT64_FORMAT " machines: %" G_GUINT64_FORMAT
                      " bytes per block is too large for Open MPI's message sizes",
                      ns_collective_name(t->collective), t->n_machines, r->from_bytes);
      return FALSE;
    }
    /* Fan-in/out 0: the algorithm's own (no algorithm a planner maps back
     * to takes another: the chain is only approximated). */
    g_string_append_printf(s, "%" G_GUINT64_FORMAT " %d 0 %" G_GUINT64_FORMAT, size, a->id,
                           p.segment);
    append_comment_row(s, t, r, a);
  }
  return TRUE;
}

/**
 * \function ns_ompi_rules_write
 * \brief Writes decision tables as an Open MPI 4.1 coll/tuned dynamic-rules file.
 *
 * The classic format of Open MPI 4.1 (mpi_rules.h): per collective (Open
 * MPI's id), per table (communicator size) the rows as message-size rules
 * in the unit Open MPI compares (block × communicator size for alltoall
 * and allgather, the message for bcast), each with the algorithm id of
 * coll_tuned_<coll>_algorithm, fan-in/out and segment size, commented.
 *
 * \param tables The tables, any order, one per collective and communicator size.
 * \param n Their count.
 * \param out Receives the file's text (nothing on failure).
 * \param error Filled on failure.
 * \return TRUE when written.
 * \errors NS_ERROR_UNSUPPORTED naming the row when Open MPI 4.1 has no
 *   algorithm for its planner or cannot take its parameters, or a size
 *   overflows; NS_ERROR_INPUT for no table, a malformed table, two tables
 *   of one collective and size.
 * \complexity O(rows).
 * \source Open MPI 4.1.4 coll_tuned_dynamic_file.c (the classic format);
 *   Faraj's dissertation §4.1 (STAGE-MPI).
 */
gboolean ns_ompi_rules_write(const NsDecisionTable *const *tables, guint n, GString *out,
                             GError **error)
{
  g_autoptr(GArray) groups = ns_rules_groups(tables, n, error);
  if (groups == NULL)
    return FALSE;
  g_autoptr(GString) s =
      g_string_new("# Open MPI 4.1 coll/tuned dynamic rules, written by netsched generate\n"
                   "# (classic format: collectives; per collective its id and communicator sizes;\n"
                   "# per size its message-size rules: size algorithm fan-in/out segment-size).\n"
                   "# Use: mpirun --mca coll_tuned_use_dynamic_rules 1 \\\n"
                   "#   --mca coll_tuned_dynamic_rules_filename THIS-FILE ...\n"
                   "# Message sizes are what Open MPI 4.1 compares: block bytes x communicator\n"
                   "# size for alltoall and allgather, the message for bcast.\n");
  g_string_append_printf(s, "%u # collectives\n", groups->len);
  for (guint g = 0; g < groups->len; g++) {
    const NsRulesGroup *gr = &g_array_index(groups, NsRulesGroup, g);
    g_string_append_printf(s, "%d # collective id: %s\n", ns_ompi_collective_id(gr->collective),
                           ns_collective_name(gr->collective));
    g_string_append_printf(s, "%u # communicator sizes\n", gr->tables->len);
    for (guint i = 0; i < gr->tables->len; i++)
      if (!append_table(s, gr->tables->pdata[i], error))
        return FALSE;
  }
  g_string_append_len(out, s->str, (gssize)s->len);
  return TRUE;
}
