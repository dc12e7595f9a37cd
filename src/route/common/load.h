/*
 * load.h - the two pieces of OpenSM's port choice that several engines share
 * (load.c):
 * - Port load counters: per switch and port, the number of destination LIDs
 *   routed through it (OpenSM's port profile path count).
 * - Min-hop ports: for one destination switch t, every switch's ports that
 *   lie on a shortest path to t, in ascending port order, from the distance
 *   row of t. They depend only on (switch, destination switch), so an engine
 *   computes them once for all the CAs behind t.
 * - The least-loaded choice among candidate ports, with OpenSM's
 *   tie-breaking (osm_switch_recommend_path: the first port scanned with the
 *   strictly smallest count wins; the scan starts at a given port and wraps).
 * Everything iterates in index order and keeps no global state.
 */
#ifndef LANES_ROUTE_COMMON_LOAD_H
#define LANES_ROUTE_COMMON_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include "lanes/error.h"
#include "lanes/fabric.h"

/* ------------------------------------------------------- load counters */

/** Paths routed through each (switch, port); port 0 included. */
struct route_load {
	uint32_t *off;   /**< num_switches + 1 offsets into count */
	uint32_t *count; /**< count[off[sw] + port] */
};

/** Allocate all-zero counters for every switch port of f. */
int lanes_route_load_init(struct route_load *l, const struct lanes_fabric *f, struct lanes_error *err);

/** Free the counters (the struct itself is the caller's). */
void lanes_route_load_free(struct route_load *l);

/** @return the counters of switch sw, indexed by port number */
static inline uint32_t *route_load_of(const struct route_load *l, uint32_t sw)
{
	return l->count + l->off[sw];
}

/* ------------------------------------------------------- min-hop ports */

/**
 * For one destination switch: each switch's ports on a shortest path to it.
 * Most switches have exactly one, so that case is a byte per switch (a
 * column an engine can copy into an LFT); the switches with several are
 * listed apart with their ports.
 */
struct route_hop_ports {
	uint8_t *one;    /**< per switch: its only min-hop port; 0 when it has several
			      (see multi); LANES_PORT_DROP (255) when none (the
			      destination itself, or unreachable) */
	uint32_t *multi; /**< switches with several min-hop ports (ascending from lanes_route_hop_ports_fill) */
	uint32_t *moff;  /**< nmulti + 1 offsets into port */
	uint8_t *port;   /**< ascending port numbers of each multi switch */
	uint32_t nmulti;
	uint32_t dst;    /**< the destination switch filled in, or LANES_NONE */
	uint32_t *nb;    /**< private: adjacency neighbours, a compact copy */
};

/** Allocate room for any destination switch of f. */
int lanes_route_hop_ports_init(struct route_hop_ports *h, const struct lanes_fabric *f,
			 struct lanes_error *err);

/**
 * Fill in the min-hop ports toward switch dst, given dist_to_dst[s] = hops
 * from switch s to dst (255 unreachable): every port of s whose neighbour is
 * one hop closer. The destination itself and unreachable switches get none.
 */
void lanes_route_hop_ports_fill(struct route_hop_ports *h, const struct lanes_fabric *f, uint32_t dst,
			  const uint8_t *dist_to_dst);

/** Free the buffers (the struct itself is the caller's). */
void lanes_route_hop_ports_free(struct route_hop_ports *h);

/** A copy of one destination's min-hop ports, in one block (free() it). */
struct route_saved_hops {
	struct route_hop_ports h; /**< h.nb is NULL */
	uint8_t *extra;           /**< num_switches bytes of the caller's, or NULL */
	uint32_t tag;             /**< the caller's */
};

/**
 * Copy h (of a fabric with ns switches) and, when extra is not NULL, ns
 * bytes of it, if the copy fits in *budget bytes, which it then takes.
 * @return the copy, or NULL (over budget or out of memory: recompute instead)
 */
struct route_saved_hops *lanes_route_hop_ports_save(const struct route_hop_ports *h, uint32_t ns,
					      const uint8_t *extra, size_t *budget);

/** The budget of saved copies an engine may keep: 4 MB and a quarter of the LFTs. */
size_t lanes_route_hop_ports_save_budget(const struct lanes_fabric *f);

/**
 * The far end of every switch port, indexed like route_load (off[sw] +
 * port), for OpenSM's LMC preference: the node (LANES_NONE if no cable) and
 * its system image GUID, the node GUID where the fabric has none (0), as
 * ibsim gives a node without a sysimgguid line.
 */
struct route_peers {
	uint32_t *node;
	uint64_t *sys;
	int dor;       /**< 1: OpenSM's dor variant of the preference (load.c, dor_choose);
			    the caller sets it, lanes_route_peers_init leaves it */
};

/** Fill p for f, whose switch ports l counts (lanes_route_load_init). */
int lanes_route_peers_init(struct route_peers *p, const struct lanes_fabric *f,
		     const struct route_load *l, struct lanes_error *err);

/** Free the arrays (the struct itself is the caller's). */
void lanes_route_peers_free(struct route_peers *p);

/** Switches first .. end - 1: one worker's share of a column fill. */
struct route_switch_range {
	uint32_t first, end;
};

/** @return the k-th of n equal runs of ns switches */
static inline struct route_switch_range route_switch_share(uint32_t ns, unsigned k, unsigned n)
{
	struct route_switch_range r = { (uint32_t)((uint64_t)ns * k / n),
					(uint32_t)((uint64_t)ns * (k + 1) / n) };

	return r;
}

/**
 * minhop's LFT column fill for the m LIDs lids[] toward h's destination, as
 * if the LIDs came one after the other: a switch with one candidate takes
 * it, the others their least-loaded candidate (route_least_loaded), counted
 * for h->multi[0..ncount) only. lft is num_lids x ns, LID-major.
 * offset > 0 (LID base + offset of each end port; peers required): the scan
 * starts after the port of lids[j] - 1, and a counted switch prefers, as
 * OpenSM's osm_switch_recommend_path with LMC > 0, a port towards a system,
 * then a node, that none of base .. lids[j] - 1 leaves to (see load.c);
 * with peers->dor, OpenSM's dor variant instead (load.c, dor_choose).
 * Only the switches of range are filled and counted: a switch's choice
 * reads only its own counters and its own entries, so workers with
 * disjoint ranges can fill the same columns at once, each in LID order.
 */
void lanes_route_fill_lids(uint8_t *lft, uint32_t ns, struct route_switch_range range,
			   const struct route_hop_ports *h, const struct route_load *load,
			   const struct route_peers *peers, const uint32_t *lids, uint32_t m, int offset,
			   uint32_t ncount);

/**
 * OpenSM's least-loaded choice among n >= 1 candidate ports (ascending):
 * the scan visits the ports >= start first, then the others, each in
 * ascending order, and keeps the first port with a strictly smaller count.
 * start = 1 is the plain scan; LMC > 0 starts after the previous LID's port.
 */
static inline uint8_t route_least_loaded(const uint32_t *load, const uint8_t *ports, uint32_t n,
					 unsigned start)
{
	uint32_t k = 0, best_count = UINT32_MAX;
	uint8_t best = ports[0];

	while (k < n && ports[k] < start)
		k++;
	for (uint32_t i = k; i < n; i++)
		if (load[ports[i]] < best_count) {
			best = ports[i];
			best_count = load[best];
		}
	for (uint32_t i = 0; i < k; i++)
		if (load[ports[i]] < best_count) {
			best = ports[i];
			best_count = load[best];
		}
	return best;
}

#endif
