/* Which topology machine this MPI process plays (docs/mpi-library.md,
 * "Rank mapping"): by MPI_COMM_WORLD rank order (world rank w plays the
 * table's machine w), by processor name (MPI_Get_processor_name equals a
 * machine's name) or by a rank-map file (lines "WORLD_RANK MACHINE").
 * The per-communicator check that the ranks of a communicator play each
 * machine of a table exactly once is comm.c's. */
#ifndef NSMPI_RANKMAP_H
#define NSMPI_RANKMAP_H
#include "mpi/lib/config.h"

enum { NSMPI_MAX_RANKMAP_BYTES = 64 << 20 };

/* The machine name this process plays under a name or file mapping, into
 * name (of name_len bytes); 0 with an error recorded in *c (naming
 * FILE:LINE) when the mapping gives none or the file is malformed. */
int nsmpi_rankmap_own_name(NsmpiConfig *c, int world_rank, int world_size, char *name,
                           size_t name_len);

/* This process's machine in routine r: its index, or -1 when it plays
 * none of r's machines. `name` is NULL under the order mapping. */
int nsmpi_rankmap_machine(const NsrRoutine *r, NsmpiMapMode mode, const char *name,
                          int world_rank);
#endif
