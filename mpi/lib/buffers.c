/* Contiguous views of a collective's buffers (buffers.h). */
#include "mpi/lib/buffers.h"
#include <limits.h>
#include <stdint.h>

size_t nsmpi_bytes(int count, MPI_Datatype type, int *ok)
{
  int size = 0;
  *ok = count >= 0 && PMPI_Type_size(type, &size) == MPI_SUCCESS && size >= 0;
  if (!*ok)
    return 0;
  return (size_t)count * (size_t)size;
}

/* Whether a type's bytes are its elements in order: a named type, or
 * contiguous/dup layers over one (a struct whose fields are out of order
 * can have size = extent too, so the layout alone does not tell). */
static int plain_layers(MPI_Datatype type, int depth)
{
  int ni, na, nd, combiner;
  if (depth > 16 || PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
    return 0;
  if (combiner == MPI_COMBINER_NAMED)
    return 1;
  if ((combiner != MPI_COMBINER_CONTIGUOUS && combiner != MPI_COMBINER_DUP) || nd != 1 ||
      ni > 1 || na > 0)
    return 0;
  int ints[1];
  MPI_Aint addrs[1];
  MPI_Datatype inner;
  if (PMPI_Type_get_contents(type, ni, na, nd, ints, addrs, &inner) != MPI_SUCCESS)
    return 0;
  int plain = plain_layers(inner, depth + 1);
  int ni2, na2, nd2, inner_combiner;
  if (PMPI_Type_get_envelope(inner, &ni2, &na2, &nd2, &inner_combiner) == MPI_SUCCESS &&
      inner_combiner != MPI_COMBINER_NAMED)
    PMPI_Type_free(&inner);
  return plain;
}

int nsmpi_contiguous(MPI_Datatype type)
{
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
    return 0;
  /* No gap, no padding, no resized bounds, then no reordering. */
  return lb == 0 && true_lb == 0 && extent == size && true_extent == size &&
         plain_layers(type, 0);
}

int nsmpi_pack_blocks(const void *base, int first, int n_blocks, int count, MPI_Datatype type,
                      void *out, size_t block_bytes, MPI_Comm comm)
{
  MPI_Aint lb, extent;
  int rc = PMPI_Type_get_extent(type, &lb, &extent);
  if (rc != MPI_SUCCESS)
    return rc;
  if (block_bytes > INT_MAX)
    return MPI_ERR_COUNT;
  for (int b = 0; b < n_blocks; b++) {
    const char *src = (const char *)base + (MPI_Aint)(first + b) * count * extent;
    int position = 0;
    rc = PMPI_Pack(src, count, type, (char *)out + (size_t)b * block_bytes, (int)block_bytes,
                   &position, comm);
    if (rc != MPI_SUCCESS)
      return rc;
    if ((size_t)position != block_bytes)
      return MPI_ERR_TRUNCATE;
  }
  return MPI_SUCCESS;
}

int nsmpi_unpack_blocks(const void *in, size_t block_bytes, void *base, int first, int n_blocks,
                        int count, MPI_Datatype type, MPI_Comm comm)
{
  MPI_Aint lb, extent;
  int rc = PMPI_Type_get_extent(type, &lb, &extent);
  if (rc != MPI_SUCCESS)
    return rc;
  if (block_bytes > INT_MAX)
    return MPI_ERR_COUNT;
  for (int b = 0; b < n_blocks; b++) {
    char *dst = (char *)base + (MPI_Aint)(first + b) * count * extent;
    int position = 0;
    rc = PMPI_Unpack((const char *)in + (size_t)b * block_bytes, (int)block_bytes, &position, dst,
                     count, type, comm);
    if (rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}
