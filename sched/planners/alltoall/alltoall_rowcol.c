/* netsched — alltoall/rowcol: the row–column (dimension-by-dimension)
 * indirect all-to-all along a torus's own dimensions. */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"

/*
 * ns_alltoall_rowcol — the row–column exchange on a ring, torus or mesh:
 * the all-to-all done one dimension at a time, as `2dmesh` does on a
 * logical mesh, but along the grid's real dimensions and carrying only
 * the messages still needed (personalized), not all data. It is the
 * indirect baseline Liu Gang et al. §I set their algorithms against
 * ("messages ... combined to form a larger message").
 *
 * Steps (dimensions k = 0, 1, … in order; N_k the size of dimension k):
 *  for j = 1 .. N_k − 1 (one phase each):
 *    machine c sends to c + j·e_k (mod N_k), in one transfer, every message
 *    it holds whose destination has coordinate c_k + j in dimension k —
 *    after dimensions 0..k−1 that is the messages from the origins o with
 *    o_i = c_i for i ≥ k (and any o_i below k) to the destinations d with
 *    d_i = c_i for i < k, d_k = c_k + j (and any d_i above k): p/N_k
 *    messages per transfer.
 * After dimension k every message has its destination's coordinates
 * 0..k; after the last it has arrived. Each message crosses each dimension
 * once, by the topology's route (the shorter way round, ties the positive
 * way), so every message travels a shortest path.
 * DECISIONS: personalized rather than all-data (the all-data version on an
 * N × N torus is `2dmesh`, whose factoring then picks the torus's own
 * rows); shift order j = 1, 2, … as in the repository's ring steps
 * (dissertation §4.1.1.1); one-port (one send, one receive per phase).
 * Contention: shift j loads every link of its direction on a ring of N
 * with min(j, N−j) transfers (N/2 at j = N/2), so the phases contend
 * (the verifier reports it) and, with bandwidth shared, dimension k costs
 * (p/N_k)·⌊N_k²/4⌋ message times: N³/2 on an N × N torus, 4 × Lemma 1's
 * N³/8 (tests/test_torus.c asserts both from the routes).
 * Phases Σ (N_k − 1); chunk moves p · Σ_k (N_k − 1)·p/N_k.
 * Time and memory O(chunk moves). Errors: NS_ERROR_UNSUPPORTED for a
 * topology without a grid, or when the chunk moves exceed the IR's pool.
 */
NsSchedule *ns_alltoall_rowcol(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  int N[NS_MAX_DIMS];
  gboolean wrap;
  int n_dims = ns_topology_grid(topo, N, &wrap);
  int p = ns_topology_n_machines(topo);
  int64_t cells = 1;
  for (int k = 0; k < n_dims; k++)
    cells *= N[k];
  if (n_dims == 0 || cells != p) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "rowcol needs a ring, torus or mesh (a grid of machines); %s is not one",
                ns_topology_source(topo));
    return NULL;
  }
  uint64_t moves = 0;
  uint32_t n_phases = 0;
  for (int k = 0; k < n_dims; k++) {
    moves += (uint64_t)(N[k] - 1) * (uint64_t)p * (uint64_t)(p / N[k]);
    n_phases += (uint32_t)(N[k] - 1);
  }
  if (moves >= G_MAXUINT32) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "rowcol on %d machines would move %" G_GUINT64_FORMAT " chunks, more than a "
                "schedule can hold", p, moves);
    return NULL;
  }
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "rowcol", params->msize);
  ns_schedule_reserve(s, n_phases, (uint64_t)n_phases * (uint64_t)p);
  GArray *chunks = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  for (int k = 0; k < n_dims; k++) {
    int per = p / N[k];
    for (int j = 1; j < N[k]; j++) {
      ns_schedule_begin_phase(s);
      for (int m = 0; m < p; m++) {
        int c[NS_MAX_DIMS], o[NS_MAX_DIMS], d[NS_MAX_DIMS];
        ns_topology_machine_coords(topo, m, c);
        int to[NS_MAX_DIMS];
        for (int i = 0; i < n_dims; i++)
          to[i] = c[i];
        to[k] = (c[k] + j) % N[k];
        g_array_set_size(chunks, 0);
        /* The free coordinates: o_i for i < k, d_i for i > k, as one
         * mixed-radix counter over the other dimensions. */
        for (int idx = 0; idx < per; idx++) {
          int rest = idx;
          for (int i = 0; i < n_dims; i++) {
            if (i == k)
              continue;
            int v = rest % N[i];
            rest /= N[i];
            o[i] = i < k ? v : c[i];
            d[i] = i < k ? c[i] : v;
          }
          o[k] = c[k];
          d[k] = to[k];
          uint32_t chunk = ns_a2a_chunk(p, ns_topology_machine_at(topo, o),
                                        ns_topology_machine_at(topo, d));
          g_array_append_val(chunks, chunk);
        }
        ns_schedule_add_chunks(s, m, ns_topology_machine_at(topo, to), chunks->len,
                               (const uint32_t *)(const void *)chunks->data);
      }
    }
  }
  g_array_unref(chunks);
  return s;
}
