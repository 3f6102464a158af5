/* netsched — internal: the per-machine programs the SimGrid actors run.
 *
 * Built in the parent process from a Schedule and a synchronisation
 * scheme (program.c), inherited by the simulation child through fork(),
 * executed there by one actor per machine (replay.c). */
#ifndef NETSCHED_SIM_PROGRAM_H
#define NETSCHED_SIM_PROGRAM_H

#include "sched/lower/program_internal.h"
#include "sim/sim.h"

/* The lowering (sched/lower/program_internal.h) that the generated routines run too. */
typedef NsStep Step;

/* Shared with the parent: written by the child, read after it exits. */
typedef struct {
  int done;                /* set last: the child ran to the end */
  volatile uint64_t transfers_done;  /* progress, read by the parent while it waits */
  volatile double clock;             /* simulated time of the last completion */
  double completion;
  uint64_t n_sync_messages;
  double wall_seconds;
  char error[512];
  uint64_t packets, packet_drops; /* the ns3 model: packets the devices queued (a packet
                                     counts at every hop) and dropped; 0 elsewhere */
} SharedHeader;

typedef struct {
  int p;                   /* machines */
  char **hosts;            /* SimGrid host name of every schedule machine */
  uint64_t n_real;         /* transfers of the schedule */
  uint64_t n_all;          /* plus dummy transfers */
  int32_t *src, *dst;      /* per transfer (real then dummy) */
  double *bytes;           /* per transfer */
  double *compute;         /* per transfer: seconds its receiver combines once the data has
                              arrived (reductions' combining transfers), else 0 */
  double *final_compute;   /* per machine: seconds it combines the raw contributions it
                              received once its program is done (reductions), else 0 */
  /* steps of machine m: steps[step_start[m] .. step_start[m+1]) */
  uint32_t *step_start;
  Step *steps;
  uint32_t *ops;           /* transfer ids referenced by steps */
  /* barriers: before the phases listed, every machine joins them in order */
  uint32_t n_barriers;
  uint32_t *barrier_phase;
  gboolean hardware_barrier;
  /* pair-wise syncs */
  gboolean receiver_based;
  gboolean light;          /* receivers send "ready" before every transfer */
  uint32_t *needed;        /* per transfer: syncs to receive before posting */
  uint32_t *sync_start;    /* per transfer: targets sync_to[sync_start[t] .. sync_start[t+1]) */
  uint32_t *sync_to;
  uint64_t sync_size;
  /* the global window (window:W, posted schedules; Tam & Wang §3.2) */
  uint32_t window;         /* W: a machine posts an item only while η = items sent −
                              items received < W; 0 = no window */
  uint64_t item_bytes;     /* bytes per item (NS_SYNC_WINDOW_ITEM); 0 = whole transfers */
  uint64_t eager_threshold; /* NsSimOptions.eager_threshold: a send of fewer bytes completes
                               when posted; 0 = none (not under the window scheme) */
  /* repetitions (NsSimOptions.iterations; Figure 4.3's timing mechanisms) */
  uint32_t iterations;     /* >= 1 */
  NsIterationGap gap;      /* before each invocation */
  double compute_s;        /* NS_ITERATION_COMPUTE: seconds of computation */
  /* the process arrival pattern (sim/arrival.h): machine m starts its
     program arrival[m] seconds in; all 0 without a pattern */
  double *arrival;
  /* results (shared memory) */
  SharedHeader *header;
  double *finish, *start, *end;
  void *shared;
  gsize shared_size;
  int results_fd;
  /* a program mapped from a blob owns no arrays */
  void *blob;
  gsize blob_size;
} Program;

/* Builds the program from the schedule's lowering (ns_lower_program:
 * steps, dummies, barriers, syncs) and the simulation's sizes. The results
 * live in a memfd (prog->results_fd) mapped shared, so that the replay
 * process — a fresh exec of netsched-replay, because ns-3 reads its
 * NS_ATTRIBUTE_DEFAULT settings during static initialisation — can write
 * them back. */
Program *ns_program_build(const NsTopology *topo, const NsSchedule *s, const NsSimOptions *opt,
                          uint64_t msize, GError **error);
void ns_program_free(Program *prog);

/* Serialises the program (not its results) into a new memfd, positioned
 * at 0 and inheritable across exec. Returns the fd or -1. */
int ns_program_to_fd(const Program *prog);
/* Maps a serialised program (from netsched-replay) and attaches the
 * results memfd. NULL with a message in *why on a malformed blob. */
Program *ns_program_from_fds(int program_fd, int results_fd, const char **why);

/* Replay side: runs SimGrid with `argv` (options) on `platform`, fills the
 * shared results. Never returns. */
G_GNUC_NORETURN void ns_replay_run(Program *prog, const char *platform, int argc, char **argv);

#endif
