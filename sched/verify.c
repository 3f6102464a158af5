/* netsched — the schedule verifier: symbolic replay of chunk ownership,
 * completeness, rate-weighted contention on directed edges, port models,
 * shortest paths and optimality against the lower bound. See verify.h. */
#include "sched/verify.h"
#include "platforms/error.h"
#include "sched/lower_bound.h"
#include "sched/sync.h"
#include <string.h>

static const char *const check_names[NS_N_CHECKS] = {
  [NS_CHECK_DATAFLOW] = "dataflow",
  [NS_CHECK_COMPLETE] = "complete",
  [NS_CHECK_CONTENTION] = "contention-free",
  [NS_CHECK_PORT] = "port-model",
  [NS_CHECK_OPTIMAL] = "optimal",
  [NS_CHECK_SYNC] = "sync",
  [NS_CHECK_SHORTEST] = "shortest-path",
};

const char *ns_check_name(NsCheck c) { return check_names[c]; }

NsCheck ns_finding_check(NsFindingKind k)
{
  switch (k) {
  case NS_FIND_NOT_HELD: return NS_CHECK_DATAFLOW;
  case NS_FIND_MISSING:
  case NS_FIND_DUPLICATE: return NS_CHECK_COMPLETE;
  case NS_FIND_EDGE: return NS_CHECK_CONTENTION;
  case NS_FIND_PORT_SEND:
  case NS_FIND_PORT_RECV: return NS_CHECK_PORT;
  case NS_FIND_PHASES: return NS_CHECK_OPTIMAL;
  case NS_FIND_UNORDERED: return NS_CHECK_SYNC;
  case NS_FIND_REDUNDANT: return NS_CHECK_COMPLETE;
  case NS_FIND_CYCLE: return NS_CHECK_SYNC;
  case NS_FIND_DETOUR: return NS_CHECK_SHORTEST;
  case NS_FIND_SLOWER: return NS_CHECK_OPTIMAL;
  case NS_N_FINDING_KINDS: break;
  }
  return NS_CHECK_OPTIMAL;
}

void ns_verify_options_init(NsVerifyOptions *opt)
{
  opt->port = NS_PORT_TOPOLOGY;
  opt->k = 1;
  opt->max_findings = 20;
  opt->sync_order = TRUE;
}

void ns_verify_report_clear(NsVerifyReport *r)
{
  if (r->findings != NULL)
    g_array_unref(r->findings);
  if (r->cycle != NULL)
    g_array_unref(r->cycle);
  memset(r, 0, sizeof *r);
}

gboolean ns_verify_passed(const NsVerifyReport *r, unsigned required)
{
  for (int c = 0; c < NS_N_CHECKS; c++) {
    if (c == NS_CHECK_OPTIMAL && !(required & NS_REQUIRE_OPTIMAL))
      continue;
    if (c == NS_CHECK_SHORTEST && !(required & NS_REQUIRE_SHORTEST))
      continue;
    if (r->ran[c] && r->failures[c] > 0)
      return FALSE;
  }
  return TRUE;
}

/* ---- state of the replay --------------------------------------------- */

typedef struct {
  const NsTopology *topo;
  const NsSchedule *s;
  const NsVerifyOptions *opt;
  NsVerifyReport *r;
  int p;                     /* schedule machines */
  int *node;                 /* schedule machine -> topology node */
  /* Holdings. alltoall: count[chunk] = deliveries of chunk (o,d) at d and
   * `relay` holds (chunk, machine) for intermediates of indirect
   * algorithms. allgather/bcast: count[chunk * p + machine]. */
  uint8_t *count;
  uint64_t n_count;
  uint32_t n_counted;        /* bcast: segments with a count row (those ever sent) */
  GHashTable *relay;
  GArray *scratch;           /* uint32: a transfer's chunks, sorted */
  uint32_t n_kinds[NS_N_FINDING_KINDS]; /* findings recorded per kind */
  /* Stamps (phase + 1) for contention and port checks. */
  uint64_t *edge_stamp, *edge_owner;
  uint32_t *edge_uses;
  double *edge_rate;         /* rates crossing the edge in the current phase */
  uint64_t *send_stamp, *recv_stamp, *send_owner, *recv_owner;
  uint32_t *send_count, *recv_count;
  int *ports;                /* per schedule machine: transfers per phase */
  int *route;
  /* Transmission time: rate of every transfer, slowest of the phase. */
  double phase_time, transmission;
  gboolean shortest;         /* run the shortest-path check (alltoall) */
  int *dist;                 /* explicit routing: BFS row of dist_origin */
  int dist_origin;
} Replay;

