/* netsched — hardware counts and prices of a design (see design_internal.h). */
#include "analysis/design_cost_internal.h"
#include "analysis/keyfile_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include <math.h>
#include <string.h>

/* One "speed:price" of a priced key. */
typedef struct {
  double speed;  /* bit/s */
  double price;
} SpeedPrice;

/* A key priced by link speed: unset (costs nothing) or a list. */
typedef struct {
  gboolean set;
  GArray *items; /* SpeedPrice */
} SpeedPrices;

/* One chassis of the `switch` key's list: up to `ports` ports. */
typedef struct {
  int ports;
  double price;
} Chassis;

struct NsPrices {
  char *currency;
  double per_switch;     /* `switch = PRICE`: every switch the same */
  GArray *chassis;       /* `switch = PORTS:PRICE, ...` by ports, ascending (NULL: flat) */
  SpeedPrices switch_port, nic_port, cable;
};

static const char *const price_keys[] = { "currency", "switch", "switch-port", "nic-port", "cable",
                                          NULL };

void ns_prices_free(NsPrices *p)
{
  if (p == NULL)
    return;
  SpeedPrices *all[] = { &p->switch_port, &p->nic_port, &p->cable };
  for (int i = 0; i < 3; i++)
    if (all[i]->items != NULL)
      g_array_unref(all[i]->items);
  if (p->chassis != NULL)
    g_array_unref(p->chassis);
  g_free(p->currency);
  g_free(p);
}

const char *ns_prices_currency(const NsPrices *p) { return p->currency ? p->currency : ""; }

/* The largest price of one item. A design has at most a few million
 * switches, ports and cables, so its total stays below about 1e19: finite
 * and printable, where prices of 1e308 once summed to a cost of inf. */
#define MAX_PRICE 1e12

static gboolean parse_price(const NsKeyEntry *e, const char *text, double *price, GError **error)
{
  char *end = NULL;
  *price = g_ascii_strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(*price) || *price < 0)
    return ns_keyfile_fail(error, e->where, "%s: price '%s' is not a number >= 0", e->key, text);
  if (*price > MAX_PRICE)
    return ns_keyfile_fail(error, e->where, "%s: price '%s' is above the limit of 1e12 per item",
                           e->key, text);
  return TRUE;
}

static int compare_chassis(const void *a, const void *b)
{
  const Chassis *x = a, *y = b;
  return (x->ports > y->ports) - (x->ports < y->ports);
}

/* `switch = 1500` (every switch), or `switch = 8:200, 48:2500, 128:15000`:
 * a switch costs the smallest chassis with at least its ports. */
static gboolean parse_switch(const NsKeyEntry *e, NsPrices *p, GError **error)
{
  if (p->chassis != NULL)
    g_array_unref(p->chassis);
  p->chassis = NULL;
  p->per_switch = 0;
  if (strchr(e->value, ':') == NULL)
    return parse_price(e, e->value, &p->per_switch, error);
  p->chassis = g_array_new(FALSE, FALSE, sizeof(Chassis));
  g_auto(GStrv) parts = g_strsplit(e->value, ",", -1);
  for (int i = 0; parts[i] != NULL; i++) {
    char *item = g_strstrip(parts[i]);
    char *colon = strchr(item, ':');
    if (colon == NULL)
      return ns_keyfile_fail(error, e->where,
                             "switch: '%s' is not PORTS:PRICE (e.g. 48:2500), and the key "
                             "mixes that form with a flat price", item);
    *colon = '\0';
    char *end = NULL;
    const char *ports = g_strstrip(item);
    gint64 n = g_ascii_strtoll(ports, &end, 10);
    if (end == ports || *end != '\0' || n < 1 || n > 100000)
      return ns_keyfile_fail(error, e->where,
                             "switch: ports '%s' is not a whole number from 1 to 100000", ports);
    Chassis c = { .ports = (int)n };
    if (!parse_price(e, g_strstrip(colon + 1), &c.price, error))
      return FALSE;
    for (guint k = 0; k < p->chassis->len; k++)
      if (g_array_index(p->chassis, Chassis, k).ports == c.ports)
        return ns_keyfile_fail(error, e->where, "switch: %d ports are priced twice", c.ports);
    g_array_append_val(p->chassis, c);
  }
  g_array_sort(p->chassis, compare_chassis);
  return TRUE;
}

