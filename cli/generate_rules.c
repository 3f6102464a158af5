/* netsched generate --decision: tuned decision tables as an MPI library's
 * own selection file (sched/lower/mpi_rules.h), and the line that makes
 * the library read it. docs/mpi-rules.md. */
#include "cli/cli.h"
#include "platforms/io/topology_input_internal.h"
#include "platforms/model/text_internal.h"
#include "sched/lower/mpi_rules.h"
#include <string.h>

/* Decision files are written by netsched tune: a few rows each. */
#define DECISION_MAX_BYTES ((gsize)16 * 1024 * 1024)

static NsDecisionTable *read_decision(const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!ns_input_read_file(path, DECISION_MAX_BYTES, "decision", &text, &len, error))
    return NULL;
  return ns_decision_table_from_json(text, len, path, error);
}

/* "alltoall (32 machines), bcast (8 machines)" */
static char *tables_text(const NsDecisionTable *const *tables, guint n)
{
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf(s, "%s%s (%" G_GINT64_FORMAT " machines, %u rows)", i ? ", " : "",
                           ns_collective_name(tables[i]->collective), tables[i]->n_machines,
                           tables[i]->rows->len);
  return g_string_free(s, FALSE);
}

int ns_cli_generate_rules(char **decision_files, const char *format, const char *output)
{
  gboolean ompi = format != NULL && strcmp(format, "ompi-rules") == 0;
  if (!ompi && (format == NULL || strcmp(format, "mpich-csel") != 0))
    return ns_cli_usage("generate",
                        format == NULL ? "--decision needs --output-format ompi-rules or "
                                         "mpich-csel"
                                       : "--decision writes --output-format ompi-rules or "
                                         "mpich-csel, not '%s'",
                        format);
  g_autoptr(GPtrArray) tables =
      g_ptr_array_new_with_free_func((GDestroyNotify)ns_decision_table_free);
  GError *error = NULL;
  for (char **f = decision_files; *f != NULL; f++) {
    NsDecisionTable *t = read_decision(*f, &error);
    if (t == NULL)
      return ns_cli_fail(error);
    g_ptr_array_add(tables, t);
  }
  return ns_cli_write_rules(ompi ? NS_MPI_OMPI : NS_MPI_MPICH,
                            (const NsDecisionTable *const *)tables->pdata, tables->len, output);
}

/* The library's settings file from decision tables, written whole to
 * `output` ("-": stdout), then the line that makes the library read it. */
int ns_cli_write_rules(NsMpiLibrary lib, const NsDecisionTable *const *ts, guint n,
                       const char *output)
{
  gboolean ompi = lib == NS_MPI_OMPI;
  GError *error = NULL;
  g_autoptr(GString) text = g_string_new(NULL);
  if (!(ompi ? ns_ompi_rules_write(ts, n, text, &error)
             : ns_mpich_csel_write(ts, n, text, &error)))
    return ns_cli_fail(error);
  FILE *f = ns_cli_open_output(output, &error);
  if (f == NULL)
    return ns_cli_fail(error);
  fwrite(text->str, 1, text->len, f);
  if (!ns_cli_close_output(f, output, &error))
    return ns_cli_fail(error);
  if (output == NULL || strcmp(output, "-") == 0)
    return 0;
  /* Every rank opens the file itself, from its own working directory: the
   * line names it by its absolute path. */
  g_autofree char *absolute = g_canonicalize_filename(output, NULL);
  g_autofree char *word = ns_shell_word(absolute);
  g_autofree char *what = tables_text(ts, n);
  printf("%s: %s %s for %s\n", output, ompi ? "Open MPI 4.1" : "MPICH 4.0",
         ompi ? "coll/tuned dynamic rules" : "collective selection", what);
  if (ompi)
    printf("mpirun --mca coll_tuned_use_dynamic_rules 1 --mca "
           "coll_tuned_dynamic_rules_filename %s ...\n",
           word);
  else
    printf("MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=%s mpirun.mpich ...\n", word);
  return 0;
}
