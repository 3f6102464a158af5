/* netsched — the network description of the ns3 model and its route
 * check (see ns3_net.h). */
#include "sim/ns3_net.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include "sim/child.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const transport_names[] = { [NS_NS3_TCP_PERSISTENT] = "tcp-persistent",
                                               [NS_NS3_UDP_WINDOW] = "udp-window" };
static const char *const window_count_names[] = {
  [NS_NS3_WINDOW_COUNT_AUTO] = "auto",
  [NS_NS3_WINDOW_COUNT_SENT_RECEIVED] = "sent-received",
  [NS_NS3_WINDOW_COUNT_UNACKED] = "unacked",
};
static const char *const scheduler_names[] = {
  [NS_NS3_SCHED_HEAP] = "heap", [NS_NS3_SCHED_CALENDAR] = "calendar", [NS_NS3_SCHED_MAP] = "map",
};

gboolean ns_ns3_transport_parse(const char *name, NsNs3Transport *t, GError **error)
{
  int i = ns_name_index(transport_names, G_N_ELEMENTS(transport_names), name);
  if (i >= 0) {
    *t = (NsNs3Transport)i;
    return TRUE;
  }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--transport: unknown transport '%s' (%s)",
                  name, "tcp-persistent, udp-window");
  return FALSE;
}

const char *ns_ns3_transport_name(NsNs3Transport t) { return transport_names[t]; }

gboolean ns_ns3_window_count_parse(const char *name, NsNs3WindowCount *c, GError **error)
{
  int i = ns_name_index(window_count_names, G_N_ELEMENTS(window_count_names), name);
  if (i >= 0) {
    *c = (NsNs3WindowCount)i;
    return TRUE;
  }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "--window-count: unknown count '%s' (auto, sent-received, unacked)", name);
  return FALSE;
}

const char *ns_ns3_window_count_name(NsNs3WindowCount c) { return window_count_names[c]; }

gboolean ns_ns3_scheduler_parse(const char *name, NsNs3Scheduler *s, GError **error)
{
  int i = ns_name_index(scheduler_names, G_N_ELEMENTS(scheduler_names), name);
  if (i >= 0) {
    *s = (NsNs3Scheduler)i;
    return TRUE;
  }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "--ns3-scheduler: unknown scheduler '%s' (heap, calendar, map)", name);
  return FALSE;
}

const char *ns_ns3_scheduler_name(NsNs3Scheduler s) { return scheduler_names[s]; }

/* A switch ns-3's point-to-point devices cannot build, or NULL. */
static const char *unbuildable(const NsNode *n)
{
  if (n->kind != NS_NODE_SWITCH)
    return NULL;
  if (n->forwarding == NS_FORWARD_CUT_THROUGH)
    return "cut-through forwarding";
  if (n->buffering != NS_BUFFER_OUTPUT)
    return n->buffering == NS_BUFFER_INPUT ? "input buffering" : "shared buffering";
  return NULL;
}

int ns_ns3_net_fd(const NsTopology *topo, const int *machine_node, int p,
                  const NsSimPairRoutes *pairs, GError **error)
{
  int n_nodes = ns_topology_n_nodes(topo), n_links = ns_topology_n_links(topo);
  for (int v = 0; v < n_nodes; v++) {
    const NsNode *n = ns_topology_node(topo, v);
    const char *why = unbuildable(n);
    if (why != NULL) {
      ns_set_error_at(error, NS_ERROR_UNSUPPORTED, ns_topology_source(topo), n->line,
                      "switch '%s' has %s: the ns3 model builds store-and-forward switches "
                      "with output queues only (ns-3's point-to-point devices; use -M packet "
                      "or a fluid model)", n->name, why);
      return -1;
    }
  }
  int fd = memfd_create("netsched-ns3-net", 0);
  int copy = fd >= 0 ? dup(fd) : -1;
  FILE *f = copy >= 0 ? fdopen(copy, "w") : NULL;
  if (f == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot describe the ns-3 network: %s",
                    g_strerror(errno));
    if (copy >= 0)
      close(copy);
    if (fd >= 0)
      close(fd);
    return -1;
  }
  fprintf(f, "netsched-ns3-net 1\nnodes %d\n", n_nodes);
  for (int v = 0; v < n_nodes; v++) {
    const NsNode *n = ns_topology_node(topo, v);
    fprintf(f, "n %d %c %d %s\n", v, n->kind == NS_NODE_MACHINE ? 'm' : 's',
            n->kind == NS_NODE_SWITCH ? n->buffer_packets : 0, n->name);
  }
  fprintf(f, "links %d\n", n_links);
  for (int l = 0; l < n_links; l++) {
    const NsLink *k = ns_topology_link(topo, l);
    fprintf(f, "l %d %d %d %.17g %.17g\n", l, k->a, k->b, k->bandwidth, k->latency);
  }
  fprintf(f, "machines %d\n", p);
  for (int m = 0; m < p; m++)
    fprintf(f, "m %d %d\n", m, machine_node[m]);
  int *edges = g_new(int, ns_topology_max_route_len(topo) + 1);
  for (int a = 0; a < p; a++)
    for (int b = 0; b < p; b++) {
      if (a == b)
        continue;
      int ta = ns_topology_node_machine(topo, machine_node[a]);
      int tb = ns_topology_node_machine(topo, machine_node[b]);
      int len = pairs != NULL && pairs->table != NULL
                    ? ns_sim_pair_route((void *)pairs, ta, tb, edges)
                    : -1;
      if (len < 0)
        len = ns_topology_route_machines(topo, ta, tb, edges);
      fprintf(f, "r %d %d %d", a, b, len);
      for (int k = 0; k < len; k++)
        fprintf(f, " %d", edges[k]);
      fputc('\n', f);
    }
  g_free(edges);
  fputs("end\n", f);
  if (ferror(f) | (fclose(f) != 0)) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot describe the ns-3 network: %s",
                    g_strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

