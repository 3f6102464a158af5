/* Times one call of a routine table (netsched generate -o X.nsr) of
 * BLOCK bytes per block; every rank prints when it started and finished.
 * One call first, untimed (it duplicates the communicator the runtime
 * keeps); then every rank sleeps until one common simulated instant, so
 * that all start the timed call together, as the replay's machines do
 * (a barrier lets ranks go at different times). SMPI only: it relies on
 * one simulated clock and on SMPI's simulated nanosleep. Compiled with smpicc and
 * run by smpirun in tests/cli_generate_smpi.sh and scripts/main.sh to set
 * the routine beside `netsched simulate -M smpi` of the same schedule.
 *
 *   smpirun -np P ... routine_time TABLE.nsr BLOCK
 */
#include "mpi/runtime/ns_routine.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3) {
    if (rank == 0)
      fprintf(stderr, "usage: routine_time TABLE BLOCK\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char why[512];
  NsrRoutine *r = nsr_routine_load(argv[1], why, sizeof why);
  if (r == NULL || nsr_routine_size(r) != size) {
    fprintf(stderr, "rank %d: %s\n", rank, r == NULL ? why : "table for another size");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  size_t block = (size_t)atol(argv[2]);
  size_t n = nsr_routine_collective(r) == NSR_BCAST ? block : (size_t)size * block;
  char *out = calloc(n + 1, 1), *in = calloc(n + 1, 1);
  int rc = nsr_routine_run(r, out, in, block, NULL, MPI_COMM_WORLD);
  double now = MPI_Wtime(), latest;
  MPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double wait = latest + 0.01 - MPI_Wtime(); /* the allreduce takes far less */
  struct timespec ts = { (time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9) };
  nanosleep(&ts, NULL);
  double t0 = MPI_Wtime();
  rc |= nsr_routine_run(r, out, in, block, NULL, MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  if (rc != MPI_SUCCESS)
    fprintf(stderr, "rank %d: nsr_routine_run failed (%d)\n", rank, rc);
  printf("rank %d start %.9f end %.9f\n", rank, t0, t1);
  free(out);
  free(in);
  nsr_routine_free(r);
  MPI_Finalize();
  return rc != MPI_SUCCESS;
}
