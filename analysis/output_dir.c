/* netsched — output directories: created, never a link, locked. See output_dir_internal.h. */
#include "analysis/output_dir_internal.h"
#include "analysis/stop_signal_internal.h"
#include "platforms/io/output_file_internal.h"
#include "platforms/model/error.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct NsOutputLock {
  char *path;   /* the lock file */
  int fd;
  int removal;  /* its slot among the files a stop signal removes */
};

/* `dir` without trailing slashes: lstat("link/") would follow the link. */
static char *without_trailing_slashes(const char *dir)
{
  char *d = g_strdup(dir);
  size_t n = strlen(d);
  while (n > 1 && d[n - 1] == '/')
    d[--n] = '\0';
  return d;
}

static gboolean check_dir(const char *dir, GError **error)
{
  g_autofree char *d = without_trailing_slashes(dir);
  GStatBuf st;
  if (g_lstat(d, &st) != 0 && g_mkdir_with_parents(d, 0755) != 0) {
    ns_set_error_at(error, NS_ERROR_IO, dir, 0, "cannot create: %s", g_strerror(errno));
    return FALSE;
  }
  if (g_lstat(d, &st) != 0) {
    ns_set_error_at(error, NS_ERROR_IO, dir, 0, "cannot create: %s", g_strerror(errno));
    return FALSE;
  }
  if (S_ISLNK(st.st_mode)) {
    g_autofree char *target = g_file_read_link(d, NULL);
    ns_set_error_at(error, NS_ERROR_INPUT, dir, 0,
                    "the output directory is a symbolic link (to %s): refused, since a link "
                    "in place of the directory would send every output elsewhere; give the "
                    "directory it points to instead",
                    target != NULL ? target : "?");
    return FALSE;
  }
  if (!S_ISDIR(st.st_mode)) {
    ns_set_error_at(error, NS_ERROR_INPUT, dir, 0, "not a directory");
    return FALSE;
  }
  return TRUE;
}

/* The pid a lock file names, or 0. */
static long read_holder_pid(int fd)
{
  char buf[32] = { 0 };
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return 0;
  char *end = NULL;
  long pid = strtol(buf, &end, 10);
  return pid > 0 && end != buf && *end == '\n' ? pid : 0;
}

/* The holder writes its pid just after taking the lock, so a run refused in
 * between finds the file empty: it waits up to 20 ms for the pid to be
 * named (the refusal should say who is writing), then refuses without it. */
static long holder_pid(int fd)
{
  long pid = read_holder_pid(fd);
  for (int i = 0; pid == 0 && i < 20; i++) {
    g_usleep(1000);
    pid = read_holder_pid(fd);
  }
  return pid;
}

/* The loop of ns_output_dir_lock, the stop signals blocked. */
static NsOutputLock *lock_file(const char *dir, const char *part, const char *path,
                               GError **error)
{
  for (int attempt = 0; attempt < 100; attempt++) {
    int fd = g_open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
      ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot lock: %s", g_strerror(errno));
      return NULL;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int e = errno;
      long pid = e == EWOULDBLOCK ? holder_pid(fd) : 0;
      close(fd);
      g_autofree char *who = pid > 0 ? g_strdup_printf(" (pid %ld)", pid) : g_strdup("");
      if (e != EWOULDBLOCK)
        ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot lock: %s", g_strerror(e));
      else if (part != NULL)
        ns_set_error_at(error, NS_ERROR_IO, dir, 0,
                        "another netsched run%s is writing %s here: wait for it to end, or "
                        "choose another output directory",
                        who, part);
      else
        ns_set_error_at(error, NS_ERROR_IO, dir, 0,
                        "another netsched run%s is writing into this directory: wait for it "
                        "to end, or choose another output directory",
                        who);
      return NULL;
    }
    /* The previous holder may have removed the file between our open and
     * our lock: then the lock is on a file nobody else will see. */
    struct stat held, named;
    if (fstat(fd, &held) != 0 || lstat(path, &named) != 0 ||
        held.st_ino != named.st_ino || held.st_dev != named.st_dev) {
      close(fd);
      continue;
    }
    g_autofree char *pid = g_strdup_printf("%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || !ns_write_all(fd, pid, strlen(pid))) {
      ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write: %s", g_strerror(errno));
      g_unlink(path);
      close(fd);
      return NULL;
    }
    int removal = ns_stop_remove_add(path);
    if (removal < 0) {
      ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot lock: too many files held at once");
      g_unlink(path);
      close(fd);
      return NULL;
    }
    NsOutputLock *lock = g_new0(NsOutputLock, 1);
    lock->path = g_strdup(path);
    lock->fd = fd;
    lock->removal = removal;
    return lock;
  }
  ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot lock: the lock file keeps changing");
  return NULL;
}

NsOutputLock *ns_output_dir_lock(const char *dir, const char *part, GError **error)
{
  if (!check_dir(dir, error))
    return NULL;
  g_autofree char *name = part != NULL ? g_strdup_printf(".netsched-%s.lock", part)
                                       : g_strdup(".netsched.lock");
  g_autofree char *path = g_build_filename(dir, name, NULL);
  /* No stop signal between creating the file and registering it for
   * removal: a run ended by one leaves no lock file behind. */
  sigset_t stops, unblocked;
  ns_stop_signal_set(&stops);
  sigprocmask(SIG_BLOCK, &stops, &unblocked);
  NsOutputLock *lock = lock_file(dir, part, path, error);
  sigprocmask(SIG_SETMASK, &unblocked, NULL); /* a pending stop signal removes it now */
  return lock;
}

void ns_output_dir_unlock(NsOutputLock *lock)
{
  if (lock == NULL)
    return;
  /* Forgotten by the stop signals first: once unlinked, the name may be
   * another run's lock. Unlinked while still held: a run waiting on this
   * file finds the name gone (lock_file) and tries again. */
  sigset_t stops, unblocked;
  ns_stop_signal_set(&stops);
  sigprocmask(SIG_BLOCK, &stops, &unblocked);
  ns_stop_remove_drop(lock->removal);
  g_unlink(lock->path);
  close(lock->fd);
  sigprocmask(SIG_SETMASK, &unblocked, NULL);
  g_free(lock->path);
  g_free(lock);
}
