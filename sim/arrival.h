/* netsched — process arrival patterns (Faraj's dissertation §4.2.1).
 *
 * A pattern says when each machine arrives at the collective: arrival
 * offsets a_i in seconds (the earliest is 0). The replay starts machine
 * i's program a_i after the simulation starts (sim/replay.c). Measures of
 * §4.2.1, each imbalance normalised by T, the time of one message of the
 * collective's size:
 *   δ̄ = Σ|a_i − ā|/n   average-case imbalance   (δ̄/T: its factor)
 *   ω = max a_i − min a_i worst-case imbalance   (ω/T: its factor)
 *   ē = Σ(f_i − a_i)/n  average per-node time, f_i machine i's finish:
 *                        the dissertation's measure of an operation
 * T here is 8·msize / B, B the lowest bandwidth of a link attached to a
 * machine of the schedule (its slowest port): the message's serialisation
 * time, latency excluded (docs/arrival.md).
 *
 * Specs (the --arrival option of simulate and compare):
 *   balanced               every machine at 0 (the replay without a pattern)
 *   random:AVG,MAX[,seed=S] δ̄/T = AVG and ω/T = MAX exactly (construction
 *                          in arrival.c), seeded (default seed 1)
 *   file:PATH              one line per machine, "NAME SECONDS" or just
 *                          "SECONDS" in machine order; '#' comments and
 *                          blank lines skipped; times shifted so that the
 *                          earliest is 0 (MPI_Wtime values can be given as
 *                          measured)
 * Library code: errors in a GError (NS_ERROR domain), nothing printed. */
#ifndef NETSCHED_SIM_ARRIVAL_H
#define NETSCHED_SIM_ARRIVAL_H

#include "platforms/model/topology.h"
#include "sched/ir/schedule.h"
#include <glib.h>

typedef enum { NS_ARRIVAL_BALANCED, NS_ARRIVAL_RANDOM, NS_ARRIVAL_FILE } NsArrivalKind;

/* The largest worst-case imbalance factor of a random pattern, and the
 * longest spread of a file's times (seconds): a pattern beyond them is a
 * mistake, not an experiment. */
#define NS_ARRIVAL_MAX_FACTOR 1e6
#define NS_ARRIVAL_MAX_SPREAD_S 1e6
/* The largest arrival file read (bytes). */
#define NS_ARRIVAL_MAX_FILE_BYTES ((gsize)4 * 1024 * 1024)

typedef struct NsArrivalEntry NsArrivalEntry;

typedef struct NsArrival {
  NsArrivalKind kind;
  double avg, max;         /* random: δ̄/T and ω/T */
  guint32 seed;            /* random */
  char *path;              /* file: as given */
  NsArrivalEntry *entries; /* file: its lines of times */
  guint n_entries;
  gboolean named;          /* file: lines name their machine */
  char *canonical;         /* the spec as text, with a file's content digest */
} NsArrival;

/**
 * \function ns_arrival_parse
 * \brief Parses an arrival spec (balanced, random:AVG,MAX[,seed=S], file:PATH).
 *
 * \param spec The spec as the user typed it.
 * \param error NS_ERROR_INPUT naming what is wrong ("random:3,1: ...");
 *        a file's errors as "PATH:LINE: what is wrong"; NS_ERROR_IO when
 *        the file cannot be read.
 * \return A new pattern (ns_arrival_free()), or NULL.
 * \errors AVG or MAX not finite numbers >= 0, MAX above
 *         NS_ARRIVAL_MAX_FACTOR, AVG > MAX/2 (no pattern has it), AVG = 0
 *         with MAX > 0 or the reverse, a bad seed; a file larger than
 *         NS_ARRIVAL_MAX_FILE_BYTES, with more lines than
 *         NS_SIM_MAX_MACHINES, a malformed time, named and unnamed lines
 *         mixed, a machine named twice, a spread above
 *         NS_ARRIVAL_MAX_SPREAD_S.
 * \complexity O(length of the file).
 * \source Faraj's dissertation §4.2.1; sim/arrival.h.
 */
NsArrival *ns_arrival_parse(const char *spec, GError **error);

/**
 * \function ns_arrival_free
 * \brief Frees a pattern (NULL is fine).
 *
 * \param a The pattern.
 * \return Nothing.
 * \errors none.
 * \complexity O(entries).
 * \source sim/arrival.h.
 */
