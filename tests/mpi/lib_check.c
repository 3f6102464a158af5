/* libnetsched-mpi's correctness driver (tests/cli_mpi_lib.sh): runs
 * MPI_Alltoall, MPI_Allgather and MPI_Bcast — which the library serves,
 * linked or preloaded — and the MPI library's own PMPI_ functions on the
 * same patterned data, and requires the receive buffers to be byte for
 * byte identical. Whether a table was taken or the call fell through is
 * the library's to say (NETSCHED_MPI_VERBOSE=1); the script checks that.
 *
 *   lib_check [-s BYTES,...] [-i ITERATIONS] [-c world,dup,low,parity,inter]
 *             [-k alltoall,allgather,bcast] [-t byte,int,vector] [-p]
 *
 * sizes are bytes per block (multiples of 4 for int and vector); -p adds
 * MPI_IN_PLACE variants. Every rank checks its own buffers; rank 0 prints
 * "lib_check: N calls compared, M differ" and all ranks exit 1 if M > 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  MPI_Datatype type;
  int elem_bytes;    /* bytes of data per element */
  int extent;        /* bytes the element spans */
  const char *name;
} Kind;

static int world_rank, mismatches, compared;

static void fill(unsigned char *b, size_t n, int rank, int seed)
{
  for (size_t i = 0; i < n; i++)
    b[i] = (unsigned char)(rank * 131 + (int)(i * 7) + seed * 13 + (int)(i >> 8));
}

static void compare(const char *what, const char *comm_name, const char *kind, size_t bytes,
                    const unsigned char *got, const unsigned char *want, size_t n)
{
  compared++;
  if (memcmp(got, want, n) == 0)
    return;
  size_t at = 0;
  while (at < n && got[at] == want[at])
    at++;
  fprintf(stderr,
          "lib_check: world rank %d: %s on %s, %s, %zu bytes per block: byte %zu is %u, "
          "PMPI gives %u\n",
          world_rank, what, comm_name, kind, bytes, at, got[at], want[at]);
  mismatches++;
}

/* A block of `bytes` bytes as (count, type): bytes MPI_BYTEs, bytes/4
 * MPI_INTs, or one vector of bytes/4 ints each followed by a 4-byte gap. */
static int kind_make(const char *name, size_t bytes, Kind *k, int *count)
{
  k->name = name;
  if (strcmp(name, "byte") == 0) {
    k->type = MPI_BYTE;
    k->elem_bytes = k->extent = 1;
    *count = (int)bytes;
    return 1;
  }
  if (bytes % 4 != 0)
    return 0;
  if (strcmp(name, "int") == 0) {
    k->type = MPI_INT;
    k->elem_bytes = k->extent = 4;
    *count = (int)(bytes / 4);
    return 1;
  }
  MPI_Datatype vec;
  int n = (int)(bytes / 4);
  MPI_Type_vector(n > 0 ? n : 1, 1, 2, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, (MPI_Aint)(n > 0 ? n : 1) * 8, &k->type);
  MPI_Type_free(&vec);
  MPI_Type_commit(&k->type);
  k->elem_bytes = (int)bytes;
  k->extent = (n > 0 ? n : 1) * 8;
  *count = n > 0 ? 1 : 0;
  return 1;
}

static void kind_free(Kind *k)
{
  if (strcmp(k->name, "vector") == 0)
    MPI_Type_free(&k->type);
}

static void check_alltoall(MPI_Comm comm, const char *cname, size_t bytes, const char *kname,
                           int in_place, int seed)
{
  Kind k;
  int count, rank, p;
  if (!kind_make(kname, bytes, &k, &count))
    return;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  size_t span = (size_t)p * (size_t)(count > 0 ? count : 1) * (size_t)k.extent;
  unsigned char *send = malloc(span), *got = malloc(span), *want = malloc(span);
  fill(send, span, rank, seed);
  fill(got, span, rank + 1000, seed);
  fill(want, span, rank + 1000, seed);
  if (in_place) {
    memcpy(got, send, span);
    memcpy(want, send, span);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, count, k.type, comm);
    PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, want, count, k.type, comm);
  } else {
    MPI_Alltoall(send, count, k.type, got, count, k.type, comm);
    PMPI_Alltoall(send, count, k.type, want, count, k.type, comm);
  }
  char kind[64];
  snprintf(kind, sizeof kind, "%s%s", kname, in_place ? " in place" : "");
  compare("MPI_Alltoall", cname, kind, bytes, got, want, span);
  free(send);
  free(got);
  free(want);
  kind_free(&k);
}

static void check_allgather(MPI_Comm comm, const char *cname, size_t bytes, const char *kname,
                            int in_place, int seed)
{
  Kind k;
  int count, rank, p;
  if (!kind_make(kname, bytes, &k, &count))
    return;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  size_t one = (size_t)(count > 0 ? count : 1) * (size_t)k.extent, span = one * (size_t)p;
  unsigned char *send = malloc(one), *got = malloc(span), *want = malloc(span);
  fill(send, one, rank, seed);
  fill(got, span, rank + 1000, seed);
  fill(want, span, rank + 1000, seed);
  if (in_place) {
    memcpy(got + (size_t)rank * one, send, one);
    memcpy(want + (size_t)rank * one, send, one);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, count, k.type, comm);
    PMPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, want, count, k.type, comm);
  } else {
    MPI_Allgather(send, count, k.type, got, count, k.type, comm);
    PMPI_Allgather(send, count, k.type, want, count, k.type, comm);
  }
  char kind[64];
  snprintf(kind, sizeof kind, "%s%s", kname, in_place ? " in place" : "");
  compare("MPI_Allgather", cname, kind, bytes, got, want, span);
  free(send);
  free(got);
  free(want);
  kind_free(&k);
}

