/* netsched — "what to configure and how": for an algorithm a study or a
 * comparison chose, the lines that make an MPI job run it — the Open MPI
 * MCA parameters and the MPICH CVAR that force a library's own algorithm,
 * or, for netsched's own algorithms, the routine to generate, the
 * libnetsched-mpi configuration line and the mpirun line that preloads it
 * (docs/mpi-rules.md). Read by the design report and by compare. */
#ifndef NETSCHED_CONFIGURE_ADVICE_H
#define NETSCHED_CONFIGURE_ADVICE_H

#include "sched/ir/schedule.h"
#include <glib.h>
#include <stdint.h>

typedef struct {
  const char *label;   /* "ALGORITHM[:SYNC]" as compare and design name it, "smpi:..." */
  const char *context; /* what the item is about ("alltoall on single", ...), shown first */
  NsCollective collective;
  int64_t n_machines;
  const char *topology; /* how the topology was given (a path, gen:SPEC) */
  const char *root;     /* bcast: the root machine's name, NULL for the first */
  uint64_t segment;     /* bcast: the segment size, 0 for none */
  const char *prefix;   /* starts the routine file's name (a design's), NULL: none */
  const char *range;    /* the sizes, as libnetsched-mpi's configuration writes them
                              ("*", "8K-16K", "64K-"); NULL: "*" */
  const char *pattern;  /* alltoallv, allgatherv: the size pattern axis
                           (experiment_pattern_internal.h), given whole at msize; NULL: none */
  uint64_t msize;       /* the message size advised, for the collectives netsched
                           plans but does not lower (by_size: the range's largest); 0: none */
} NsAdvice;

/* Appends "\n## What to configure and how\n\n" and an item per entry (a
 * Markdown list that reads as text). Every user string in a command line
 * is a shell word (ns_shell_word). */
void ns_configure_advice_append(GString *out, const NsAdvice *items, guint n);

/* The fastest schedule at one message size (compare's rows). */
typedef struct {
  uint64_t msize;
  char *label;
  double time_s;
} NsSizeWinner;

/* A new array of NsSizeWinner, sorted by size as ns_size_winners_add keeps it. */
GArray *ns_size_winners_new(void);

/* Keeps `label` as the winner at `msize` when no winner is there yet or it
 * is faster (ties: the first added stays). O(sizes). */
void ns_size_winners_add(GArray *winners, uint64_t msize, const char *label, double time_s);

/* The section for `winners`: an item per run of consecutive sizes one
 * label won, with the libnetsched-mpi range of that run ("0-16383",
 * "16384-", "*" for a single run); `base` gives everything else. */
void ns_configure_advice_by_size(GString *out, const NsAdvice *base, const GArray *winners);

#endif
