/* An application loop for libnetsched-mpi's adaptive mode
 * (tests/cli_mpi_adaptive.sh, docs/adaptive.md): each iteration every
 * rank computes for a rank- and iteration-dependent time, then calls
 * MPI_Alltoall (or MPI_Allgather) — an imbalanced process arrival pattern
 * (Faraj's dissertation §4.2.1) whose worst case ω approaches the given
 * imbalance — and with -b a second call of the same size right after, at
 * another call site, whose arrival is balanced (consecutive collective
 * calls, §4.2: the only balanced arrivals the study saw).
 *
 *   adaptive_loop [-n ITERATIONS] [-s BYTES] [-w SECONDS] [-v] [-k alltoall|allgather] [-b]
 *
 * BYTES per block (default 65536). Rank r computes SECONDS × u(r) before
 * each call, u(r) pseudo-random in [0, 1) and the same every iteration
 * (one arrival pattern, so candidates are compared under it), or drawn
 * anew each iteration with -v; -w 0 (the default) is a balanced loop.
 * Every call's receive buffer is checked against the pattern every sender
 * wrote, so results are checked while the library measures and after it
 * has chosen. Rank 0 prints "adaptive_loop: N calls, M wrong, ..." with
 * the mean per-rank time spent in the collective (ē, §4.2.1); all ranks
 * exit 1 if M > 0. Under SMPI the computation is simulated
 * (smpi_execute_benched); elsewhere a busy wait on MPI_Wtime. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char pattern(int from, int to, int iteration, size_t i)
{
  return (unsigned char)(from * 37 + to * 11 + iteration * 5 + (int)(i * 3) + (int)(i >> 9));
}

/* A deterministic value in [0, 1) per rank and iteration (splitmix64). */
static double unit(int rank, int iteration)
{
  unsigned long long z = (unsigned long long)rank * 0x9e3779b97f4a7c15ull +
                         (unsigned long long)iteration * 0xbf58476d1ce4e5b9ull + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (double)(z >> 11) / 9007199254740992.0;
}

static void compute(double seconds)
{
  if (seconds <= 0)
    return;
#ifdef SMPI_H
  smpi_execute_benched(seconds); /* outside the benchmarked region, or it is lost */
#else
  double end = MPI_Wtime() + seconds;
  while (MPI_Wtime() < end) {
  }
#endif
}

typedef struct {
  int all_to_all, rank, size;
  size_t bytes;
  unsigned char *send, *recv;
  long calls, wrong, second_calls;
  double in_collective;
} Loop;

/* The two call sites: functions of their own (never inlined, and with
 * different bodies so that no compiler merges them), so the library sees
 * two return addresses. */
__attribute__((noinline)) static void site_one(Loop *l)
{
  int b = (int)l->bytes;
  if (l->all_to_all)
    MPI_Alltoall(l->send, b, MPI_BYTE, l->recv, b, MPI_BYTE, MPI_COMM_WORLD);
  else
    MPI_Allgather(l->send, b, MPI_BYTE, l->recv, b, MPI_BYTE, MPI_COMM_WORLD);
}

__attribute__((noinline)) static void site_two(Loop *l)
{
  int b = (int)l->bytes;
  if (l->all_to_all)
    MPI_Alltoall(l->send, b, MPI_BYTE, l->recv, b, MPI_BYTE, MPI_COMM_WORLD);
  else
    MPI_Allgather(l->send, b, MPI_BYTE, l->recv, b, MPI_BYTE, MPI_COMM_WORLD);
  l->second_calls++;
}

/* One call at the first or second site, its result checked. */
static void exchange(Loop *l, int iteration, int second_site)
{
  size_t b = l->bytes;
  int p = l->size, blocks = l->all_to_all ? p : 1;
  for (int d = 0; d < blocks; d++)
    for (size_t i = 0; i < b; i++)
      l->send[(size_t)d * b + i] = pattern(l->rank, l->all_to_all ? d : -1, iteration, i);
  memset(l->recv, 0, b * (size_t)p);
  double t0 = MPI_Wtime();
  if (second_site)
    site_two(l);
  else
    site_one(l);
  l->in_collective += MPI_Wtime() - t0;
  l->calls++;
  for (int s = 0; s < p; s++)
    for (size_t i = 0; i < b; i++)
      if (l->recv[(size_t)s * b + i] != pattern(s, l->all_to_all ? l->rank : -1, iteration, i)) {
        if (l->wrong++ < 3)
          fprintf(stderr,
                  "adaptive_loop: rank %d: call %ld (iteration %d): byte %zu of the block "
                  "from %d is wrong\n",
                  l->rank, l->calls, iteration, i, s);
        break;
      }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  Loop l = {.all_to_all = 1, .bytes = 65536};
  int iterations = 40, balanced_site = 0, vary = 0;
  double imbalance = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      iterations = atoi(argv[++i]);
    else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
      l.bytes = (size_t)strtoull(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
      imbalance = atof(argv[++i]);
    else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
      l.all_to_all = strcmp(argv[++i], "allgather") != 0;
    else if (strcmp(argv[i], "-b") == 0)
      balanced_site = 1;
    else if (strcmp(argv[i], "-v") == 0)
      vary = 1;
    else {
      fprintf(stderr, "usage: adaptive_loop [-n N] [-s BYTES] [-w SECONDS] [-v] [-k alltoall|allgather] [-b]\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (iterations < 1 || l.bytes < 1 || l.bytes > (1u << 24) || imbalance < 0) {
    fprintf(stderr, "adaptive_loop: -n >= 1, 1 <= -s <= 16 MiB, -w >= 0\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &l.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &l.size);
  l.send = malloc(l.bytes * (size_t)l.size);
  l.recv = malloc(l.bytes * (size_t)l.size);
  if (l.send == NULL || l.recv == NULL)
    MPI_Abort(MPI_COMM_WORLD, 2);
  /* The library exchanges records on a communicator's first call (a
   * collective), which would balance the first measured call's arrival:
   * a call of the other collective, at no site measured, does it here. */
  if (l.all_to_all)
    MPI_Allgather(l.send, 1, MPI_BYTE, l.recv, 1, MPI_BYTE, MPI_COMM_WORLD);
  else
    MPI_Alltoall(l.send, 1, MPI_BYTE, l.recv, 1, MPI_BYTE, MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int it = 0; it < iterations; it++) {
    compute(imbalance * unit(l.rank, vary ? it : 0));
    exchange(&l, it, 0);
    if (balanced_site)
      exchange(&l, it, 1);
  }
  double total = MPI_Wtime() - start, sum_in = 0, slowest_total = 0;
  long wrong = 0;
  MPI_Reduce(&l.in_collective, &sum_in, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&total, &slowest_total, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&l.wrong, &wrong, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (l.rank == 0)
    printf("adaptive_loop: %ld calls, %ld wrong, loop %.6f s, mean per-rank time in the "
           "collective %.6f s\n",
           l.calls, wrong, slowest_total, sum_in / l.size);
  free(l.send);
  free(l.recv);
  MPI_Finalize();
  return wrong > 0;
}
