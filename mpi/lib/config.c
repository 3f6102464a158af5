/* libnetsched-mpi's configuration reader (config.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* qsort_r, strdup, strtok_r when built by mpicc/smpicc alone */
#endif
#include "mpi/lib/config.h"
#include "mpi/lib/lines.h"
#include "mpi/lib/report.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const collective_names[] = {"alltoall", "allgather", "bcast"};
static const char *const collective_functions[] = {"MPI_Alltoall", "MPI_Allgather", "MPI_Bcast"};

int nsmpi_collective_parse(const char *name)
{
  for (int i = 0; i < 3; i++)
    if (strcmp(name, collective_names[i]) == 0)
      return i;
  return -1;
}

const char *nsmpi_collective_name(NsrCollective c)
{
  return (unsigned)c < 3 ? collective_names[c] : "?";
}

const char *nsmpi_collective_function(NsrCollective c)
{
  return (unsigned)c < 3 ? collective_functions[c] : "?";
}

/* The calls an error sends to the MPI library, said after the error. */
static void consequence(char *out, size_t len, unsigned collectives)
{
  if ((collectives & NSMPI_ALL_COLLECTIVES) == NSMPI_ALL_COLLECTIVES) {
    snprintf(out, len, "MPI_Alltoall, MPI_Allgather and MPI_Bcast use the MPI library's own");
    return;
  }
  size_t o = 0;
  for (int i = 0; i < 3; i++)
    if (collectives & (1u << i))
      o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%s", o > 0 ? " and " : "",
                            collective_functions[i]);
  snprintf(out + (o < len ? o : len - 1), o < len ? len - o : 1, " use%s the MPI library's own",
           strchr(out, ' ') != NULL ? "" : "s");
}

void nsmpi_config_error(NsmpiConfig *c, unsigned collectives, const char *fmt, ...)
{
  char msg[1024], then[160] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  c->broken |= collectives;
  c->errors++;
  if (collectives != 0)
    consequence(then, sizeof then, collectives);
  size_t used = strlen(c->errors_text);
  if (used < sizeof c->errors_text - 1)
    snprintf(c->errors_text + used, sizeof c->errors_text - used, "%s%s%s%s\n", msg,
             then[0] != '\0' ? " (" : "", then, then[0] != '\0' ? ")" : "");
}

int nsmpi_size_parse(const char *text, unsigned long long *out)
{
  if (!isdigit((unsigned char)text[0]))
    return 0;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno != 0)
    return 0;
  static const struct { const char *suffix; unsigned shift; } units[] = {
    {"", 0},     {"B", 0},   {"K", 10},  {"KiB", 10}, {"k", 10}, {"M", 20},
    {"MiB", 20}, {"G", 30},  {"GiB", 30}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strcmp(end, units[i].suffix) != 0)
      continue;
    if (v > (NSMPI_MAX_BYTES >> units[i].shift))
      return 0;
    *out = v << units[i].shift;
    return 1;
  }
  return 0;
}

/* "MIN-MAX", "MIN-" (no upper end) or "*" (every size). */
static int range_parse(const char *text, unsigned long long *min, unsigned long long *max)
{
  if (strcmp(text, "*") == 0) {
    *min = 0;
    *max = NSMPI_MAX_BYTES;
    return 1;
  }
  const char *dash = strchr(text, '-');
  if (dash == NULL || dash == text || dash - text >= 64)
    return 0;
  char low[64];
  memcpy(low, text, (size_t)(dash - text));
  low[dash - text] = '\0';
  if (!nsmpi_size_parse(low, min))
    return 0;
  if (dash[1] == '\0')
    *max = NSMPI_MAX_BYTES;
  else if (!nsmpi_size_parse(dash + 1, max))
    return 0;
  return *min <= *max;
}

/* Adds a table (a schedule or, with `candidate`, an adaptive candidate
 * serving every size); its index, or -1 having recorded the error. */
