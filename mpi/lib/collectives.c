/* libnetsched-mpi's entry points: MPI_Alltoall, MPI_Allgather and
 * MPI_Bcast through the MPI profiling interface (MPI 3.1 §14.2). Each
 * call either runs a routine table (mpi/runtime/ns_routine.h) or falls
 * through to the PMPI_ function of the MPI library; every other MPI
 * function is the library's own, untouched.
 *
 * A call takes a table when a configured table of its collective holds
 * the call's bytes per block in its range, that table's verdict on the
 * communicator is OK (comm.h: size, membership, same table on every
 * rank) and, for a broadcast, the table's root is the machine the call's
 * root plays. Everything that decides is the same on every rank of a
 * correct MPI program — the communicator's agreed verdicts, the bytes per
 * block (type signatures match) and the root — so all ranks take the
 * table or all fall through. Datatypes, which may differ between ranks,
 * never decide: non-contiguous ones are packed (buffers.h); MPI_IN_PLACE
 * is served by a copy. */
#include "mpi/lib/adaptive.h"
#include "mpi/lib/buffers.h"
#include "mpi/lib/comm.h"
#include "mpi/lib/report.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The library is built with hidden visibility; only these are exported. */
#define NSMPI_EXPORT __attribute__((visibility("default")))

static void announce(const NsmpiState *s, NsmpiComm *c, int t, size_t bytes)
{
  if (c->rank != 0 || !s->config.verbose || (c->announced & (1ull << t)))
    return;
  c->announced |= 1ull << t;
  const NsmpiTableSpec *spec = &s->config.tables[t];
  const NsrRoutine *r = s->routine[t];
  char file[256], algo[64], digest[24];
  nsmpi_say("%s on %s (%d ranks): takes %s (%s, digest %s; %s), first at %zu bytes per block",
            nsmpi_collective_function(spec->collective), c->label, c->size,
            nsmpi_escape(file, sizeof file, nsmpi_basename(spec->path)),
            nsmpi_escape(algo, sizeof algo, nsr_routine_algorithm(r)),
            nsmpi_escape(digest, 17, nsr_routine_digest(r)), spec->where, bytes);
}

/* Whether p blocks of `bytes` are more than the packing and the runtime
 * count (said once). */
static int too_large(const NsmpiState *s, NsmpiComm *c, NsrCollective k, size_t bytes)
{
  if (bytes <= INT_MAX && bytes <= SIZE_MAX / (size_t)c->size)
    return 0;
  char detail[160];
  snprintf(detail, sizeof detail,
           "%zu bytes per block: over 2 GiB, more than the packing can count", bytes);
  nsmpi_say_fallthrough(s, c, k, NSMPI_TOO_LARGE, detail);
  return 1;
}

/* What choose() returns for a collective in adaptive mode: the candidate
 * is picked per call site (adaptive.h). */
#define NSMPI_ADAPTIVE (-2)

/* The table a call takes, NSMPI_ADAPTIVE, or -1 having said why (once per
 * communicator and reason). `bytes_agree` is 0 when the send and receive
 * sizes differ (an erroneous call: the MPI library reports it). */