static void add_finding(Replay *st, NsFinding f)
{
  NsCheck c = ns_finding_check(f.kind);
  st->r->failures[c]++;
  if (st->n_kinds[f.kind] < (uint32_t)st->opt->max_findings) {
    st->n_kinds[f.kind]++;
    g_array_append_val(st->r->findings, f);
  }
}

static NsFinding finding(NsFindingKind kind, int64_t phase, int64_t t1)
{
  return (NsFinding){ .kind = kind, .phase = phase, .t1 = t1, .t2 = -1, .edge = -1,
                      .machine = -1, .chunk = 0, .value = 0, .bound = 0,
                      .cycle = NULL };
}

/* Relay holdings are keyed (chunk << 20) ^ machine (machines < 2^20); the
 * key is 64-bit, so mix both halves: g_direct_hash would keep only the low
 * 32 bits and collide once chunk ids pass 4096. */
static guint relay_hash(gconstpointer key)
{
  guint64 k = (guint64)GPOINTER_TO_SIZE(key);
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  return (guint)k;
}

static gpointer relay_key(uint32_t c, int m)
{
  return GSIZE_TO_POINTER(((gsize)c << 20) ^ (gsize)m);
}

/* Does machine m hold chunk c (before the current phase's receipts)? */
static gboolean holds(const Replay *st, int m, uint32_t c)
{
  const NsSchedule *s = st->s;
  switch (s->collective) {
  case NS_COLL_ALLTOALL: {
    int o = (int)(c / (uint32_t)st->p), d = (int)(c % (uint32_t)st->p);
    if (m == o || (m == d && st->count[c] > 0))
      return TRUE;
    return st->relay != NULL && g_hash_table_contains(st->relay, relay_key(c, m));
  }
  case NS_COLL_ALLGATHER:
    return m == (int)c || st->count[(uint64_t)c * st->p + m] > 0;
  case NS_COLL_BCAST:
    return m == s->root || st->count[(uint64_t)c * st->p + m] > 0;
  }
  return FALSE;
}

typedef enum { RECEIVED, RECEIVED_TWICE, RECEIVED_REDUNDANT } Receipt;

/* Machine m receives chunk c: a first delivery, a second delivery to a
 * destination (the postcondition says exactly once), or a redundant one —
 * to the chunk's origin (the allgather block's owner, the bcast root), or a
 * second copy to an intermediate of an indirect algorithm. */
static Receipt receive(Replay *st, int m, uint32_t c, uint32_t hops)
{
  const NsSchedule *s = st->s;
  uint8_t *slot;
  if (s->collective == NS_COLL_ALLTOALL) {
    int o = (int)(c / (uint32_t)st->p), d = (int)(c % (uint32_t)st->p);
    if (m == o)
      return RECEIVED_REDUNDANT;
    if (m != d) { /* an intermediate of an indirect algorithm; the value: hops + 1 */
      if (st->relay == NULL)
        st->relay = g_hash_table_new(relay_hash, g_direct_equal);
      if (g_hash_table_contains(st->relay, relay_key(c, m)))
        return RECEIVED_REDUNDANT;
      g_hash_table_insert(st->relay, relay_key(c, m), GUINT_TO_POINTER(hops + 1));
      return RECEIVED;
    }
    slot = &st->count[c];
  } else {
    if (m == (s->collective == NS_COLL_ALLGATHER ? (int)c : s->root))
      return RECEIVED_REDUNDANT;
    slot = &st->count[(uint64_t)c * st->p + m];
  }
  if (*slot < UINT8_MAX)
    (*slot)++;
  if (*slot == 1)
    st->r->n_delivered++;
  return *slot == 1 ? RECEIVED : RECEIVED_TWICE;
}

