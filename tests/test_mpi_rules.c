/* netsched — the MPI libraries' algorithm maps (sched/planners/select/
 * mpi_library.h) and the rules writers (sched/lower/mpi_rules.h): lookups
 * both ways, the maps agreeing with the selector tables, the exact text of
 * an Open MPI rules file and of an MPICH selection file's tuned branch,
 * and the refusals. The libraries reading the files: cli_mpi_rules.sh. */
#include "platforms/model/error.h"
#include "sched/lower/mpi_rules_internal.h"
#include "sched/planners/registry.h"
#include "sched/planners/select/mpi_library.h"
#include "sched/planners/select/selector_internal.h"
#include <json-glib/json-glib.h>
#include <string.h>

static void test_lookup(void)
{
  const NsMpiAlgorithm *a = ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLTOALL, "bruck", 32);
  g_assert_nonnull(a);
  g_assert_cmpint(a->id, ==, 3);
  g_assert_cmpstr(a->name, ==, "modified_bruck");
  g_assert_cmpint(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLTOALL, "pair", 2)->id, ==, 5);
  g_assert_null(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLTOALL, "pair", 4));
  g_assert_null(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLTOALL, "faraj", 4));
  g_assert_null(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLGATHER, "lr1", 4));
  g_assert_cmpint(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_BCAST, "scatter-allgather", 9)->id, ==,
                  9);
  g_assert_cmpint(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLGATHER, "neighbor", 6)->id, ==, 5);
  g_assert_null(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLGATHER, "neighbor", 7));
  /* MPICH's pairwise: XOR exchange for a power of two, the ring else. */
  g_assert_cmpstr(ns_mpi_library_lookup(NS_MPI_MPICH, NS_COLL_ALLTOALL, "ring", 6)->csel, ==,
                  "MPIR_Alltoall_intra_pairwise");
  g_assert_null(ns_mpi_library_lookup(NS_MPI_MPICH, NS_COLL_ALLTOALL, "ring", 8));
  g_assert_cmpstr(ns_mpi_library_lookup(NS_MPI_MPICH, NS_COLL_ALLTOALL, "pair", 8)->name, ==,
                  "pairwise");
  g_assert_null(ns_mpi_library_lookup(NS_MPI_MPICH, NS_COLL_ALLTOALL, "basic-linear", 8));
  g_assert_cmpint(ns_ompi_collective_id(NS_COLL_ALLGATHER), ==, 0);
  g_assert_cmpint(ns_ompi_collective_id(NS_COLL_ALLTOALL), ==, 3);
  g_assert_cmpint(ns_ompi_collective_id(NS_COLL_BCAST), ==, 7);
  /* the v-collectives: coll_tuned_alltoallv_algorithm 2 is pairwise,
   * coll_tuned_allgatherv_algorithm 4 neighbor (p even), MPICH's
   * allgatherv recursive doubling only for 2^k */
  g_assert_cmpint(ns_ompi_collective_id(NS_COLL_ALLGATHERV), ==, 1);
  g_assert_cmpint(ns_ompi_collective_id(NS_COLL_ALLTOALLV), ==, 4);
  g_assert_cmpint(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLTOALLV, "ring", 8)->id, ==, 2);
  g_assert_cmpint(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLGATHERV, "neighbor", 6)->id, ==, 4);
  g_assert_null(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLGATHERV, "neighbor", 7));
  g_assert_null(ns_mpi_library_lookup(NS_MPI_OMPI, NS_COLL_ALLTOALLV, "greedy", 8));
  g_assert_cmpstr(ns_mpi_library_lookup(NS_MPI_MPICH, NS_COLL_ALLTOALLV, "spread", 8)->csel, ==,
                  "MPIR_Alltoallv_intra_scattered");
  g_assert_nonnull(ns_mpi_library_lookup(NS_MPI_MPICH, NS_COLL_ALLGATHERV, "rdb", 8));
  g_assert_null(ns_mpi_library_lookup(NS_MPI_MPICH, NS_COLL_ALLGATHERV, "rdb", 6));
}

