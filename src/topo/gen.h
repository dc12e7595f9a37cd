/*
 * gen.h - what every generator uses to make its fabric look like a real one.
 *
 * Switches get Mellanox-style GUIDs (OUI 0x0002c9) and descriptions like
 * "MF0;dragonfly-g3-s1:MQM8700/U1"; hosts are single-port CAs described
 * "node00042 HCA-1". Cables are 4x QDR by default (the simulator setup of
 * seeds 000 and 004), or whatever the generator sets in width and speed.
 * LIDs are left to the builder, which numbers switches first when the
 * generator adds all switches before any host (the convention here).
 */
#ifndef LANES_TOPO_GEN_H
#define LANES_TOPO_GEN_H

#include <stdint.h>

#include "lanes/fabric.h"
#include "params.h"

struct gen {
	struct lanes_builder *b;
	const char *kind;   /* goes into switch descriptions */
	uint32_t switches;  /* switches added so far */
	uint32_t hosts;     /* hosts added so far */
	uint8_t width;      /* of new cables */
	uint8_t speed;
};

void gen_init(struct gen *g, struct lanes_builder *b, const char *kind);

/* A switch with nports ports; label goes into its description ("g3-s1"). */
int gen_switch(struct gen *g, unsigned nports, const char *label, uint32_t *out,
	       struct lanes_error *err);

/* count one-port hosts on ports first..first+count-1 of switch node sw. */
int gen_hosts(struct gen *g, uint32_t sw, unsigned first, unsigned count,
	      struct lanes_error *err);

/* One cable with the generator's width and speed. */
int gen_cable(struct gen *g, uint32_t a, unsigned pa, uint32_t b, unsigned pb,
	      struct lanes_error *err);

/* A switch's port count must fit: refuse with a message naming the parameters. */
int gen_check_radix(const char *kind, uint64_t radix, const char *what, struct lanes_error *err);

#endif
