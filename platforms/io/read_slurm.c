/* netsched — reader of Slurm's topology.conf (topology/tree plugin).
 *
 *   SwitchName=s0 Nodes=n[0-7]
 *   SwitchName=s1 Nodes=n[8-15] LinkSpeed=100
 *   SwitchName=root Switches=s[0-1]
 *
 * Lexical rules follow Slurm's configuration parser: parameter names are
 * case insensitive; an unescaped '#' starts a comment; a line ending in an
 * odd number of backslashes (after the comment is removed, trailing blanks
 * ignored) continues on the next line; then "\x" stands for "x". Values
 * may be double-quoted. Names are case sensitive, Nodes= and Switches= are
 * hostlist expressions.
 *
 * Mapping (docs/topology-format.md, section "Slurm"): every SwitchName is a
 * switch, every name in Nodes= a machine linked to that switch, every name
 * in Switches= a child switch linked to it. Switches are added in the order
 * of their SwitchName lines, then machines in the order they are listed.
 * LinkSpeed is checked (a whole number, as Slurm requires). Slurm defines
 * it as a unitless relative value, 1 when absent, and netsched never
 * guesses units: with a link unit (`-f slurm:1Gbps`) the links a line
 * declares — to its Nodes and its Switches — get LinkSpeed × unit (1 × unit
 * without LinkSpeed); without one every link gets NS_DEFAULT_BANDWIDTH.
 * Either way the speed taken by default is announced through `warn`.
 * Latency is always NS_DEFAULT_LATENCY.
 *
 * A switch may be listed under several switches (the leaf/spine files of
 * slurmibtopology.sh): the file is then a graph, routed `shortest`. A
 * directed cycle in the Switches= relation (s0 lists s1, s1 lists s0) is
 * refused, as is a node under two switches. Switches that form several
 * components (sites listing only their leaf switches) are refused unless
 * a core switch is assumed (`core=SPEED`): it joins every top-level switch
 * (one listed in nobody's Switches=), with the assumption announced.
 *
 * A UTF-8 byte-order mark may start the file; anywhere else (outside
 * comments) it is named in an error. At most NS_HOSTLIST_MAX switches and
 * as many names in Nodes= and Switches= together.
 */
#include "platforms/model/error.h"
#include "platforms/io/hostlist_internal.h"
#include "platforms/io/read_options.h"
#include "platforms/io/topology_input_internal.h"
#include "platforms/io/topology_io.h"
#include "platforms/model/units.h"

#include <string.h>

typedef struct {
  int line;              /* first physical line of the logical line */
  guint64 speed;         /* LinkSpeed, 0 if none */
  char *name;            /* SwitchName */
  char **nodes;          /* expansion of Nodes=, or NULL */
  char **children;       /* expansion of Switches=, or NULL */
} SwitchLine;

typedef struct {
  const char *source;
  int line;
  GError **error;
  GArray *switches;      /* SwitchLine */
  GHashTable *switch_at; /* name -> index in switches + 1 */
  guint n_names;         /* nodes + children expanded so far */
  double link_unit;      /* bit/s of LinkSpeed=1; 0: LinkSpeed ignored */
  double core_bandwidth; /* > 0: assume a core switch joining the top-level switches */
  int ignored_speed_line;/* first LinkSpeed ignored (no unit), for the warning */
  guint lines_without_speed; /* SwitchName lines without LinkSpeed */
  NsWarnFunc warn;       /* announcements (defaults taken, core assumed) */
  void *warn_data;
} Parser;

static void switch_line_clear(gpointer p)
{
  SwitchLine *s = p;
  g_free(s->name);
  g_strfreev(s->nodes);
  g_strfreev(s->children);
}

