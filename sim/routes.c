/* netsched — does SimGrid route like netsched? (platform export check)
 *
 * Exports the topology, starts SimGrid in a child process and, from an
 * actor (routes exist only once the platform is sealed at simgrid_run),
 * asks sg_host_get_route() for every ordered machine pair; each SimGrid
 * link direction is mapped back to a netsched directed edge and compared
 * with ns_topology_route(). */
#include "platforms/model/error.h"
#include "platforms/io/topology_simgrid.h"
#include "sim/sim.h"
#include <errno.h>
#include <signal.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/dynar.h>

typedef struct {
  int done;
  uint64_t pairs, mismatches;
  char first[256];
} RouteShared;

static const NsTopology *route_topo;
static RouteShared *route_out;

static void route_actor(int argc, char **argv)
{
  const NsTopology *t = route_topo;
  GHashTable *edge_of = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int e = 0; e < ns_topology_n_edges(t); e++)
    g_hash_table_insert(edge_of, ns_simgrid_link_name(t, e), GINT_TO_POINTER(e + 1));
  int *mine = g_new(int, ns_topology_max_route_len(t));
  int p = ns_topology_n_machines(t);
  for (int a = 0; a < p; a++)
    for (int b = 0; b < p; b++) {
      if (a == b)
        continue;
      xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
      sg_host_get_route(sg_host_by_name(ns_topology_machine_name(t, a)),
                        sg_host_by_name(ns_topology_machine_name(t, b)), links);
      int len = ns_topology_route_machines(t, a, b, mine);
      gboolean same = (int)xbt_dynar_length(links) == len;
      for (int k = 0; same && k < len; k++) {
        sg_link_t l = xbt_dynar_get_as(links, k, sg_link_t);
        same = GPOINTER_TO_INT(g_hash_table_lookup(edge_of, sg_link_get_name(l))) - 1 == mine[k];
      }
      route_out->pairs++;
      if (!same && route_out->mismatches++ == 0)
        g_snprintf(route_out->first, sizeof route_out->first, "%s->%s: SimGrid %lu links, netsched %d",
                   ns_topology_machine_name(t, a), ns_topology_machine_name(t, b),
                   xbt_dynar_length(links), len);
      xbt_dynar_free(&links);
    }
  g_free(mine);
  g_hash_table_unref(edge_of);
  route_out->done = 1;
}

gboolean ns_sim_check_routes(const NsTopology *topo, uint64_t *pairs, uint64_t *mismatches,
                             char **first, GError **error)
{
  RouteShared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                         -1, 0);
  if (sh == MAP_FAILED) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot map shared memory");
    return FALSE;
  }
  memset(sh, 0, sizeof *sh);
  NsSimGridExport exp = { 0 };
  int fd = ns_sim_platform_fd(topo, &exp, error);
  gboolean ok = fd >= 0;
  if (ok) {
    char path[64];
    g_snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
      if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(127);
      char *argv[] = { (char *)"netsched-routes", (char *)"--log=root.thres:warning",
#if defined(__SANITIZE_ADDRESS__)
                       (char *)"--cfg=contexts/factory:thread",
#endif
                       NULL };
      int argc = (int)G_N_ELEMENTS(argv) - 1;
      route_topo = topo;
      route_out = sh;
      simgrid_init(&argc, argv);
      simgrid_load_platform(path);
      sg_actor_create("routes", sg_host_by_name(ns_topology_machine_name(topo, 0)), route_actor, 0,
                      NULL);
      simgrid_run();
      fflush(NULL);
      _exit(0);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
    ok = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && sh->done;
    if (!ok)
      ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "the SimGrid route check did not complete");
    close(fd);
  }
  if (ok) {
    *pairs = sh->pairs;
    *mismatches = sh->mismatches;
    if (first != NULL)
      *first = sh->mismatches > 0 ? g_strdup(sh->first) : NULL;
  }
  munmap(sh, sizeof *sh);
  return ok;
}