/* "1Gbps:40, 10Gbps:300" */
static gboolean parse_speed_prices(const NsKeyEntry *e, SpeedPrices *out, GError **error)
{
  out->set = TRUE;
  if (out->items != NULL) /* a design's file replaces the study's list */
    g_array_unref(out->items);
  out->items = g_array_new(FALSE, FALSE, sizeof(SpeedPrice));
  g_auto(GStrv) parts = g_strsplit(e->value, ",", -1);
  for (int i = 0; parts[i] != NULL; i++) {
    char *item = g_strstrip(parts[i]);
    char *colon = strchr(item, ':');
    if (colon == NULL)
      return ns_keyfile_fail(error, e->where, "%s: '%s' is not SPEED:PRICE (e.g. 10Gbps:300)",
                             e->key, item);
    *colon = '\0';
    SpeedPrice sp;
    const char *why = NULL;
    if (!ns_parse_bandwidth(g_strstrip(item), &sp.speed, &why))
      return ns_keyfile_fail(error, e->where, "%s: speed '%s': %s", e->key, item, why);
    if (!parse_price(e, g_strstrip(colon + 1), &sp.price, error))
      return FALSE;
    for (guint k = 0; k < out->items->len; k++)
      if (g_array_index(out->items, SpeedPrice, k).speed == sp.speed)
        return ns_keyfile_fail(error, e->where, "%s: speed '%s' is priced twice", e->key, item);
    g_array_append_val(out->items, sp);
  }
  return TRUE;
}

static void copy_speed_prices(SpeedPrices *to, const SpeedPrices *from)
{
  to->set = from->set;
  to->items = from->items != NULL ? g_array_copy(from->items) : NULL;
}

NsPrices *ns_prices_load(const char *path, GError **error)
{
  return ns_prices_load_over(NULL, path, error);
}

NsPrices *ns_prices_load_over(const NsPrices *base, const char *path, GError **error)
{
  g_autoptr(GPtrArray) groups = ns_keyfile_scan(path, error);
  if (groups == NULL)
    return NULL;
  g_autoptr(NsPrices) p = g_new0(NsPrices, 1);
  if (base != NULL) {
    p->currency = g_strdup(base->currency);
    p->per_switch = base->per_switch;
    p->chassis = base->chassis != NULL ? g_array_copy(base->chassis) : NULL;
    copy_speed_prices(&p->switch_port, &base->switch_port);
    copy_speed_prices(&p->nic_port, &base->nic_port);
    copy_speed_prices(&p->cable, &base->cable);
  }
  gboolean seen = FALSE;
  for (guint i = 0; i < groups->len; i++) {
    const NsKeyGroup *g = g_ptr_array_index(groups, i);
    if (strcmp(g->name, "prices") != 0) {
      g_autofree char *shown = g_strescape(g->name, NULL);
      ns_keyfile_fail(error, g->where, "unknown group [%s] (a price file has one group, [prices])",
                      shown);
      return NULL;
    }
    seen = TRUE;
    if (!ns_keygroup_check_keys(g, price_keys, error))
      return NULL;
    for (guint k = 0; k < g->entries->len; k++) {
      const NsKeyEntry *e = g_ptr_array_index(g->entries, k);
      gboolean ok = TRUE;
      if (strcmp(e->key, "currency") == 0) {
        g_free(p->currency);
        p->currency = g_strdup(e->value);
      } else if (strcmp(e->key, "switch") == 0)
        ok = parse_switch(e, p, error);
      else
        ok = parse_speed_prices(e,
                                strcmp(e->key, "switch-port") == 0 ? &p->switch_port
                                : strcmp(e->key, "nic-port") == 0  ? &p->nic_port
                                                                   : &p->cable,
                                error);
      if (!ok)
        return NULL;
    }
  }
  if (!seen) {
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "no [prices] group");
    return NULL;
  }
  return g_steal_pointer(&p);
}

