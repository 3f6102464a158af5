/* A collective's buffers as the runtime wants them: contiguous bytes.
 * A contiguous datatype (no gaps, lower bound 0, extent = size) is used
 * in place; any other is packed through PMPI_Pack into a temporary
 * buffer and unpacked after (docs/mpi-library.md, "Datatypes"): the
 * choice to pack rather than fall through keeps the decision to take a
 * table independent of each rank's datatypes, which MPI lets differ
 * between ranks as long as the type signatures match. */
#ifndef NSMPI_BUFFERS_H
#define NSMPI_BUFFERS_H
#include <mpi.h>
#include <stddef.h>

/* Bytes of `count` elements of `type`; 0 with *ok = 0 if it overflows. */
size_t nsmpi_bytes(int count, MPI_Datatype type, int *ok);

/* Whether `count` elements of `type` are exactly their bytes, in order. */
int nsmpi_contiguous(MPI_Datatype type);

/* Copies n_blocks blocks of `count` elements of `type`, block b starting
 * at base + (first + b) * count * extent, into `out` as bytes (PMPI_Pack),
 * or back from `in` (PMPI_Unpack). Blocks are packed one by one, so
 * n_blocks * count may exceed INT_MAX. MPI_SUCCESS or an error code. */
int nsmpi_pack_blocks(const void *base, int first, int n_blocks, int count, MPI_Datatype type,
                      void *out, size_t block_bytes, MPI_Comm comm);
int nsmpi_unpack_blocks(const void *in, size_t block_bytes, void *base, int first, int n_blocks,
                        int count, MPI_Datatype type, MPI_Comm comm);
#endif
