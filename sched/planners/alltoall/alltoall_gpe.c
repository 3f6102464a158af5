/* netsched — alltoall/gpe: generalized pairwise exchange. */
#include "sched/planners/registry.h"

/* Partner of machine x < n in round r of the classic edge colouring of the
 * complete graph K_p (round-robin tournament), or -1 when x idles, where
 * n = p for odd p and n = p − 1 for even p.
 *   odd p:  colour r pairs x with (r − x) mod p; the x with 2x ≡ r idles.
 *   even p: colour K_{p−1} on 0..p−2 as above (n = p−1 is odd) and pair the
 *           machine that would idle with machine p−1 (returned as n). */
static int gpe_partner(int p, int n, int r, int x)
{
  int partner = ((r - x) % n + n) % n;
  if (partner == x)
    return (p % 2 == 1) ? -1 : n;
  return partner;
}

/*
 * ns_alltoall_gpe — Tam & Wang's Generalized Pairwise Exchange (§3.4,
 * Algorithm 3): the XOR pairing of `pair` generalised to any p by an edge
 * colouring of K_p.
 *
 * Steps:
 *  rounds = p if p is odd, else p − 1;
 *  for round r = 0 .. rounds−1 (one phase each):
 *    partner = edgeColor(r, x, p); if it exists, x sends to partner
 *    (and receives from it); otherwise x idles this round.
 * Every ordered pair exchanges exactly once because every edge of K_p gets
 * exactly one colour. Time O(p²). Errors: none.
 */
NsSchedule *ns_alltoall_gpe(const NsTopology *topo, const NsPlanParams *params,
                            GError **error)
{
  int p = ns_topology_n_machines(topo);
  int rounds = (p % 2 == 1) ? p : p - 1;
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "gpe", params->msize);
  ns_schedule_reserve(s, (uint32_t)rounds, (uint64_t)p * (p - 1));
  int *partner = g_new(int, p);
  int n = (p % 2 == 1) ? p : p - 1;
  for (int r = 0; r < rounds; r++) {
    ns_schedule_begin_phase(s);
    for (int x = 0; x < n; x++)
      partner[x] = gpe_partner(p, n, r, x);
    if (n < p) /* the extra machine takes the partner that pairs with it */
      for (int x = 0; x < n; x++)
        if (partner[x] == n)
          partner[n] = x;
    for (int x = 0; x < p; x++)
      if (partner[x] >= 0)
        ns_schedule_add(s, x, partner[x], ns_a2a_chunk(p, x, partner[x]));
  }
  g_free(partner);
  return s;
}
