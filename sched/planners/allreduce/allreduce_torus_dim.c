/* netsched — allreduce/torus-dim: the dimension-wise all-port torus
 * allreduce, a bucket (ring) reduce-scatter dimension by dimension, then
 * the bucket all-gather dimension by dimension in the reverse order, with
 * the vector cut into 2d parts so that both directions of every dimension
 * carry data in every phase.
 *
 * The bucket algorithm per dimension is the ring of Chan, Heimlich,
 * Purkayastha & van de Geijn, "Collective communication: theory, practice,
 * and experience" (CCPE 2007): its bucket reduce-scatter and all-gather,
 * and their composition dimension by dimension on a multidimensional mesh.
 * Splitting the vector so that the dimensions run at once, each part in
 * another dimension order, and halving each part over the two directions
 * of a link is Jain & Sabharwal's bidirectional bucket allreduce for tori
 * ("Optimal bucket algorithms for large MPI collectives on torus
 * interconnects", ICS 2010), which reaches the all-port bound on tori
 * whose dimensions are equal.
 */
#include "platforms/model/error.h"
#include "sched/planners/allreduce/allreduce_common_internal.h"
#include "sched/planners/common/torus_shape_internal.h"
#include <string.h>

/*
 * ns_allreduce_torus_dim — bidirectional bucket reduce-scatter and
 * all-gather, dimension by dimension, on a d-dimensional torus
 * s_0 × … × s_(d−1) of P machines.
 *
 * Steps:
 *  1. The vector is cut into 2d parts (r, σ), r = 0 … d−1, σ = ±1, each
 *     cut into P blocks (2dP segments, the first n mod 2dP a byte larger);
 *     block m of a part ends the reduce-scatter complete at machine m.
 *     Part (r, σ) visits the dimensions in the rotated order
 *     D_j = (r + j) mod d and sends in direction σ along each.
 *  2. Reduce-scatter, stages j = 0 … d−1 of L = max s_k − 1 phases each.
 *     Before stage j machine m holds the partials of the blocks b whose
 *     coordinates agree with m's on D_0 … D_(j−1); they fall in s groups
 *     by their coordinate v on k = D_j (s = s_k). In step t < s − 1
 *     machine at coordinate c on k sends group (c − σ(1 + t)) mod s to its
 *     neighbour c + σ, which combines (the bucket reduce-scatter: the
 *     group a machine sends is the one it received the step before with
 *     its own contribution added); after s − 1 steps machine c holds group
 *     c complete. A part whose dimension is shorter than L idles for the
 *     rest of the stage.
 *  3. All-gather, stages j = d−1 … 0, the same groups: in step t machine c
 *     sends group (c − σt) mod s to c + σ, a copy (the bucket all-gather).
 * In a stage the d rotations are in d different dimensions and the two
 * signs of a rotation use opposite links, so each directed link carries
 * one transfer a phase: contention-free under the all-port model, every
 * port busy while the longest dimension is. On a dimension of size 2 the
 * neighbours c + 1 and c − 1 are one machine behind one route (the
 * topology's): the two signs' groups go in one transfer.
 * Phases 2d(max s_k − 1): 28 on 8 × 8, 60 on 16 × 16, 18 on 4 × 4 × 4.
 * On a torus of equal sizes s a machine sends in stage j of the
 * reduce-scatter (s − 1) blocks of n/(2d s^(j+1)) on each of its 2d
 * ports, (P − 1)/P · n/(2d) over the stages — with the all-gather,
 * 2(P − 1)/(2d P) · n, the all-port bound's bandwidth term exactly (when
 * 2dP divides n). On unequal sizes the parts in the shorter dimensions
 * idle and the groups differ in size: above the bound (docs/algorithms.md
 * measures both against allreduce/torus).
 * Params: msize (n). Errors: NS_ERROR_UNSUPPORTED when n < 2dP, the
 * fabric is not a torus, a machine has fewer ports than directions, or
 * its 4dP(P−1) block moves exceed TORUS_DIM_MAX_BLOCK_MOVES (a 2-D torus
 * above 2896 machines). Time O(d·P²) block moves and O(d²·L·P) transfers; memory
 * O(dP) besides the schedule.
 */

/* Most block moves (segments over all transfers) a schedule may hold: a
 * machine sends Σ_j (s_(D_j) − 1)·P/(s_(D_0)···s_(D_j)) = P − 1 blocks of
 * each part in the reduce-scatter and as many in the all-gather, 4d·P(P−1)
 * in all; 2^26 (256 MiB of chunk pool, as reduce/rabenseifner) is a 2-D
 * torus of 2896 machines. */
#define TORUS_DIM_MAX_BLOCK_MOVES (UINT64_C(1) << 26)

typedef struct {
  const NsTopology *topo;
  NsSchedule *s;
  int p, d, longest; /* machines, dimensions, max s_k */
  int sizes[NS_MAX_DIMS];
  int *coords;  /* coords[m * d + k] */
  int *nbr;     /* nbr[(m * d + k) * 2 + (σ < 0)]: m's neighbour */
  GArray **out; /* out[(m * d + k) * 2 + (σ < 0)]: a phase's chunks */
} Plan;

/* The outbox of machine m in dimension k, direction σ: on a dimension of
 * size 2 both signs share the + one (one neighbour, one route). */
static GArray *outbox(Plan *pl, int m, int k, int sigma)
{
  gboolean minus = sigma < 0 && pl->sizes[k] >= 3;
  return pl->out[((gsize)m * pl->d + k) * 2 + minus];
}

