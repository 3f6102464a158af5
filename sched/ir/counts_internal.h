/* netsched — how many times the derived facts of a schedule were computed.
 *
 * A row of `compare`/`design` and one `simulate` should derive each fact of
 * its (topology, schedule) once: the verification, the collective's bound,
 * the route table (issue #19). These process-wide counters let a test or a
 * benchmark show it; they cost one atomic add per computation and are never
 * printed unless asked (the CLI prints them on stderr at exit when the
 * environment sets NETSCHED_COUNTS, tests/cli_counts.sh). Work done in other
 * processes (worker processes of -j, the replay child) is not counted here. */
#ifndef NETSCHED_COUNTS_H
#define NETSCHED_COUNTS_H

#include <glib.h>

typedef enum {
  NS_COUNT_VERIFY,      /* a verification began (ns_verify, ns_verify_begin) */
  NS_COUNT_BOUND,       /* ns_collective_bound (analysis/bounds_collective.h) */
  NS_COUNT_ROUTE_TABLE, /* ns_router_new: a schedule's routes resolved on a topology */
  NS_N_COUNTS
} NsCount;

/* Adds one to counter c. Thread-safe. O(1). */
void ns_count_add(NsCount c);
/* The count of c since the start or the last ns_counts_reset(). */
guint64 ns_count_get(NsCount c);
void ns_counts_reset(void);
/* "verify", "bound", "route-tables". */
const char *ns_count_name(NsCount c);

#endif
