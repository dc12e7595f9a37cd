/*
 * sim_traffic_stub.h - a stand-in for sim/traffic.c (uniform and shift
 * traffic only, every endpoint measured), so that test_sim.c and
 * bench/bench_sim.c link before the traffic patterns land in the library.
 * It compiles to nothing once src/sim/traffic.c exists (both include src/;
 * a weak definition alone would not do: the linker takes it and never
 * pulls traffic.o out of the archive). Delete this file then. Endpoints as
 * sim/traffic.h says: CA ports with a LID and a cable to a switch, in node
 * and port order.
 */
#ifndef LANES_SIM_TRAFFIC_STUB_H
#define LANES_SIM_TRAFFIC_STUB_H

#if !__has_include("sim/traffic.c")

#include <stdlib.h>
#include <string.h>

#include "lanes/rng.h"
#include "lanes/sim.h"
#include "sim/traffic.h"

__attribute__((weak)) int lanes_traffic_make(const struct lanes_fabric *f,
					     const struct lanes_sim_traffic *spec, uint64_t seed,
					     struct lanes_traffic *t, struct lanes_error *err)
{
	uint32_t n = 0;

	(void)seed;
	(void)err;
	memset(t, 0, sizeof(*t));
	t->lid = calloc(f->num_port_slots, sizeof(uint32_t));
	t->node = calloc(f->num_port_slots, sizeof(uint32_t));
	t->port = calloc(f->num_port_slots, 1);
	t->role = calloc(f->num_port_slots, 1);
	t->fixed = calloc(f->num_port_slots, sizeof(uint32_t));
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		if (f->nodes[i].type != LANES_NODE_CA)
			continue;
		for (uint32_t p = 1; p <= f->nodes[i].nports; p++) {
			const struct lanes_port *pt = &f->ports[f->nodes[i].port_base + p];

			if (!pt->lid || pt->peer_node == LANES_NONE ||
			    f->nodes[pt->peer_node].type != LANES_NODE_SWITCH)
				continue;
			t->lid[n] = pt->lid;
			t->node[n] = i;
			t->port[n++] = (uint8_t)p;
		}
	}
	t->num_endpoints = n;
	for (uint32_t i = 0; i < n; i++)
		t->fixed[i] = spec->pattern == LANES_SIM_SHIFT ? (i + spec->shift) % n : LANES_NONE;
	return 0;
}

__attribute__((weak)) uint32_t lanes_traffic_next(const struct lanes_traffic *t, uint32_t src,
						  struct lanes_rng *rng)
{
	uint32_t d;

	if (t->fixed[src] != LANES_NONE)
		return t->fixed[src] == src ? LANES_NONE : t->fixed[src];
	d = (uint32_t)lanes_rng_below(rng, t->num_endpoints - 1);
	return d >= src ? d + 1 : d;
}

__attribute__((weak)) void lanes_traffic_free(struct lanes_traffic *t)
{
	free(t->lid);
	free(t->node);
	free(t->port);
	free(t->role);
	free(t->fixed);
	free(t->set_off);
	free(t->set);
	memset(t, 0, sizeof(*t));
}

#endif /* no sim/traffic.c */
#endif
