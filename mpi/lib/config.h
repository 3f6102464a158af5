/* libnetsched-mpi's configuration (docs/mpi-library.md, "Configuration"):
 * which routine table serves which collective at which message sizes, how
 * MPI ranks map to the tables' machines, and what a configuration error
 * does. Read once per process from
 *   NETSCHED_MPI_CONFIG=FILE       lines "schedule COLL RANGE PATH",
 *                                  "rankmap order|name|file PATH",
 *                                  "verbose 0|1", "on-error fallthrough|abort"
 *   NETSCHED_MPI_SCHEDULES=COLL:RANGE:PATH,...   more tables, after the file's
 *   NETSCHED_MPI_RANKMAP=order|name|file:PATH    overrides the file's rankmap
 *   NETSCHED_MPI_VERBOSE=0|1, NETSCHED_MPI_ON_ERROR=fallthrough|abort
 * and the adaptive mode's candidates (docs/adaptive.md, adaptive.h):
 *   file lines "candidate COLL GROUP native|PATH", "measure COLL N"
 *   NETSCHED_MPI_CANDIDATES=COLL:GROUP:native|PATH,...  more, after the file's
 *   NETSCHED_MPI_MEASURE=N                              overrides every "measure"
 * Every input is bounded (sizes below); every error is one message naming
 * FILE:LINE or the variable, and marks the collectives it concerns broken:
 * their calls fall through to the MPI library (or, with on-error abort,
 * the job stops). Plain libc, no MPI: the parser is the same everywhere. */
#ifndef NSMPI_CONFIG_H
#define NSMPI_CONFIG_H
#include "mpi/runtime/ns_routine.h"
#include <stdint.h>

enum {
  NSMPI_MAX_TABLES = 32,           /* tables in one configuration */
  NSMPI_MAX_PATH = 4096,           /* a file name */
  NSMPI_MAX_ENV = 65536,           /* NETSCHED_MPI_SCHEDULES */
  NSMPI_MAX_CONFIG_BYTES = 1 << 20 /* the configuration file */
};
enum {
  NSMPI_MAX_CANDIDATES = 16,  /* adaptive candidates of one collective */
  NSMPI_MAX_GROUP_NAME = 32,  /* bytes of a group name, NUL included */
  NSMPI_MAX_MEASURE = 100,    /* measured invocations per candidate */
  NSMPI_DEFAULT_MEASURE = 10  /* STAR-MPI's ITER (Faraj's dissertation §4.3.1.2) */
};
#define NSMPI_MAX_BYTES (1ULL << 40) /* a size in a range: 1 TiB, as NS_MAX_MSIZE */
#define NSMPI_ALL_COLLECTIVES 7u     /* bits 1 << NSR_ALLTOALL | ... */

typedef enum { NSMPI_MAP_ORDER, NSMPI_MAP_NAME, NSMPI_MAP_FILE } NsmpiMapMode;

typedef struct {
  NsrCollective collective;
  unsigned long long min_bytes, max_bytes; /* bytes per block, inclusive */
  char path[NSMPI_MAX_PATH];
  char where[NSMPI_MAX_PATH + 64];         /* "FILE:LINE" or "NETSCHED_MPI_SCHEDULES item N" */
  int candidate;                           /* an adaptive candidate, not a scheduled table */
} NsmpiTableSpec;

/* One adaptive candidate: a routine table (its index in tables[]) or the
 * MPI library's own PMPI_ function (table -1). */
typedef struct {
  int table;
  int group;                               /* index in NsmpiAdaptiveSpec.group */
} NsmpiCandidate;

/* A collective's adaptive mode: candidates in configuration order, their
 * groups (a group's first candidate is its representative), and how many
 * invocations measure each candidate. n == 0: not adaptive. */
typedef struct {
  int n;
  NsmpiCandidate cand[NSMPI_MAX_CANDIDATES];
  int n_groups;
  char group[NSMPI_MAX_CANDIDATES][NSMPI_MAX_GROUP_NAME];
  int measure;
  char where[NSMPI_MAX_PATH + 64];         /* the first candidate's statement */
} NsmpiAdaptiveSpec;

typedef struct {
  int present;                  /* NETSCHED_MPI_CONFIG or NETSCHED_MPI_SCHEDULES set */
  NsmpiTableSpec tables[NSMPI_MAX_TABLES];
  int n_tables;
  NsmpiMapMode map_mode;
  char map_file[NSMPI_MAX_PATH];
  char map_where[NSMPI_MAX_PATH + 64];
  int verbose;
  int abort_on_error;
  unsigned broken;              /* bit 1 << collective: a configuration error concerns it */
  int errors;                   /* messages written to `errors_text` */
  char errors_text[4096];       /* the first errors, one per line */
  NsmpiAdaptiveSpec adaptive[3];  /* per collective (NsrCollective) */
  uint32_t hash;                /* of everything that decides a call (ranks compare it) */
} NsmpiConfig;

/* Reads the environment and the file it names into *c (zeroed first). */
void nsmpi_config_read(NsmpiConfig *c);

/* The parts, for the tests' sake. `where` names the source in messages. */
void nsmpi_config_parse_file(NsmpiConfig *c, const char *path);
void nsmpi_config_parse_schedules(NsmpiConfig *c, const char *text);
void nsmpi_config_parse_candidates(NsmpiConfig *c, const char *text);

/* "alltoall" -> NSR_ALLTOALL; -1 when unknown. */
int nsmpi_collective_parse(const char *name);
const char *nsmpi_collective_name(NsrCollective c);   /* "alltoall" */
const char *nsmpi_collective_function(NsrCollective c); /* "MPI_Alltoall" */

/* Records an error (also used by the table loader and the rank map). */
void nsmpi_config_error(NsmpiConfig *c, unsigned collectives, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A size "4096", "64K", "64KiB", "1M", "1MiB", "1G", "8B" (binary
 * prefixes) into *out, at most NSMPI_MAX_BYTES; 0 when malformed. */
int nsmpi_size_parse(const char *text, unsigned long long *out);
#endif
