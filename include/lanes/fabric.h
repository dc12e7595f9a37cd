/*
 * lanes/fabric.h - the fabric model: nodes, ports, links, LIDs.
 *
 * A fabric is built once through a struct lanes_builder (readers and
 * generators add nodes and cables in discovery order), then frozen by
 * lanes_builder_finish() and passed as `const struct lanes_fabric *`
 * everywhere. All fields of a frozen fabric are read-only.
 *
 * Indices are dense uint32_t: node i is nodes[i]; its port p (0..nports) is
 * ports[nodes[i].port_base + p]. Every node has a port 0 slot; only a
 * switch's port 0 is real (the management port holding the switch LID).
 * Switches are also numbered 0..num_switches-1 in node order, and the
 * switch-to-switch adjacency is a CSR array over switch indices, one entry
 * per cable end, in port order (parallel cables appear once each).
 * Self-loop cables (a switch port cabled to a port of the same switch) are
 * kept in the port table and counted, but are not in the adjacency: they are
 * never routed over.
 *
 * LIDs: see docs/fabric.md. Valid, unique input LIDs are kept; the others
 * are assigned deterministically, lowest free LMC-aligned range first, in
 * node order, and every repair is recorded as a warning on the fabric.
 */
#ifndef LANES_FABRIC_H
#define LANES_FABRIC_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "no such index" for node, switch and peer fields. */
#define LANES_NONE UINT32_MAX
/** Highest unicast LID of an InfiniBand subnet. */
#define LANES_LID_UNICAST_MAX 0xBFFF
/**
 * Highest LID the model holds. A fabric that needs more than the 49151
 * unicast LIDs of one subnet (a generated 100k-endpoint dragonfly, say) gets
 * LIDs above 0xBFFF for analysis only: no real subnet can load them, and the
 * writers print them as "lid 0" (no LID). See docs/fabric.md.
 */
#define LANES_LID_MAX 0xFFFFFF

/** The LID to put in a file: analysis-only LIDs above 0xBFFF become 0. */
static inline uint32_t lanes_lid_in_file(uint32_t lid)
{
	return lid <= LANES_LID_UNICAST_MAX ? lid : 0;
}
/** Highest port number a node may have. */
#define LANES_PORTS_MAX 254

/** Node types, numbered as the InfiniBand NodeInfo.NodeType field. */
enum lanes_node_type {
	LANES_NODE_CA = 1,
	LANES_NODE_SWITCH = 2,
	LANES_NODE_ROUTER = 3,
};

/** Link speeds per lane, in the order InfiniBand introduced them. */
enum lanes_speed {
	LANES_SPEED_UNKNOWN = 0,
	LANES_SPEED_SDR, /**< 2.5 Gb/s */
	LANES_SPEED_DDR, /**< 5 Gb/s */
	LANES_SPEED_QDR, /**< 10 Gb/s */
	LANES_SPEED_FDR10,
	LANES_SPEED_FDR,
	LANES_SPEED_EDR,
	LANES_SPEED_HDR,
	LANES_SPEED_NDR,
	LANES_SPEED_XDR,
	LANES_SPEED_COUNT
};

/** One port of a node. */
struct lanes_port {
	uint64_t guid;      /**< port GUID (a switch's ports all carry the node GUID) */
	uint32_t peer_node; /**< node at the other end of the cable, or LANES_NONE */
	uint32_t lid;       /**< base LID; on a switch only port 0 has one */
	uint8_t lmc;        /**< the port answers 2^lmc LIDs from lid */
	uint8_t peer_port;  /**< port number at the other end (valid when peer_node is) */
	uint8_t width;      /**< lanes per link: 1, 2, 4, 8 or 12; 0 unknown */
	uint8_t speed;      /**< enum lanes_speed */
};

