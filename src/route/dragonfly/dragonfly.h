/*
 * dragonfly.h - what the dragonfly engines dla and d3r share (dragonfly.c,
 * dragonfly_lft.c): the groups of a bare fabric, every switch port as a
 * terminal, local or global port, the checks of full connectivity that name
 * what is missing, and the minimal local-global-local forwarding tables of
 * Kim and Dally (Fig. 4 of Maglione-Mathey et al., "Leveraging InfiniBand
 * controller to configure deadlock-free routing engines for Dragonflies",
 * JPDC 2021), which both engines use.
 *
 * Vocabulary. The groups are those lanes_recognize_dragonfly() finds. A
 * cable between two switches of one group is local, between switches of two
 * groups global; a switch port cabled to a CA or router is a terminal port.
 * A group's members are its switches in switch-index order; a switch's
 * position is its place among them.
 *
 * The forwarding rule (dragonfly_lft.c) at switch s toward a LID that ends
 * at switch t of group Y:
 * - s = t: the LID's own port (the CA's cable, port 0 for a switch LID);
 * - s in Y: the port toward t inside the group (toward_member);
 * - s has global cables to Y (Fig. 4, "S_s is directly connected to G_d"):
 *   one of them;
 * - else toward the exit switch of s's group for Y inside the group.
 * Where several cables could be taken (several global cables join the two
 * groups, or s has several to Y), those that land on t come first: if any
 * does, the choice is among them, else among all, so no path takes a local
 * hop more than a local-global-local path needs. Among the candidates the
 * LID's rank decides: its place among the LIDs that end in group Y, in LID
 * order, modulo the number of candidates, so the LIDs of a group spread
 * evenly over the cables, and every switch of a group uses the same exit
 * for one LID. The papers leave this choice open; this is ours.
 */
#ifndef LANES_ROUTE_DRAGONFLY_H
#define LANES_ROUTE_DRAGONFLY_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"

/** What a switch port is cabled to. */
enum dragonfly_port_kind {
	DRAGONFLY_PORT_NONE = 0, /**< port 0, no cable, a self-loop */
	DRAGONFLY_PORT_TERMINAL, /**< a CA or a router */
	DRAGONFLY_PORT_LOCAL,    /**< a switch of the same group */
	DRAGONFLY_PORT_GLOBAL,   /**< a switch of another group */
};

/** How complete the groups must be. */
enum dragonfly_groups_needed {
	DRAGONFLY_GROUPS_COMPLETE,  /**< a cable between every two switches of a group (dla) */
	DRAGONFLY_GROUPS_CONNECTED, /**< a path inside the group between every two (d3r) */
};

/** One global cable, seen from the group it leaves. */
struct dragonfly_cable {
	uint32_t sw;      /**< switch index of the end in the group it leaves */
	uint32_t far_sw;  /**< switch index of the end in the group it enters */
	uint8_t port;     /**< its port at sw */
};

/** A recognised dragonfly and the tables the engines route from. */
struct dragonfly {
	const struct lanes_fabric *f;
	const char *engine;        /**< "dla", "d3r": the prefix of every message */
	uint32_t num_groups;
	uint32_t *group_of;        /**< per switch index: its group */
	uint32_t *group_first;     /**< per group + 1: where its switches start in group_members */
	uint32_t *group_members;   /**< switch indices, group after group, ascending in each */
	uint32_t *position;        /**< per switch index: its place among its group's members */
	uint32_t largest_group;    /**< switches in the largest group */
	int groups_complete;       /**< every group has a cable between every two of its switches */
	uint8_t *port_kind;        /**< per fabric port slot: enum dragonfly_port_kind */
	/** [sw * largest_group + position]: the port of sw toward the member of its group at
	 *  that position, the first hop of a shortest path inside the group (lowest port
	 *  among the equals); 0 toward sw itself */
	uint8_t *toward_member;
	uint32_t *cables_first;    /**< [X * num_groups + Y], + 1 more: group X's cables to Y */
	struct dragonfly_cable *cables; /**< ordered by (X, Y, switch, port) */
	uint8_t *first_port_to_group; /**< [Y * num_switches + sw]: sw's first port to Y, or 0 */
	uint8_t *cables_to_group;     /**< same index: sw's global cables to Y (at most 255) */
	uint32_t *lid_switch;      /**< per LID: the switch where it ends, or LANES_NONE */
	uint8_t *lid_port;         /**< per LID: its port at that switch (0 for a switch's LIDs) */
	uint32_t *lid_rank;        /**< per LID: its place among the LIDs ending in its group */
};

/**
 * Recognise f as a dragonfly and check what the engine needs: a global
 * cable between every two groups, and groups complete or connected.
 * LANES_EREFUSED naming what is missing ("dla: groups 2 and 7 have no global
 * cable", "dla: group 3 is not fully connected: switches "a" and "b" have
 * no cable", or the recogniser's reason after "dla: "); LANES_ENOMEM.
 */
int lanes_dragonfly_build(struct dragonfly *d, const struct lanes_fabric *f, const char *engine,
		    int groups_needed, struct lanes_error *err);

/** Free what d holds (d itself is the caller's; a zeroed d is fine). */
void lanes_dragonfly_free(struct dragonfly *d);

/** "\"description\"" of switch sw, or its GUID when it has none; in buf. */
const char *lanes_dragonfly_switch_label(const struct lanes_fabric *f, uint32_t sw, char *buf,
				   size_t size);

/** @return the kind of port `port` of switch sw */
static inline int dragonfly_port_kind_of(const struct dragonfly *d, uint32_t sw, uint8_t port)
{
	return d->port_kind[d->f->nodes[d->f->switches[sw]].port_base + port];
}

/**
 * The routing of the forwarding rule above on opts->threads workers:
 * every LID that ends at a switch (switch LIDs only when opts->switch_lids;
 * otherwise a switch keeps just its own LIDs, on port 0). With
 * sls_by_group_order (d3r), path SLs per (source switch, destination LID)
 * too: 0 toward a higher-numbered group and inside a group, 1 toward a
 * lower-numbered one. No SL2VL maps.
 */
int lanes_dragonfly_route_lfts(const struct dragonfly *d, const struct lanes_route_opts *opts,
			 int sls_by_group_order, struct lanes_routing **out,
			 struct lanes_error *err);

/** The path SL (and VL) of d3r from group `from` to group `to`. */
static inline uint8_t dragonfly_group_order_sl(uint32_t from, uint32_t to)
{
	return to < from ? 1 : 0;
}

#endif
