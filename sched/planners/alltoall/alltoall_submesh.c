/* netsched — alltoall/submesh: the 2 × 2 sub-mesh scheme Liu Gang et al.
 * §IV.A describe as the previous indirect torus algorithm (Tseng, Ni &
 * Sheu [7]; Gu [8]). */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"

/*
 * ns_alltoall_submesh — "four nodes in each 2×2 sub-mesh exchange messages
 * in two steps. After this part, each node in a 2×2 sub-mesh has messages
 * originated from nodes in the same 2×2 sub-mesh and destined for nodes in
 * the same group to which the node belongs. In the second part, nodes in
 * the same group perform complete exchange among them" (Liu Gang et al.
 * §IV.A, on [7, 8]); one-port.
 *
 * Reconstruction: the cited papers' own texts were not available, only
 * this description and their abstracts ([7]: gather–scatter, network
 * partitioning, dimension by dimension). What is taken from the
 * description: the 2 × 2 sub-meshes {2X, 2X+1} × {2Y, 2Y+1}, the two
 * exchange steps, the groups by coordinate parity, the one-port model.
 * DECISIONS (not in the description): step 1 pairs along dimension 0 (x
 * with x XOR 1), step 2 along dimension 1; the second part is the
 * row–column exchange (alltoall/rowcol) on each group's logical
 * (N0/2) × (N1/2) torus, whose neighbours are two links apart, all four
 * groups at once.
 * Steps:
 *  1. machine (x, y) sends to (x XOR 1, y) its messages for destinations
 *     of the other x parity (p/2 chunks);
 *  2. (x, y) sends to (x, y XOR 1) what it holds for destinations of its
 *     x parity and the other y parity: its own and its partner's (p/2);
 *  3. for j = 1 .. N0/2 − 1: (x, y) sends to (x + 2j, y) the messages
 *     from its sub-mesh's four nodes for its group's destinations in
 *     column x + 2j (2·N1 chunks);
 *  4. for j = 1 .. N1/2 − 1: (x, y) sends to (x, y + 2j) the messages for
 *     destination (x, y + 2j) from the four nodes of every sub-mesh of its
 *     sub-mesh row (2·N0 chunks).
 * Properties the verifier shows: complete; one-port; not shortest-path
 * (a message from x = 0 to x = N0 − 3 goes to x = 1 first); the groups'
 * shifts share links (G00's (0,0)→(2,0) and G10's (1,0)→(3,0) both cross
 * (1,0)→(2,0)), so phases contend — Liu Gang et al.'s point that the
 * scheme "fails to fully utilize all communication links" and is not
 * optimal.
 * Phases N0/2 + N1/2; chunk moves p² + p·((N0/2−1)·2N1 + (N1/2−1)·2N0).
 * Time and memory O(chunk moves). Errors: NS_ERROR_UNSUPPORTED unless the
 * topology is a two-dimensional torus with even sizes of at least 4.
 */
NsSchedule *ns_alltoall_submesh(const NsTopology *topo, const NsPlanParams *params,
                                GError **error)
{
  int N[NS_MAX_DIMS];
  gboolean wrap = FALSE;
  int n_dims = ns_topology_grid(topo, N, &wrap);
  int p = ns_topology_n_machines(topo);
  if (n_dims != 2 || !wrap || N[0] * N[1] != p || N[0] < 4 || N[1] < 4 || N[0] % 2 != 0 ||
      N[1] % 2 != 0) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "submesh needs a two-dimensional torus with even sizes of at least 4; %s is "
                "not one", ns_topology_source(topo));
    return NULL;
  }
  uint64_t moves = (uint64_t)p * (uint64_t)p +
                   (uint64_t)p * (uint64_t)((N[0] / 2 - 1) * 2 * N[1] + (N[1] / 2 - 1) * 2 * N[0]);
  if (moves >= G_MAXUINT32) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "submesh on %d machines would move %" G_GUINT64_FORMAT " chunks, more than a "
                "schedule can hold", p, moves);
    return NULL;
  }
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "submesh", params->msize);
  GArray *chunks = g_array_new(FALSE, FALSE, sizeof(uint32_t));
#define AT(cx, cy) ns_topology_machine_at(topo, (const int[]){ (cx), (cy) })
#define PUSH(o, d)                                                                            \
  do {                                                                                        \
    uint32_t ch_ = ns_a2a_chunk(p, (o), (d));                                                 \
    g_array_append_val(chunks, ch_);                                                          \
  } while (0)
  for (int step = 0; step < 2; step++) {
    ns_schedule_begin_phase(s);
    for (int m = 0; m < p; m++) {
      int c[NS_MAX_DIMS];
      ns_topology_machine_coords(topo, m, c);
      int partner[2] = { c[0], c[1] };
      partner[step] ^= 1;
      g_array_set_size(chunks, 0);
      for (int d = 0; d < p; d++) {
        int cd[NS_MAX_DIMS];
        ns_topology_machine_coords(topo, d, cd);
        if (step == 0 && cd[0] % 2 != c[0] % 2)
          PUSH(m, d);
        if (step == 1 && cd[0] % 2 == c[0] % 2 && cd[1] % 2 != c[1] % 2) {
          PUSH(m, d);
          PUSH(AT(c[0] ^ 1, c[1]), d);
        }
      }
      ns_schedule_add_chunks(s, m, AT(partner[0], partner[1]), chunks->len,
                             (const uint32_t *)(const void *)chunks->data);
    }
  }
  for (int k = 0; k < 2; k++)
    for (int j = 1; j < N[k] / 2; j++) {
      ns_schedule_begin_phase(s);
      for (int m = 0; m < p; m++) {
        int c[NS_MAX_DIMS];
        ns_topology_machine_coords(topo, m, c);
        int to[2] = { c[0], c[1] };
        to[k] = (c[k] + 2 * j) % N[k];
        g_array_set_size(chunks, 0);
        int bx = c[0] - c[0] % 2, by = c[1] - c[1] % 2;
        if (k == 0) {
          /* Origins: the four of the sub-mesh; destinations: the group's
           * nodes of column to[0]. */
          for (int a = 0; a < 4; a++)
            for (int y = c[1] % 2; y < N[1]; y += 2)
              PUSH(AT(bx + a % 2, by + a / 2), AT(to[0], y));
        } else {
          for (int x = 0; x < N[0]; x++)
            for (int b = 0; b < 2; b++)
              PUSH(AT(x, by + b), AT(to[0], to[1]));
        }
        ns_schedule_add_chunks(s, m, AT(to[0], to[1]), chunks->len,
                               (const uint32_t *)(const void *)chunks->data);
      }
    }
#undef PUSH
#undef AT
  g_array_unref(chunks);
  return s;
}
