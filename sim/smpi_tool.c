/* netsched — SMPI's tools run in a private directory (see smpi_tool.h). */
#include "sim/smpi_tool.h"
#include "platforms/model/error.h"
#include "sim/child.h"
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* Runs argv in dir; FALSE with an error quoting the child's last message
 * when it cannot start, fails or is stopped. */
gboolean ns_smpi_run_tool(const char *const *argv, const char *dir, double wall_limit,
                          GString *out, GError **error)
{
  g_autoptr(GString) err = g_string_new(NULL);
  int status = 0;
  GError *local = NULL;
  if (!ns_child_run(argv, dir, wall_limit, out, err, &status, &local)) {
    /* Not installed (ns_child_run: "cannot run smpicc: No such file or
     * directory"): say where SMPI's tools come from. Stopped, or another
     * failure: its own words. */
    g_autofree char *installed = g_find_program_in_path(argv[0]);
    if (installed == NULL)
      ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                      "%s (SMPI runs need smpicc and smpirun: Debian's libsimgrid-dev)",
                      local->message);
    else
      g_propagate_error(error, g_steal_pointer(&local));
    g_clear_error(&local);
    return FALSE;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return TRUE;
  g_strstrip(err->str);
  const char *last = strrchr(err->str, '\n');
  g_autofree char *said = g_strescape(last != NULL ? last + 1 : err->str, NULL);
  ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s failed (status %d): %s", argv[0],
                  WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), said);
  return FALSE;
}

/* "rank R start S end E" from every rank: the last end minus the first start. */
gboolean ns_smpi_parse_times(const char *out, int p, double *completion, GError **error)
{
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  double first = G_MAXDOUBLE, last = -G_MAXDOUBLE;
  int seen = 0;
  for (int i = 0; lines[i] != NULL; i++) {
    int r;
    double s, e;
    if (sscanf(lines[i], "rank %d start %lf end %lf", &r, &s, &e) != 3 || r < 0 || r >= p)
      continue;
    seen++;
    first = MIN(first, s);
    last = MAX(last, e);
  }
  if (seen != p || !(last >= first)) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "smpirun reported the times of %d of %d ranks", seen, p);
    return FALSE;
  }
  *completion = last - first;
  return TRUE;
}


/* SMPI's automatic shared malloc (SimGrid 3.32, Debian 12's libsimgrid-dev:
 * --cfg=smpi/auto-shared-malloc-thresh:N, off by default) makes every
 * malloc of N bytes or more of a program built by smpicc one block of
 * memory shared by all ranks; under smpi/shared-malloc:global (the
 * default) that block is a single file of smpi/shared-malloc-blocksize
 * (1 MiB) mapped again and again, so even the bytes of one allocation
 * alias each other. A run that only times its messages may do that to
 * the data it moves: the generated routine's relay scratch and packed
 * copies (private, they grow with ranks x blocks: AT2 on the 8x8 torus
 * at 1 MiB blocks held about 13 GB). It must not do it to what the
 * program reads: the routine's table and the runtime's records derived
 * from it (at most 88 bytes per op, at most one op per three bytes of
 * the table; the load buffer at most twice the table), nor its sync
 * messages: they carry no data, but the receiver reads their first four
 * bytes (the send they release), and a machine sends them all from one
 * allocation of (messages + 1) x sync size bytes, far past one message's
 * 64 KiB at most (smpi_routine.c says how large). SMPI copies nothing out
 * of a shared block, so a shared sync block would hand the receiver
 * stale indices: a wrong sync count, a refused run or a deadlock. Hence
 * the floor of 1 MiB (above the routine_time and baseline programs'
 * control data), for a large table 32 x its size, and above the sync
 * block, each rounded up to a power of two. */
uint64_t ns_smpi_shared_malloc_thresh(uint64_t control_bytes, uint64_t read_bytes)
{
  uint64_t t = NS_SMPI_SHARED_MALLOC_THRESH_MIN;
  while ((t < control_bytes * 32 || t <= read_bytes) && t < ((uint64_t)1 << 62))
    t <<= 1;
  return t;
}

/* Each shared allocation is the shared block mapped once per blocksize
 * bytes: with SimGrid's 1 MiB, AT2 on the 8x8 torus at 4 MiB blocks (64
 * ranks x 780 MiB of relay scratch) needs more mappings than Linux's
 * vm.max_map_count (65530) and smpirun aborts ("Could not map folded
 * virtual memory"). 16 blocks per mapping keeps the count near the
 * number of scratch slots / 16 per rank; the block itself is one file
 * (shared, not private memory), touched at most up to its size. */
uint64_t ns_smpi_shared_malloc_blocksize(uint64_t block_bytes)
{
  uint64_t b = (uint64_t)1 << 20;
  while (b < block_bytes * 16 && b < ((uint64_t)1 << 30))
    b <<= 1;
  return b;
}

void ns_smpi_timing_args(GPtrArray *argv, const NsSimOptions *opt, uint64_t control_bytes,
                         uint64_t read_bytes, uint64_t block_bytes)
{
  g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/auto-shared-malloc-thresh:%" G_GUINT64_FORMAT,
                                        ns_smpi_shared_malloc_thresh(control_bytes, read_bytes)));
  g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/shared-malloc-blocksize:%" G_GUINT64_FORMAT,
                                        ns_smpi_shared_malloc_blocksize(block_bytes)));
  ns_sim_user_cfg(argv, opt); /* after ours: the user's setting is the one SimGrid keeps */
}
