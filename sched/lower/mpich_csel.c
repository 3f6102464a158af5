/* netsched — decision tables as an MPICH 4.0 collective-selection file
 * (mpi_rules.h).
 *
 * MPICH 4.0.2 reads MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE at MPI_Init
 * (src/mpi/coll/src/csel.c) into a tree of nested objects whose keys are
 * tests, taken in order, the first that holds: "collective=alltoall",
 * "comm_type=intra", "comm_size<=N", "avg_msg_size<=N" (bytes per peer for
 * MPI_Alltoall, of the message for MPI_Bcast), "total_msg_size<=N" (the
 * gathered bytes for MPI_Allgather, which has no avg_msg_size: asking for
 * it fails an assertion), "...=any" last, down to "algorithm=MPIR_...".
 * N is read as an int. The file replaces MPICH's whole compiled-in tree,
 * so every other collective keeps MPICH's own branch here
 * (mpich_csel_base.c); a tuned collective keeps MPICH's branches for
 * inter-communicators and for an in-place all-to-all, which its own
 * algorithms other than pairwise_sendrecv_replace cannot do.
 */
#include "platforms/model/error.h"
#include "sched/lower/mpi_rules_internal.h"
#include <json-glib/json-glib.h>
#include <string.h>

/* The member `key` of base object `o` (a copy), NULL when absent. */
static JsonNode *base_member(JsonObject *o, const char *key)
{
  JsonNode *n = o != NULL ? json_object_get_member(o, key) : NULL;
  return n != NULL ? json_node_copy(n) : NULL;
}

/* A node holding o (whose reference it takes). */
static JsonNode *object_node(JsonObject *o)
{
  JsonNode *n = json_node_init_object(json_node_alloc(), o);
  json_object_unref(o);
  return n;
}

/* "{ "algorithm=NAME": {} }" */
static JsonNode *leaf(const char *csel)
{
  JsonObject *o = json_object_new();
  g_autofree char *key = g_strdup_printf("algorithm=%s", csel);
  json_object_set_object_member(o, key, json_object_new());
  return object_node(o);
}

/* Row i of t covers sizes up to the next row's first - 1, in the unit MPICH
 * compares; FALSE when that exceeds its int. */
static gboolean row_limit(const NsDecisionTable *t, guint i, int64_t *limit, GError **error)
{
  const NsDecisionRow *next = t->rows->pdata[i + 1];
  uint64_t p = t->collective == NS_COLL_ALLGATHER ? (uint64_t)t->n_machines : 1;
  if (next->from_bytes > (uint64_t)G_MAXINT / p) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "%s table for %" G_GINT64_FORMAT " machines: a threshold of %" G_GUINT64_FORMAT
                    " bytes%s is above MPICH 4.0's int sizes",
                    ns_collective_name(t->collective), t->n_machines, next->from_bytes,
                    p > 1 ? " per block" : "");
    return FALSE;
  }
  *limit = (int64_t)(next->from_bytes * p) - 1;
  return TRUE;
}

static JsonNode *rows_tree(const NsDecisionTable *t, GError **error)
{
  const char *key = t->collective == NS_COLL_ALLGATHER ? "total_msg_size" : "avg_msg_size";
  g_autoptr(JsonObject) o = json_object_new();
  for (guint i = 0; i < t->rows->len; i++) {
    NsRulesParams p;
    const NsMpiAlgorithm *a = ns_rules_row_algorithm(NS_MPI_MPICH, t, t->rows->pdata[i], &p, error);
    if (a == NULL)
      return NULL;
    g_autofree char *test = NULL;
    int64_t limit = 0;
    if (i + 1 < t->rows->len) {
      if (!row_limit(t, i, &limit, error))
        return NULL;
      test = g_strdup_printf("%s<=%" G_GINT64_FORMAT, key, limit);
    } else {
      test = g_strdup_printf("%s=any", key);
    }
    json_object_set_member(o, test, leaf(a->csel));
  }
  return object_node(g_steal_pointer(&o));
}

static JsonNode *comm_tree(const NsRulesGroup *g, GError **error)
{
  g_autoptr(JsonObject) o = json_object_new();
  for (guint i = 0; i < g->tables->len; i++) {
    const NsDecisionTable *t = g->tables->pdata[i];
    JsonNode *rows = rows_tree(t, error);
    if (rows == NULL)
      return NULL;
    /* Table i holds from its size up to the next one's, and below the
     * smallest: as Open MPI's lookup. */
    g_autofree char *test =
        i + 1 < g->tables->len
            ? g_strdup_printf("comm_size<=%" G_GINT64_FORMAT,
                              ((const NsDecisionTable *)g->tables->pdata[i + 1])->n_machines - 1)
            : g_strdup("comm_size=any");
    json_object_set_member(o, test, rows);
  }
  return object_node(g_steal_pointer(&o));
}

