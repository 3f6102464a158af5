/* Loads routine tables without running them (no MPI_Init: loading is
 * plain C), for tests/cli_generate.sh:
 *   routine_load TABLE       prints "ok COLLECTIVE/ALGORITHM p=P sync S" or
 *                            the loader's reason; exit 0 / 1
 *   routine_load --mutate TABLE
 *                            every byte but the digest set to 0, 1, 0x7f,
 *                            0x80, 0xff and flipped, the digest recomputed
 *                            (so the checks behind it are reached), loaded;
 *                            prints how many loaded and each reason's
 *                            count. Built with ASan/UBSan by the test: a
 *                            table must never crash the loader.
 */
#include "mpi/runtime/ns_routine.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void redigest(unsigned char *t, size_t len)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i + 8 < len; i++) {
    h ^= t[i];
    h *= 0x100000001b3ull;
  }
  for (int i = 0; i < 8; i++)
    t[len - 8 + (size_t)i] = (unsigned char)(h >> (8 * i));
}

static const char *coll_name(NsrCollective c)
{
  return c == NSR_ALLTOALL ? "alltoall" : c == NSR_ALLGATHER ? "allgather" : "bcast";
}

int main(int argc, char **argv)
{
  char why[512];
  if (argc == 2) {
    NsrRoutine *r = nsr_routine_load(argv[1], why, sizeof why);
    if (r == NULL) {
      printf("%s\n", why);
      return 1;
    }
    printf("ok %s/%s p=%d sync %s root %d machine0 %s\n", coll_name(nsr_routine_collective(r)),
           nsr_routine_algorithm(r), nsr_routine_size(r), nsr_routine_sync(r),
           nsr_routine_root(r), nsr_routine_machine(r, 0));
    nsr_routine_free(r);
    return 0;
  }
  if (argc != 3 || strcmp(argv[1], "--mutate") != 0) {
    fprintf(stderr, "usage: routine_load TABLE | routine_load --mutate TABLE\n");
    return 2;
  }
  FILE *f = fopen(argv[2], "rb");
  if (f == NULL)
    return 2;
  static unsigned char table[1 << 20], copy[1 << 20];
  size_t len = fread(table, 1, sizeof table, f);
  fclose(f);
  enum { MAX_REASONS = 64 };
  char reasons[MAX_REASONS][512];
  int counts[MAX_REASONS], n_reasons = 0, loaded = 0, tried = 0;
  for (size_t i = 0; i + 8 < len; i++) {
    const int values[] = { 0, 1, 0x7f, 0x80, 0xff, table[i] ^ 1 };
    for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
      if (values[v] == table[i])
        continue;
      memcpy(copy, table, len);
      copy[i] = (unsigned char)values[v];
      redigest(copy, len);
      tried++;
      NsrRoutine *r = nsr_routine_from_data(copy, len, why, sizeof why);
      if (r != NULL) {
        loaded++;
        nsr_routine_free(r);
        continue;
      }
      int k = 0;
      while (k < n_reasons && strcmp(reasons[k], why) != 0)
        k++;
      if (k == n_reasons && n_reasons < MAX_REASONS) {
        snprintf(reasons[k], sizeof reasons[k], "%s", why);
        counts[n_reasons++] = 0;
      }
      if (k < n_reasons)
        counts[k]++;
    }
  }
  printf("mutations %d loaded %d rejected %d\n", tried, loaded, tried - loaded);
  for (int k = 0; k < n_reasons; k++)
    printf("%6d %s\n", counts[k], reasons[k]);
  return 0;
}
