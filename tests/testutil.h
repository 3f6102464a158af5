/* netsched — helpers shared by the tests. */
#ifndef NETSCHED_TESTUTIL_H
#define NETSCHED_TESTUTIL_H

#include "platforms/model/topology.h"
#include "sched/ir/schedule.h"
#include "sched/verify/verify.h"
#include <glib.h>

/* Absolute path of a file under tests/data (newly allocated). */
char *ns_test_data(const char *relative);
/* Absolute path of a file under the source tree (newly allocated). */
char *ns_test_source(const char *relative);

/* A bundled topology, scenarios/topologies/NAME (any format), asserted to
 * load. */
NsTopology *ns_test_topology(const char *name);
/* ns_verify with default options, asserted not to fail as input. */
NsVerifyReport ns_test_verify(const NsTopology *topo, const NsSchedule *s);
/* ns_test_verify, then fails the test at the first check that found
 * something, naming the schedule and one finding — optimality never
 * counts, contention only when `contention_free` is claimed. */
/* A model's route check (ns_sim_check_routes, ns_ns3_check_routes):
 * every ordered machine pair compared, *mismatches of them differ. */
typedef gboolean (*NsTestRouteCheck)(const NsTopology *topo, uint64_t *pairs,
                                     uint64_t *mismatches, char **first, GError **error);
/* Asserts that `check` compared every ordered pair of t's machines and
 * found them all equal. */
void ns_test_assert_routes_equal(const NsTopology *t, NsTestRouteCheck check);
NsVerifyReport ns_test_verify_correct(const NsTopology *topo, const NsSchedule *s,
                                      gboolean contention_free);

/* A random switched graph: `switches` switches joined by a random tree plus
 * `extra_links` random links (parallel ones allowed), `machines` machines on
 * random switches, 100 Mbit/s and 10 us everywhere; shortest-path routing
 * when the extra links close cycles. Reproducible from `seed`. */
NsTopology *ns_test_random_graph(uint64_t seed, int machines, int switches, int extra_links);

/* The topology written as native text with its routing statement
 * replaced by `routing` (a fat tree under smodk, a leaf/spine under
 * shortest), read back; asserted to load. */
NsTopology *ns_test_with_routing(const NsTopology *t, const char *routing);

/* Shuffles v[0..n) in place (Fisher-Yates, from the last element down,
 * one g_rand_int_range draw each): reproducible from rng's seed. */
void ns_test_shuffle(GRand *rng, int *v, int n);

#endif