static JsonObject *object_member(JsonObject *o, const char *key)
{
  JsonNode *n = o != NULL ? json_object_get_member(o, key) : NULL;
  return n != NULL && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* The tuned collective's branch: ours for intra-communicators, MPICH's
 * (from `base`) for inter-communicators and an in-place all-to-all. */
static JsonNode *collective_tree(const NsRulesGroup *g, JsonObject *base, GError **error)
{
  JsonNode *intra = comm_tree(g, error);
  if (intra == NULL)
    return NULL;
  JsonNode *inplace =
      g->collective == NS_COLL_ALLTOALL
          ? base_member(object_member(base, "comm_type=intra"), "is_sendbuf_inplace=yes")
          : NULL;
  if (inplace != NULL) {
    JsonObject *split = json_object_new();
    json_object_set_member(split, "is_sendbuf_inplace=yes", inplace);
    json_object_set_member(split, "is_sendbuf_inplace=no", intra);
    intra = object_node(split);
  }
  JsonObject *o = json_object_new();
  json_object_set_member(o, "comm_type=intra", intra);
  JsonNode *inter = base_member(base, "comm_type=inter");
  if (inter != NULL)
    json_object_set_member(o, "comm_type=inter", inter);
  return object_node(o);
}

/**
 * \function ns_mpich_csel_write
 * \brief Writes decision tables as an MPICH 4.0 collective-selection JSON file.
 *
 * MPICH 4.0.2's own selection tree with the tuned collectives' branches
 * replaced (the file replaces the whole tree): per collective, per table
 * a "comm_size<=" test, per row an "avg_msg_size<=" test (bytes per peer;
 * "total_msg_size<=" for allgather) down to "algorithm=MPIR_...", the last
 * of each level "=any" (mpi_rules.h).
 *
 * \param tables The tables, any order, one per collective and communicator size.
 * \param n Their count.
 * \param out Receives the JSON text, newline-terminated (nothing on failure).
 * \param error Filled on failure.
 * \return TRUE when written.
 * \errors NS_ERROR_UNSUPPORTED naming the row when MPICH 4.0 has no
 *   algorithm for its planner or cannot take its parameters, or a
 *   threshold exceeds MPICH's int; NS_ERROR_INPUT for no table, a
 *   malformed table, two tables of one collective and size.
 * \complexity O(rows + the size of MPICH's tree).
 * \source MPICH 4.0.2 src/mpi/coll/src/csel.c and maint/tuning/coll/mpir/generic.json;
 *   Faraj's dissertation §4.1 (STAGE-MPI).
 */
gboolean ns_mpich_csel_write(const NsDecisionTable *const *tables, guint n, GString *out,
                             GError **error)
{
  g_autoptr(GArray) groups = ns_rules_groups(tables, n, error);
  if (groups == NULL)
    return FALSE;
  g_autoptr(JsonObject) root = json_object_new();
  for (int b = 0; b < ns_mpich_csel_n_base; b++) {
    const NsMpichCselBase *base = &ns_mpich_csel_base[b];
    g_autoptr(JsonNode) parsed = json_from_string(base->json, NULL);
    g_assert(parsed != NULL && JSON_NODE_HOLDS_OBJECT(parsed)); /* our own text: a test parses it */
    JsonNode *tree = NULL;
    for (guint g = 0; g < groups->len && tree == NULL; g++) {
      const NsRulesGroup *gr = &g_array_index(groups, NsRulesGroup, g);
      if (strcmp(ns_collective_name(gr->collective), base->collective) == 0 &&
          (tree = collective_tree(gr, json_node_get_object(parsed), error)) == NULL)
        return FALSE;
    }
    g_autofree char *key = g_strdup_printf("collective=%s", base->collective);
    json_object_set_member(root, key, tree != NULL ? tree : json_node_copy(parsed));
  }
  g_autoptr(JsonNode) node = json_node_init_object(json_node_alloc(), root);
  g_autofree char *text = json_to_string(node, TRUE);
  g_string_append(out, text);
  g_string_append_c(out, '\n');
  return TRUE;
}
