/* libnetsched-mpi's per-call cost (bench/mpi_lib_overhead.sh): times
 * MPI_Alltoall — served by the preloaded library, which takes a table or
 * falls through — against PMPI_Alltoall, the MPI library's own, called
 * directly in the same program, alternating call by call.
 *
 *   mpirun -np 16 lib_overhead BYTES:ITERATIONS ...
 *
 * Each call is timed from a barrier to the slowest rank's return (the
 * time of the collective, not of one rank); rank 0 prints the medians. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One call's time: slowest rank, from a common start. */
static double timed(int lib, const char *send, char *recv, int bytes)
{
  PMPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (lib)
    MPI_Alltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD);
  else
    PMPI_Alltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD);
  double mine = MPI_Wtime() - t0, slowest;
  PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int a = 1; a < argc; a++) {
    int bytes = 0, iterations = 0;
    if (sscanf(argv[a], "%d:%d", &bytes, &iterations) != 2 || bytes <= 0 || iterations <= 0)
      continue;
    char *send = malloc((size_t)bytes * (size_t)p), *recv = malloc((size_t)bytes * (size_t)p);
    memset(send, rank, (size_t)bytes * (size_t)p);
    double *lib = malloc(sizeof(double) * (size_t)iterations);
    double *own = malloc(sizeof(double) * (size_t)iterations);
    for (int w = 0; w < 3; w++) { /* first calls: connections, the library's agreement */
      timed(1, send, recv, bytes);
      timed(0, send, recv, bytes);
    }
    for (int i = 0; i < iterations; i++) {
      lib[i] = timed(1, send, recv, bytes);
      own[i] = timed(0, send, recv, bytes);
    }
    if (rank == 0) {
      double l = median(lib, iterations), o = median(own, iterations);
      printf("%d ranks, %d B per block, %d calls each: MPI_Alltoall median %.1f us, "
             "PMPI_Alltoall median %.1f us, difference %+.1f us (%+.1f %%)\n",
             p, bytes, iterations, l * 1e6, o * 1e6, (l - o) * 1e6, 100 * (l - o) / o);
    }
    free(send);
    free(recv);
    free(lib);
    free(own);
  }
  MPI_Finalize();
  return 0;
}
