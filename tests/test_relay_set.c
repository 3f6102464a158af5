/* netsched — the verifier's relay set (sched/verify/relay_set_internal.h) against a
 * GHashTable reference: a million seeded random operations through many
 * growths, keys that differ only in the message or only in the machine,
 * the extreme message and machine ids, and saturating hops. */
#include "sched/verify/relay_set_internal.h"
#include <glib.h>

static guint64 ref_key(uint32_t c, uint32_t m)
{
  return (guint64)c << 16 | m;
}

static void test_against_reference(void)
{
  for (guint32 seed = 1; seed <= 4; seed++) {
    GRand *rng = g_rand_new_with_seed(seed);
    NsRelaySet *set = ns_relay_set_new();
    GHashTable *ref = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    /* few distinct messages and machines in one seed (many repeats), many
     * in another (many growths) */
    uint32_t n_c = seed % 2 ? 5000 : G_MAXUINT32, n_m = seed <= 2 ? 64 : 65535;
    for (int op = 0; op < 250000; op++) {
      uint32_t c = g_rand_int_range(rng, 0, (gint32)MIN(n_c, (uint32_t)G_MAXINT32));
      if (n_c == G_MAXUINT32)
        c = g_rand_int(rng);
      uint32_t m = (uint32_t)g_rand_int_range(rng, 0, (gint32)n_m);
      uint32_t hops = (uint32_t)g_rand_int_range(rng, 0, 70000);
      guint64 k = ref_key(c, m);
      gpointer found = g_hash_table_lookup(ref, &k);
      if (g_rand_boolean(rng)) {
        gboolean added = ns_relay_set_add(set, c, m, hops);
        g_assert_cmpint(added, ==, found == NULL);
        if (added)
          g_hash_table_insert(ref, g_memdup2(&k, sizeof k), GUINT_TO_POINTER(MIN(hops, 65535) + 1));
      } else {
        uint32_t got = G_MAXUINT32;
        gboolean has = ns_relay_set_find(set, c, m, &got);
        g_assert_cmpint(has, ==, found != NULL);
        if (has)
          g_assert_cmpuint(got, ==, GPOINTER_TO_UINT(found) - 1);
        else
          g_assert_cmpuint(got, ==, G_MAXUINT32); /* untouched */
      }
    }
    g_assert_cmpuint(ns_relay_set_size(set), ==, g_hash_table_size(ref));
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, ref);
    while (g_hash_table_iter_next(&it, &key, &value)) {
      guint64 k = *(guint64 *)key;
      uint32_t hops;
      g_assert_true(ns_relay_set_find(set, (uint32_t)(k >> 16), (uint32_t)(k & 0xffff), &hops));
      g_assert_cmpuint(hops, ==, GPOINTER_TO_UINT(value) - 1);
    }
    g_hash_table_unref(ref);
    ns_relay_set_free(set);
    g_rand_free(rng);
  }
}

/* Keys next to the free-slot marker, and keys differing in one field. */
static void test_extremes(void)
{
  NsRelaySet *set = ns_relay_set_new();
  g_assert_true(ns_relay_set_add(set, G_MAXUINT32, 65534, 3));
  g_assert_true(ns_relay_set_add(set, G_MAXUINT32 - 1, 65535, 4));
  g_assert_true(ns_relay_set_add(set, 0, 0, 0));
  g_assert_true(ns_relay_set_add(set, 0, 1, 1));
  g_assert_true(ns_relay_set_add(set, 1, 0, 2));
  g_assert_false(ns_relay_set_add(set, 0, 1, 9));
  uint32_t h;
  g_assert_true(ns_relay_set_find(set, 0, 1, &h));
  g_assert_cmpuint(h, ==, 1);
  g_assert_true(ns_relay_set_find(set, G_MAXUINT32, 65534, &h));
  g_assert_cmpuint(h, ==, 3);
  g_assert_true(ns_relay_set_find(set, G_MAXUINT32 - 1, 65535, &h));
  g_assert_cmpuint(h, ==, 4);
  g_assert_false(ns_relay_set_find(set, G_MAXUINT32, 65535, NULL));
  g_assert_false(ns_relay_set_find(set, 2, 0, NULL));
  g_assert_true(ns_relay_set_add(set, 7, 7, 1000000)); /* saturates */
  g_assert_true(ns_relay_set_find(set, 7, 7, &h));
  g_assert_cmpuint(h, ==, 65535);
  g_assert_cmpuint(ns_relay_set_size(set), ==, 6);
  ns_relay_set_free(set);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/relay-set/against-reference", test_against_reference);
  g_test_add_func("/relay-set/extremes", test_extremes);
  return g_test_run();
}