static void check_bcast(MPI_Comm comm, const char *cname, size_t bytes, const char *kname,
                        int root, int seed)
{
  Kind k;
  int count, rank;
  if (!kind_make(kname, bytes, &k, &count))
    return;
  MPI_Comm_rank(comm, &rank);
  size_t span = (size_t)(count > 0 ? count : 1) * (size_t)k.extent;
  unsigned char *got = malloc(span), *want = malloc(span);
  fill(got, span, rank == root ? 7 : rank + 1000, seed);
  fill(want, span, rank == root ? 7 : rank + 1000, seed);
  MPI_Bcast(got, count, k.type, root, comm);
  PMPI_Bcast(want, count, k.type, root, comm);
  char kind[64];
  snprintf(kind, sizeof kind, "%s root %d", kname, root);
  compare("MPI_Bcast", cname, kind, bytes, got, want, span);
  free(got);
  free(want);
  kind_free(&k);
}

static int listed(const char *list, const char *word)
{
  size_t n = strlen(word);
  for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
    if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
      return 1;
  return 0;
}

static void run_on(MPI_Comm comm, const char *cname, const char *sizes, const char *kinds,
                   const char *colls, int in_place, int iterations)
{
  int p;
  MPI_Comm_size(comm, &p);
  static const char *const all_kinds[] = {"byte", "int", "vector"};
  for (int it = 0; it < iterations; it++) {
    char *copy = strdup(sizes), *save = NULL;
    for (char *s = strtok_r(copy, ",", &save); s != NULL; s = strtok_r(NULL, ",", &save)) {
      size_t bytes = strtoull(s, NULL, 10);
      for (int ki = 0; ki < 3; ki++) {
        if (!listed(kinds, all_kinds[ki]))
          continue;
        const char *kn = all_kinds[ki];
        if (listed(colls, "alltoall")) {
          check_alltoall(comm, cname, bytes, kn, 0, it);
          if (in_place)
            check_alltoall(comm, cname, bytes, kn, 1, it);
        }
        if (listed(colls, "allgather")) {
          check_allgather(comm, cname, bytes, kn, 0, it);
          if (in_place)
            check_allgather(comm, cname, bytes, kn, 1, it);
        }
        if (listed(colls, "bcast")) {
          check_bcast(comm, cname, bytes, kn, 0, it);
          if (p > 1)
            check_bcast(comm, cname, bytes, kn, p - 1, it);
        }
      }
    }
    free(copy);
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int p;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const char *sizes = "8,4096", *comms = "world", *colls = "alltoall,allgather,bcast";
  const char *kinds = "byte";
  int iterations = 1, in_place = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-p") == 0)
      in_place = 1;
    else if (i + 1 < argc && strcmp(argv[i], "-s") == 0)
      sizes = argv[++i];
    else if (i + 1 < argc && strcmp(argv[i], "-c") == 0)
      comms = argv[++i];
    else if (i + 1 < argc && strcmp(argv[i], "-k") == 0)
      colls = argv[++i];
    else if (i + 1 < argc && strcmp(argv[i], "-t") == 0)
      kinds = argv[++i];
    else if (i + 1 < argc && strcmp(argv[i], "-i") == 0)
      iterations = atoi(argv[++i]);
  }
  if (listed(comms, "world"))
    run_on(MPI_COMM_WORLD, "MPI_COMM_WORLD", sizes, kinds, colls, in_place, iterations);
  if (listed(comms, "dup")) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    run_on(dup, "a dup of MPI_COMM_WORLD", sizes, kinds, colls, in_place, iterations);
    MPI_Comm_free(&dup);
  }
  if (listed(comms, "low")) { /* world ranks 0..ceil(p/2)-1, and the rest */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank < (p + 1) / 2, world_rank, &half);
    run_on(half, world_rank < (p + 1) / 2 ? "the low half" : "the high half", sizes, kinds,
           colls, in_place, iterations);
    MPI_Comm_free(&half);
  }
  if (listed(comms, "parity")) {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
    run_on(half, world_rank % 2 ? "the odd ranks" : "the even ranks", sizes, kinds, colls,
           in_place, iterations);
    MPI_Comm_free(&half);
  }
  if (listed(comms, "inter") && p >= 2) { /* even ranks with odd ranks */
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, world_rank % 2 ? 0 : 1, 77, &inter);
    run_on(inter, "an inter-communicator", sizes, kinds, "alltoall", 0, iterations);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  }
  int total[2] = {compared, mismatches}, sum[2];
  PMPI_Allreduce(total, sum, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank == 0)
    printf("lib_check: %d calls compared, %d differ\n", sum[0], sum[1]);
  MPI_Finalize();
  return sum[1] > 0;
}
