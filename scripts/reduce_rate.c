/* netsched — the reduction rate of this machine: MPI_Reduce_local (MPI_SUM
 * over MPI_DOUBLE, what MPI_Reduce and MPI_Allreduce apply to a received
 * buffer) timed in CPU time at sizes from 4 KiB to 4 MiB, printed as
 * "SIZE RATE" lines in bytes per second, then the rate at 1 MiB (beyond
 * the caches, the regime of a collective's large messages) in the unit
 * --reduce-rate takes. scripts/measure-reduce-rate.sh builds and runs it;
 * docs/simulator.md, "Reductions and variable sizes". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  double at_1mib = 0;
  for (long bytes = 4096; bytes <= 4L << 20; bytes *= 4) {
    long count = bytes / (long)sizeof(double);
    double *in = malloc((size_t)bytes), *inout = malloc((size_t)bytes);
    if (in == NULL || inout == NULL)
      return 1;
    for (long i = 0; i < count; i++)
      in[i] = (double)i, inout[i] = 1;
    long reps = (1L << 30) / bytes; /* 1 GiB combined per size */
    MPI_Reduce_local(in, inout, (int)count, MPI_DOUBLE, MPI_SUM); /* warm */
    double t0 = cpu_seconds();
    for (long r = 0; r < reps; r++)
      MPI_Reduce_local(in, inout, (int)count, MPI_DOUBLE, MPI_SUM);
    double rate = (double)bytes * (double)reps / (cpu_seconds() - t0);
    printf("%ld %.4g\n", bytes, rate);
    if (bytes == 1L << 20)
      at_1mib = rate;
    free(in);
    free(inout);
  }
  printf("--reduce-rate %.3gGBps\n", at_1mib / 1e9);
  MPI_Finalize();
  return 0;
}