/** One node: a switch, a channel adapter or a router. */
struct lanes_node {
	uint64_t guid;          /**< node GUID */
	uint64_t sysimage_guid; /**< system image GUID (chassis), 0 unknown */
	uint32_t vendor_id;
	uint32_t device_id;
	char *desc;             /**< NodeDescription, never NULL */
	uint32_t port_base;     /**< index of this node's port 0 in fabric->ports */
	uint32_t switch_index;  /**< index among switches, or LANES_NONE */
	uint8_t type;           /**< enum lanes_node_type */
	uint8_t nports;         /**< ports 1..nports exist */
};

/** One entry of the switch adjacency. */
struct lanes_adj {
	uint32_t sw;       /**< neighbour switch index */
	uint8_t port;      /**< our port */
	uint8_t peer_port; /**< the neighbour's port */
};

/** One cable, listed once: (a, pa) is the end that comes first in node order. */
struct lanes_link {
	uint32_t a, b;   /**< node indices */
	uint8_t pa, pb;  /**< port numbers */
};

/** The owner of one LID. */
struct lanes_lid_owner {
	uint32_t node; /**< LANES_NONE when the LID is unused */
	uint8_t port;  /**< 0 for a switch */
};

/** A frozen fabric. Every field is read-only. */
struct lanes_fabric {
	uint32_t num_nodes;
	uint32_t num_switches;
	uint32_t num_cas;
	uint32_t num_routers;
	struct lanes_node *nodes;
	struct lanes_port *ports;
	uint32_t num_port_slots;   /**< length of ports[] */

	uint32_t *switches;        /**< switch index -> node index */
	uint32_t *adj_off;         /**< num_switches + 1 offsets into adj */
	struct lanes_adj *adj;     /**< CSR switch adjacency */

	uint32_t num_links;        /**< cables, self-loops included */
	struct lanes_link *links;
	uint32_t num_self_loops;   /**< cables whose two ends are on one node */

	uint32_t max_lid;          /**< highest LID in use */
	struct lanes_lid_owner *lid_owner; /**< max_lid + 1 entries */

	char **warnings;           /**< repairs and oddities found while building */
	uint32_t num_warnings;
};

/** What a builder needs to know about a new node. */
struct lanes_node_spec {
	uint8_t type;           /**< enum lanes_node_type */
	uint8_t nports;         /**< 1..LANES_PORTS_MAX */
	uint64_t guid;          /**< node GUID; 0 lets the builder invent one */
	uint64_t sysimage_guid;
	uint32_t vendor_id;
	uint32_t device_id;
	const char *desc;       /**< copied; NULL means "" */
};

struct lanes_builder;

/** @return a new empty builder in *out, or LANES_ENOMEM */
int lanes_builder_new(struct lanes_builder **out, struct lanes_error *err);

/** Free a builder that was not finished. NULL is a no-op. */
void lanes_builder_free(struct lanes_builder *b);

/**
 * Add a node. Its ports start unconnected; a CA port's GUID defaults to the
 * node GUID plus the port number, a switch port's to the node GUID.
 * @param out_index receives the node index (may be NULL)
 */
int lanes_builder_add_node(struct lanes_builder *b, const struct lanes_node_spec *spec,
			   uint32_t *out_index, struct lanes_error *err);

/** @return the number of nodes added so far */
uint32_t lanes_builder_num_nodes(const struct lanes_builder *b);

/** @return the number of ports of a node added so far (0 if no such node) */
uint8_t lanes_builder_nports(const struct lanes_builder *b, uint32_t node);

/**
 * Set a port's GUID (0 keeps the default), LID (0 means "assign one") and LMC.
 * For a switch, port 0 carries the LID.
 */
int lanes_builder_set_port(struct lanes_builder *b, uint32_t node, uint8_t port,
			   uint64_t guid, uint32_t lid, uint8_t lmc, struct lanes_error *err);

/**
 * Cable (a, pa) to (b, pb) with a width and speed (0 when unknown).
 * Connecting the same pair again is allowed (files list each cable from both
 * ends) and fills in a width or speed that was unknown; connecting a port
 * that already has a different peer is LANES_EINVAL. Port 0 cannot be cabled.
 */
int lanes_builder_connect(struct lanes_builder *b, uint32_t a, uint8_t pa, uint32_t bn,
			  uint8_t pb, uint8_t width, uint8_t speed, struct lanes_error *err);