static gboolean fail(Parser *P, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(Parser *P, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ns_set_error_atv(P->error, NS_ERROR_INPUT, P->source, P->line, fmt, ap);
  va_end(ap);
  return FALSE;
}

/* A byte-order mark at `bom` in the logical line `s`: name the blank-
 * separated word that holds it, without it. */
static gboolean fail_bom(Parser *P, const char *s, const char *bom)
{
  const char *start = bom, *end = bom;
  while (start > s && start[-1] != ' ')
    start--;
  while (*end != '\0' && *end != ' ')
    end++;
  GString *word = g_string_new(NULL);
  for (const char *p = start; p < end;) {
    if (end - p >= 3 && memcmp(p, NS_INPUT_BOM, 3) == 0) {
      p += 3;
      continue;
    }
    g_string_append_c(word, *p++);
  }
  if (word->len == 0)
    fail(P, "stray byte-order mark (U+FEFF): one is allowed only at the very start of the "
         "file");
  else
    fail(P, "a byte-order mark (U+FEFF) inside '%s': one is allowed only at the very start "
         "of the file", word->str);
  g_string_free(word, TRUE);
  return FALSE;
}

/* Length of `s[0..len)` once an unescaped '#' comment is cut off. */
static gsize strip_comment(const char *s, gsize len)
{
  gsize backslashes = 0;
  for (gsize i = 0; i < len; i++) {
    if (s[i] == '#' && backslashes % 2 == 0)
      return i;
    backslashes = s[i] == '\\' ? backslashes + 1 : 0;
  }
  return len;
}

/* If the (comment-free) line ends in an odd number of backslashes, possibly
 * followed by blanks, returns TRUE and the length without them. */
static gboolean continues(const char *s, gsize len, gsize *keep)
{
  gsize end = len;
  while (end > 0 && g_ascii_isspace(s[end - 1]))
    end--;
  gsize bs = 0;
  while (bs < end && s[end - 1 - bs] == '\\')
    bs++;
  if (bs % 2 == 1) {
    *keep = end - 1;
    return TRUE;
  }
  return FALSE;
}

/* Removes Slurm escapes in place: "\x" -> "x". */
static void strip_escapes(GString *s)
{
  gsize j = 0;
  for (gsize i = 0; i < s->len; i++) {
    if (s->str[i] == '\\' && i + 1 < s->len)
      i++;
    s->str[j++] = s->str[i];
  }
  g_string_truncate(s, j);
}

static gboolean is_key_char(char c)
{
  return g_ascii_isalnum(c) || c == '_' || c == '.';
}

static char **expand(Parser *P, const char *key, const char *value)
{
  char *why = NULL;
  char **v = ns_hostlist_expand(value, &why);
  if (v == NULL) {
    fail(P, "%s=: %s", key, why);
    g_free(why);
    return NULL;
  }
  guint n = g_strv_length(v);
  if (P->n_names + n > NS_HOSTLIST_MAX) {
    g_strfreev(v);
    fail(P, "more than %d names in the file", NS_HOSTLIST_MAX);
    return NULL;
  }
  P->n_names += n;
  return v;
}

/* LinkSpeed: a whole number (Slurm reads it as a 32-bit unsigned). */
static gboolean valid_link_speed(const char *v)
{
  gsize n = strlen(v);
  if (n == 0 || n > 10)
    return FALSE;
  guint64 x = 0;
  for (gsize i = 0; i < n; i++) {
    if (!g_ascii_isdigit(v[i]))
      return FALSE;
    x = x * 10 + (guint64)(v[i] - '0');
  }
  return x <= G_MAXUINT32;
}

/* Parses one logical line of Key=Value pairs. */
static gboolean parse_logical(Parser *P, const char *s)
{
  char *name = NULL, *nodes = NULL, *children = NULL, *speed = NULL;
  const char *p = s;
  gboolean ok = TRUE;
  while (ok) {
    while (g_ascii_isspace(*p))
      p++;
    if (*p == '\0')
      break;
    const char *k = p;
    while (is_key_char(*p))
      p++;
    gsize klen = (gsize)(p - k);
    const char *q = p;
    while (g_ascii_isspace(*q))
      q++;
    if (klen == 0 || *q != '=') {
      const char *e = k;
      while (*e != '\0' && !g_ascii_isspace(*e))
        e++;
      ok = fail(P, "expected Key=Value, got '%.*s'", (int)(e - k), k);
      break;
    }
    char *key = g_strndup(k, klen);
    p = q + 1;
    while (*p == ' ' || *p == '\t')
      p++;
    char *value;
    if (*p == '"') {
      const char *close = strchr(p + 1, '"');
      if (close == NULL) {
        ok = fail(P, "unterminated quoted value for '%s'", key);
        g_free(key);
        break;
      }
      value = g_strndup(p + 1, (gsize)(close - p - 1));
      p = close + 1;
    } else {
      const char *v = p;
      while (*p != '\0' && !g_ascii_isspace(*p))
        p++;
      value = g_strndup(v, (gsize)(p - v));
    }
    char **slot = NULL;
    if (g_ascii_strcasecmp(key, "SwitchName") == 0)
      slot = &name;
    else if (g_ascii_strcasecmp(key, "Nodes") == 0)
      slot = &nodes;
    else if (g_ascii_strcasecmp(key, "Switches") == 0)
      slot = &children;
    else if (g_ascii_strcasecmp(key, "LinkSpeed") == 0)
      slot = &speed;
    if (slot == NULL) {
      if (g_ascii_strncasecmp(key, "Block", 5) == 0)
        ok = fail(P, "'%s' belongs to the topology/block plugin, which netsched does not "
                  "read (only topology/tree: SwitchName, Switches, Nodes, LinkSpeed)", key);
      else
        ok = fail(P, "unknown key '%s' (topology.conf for topology/tree knows SwitchName, "
                  "Switches, Nodes and LinkSpeed)", key);
    } else if (*slot != NULL) {
      ok = fail(P, "'%s' given twice on the line", key);
    } else if (*value == '\0') {
      ok = fail(P, "missing value for '%s'", key);
    } else {
      *slot = value;
      value = NULL;
    }
    g_free(value);
    g_free(key);
  }

  if (ok && name == NULL)
    ok = fail(P, "missing SwitchName= (every line of topology.conf defines one switch)");
  if (ok && speed != NULL && !valid_link_speed(speed))
    ok = fail(P, "invalid LinkSpeed '%s' (expected a whole number: Slurm link speeds are "
              "unitless; give their unit with -f slurm:UNIT, e.g. -f slurm:1Mbps)", speed);
  SwitchLine sl = {.line = P->line};
  if (ok && speed == NULL)
    P->lines_without_speed++;
  if (ok && speed != NULL) {
    sl.speed = g_ascii_strtoull(speed, NULL, 10);
    if (sl.speed == 0)
      ok = fail(P, "LinkSpeed=0: a link needs a positive speed");
    else if (P->link_unit <= 0 && P->ignored_speed_line == 0)
      P->ignored_speed_line = P->line;
  }
  /* SwitchName is one name; a hostlist there could not be expanded into
   * several switches by Slurm either. */
  if (ok && strpbrk(name, "[],") != NULL)
    ok = fail(P, "SwitchName must be one switch name, not a host list: '%s'", name);
  if (ok)
    sl.name = g_strdup(name);
  if (ok) {
    gpointer prev = g_hash_table_lookup(P->switch_at, sl.name);
    if (prev != NULL)
      ok = fail(P, "switch '%s' defined twice (first at line %d)", sl.name,
                g_array_index(P->switches, SwitchLine, GPOINTER_TO_UINT(prev) - 1).line);
  }
  if (ok && nodes != NULL)
    ok = (sl.nodes = expand(P, "Nodes", nodes)) != NULL;
  if (ok && children != NULL)
    ok = (sl.children = expand(P, "Switches", children)) != NULL;
  if (ok && P->switches->len >= NS_HOSTLIST_MAX)
    ok = fail(P, "more than %d switches in the file", NS_HOSTLIST_MAX);
  if (ok) {
    g_array_append_val(P->switches, sl);
    SwitchLine *kept = &g_array_index(P->switches, SwitchLine, P->switches->len - 1);
    g_hash_table_insert(P->switch_at, kept->name, GUINT_TO_POINTER(P->switches->len));
  } else {
    switch_line_clear(&sl);
  }
  g_free(name);
  g_free(nodes);
  g_free(children);
  g_free(speed);
  return ok;
}

/* Index of the switch called `name`, or -1. */
static int switch_index(const Parser *P, const char *name)
{
  return (int)GPOINTER_TO_UINT(g_hash_table_lookup(P->switch_at, name)) - 1;
}


/* Refuses a directed cycle in the Switches= relation ("s0 lists s1, s1
 * lists s0"): a switch below itself. Iterative depth-first search (files
 * list up to NS_HOSTLIST_MAX switches); the message names the cycle, at
 * the line of the switch that closes it. Undefined names are left to
 * build(). O(switches + names in Switches=). */
static gboolean check_cycles(Parser *P)
{
  GArray *sw = P->switches;
  guint n = sw->len;
  guint8 *state = g_new0(guint8, n); /* 0 new, 1 on the path, 2 done */
  int *path = g_new(int, n), *next = g_new(int, n);
  gboolean ok = TRUE;
  for (guint root = 0; ok && root < n; root++) {
    if (state[root] != 0)
      continue;
    int depth = 0;
    path[0] = (int)root;
    next[0] = 0;
    state[root] = 1;
    while (ok && depth >= 0) {
      const SwitchLine *u = &g_array_index(sw, SwitchLine, path[depth]);
      const char *c = u->children != NULL ? u->children[next[depth]] : NULL;
      if (c == NULL) {
        state[path[depth--]] = 2;
        continue;
      }
      next[depth]++;
      int v = switch_index(P, c);
      if (v < 0 || v == path[depth] || state[v] == 2)
        continue; /* undefined or itself: build() says so */
      if (state[v] == 1) {
        GString *cycle = g_string_new(c);
        int from = depth;
        while (path[from] != v)
          from--;
        for (int k = from + 1; k <= depth && cycle->len < 400; k++)
          g_string_append_printf(cycle, " -> %s",
                                 g_array_index(sw, SwitchLine, path[k]).name);
        g_string_append_printf(cycle, " -> %s", c);
        P->line = u->line;
        ok = fail(P, "cycle in Switches=: %s (switch '%s' lists '%s', which is above it; "
                  "Switches= lists the switches below a switch)", cycle->str, u->name, c);
        g_string_free(cycle, TRUE);
        break;
      }
      state[v] = 1;
      path[++depth] = v;
      next[depth] = 0;
    }
  }
  g_free(state);
  g_free(path);
  g_free(next);
  return ok;
}

/* Union-find over switches, for the components of the Switches= relation. */
static int find_set(int *up, int x)
{
  while (up[x] != x)
    x = up[x] = up[up[x]];
  return x;
}

/* The switches listed in nobody's Switches= (top level), and whether the
 * switches form more than one component. */
static gboolean split_switches(const Parser *P, const guint *n_parents, GPtrArray *top)
{
  GArray *sw = P->switches;
  int *up = g_new(int, sw->len);
  int components = 0;
  for (guint i = 0; i < sw->len; i++) {
    const SwitchLine *s = &g_array_index(sw, SwitchLine, i);
    up[i] = (int)i;
    /* A switch with nothing below or above it is pruned by finalize. */
    components += s->nodes != NULL || s->children != NULL || n_parents[i] > 0;
  }
  for (guint i = 0; i < sw->len; i++) {
    const SwitchLine *s = &g_array_index(sw, SwitchLine, i);
    for (guint j = 0; s->children != NULL && s->children[j] != NULL; j++) {
      int v = switch_index(P, s->children[j]);
      int a = find_set(up, (int)i), b = v >= 0 ? find_set(up, v) : a;
      if (a != b) {
        up[a] = b;
        components--;
      }
    }
  }
  for (guint i = 0; i < sw->len; i++) {
    const SwitchLine *s = &g_array_index(sw, SwitchLine, i);
    if (n_parents[i] == 0 && (s->nodes != NULL || s->children != NULL))
      g_ptr_array_add(top, s->name);
  }
  g_free(up);
  return components > 1;
}

/* "s0, s1, s2" or "s0, s1, ... (12 switches)". */
static char *name_list(GPtrArray *names)
{
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < names->len && i < 4; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", (const char *)names->pdata[i]);
  if (names->len > 4)
    g_string_append_printf(s, ", ... (%u switches)", names->len);
  return g_string_free(s, FALSE);
}

/* A core switch joining the top-level switches (`core=SPEED`), named
 * "core" (or "core1", "core2", ... when taken), when the switches form
 * several components; otherwise a refusal that says how to get one. */
static gboolean join_components(Parser *P, NsTopology *topo, const guint *n_parents)
{
  GPtrArray *top = g_ptr_array_new();
  gboolean split = split_switches(P, n_parents, top);
  gboolean ok = TRUE;
  g_autofree char *list = name_list(top);
  g_autofree char *speed = P->core_bandwidth > 0 ? ns_format_bandwidth(P->core_bandwidth)
                                                 : NULL;
  if (!split && speed != NULL) {
    ns_input_warnf(P->warn, P->warn_data, "%s: core=%s not used: the switches are already connected", P->source, speed);
  } else if (split && speed == NULL) {
    P->line = 0;
    ok = fail(P, "the switches are not connected: %u top-level switches (%s) and no switch "
              "above them; Slurm schedules within each, netsched needs one network: give "
              "-f slurm:UNIT:core=SPEED to assume a core switch joining them", top->len, list);
  } else if (split) {
    g_autofree char *name = g_strdup("core");
    for (int k = 1; ns_topology_find_node(topo, name) >= 0; k++) {
      g_free(name);
      name = g_strdup_printf("core%d", k);
    }
    int core = ns_topology_add_node(topo, name, NS_NODE_SWITCH, 0, P->error);
    ok = core >= 0;
    for (guint i = 0; ok && i < top->len; i++)
      ok = ns_topology_add_link(topo, ns_topology_find_node(topo, top->pdata[i]), core,
                                P->core_bandwidth, NS_DEFAULT_LATENCY, 0, P->error) >= 0;
    if (ok)
      ns_input_warnf(P->warn, P->warn_data, "%s: assumed a core switch '%s' joining the %u top-level switches (%s) with "
            "%s links (core=%s)", P->source, name, top->len, list, speed, speed);
  }
  g_ptr_array_free(top, TRUE);
  return ok;
}

/* Builds the topology from the parsed lines. */
static gboolean build(Parser *P, NsTopology *topo)
{
  GArray *sw = P->switches;
  gboolean ok = TRUE;
  int *switch_id = g_new(int, sw->len + 1);
  guint *n_parents = g_new0(guint, sw->len + 1);
  /* Line (index + 1) of the switch that lists each machine. */
  GHashTable *machine_parent = g_hash_table_new(g_str_hash, g_str_equal);
  GHashTable *listed = g_hash_table_new(g_str_hash, g_str_equal); /* on the current line */
  gboolean graph = FALSE;

  for (guint i = 0; ok && i < sw->len; i++) {
    const SwitchLine *s = &g_array_index(sw, SwitchLine, i);
    P->line = s->line;
    switch_id[i] = ns_topology_add_node(topo, s->name, NS_NODE_SWITCH, s->line, P->error);
    ok = switch_id[i] >= 0;
  }
  for (guint i = 0; ok && i < sw->len; i++) {
    const SwitchLine *s = &g_array_index(sw, SwitchLine, i);
    P->line = s->line;
    for (guint j = 0; ok && s->nodes != NULL && s->nodes[j] != NULL; j++) {
      const char *m = s->nodes[j];
      gpointer prev = g_hash_table_lookup(machine_parent, m);
      if (prev != NULL) {
        const SwitchLine *o = &g_array_index(sw, SwitchLine, GPOINTER_TO_UINT(prev) - 1);
        ok = o == s ? fail(P, "node '%s' listed twice in Nodes= of switch '%s'", m, s->name)
                    : fail(P, "node '%s' is under two switches: '%s' (line %d) and '%s' (a "
                           "machine has one link to its switch in a topology.conf; keep it "
                           "under one switch, or convert the file to the native format "
                           "(netsched topo convert) and give the machine its links there)",
                           m, o->name, o->line, s->name);
      } else if (g_hash_table_contains(P->switch_at, m)) {
        ok = fail(P, "'%s' in Nodes= is a switch (SwitchName=%s); list it in Switches=", m, m);
      } else {
        g_hash_table_insert(machine_parent, (gpointer)m, GUINT_TO_POINTER(i + 1));
        ok = ns_topology_add_node(topo, m, NS_NODE_MACHINE, s->line, P->error) >= 0;
      }
    }
  }
  for (guint i = 0; ok && i < sw->len; i++) {
    const SwitchLine *s = &g_array_index(sw, SwitchLine, i);
    P->line = s->line;
    /* Slurm takes LinkSpeed=1 when a line gives none. */
    double bandwidth = P->link_unit > 0 ? (double)MAX(s->speed, 1) * P->link_unit
                                        : NS_DEFAULT_BANDWIDTH;
    for (guint j = 0; ok && s->nodes != NULL && s->nodes[j] != NULL; j++)
      ok = ns_topology_add_link(topo, ns_topology_find_node(topo, s->nodes[j]), switch_id[i],
                                bandwidth, NS_DEFAULT_LATENCY, s->line, P->error) >= 0;
    g_hash_table_remove_all(listed);
    for (guint j = 0; ok && s->children != NULL && s->children[j] != NULL; j++) {
      const char *c = s->children[j];
      int at = switch_index(P, c);
      if (at < 0) {
        ok = g_hash_table_contains(machine_parent, c)
                 ? fail(P, "'%s' in Switches= of switch '%s' is a node, not a switch", c,
                        s->name)
                 : fail(P, "switch '%s' in Switches= of switch '%s' is not defined (no "
                        "SwitchName=%s line)", c, s->name, c);
      } else if ((guint)at == i) {
        ok = fail(P, "switch '%s' lists itself in Switches=", c);
      } else if (!g_hash_table_add(listed, (gpointer)c)) {
        ok = fail(P, "switch '%s' listed twice in Switches= of switch '%s'", c, s->name);
      } else {
        graph |= ++n_parents[at] > 1; /* leaf/spine: a switch under several */
        ok = ns_topology_add_link(topo, switch_id[at], switch_id[i], bandwidth,
                                  NS_DEFAULT_LATENCY, s->line, P->error) >= 0;
      }
    }
  }
  if (ok)
    ok = join_components(P, topo, n_parents);
  if (ok && graph) {
    /* A switch under several switches (slurmibtopology.sh's leaf/spine):
     * a graph with several equal-cost paths, spread over them as a
     * fabric's ECMP does. */
    ns_topology_set_routing(topo, NS_ROUTING_ECMP, 0);
  }
  g_hash_table_unref(machine_parent);
  g_hash_table_unref(listed);
  g_free(n_parents);
  g_free(switch_id);
  return ok;
}

/**
 * \function ns_topology_parse_slurm
 * \brief Reads a Slurm topology.conf in memory, LinkSpeed ignored.
 *
 * ns_topology_parse_slurm_with() with no option.
 *
 * \param source Name used in messages (NULL: "<topology.conf>").
 * \param text, len The file (need not be NUL-terminated).
 * \param warn, warn_data Receive non-fatal findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT "source:line: what is wrong".
 * \complexity O(len + expanded names + switches).
 * \source Slurm's topology.conf(5); docs/topology-format.md.
 */
NsTopology *ns_topology_parse_slurm(const char *source, const char *text, gsize len,
                                    NsWarnFunc warn, void *warn_data, GError **error)
{
  return ns_topology_parse_slurm_unit(source, text, len, 0, warn, warn_data, error);
}

/**
 * \function ns_topology_parse_slurm_unit
 * \brief Reads a Slurm topology.conf whose LinkSpeed=1 is `link_unit` bit/s.
 *
 * \param source Name used in messages (NULL: "<topology.conf>").
 * \param text, len The file (need not be NUL-terminated).
 * \param link_unit Bit/s of LinkSpeed=1; 0 ignores LinkSpeed (a warning).
 * \param warn, warn_data Receive non-fatal findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT "source:line: what is wrong".
 * \complexity O(len + expanded names + switches).
 * \source Slurm's topology.conf(5); docs/topology-format.md, "LinkSpeed
 *         needs a unit".
 */
NsTopology *ns_topology_parse_slurm_unit(const char *source, const char *text, gsize len,
                                         double link_unit, NsWarnFunc warn, void *warn_data,
                                         GError **error)
{
  NsReadOptions o;
  ns_read_options_init(&o);
  o.link_unit = link_unit;
  return ns_topology_parse_slurm_with(source, text, len, &o, warn, warn_data, error);
}

/* The speed the links got without being told, said once. */
static void announce_speeds(const Parser *P)
{
  guint n = P->switches->len;
  if (P->link_unit <= 0 && P->ignored_speed_line > 0) {
    ns_input_warnf(P->warn, P->warn_data, "%s:%d: LinkSpeed ignored: Slurm's link speeds are unitless, so every link gets "
          "100Mbps; give their unit with -f slurm:UNIT (e.g. -f slurm:1Mbps reads "
          "LinkSpeed=100 as 100 Mbit/s)", P->source, P->ignored_speed_line);
  } else if (P->link_unit <= 0) {
    ns_input_warnf(P->warn, P->warn_data, "%s: no link speed given: every link gets the default 100Mbps; give the speed "
          "with -f slurm:SPEED (e.g. -f slurm:1Gbps)", P->source);
  } else if (P->lines_without_speed > 0) {
    g_autofree char *unit = ns_format_bandwidth(P->link_unit);
    if (P->lines_without_speed == n)
      ns_input_warnf(P->warn, P->warn_data, "%s: no LinkSpeed in the file: every link gets %s (-f slurm:%s)", P->source,
            unit, unit);
    else
      ns_input_warnf(P->warn, P->warn_data, "%s: %u of %u lines have no LinkSpeed: their links get %s (Slurm's default "
            "LinkSpeed=1 times the unit %s)", P->source, P->lines_without_speed, n, unit, unit);
  }
}

/**
 * \function ns_topology_parse_slurm_with
 * \brief Reads a Slurm topology.conf (topology/tree) in memory.
 *
 * \param source Name used in messages (NULL: "<topology.conf>").
 * \param text, len The file (need not be NUL-terminated).
 * \param o `link_unit` (bit/s of LinkSpeed=1, 0 for none) and
 *        `core_bandwidth` (> 0: a core switch joins the top-level switches
 *        when they are not connected); the other fields are ignored.
 * \param warn, warn_data Receive the speeds taken by default, the core
 *        assumed and finalize's findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL on error.
 * \errors NS_ERROR_INPUT "source:line: what is wrong".
 * \complexity O(len + expanded names + switches).
 * \source Slurm's topology.conf(5) (topology/tree); docs/topology-format.md.
 */
NsTopology *ns_topology_parse_slurm_with(const char *source, const char *text, gsize len,
                                         const NsReadOptions *o, NsWarnFunc warn,
                                         void *warn_data, GError **error)
{
  g_return_val_if_fail(error == NULL || *error == NULL, NULL);
  if (source == NULL)
    source = "<topology.conf>";
  if (text == NULL) {
    text = "";
    len = 0;
  }
  if (len >= 3 && memcmp(text, NS_INPUT_BOM, 3) == 0) {
    text += 3; /* a byte-order mark at the very start of the file */
    len -= 3;
  }
  GError *local = NULL;
  Parser P = {
    .source = source,
    .error = error != NULL ? error : &local,
    .switches = g_array_new(FALSE, TRUE, sizeof(SwitchLine)),
    .switch_at = g_hash_table_new(g_str_hash, g_str_equal),
    .link_unit = o->link_unit,
    .core_bandwidth = o->core_bandwidth,
    .warn = warn,
    .warn_data = warn_data,
  };
  g_array_set_clear_func(P.switches, switch_line_clear);

  gboolean ok = TRUE;
  if (ns_input_utf16_bom(text, len)) {
    P.line = 1;
    ok = fail(&P, "the file is UTF-16 (it starts with the byte-order mark %02X %02X): save it "
              "as UTF-8", (guchar)text[0], (guchar)text[1]);
  } else if (memchr(text, '\0', len) != NULL || !g_utf8_validate(text, (gssize)len, NULL)) {
    /* Find the line for the message. */
    const char *end = NULL;
    if (memchr(text, '\0', len) == NULL)
      g_utf8_validate(text, (gssize)len, &end);
    else
      end = memchr(text, '\0', len);
    P.line = 1;
    for (const char *c = text; c < end; c++)
      P.line += *c == '\n';
    ok = fail(&P, *end == '\0' ? "NUL byte in the line" : "the line is not valid UTF-8");
  }

  GString *logical = g_string_new(NULL);
  int physical = 0, start_line = 0;
  gsize pos = 0;
  while (ok && pos < len) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    gsize end = nl != NULL ? (gsize)(nl - text) : len;
    const char *s = text + pos;
    gsize n = end - pos;
    pos = end + 1;
    if (physical == G_MAXINT)
      break;
    physical++;
    if (logical->len == 0)
      start_line = physical;
    n = strip_comment(s, n);
    gsize keep;
    gboolean more = continues(s, n, &keep);
    g_string_append_len(logical, s, (gssize)(more ? keep : n));
    if (more && pos < len) {
      g_string_append_c(logical, ' ');
      continue;
    }
    strip_escapes(logical);
    for (gsize i = 0; i < logical->len; i++)
      if (logical->str[i] == '\r' || logical->str[i] == '\t')
        logical->str[i] = ' ';
    P.line = start_line;
    for (gsize i = 0; ok && i < logical->len; i++)
      if ((guchar)logical->str[i] < 0x20 || logical->str[i] == 0x7f)
        ok = fail(&P, "control character 0x%02x in the line", (guchar)logical->str[i]);
    const char *bom = ok ? strstr(logical->str, NS_INPUT_BOM) : NULL;
    if (bom != NULL)
      ok = fail_bom(&P, logical->str, bom);
    gboolean blank = TRUE;
    for (gsize i = 0; blank && i < logical->len; i++)
      blank = logical->str[i] == ' ';
    if (ok && !blank)
      ok = parse_logical(&P, logical->str);
    g_string_truncate(logical, 0);
  }
  g_string_free(logical, TRUE);

  NsTopology *topo = ns_topology_new(source);
  if (ok)
    ok = check_cycles(&P);
  if (ok)
    announce_speeds(&P);
  if (ok)
    ok = build(&P, topo);
  NsInputWarn w = {warn, warn_data};
  if (ok)
    ok = ns_topology_finalize(topo, warn != NULL ? ns_input_escaping_warn : NULL, &w, P.error);
  if (!ok)
    ns_input_escape_error(*P.error);
  g_array_free(P.switches, TRUE);
  g_hash_table_unref(P.switch_at);
  g_clear_error(&local);
  if (!ok) {
    ns_topology_free(topo);
    return NULL;
  }
  return topo;
}