static int compare_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The first chunk listed twice in a transfer, or -1. O(k log k). */
static int64_t repeated_chunk(Replay *st, const NsTransfer *tr, const uint32_t *chunks)
{
  if (tr->n_chunks < 2)
    return -1;
  g_array_set_size(st->scratch, tr->n_chunks);
  uint32_t *sorted = (uint32_t *)st->scratch->data;
  memcpy(sorted, chunks, sizeof(uint32_t) * tr->n_chunks);
  qsort(sorted, tr->n_chunks, sizeof(uint32_t), compare_u32);
  for (uint32_t k = 1; k < tr->n_chunks; k++)
    if (sorted[k] == sorted[k - 1])
      return sorted[k];
  return -1;
}

/* Hops of the shortest path between two schedule machines: the length of
 * their route, which is a shortest path under every routing but explicit
 * routes (there: a breadth-first search, one row per origin). */
static uint32_t shortest_hops(Replay *st, int o, int d)
{
  if (ns_topology_routing(st->topo) != NS_ROUTING_EXPLICIT)
    return (uint32_t)ns_topology_route(st->topo, st->node[o], st->node[d], st->route);
  if (st->dist == NULL)
    st->dist = g_new(int, ns_topology_n_nodes(st->topo));
  if (st->dist_origin != o) {
    ns_topology_hop_distances(st->topo, st->node[o], st->dist);
    st->dist_origin = o;
  }
  return (uint32_t)st->dist[st->node[d]];
}

/* Hops a held all-to-all chunk travelled to reach machine m. */
static uint32_t hops_so_far(const Replay *st, int m, uint32_t c)
{
  if (m == (int)(c / (uint32_t)st->p) || st->relay == NULL)
    return 0;
  return GPOINTER_TO_UINT(g_hash_table_lookup(st->relay, relay_key(c, m))) - 1;
}

/* ---- the checks --------------------------------------------------------- */

static void check_dataflow(Replay *st, uint64_t phase, uint64_t first, uint64_t n)
{
  const NsSchedule *s = st->s;
  for (uint64_t t = first; t < first + n; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    const uint32_t *chunks = ns_schedule_chunks(s, tr);
    for (uint32_t k = 0; k < tr->n_chunks; k++)
      if (!holds(st, tr->src, chunks[k])) {
        NsFinding f = finding(NS_FIND_NOT_HELD, (int64_t)phase, (int64_t)t);
        f.machine = tr->src;
        f.chunk = chunks[k];
        add_finding(st, f);
      }
  }
  /* Receipts become visible only after the whole phase was checked. */
  for (uint64_t t = first; t < first + n; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    const uint32_t *chunks = ns_schedule_chunks(s, tr);
    st->r->n_chunk_moves += tr->n_chunks;
    int64_t twice = repeated_chunk(st, tr, chunks);
    if (twice >= 0) {
      NsFinding f = finding(NS_FIND_REDUNDANT, (int64_t)phase, (int64_t)t);
      f.machine = tr->dst;
      f.chunk = (uint32_t)twice;
      f.value = 1; /* listed twice in the transfer */
      add_finding(st, f);
    }
    /* A direct message (origin -> destination in one transfer) is on a
     * shortest path whenever its route is: only relays need counting. */
    gboolean relayed = FALSE;
    for (uint32_t k = 0; k < tr->n_chunks && st->shortest && !relayed; k++)
      relayed = chunks[k] != ns_a2a_chunk(st->p, tr->src, tr->dst) ||
                ns_topology_routing(st->topo) == NS_ROUTING_EXPLICIT;
    uint32_t route_hops = 0;
    if (relayed)
      route_hops = (uint32_t)ns_topology_route(st->topo, st->node[tr->src], st->node[tr->dst],
                                               st->route);
    for (uint32_t k = 0; k < tr->n_chunks; k++) {
      uint32_t hops = 0;
      if (relayed) {
        hops = hops_so_far(st, tr->src, chunks[k]) + route_hops;
        int o = (int)(chunks[k] / (uint32_t)st->p), d = (int)(chunks[k] % (uint32_t)st->p);
        if (tr->dst == d) {
          uint32_t best = o == tr->src ? route_hops : shortest_hops(st, o, d);
          if (hops > best) {
            NsFinding f = finding(NS_FIND_DETOUR, (int64_t)phase, (int64_t)t);
            f.chunk = chunks[k];
            f.value = hops;
            f.bound = best;
            add_finding(st, f);
          }
        }
      }
      Receipt got = receive(st, tr->dst, chunks[k], hops);
      if (got == RECEIVED)
        continue;
      NsFinding f = finding(got == RECEIVED_TWICE ? NS_FIND_DUPLICATE : NS_FIND_REDUNDANT,
                            (int64_t)phase, (int64_t)t);
      f.machine = tr->dst;
      f.chunk = chunks[k];
      add_finding(st, f);
    }
  }
}

