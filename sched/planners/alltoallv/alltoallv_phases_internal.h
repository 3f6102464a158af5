/* netsched — contention-free phases for the topology-specific alltoallv
 * planners (greedy, a2a-based; CC-MPI, Karwande, Yuan & Lowenthal,
 * PPoPP'03, message scheduling for many-to-many communication).
 *
 * A phase is contention-free when no directed link carries two of its
 * messages (Faraj & Yuan §3) and no 1-port machine with several links
 * sends, or receives, two: those are the *resources* a message holds.
 * NsLinkPhases records, per resource, the phases it is busy in (a bitset
 * grown as phases open), so the first phase where a message fits is an OR
 * of a few bitsets. One message per directed link is contention-free in
 * the verifier's rate-weighted sense on any link speeds.
 */
#ifndef NETSCHED_ALLTOALLV_PHASES_H
#define NETSCHED_ALLTOALLV_PHASES_H

#include "sched/ir/route.h"
#include "sched/planners/registry.h"

/* Most machines the greedy and a2a-based planners take: their first-fit
 * search costs O(p² · phases/64 · route length), phases up to p²/4 on a
 * tree of two switches (a few seconds at 512). */
#define NS_ALLTOALLV_SCHED_MAX_MACHINES 512

typedef struct NsLinkPhases NsLinkPhases;

/* NULL with NS_ERROR_UNSUPPORTED "alltoallv/ALGO takes at most 512
 * machines (the topology has P)". O(|E| + |M|). */
NsLinkPhases *ns_link_phases_new(const NsTopology *topo, const char *algorithm, GError **error);
void ns_link_phases_free(NsLinkPhases *lp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsLinkPhases, ns_link_phases_free)

/* The resources message src -> dst holds (machine indices) into `res`
 * (capacity ns_link_phases_max_resources) and their number. O(route). */
int ns_link_phases_resources(const NsLinkPhases *lp, int src, int dst, int *res);
int ns_link_phases_max_resources(const NsLinkPhases *lp);

/* Is every resource of res[0..n) free in `phase`? O(n). */
gboolean ns_link_phases_free_in(const NsLinkPhases *lp, const int *res, int n, uint32_t phase);
/* The first phase >= 0 where every resource is free (possibly a phase not
 * yet used). O(n · phases/64). */
uint32_t ns_link_phases_first_free(const NsLinkPhases *lp, const int *res, int n);
/* Marks the resources busy in `phase`. O(n) amortised. */
void ns_link_phases_occupy(NsLinkPhases *lp, const int *res, int n, uint32_t phase);

#endif