void ns_design_hardware(const NsTopology *topo, NsHardware *hw)
{
  *hw = (NsHardware){ .switches = ns_topology_n_switches(topo),
                      .cables = ns_topology_n_links(topo) };
  for (int l = 0; l < hw->cables; l++) {
    const NsLink *link = ns_topology_link(topo, l);
    int ends[2] = { link->a, link->b };
    for (int e = 0; e < 2; e++) {
      if (ns_topology_node(topo, ends[e])->kind == NS_NODE_SWITCH)
        hw->switch_ports++;
      else
        hw->nic_ports++;
    }
  }
}

/* The price of one item at `speed`; an unset key costs nothing. Speeds
 * match within 0.1 % (a parsed "10Gbps" and a generated 1e10). */
static gboolean price_at(const SpeedPrices *sp, const char *key, double speed, double *price,
                         GError **error)
{
  *price = 0;
  if (!sp->set)
    return TRUE;
  for (guint k = 0; k < sp->items->len; k++) {
    const SpeedPrice *x = &g_array_index(sp->items, SpeedPrice, k);
    if (fabs(x->speed - speed) <= 1e-3 * speed) {
      *price = x->price;
      return TRUE;
    }
  }
  g_autofree char *shown = ns_format_bandwidth(speed);
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "the price file has no '%s' price for %s links", key, shown);
  return FALSE;
}

/* The chassis price of switch `node`: the flat price, or the smallest
 * listed chassis with at least the switch's ports in use. */
static gboolean switch_price(const NsPrices *p, const NsTopology *topo, int node, double *price,
                             GError **error)
{
  *price = p->per_switch;
  if (p->chassis == NULL)
    return TRUE;
  int ports = ns_topology_degree(topo, node);
  for (guint k = 0; k < p->chassis->len; k++) {
    const Chassis *c = &g_array_index(p->chassis, Chassis, k);
    if (c->ports >= ports) {
      *price = c->price;
      return TRUE;
    }
  }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "switch %s has %d ports; the largest chassis of the 'switch' prices has %d",
                  ns_topology_node(topo, node)->name, ports,
                  g_array_index(p->chassis, Chassis, p->chassis->len - 1).ports);
  return FALSE;
}

gboolean ns_design_cost(const NsPrices *p, const NsTopology *topo, double *cost, GError **error)
{
  double total = 0;
  for (int v = 0; v < ns_topology_n_nodes(topo); v++) {
    double price;
    if (ns_topology_node(topo, v)->kind != NS_NODE_SWITCH)
      continue;
    if (!switch_price(p, topo, v, &price, error))
      return FALSE;
    total += price;
  }
  for (int l = 0; l < ns_topology_n_links(topo); l++) {
    const NsLink *link = ns_topology_link(topo, l);
    double price;
    if (!price_at(&p->cable, "cable", link->bandwidth, &price, error))
      return FALSE;
    total += price;
    int ends[2] = { link->a, link->b };
    for (int e = 0; e < 2; e++) {
      gboolean sw = ns_topology_node(topo, ends[e])->kind == NS_NODE_SWITCH;
      if (!price_at(sw ? &p->switch_port : &p->nic_port, sw ? "switch-port" : "nic-port",
                    link->bandwidth, &price, error))
        return FALSE;
      total += price;
    }
  }
  if (!isfinite(total)) { /* not with prices <= MAX_PRICE; checked all the same */
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s: the cost of the design overflows",
                    ns_topology_source(topo));
    return FALSE;
  }
  *cost = total;
  return TRUE;
}