/* A machine's sends or receives of the phase beyond its ports. */
static void check_port(Replay *st, uint64_t stamp, uint64_t phase, uint64_t t, int m,
                       gboolean sending)
{
  uint64_t *stamps = sending ? st->send_stamp : st->recv_stamp;
  uint64_t *owner = sending ? st->send_owner : st->recv_owner;
  uint32_t *count = sending ? st->send_count : st->recv_count;
  if (stamps[m] != stamp) {
    stamps[m] = stamp;
    owner[m] = t;
    count[m] = 0;
  }
  if (++count[m] <= (uint32_t)st->ports[m])
    return;
  NsFinding f = finding(sending ? NS_FIND_PORT_SEND : NS_FIND_PORT_RECV, (int64_t)phase,
                        (int64_t)t);
  f.t2 = (int64_t)owner[m];
  f.machine = m;
  f.count = count[m];
  f.bound = (uint64_t)st->ports[m];
  add_finding(st, f);
}

/* Rates crossing each directed edge sum to at most its bandwidth; a
 * transfer's rate is the smallest bandwidth on its route. On links of one
 * speed: one transfer per edge. Also accumulates the phase's slowest
 * transfer for the transmission time. */
static void check_contention(Replay *st, uint64_t phase, uint64_t first, uint64_t n)
{
  const NsSchedule *s = st->s;
  const NsTopology *topo = st->topo;
  uint64_t stamp = phase + 1;
  st->phase_time = 0;
  for (uint64_t t = first; t < first + n; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    int len = ns_topology_route(topo, st->node[tr->src], st->node[tr->dst], st->route);
    st->r->max_path_len = MAX(st->r->max_path_len, len - 1);
    double rate = G_MAXDOUBLE;
    for (int k = 0; k < len; k++)
      rate = MIN(rate, ns_topology_link(topo, ns_edge_link(st->route[k]))->bandwidth);
    if (len > 0)
      st->phase_time = MAX(st->phase_time, (double)tr->n_chunks * (double)s->msize * 8.0 / rate);
    for (int k = 0; k < len; k++) {
      int e = st->route[k];
      double capacity = ns_topology_link(topo, ns_edge_link(e))->bandwidth;
      if (st->edge_stamp[e] != stamp) {
        st->edge_stamp[e] = stamp;
        st->edge_owner[e] = t;
        st->edge_uses[e] = 0;
        st->edge_rate[e] = 0;
      }
      st->edge_uses[e]++;
      st->edge_rate[e] += rate;
      if (st->edge_rate[e] > capacity * (1 + 1e-9)) {
        NsFinding f = finding(NS_FIND_EDGE, (int64_t)phase, (int64_t)t);
        f.t2 = (int64_t)st->edge_owner[e];
        f.edge = e;
        f.count = st->edge_uses[e];
        add_finding(st, f);
      }
      st->r->max_edge_use = MAX(st->r->max_edge_use, st->edge_uses[e]);
    }
    if (st->r->ran[NS_CHECK_PORT]) {
      check_port(st, stamp, phase, t, tr->src, TRUE);
      check_port(st, stamp, phase, t, tr->dst, FALSE);
    }
  }
  st->transmission += st->phase_time;
}

