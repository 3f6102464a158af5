/* netsched — a design's hardware and its price (design_cost.c): the
 * switch, port and cable counts and the price files of a design study. */
#ifndef NETSCHED_DESIGN_COST_H
#define NETSCHED_DESIGN_COST_H

#include "platforms/model/topology.h"

/* Prices for the cost column (design_cost.c). */
typedef struct NsPrices NsPrices;

typedef struct {
  int switches;
  int cables;          /* links */
  int switch_ports;    /* link ends at switches */
  int nic_ports;       /* link ends at machines */
} NsHardware;

/* Counts the hardware of `topo`. O(links). */
void ns_design_hardware(const NsTopology *topo, NsHardware *hw);

/*
 * ns_prices_load — a price file (strict key file, analysis/keyfile_internal.h):
 *
 *   [prices]
 *   currency    = EUR                       (text, default "")
 *   switch      = 1500                      per switch, or by its ports in use:
 *   switch      = 8:200, 48:2500, 128:15000 PORTS:PRICE, the smallest chassis
 *                                           with at least the switch's ports
 *   switch-port = 1Gbps:40, 10Gbps:300      per switch port, by link speed
 *   nic-port    = 1Gbps:30, 10Gbps:250      per machine port, by link speed
 *   cable       = 1Gbps:5, 10Gbps:60        per link, by link speed
 *
 * Every key is optional (a missing one costs nothing); a speed a design
 * uses but a listed key does not price, or a switch with more ports than
 * the largest chassis, is an error of ns_design_cost.
 * NULL with NS_ERROR_INPUT (`file:line: ...`) or NS_ERROR_IO. O(size).
 */
NsPrices *ns_prices_load(const char *path, GError **error);
/* The prices of `base` (may be NULL) with the keys that `path` gives
 * replacing base's, key by key: one design's prices over the study's. */
NsPrices *ns_prices_load_over(const NsPrices *base, const char *path, GError **error);
void ns_prices_free(NsPrices *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsPrices, ns_prices_free)
const char *ns_prices_currency(const NsPrices *p);

/* The price of `topo`'s hardware. FALSE with NS_ERROR_INPUT naming the
 * speed that has no price. O(links · prices). */
gboolean ns_design_cost(const NsPrices *p, const NsTopology *topo, double *cost,
                        GError **error);

#endif