static int choose(const NsmpiState *s, MPI_Comm comm, NsmpiComm **cp, NsrCollective k,
                  size_t bytes, int bytes_agree, int root)
{
  if (!s->config.present || comm == MPI_COMM_NULL)
    return -1;
  NsmpiComm *c = nsmpi_comm(comm, s);
  *cp = c;
  char detail[400];
  if (!bytes_agree) {
    nsmpi_say_fallthrough(s, c, k, NSMPI_BYTES_DIFFER, "send and receive sizes differ");
    return -1;
  }
  if (bytes == 0) {
    nsmpi_say_fallthrough(s, c, k, NSMPI_COUNT_ZERO, "count 0 (nothing to move)");
    return -1;
  }
  if (s->config.adaptive[k].n > 0)
    return too_large(s, c, k, bytes) ? -1 : NSMPI_ADAPTIVE;
  int any = 0, in_range = -1, root_ok = 0;
  for (int t = 0; t < s->config.n_tables; t++) {
    const NsmpiTableSpec *spec = &s->config.tables[t];
    if (spec->collective != k || spec->candidate)
      continue;
    any = 1;
    if (bytes < spec->min_bytes || bytes > spec->max_bytes)
      continue;
    if (c->verdict[t] != NSMPI_OK) {
      if (in_range < 0)
        in_range = t;
      continue;
    }
    if (k == NSR_BCAST) {
      if (root < 0 || root >= c->size ||
          c->machine_of_rank[t][root] != nsr_routine_root(s->routine[t])) {
        root_ok = -1;
        continue;
      }
    }
    if (too_large(s, c, k, bytes))
      return -1;
    announce(s, c, t, bytes);
    return t;
  }
  if (!any) {
    snprintf(detail, sizeof detail, "no %s table is configured", nsmpi_collective_name(k));
    nsmpi_say_fallthrough(s, c, k, NSMPI_NO_TABLE, detail);
  } else if (in_range >= 0) {
    snprintf(detail, sizeof detail, "%zu bytes per block: %s", bytes, c->detail[in_range]);
    nsmpi_say_fallthrough(s, c, k, c->verdict[in_range], detail);
  } else if (root_ok < 0) {
    snprintf(detail, sizeof detail,
             "root %d plays no broadcast table's root machine for %zu bytes", root, bytes);
    nsmpi_say_fallthrough(s, c, k, NSMPI_BCAST_ROOT, detail);
  } else {
    snprintf(detail, sizeof detail, "%zu bytes per block is in no %s table's size range", bytes,
             nsmpi_collective_name(k));
    nsmpi_say_fallthrough(s, c, k, NSMPI_SIZE_RANGE, detail);
  }
  return -1;
}

static void *scratch(size_t bytes)
{
  void *p = malloc(bytes > 0 ? bytes : 1);
  if (p == NULL)
    nsmpi_out_of_memory("collective buffer");
  return p;
}

static int finish(MPI_Comm comm, int rc)
{
  if (rc != MPI_SUCCESS)
    PMPI_Comm_call_errhandler(comm, rc);
  return rc;
}

/* The table all-to-all or all-gather call `k` takes, or -1 (then the call
 * falls through): the guards of choose() on the receive block's bytes,
 * with send and receive signatures of one size. *bytes gets the block. */
static int choose_exchange(const NsmpiState *s, MPI_Comm comm, NsmpiComm **c, NsrCollective k,
                           const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           int recvcount, MPI_Datatype recvtype, size_t *bytes)
{
  int ok_r = 0, ok_s = 1;
  *bytes = nsmpi_bytes(recvcount, recvtype, &ok_r);
  size_t send_bytes = sendbuf == MPI_IN_PLACE ? *bytes : nsmpi_bytes(sendcount, sendtype, &ok_s);
  return choose(s, comm, c, k, *bytes, ok_r && ok_s && send_bytes == *bytes, -1);
}

/* Runs table t for an all-to-all (send_blocks = p: one block per
 * destination) or an all-gather (send_blocks = 1: this rank's block).
 * Derived types are packed into scratch buffers and unpacked after;
 * MPI_IN_PLACE takes the send data from the receive buffer, blocks from
 * `in_place_first` on, copied before the routine overwrites them. */
static int run_exchange(const NsmpiState *s, const NsmpiComm *c, int t, const void *sendbuf,
                        int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, size_t bytes, int send_blocks,
                        int in_place_first, MPI_Comm comm)
{
  int p = c->size, rc = MPI_SUCCESS;
  const void *send = sendbuf;
  void *send_copy = NULL, *recv = recvbuf, *recv_copy = NULL;
  if (sendbuf == MPI_IN_PLACE) {
    send = send_copy = scratch(bytes * (size_t)send_blocks);
    rc = nsmpi_pack_blocks(recvbuf, in_place_first, send_blocks, recvcount, recvtype, send_copy,
                           bytes, comm);
  } else if (!nsmpi_contiguous(sendtype)) {
    send = send_copy = scratch(bytes * (size_t)send_blocks);
    rc = nsmpi_pack_blocks(sendbuf, 0, send_blocks, sendcount, sendtype, send_copy, bytes, comm);
  }
  if (!nsmpi_contiguous(recvtype))
    recv = recv_copy = scratch(bytes * (size_t)p);
  if (rc == MPI_SUCCESS)
    rc = nsr_routine_run(s->routine[t], send, recv, bytes, c->machine_of_rank[t], comm);
  if (rc == MPI_SUCCESS && recv_copy != NULL)
    rc = nsmpi_unpack_blocks(recv_copy, bytes, recvbuf, 0, p, recvcount, recvtype, comm);
  free(send_copy);
  free(recv_copy);
  return finish(comm, rc);
}

