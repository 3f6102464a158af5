/* Times one MPI_Alltoall of MSIZE bytes per pair; every rank prints the
 * simulated time at which it finished. Compiled with smpicc and run by
 * smpirun in tests/cli_smpi.sh to cross-check netsched's replay against
 * SMPI's own collective implementations (--cfg=smpi/alltoall:NAME). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long msize = argc > 1 ? atol(argv[1]) : 65536;
  char *out = calloc((size_t)size, (size_t)msize), *in = calloc((size_t)size, (size_t)msize);
  double t0 = MPI_Wtime();
  MPI_Alltoall(out, (int)msize, MPI_CHAR, in, (int)msize, MPI_CHAR, MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  printf("rank %d start %.9f end %.9f\n", rank, t0, t1);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
