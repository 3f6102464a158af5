/* Times one MPI_Allreduce of N bytes (MPI_CHAR, MPI_SUM: a built-in
 * commutative operation); every rank prints when it started and finished
 * (simulated time). Compiled with smpicc and run by smpirun in
 * tests/cli_smpi_allreduce.sh to cross-check netsched's replay of its
 * allreduce schedules against SMPI's own implementations
 * (--cfg=smpi/allreduce:NAME). The barrier lines the ranks up, so each
 * rank's time is the collective's alone. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long n = argc > 1 ? atol(argv[1]) : 65536;
  char *in = calloc((size_t)n, 1), *out = calloc((size_t)n, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_Allreduce(in, out, (int)n, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  printf("rank %d start %.9f end %.9f\n", rank, t0, t1);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