static int add_table(NsmpiConfig *c, const char *where, const char *coll, const char *range,
                     const char *path, const char *dir, int candidate)
{
  char esc[256];
  int k = nsmpi_collective_parse(coll);
  if (k < 0) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES,
                       "%s: unknown collective '%s' (alltoall, allgather or bcast)", where,
                       nsmpi_escape(esc, sizeof esc, coll));
    return -1;
  }
  unsigned bit = 1u << k;
  unsigned long long lo, hi;
  if (!range_parse(range, &lo, &hi)) {
    nsmpi_config_error(c, bit,
                       "%s: size range '%s' is not MIN-MAX, MIN- or * (sizes in bytes, "
                       "K, M or G; MIN <= MAX <= 1 TiB)",
                       where, nsmpi_escape(esc, sizeof esc, range));
    return -1;
  }
  if (path[0] == '\0') {
    nsmpi_config_error(c, bit, "%s: no table file named", where);
    return -1;
  }
  if (c->n_tables == NSMPI_MAX_TABLES) {
    nsmpi_config_error(c, bit, "%s: more than %d tables", where, NSMPI_MAX_TABLES);
    return -1;
  }
  NsmpiTableSpec *t = &c->tables[c->n_tables];
  int n;
  if (path[0] != '/' && dir != NULL)
    n = snprintf(t->path, sizeof t->path, "%s/%s", dir, path);
  else
    n = snprintf(t->path, sizeof t->path, "%s", path);
  if (n < 0 || (size_t)n >= sizeof t->path) {
    nsmpi_config_error(c, bit, "%s: table file name longer than %d bytes", where,
                       NSMPI_MAX_PATH - 1);
    return -1;
  }
  t->collective = (NsrCollective)k;
  t->min_bytes = lo;
  t->max_bytes = hi;
  t->candidate = candidate;
  snprintf(t->where, sizeof t->where, "%s", where);
  return c->n_tables++;
}

/* "candidate COLL GROUP native|PATH" (or an item of
 * NETSCHED_MPI_CANDIDATES): one more candidate of COLL's adaptive mode. */
static void add_candidate(NsmpiConfig *c, const char *where, const char *coll, const char *group,
                          const char *what, const char *dir)
{
  char esc[256];
  int k = nsmpi_collective_parse(coll);
  if (k < 0) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES,
                       "%s: unknown collective '%s' (alltoall or allgather)", where,
                       nsmpi_escape(esc, sizeof esc, coll));
    return;
  }
  unsigned bit = 1u << k;
  if (k == NSR_BCAST) {
    nsmpi_config_error(c, bit, "%s: the adaptive mode serves alltoall and allgather, not bcast",
                       where);
    return;
  }
  size_t glen = strlen(group);
  if (glen == 0 || glen >= NSMPI_MAX_GROUP_NAME) {
    nsmpi_config_error(c, bit, "%s: group name '%s' is not 1 to %d characters", where,
                       nsmpi_escape(esc, sizeof esc, group), NSMPI_MAX_GROUP_NAME - 1);
    return;
  }
  NsmpiAdaptiveSpec *a = &c->adaptive[k];
  if (a->n == NSMPI_MAX_CANDIDATES) {
    nsmpi_config_error(c, bit, "%s: more than %d %s candidates", where, NSMPI_MAX_CANDIDATES,
                       nsmpi_collective_name((NsrCollective)k));
    return;
  }
  int table = -1;
  if (strcmp(what, "native") != 0) {
    /* A word that is no file name is most likely a misspelt "native" or
     * an algorithm's name: say so rather than "No such file". */
    if (strchr(what, '.') == NULL && strchr(what, '/') == NULL) {
      nsmpi_config_error(c, bit,
                         "%s: unknown candidate '%s' (native or a routine table file; "
                         "write ./%s for a file name without a dot)",
                         where, nsmpi_escape(esc, sizeof esc, what),
                         nsmpi_escape(esc, sizeof esc, what));
      return;
    }
    table = add_table(c, where, coll, "*", what, dir, 1);
    if (table < 0)
      return;
  }
  int g = 0;
  while (g < a->n_groups && strcmp(a->group[g], group) != 0)
    g++;
  if (g == a->n_groups)
    snprintf(a->group[a->n_groups++], NSMPI_MAX_GROUP_NAME, "%s", group);
  if (a->n == 0)
    snprintf(a->where, sizeof a->where, "%s", where);
  a->cand[a->n].table = table;
  a->cand[a->n].group = g;
  a->n++;
}

