/*
 * ftree.h - the fat-tree engine's model of the fabric (ftree.c says the
 * algorithm): switches with ranks and tuples, their cables bundled into port
 * groups (all cables to one neighbour), the CAs' ports, and the balancing
 * counters of OpenSM's osm_ucast_ftree.c.
 */
#ifndef LANES_ROUTE_FTREE_H
#define LANES_ROUTE_FTREE_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"

#define FTREE_TUPLE_LEN 8  /* OpenSM's tuple: the rank, then one digit per level */
#define FTREE_MAX_RANK 8   /* OpenSM's FAT_TREE_MAX_RANK: levels of switches, at most */
#define FTREE_NO_HOPS 0xFF /* no route yet (OpenSM's OSM_NO_PATH in its hop table) */

/* One cable of a port group, as seen from the group's switch. */
struct ftree_port {
	uint8_t port;          /* our port number */
	uint8_t remote_port;   /* the port number at the other end */
	uint32_t counter_up;   /* routes sent up into this cable's far switch ... */
	uint32_t counter_down; /* ... and down, as OpenSM counts them */
};

/* All cables from one switch to one neighbour (a switch, or one CA port). */
struct ftree_group {
	uint32_t counter_up;
	uint32_t counter_down;
	uint32_t remote_order;      /* the far switch's place in tuple order; UINT32_MAX for a CA */
	uint32_t remote;            /* switch index, or the CA's node index */
	uint8_t remote_is_ca;
	uint8_t ca_port;            /* for a CA: the CA's port number */
	uint32_t remote_lid;        /* the neighbour switch's LID, or the CA port's LID */
	uint32_t first_port;        /* its cables: ports[first_port .. + num_ports), by port number */
	uint32_t num_ports;
};

struct ftree_switch {
	uint32_t rank;                   /* 0 at the roots, leaf_rank at the leaves */
	uint8_t tuple[FTREE_TUPLE_LEN];  /* OpenSM's index; all 0xFF until assigned */
	uint8_t is_leaf;                 /* a leaf with compute nodes */
	uint32_t first_group, num_groups; /* its groups in ftree.groups, by first port */
	uint32_t *down, num_down;        /* group indices, in OpenSM's current order */
	uint32_t *up, num_up;
	uint32_t down_start;             /* OpenSM's down_port_groups_idx (reverse hops) */
	uint32_t num_down_switches;      /* down groups to switches (the others go to CAs) */
	uint32_t twin_class;             /* switches with the same down switches share it */
	uint8_t has_ca_down;             /* a CA port is cabled to it */
	uint8_t down_sort_owed;          /* a skipped descent's sort of down[], owed to readers */
	uint8_t down_in_order;           /* down[] is known sorted by its counters */
	uint32_t lid;
	uint32_t num_cns;                /* compute-node CA ports cabled to it */
	uint32_t num_ca_ports;           /* CA ports cabled to it */
};

/* One CA port cabled to a switch. */
struct ftree_ca_port {
	uint32_t node;   /* the CA */
	uint8_t port;
	uint8_t is_cn;   /* a compute node (balanced) */
	uint8_t is_io;   /* in the I/O GUID file: may use reverse hops */
	uint8_t routed;  /* its LID has been routed */
	uint32_t sw;     /* the switch it is cabled to */
	uint8_t sw_port; /* and that switch's port */
	uint32_t lid;
};

struct ftree {
	const struct lanes_fabric *f;
	struct lanes_routing *r;
	struct ftree_switch *sw;      /* per switch index */
	struct ftree_group *groups;
	uint32_t num_groups;
	struct ftree_port *ports;
	uint32_t *group_lists;        /* the storage of every switch's down[] and up[] */
	struct ftree_ca_port *cas;    /* per cabled CA port, in node then port order */
	uint32_t num_cas;
	uint32_t *node_cns;           /* per node: its compute-node ports (OpenSM's hca->cn_num) */
	uint32_t leaf_rank;
	uint32_t *leaves;             /* OpenSM's leaf_switches array, by tuple */
	uint32_t num_leaves;
	uint32_t max_cn_per_leaf;
	const uint64_t *cn_guids;     /* sorted port GUIDs of the compute nodes, or NULL: all */
	uint32_t num_cn_guids;
	const uint64_t *io_guids;     /* sorted port GUIDs of the I/O nodes, or NULL */
	uint32_t num_io_guids;
	const uint32_t *roots;        /* the root GUID file's switches; NULL: ranks from the CNs */
	uint32_t num_roots;
	unsigned max_reverse_hops;
	int reverse_hops_used;        /* a route used a reverse hop: check for credit loops */
	uint8_t *hops;                /* per switch: hops to the current target ... */
	uint32_t *hops_stamp;         /* ... valid where hops_stamp equals stamp */
	uint32_t stamp;
	uint32_t *twin_stamp;         /* per twin class: twin_hops is valid where it equals stamp */
	uint32_t *twin_hops;          /* the fewest hops at which a class member descended */
	uint32_t num_twin_classes;
	struct lanes_progress *progress; /* opts->progress: routing counts its targets */
};

/* ftree_build.c: the groups, the ranking (LANES_EREFUSED naming the switch), the tuples. */
int lanes_ftree_build(struct ftree *t, struct lanes_error *err);
void lanes_ftree_free(struct ftree *t);

/*
 * ftree_route.c: OpenSM's routing to CNs, other CAs and switches, in its
 * order. Progress (t->progress): phase "routing", a unit per target routed
 * (a leaf's compute nodes and dummies, another CA port, a switch LID).
 */
int lanes_ftree_route_all(struct ftree *t, int switch_lids, struct lanes_error *err);

#endif
