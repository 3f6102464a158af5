/* netsched — routines: a schedule lowered for MPI (Faraj & Yuan §5, the
 * automatic routine generator; dissertation §3.2.4).
 *
 * ns_routine_build lowers a verified schedule under a synchronisation
 * scheme (sched/lower/program_internal.h) and writes its routine table: per
 * machine, per step, the messages with their peers, the blocks they carry
 * (where each lives: the caller's send or receive buffer, or a scratch
 * slot for relayed blocks of indirect algorithms), the sync messages each
 * awaits and releases, and the barriers. The format is
 * sched/lower/routine_format.h; the runtime that executes it is
 * mpi/runtime/ns_routine.c; ns_routine_c_source wraps table and runtime
 * into one C file that needs only MPI (docs/generate.md).
 */
#ifndef NETSCHED_LOWER_ROUTINE_H
#define NETSCHED_LOWER_ROUTINE_H

#include "sched/lower/program_internal.h"
#include "sched/verify/verify.h"

typedef struct {
  const NsSyncScheme *scheme; /* NULL: the scheme the algorithm recommends */
  uint64_t sync_size;         /* bytes of a sync or barrier message (default 8) */
  gboolean hardware_barrier;  /* barriers as MPI_Barrier */
  gboolean allow_invalid;     /* lower a schedule that does not verify */
  /* A phased routine sends a data message of fewer bytes than this with
   * MPI_Isend (eager), others with MPI_Issend (rendezvous): give the
   * replay's NsSimOptions.eager_threshold, so that the routine does what
   * the prediction assumed (docs/generate.md, "Eager and rendezvous").
   * 0 (ns_routine_options_init): MPI_Issend at every size. */
  uint64_t eager_threshold;
} NsRoutineOptions;

void ns_routine_options_init(NsRoutineOptions *o);

typedef struct {
  NsSchedule *schedule;       /* a copy carrying the scheme's sync edges */
  NsLowered *lowered;
  NsSyncScheme scheme;
  char *scheme_name;          /* "sender-all" */
  char *digest;               /* the schedule's digest (ns_schedule_digest) */
  char *topology;             /* the topology's source name */
  gboolean synchronous;       /* phased: data of eager_threshold bytes or more sent as
                                 MPI_Issend, less as MPI_Isend (posted: MPI_Isend) */
  uint64_t eager_threshold;   /* NsRoutineOptions.eager_threshold */
  GByteArray *table;          /* the routine table */
  /* where parts of the table start, for the C form's comments: the first
   * machine section, each machine's, each step's (indexed as lowered->steps) */
  gsize *machine_at;          /* p + 1 */
  gsize *step_at;             /* steps + 1 */
  gsize scratch_slots;        /* largest scratch of a machine */
} NsRoutine;

/* The checks a replay or a routine needs to mean anything: what is sent
 * is held, what is required arrives, nothing waits in a cycle, and — when
 * it follows the schedule's own sync edges (`stored_sync`) — those edges
 * do what their scheme says (`netsched verify`'s sync check: a pair-wise
 * scheme whose edges leave contending transfers unordered is not that
 * scheme). Contention and the port model are what simulations measure,
 * not preconditions. On the route table `router` (NULL: resolved by the
 * verifier). FALSE with an input error when s cannot be checked; *ok FALSE
 * with the first failing finding in `why`. */
gboolean ns_lower_check(const NsTopology *topo, const NsSchedule *s, const NsRouter *router,
                        gboolean stored_sync, gboolean *ok, char *why, gsize why_size,
                        GError **error);

/* The same verdict read from report `r` of ns_verify, made with sync_order
 * = stored_sync, or with the default options (sync order checked: its
 * unordered pairs are then left out when the replay does not follow the
 * stored edges — a wait cycle is the one sync finding left). */
void ns_lower_verdict(const NsVerifyReport *r, const NsTopology *topo, const NsSchedule *s,
                      gboolean stored_sync, gboolean *ok, char *why, gsize why_size);

/* Builds the routine of s on topo. NS_ERROR_CHECK when s does not verify
 * (unless allow_invalid), NS_ERROR_UNSUPPORTED for more machines than a
 * table holds, NS_ERROR_INPUT for a scheme that does not apply (the window
 * on a phased schedule).
 * O(transfers + chunks + sync edges). */
NsRoutine *ns_routine_build(const NsTopology *topo, const NsSchedule *s,
                            const NsRoutineOptions *opt, GError **error);
void ns_routine_free(NsRoutine *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsRoutine, ns_routine_free)

/* The routine as one C file over MPI point-to-point: the runtime, the
 * table (commented by machine and phase while it has at most
 * NS_ROUTINE_C_COMMENTED_OPS operations) and the entry points
 *   int netsched_<name>_<collective>(sendbuf, recvbuf, block_bytes, MPI_Comm)
 *   int netsched_<name>_<collective>_mapped(..., const int *machine_of_rank, MPI_Comm)
 * `name` must be a C identifier (ns_routine_name_ok); `command` is the
 * command line that made it, for the header comment. Newly allocated. */
#define NS_ROUTINE_C_COMMENTED_OPS 20000
char *ns_routine_c_source(const NsRoutine *r, const char *name, const char *command);
/* The tuned routine of a decision table as one C file (Faraj's dissertation
 * §4.1.1.4, Figure 4.5(a)): the runtime once, every routine's table, and
 *   int netsched_tuned_<collective>(same arguments as one routine's)
 *   int netsched_tuned_<collective>_mapped(..., machine_of_rank, comm)
 * which run routine row_routine[i] for sizes in [from_bytes[i],
 * from_bytes[i+1]) (block bytes; a broadcast's whole message). `names[k]`
 * names routine k (a C identifier part, ns_routine_name_ok); routines are
 * of one collective and machine count; from_bytes[0] is 0 and increasing.
 * Newly allocated. O(the routines' tables). */
char *ns_routine_c_tuned_source(const NsRoutine *const *routines, const char *const *names,
                                const guint *row_routine, const uint64_t *from_bytes,
                                guint n_rows, const char *command);
/* Appends the netsched routine runtime as C over MPI (mpi/runtime/, every
 * function static: NSR_EMBEDDED) with its includes: what every generated
 * C file starts with, and the base of a program that loads tables
 * (nsr_routine_load) — the smpirun driver of sim/smpi_routine.h. */
void ns_routine_c_append_runtime(GString *out);
/* Is `name` usable in the entry points' names ([A-Za-z0-9_], not starting with
 * a digit, 1..64 characters)? */
gboolean ns_routine_name_ok(const char *name);

#endif