#ifndef NETSCHED_NS3_RELATIVE
#define NETSCHED_NS3_RELATIVE NULL
#endif
#ifndef NETSCHED_NS3_INSTALLED
#define NETSCHED_NS3_INSTALLED NULL
#endif
char *ns_ns3_child_path(GError **error)
{
#ifndef NETSCHED_NS3_PATH
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "the ns3 model needs ns-3: this netsched was built without it (install "
                  "Debian's libns3-dev, scripts/install-deps.sh does, and build again), or "
                  "use -M packet");
  return NULL;
#else
  (void)error;
  return ns_child_program_path("NETSCHED_NS3", "netsched-ns3", NETSCHED_NS3_RELATIVE,
                               NETSCHED_NS3_INSTALLED, NETSCHED_NS3_PATH);
#endif
}

/* Compares the child's "ROUTE SRC DST LEN E1 .. ELEN" lines with netsched's. */
static gboolean compare_dump(const NsTopology *topo, const char *dump, uint64_t *pairs,
                             uint64_t *mismatches, char **first, GError **error)
{
  int p = ns_topology_n_machines(topo);
  int *mine = g_new(int, ns_topology_max_route_len(topo) + 1);
  g_auto(GStrv) lines = g_strsplit(dump, "\n", -1);
  gboolean ok = TRUE;
  for (int i = 0; ok && lines[i] != NULL; i++) {
    if (lines[i][0] == '\0')
      continue;
    g_auto(GStrv) w = g_strsplit(lines[i], " ", -1);
    guint n = g_strv_length(w);
    int a = n >= 4 ? atoi(w[1]) : -1, b = n >= 4 ? atoi(w[2]) : -1, len = n >= 4 ? atoi(w[3]) : -1;
    if (n < 4 || strcmp(w[0], "ROUTE") != 0 || a < 0 || a >= p || b < 0 || b >= p || len < 0 ||
        (guint)len != n - 4) {
      ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "netsched-ns3 --dump-routes: bad line '%s'",
                      lines[i]);
      ok = FALSE;
      break;
    }
    int want = ns_topology_route_machines(topo, a, b, mine);
    gboolean same = want == len;
    for (int k = 0; same && k < len; k++)
      same = atoi(w[4 + k]) == mine[k];
    ++*pairs;
    if (!same && (*mismatches)++ == 0 && first != NULL)
      *first = g_strdup_printf("%s->%s: ns-3 %d links, netsched %d",
                               ns_topology_machine_name(topo, a),
                               ns_topology_machine_name(topo, b), len, want);
  }
  g_free(mine);
  return ok;
}

gboolean ns_ns3_check_routes(const NsTopology *topo, uint64_t *pairs, uint64_t *mismatches,
                             char **first, GError **error)
{
  *pairs = *mismatches = 0;
  if (first != NULL)
    *first = NULL;
  g_autofree char *exe = ns_ns3_child_path(error);
  if (exe == NULL)
    return FALSE;
  int p = ns_topology_n_machines(topo);
  int *node = g_new(int, p + 1);
  for (int m = 0; m < p; m++)
    node[m] = ns_topology_machine_node(topo, m);
  int fd = ns_ns3_net_fd(topo, node, p, NULL, error);
  g_free(node);
  if (fd < 0)
    return FALSE;
  g_autofree char *fd_text = g_strdup_printf("%d", fd);
  const char *argv[] = { exe, "--dump-routes", fd_text, NULL };
  GString *out = g_string_new(NULL), *err = g_string_new(NULL);
  int status = 0;
  NsSignalGuard guard;
  ns_signals_catch(&guard);
  gboolean ok = ns_child_run(argv, ".", 0, out, err, &status, error);
  close(fd);
  if (ok && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    g_strchomp(err->str);
    ns_set_error_at(error, WIFEXITED(status) && WEXITSTATUS(status) == 2 ? NS_ERROR_UNSUPPORTED
                                                                         : NS_ERROR_IO,
                    NULL, 0, "%s", err->len > 0 ? err->str : "netsched-ns3 --dump-routes failed");
    ok = FALSE;
  }
  ok = ok && compare_dump(topo, out->str, pairs, mismatches, first, error);
  g_string_free(out, TRUE);
  g_string_free(err, TRUE);
  ns_signals_release(&guard);
  return ok;
}
