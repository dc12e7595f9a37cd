/*
 * torus2qos.h - inside the torus-2qos engine (torus2qos.c, whose header
 * says the algorithm): the torus, where each switch sits, found by
 * recognition (bare intact tori), grown from the seed of an OpenSM
 * torus-2QoS.conf (place.c, config.c) or from a seed the engine finds
 * (place.c); and the engine's state, shared with checks.c (port groups,
 * the failure patterns refused).
 *
 * Always three dimensions, x y z, as OpenSM's torus-2QoS: a 2D torus has
 * z extent 1. Positions are x + X * (y + Y * z).
 */
#ifndef LANES_ROUTE_TORUS2QOS_H
#define LANES_ROUTE_TORUS2QOS_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"
#include "lanes/routing.h"

#define T2Q_DIMS 3
#define T2Q_ENGINE "torus-2qos"

/** The seed of torus-2QoS.conf: the switches that fix the coordinate directions. */
struct t2q_seed {
	uint64_t plus[T2Q_DIMS][2];  /**< xp_link/yp_link/zp_link GUIDs; 0 when not given */
	uint64_t minus[T2Q_DIMS][2]; /**< xm_link/ym_link/zm_link GUIDs; 0 when not given */
	int dateline[T2Q_DIMS];      /**< x_dateline ...: the seed switch sits at -dateline */
};

/** torus-2QoS.conf: the size and up to 8 seeds (next_seed starts another). */
#define T2Q_MAX_SEEDS 8
struct t2q_config {
	uint32_t extent[T2Q_DIMS];
	uint8_t mesh[T2Q_DIMS];
	uint32_t num_seeds;
	struct t2q_seed seed[T2Q_MAX_SEEDS];
};

/** Where the switches are. */
struct t2q_torus {
	uint32_t extent[T2Q_DIMS];
	uint8_t mesh[T2Q_DIMS];  /**< 1: no wraparound in that dimension */
	uint32_t num_positions;
	uint32_t *at;            /**< per position: switch index, LANES_NONE when missing */
	uint32_t *coord;         /**< per switch * 3 */
};

/** Read an OpenSM torus-2QoS.conf (LANES_EPARSE naming the line). */
int lanes_t2q_config_read(const char *path, struct t2q_config *c, struct lanes_error *err);

/** Coordinates from lanes_recognize_torus (an intact torus or mesh, up to 3 dimensions). */
int lanes_t2q_place_recognized(const struct lanes_fabric *f, struct t2q_torus *t,
			       struct lanes_error *err);

/** Coordinates grown from the first usable seed of c; tolerates failed switches and cables. */
int lanes_t2q_place_config(const struct lanes_fabric *f, const struct t2q_config *c,
		     struct t2q_torus *t, struct lanes_error *err);

/**
 * A torus with failed cables or switches and no config: seeded at the first
 * switch whose neighbours pair into closed rings (extents 3 or 5 and more),
 * the extents their lengths, then grown as from a config.
 */
int lanes_t2q_place_auto(const struct lanes_fabric *f, struct t2q_torus *t,
			 struct lanes_error *err);

/** Allocate t's arrays for its extents (all positions empty). */
int lanes_t2q_torus_alloc(struct t2q_torus *t, uint32_t num_switches, struct lanes_error *err);
void lanes_t2q_torus_free(struct t2q_torus *t);

/** Put switch sw at position (c[0], c[1], c[2]). */
void lanes_t2q_torus_put(struct t2q_torus *t, uint32_t sw, const uint32_t c[T2Q_DIMS]);

/** "0x0002c90300a00001 ("desc")" into buf. */
const char *lanes_t2q_switch_name(const struct lanes_fabric *f, uint32_t sw, char *buf,
				  size_t size);

/* ------------------------------------------------------------ the engine's state */

#define T2Q_GROUPS (2 * T2Q_DIMS) /* -x +x -y +y -z +z */
#define T2Q_LOCAL T2Q_DIMS        /* the "dimension" of a port to a CA or the switch itself */

struct t2q_params {
	char *config; /* torus-2QoS.conf, or NULL */
	int level;    /* QoS level of the path SLs, 0 or 1 */
};

/* A switch's round robin over each group's parallel cables, CA LIDs and switch LIDs apart. */
struct t2q_deal {
	uint32_t count[2][T2Q_GROUPS]; /* [is a CA][group]: routes dealt so far */
};

/* A LID range to route: a switch's own (port 0) or a CA port's (the switch port to it). */
struct t2q_endpoint {
	uint32_t base;
	uint8_t lmc, port, ca;
};

/* A pair of switches that cannot be routed, the lowest found by one worker. */
struct t2q_unroutable {
	uint32_t from, to;
};

struct t2q {
	const struct lanes_fabric *f;
	const struct lanes_route_opts *opts;
	struct lanes_routing *r;
	struct t2q_params params;
	struct t2q_torus t;
	uint32_t *group_first;  /* per switch * T2Q_GROUPS + 1: where its group's ports start */
	uint8_t *group_port;    /* the ports, in port order */
	uint8_t *dim_of_port;   /* per port slot: 0..2, or T2Q_LOCAL */
	uint32_t *run;          /* per switch * T2Q_GROUPS: steps that group's way before a gap */
	uint32_t num_missing;   /* positions without a switch */
	unsigned vl_bits;       /* VL_* bits in the maps */
	unsigned sl_bits;       /* the dimensions whose dateline bit path SLs carry */
	unsigned vls_needed;    /* what the fabric needs (the maps may use more where the budget allows) */
	unsigned num_workers;
	struct t2q_unroutable *unroutable; /* per worker */
	struct t2q_deal *deal;  /* per switch: its round robin over parallel cables */
	uint32_t *endpoint_first; /* per switch + 1: where its LIDs start in endpoint */
	struct t2q_endpoint *endpoint;
};

static inline const uint32_t *lanes_t2q_coord(const struct t2q *q, uint32_t sw)
{
	return q->t.coord + (size_t)sw * T2Q_DIMS;
}

/* How many cables switch sw has in port group g. */
static inline uint32_t lanes_t2q_group_size(const struct t2q *q, uint32_t sw, unsigned g)
{
	return q->group_first[sw * T2Q_GROUPS + g + 1] - q->group_first[sw * T2Q_GROUPS + g];
}

/* checks.c: the port groups (a cable joining no neighbours is refused), the runs, the refusals. */
int lanes_t2q_groups_init(struct t2q *q, struct lanes_error *err);
int lanes_t2q_runs_init(struct t2q *q, struct lanes_error *err);
int lanes_t2q_check_rings(const struct t2q *q, struct lanes_error *err);
int lanes_t2q_check_missing(struct t2q *q, struct lanes_error *err);

#endif