/* "measure COLL N" or NETSCHED_MPI_MEASURE: invocations per candidate. */
static int measure_parse(const char *text, int *out)
{
  char *end;
  errno = 0;
  long v = isdigit((unsigned char)text[0]) ? strtol(text, &end, 10) : 0;
  if (v < 1 || v > NSMPI_MAX_MEASURE || errno != 0 || *end != '\0')
    return 0;
  *out = (int)v;
  return 1;
}

static void set_measure(NsmpiConfig *c, const char *where, const char *coll, const char *count)
{
  char esc[256];
  int k = nsmpi_collective_parse(coll);
  if (k < 0 || k == NSR_BCAST) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES,
                       "%s: unknown adaptive collective '%s' (alltoall or allgather)", where,
                       nsmpi_escape(esc, sizeof esc, coll));
    return;
  }
  if (!measure_parse(count, &c->adaptive[k].measure))
    nsmpi_config_error(c, 1u << k,
                       "%s: measure count '%s' is not a whole number from 1 to %d "
                       "(invocations measured per candidate)",
                       where, nsmpi_escape(esc, sizeof esc, count), NSMPI_MAX_MEASURE);
}

static void set_rankmap(NsmpiConfig *c, const char *where, const char *mode, const char *file,
                        const char *dir)
{
  char esc[256];
  snprintf(c->map_where, sizeof c->map_where, "%s", where);
  if (strcmp(mode, "order") == 0 || strcmp(mode, "name") == 0) {
    if (file != NULL && file[0] != '\0') {
      nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: rankmap %s takes no file", where, mode);
      return;
    }
    c->map_mode = mode[0] == 'o' ? NSMPI_MAP_ORDER : NSMPI_MAP_NAME;
    return;
  }
  if (strcmp(mode, "file") != 0) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES,
                       "%s: unknown rank mapping '%s' (order, name or file PATH)", where,
                       nsmpi_escape(esc, sizeof esc, mode));
    return;
  }
  if (file == NULL || file[0] == '\0') {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: rankmap file names no file", where);
    return;
  }
  int n = file[0] != '/' && dir != NULL
              ? snprintf(c->map_file, sizeof c->map_file, "%s/%s", dir, file)
              : snprintf(c->map_file, sizeof c->map_file, "%s", file);
  if (n < 0 || (size_t)n >= sizeof c->map_file) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: rank-map file name too long", where);
    return;
  }
  c->map_mode = NSMPI_MAP_FILE;
}

static int flag_parse(const char *text, int *out)
{
  if (strcmp(text, "0") == 0 || strcmp(text, "no") == 0) {
    *out = 0;
    return 1;
  }
  if (strcmp(text, "1") == 0 || strcmp(text, "yes") == 0) {
    *out = 1;
    return 1;
  }
  return 0;
}

static int on_error_parse(const char *text, int *abort_on_error)
{
  if (strcmp(text, "fallthrough") == 0) {
    *abort_on_error = 0;
    return 1;
  }
  if (strcmp(text, "abort") == 0) {
    *abort_on_error = 1;
    return 1;
  }
  return 0;
}

/* Splits `line` (modified) into at most `max` blank-separated words; the
 * last one takes the rest of the line (a file name may hold blanks).
 * Returns the count. */
static int split_words(char *line, char **words, int max)
{
  int n = 0;
  char *p = line;
  while (n < max) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\0')
      break;
    words[n++] = p;
    if (n == max)
      break;
    while (*p != '\0' && *p != ' ' && *p != '\t')
      p++;
    if (*p == '\0')
      break;
    *p++ = '\0';
  }
  if (n > 0) { /* trailing blanks of the last word */
    char *e = words[n - 1] + strlen(words[n - 1]);
    while (e > words[n - 1] && (e[-1] == ' ' || e[-1] == '\t'))
      *--e = '\0';
  }
  return n;
}