static void test_candidates(void)
{
  g_autoptr(GPtrArray) c = ns_mpi_library_candidates(NS_MPI_OMPI, NS_COLL_ALLTOALL);
  GString *names = g_string_new(NULL);
  for (guint i = 0; i < c->len; i++)
    g_string_append_printf(names, "%s%s", i ? "," : "",
                           ((const NsMpiAlgorithm *)c->pdata[i])->planner);
  g_assert_cmpstr(names->str, ==, "basic-linear,ring,bruck,pair");
  g_string_free(names, TRUE);
  g_autoptr(GPtrArray) b = ns_mpi_library_candidates(NS_MPI_MPICH, NS_COLL_BCAST);
  g_assert_cmpuint(b->len, ==, 2);
}

/* Every map entry's planner is registered; every algorithm the selector
 * tables name is in the map, with the same planner unless the row notes a
 * fallback (Open MPI's recursive doubling running Bruck for p not 2^k). */
static void test_maps_agree_with_selectors(void)
{
  int np = 0;
  const NsPlanner *planners = ns_planners(&np);
  for (int lib = 0; lib < NS_MPI_N_LIBRARIES; lib++)
    for (int coll = NS_COLL_ALLTOALL; coll <= NS_COLL_ALLGATHERV; coll++) {
      int n = 0;
      const NsMpiAlgorithm *a = ns_mpi_library_algorithms(lib, coll, &n);
      g_assert_cmpint(n, >, 0);
      for (int i = 0; i < n; i++) {
        gboolean registered = FALSE;
        for (int k = 0; k < np; k++)
          registered = registered || (planners[k].collective == (NsCollective)coll &&
                                      strcmp(planners[k].name, a[i].planner) == 0);
        g_assert_true(registered);
      }
    }
  int nt = 0;
  const NsSelTable *const *tables = ns_select_tables(&nt);
  for (int t = 0; t < nt; t++) {
    NsMpiLibrary lib = strcmp(tables[t]->name, "ompi") == 0    ? NS_MPI_OMPI
                       : strcmp(tables[t]->name, "mpich") == 0 ? NS_MPI_MPICH
                                                               : NS_MPI_N_LIBRARIES;
    if (lib == NS_MPI_N_LIBRARIES) /* ompi-legacy: Open MPI 1.6 - 3.x */
      continue;
    int n = 0;
    const NsMpiAlgorithm *a = ns_mpi_library_algorithms(lib, tables[t]->collective, &n);
    g_assert_cmpint(n, >, 0);
    for (int r = 0; r < tables[t]->n_rows; r++) {
      const NsSelRow *row = &tables[t]->rows[r];
      gboolean named = FALSE, same = FALSE;
      for (int i = 0; i < n; i++)
        if (strcmp(a[i].name, row->library_name) == 0) {
          named = TRUE;
          same = same || strcmp(a[i].planner, row->algorithm) == 0;
        }
      if (!named || !(same || row->note != NULL))
        g_error("%s/%s row %d: %s -> %s not in the map", ns_collective_name(tables[t]->collective),
                tables[t]->name, r, row->library_name, row->algorithm);
    }
  }
}

static NsDecisionTable *table(NsCollective c, int64_t p, const char *a0, uint64_t f1,
                              const char *a1, const char *params1)
{
  NsDecisionTable *t = ns_decision_table_new(c, p);
  ns_decision_table_append(t, 0, a0, NULL);
  if (a1 != NULL)
    ns_decision_table_append(t, f1, a1, params1);
  return t;
}