/* An all-to-all or all-gather in adaptive mode: the candidate of this
 * call site and size (a table, or -1: the MPI library's own), timed while
 * the site is still measuring. */
static int adaptive_exchange(const NsmpiState *s, NsmpiComm *c, NsrCollective k, const void *site,
                             const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, size_t bytes,
                             MPI_Comm comm)
{
  NsmpiAdaptiveCall call;
  int t = nsmpi_adaptive_begin(s, c, k, site, bytes, &call);
  int rc, all_to_all = k == NSR_ALLTOALL;
  if (t >= 0) /* send blocks and in-place offset as in MPI_Alltoall and MPI_Allgather below */
    rc = run_exchange(s, c, t, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, bytes,
                      all_to_all ? c->size : 1, all_to_all ? 0 : c->rank, comm);
  else if (all_to_all)
    rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  else
    rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  nsmpi_adaptive_end(s, c, &call, comm);
  return rc;
}

NSMPI_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  const NsmpiState *s = nsmpi_state();
  NsmpiComm *c = NULL;
  size_t bytes;
  int t = choose_exchange(s, comm, &c, NSR_ALLTOALL, sendbuf, sendcount, sendtype, recvcount,
                          recvtype, &bytes);
  if (t == NSMPI_ADAPTIVE) /* the call site: this function's return address */
    return adaptive_exchange(s, c, NSR_ALLTOALL, __builtin_return_address(0), sendbuf, sendcount,
                             sendtype, recvbuf, recvcount, recvtype, bytes, comm);
  if (t < 0)
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  /* in place: every block of the receive buffer is send data */
  return run_exchange(s, c, t, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, bytes,
                      c->size, 0, comm);
}

NSMPI_EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  const NsmpiState *s = nsmpi_state();
  NsmpiComm *c = NULL;
  size_t bytes;
  int t = choose_exchange(s, comm, &c, NSR_ALLGATHER, sendbuf, sendcount, sendtype, recvcount,
                          recvtype, &bytes);
  if (t == NSMPI_ADAPTIVE)
    return adaptive_exchange(s, c, NSR_ALLGATHER, __builtin_return_address(0), sendbuf,
                             sendcount, sendtype, recvbuf, recvcount, recvtype, bytes, comm);
  if (t < 0)
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  /* in place: this rank's block already sits at its place in the receive buffer */
  return run_exchange(s, c, t, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, bytes,
                      1, c->rank, comm);
}

NSMPI_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
  const NsmpiState *s = nsmpi_state();
  NsmpiComm *c = NULL;
  int ok = 0;
  size_t bytes = nsmpi_bytes(count, datatype, &ok);
  int t = choose(s, comm, &c, NSR_BCAST, bytes, ok, root);
  if (t < 0)
    return PMPI_Bcast(buffer, count, datatype, root, comm);

  int rc = MPI_SUCCESS;
  void *data = buffer, *copy = NULL;
  if (!nsmpi_contiguous(datatype)) {
    data = copy = scratch(bytes);
    if (c->rank == root)
      rc = nsmpi_pack_blocks(buffer, 0, 1, count, datatype, copy, bytes, comm);
  }
  if (rc == MPI_SUCCESS)
    rc = nsr_routine_run(s->routine[t], data, data, bytes, c->machine_of_rank[t], comm);
  if (rc == MPI_SUCCESS && copy != NULL && c->rank != root)
    rc = nsmpi_unpack_blocks(copy, bytes, buffer, 0, 1, count, datatype, comm);
  free(copy);
  return finish(comm, rc);
}