static void parse_line(NsmpiConfig *c, char *line, const char *where, const char *dir)
{
  char esc[256];
  char *w[5];
  int n = split_words(line, w, 4);
  if (n == 0 || w[0][0] == '#')
    return;
  if (strcmp(w[0], "schedule") == 0) {
    if (n < 4) {
      int k = n >= 2 ? nsmpi_collective_parse(w[1]) : -1;
      nsmpi_config_error(c, k >= 0 ? 1u << k : NSMPI_ALL_COLLECTIVES,
                         "%s: expected 'schedule COLLECTIVE MIN-MAX FILE'", where);
      return;
    }
    add_table(c, where, w[1], w[2], w[3], dir, 0);
  } else if (strcmp(w[0], "candidate") == 0) {
    if (n < 4) {
      int k = n >= 2 ? nsmpi_collective_parse(w[1]) : -1;
      nsmpi_config_error(c, k >= 0 ? 1u << k : NSMPI_ALL_COLLECTIVES,
                         "%s: expected 'candidate COLLECTIVE GROUP native|FILE'", where);
      return;
    }
    add_candidate(c, where, w[1], w[2], w[3], dir);
  } else if (strcmp(w[0], "measure") == 0) {
    if (n != 3) {
      int k = n >= 2 ? nsmpi_collective_parse(w[1]) : -1;
      nsmpi_config_error(c, k >= 0 ? 1u << k : NSMPI_ALL_COLLECTIVES,
                         "%s: expected 'measure COLLECTIVE N'", where);
      return;
    }
    set_measure(c, where, w[1], w[2]);
  } else if (strcmp(w[0], "rankmap") == 0) {
    if (n < 2) {
      nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES,
                         "%s: expected 'rankmap order', 'rankmap name' or 'rankmap file PATH'",
                         where);
      return;
    }
    if (n == 4) { /* "file PATH" where PATH holds a blank: join it back */
      w[3][-1] = ' ';
    }
    set_rankmap(c, where, w[1], n >= 3 ? w[2] : NULL, dir);
  } else if (strcmp(w[0], "verbose") == 0) {
    if (n != 2 || !flag_parse(w[1], &c->verbose))
      nsmpi_config_error(c, 0, "%s: expected 'verbose 0' or 'verbose 1'", where);
  } else if (strcmp(w[0], "on-error") == 0) {
    if (n != 2 || !on_error_parse(w[1], &c->abort_on_error))
      nsmpi_config_error(c, 0, "%s: expected 'on-error fallthrough' or 'on-error abort'", where);
  } else {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES,
                       "%s: unknown keyword '%s' (schedule, candidate, measure, rankmap, verbose, "
                       "on-error)", where,
                       nsmpi_escape(esc, sizeof esc, w[0]));
  }
}

typedef struct {
  NsmpiConfig *c;
  const char *path;
  char dir[NSMPI_MAX_PATH];
} FileParse;

static void file_line(void *data, char *text, int number)
{
  FileParse *f = data;
  char where[NSMPI_MAX_PATH + 64], esc[NSMPI_MAX_PATH];
  snprintf(where, sizeof where, "%s:%d", nsmpi_escape(esc, sizeof esc, f->path), number);
  parse_line(f->c, text, where, f->dir);
}

static void file_bad_line(void *data, int number, const char *what)
{
  FileParse *f = data;
  char esc[NSMPI_MAX_PATH];
  nsmpi_config_error(f->c, NSMPI_ALL_COLLECTIVES, "%s:%d: %s",
                     nsmpi_escape(esc, sizeof esc, f->path), number, what);
}

void nsmpi_config_parse_file(NsmpiConfig *c, const char *path)
{
  char why[256] = "", esc[NSMPI_MAX_PATH];
  size_t len = 0;
  char *text = nsmpi_read_file(path, NSMPI_MAX_CONFIG_BYTES, &len, why, sizeof why);
  if (text == NULL) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: cannot read the configuration: %s",
                       nsmpi_escape(esc, sizeof esc, path), why);
    return;
  }
  FileParse f = {.c = c, .path = path};
  /* Relative table and rank-map files are found beside the configuration. */
  const char *slash = strrchr(path, '/');
  if (slash == NULL)
    snprintf(f.dir, sizeof f.dir, ".");
  else if (slash == path)
    snprintf(f.dir, sizeof f.dir, "/");
  else
    snprintf(f.dir, sizeof f.dir, "%.*s", (int)(slash - path), path);
  nsmpi_each_line(text, len, file_line, file_bad_line, &f);
  free(text);
}

/* An environment list of COLLECTIVE:X:Y items, comma-separated
 * (NETSCHED_MPI_SCHEDULES: MIN-MAX:FILE; NETSCHED_MPI_CANDIDATES:
 * GROUP:native|FILE): each item's three fields to `add`, "VAR: item N" as
 * where. */
