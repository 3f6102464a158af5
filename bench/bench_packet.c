/* netsched benchmark: the packet model (ns-3 through SimGrid).
 *
 * Prints (never asserts) the wall time, CPU time of the replay process and
 * simulated time of all-to-all exchanges under the packet model:
 *  - 32 machines (faraj-c: 4 switches in a chain, 100 Mbit/s) x 256 KiB,
 *    with faraj:sender-all (contention-free) and simple (all posted: heavy
 *    loss, the case that crashed ns-3 before its receive window was sized);
 *  - 64 machines on one switch (1 Gbit/s) x 1 MiB, faraj:sender-all
 *    (issue target: under 2 minutes of wall time);
 * each also with --segment-size 1460 (Ethernet's MSS; fewer, larger packets;
 * results move by about a percent, so it is an option, not the default).
 * Almost all the time is ns-3's per-packet work (docs/simulator.md,
 * "Packet-model speed"). Usage: bench_packet [quick|ns3] — `quick` runs the
 * 32-machine cases only; `ns3` the same exchanges under the ns3 model
 * (netsched-ns3: heap and calendar schedulers, MTU 1500 and 9000), with
 * packets per wall and per CPU second ("The ns3 model"). Release build.
 * Issue #23's goals for the ns3 model (64 x 1 MiB under 60 s, the 64-node
 * design study's packet half under 5 minutes): bench/ns3_goals.sh.
 */
#include "platforms/gen/shapes.h"
#include "platforms/io/topology_io.h"
#include "sim/ns3_net.h"
#include "sched/planners/registry.h"
#include "sim/sim.h"
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

static double children_cpu(void)
{
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
}

/* How a run simulates: SimGrid's binding with a TCP segment size, or the
 * ns3 model (netsched-ns3) with an MTU and an event scheduler. */
typedef struct {
  NsNetModel model;
  int segment;          /* packet: TCP segment bytes */
  int mtu;              /* ns3: IP packet bytes */
  NsNs3Scheduler sched; /* ns3 */
} Engine;

static void run(const char *label, const NsTopology *t, const char *algorithm, const char *sync,
                uint64_t msize, Engine e)
{
  GError *error = NULL;
  NsPlanParams params = { .msize = msize };
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, algorithm, &params, &error);
  if (s == NULL) {
    printf("%-40s plan failed: %s\n", label, error->message);
    g_error_free(error);
    return;
  }
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  opt.model = e.model;
  opt.segment_size = e.segment;
  opt.ns3_mtu = e.mtu;
  opt.ns3_scheduler = e.sched;
  if (sync != NULL) {
    opt.sync_set = TRUE;
    ns_sync_scheme_parse(sync, &opt.sync, NULL);
  }
  NsSimResult r;
  double cpu0 = children_cpu();
  gint64 t0 = g_get_monotonic_time();
  gboolean ok = ns_simulate(t, s, &opt, &r, &error);
  double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
  double cpu = children_cpu() - cpu0;
  if (!ok) {
    printf("%-40s failed after %.1f s: %s\n", label, wall, error->message);
    g_error_free(error);
  } else if (e.model == NS_MODEL_NS3) {
    printf("%-40s mtu %4d %-8s: wall %7.1f s, child CPU %7.1f s, simulated %.4f s "
           "(%.2fx bound), %" G_GUINT64_FORMAT " packets, %.0f packets/wall s, "
           "%.0f packets/CPU s\n",
           label, e.mtu, ns_ns3_scheduler_name(e.sched), wall, cpu, r.completion, r.ratio,
           r.packets, (double)r.packets / wall, cpu > 0 ? (double)r.packets / cpu : 0);
    ns_sim_result_clear(&r);
  } else {
    printf("%-40s segment %4d: wall %7.1f s, replay CPU %7.1f s, simulated %.4f s "
           "(%.2fx bound), %.0f messages/wall s\n",
           label, e.segment, wall, cpu, r.completion, r.ratio, (double)r.n_transfers / wall);
    ns_sim_result_clear(&r);
  }
  ns_sim_options_clear(&opt);
  fflush(stdout);
}

int main(int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp(argv[1], "quick") == 0;
  gboolean ns3 = argc > 1 && strcmp(argv[1], "ns3") == 0;
  GError *error = NULL;
  g_autofree char *c_path = g_build_filename(NETSCHED_SOURCE_DIR, "scenarios", "topologies",
                                             "faraj-c.topo", NULL);
  g_autoptr(NsTopology) c = ns_topology_load(c_path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  if (c == NULL) {
    fprintf(stderr, "bench_packet: %s\n", error->message);
    return 1;
  }
  g_autoptr(NsTopology) star = ns_shape_star(64, 1e9, 1e-6);
  if (ns3) { /* bench_packet ns3: the ns3 model, packets per second */
    printf("ns3 model (netsched-ns3, ns-3 3.37, tcp-persistent), all-to-all\n");
    for (int k = 0; k < 2; k++) {
      Engine e = { NS_MODEL_NS3, 0, 1500, k == 0 ? NS_NS3_SCHED_HEAP : NS_NS3_SCHED_CALENDAR };
      run("32 machines (c) x 256KiB faraj:sender-all", c, "faraj", "sender-all", 256 << 10, e);
    }
    for (int mtu = 1500; mtu <= 9000; mtu += 7500)
      run("64 machines (star) x 1MiB faraj:sender-all", star, "faraj", "sender-all", 1 << 20,
          (Engine){ NS_MODEL_NS3, 0, mtu, NS_NS3_SCHED_HEAP });
    return 0;
  }
  printf("packet model (ns-3 %s), all-to-all\n", "3.37 via SimGrid");
  for (int seg = 0; seg < 2; seg++) {
    Engine e = { NS_MODEL_PACKET, seg == 0 ? 1000 : 1460, 0, 0 };
    run("32 machines (c) x 256KiB faraj:sender-all", c, "faraj", "sender-all", 256 << 10, e);
    run("32 machines (c) x 256KiB simple (LAM)", c, "simple", NULL, 256 << 10, e);
    if (quick)
      continue;
    run("64 machines (star) x 1MiB faraj:sender-all", star, "faraj", "sender-all", 1 << 20, e);
  }
  return 0;
}
