/* netsched — output directories: created, never a link, locked.
 *
 * Every command that writes into a directory (compare, scenario, design,
 * sweep, torus -o) takes the directory's lock before it writes anything, so
 * that two runs never append to, truncate or replace each other's files: a
 * second run is refused with the directory and the first run's pid. The
 * lock is flock(2) on a lock file in the directory, so the kernel drops it
 * when its holder dies, even by SIGKILL; the file holds the holder's pid
 * and is removed when the lock is released (a later run that opened the
 * file before its removal notices and takes the new one) and when a stop
 * signal (SIGINT, SIGTERM, SIGHUP) ends the holder (ns_stop_remove_add,
 * analysis/stop_signal_internal.h). Only SIGKILL leaves it: a file
 * nobody holds, which the next run takes.
 *
 * A directory that is itself a symbolic link is refused: a link planted
 * where an output directory is expected would send every output elsewhere
 * (docs/security.md). Its parents may be links; name the directory the
 * link points to instead.
 */
#ifndef NETSCHED_OUTPUT_DIR_H
#define NETSCHED_OUTPUT_DIR_H

#include <glib.h>

typedef struct NsOutputLock NsOutputLock;

/*
 * ns_output_dir_lock — creates `dir` (and its parents) if missing, refuses
 * it when it is a symbolic link or not a directory (NS_ERROR_INPUT), and
 * takes its exclusive lock: the lock of the whole directory when `part` is
 * NULL (lock file DIR/.netsched.lock), else the lock of one file among
 * several writers of the directory (sweep shards: DIR/.netsched-PART.lock).
 * A lock held by another run is NS_ERROR_IO "DIR: another netsched run
 * (pid N) is writing ...". Released by ns_output_dir_unlock. O(1).
 */
NsOutputLock *ns_output_dir_lock(const char *dir, const char *part, GError **error);

/* Releases the lock and removes the lock file. NULL is accepted. */
void ns_output_dir_unlock(NsOutputLock *lock);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsOutputLock, ns_output_dir_unlock)

#endif
