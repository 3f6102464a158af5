/* netsched routine runtime — runs a routine table (a lowered collective
 * schedule, written by `netsched generate`) over MPI point-to-point.
 *
 * Plain C17 over <mpi.h> and libc: no GLib, no netsched library. It is
 * built as the static library netsched_routine (cmake/Mpi.cmake), used by
 * libnetsched-mpi, and copied verbatim into every C routine that
 * `netsched generate --format c` writes (with NSR_EMBEDDED defined, which
 * makes every function static), so a generated file needs only MPI.
 *
 * A table is user input: nsr_routine_load / nsr_routine_from_data check
 * the magic, version, length and digest, bound every count by the bytes
 * left, and check every peer, block, scratch slot and synchronisation
 * count before anything runs (docs/generate.md, "Table format"). A table
 * that loads never makes the runtime touch memory outside the buffers it
 * is given, and every sync message a send awaits is sent by someone. The
 * order of the steps is not proven deadlock-free: a table netsched writes
 * follows a verified schedule, and the digest catches damage, not forgery.
 */
#ifndef NETSCHED_NS_ROUTINE_H
#define NETSCHED_NS_ROUTINE_H

#include <mpi.h>
#include <stddef.h>

#ifdef NSR_EMBEDDED
#define NSR_API static __attribute__((unused))
#else
#define NSR_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { NSR_ALLTOALL, NSR_ALLGATHER, NSR_BCAST } NsrCollective;
typedef struct NsrRoutine NsrRoutine;

/* Loads a routine table file (at most NSR_MAX_TABLE_BYTES). NULL with a
 * one-line reason ("PATH: what is wrong") in why[why_len] on failure. */
NSR_API NsrRoutine *nsr_routine_load(const char *path, char *why, size_t why_len);
/* The same from bytes in memory (a compiled-in table); `data` is copied. */
NSR_API NsrRoutine *nsr_routine_from_data(const void *data, size_t len, char *why,
                                          size_t why_len);
NSR_API void nsr_routine_free(NsrRoutine *r);

NSR_API NsrCollective nsr_routine_collective(const NsrRoutine *r);
/* Machines p of the schedule: the communicator size the routine needs. */
NSR_API int nsr_routine_size(const NsrRoutine *r);
/* The topology's name of schedule machine m (0 <= m < p), else NULL. */
NSR_API const char *nsr_routine_machine(const NsrRoutine *r, int m);
/* Bcast: the root machine; -1 for the other collectives. */
NSR_API int nsr_routine_root(const NsrRoutine *r);
NSR_API const char *nsr_routine_algorithm(const NsrRoutine *r);
/* The schedule's digest (hex), as netsched generate printed it. */
NSR_API const char *nsr_routine_digest(const NsrRoutine *r);
/* The synchronisation scheme the table was lowered with (e.g. "sender-all"). */
NSR_API const char *nsr_routine_sync(const NsrRoutine *r);
/* The topology the schedule was planned on (its source name). */
NSR_API const char *nsr_routine_topology(const NsrRoutine *r);

/*
 * Runs the routine on `comm` (size p, every rank calling it, in the same
 * order as every other collective on comm).
 *
 * machine_of_rank[r] = schedule machine played by comm rank r: a
 * permutation of 0..p-1, the same on every rank (NULL: rank r plays
 * machine r). block_bytes = bytes per block: alltoall, per destination
 * (sendbuf and recvbuf hold p blocks); allgather, per rank (sendbuf one
 * block, recvbuf p blocks); bcast, the whole message (sendbuf read at the
 * root only, every rank's result in recvbuf; sendbuf may equal recvbuf).
 * Buffers are contiguous bytes indexed by comm rank, as MPI's (the block
 * of rank r at r * block_bytes), and must not overlap otherwise.
 *
 * Messages travel on a duplicate of comm, cached on comm (one
 * MPI_Comm_dup at the first call) with tags private to the runtime, so
 * they never match the application's. Returns MPI_SUCCESS or an MPI error
 * class (MPI_ERR_ARG for a bad size or mapping, MPI_ERR_NO_MEM,
 * MPI_ERR_OTHER, or what MPI returned).
 */
NSR_API int nsr_routine_run(const NsrRoutine *r, const void *sendbuf, void *recvbuf,
                            size_t block_bytes, const int *machine_of_rank, MPI_Comm comm);

/* The most bytes a table file may have. */
#define NSR_MAX_TABLE_BYTES ((size_t)1 << 31)

#ifdef __cplusplus
}
#endif
#endif