static void test_ompi_text(void)
{
  g_autoptr(NsDecisionTable) a16 = table(NS_COLL_ALLTOALL, 16, "bruck", 512, "ring", NULL);
  g_autoptr(NsDecisionTable) a4 = table(NS_COLL_ALLTOALL, 4, "basic-linear", 0, NULL, NULL);
  g_autoptr(NsDecisionTable) b = table(NS_COLL_BCAST, 8, "bintree", 4096, "linear", "segment=1KiB");
  a16->topology = g_strdup("x\n1 2 3"); /* a line end would escape the comment: left out */
  const NsDecisionTable *ts[] = { b, a16, a4 };
  g_autoptr(GString) out = g_string_new(NULL);
  g_assert_true(ns_ompi_rules_write(ts, 3, out, NULL));
  const char *body = strstr(out->str, "\n2 # collectives");
  g_assert_nonnull(body);
  g_assert_cmpstr(body + 1, ==,
                  "2 # collectives\n"
                  "3 # collective id: alltoall\n"
                  "2 # communicator sizes\n"
                  "4 # communicator size\n"
                  "1 # message sizes\n"
                  "0 1 0 0 # from 0B blocks: linear (netsched basic-linear)\n"
                  "16 # communicator size\n"
                  "2 # message sizes\n"
                  "0 3 0 0 # from 0B blocks: modified_bruck (netsched bruck)\n"
                  "8192 2 0 0 # from 512B blocks: pairwise (netsched ring)\n"
                  "7 # collective id: bcast\n"
                  "1 # communicator sizes\n"
                  "8 # communicator size\n"
                  "2 # message sizes\n"
                  "0 5 0 0 # from 0B messages: binary_tree (netsched bintree)\n"
                  "4096 3 0 1024 # from 4KiB messages: pipeline (netsched linear segment=1KiB)\n");
  /* Every line before is a comment. */
  g_auto(GStrv) head = g_strsplit(out->str, "\n2 # collectives", 2);
  g_auto(GStrv) lines = g_strsplit(head[0], "\n", -1);
  for (char **l = lines; *l != NULL; l++)
    g_assert_true(**l == '#');
}

static void expect_refusal(gboolean ok, GError *error, int code, const char *message,
                           const GString *out)
{
  g_assert_false(ok);
  g_assert_error(error, NS_ERROR, code);
  g_assert_cmpstr(error->message, ==, message);
  g_assert_cmpuint(out->len, ==, 0);
  g_error_free(error);
}

static void test_refusals(void)
{
  g_autoptr(GString) out = g_string_new(NULL);
  GError *e = NULL;
  gboolean ok;
  g_autoptr(NsDecisionTable) f = table(NS_COLL_ALLTOALL, 8, "bruck", 4096, "faraj", NULL);
  const NsDecisionTable *ts[] = { f };
  ok = ns_ompi_rules_write(ts, 1, out, &e);
  expect_refusal(ok, e, NS_ERROR_UNSUPPORTED,
                 "alltoall table for 8 machines, row from 4KiB: Open MPI 4.1 has no algorithm "
                 "that runs faraj on 8 machines; run netsched's routine instead (netsched "
                 "generate -a faraj, preloaded with libnetsched-mpi: docs/mpi-library.md)",
                 out);
  e = NULL;
  ok = ns_mpich_csel_write(ts, 0, out, &e);
  expect_refusal(ok, e, NS_ERROR_INPUT, "no decision table to write", out);
  /* MPICH reads its thresholds as int: 4 MiB blocks on 1024 ranks are 4 GiB gathered. */
  g_autoptr(NsDecisionTable) g = table(NS_COLL_ALLGATHER, 1024, "bruck", 4 << 20, "ring", NULL);
  const NsDecisionTable *gs[] = { g };
  e = NULL;
  ok = ns_mpich_csel_write(gs, 1, out, &e);
  expect_refusal(ok, e, NS_ERROR_UNSUPPORTED,
                 "allgather table for 1024 machines: a threshold of 4194304 bytes per block is "
                 "above MPICH 4.0's int sizes",
                 out);
  g_autoptr(NsDecisionTable) k = table(NS_COLL_BCAST, 8, "knomial", 64, "knomial", "arity=3");
  const NsDecisionTable *ks[] = { k };
  e = NULL;
  ok = ns_ompi_rules_write(ks, 1, out, &e);
  expect_refusal(ok, e, NS_ERROR_UNSUPPORTED,
                 "bcast table for 8 machines, row from 64B: Open MPI 4.1's knomial cannot take "
                 "a radix other than 4 (its radix is the MCA parameter "
                 "coll_tuned_bcast_knomial_radix, not the rule's) ('arity=3')",
                 out);
  g_autoptr(NsDecisionTable) s = table(NS_COLL_ALLTOALL, 8, "bruck", 64, "ring", "barriers=4");
  const NsDecisionTable *ss[] = { s };
  e = NULL;
  ok = ns_ompi_rules_write(ss, 1, out, &e);
  expect_refusal(ok, e, NS_ERROR_UNSUPPORTED,
                 "alltoall table for 8 machines, row from 64B: Open MPI 4.1 cannot set "
                 "'barriers=4' of ring (pairwise)",
                 out);
  /* A collective the files do not hold is refused, not left out: the
   * allreduce table once became a file of "0 # collectives"; with an
   * alltoall table beside it nothing is written either. */
  g_autoptr(NsDecisionTable) r = table(NS_COLL_ALLREDUCE, 8, "rdb", 65536, "ring", NULL);
  const NsDecisionTable *rs[] = { s, r };
  for (int lib = 0; lib < NS_MPI_N_LIBRARIES; lib++) {
    e = NULL;
    ok = lib == NS_MPI_OMPI ? ns_ompi_rules_write(rs, 2, out, &e)
                            : ns_mpich_csel_write(rs, 2, out, &e);
    expect_refusal(ok, e, NS_ERROR_UNSUPPORTED,
                   "allreduce table for 8 machines: netsched writes the MPI libraries' "
                   "selection files for alltoall, allgather and bcast only",
                   out);
  }
  g_assert_true(ns_rules_collective_written(NS_COLL_BCAST));
  g_assert_false(ns_rules_collective_written(NS_COLL_ALLTOALLV));
  g_assert_false(ns_rules_collective_written(NS_COLL_REDUCE));
}