void ns_arrival_free(NsArrival *a);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsArrival, ns_arrival_free)

/**
 * \function ns_arrival_check
 * \brief Whether the pattern can be laid on `n` machines.
 *
 * \param a The pattern.
 * \param n Machines of the schedule.
 * \param error NS_ERROR_INPUT: a random pattern whose δ̄/T lies outside
 *        [MAX/n, 2·⌊n/2⌋·⌈n/2⌉·MAX/n²] (the least and the most any pattern
 *        with one machine at 0 and one at MAX·T has), or MAX > 0 on one
 *        machine; an unnamed file with another number of lines than n.
 * \return TRUE when it fits.
 * \errors as above.
 * \complexity O(1).
 * \source Faraj's dissertation §4.2.1; sim/arrival.c.
 */
gboolean ns_arrival_check(const NsArrival *a, int n, GError **error);

/**
 * \function ns_arrival_unit
 * \brief T: the time of one message of `msize` bytes on the slowest port.
 *
 * \param topo The topology.
 * \param s The schedule (its machines are the topology's).
 * \param msize Bytes of one message.
 * \param slowest Receives the schedule machine whose port is slowest (may be NULL).
 * \return 8·msize / B seconds, B the lowest bandwidth of a link attached to
 *         a machine of `s`; 0 when `s` names no machine of `topo`.
 * \errors none.
 * \complexity O(machines · their links).
 * \source Faraj's dissertation §4.2.1 (T, the time to communicate one message).
 */
double ns_arrival_unit(const NsTopology *topo, const NsSchedule *s, uint64_t msize,
                       int *slowest);

/**
 * \function ns_arrival_random_offsets
 * \brief A random pattern on `n` machines with δ̄/T = avg and ω/T = max.
 *
 * \param n Machines.
 * \param avg δ̄/T wanted.
 * \param max ω/T wanted.
 * \param seed The seed (GLib's Mersenne Twister: the same pattern everywhere).
 * \param offsets Receives n offsets in units of T (the earliest 0).
 * \param error NS_ERROR_INPUT as ns_arrival_check().
 * \return TRUE on success.
 * \errors as ns_arrival_check().
 * \complexity O(n · 200) (bisection).
 * \source Faraj's dissertation §4.2.1; the construction in sim/arrival.c.
 */
gboolean ns_arrival_random_offsets(int n, double avg, double max, guint32 seed,
                                   double *offsets, GError **error);

/**
 * \function ns_arrival_offsets
 * \brief The pattern's arrival offsets on the machines of `s`, in seconds.
 *
 * \param a The pattern (NULL: balanced).
 * \param s The schedule: machine i of the result is s->machines[i].
 * \param unit T in seconds (ns_arrival_unit()).
 * \param error NS_ERROR_INPUT as ns_arrival_check(); "PATH:LINE: 'x' is not a
 *        machine of the schedule", "PATH: no time for machine 'x'".
 * \return A new array of s->n_machines offsets (g_free()), the earliest 0; NULL on error.
 * \errors as above.
 * \complexity O(machines + entries).
 * \source Faraj's dissertation §4.2.1.
 */
double *ns_arrival_offsets(const NsArrival *a, const NsSchedule *s, double unit,
                           GError **error);

/* What a run under a pattern measured (§4.2.1). */
typedef struct {
  double unit_s;         /* T */
  double avg_imbalance;  /* δ̄/T */
  double max_imbalance;  /* ω/T */
  double mean_node_s;    /* ē = Σ(f_i − a_i)/n */
  double span_s;         /* max f_i − min a_i: completion from the first arrival */
} NsArrivalStats;

/**
 * \function ns_arrival_stats
 * \brief δ̄/T, ω/T, ē and the span of a run.
 *
 * \param arrival n arrival times (s).
 * \param finish n finish times (s).
 * \param n Machines (>= 1).
 * \param unit T (s); the factors are 0 when it is not positive.
 * \param out Receives the measures.
 * \return Nothing.
 * \errors none.
 * \complexity O(n).
 * \source Faraj's dissertation §4.2.1.
 */
void ns_arrival_stats(const double *arrival, const double *finish, int n, double unit,
                      NsArrivalStats *out);

#endif