/* Every (chunk, destination) pair the collective requires, once. */
static void check_complete(Replay *st)
{
  const NsSchedule *s = st->s;
  int p = st->p;
  if (s->collective == NS_COLL_ALLTOALL) {
    st->r->n_required = (uint64_t)p * (p - 1);
    for (int o = 0; o < p; o++)
      for (int d = 0; d < p; d++)
        if (o != d && st->count[ns_a2a_chunk(p, o, d)] == 0) {
          NsFinding f = finding(NS_FIND_MISSING, -1, -1);
          f.machine = d;
          f.chunk = ns_a2a_chunk(p, o, d);
          add_finding(st, f);
        }
    return;
  }
  /* Only segments some transfer carries have a count row; a segment no
   * transfer carries reaches nobody, counted without a loop over machines,
   * so a file declaring 2^31 segments costs what its transfers cost. */
  uint64_t n_chunks = s->collective == NS_COLL_ALLGATHER ? (uint64_t)p : s->n_segments;
  uint64_t counted = s->collective == NS_COLL_ALLGATHER ? (uint64_t)p : st->n_counted;
  st->r->n_required = 0;
  for (uint64_t c = 0; c < counted; c++) {
    int owner = s->collective == NS_COLL_ALLGATHER ? (int)c : s->root;
    for (int m = 0; m < p; m++) {
      if (m == owner)
        continue;
      st->r->n_required++;
      if (st->count[c * (uint64_t)p + m] == 0) {
        NsFinding f = finding(NS_FIND_MISSING, -1, -1);
        f.machine = m;
        f.chunk = (uint32_t)c;
        f.value = 1;
        add_finding(st, f);
      }
    }
  }
  if (n_chunks > counted) {
    uint64_t never = n_chunks - counted;
    st->r->n_required += never * (uint64_t)(p - 1);
    NsFinding f = finding(NS_FIND_MISSING, -1, -1);
    f.chunk = (uint32_t)counted;
    f.value = never * (uint64_t)(p - 1);
    st->r->failures[NS_CHECK_COMPLETE] += f.value - 1;
    add_finding(st, f);
  }
}

/* Every transfer carries one chunk and every link has one bandwidth: then
 * a phase takes one message time and optimality is a count of phases. */
static gboolean uniform_one_chunk(const NsTopology *topo, const NsSchedule *s)
{
  for (int i = 1; i < ns_topology_n_links(topo); i++)
    if (ns_topology_link(topo, i)->bandwidth != ns_topology_link(topo, 0)->bandwidth)
      return FALSE;
  for (uint64_t t = 0; t < ns_schedule_n_transfers(s); t++)
    if (ns_schedule_transfer(s, t)->n_chunks != 1)
      return FALSE;
  return TRUE;
}

/* Every index the schedule holds is in range: transfer ends, chunk ids
 * for the collective, sync edge ends, the broadcast root. Schedules read
 * from JSON are checked by the reader; this guards those built in code. */
