/* netsched — the maps of mpi_library.h, one file per library. */
#ifndef NETSCHED_MPI_LIBRARY_INTERNAL_H
#define NETSCHED_MPI_LIBRARY_INTERNAL_H

#include "sched/planners/select/mpi_library.h"

extern const NsMpiAlgorithm ns_ompi_algorithms[]; /* ompi_algorithms.c */
extern const int ns_ompi_n_algorithms;
extern const NsMpiAlgorithm ns_mpich_algorithms[]; /* mpich_algorithms.c */
extern const int ns_mpich_n_algorithms;

#endif
