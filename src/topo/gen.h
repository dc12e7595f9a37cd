/*
 * gen.h - what every generator uses to make its fabric look like a real one.
 *
 * Switches get Mellanox-style GUIDs (OUI 0x0002c9) and descriptions like
 * "MF0;dragonfly-g3-s1:MQM8700/U1"; hosts are CAs described
 * "node00042 HCA-1" (one port, or several for multi-rail fat trees). Cables
 * are 4x QDR by default (the simulator setup of seeds 000 and 004), or
 * whatever the generator sets in width and speed. LIDs are left to the
 * builder, which numbers switches first when the generator adds all switches
 * before any host (the convention here).
 *
 * GUIDs: switch i has GEN_SWITCH_GUID_BASE + i; host GUIDs come from a block
 * of GEN_HOST_GUID_SPAN GUIDs at GEN_HOST_GUID_BASE, each host taking an
 * aligned slot of 4 GUIDs (or the next power of two above its port count),
 * its ports being node GUID + port. Switch GUIDs that would run into the host
 * block skip over it. A fabric holds at most LANES_LID_MAX LIDs, one per
 * switch and per host port, so the host slots fit the block (2^24 one-port
 * hosts take 2^26 GUIDs; h hosts of w ports need h * w LIDs and take less
 * than h * max(4, 2w) GUIDs) and switch and host GUIDs never meet, while
 * every fabric below 6,291,456 switches keeps the GUIDs it always had.
 */
#ifndef LANES_TOPO_GEN_H
#define LANES_TOPO_GEN_H

#include <stdint.h>

#include "lanes/fabric.h"
#include "params.h"

#define GEN_SWITCH_GUID_BASE 0x0002c90300a00000ULL
#define GEN_HOST_GUID_BASE 0x0002c90301000000ULL
#define GEN_HOST_GUID_SPAN (1ULL << 26)

struct gen {
	struct lanes_builder *b;
	const char *kind;   /* goes into switch descriptions */
	uint32_t switches;  /* switches added so far */
	uint32_t hosts;     /* hosts added so far */
	uint64_t host_guid; /* next free offset in the host GUID block */
	uint8_t width;      /* of new cables */
	uint8_t speed;
};

void lanes_gen_init(struct gen *g, struct lanes_builder *b, const char *kind);

/* A switch with nports ports; label goes into its description ("g3-s1"). */
int lanes_gen_switch(struct gen *g, unsigned nports, const char *label, uint32_t *out,
	       struct lanes_error *err);

/* One uncabled host (a CA) with ports 1..nports; *out is its node index. */
int lanes_gen_host(struct gen *g, unsigned nports, uint32_t *out, struct lanes_error *err);

/* count one-port hosts on ports first..first+count-1 of switch node sw. */
int lanes_gen_hosts(struct gen *g, uint32_t sw, unsigned first, unsigned count,
	      struct lanes_error *err);

/* One cable with the generator's width and speed. */
int lanes_gen_cable(struct gen *g, uint32_t a, unsigned pa, uint32_t b, unsigned pb,
	      struct lanes_error *err);

/* A switch's port count must fit: refuse with a message naming the parameters. */
int lanes_gen_check_radix(const char *kind, uint64_t radix, const char *what, struct lanes_error *err);

/* lanes_gen_check_lids() when the parameters were only measured: not an error. */
#define GEN_MEASURED (-1000)

/*
 * Refuse a fabric whose switches plus host ports need more LIDs than lanes
 * holds (LANES_LID_MAX); what names the parameters ("k=4x4 p=8"). Pass
 * counts computed with lanes_gen_sat_mul/lanes_gen_sat_add, so huge parameters are
 * refused rather than wrapped. Every generator calls it once its parameters
 * are read and before it builds anything: under lanes_topo_measure()
 * (prm->measure set) it stores counts that pass there and returns GEN_MEASURED,
 * which the generator passes up like an error.
 */
int lanes_gen_check_lids(struct lanes_params *prm, const char *kind, const char *what,
			 uint64_t switches, uint64_t host_ports, struct lanes_error *err);

/* Saturating arithmetic for size checks: UINT64_MAX instead of wrapping. */
uint64_t lanes_gen_sat_mul(uint64_t a, uint64_t b);
uint64_t lanes_gen_sat_add(uint64_t a, uint64_t b);

#endif