static void test_mpich_tree(void)
{
  /* MPICH's own tree parses, a collective an object. */
  for (int i = 0; i < ns_mpich_csel_n_base; i++) {
    g_autoptr(JsonNode) n = json_from_string(ns_mpich_csel_base[i].json, NULL);
    g_assert_true(n != NULL && JSON_NODE_HOLDS_OBJECT(n));
  }
  g_autoptr(NsDecisionTable) a6 = table(NS_COLL_ALLTOALL, 6, "bruck", 300, "ring", NULL);
  g_autoptr(NsDecisionTable) a8 = table(NS_COLL_ALLTOALL, 8, "spread", 0, NULL, NULL);
  const NsDecisionTable *ts[] = { a8, a6 };
  g_autoptr(GString) out = g_string_new(NULL);
  g_assert_true(ns_mpich_csel_write(ts, 2, out, NULL));
  g_autoptr(JsonNode) root = json_from_string(out->str, NULL);
  JsonObject *o = json_node_get_object(root);
  g_assert_cmpuint(json_object_get_size(o), ==, (guint)ns_mpich_csel_n_base);
  g_autoptr(JsonGenerator) gen = json_generator_new();
  json_generator_set_root(gen, json_object_get_member(o, "collective=alltoall"));
  g_autofree char *text = json_generator_to_data(gen, NULL);
  g_assert_cmpstr(text, ==,
                  "{\"comm_type=intra\":{\"is_sendbuf_inplace=yes\":{\"algorithm=MPIR_Alltoall_"
                  "intra_pairwise_sendrecv_replace\":{}},\"is_sendbuf_inplace=no\":{\"comm_size<"
                  "=7\":{\"avg_msg_size<=299\":{\"algorithm=MPIR_Alltoall_intra_brucks\":{}},"
                  "\"avg_msg_size=any\":{\"algorithm=MPIR_Alltoall_intra_pairwise\":{}}},"
                  "\"comm_size=any\":{\"avg_msg_size=any\":{\"algorithm=MPIR_Alltoall_intra_"
                  "scattered\":{}}}}},\"comm_type=inter\":{\"algorithm=MPIR_Alltoall_inter_"
                  "pairwise_exchange\":{}}}");
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/mpi_rules/lookup", test_lookup);
  g_test_add_func("/mpi_rules/candidates", test_candidates);
  g_test_add_func("/mpi_rules/maps_agree_with_selectors", test_maps_agree_with_selectors);
  g_test_add_func("/mpi_rules/ompi_text", test_ompi_text);
  g_test_add_func("/mpi_rules/refusals", test_refusals);
  g_test_add_func("/mpi_rules/mpich_tree", test_mpich_tree);
  return g_test_run();
}
