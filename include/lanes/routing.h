/*
 * lanes/routing.h - a routing as plain data: what every engine produces and
 * what the verifier, the simulator and the OpenSM dump writers read.
 *
 * - LFTs: for each switch and each LID, the out port (0 = this switch,
 *   255 = drop). Stored per destination, lft[lid * num_switches + switch],
 *   because the verifier, the simulator and most engines work one destination
 *   at a time; use the accessors, not the layout.
 * - Path SLs, at the coarsest granularity that is exact: one SL for all
 *   paths, one per destination LID, one per (source switch, destination LID),
 *   or (only where an engine truly needs it) one per (source LID,
 *   destination LID).
 * - SL2VL: for each switch a 16-entry SL-to-VL map per (in port, out port),
 *   and for each CA or router port its injection map. Maps live once in a
 *   pool; switches and ports hold pool indices, because most share a map.
 *   Map 0 sends every SL to VL 0, which is what a routing without VLs means.
 * - num_vls and num_sls used, vls_needed and sls_needed (fewer where an engine
 *   spreads paths over spare VLs), and the engine's notes.
 *
 * A routing belongs to one fabric (it copies its switch and LID counts to
 * catch mix-ups) and never points into engine state.
 */
#ifndef LANES_ROUTING_H
#define LANES_ROUTING_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

/** LFT entry: drop the packet. */
#define LANES_PORT_DROP 255
/** Number of SLs and of VL entries in a map (VL 15 is never a data VL). */
#define LANES_NUM_SLS 16

/** Granularity of path SLs. */
enum lanes_sl_mode {
	LANES_SL_UNIFORM = 0,    /**< one SL for every path */
	LANES_SL_PER_DST,        /**< sl[dst lid] */
	LANES_SL_PER_SRC_SWITCH, /**< sl[dst lid * num_switches + source switch] */
	LANES_SL_PER_PAIR,       /**< sl[dst lid * num_lids + source lid] */
};

/** One routing of one fabric. */
struct lanes_routing {
	uint32_t num_switches; /**< of the fabric */
	uint32_t num_lids;     /**< fabric max_lid + 1 */
	uint8_t *lft;          /**< num_lids * num_switches out ports */

	int sl_mode;           /**< enum lanes_sl_mode */
	uint8_t sl_uniform;    /**< the SL when sl_mode is LANES_SL_UNIFORM */
	uint8_t *sl;           /**< per sl_mode, else NULL */

	uint8_t (*sl2vl_maps)[LANES_NUM_SLS]; /**< the pool; map 0 is all VL 0 */
	uint32_t num_sl2vl_maps;
	uint32_t *sl2vl_sw_off; /**< per switch: offset of its (nports+1)^2 indices, or NULL */
	uint16_t *sl2vl_sw;     /**< [off + in * (nports + 1) + out] pool index */
	uint16_t *sl2vl_port;   /**< per fabric port slot: a CA/router port's injection map, or NULL */

	uint8_t num_vls; /**< data VLs used: 1 + the highest VL any map gives */
	uint8_t num_sls; /**< SLs used: 1 + the highest path SL */
	/**
	 * The fewest VLs and SLs the engine's scheme needs for this fabric: what
	 * it would still route deadlock-free with as its budget. Equal to
	 * num_vls / num_sls, except for engines that spread paths over spare
	 * VLs for balance (dfsssp, lash, nue), which set them after
	 * lanes_routing_count_resources().
	 */
	uint8_t vls_needed;
	uint8_t sls_needed;
	char *notes;     /**< the engine's notes (malloc'ed), or NULL */
	/**
	 * What the engine assumed about its input and the caller should show
	 * (an unknown GUID in a roots file, skipped), one sentence per line
	 * (malloc'ed), or NULL.
	 */
	char *warnings;
};

/**
 * A routing for f with every LFT entry "drop", every SL 0 and every SL2VL
 * map 0. Fails with LANES_ENOMEM when the LFTs would not fit.
 */
int lanes_routing_new(const struct lanes_fabric *f, struct lanes_routing **out,
		      struct lanes_error *err);

/** Free a routing. NULL is a no-op. */
void lanes_routing_free(struct lanes_routing *r);

