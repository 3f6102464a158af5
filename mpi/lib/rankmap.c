/* This process's machine (rankmap.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* qsort_r, strdup, strtok_r when built by mpicc/smpicc alone */
#endif
#include "mpi/lib/rankmap.h"
#include "mpi/lib/lines.h"
#include "mpi/lib/report.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct {
  NsmpiConfig *c;
  const char *path;
  int world_rank, world_size;
  char **name_of_rank;   /* [world_size] */
  int *line_of_rank;
  int bad;
  char *own;
  size_t own_len;
  int found;
} MapParse;

static void map_error(MapParse *m, int number, const char *fmt, const char *a, const char *b)
{
  char esc[NSMPI_MAX_PATH], what[512];
  snprintf(what, sizeof what, fmt, a, b);
  nsmpi_config_error(m->c, NSMPI_ALL_COLLECTIVES, "%s:%d: %s",
                     nsmpi_escape(esc, sizeof esc, m->path), number, what);
  m->bad = 1;
}

static void map_line(void *data, char *line, int number)
{
  MapParse *m = data;
  char *p = line;
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '\0' || *p == '#')
    return;
  char *end;
  errno = 0;
  long rank = strtol(p, &end, 10);
  char esc[256], num[32];
  if (end == p || (*end != ' ' && *end != '\t') || errno != 0 || rank < 0) {
    map_error(m, number, "expected 'WORLD_RANK MACHINE', got '%s'%s",
              nsmpi_escape(esc, sizeof esc, line), "");
    return;
  }
  while (*end == ' ' || *end == '\t')
    end++;
  char *name = end;
  char *stop = name + strcspn(name, " \t");
  char *rest = stop + strspn(stop, " \t");
  if (*name == '\0' || (*rest != '\0' && *rest != '#')) {
    map_error(m, number, "expected 'WORLD_RANK MACHINE' (one machine name), got '%s'%s",
              nsmpi_escape(esc, sizeof esc, line), "");
    return;
  }
  *stop = '\0';
  snprintf(num, sizeof num, "%ld", rank);
  if (rank >= m->world_size) {
    char size[32];
    snprintf(size, sizeof size, "%d", m->world_size);
    map_error(m, number, "rank %s is not a rank of MPI_COMM_WORLD (%s ranks)", num, size);
    return;
  }
  if (m->name_of_rank[rank] != NULL) {
    char first[32];
    snprintf(first, sizeof first, "%d", m->line_of_rank[rank]);
    map_error(m, number, "rank %s listed again (first at line %s)", num, first);
    return;
  }
  m->name_of_rank[rank] = strdup(name);
  m->line_of_rank[rank] = number;
  if (m->name_of_rank[rank] == NULL)
    map_error(m, number, "out of memory%s%s", "", "");
}

static void map_bad_line(void *data, int number, const char *what)
{
  map_error(data, number, "%s%s", what, "");
}

static int by_name(const void *a, const void *b, void *names)
{
  char **n = names;
  int x = *(const int *)a, y = *(const int *)b;
  int d = strcmp(n[x], n[y]);
  return d != 0 ? d : (x > y) - (x < y);
}

/* Two ranks naming one machine: the mapping cannot hold, whichever
 * communicator is used. */
static void check_duplicates(MapParse *m)
{
  int *order = malloc(sizeof(int) * (size_t)m->world_size);
  int n = 0;
  if (order == NULL)
    return;
  for (int r = 0; r < m->world_size; r++)
    if (m->name_of_rank[r] != NULL)
      order[n++] = r;
  qsort_r(order, (size_t)n, sizeof *order, by_name, m->name_of_rank);
  for (int i = 1; i < n; i++) {
    if (strcmp(m->name_of_rank[order[i - 1]], m->name_of_rank[order[i]]) != 0)
      continue;
    char esc[256], first[64];
    snprintf(first, sizeof first, "%d", m->line_of_rank[order[i - 1]]);
    map_error(m, m->line_of_rank[order[i]], "machine '%s' listed again (first at line %s)",
              nsmpi_escape(esc, sizeof esc, m->name_of_rank[order[i]]), first);
    break;
  }
  free(order);
}

static int own_name_from_file(NsmpiConfig *c, int world_rank, int world_size, char *name,
                              size_t name_len)
{
  char esc[NSMPI_MAX_PATH], why[256] = "";
  size_t got = 0;
  char *text = nsmpi_read_file(c->map_file, NSMPI_MAX_RANKMAP_BYTES, &got, why, sizeof why);
  if (text == NULL) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: cannot read the rank map %s: %s",
                       c->map_where, nsmpi_escape(esc, sizeof esc, c->map_file), why);
    return 0;
  }
  MapParse m = {.c = c, .path = c->map_file, .world_rank = world_rank, .world_size = world_size};
  m.name_of_rank = calloc((size_t)world_size, sizeof *m.name_of_rank);
  m.line_of_rank = calloc((size_t)world_size, sizeof *m.line_of_rank);
  int ok = 0;
  if (m.name_of_rank != NULL && m.line_of_rank != NULL) {
    nsmpi_each_line(text, got, map_line, map_bad_line, &m);
    if (!m.bad)
      check_duplicates(&m);
    if (!m.bad && m.name_of_rank[world_rank] != NULL) {
      if (strlen(m.name_of_rank[world_rank]) < name_len) {
        strcpy(name, m.name_of_rank[world_rank]);
        ok = 1;
      }
    }
    /* A rank the file leaves out plays no machine: the communicators it
     * is in fall through (membership), which comm.c reports. */
    if (!m.bad && m.name_of_rank[world_rank] == NULL) {
      name[0] = '\0';
      ok = 1;
    }
  } else {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: out of memory", c->map_where);
  }
  if (m.name_of_rank != NULL)
    for (int r = 0; r < world_size; r++)
      free(m.name_of_rank[r]);
  free(m.name_of_rank);
  free(m.line_of_rank);
  free(text);
  return ok;
}

int nsmpi_rankmap_own_name(NsmpiConfig *c, int world_rank, int world_size, char *name,
                           size_t name_len)
{
  if (c->map_mode == NSMPI_MAP_FILE)
    return own_name_from_file(c, world_rank, world_size, name, name_len);
  char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
  int len = 0;
  if (PMPI_Get_processor_name(host, &len) != MPI_SUCCESS || len <= 0 || (size_t)len >= name_len) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: MPI_Get_processor_name gave no name",
                       c->map_where);
    return 0;
  }
  host[len] = '\0';
  strcpy(name, host);
  return 1;
}

int nsmpi_rankmap_machine(const NsrRoutine *r, NsmpiMapMode mode, const char *name,
                          int world_rank)
{
  int p = nsr_routine_size(r);
  if (mode == NSMPI_MAP_ORDER)
    return world_rank < p ? world_rank : -1;
  if (name == NULL || name[0] == '\0')
    return -1;
  for (int m = 0; m < p; m++) {
    const char *machine = nsr_routine_machine(r, m);
    if (machine != NULL && strcmp(machine, name) == 0)
      return m;
  }
  return -1;
}
