/* simgrid_floor — a bare SimGrid program doing the communications of a
 * phased schedule, the floor netsched's replay is measured against
 * (bench_sim prints the ratio; issue #24).
 *
 *   simgrid_floor PLATFORM.xml TRANSFERS [--cfg=...]
 *
 * TRANSFERS: one line "PHASE SRC DST BYTES" per transfer (host names of the
 * platform), phases in order. One actor per host; for each phase it takes
 * part in, it posts its receives, then its sends, and waits for all of them
 * — program order, what sim/replay.c does under --sync none — with one
 * mailbox per (source, destination) pair, as the replay names them.
 * Prints the simulated completion time, the mailboxes and actors created,
 * and the resident memory they added (kB, from /proc/self/statm): after
 * the platform, after the mailboxes, after the actors, and the peak. */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

typedef struct {
  int phase, peer;
  long bytes;
  gboolean send;
} Op;

static int n_hosts;
static GArray **ops;          /* per host: Op, by phase */
static sg_mailbox_t *boxes;   /* boxes[src * n_hosts + dst] */
static char payload;
static void *received;  /* where a get_async puts the payload pointer */

static long resident_kb(void)
{
  long pages = 0, resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f != NULL) {
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
      resident = 0;
    fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void actor(int argc, char **argv)
{
  (void)argc;
  int x = atoi(argv[1]);
  GArray *mine = ops[x];
  sg_comm_t *comms = g_new(sg_comm_t, mine->len + 1);
  for (guint i = 0; i < mine->len;) {
    int phase = g_array_index(mine, Op, i).phase;
    guint k = 0;
    for (guint j = i; j < mine->len && g_array_index(mine, Op, j).phase == phase; j++) {
      const Op *o = &g_array_index(mine, Op, j);
      if (!o->send)
        comms[k++] = sg_mailbox_get_async(boxes[o->peer * n_hosts + x], &received);
    }
    for (; i < mine->len && g_array_index(mine, Op, i).phase == phase; i++) {
      const Op *o = &g_array_index(mine, Op, i);
      if (o->send)
        comms[k++] = sg_mailbox_put_async(boxes[x * n_hosts + o->peer], &payload, o->bytes);
    }
    sg_comm_wait_all(comms, k);
  }
  g_free(comms);
}

int main(int argc, char **argv)
{
  simgrid_init(&argc, argv);
  if (argc != 3) {
    fprintf(stderr, "usage: simgrid_floor PLATFORM.xml TRANSFERS [--cfg=...]\n");
    return 2;
  }
  long rss0 = resident_kb();
  simgrid_load_platform(argv[1]);
  n_hosts = (int)sg_host_count();
  sg_host_t *hosts = sg_host_list();
  GHashTable *index = g_hash_table_new(g_str_hash, g_str_equal);
  for (int h = 0; h < n_hosts; h++)
    g_hash_table_insert(index, (gpointer)sg_host_get_name(hosts[h]), GINT_TO_POINTER(h + 1));
  ops = g_new(GArray *, n_hosts);
  for (int h = 0; h < n_hosts; h++)
    ops[h] = g_array_new(FALSE, FALSE, sizeof(Op));
  FILE *f = fopen(argv[2], "r");
  if (f == NULL) {
    fprintf(stderr, "simgrid_floor: %s: cannot open\n", argv[2]);
    return 2;
  }
  char src[256], dst[256];
  int phase, line = 0;
  long bytes, n_transfers = 0;
  while (fscanf(f, "%d %255s %255s %ld", &phase, src, dst, &bytes) == 4) {
    line++;
    int s = GPOINTER_TO_INT(g_hash_table_lookup(index, src)) - 1;
    int d = GPOINTER_TO_INT(g_hash_table_lookup(index, dst)) - 1;
    if (s < 0 || d < 0) {
      fprintf(stderr, "%s:%d: unknown host\n", argv[2], line);
      return 2;
    }
    Op out = { phase, d, bytes, TRUE }, in = { phase, s, bytes, FALSE };
    g_array_append_val(ops[s], out);
    g_array_append_val(ops[d], in);
    n_transfers++;
  }
  fclose(f);
  long rss_platform = resident_kb();
  boxes = g_new(sg_mailbox_t, (gsize)n_hosts * n_hosts);
  long n_boxes = 0;
  for (int s = 0; s < n_hosts; s++)
    for (int d = 0; d < n_hosts; d++) {
      char name[64];
      g_snprintf(name, sizeof name, "d%d_%d", s, d);
      boxes[(gsize)s * n_hosts + d] = s == d ? NULL : sg_mailbox_by_name(name);
      n_boxes += s != d;
    }
  long rss_boxes = resident_kb();
  for (int h = 0; h < n_hosts; h++) {
    char arg[16];
    g_snprintf(arg, sizeof arg, "%d", h);
    char *args[] = { (char *)"actor", arg, NULL };
    sg_actor_create("actor", hosts[h], actor, 2, args);
  }
  long rss_actors = resident_kb();
  simgrid_run();
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("completion %.9f s; %ld transfers; %d actors, %ld mailboxes; resident kB: platform "
         "and transfers %ld, mailboxes +%ld, actors +%ld, peak %ld\n",
         simgrid_get_clock(), n_transfers, n_hosts, n_boxes, rss_platform - rss0,
         rss_boxes - rss_platform, rss_actors - rss_boxes, ru.ru_maxrss);
  return 0;
}
