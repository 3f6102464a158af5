/* netsched — time estimates and bounds of broadcast schedules.
 *
 * After the dissertation §3.4.1 (Faraj; Patarasuk, Faraj & Yuan, IPDPS
 * 2006). The time to send n bytes from machine a to machine b is
 *     T(n) = n·8 / B + λ,
 * B the smallest bandwidth (bit/s) on the route a -> b and λ the sum of the
 * latencies of its links (the paper's α + n·β with β = 8/B and α = the path
 * latency). Broadcasting msize bytes needs at least
 *     T(msize) = max over machines m ≠ root of T_{root -> m}(msize)
 * (every machine receives the whole message; §3.4.1: "the lower bound of
 * the completion time is at least T(msize)"). That holds for one-port
 * machines, and for one message (no segments) on any port model; with X
 * segments an all-port machine receives segments over several links at
 * once (a torus node: four), so T(msize) is then an estimate, and the
 * bound is the larger of T(msize/X) to the farthest machine and the port
 * and cut bound of the X segments (⌈X/ports⌉ segment times through the
 * root's ports; sched/bound's ns_lower_bound).
 *
 * Table 3.7 estimates, with X segments of msize/X bytes, H the height of
 * the broadcast tree in edges and D its largest number of children:
 *     pipelined tree     (X + H − 1)·D·T(msize/X)   (linear: X + P − 2,
 *                                                   binary: (X + H − 1)·2)
 *     flat tree          (P − 1)·T(msize)
 *     binomial tree      ⌈log2 P⌉·T(msize)
 *     scatter/allgather  2·T((P − 1)/P·msize) ≈ 2·T(msize)
 * For large X these tend to Table 3.7's T(msize), 2·T(msize), k·T(msize).
 * (The paper's H counts tree levels, one more than netsched's edges; with
 * edges the pipelined formula is exactly the phase bound of
 * sched/planners/bcast/bcast_pipeline_internal.h times the stage time.) In the estimates T uses
 * the smallest bandwidth and the largest latency over the routes the
 * schedule uses (the slowest transfer of any stage); the scatter/allgather
 * term uses the slowest route for (P − 1)/P·msize bytes.
 */
#ifndef NETSCHED_BOUNDS_BCAST_H
#define NETSCHED_BOUNDS_BCAST_H

#include "platforms/model/topology.h"
#include "sched/ir/schedule.h"
#include "sched/planners/registry.h"

/* Height H (edges on the longest root-to-machine path) and largest number
 * of children D of the tree given by parent[0..n-1] (parent[root] = -1,
 * machine indices). FALSE with NS_ERROR_INPUT when parent[] is not a tree
 * rooted at `root` (an index out of range, a second root, a cycle). O(n). */
gboolean ns_bcast_tree_shape(int n, int root, const int *parent, int *height, int *degree,
                             GError **error);

/* The broadcast tree of a planned bcast schedule: parent[m] = the machine
 * m receives its segments from (-1 for the root), for the schedule's
 * machine indices. FALSE with NS_ERROR_UNSUPPORTED when the schedule is
 * not a single tree (a machine receives from two machines, as in
 * scatter-allgather, or receives nothing) and NS_ERROR_INPUT for a
 * non-bcast schedule. O(transfers + chunks). */
gboolean ns_bcast_schedule_tree(const NsSchedule *s, int *parent, GError **error);

/* T(bytes) = bytes·8/B + λ over the route between two topology machines
 * (0 for a == b). O(route length). */
double ns_bcast_transfer_time(const NsTopology *topo, int src_machine, int dst_machine,
                              double bytes);

/* Table 3.7 formulas, given the per-transfer times. */
double ns_bcast_pipelined_time(uint64_t n_segments, int height, int degree, double t_segment);
double ns_bcast_flat_time(int n_machines, double t_msize);
double ns_bcast_binomial_time(int n_machines, double t_msize);
/* 2·T((P−1)/P·msize) where t_part = T((P−1)/P·msize). */
double ns_bcast_scatter_allgather_time(double t_part);

typedef struct {
  int n_machines;
  uint32_t n_segments;       /* X */
  uint64_t segment_bytes;    /* the schedule's msize */
  uint64_t msize;            /* X · segment_bytes (the last segment counted full) */
  gboolean is_tree;          /* one tree carries every segment */
  int height, degree;        /* H and D of that tree (is_tree), else 0 */
  uint64_t pipeline_phases;  /* (X + H − 1)·D (is_tree), else 0 */
  uint64_t n_phases;         /* phases of the schedule */
  double lower_bound;        /* s: T(msize), from the root to the farthest machine; with
                                segments over machines of several ports, the larger of
                                T(msize/X) to the farthest machine and the port and cut
                                bound of the X segments (ns_lower_bound) */
  double t_msize;            /* s: T(msize) to the farthest machine, a bound or not */
  gboolean t_msize_estimate; /* T(msize) is no bound: X > 1 segments and machines of
                                several ports, which take segments over several links */
  double estimate;           /* s: the Table 3.7 estimate for the schedule's algorithm */
  const char *formula;       /* the formula `estimate` used, e.g. "(X+H-1)*D*T(msize/X)" */
  double phased_time;        /* s: Σ over phases of the slowest transfer of the phase
                                (phases one after the other, no contention) */
} NsBcastBound;

/* Bounds and estimates of a bcast schedule on a topology. The estimate
 * follows the schedule's algorithm name: "flat" -> flat tree, "binomial"
 * with one segment -> binomial tree, "scatter-allgather" -> scatter/
 * allgather, any other single-tree schedule -> pipelined tree; a schedule
 * that is no tree and none of these gets phased_time. Schedule machines
 * are matched to topology machines by name. FALSE with NS_ERROR_INPUT for
 * a non-bcast schedule or an unknown machine name.
 * Time O(Σ route lengths over the transfers); memory O(P). */
gboolean ns_bcast_bound(const NsTopology *topo, const NsSchedule *s, NsBcastBound *out,
                        GError **error);

/* One algorithm of Table 3.7 planned and estimated (ns_bcast_estimates). */
typedef struct {
  const char *algorithm;     /* static */
  gboolean ok;               /* FALSE: `error` says why (the planner refused the fabric) */
  NsBcastBound bound;        /* when ok */
  GError *error;             /* when not ok */
} NsBcastEstimate;

/* The broadcast algorithms `bound -c bcast` sets side by side (Table 3.7:
 * the contention-free trees and the classic ones), each planned with
 * `params` and estimated (`topo` NULL: their names only); *n gets their
 * number. Free with
 * ns_bcast_estimates_free. */
NsBcastEstimate *ns_bcast_estimates(const NsTopology *topo, const NsPlanParams *params, int *n);
void ns_bcast_estimates_free(NsBcastEstimate *e, int n);

#endif