typedef void (*EnvItemFunc)(NsmpiConfig *c, const char *where, const char *coll, const char *x,
                            const char *y);

static void parse_env_list(NsmpiConfig *c, const char *var, const char *text, const char *syntax,
                           const char *none, EnvItemFunc add)
{
  char esc[256];
  if (strlen(text) > NSMPI_MAX_ENV) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: longer than %d bytes", var, NSMPI_MAX_ENV);
    return;
  }
  char *copy = strdup(text);
  if (copy == NULL) {
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: out of memory", var);
    return;
  }
  int item = 0;
  char *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
    char where[64];
    snprintf(where, sizeof where, "%s: item %d", var, ++item);
    char *c1 = strchr(tok, ':');
    char *c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
    if (c2 == NULL) {
      *(c1 != NULL ? c1 : tok + strlen(tok)) = '\0';
      int k = nsmpi_collective_parse(tok);
      nsmpi_config_error(c, k >= 0 ? 1u << k : NSMPI_ALL_COLLECTIVES,
                         "%s: '%s...' is not %s", where, nsmpi_escape(esc, sizeof esc, tok),
                         syntax);
      continue;
    }
    *c1 = '\0';
    *c2 = '\0';
    add(c, where, tok, c1 + 1, c2 + 1);
  }
  if (item == 0)
    nsmpi_config_error(c, NSMPI_ALL_COLLECTIVES, "%s: names no %s", var, none);
  free(copy);
}

static void env_table(NsmpiConfig *c, const char *where, const char *coll, const char *range,
                      const char *file)
{
  add_table(c, where, coll, range, file, NULL, 0);
}

static void env_candidate(NsmpiConfig *c, const char *where, const char *coll,
                          const char *group, const char *what)
{
  add_candidate(c, where, coll, group, what, NULL);
}

void nsmpi_config_parse_schedules(NsmpiConfig *c, const char *text)
{
  parse_env_list(c, "NETSCHED_MPI_SCHEDULES", text, "COLLECTIVE:MIN-MAX:FILE", "table",
                 env_table);
}

void nsmpi_config_parse_candidates(NsmpiConfig *c, const char *text)
{
  parse_env_list(c, "NETSCHED_MPI_CANDIDATES", text, "COLLECTIVE:GROUP:native|FILE",
                 "candidate", env_candidate);
}

/* A collective is tuned statically (schedule lines, STAGE-MPI's way) or
 * at run time (candidates, STAR-MPI's): both would leave it unclear which
 * serves a size, so both is an error. */
static void check_modes(NsmpiConfig *c)
{
  for (int k = 0; k < 3; k++) {
    if (c->adaptive[k].n == 0)
      continue;
    int tables = 0;
    for (int i = 0; i < c->adaptive[k].n; i++)
      tables += c->adaptive[k].cand[i].table >= 0;
    /* Ranks check they agree through the tables (comm.c): a list of
     * native only has nothing to compare anyway. */
    if (tables == 0 && !(c->broken & (1u << k)))
      nsmpi_config_error(c, 1u << k, "%s: %s's candidates name no routine table (native alone "
                         "leaves nothing to choose)",
                         c->adaptive[k].where, nsmpi_collective_name((NsrCollective)k));
    for (int i = 0; i < c->n_tables; i++)
      if (!c->tables[i].candidate && (int)c->tables[i].collective == k) {
        nsmpi_config_error(c, 1u << k,
                           "%s: %s has schedule tables and adaptive candidates (%s): "
                           "configure one or the other",
                           c->tables[i].where, nsmpi_collective_name((NsrCollective)k),
                           c->adaptive[k].where);
        break;
      }
  }
}