/** @return the out port of switch sw (switch index) for lid */
static inline uint8_t lanes_routing_port(const struct lanes_routing *r, uint32_t sw, uint32_t lid)
{
	return r->lft[(size_t)lid * r->num_switches + sw];
}

/** Set the out port of switch sw for lid. */
static inline void lanes_routing_set_port(struct lanes_routing *r, uint32_t sw, uint32_t lid,
					  uint8_t port)
{
	r->lft[(size_t)lid * r->num_switches + sw] = port;
}

/** @return the LFT column of lid: one out port per switch index */
static inline const uint8_t *lanes_routing_column(const struct lanes_routing *r, uint32_t lid)
{
	return r->lft + (size_t)lid * r->num_switches;
}

/** LANES_EINVAL unless r was made for f (same switch and LID counts). */
int lanes_routing_check(const struct lanes_fabric *f, const struct lanes_routing *r,
			struct lanes_error *err);

/** @return the number of SL cells a mode stores (1 for LANES_SL_UNIFORM) */
size_t lanes_routing_sl_cells(const struct lanes_routing *r, int mode);

/** Back to one SL, 0, for every path (drops any finer SL table). */
void lanes_routing_reset_sls(struct lanes_routing *r);

/**
 * Switch to a finer SL granularity (never coarser), keeping the SLs set so
 * far. LANES_SL_PER_PAIR needs num_lids^2 bytes and is refused past 2^30.
 */
int lanes_routing_set_sl_mode(struct lanes_routing *r, int mode, struct lanes_error *err);

/**
 * The SL of the path from src_lid to dst_lid. The source switch is the
 * switch that owns src_lid, or the one its CA port is cabled to.
 */
uint8_t lanes_routing_sl(const struct lanes_routing *r, const struct lanes_fabric *f,
			 uint32_t src_lid, uint32_t dst_lid);

/** Set an SL at the routing's granularity; src is a switch index or a LID as the mode says. */
void lanes_routing_set_sl(struct lanes_routing *r, uint32_t src, uint32_t dst_lid, uint8_t sl);

/**
 * Add a map to the pool (or find the same one).
 * @param out_index receives its index
 */
int lanes_routing_add_map(struct lanes_routing *r, const uint8_t map[LANES_NUM_SLS],
			  uint16_t *out_index, struct lanes_error *err);

/** Allocate per-switch and per-port map indices (all 0) so they can be set. */
int lanes_routing_enable_sl2vl(struct lanes_routing *r, const struct lanes_fabric *f,
			       struct lanes_error *err);

/** Set the map of switch sw (switch index) for (in port, out port). Needs enable_sl2vl. */
void lanes_routing_set_switch_map(struct lanes_routing *r, const struct lanes_fabric *f,
				  uint32_t sw, uint8_t in, uint8_t out, uint16_t map);

/** Set the injection map of a CA or router port. Needs enable_sl2vl. */
void lanes_routing_set_port_map(struct lanes_routing *r, const struct lanes_fabric *f,
				uint32_t node, uint8_t port, uint16_t map);

/** @return the SL-to-VL map of switch sw for (in port, out port) */
const uint8_t *lanes_routing_switch_map(const struct lanes_routing *r,
					const struct lanes_fabric *f, uint32_t sw, uint8_t in,
					uint8_t out);

/** @return the injection map of a CA or router port */
const uint8_t *lanes_routing_port_map(const struct lanes_routing *r,
				      const struct lanes_fabric *f, uint32_t node, uint8_t port);

/** Recompute num_vls and num_sls from the maps and SLs actually present. */
void lanes_routing_count_resources(struct lanes_routing *r);

/** @return the switch index where traffic of a LID enters or ends, or LANES_NONE */
uint32_t lanes_fabric_lid_switch(const struct lanes_fabric *f, uint32_t lid);

/**
 * The same switch, and in *port the port there that leads to the LID's
 * owner: the CA's cable, or 0 for the switch's own LIDs (0 too for
 * LANES_NONE).
 */
uint32_t lanes_fabric_lid_switch_port(const struct lanes_fabric *f, uint32_t lid, uint8_t *port);

#ifdef __cplusplus
}
#endif
#endif