static gboolean check_indices(const NsSchedule *s, GError **error)
{
  int p = s->n_machines;
  uint64_t n = ns_schedule_n_transfers(s);
  uint64_t chunks = s->collective == NS_COLL_ALLTOALL    ? (uint64_t)p * p
                    : s->collective == NS_COLL_ALLGATHER ? (uint64_t)p
                                                         : s->n_segments;
  if (s->collective == NS_COLL_BCAST && (s->root < 0 || s->root >= p)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "broadcast root %d out of range (%d machines)",
                    s->root, p);
    return FALSE;
  }
  for (uint64_t t = 0; t < n; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    if (tr->src < 0 || tr->src >= p || tr->dst < 0 || tr->dst >= p || tr->src == tr->dst) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "transfer #%" G_GUINT64_FORMAT " %d->%d: machine indices out of range or "
                      "equal (%d machines)", t, tr->src, tr->dst, p);
      return FALSE;
    }
    const uint32_t *c = ns_schedule_chunks(s, tr);
    for (uint32_t k = 0; k < tr->n_chunks; k++)
      if (c[k] >= chunks) {
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "transfer #%" G_GUINT64_FORMAT " carries chunk %u, out of range for %s "
                        "(%" G_GUINT64_FORMAT " chunks)", t, c[k], ns_collective_name(s->collective),
                        chunks);
        return FALSE;
      }
  }
  for (guint i = 0; s->sync != NULL && i < s->sync->len; i++) {
    const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
    if (e->from >= n || e->to >= n || e->from == e->to) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "sync edge %u: #%u -> #%u out of range or a loop (%" G_GUINT64_FORMAT
                      " transfers)", i, e->from, e->to, n);
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean map_machines(Replay *st, GError **error)
{
  st->node = ns_schedule_machine_nodes(st->topo, st->s, error);
  return st->node != NULL;
}

static void replay_free(Replay *st)
{
  g_free(st->node);
  g_free(st->count);
  if (st->relay != NULL)
    g_hash_table_unref(st->relay);
  if (st->scratch != NULL)
    g_array_unref(st->scratch);
  g_free(st->edge_stamp);
  g_free(st->edge_owner);
  g_free(st->edge_uses);
  g_free(st->edge_rate);
  g_free(st->send_count);
  g_free(st->recv_count);
  g_free(st->ports);
  g_free(st->dist);
  g_free(st->send_stamp);
  g_free(st->recv_stamp);
  g_free(st->send_owner);
  g_free(st->recv_owner);
  g_free(st->route);
}

