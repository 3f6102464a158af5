/* Runs routine tables (netsched generate -o X.nsr) under MPI and checks
 * every receive buffer is byte-identical to MPI_Alltoall / MPI_Allgather /
 * MPI_Bcast's on patterned data: several block sizes, repeated calls, rank
 * order and a reversed machine mapping. Tables for another communicator
 * size are skipped. Rank 0 prints one TAP-like line per table and size;
 * the exit status is 1 when any differed or failed. Compiled with the
 * runtime (mpi/runtime/ns_routine.c) by tests/cli_generate_mpi.sh.
 *
 *   mpirun -np N routine_check TABLE.nsr...
 */
#include "mpi/runtime/ns_routine.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char pattern(int a, int b, size_t i, int call)
{
  return (unsigned char)(a * 131 + b * 31 + (int)(i % 251) * 7 + call * 17 + 1);
}

/* One call of the routine against MPI's own; 1 when they agree. */
static int check_once(const NsrRoutine *r, size_t bb, const int *map, int call, int rank,
                      int size, char *why, size_t why_len)
{
  NsrCollective c = nsr_routine_collective(r);
  size_t n_send = c == NSR_ALLTOALL ? (size_t)size * bb : c == NSR_ALLGATHER ? bb : bb;
  size_t n_recv = c == NSR_BCAST ? bb : (size_t)size * bb;
  unsigned char *send = malloc(n_send + 1), *mine = malloc(n_recv + 1),
                *ref = malloc(n_recv + 1);
  int root_rank = 0;
  if (c == NSR_BCAST)
    for (int k = 0; k < size; k++)
      if ((map ? map[k] : k) == nsr_routine_root(r))
        root_rank = k;
  for (size_t i = 0; i < n_send; i++)
    send[i] = c == NSR_ALLTOALL ? pattern(rank, (int)(i / bb), i, call) : pattern(rank, 0, i, call);
  memset(mine, 0xee, n_recv);
  memset(ref, 0xdd, n_recv);
  int rc, ok = 1;
  switch (c) {
  case NSR_ALLTOALL:
    MPI_Alltoall(send, (int)bb, MPI_BYTE, ref, (int)bb, MPI_BYTE, MPI_COMM_WORLD);
    rc = nsr_routine_run(r, send, mine, bb, map, MPI_COMM_WORLD);
    break;
  case NSR_ALLGATHER:
    MPI_Allgather(send, (int)bb, MPI_BYTE, ref, (int)bb, MPI_BYTE, MPI_COMM_WORLD);
    rc = nsr_routine_run(r, send, mine, bb, map, MPI_COMM_WORLD);
    break;
  default:
    if (rank == root_rank) {
      memcpy(ref, send, bb);
      memcpy(mine, send, bb);
    }
    MPI_Bcast(ref, (int)bb, MPI_BYTE, root_rank, MPI_COMM_WORLD);
    rc = nsr_routine_run(r, mine, mine, bb, map, MPI_COMM_WORLD);
    break;
  }
  if (rc != MPI_SUCCESS) {
    snprintf(why, why_len, "rank %d: nsr_routine_run returned %d", rank, rc);
    ok = 0;
  }
  for (size_t i = 0; ok && i < n_recv; i++)
    if (mine[i] != ref[i]) {
      snprintf(why, why_len, "rank %d: byte %zu (block %zu) is %u, MPI's %u", rank, i, i / bb,
               mine[i], ref[i]);
      ok = 0;
    }
  free(send);
  free(mine);
  free(ref);
  return ok;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failures = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *reversed = malloc(sizeof(int) * (size_t)size);
  for (int k = 0; k < size; k++)
    reversed[k] = size - 1 - k;
  for (int a = 1; a < argc; a++) {
    char why[512] = "";
    NsrRoutine *r = nsr_routine_load(argv[a], why, sizeof why);
    int loaded = r != NULL, all_loaded;
    MPI_Allreduce(&loaded, &all_loaded, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_loaded) {
      if (rank == 0)
        printf("not ok - %s: %s\n", argv[a], why);
      failures++;
      nsr_routine_free(r);
      continue;
    }
    if (nsr_routine_size(r) != size) {
      nsr_routine_free(r);
      continue;
    }
    const size_t sizes[] = { 1, 7, 1000, 4099 };
    int ok = 1;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes && ok; k++)
      for (int call = 0; call < 3 && ok; call++) {
        const int *map = call == 2 ? reversed : NULL;
        int mine = check_once(r, sizes[k], map, call, rank, size, why, sizeof why), all;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!all) {
          /* the lowest failing rank says why */
          int who = mine ? size : rank, first;
          MPI_Allreduce(&who, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
          if (rank == first)
            printf("not ok - %s np=%d block %zu call %d: %s\n", argv[a], size, sizes[k], call,
                   why);
          ok = 0;
        }
      }
    if (ok && rank == 0)
      printf("ok - %s np=%d (%s/%s, sync %s)\n", argv[a], size,
             nsr_routine_collective(r) == NSR_ALLTOALL    ? "alltoall"
             : nsr_routine_collective(r) == NSR_ALLGATHER ? "allgather"
                                                          : "bcast",
             nsr_routine_algorithm(r), nsr_routine_sync(r));
    fflush(stdout);
    failures += !ok;
    nsr_routine_free(r);
  }
  free(reversed);
  MPI_Finalize();
  return failures > 0;
}
