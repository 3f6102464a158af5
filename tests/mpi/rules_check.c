/* rules_check COLLECTIVE BYTES: one MPI_Alltoall (BYTES per destination),
 * MPI_Allgather (BYTES per rank) or MPI_Bcast (BYTES from rank 0) on
 * MPI_COMM_WORLD, whatever algorithm the MPI library selects; every rank
 * checks what it received and prints "rank R: COLLECTIVE BYTES correct" or
 * "... WRONG". No other collective is called, so that message counts
 * (Open MPI's pml monitoring) are this call's alone. tests/cli_mpi_rules.sh. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char byte_of(int from, int to, long i)
{
  return (unsigned char)(from * 31 + to * 7 + i);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int p = 0, r = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (argc != 3) {
    fprintf(stderr, "usage: rules_check alltoall|allgather|bcast BYTES\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long b = atol(argv[2]);
  unsigned char *s = malloc((size_t)(b * p + 1)), *q = malloc((size_t)(b * p + 1));
  memset(q, 0xee, (size_t)(b * p + 1)); /* what a receive that did not happen leaves */
  int ok = 1;
  if (strcmp(argv[1], "alltoall") == 0) {
    for (int d = 0; d < p; d++)
      for (long i = 0; i < b; i++)
        s[d * b + i] = byte_of(r, d, i);
    MPI_Alltoall(s, (int)b, MPI_BYTE, q, (int)b, MPI_BYTE, MPI_COMM_WORLD);
    for (int f = 0; f < p; f++)
      for (long i = 0; i < b; i++)
        ok = ok && q[f * b + i] == byte_of(f, r, i);
  } else if (strcmp(argv[1], "allgather") == 0) {
    for (long i = 0; i < b; i++)
      s[i] = byte_of(r, 0, i);
    MPI_Allgather(s, (int)b, MPI_BYTE, q, (int)b, MPI_BYTE, MPI_COMM_WORLD);
    for (int f = 0; f < p; f++)
      for (long i = 0; i < b; i++)
        ok = ok && q[f * b + i] == byte_of(f, 0, i);
  } else {
    for (long i = 0; i < b; i++)
      q[i] = r == 0 ? byte_of(0, 0, i) : 0xee;
    MPI_Bcast(q, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (long i = 0; i < b; i++)
      ok = ok && q[i] == byte_of(0, 0, i);
  }
  printf("rank %d: %s %ld %s\n", r, argv[1], b, ok ? "correct" : "WRONG");
  free(s);
  free(q);
  MPI_Finalize();
  return 0;
}
