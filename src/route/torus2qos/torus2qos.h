/*
 * torus2qos.h - the torus of the torus-2qos engine (torus2qos.c): where
 * each switch sits, found by recognition (bare intact tori) or grown from
 * the seed of an OpenSM torus-2QoS.conf (place.c, config.c).
 *
 * Always three dimensions, x y z, as OpenSM's torus-2QoS: a 2D torus has
 * z extent 1. Positions are x + X * (y + Y * z).
 */
#ifndef LANES_ROUTE_TORUS2QOS_H
#define LANES_ROUTE_TORUS2QOS_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"

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
int lanes_t2q_place_recognized(const struct lanes_fabric *f, struct t2q_torus *t, struct lanes_error *err);

/** Coordinates grown from the first usable seed of c; tolerates failed switches and cables. */
int lanes_t2q_place_config(const struct lanes_fabric *f, const struct t2q_config *c,
		     struct t2q_torus *t, struct lanes_error *err);

/**
 * A torus with failed cables or switches and no config: seeded at the first
 * switch whose neighbours pair into closed rings (extents 3 or 5 and more),
 * the extents their lengths, then grown as from a config.
 */
int lanes_t2q_place_auto(const struct lanes_fabric *f, struct t2q_torus *t, struct lanes_error *err);

/** Allocate t's arrays for its extents (all positions empty). */
int lanes_t2q_torus_alloc(struct t2q_torus *t, uint32_t num_switches, struct lanes_error *err);
void lanes_t2q_torus_free(struct t2q_torus *t);

/** Put switch sw at position (c[0], c[1], c[2]). */
void lanes_t2q_torus_put(struct t2q_torus *t, uint32_t sw, const uint32_t c[T2Q_DIMS]);

/** "0x0002c90300a00001 ("desc")" into buf. */
const char *lanes_t2q_switch_name(const struct lanes_fabric *f, uint32_t sw, char *buf, size_t size);

#endif
