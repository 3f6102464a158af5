/* netsched — machinery shared by the bcast planners (issue #4): broadcast
 * trees, segmentation and the pipeline that turns "tree + segments" into
 * phases. Not a planner itself (nothing here is registered).
 *
 * Every tree algorithm is "build an NsBcastTree, call ns_bcast_pipeline()".
 *
 * Segmentation (dissertation §3.4.1): the msize-byte message is split into
 * X = ceil(msize / segment) segments (segment 0, or segment >= msize: X = 1,
 * no pipelining). A schedule's `msize` is the segment size in bytes and its
 * `n_segments` is X; the last segment is counted as full-size even when
 * msize is not a multiple of the segment size. Chunk = segment index.
 *
 * The pipeline (§3.4.1, Table 3.7). Under the 1-port model a machine sends
 * one segment to one child at a time. ns_bcast_pipeline() schedules every
 * (segment, child) send of every machine as early as possible: machine v
 * sends its segments in order, each segment to its children in the tree's
 * child order, and the send of segment s to a child happens in the first
 * phase that is (a) after the phase in which v received s (the root holds
 * every segment from the start) and (b) after v's previous send. Each
 * machine therefore sends at most one and receives at most one transfer per
 * phase (it has a single parent), and a segment is forwarded only after it
 * arrived in an EARLIER phase — exactly the verifier's rules.
 *
 * Depth achieved. Let H be the tree height in edges (the number of hops from
 * the root to the deepest machine) and D the largest number of children.
 * The classic stage construction — a machine at depth d sends segment s to
 * its c-th child in phase (s + d)·D + c — is a valid schedule with
 * (X + H − 1)·D phases, the pipeline depth of Table 3.7; the as-early-as-
 * possible schedule sends every transfer no later than the stage
 * construction does (induction over the sends of a machine), so
 *     phases <= (X + H − 1) · D,
 * with equality for linear trees (X + P − 2 phases: H = P − 1, D = 1) and
 * flat trees (X·(P − 1) phases: H = 1, D = P − 1), and fewer phases when
 * the machines of maximum degree are not on every level. (The
 * dissertation's H counts tree levels — P for a linear tree — so its
 * (X + H − 1) counts one stage more than the X + H − 2 hops a segment needs
 * there; netsched's H counts edges.) No phase is empty.
 *
 * Contention (§3.4.2): "a contention-free tree for pipelined broadcast only
 * requires communications originated from different machines to be
 * contention-free". In the pipeline each machine sends at most once per
 * phase, so two transfers of a phase always come from different machines:
 * a tree without such conflicts (ns_bcast_tree_conflicts() == 0) gives a
 * schedule whose every phase is contention-free.
 */
#ifndef NETSCHED_BCAST_PIPELINE_H
#define NETSCHED_BCAST_PIPELINE_H

#include "sched/planners/registry.h"

/* Largest X·(P − 1) (segments times receivers = transfers) a bcast planner
 * accepts: 2^25 transfers take about 0.7 GB while planning. */
#define NS_BCAST_MAX_TRANSFERS (UINT64_C(1) << 25)

/* A broadcast tree over machine indices 0..n-1 rooted at `root`. Children
 * of a machine are kept in send order (the order they were added). */
typedef struct {
  int n;
  int root;
  int *parent;       /* parent[m]; -1 for the root and for machines not yet added */
  int *child_start;  /* after ns_bcast_tree_finish: children of m are */
  int *children;     /*   children[child_start[m] .. child_start[m+1]) */
  GArray *edges;     /* construction: (parent, child) pairs in call order */
} NsBcastTree;

/* New tree holding only the root. n >= 1, 0 <= root < n. */
NsBcastTree *ns_bcast_tree_new(int n, int root);
void ns_bcast_tree_free(NsBcastTree *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsBcastTree, ns_bcast_tree_free)

/* Makes `child` the next child of `parent`. `parent` must already be in the
 * tree (the root or an added child) and `child` must not be, so the result
 * is always a tree; FALSE (and nothing changes) otherwise. O(1). */
gboolean ns_bcast_tree_add(NsBcastTree *t, int parent, int child);

/* Freezes the tree and builds the child lists. FALSE with NS_ERROR_INPUT
 * naming a machine that was never added. O(n). */
gboolean ns_bcast_tree_finish(NsBcastTree *t, GError **error);

/* Children of m in send order (finished tree). */
static inline int ns_bcast_tree_n_children(const NsBcastTree *t, int m)
{
  return t->child_start[m + 1] - t->child_start[m];
}
static inline const int *ns_bcast_tree_children(const NsBcastTree *t, int m)
{
  return t->children + t->child_start[m];
}

/* Height H in edges (0 for a lone root) and maximum number of children D of
 * a finished tree. O(n). */
int ns_bcast_tree_height(const NsBcastTree *t);
int ns_bcast_tree_degree(const NsBcastTree *t);

/* Contention of a tree in the sense of dissertation §3.4.2: the number of
 * tree edges whose route shares a directed edge with a tree edge of a
 * DIFFERENT sender that was routed before it (0 = contention-free). When
 * non-zero and `first` is not NULL, first[0..2] receive the two senders
 * and the directed edge of the first clash found. Tree routing; O(Σ route
 * lengths) time, O(|E|) memory. */
uint64_t ns_bcast_tree_conflicts(const NsTopology *topo, const NsBcastTree *t, int first[3]);

/* Checks the bcast parameters and computes the segmentation: *n_segments =
 * X and *segment_bytes as described above. Errors: NS_ERROR_INPUT when the
 * root is not a machine index or msize is 0; NS_ERROR_UNSUPPORTED when
 * X·(P − 1) exceeds NS_BCAST_MAX_TRANSFERS (the message names `algorithm`
 * and suggests a larger segment). O(1). */
gboolean ns_bcast_segments(const NsTopology *topo, const NsPlanParams *params,
                           const char *algorithm, uint32_t *n_segments,
                           uint64_t *segment_bytes, GError **error);

/* Empty bcast schedule over the topology's machines with root, n_segments
 * and msize (= segment size) set. */
NsSchedule *ns_bcast_schedule_new(const NsTopology *topo, const char *algorithm,
                                  int root, uint32_t n_segments, uint64_t segment_bytes);

/* The pipeline: the phases of broadcasting n_segments segments down a
 * finished tree, as described above. `algorithm` names the schedule.
 * The schedule's root is the tree's root. Time and memory O(X·P) (plus
 * the schedule); cannot fail for a finished tree (callers bound X·(P − 1)
 * with ns_bcast_segments() first). */
NsSchedule *ns_bcast_pipeline(const NsTopology *topo, const NsBcastTree *tree,
                              const char *algorithm, uint32_t n_segments,
                              uint64_t segment_bytes);

#endif
