/* netsched tune --for ompi|mpich: a tuning among one MPI library's own
 * algorithms (sched/planners/select/mpi_library.h), for users who keep the
 * library's collectives; cmd_tune.c then writes that library's settings
 * file (ns_cli_write_rules) beside the decision. docs/tune.md. */
#include "cli/cli.h"
#include <string.h>

gboolean ns_cli_library_parse(const char *name, NsMpiLibrary *lib)
{
  if (strcmp(name, "ompi") == 0)
    *lib = NS_MPI_OMPI;
  else if (strcmp(name, "mpich") == 0)
    *lib = NS_MPI_MPICH;
  else
    return FALSE;
  return TRUE;
}

const char *ns_cli_library_file(NsMpiLibrary lib)
{
  return lib == NS_MPI_OMPI ? "ompi-rules.conf" : "mpich-csel.json";
}

char *ns_cli_library_candidates(NsMpiLibrary lib, NsCollective collective, int64_t p)
{
  g_autoptr(GPtrArray) all = ns_mpi_library_candidates(lib, collective);
  GString *list = g_string_new(NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < all->len; i++) {
    const NsMpiAlgorithm *a = all->pdata[i];
    /* an algorithm is the planner's only on communicators of its shape;
     * one planner may stand for several ids (by shape): measured once */
    if (!ns_mpi_shape_holds(a->shape, p) || !g_hash_table_add(seen, (gpointer)a->planner))
      continue;
    g_string_append_printf(list, "%s%s", list->len ? "," : "", a->planner);
  }
  if (list->len == 0)
    return g_string_free(list, TRUE), NULL;
  return g_string_free(list, FALSE);
}