/** @return the peer node of (node, port), or LANES_NONE */
uint32_t lanes_builder_peer(const struct lanes_builder *b, uint32_t node, uint8_t port);

/** Record a warning that will be kept on the fabric (printf-style). */
void lanes_builder_warn(struct lanes_builder *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/**
 * Freeze: assign missing or invalid LIDs, build the adjacency, and hand back
 * the fabric. The builder is consumed (freed) whether or not this succeeds.
 */
int lanes_builder_finish(struct lanes_builder *b, struct lanes_fabric **out,
			 struct lanes_error *err);

/** Free a fabric. NULL is a no-op. */
void lanes_fabric_free(struct lanes_fabric *f);

/** @return the port record of (node, port) */
static inline const struct lanes_port *lanes_fabric_port(const struct lanes_fabric *f,
							 uint32_t node, uint8_t port)
{
	return &f->ports[f->nodes[node].port_base + port];
}

/** @return the base LID of (node, port): a switch answers on its port-0 LID */
uint32_t lanes_fabric_lid(const struct lanes_fabric *f, uint32_t node, uint8_t port);

/** @return the node owning a LID, or LANES_NONE */
uint32_t lanes_fabric_lid_node(const struct lanes_fabric *f, uint32_t lid);

/** @return the node with this GUID, or LANES_NONE (linear search) */
uint32_t lanes_fabric_find_guid(const struct lanes_fabric *f, uint64_t guid);

/** @return "ca", "switch" or "router" */
const char *lanes_node_type_name(int type);

/** @return "SDR", "QDR", ... or "" for unknown */
const char *lanes_speed_name(int speed);

/** @return the speed named (case-insensitive), LANES_SPEED_UNKNOWN if none */
int lanes_speed_parse(const char *name, size_t len);

/** @return data rate of one lane in Gb/s (after encoding) */
double lanes_speed_gbps(int speed);

/** Summary numbers of a fabric, as `lanes topo info` prints them. */
struct lanes_fabric_stats {
	uint32_t switches, cas, routers;
	uint32_t links_switch_switch; /**< cables between two different switches */
	uint32_t links_switch_ca;     /**< cables between a switch and a CA or router */
	uint32_t links_other;         /**< CA to CA, router to router, ... */
	uint32_t self_loops;
	uint32_t parallel_links;      /**< cables beyond the first between one node pair */
	uint32_t radix_min, radix_max;            /**< cabled ports per switch */
	uint32_t net_radix_min, net_radix_max;    /**< switch-to-switch ports per switch */
	uint32_t hosts_min, hosts_max;            /**< CA ports per switch */
	uint32_t ports_max;           /**< largest declared port count of a switch */
	uint32_t diameter;            /**< of the switch graph, over reachable pairs */
	double avg_distance;          /**< mean switch-to-switch hops over reachable ordered pairs */
	uint32_t sampled_sources;     /**< 0: exact; else diameter and avg_distance are from
					   BFS from this many sources (the diameter a lower bound) */
	uint32_t components;          /**< connected components of the switch graph */
	uint32_t fabric_components;   /**< components of the whole fabric (all nodes, all cables) */
	uint32_t isolated_cas;        /**< CAs and routers with no cabled port at all */
	int connected;                /**< the whole fabric is one component */
};

/**
 * Compute the summary numbers. Distances come from bit-parallel BFS (64
 * sources per sweep), so this is fast on fabrics of 10k switches.
 */
int lanes_fabric_stats(const struct lanes_fabric *f, struct lanes_fabric_stats *out,
		       struct lanes_error *err);

struct lanes_progress;

/**
 * The same, the distances from at most about max_sources sources (in
 * blocks of 64 spread over the fabric) when the fabric has more switches:
 * for fabrics too large for all pairs. max_sources 0 is exact. progress
 * (lanes/progress.h; NULL: none) gets phase "distances", a unit per source.
 */
int lanes_fabric_stats_sampled(const struct lanes_fabric *f, uint32_t max_sources,
			       struct lanes_progress *progress, struct lanes_fabric_stats *out,
			       struct lanes_error *err);

/** What routing files were computed for: see lanes_fabric_fingerprint(). */
struct lanes_fingerprint {
	uint64_t nodes;  /**< types, node GUIDs, port counts and port GUIDs */
	uint64_t lids;   /**< every port's LID and LMC, with its port GUID */
	uint64_t cables; /**< both ends of every cable: port GUID and number */
};

/**
 * Fingerprints of the fabric, independent of the order its file lists
 * things in: two fabrics with the same nodes, LIDs and cables have the same,
 * and a change to any one of the three changes that part.
 */
void lanes_fabric_fingerprint(const struct lanes_fabric *f, struct lanes_fingerprint *fp);

/**
 * Connected components, in time linear in the fabric (no distances): of the
 * switch graph, and of the whole fabric over every cable (1: connected; an
 * unplugged CA is a component of its own).
 */
int lanes_fabric_components(const struct lanes_fabric *f, uint32_t *switch_components,
			    uint32_t *fabric_components, struct lanes_error *err);

/**
 * All-pairs switch hop counts, from bit-parallel breadth-first search:
 * (*out)[a * num_switches + b] for switch indices a and b, 255 when b cannot
 * be reached (or is 255 hops or more away). num_switches^2 bytes; free() it.
 */
int lanes_fabric_switch_distances(const struct lanes_fabric *f, uint8_t **out,
				  struct lanes_error *err);

/** Fault injection options: a count, or a fraction when < 1. */
struct lanes_fault_spec {
	double fail_links;    /**< switch-to-switch cables to remove */
	double fail_switches; /**< switches to remove, with the CAs that hang only off them */
	uint64_t seed;
};

/** What fault injection removed. */
struct lanes_fault_report {
	uint32_t links_removed;
	uint32_t switches_removed;
	uint32_t cas_removed;
};

/**
 * Copy a fabric without some randomly chosen switches and switch-to-switch
 * cables. The same seed removes the same parts. A count larger than what the
 * fabric has, or removing every switch, is LANES_EINVAL naming the option.
 */
int lanes_fabric_inject_faults(const struct lanes_fabric *f, const struct lanes_fault_spec *spec,
			       struct lanes_fabric **out, struct lanes_fault_report *report,
			       struct lanes_error *err);

/** A port by its node's GUID (or port GUID) and number: the cable plugged into it. */
struct lanes_fault_port {
	uint64_t guid;
	uint8_t port;
};

/** Parts an administrator names as failed. */
struct lanes_fault_names {
	const uint64_t *switch_guids;          /**< switches, by node or port-0 GUID */
	uint32_t num_switch_guids;
	const struct lanes_fault_port *cables; /**< cables, each by one of its ends */
	uint32_t num_cables;
};

/** One removed cable: both ends, by node GUID and port. */
struct lanes_fault_cable {
	uint64_t guid_a, guid_b;
	uint8_t port_a, port_b;
};

/** The parts removed, in fabric order; malloc'ed, lanes_fault_list_free(). */
struct lanes_fault_list {
	uint64_t *switches, *cas;         /**< node GUIDs */
	struct lanes_fault_cable *cables; /**< cables removed on their own (not with a switch) */
	uint32_t num_switches, num_cas, num_cables;
};

void lanes_fault_list_free(struct lanes_fault_list *list);

/**
 * lanes_fabric_inject_faults() after removing named parts: the named
 * switches and cables go first, then the random counts of spec are drawn
 * among what is left (a fraction is of what is left). A GUID that is no
 * switch or a port without a cable is LANES_EINVAL naming it. names, report
 * and list may be NULL; list receives every part removed.
 */
int lanes_fabric_remove_faults(const struct lanes_fabric *f, const struct lanes_fault_spec *spec,
			       const struct lanes_fault_names *names, struct lanes_fabric **out,
			       struct lanes_fault_report *report, struct lanes_fault_list *list,
			       struct lanes_error *err);

#ifdef __cplusplus
}
#endif
#endif