gboolean ns_verify(const NsTopology *topo, const NsSchedule *s, const NsVerifyOptions *opt,
                   NsVerifyReport *r, GError **error)
{
  NsVerifyOptions defaults;
  if (opt == NULL) {
    ns_verify_options_init(&defaults);
    opt = &defaults;
  }
  memset(r, 0, sizeof *r);
  r->findings = g_array_new(FALSE, FALSE, sizeof(NsFinding));
  Replay st = { .topo = topo, .s = s, .opt = opt, .r = r, .p = s->n_machines };
  r->n_machines = s->n_machines;
  r->topo_machines = ns_topology_n_machines(topo);
  r->n_phases = ns_schedule_n_phases(s);
  r->n_transfers = ns_schedule_n_transfers(s);
  if (!check_indices(s, error) || !map_machines(&st, error)) {
    replay_free(&st);
    return FALSE;
  }

  int p = st.p;
  if (s->collective == NS_COLL_BCAST && s->n_segments > 0) /* rows for the segments sent */
    for (uint64_t t = 0; t < ns_schedule_n_transfers(s); t++) {
      const NsTransfer *tr = ns_schedule_transfer(s, t);
      const uint32_t *chunks = ns_schedule_chunks(s, tr);
      for (uint32_t k = 0; k < tr->n_chunks; k++)
        st.n_counted = MAX(st.n_counted, MIN(chunks[k], s->n_segments - 1) + 1);
    }
  st.n_count = s->collective == NS_COLL_BCAST ? (uint64_t)st.n_counted * p : (uint64_t)p * p;
  st.scratch = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  st.count = g_new0(uint8_t, st.n_count);
  int n_edges = ns_topology_n_edges(topo);
  st.edge_stamp = g_new0(uint64_t, n_edges);
  st.edge_owner = g_new0(uint64_t, n_edges);
  st.edge_uses = g_new0(uint32_t, n_edges);
  st.edge_rate = g_new0(double, n_edges);
  st.send_stamp = g_new0(uint64_t, p);
  st.recv_stamp = g_new0(uint64_t, p);
  st.send_owner = g_new0(uint64_t, p);
  st.recv_owner = g_new0(uint64_t, p);
  st.send_count = g_new0(uint32_t, p);
  st.recv_count = g_new0(uint32_t, p);
  st.route = g_new(int, ns_topology_max_route_len(topo));
  st.dist_origin = -1;
  st.ports = g_new(int, p);
  for (int m = 0; m < p; m++) {
    int tm = ns_topology_node_machine(topo, st.node[m]);
    st.ports[m] = opt->port == NS_PORT_ONE ? 1
                  : opt->port == NS_PORT_K ? MAX(opt->k, 1)
                  : opt->port == NS_PORT_ALL ? ns_topology_degree(topo, st.node[m])
                                             : ns_topology_machine_ports(topo, tm);
  }

  r->ran[NS_CHECK_DATAFLOW] = r->ran[NS_CHECK_COMPLETE] = r->ran[NS_CHECK_CONTENTION] = TRUE;
  r->ran[NS_CHECK_PORT] = opt->port != NS_PORT_ALL;
  st.shortest = s->collective == NS_COLL_ALLTOALL;
  r->ran[NS_CHECK_SHORTEST] = st.shortest;
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    uint64_t first, n;
    ns_schedule_phase_range(s, ph, &first, &n);
    check_dataflow(&st, ph, first, n);
    check_contention(&st, ph, first, n);
  }
  check_complete(&st);

  /* Optimality: the transmission time against the collective's lower
   * bound, for phased schedules over all the topology's machines. On a
   * tree of one link speed that is phases against the bottleneck load
   * (Faraj & Yuan §4). A posted schedule has no phases to count. */
  if (s->execution == NS_EXEC_PHASED && p == r->topo_machines) {
    int root = s->collective == NS_COLL_BCAST ? ns_topology_node_machine(topo, st.node[s->root]) : -1;
    ns_lower_bound(topo, s->collective, s->msize, root, s->n_segments, &r->bound);
    r->ran[NS_CHECK_OPTIMAL] = TRUE;
    r->lower_bound = r->bound.load;
    r->bound_s = r->bound.seconds;
    r->transmission_s = st.transmission;
    /* One-chunk transfers at one speed: count phases, as the papers do. */
    gboolean counted = r->bound.load > 0 && uniform_one_chunk(topo, s);
    if (counted ? r->n_phases != r->bound.load
                : st.transmission > r->bound.seconds * (1 + 1e-9)) {
      NsFinding f = finding(counted ? NS_FIND_PHASES : NS_FIND_SLOWER, -1, -1);
      f.value = r->n_phases;
      f.bound = r->bound.load;
      add_finding(&st, f);
    }
  }
  /* Synchronisation: no wait cycle, and the stored sync edges must do what
   * their scheme says. */
  if (s->execution == NS_EXEC_PHASED && s->sync != NULL && s->sync->len > 0) {
    r->ran[NS_CHECK_SYNC] = TRUE;
    r->cycle = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    if (ns_sync_find_cycle(s, r->cycle)) {
      NsFinding f = finding(NS_FIND_CYCLE, -1, g_array_index(r->cycle, uint32_t, 0));
      f.value = r->cycle->len;
      f.cycle = r->cycle;
      add_finding(&st, f);
    } else {
      g_clear_pointer(&r->cycle, g_array_unref);
    }
  }
  NsSyncScheme scheme;
  if (opt->sync_order && s->sync_scheme != NULL &&
      ns_sync_scheme_parse(s->sync_scheme, &scheme, NULL) && ns_sync_uses_pairwise(&scheme) &&
      s->execution == NS_EXEC_PHASED) {
    uint64_t unordered = 0;
    uint32_t u = 0, v = 0;
    if (!ns_sync_check(topo, s, &scheme, &unordered, &u, &v, error)) {
      replay_free(&st);
      return FALSE;
    }
    r->ran[NS_CHECK_SYNC] = TRUE;
    if (unordered > 0) {
      NsFinding f = finding(NS_FIND_UNORDERED, -1, v);
      f.t2 = u;
      f.value = unordered;
      add_finding(&st, f);
      r->failures[NS_CHECK_SYNC] += unordered - 1;
    }
  }
  replay_free(&st);
  return TRUE;
}