/* Appends to `into` the segments of part `part` in the group of machine
 * m at stage j of order `order`: the blocks whose coordinates agree with
 * m's on order[0 … j−1], equal v on order[j], any on the rest. */
static void append_group(Plan *pl, GArray *into, int part, const int *order, int j, int m, int v)
{
  int c[NS_MAX_DIMS];
  memcpy(c, pl->coords + (gsize)m * pl->d, sizeof(int) * (size_t)pl->d);
  c[order[j]] = v;
  for (int i = j + 1; i < pl->d; i++)
    c[order[i]] = 0;
  for (;;) {
    uint32_t seg = (uint32_t)part * (uint32_t)pl->p + (uint32_t)ns_topology_machine_at(pl->topo, c);
    g_array_append_val(into, seg);
    int i = pl->d - 1; /* the odometer over the free dimensions */
    while (i > j && ++c[order[i]] == pl->sizes[order[i]])
      c[order[i--]] = 0;
    if (i == j)
      return;
  }
}

/* One phase: step t of stage j for every part, combining (reduce-scatter)
 * or copying (all-gather). */
static void plan_phase(Plan *pl, int j, int t, gboolean combine)
{
  int d = pl->d;
  for (int part = 0; part < 2 * d; part++) {
    int r = part / 2, sigma = part % 2 ? -1 : 1, order[NS_MAX_DIMS];
    for (int i = 0; i < d; i++)
      order[i] = (r + i) % d;
    int k = order[j], s = pl->sizes[k];
    if (t >= s - 1)
      continue;
    int shift = combine ? 1 + t : t;
    for (int m = 0; m < pl->p; m++) {
      int c = pl->coords[(gsize)m * d + k];
      int v = ((c - sigma * shift) % s + s) % s;
      append_group(pl, outbox(pl, m, k, sigma), part, order, j, m, v);
    }
  }
  ns_schedule_begin_phase(pl->s);
  for (int m = 0; m < pl->p; m++)
    for (int k = 0; k < d; k++)
      for (int minus = 0; minus < 2; minus++) {
        GArray *box = pl->out[((gsize)m * d + k) * 2 + minus];
        if (box->len == 0)
          continue;
        int dst = pl->nbr[((gsize)m * d + k) * 2 + minus];
        const uint32_t *chunks = (const uint32_t *)(const void *)box->data;
        if (combine)
          ns_schedule_add_combine(pl->s, m, dst, box->len, chunks);
        else
          ns_schedule_add_chunks(pl->s, m, dst, box->len, chunks);
        g_array_set_size(box, 0);
      }
}

NsSchedule *ns_allreduce_torus_dim(const NsTopology *topo, const NsPlanParams *params,
                                   GError **error)
{
  Plan pl = { .topo = topo, .p = ns_topology_n_machines(topo) };
  pl.d = ns_plan_torus_shape(topo, "torus-dim", pl.sizes, error);
  if (pl.d == 0)
    return NULL;
  uint64_t moves = 4 * (uint64_t)pl.d * (uint64_t)pl.p * (uint64_t)(pl.p - 1);
  if (moves > TORUS_DIM_MAX_BLOCK_MOVES) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "allreduce/torus-dim on %d machines in %d dimensions moves 4dP(P-1) = "
                    "%" G_GUINT64_FORMAT " blocks, above the limit of %" G_GUINT64_FORMAT
                    " (allreduce/torus moves 2P(P-1))",
                    pl.p, pl.d, moves, (guint64)TORUS_DIM_MAX_BLOCK_MOVES);
    return NULL;
  }
  pl.s = ns_allreduce_new(topo, "torus-dim", params->msize, (uint32_t)(2 * pl.d * pl.p),
                          NS_BLOCKS_SPREAD, error);
  if (pl.s == NULL)
    return NULL;
  int p = pl.p, d = pl.d;
  pl.coords = g_new(int, (gsize)p *d);
  pl.nbr = g_new(int, (gsize)p *d * 2);
  pl.out = g_new(GArray *, (gsize)p * d * 2);
  for (int m = 0; m < p; m++)
    ns_topology_machine_coords(topo, m, pl.coords + (gsize)m * d);
  for (int k = 0; k < d; k++)
    pl.longest = MAX(pl.longest, pl.sizes[k]);
  for (int m = 0; m < p; m++)
    for (int k = 0; k < d; k++)
      for (int minus = 0; minus < 2; minus++) {
        int c[NS_MAX_DIMS];
        memcpy(c, pl.coords + (gsize)m * d, sizeof(int) * (size_t)d);
        c[k] = (c[k] + (minus ? -1 : 1) + pl.sizes[k]) % pl.sizes[k];
        gsize i = ((gsize)m * d + k) * 2 + minus;
        pl.nbr[i] = ns_topology_machine_at(topo, c);
        pl.out[i] = g_array_new(FALSE, FALSE, sizeof(uint32_t));
      }
  for (int j = 0; j < d; j++)
    for (int t = 0; t + 1 < pl.longest; t++)
      plan_phase(&pl, j, t, TRUE);
  for (int j = d - 1; j >= 0; j--)
    for (int t = 0; t + 1 < pl.longest; t++)
      plan_phase(&pl, j, t, FALSE);
  for (gsize i = 0; i < (gsize)p * d * 2; i++)
    g_array_unref(pl.out[i]);
  g_free(pl.out);
  g_free(pl.nbr);
  g_free(pl.coords);
  return pl.s;
}