/* FNV-1a, over what decides a call, so ranks can check they agree. */
static uint32_t fnv(uint32_t h, const void *data, size_t len)
{
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

static uint32_t config_hash(const NsmpiConfig *c)
{
  uint32_t h = 2166136261u;
  for (int i = 0; i < c->n_tables; i++) {
    const NsmpiTableSpec *t = &c->tables[i];
    h = fnv(h, &t->collective, sizeof t->collective);
    h = fnv(h, &t->min_bytes, sizeof t->min_bytes);
    h = fnv(h, &t->max_bytes, sizeof t->max_bytes);
    h = fnv(h, &t->candidate, sizeof t->candidate);
  }
  for (int k = 0; k < 3; k++) {
    const NsmpiAdaptiveSpec *a = &c->adaptive[k];
    if (a->n == 0) /* a measure count without candidates decides nothing */
      continue;
    h = fnv(h, &a->n, sizeof a->n);
    h = fnv(h, &a->measure, sizeof a->measure);
    for (int i = 0; i < a->n; i++) {
      h = fnv(h, &a->cand[i].table, sizeof a->cand[i].table);
      h = fnv(h, &a->cand[i].group, sizeof a->cand[i].group);
    }
  }
  h = fnv(h, &c->map_mode, sizeof c->map_mode);
  return h; /* not the broken collectives: a file missing on one node is said as such (comm.c) */
}

void nsmpi_config_read(NsmpiConfig *c)
{
  memset(c, 0, sizeof *c);
  c->map_mode = NSMPI_MAP_ORDER;
  snprintf(c->map_where, sizeof c->map_where, "the default rank mapping (order)");
  const char *file = getenv("NETSCHED_MPI_CONFIG");
  const char *schedules = getenv("NETSCHED_MPI_SCHEDULES");
  const char *rankmap = getenv("NETSCHED_MPI_RANKMAP");
  const char *verbose = getenv("NETSCHED_MPI_VERBOSE");
  const char *on_error = getenv("NETSCHED_MPI_ON_ERROR");
  const char *candidates = getenv("NETSCHED_MPI_CANDIDATES");
  const char *measure = getenv("NETSCHED_MPI_MEASURE");
  for (int k = 0; k < 3; k++)
    c->adaptive[k].measure = NSMPI_DEFAULT_MEASURE;
  c->present = (file != NULL && file[0] != '\0') || (schedules != NULL && schedules[0] != '\0') ||
               (candidates != NULL && candidates[0] != '\0');
  char esc[256];
  if (on_error != NULL && on_error[0] != '\0' && !on_error_parse(on_error, &c->abort_on_error))
    nsmpi_config_error(c, 0, "NETSCHED_MPI_ON_ERROR: '%s' is not fallthrough or abort",
                       nsmpi_escape(esc, sizeof esc, on_error));
  if (file != NULL && file[0] != '\0')
    nsmpi_config_parse_file(c, file);
  if (schedules != NULL && schedules[0] != '\0')
    nsmpi_config_parse_schedules(c, schedules);
  if (candidates != NULL && candidates[0] != '\0')
    nsmpi_config_parse_candidates(c, candidates);
  if (measure != NULL && measure[0] != '\0') {
    int m;
    if (measure_parse(measure, &m))
      for (int k = 0; k < 3; k++)
        c->adaptive[k].measure = m;
    else /* concerns the adaptive collectives only; said and ignored without them */
      nsmpi_config_error(c, (c->adaptive[NSR_ALLTOALL].n > 0 ? 1u << NSR_ALLTOALL : 0) |
                                (c->adaptive[NSR_ALLGATHER].n > 0 ? 1u << NSR_ALLGATHER : 0),
                         "NETSCHED_MPI_MEASURE: '%s' is not a whole number from 1 to %d "
                         "(invocations measured per candidate)",
                         nsmpi_escape(esc, sizeof esc, measure), NSMPI_MAX_MEASURE);
  }
  check_modes(c);
  if (rankmap != NULL && rankmap[0] != '\0') {
    if (strncmp(rankmap, "file:", 5) == 0)
      set_rankmap(c, "NETSCHED_MPI_RANKMAP", "file", rankmap + 5, NULL);
    else
      set_rankmap(c, "NETSCHED_MPI_RANKMAP", rankmap, NULL, NULL);
  }
  if (verbose != NULL && verbose[0] != '\0' && !flag_parse(verbose, &c->verbose))
    nsmpi_config_error(c, 0, "NETSCHED_MPI_VERBOSE: '%s' is not 0 or 1",
                       nsmpi_escape(esc, sizeof esc, verbose));
  /* The environment's on-error wins over the file's. */
  if (on_error != NULL && on_error[0] != '\0')
    on_error_parse(on_error, &c->abort_on_error);
  c->hash = config_hash(c);
}
