/*
 * minhop_fast.c - minhop's switch LIDs (OpenSM's current-routing.txt, "Min
 * Hop Algorithm"; OpenSM 3.3.23 osm_ucast_mgr.c, ucast_mgr_process_port with
 * port_profile_switch_nodes off), every destination switch at once. The
 * reference is minhop.c's route_switch, one destination switch at a time;
 * tests/unit/test_minhop.c checks that both give the same tables.
 *
 * With one pass (LMC 0 everywhere) the switch LIDs come after every end
 * port and are not counted, so they all see the same counters: a switch s
 * sends switch t's LID to the first least-loaded of its min-hop ports
 * toward t. Taking s's adjacency entries in order of (their port's load,
 * their place), that is the first entry whose neighbour is one hop closer
 * to t. So each switch answers every t at once from two rows of the
 * distance matrix (s's, and its neighbour's), and each entry only looks at
 * the destinations still open, a list that the first entries empty
 * quickly. t itself (0 hops) and unreachable t (255) take none:
 * LANES_PORT_DROP, as lanes_route_hop_ports_fill leaves them.
 *
 * Why it stays: lanes_route CPU seconds, one thread, median of 7 runs
 * interleaved in one binary (lanes_minhop_route fast 0 vs 1; Release, gcc,
 * on a shared 2-core machine): fattree k=12 n=4 (20,736 endpoints) 1.09 ->
 * 0.70 (1.55x), fattree k=26 n=3 (17,576 endpoints) 0.162 -> 0.089
 * (1.81x). There most switches have no CAs, and the reference computes
 * their min-hop ports afresh for each switch LID. Where every switch has
 * CAs the reference reuses the copies it kept from the CA LIDs: on
 * dragonfly a=20 p=10 h=10 this file is no faster, on torus k=14x14x14
 * p=4 1.4x (under the bar); so minhop.c (want_fast) runs it only where a
 * quarter of the switch LIDs are of switches without CAs. A 64-bit SWAR
 * variant of the inner loop was 8% faster still on fattree k=12 n=4: not
 * worth its code.
 */
#include <stdlib.h>
#include <string.h>

#include "route/minhop/minhop_fast.h"
#include "core/util.h"

int lanes_minhop_fast_init(struct minhop_fast *fast, const struct lanes_fabric *f,
			   struct lanes_error *err)
{
	size_t ns = f->num_switches, degree = 1;

	for (uint32_t s = 0; s < ns; s++)
		if (f->adj_off[s + 1] - f->adj_off[s] > degree)
			degree = f->adj_off[s + 1] - f->adj_off[s];
	memset(fast, 0, sizeof(*fast));
	/* one block: open_destinations, lid_switches, lid_of, entries_by_load, answer */
	fast->open_destinations = malloc(sizeof(uint32_t) * (3 * (ns + 1) + degree) + ns + 1);
	if (!fast->open_destinations)
		return lanes_error_oom(err);
	fast->lid_switches = fast->open_destinations + ns + 1;
	fast->lid_of = fast->lid_switches + ns + 1;
	fast->entries_by_load = fast->lid_of + ns + 1;
	fast->answer = (uint8_t *)(fast->entries_by_load + degree);
	for (uint32_t t = 0; t < ns; t++) {
		const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[t], 0);

		if (p0->lid) {
			fast->lid_switches[fast->num_lid_switches] = t;
			fast->lid_of[fast->num_lid_switches++] = p0->lid;
		}
	}
	return 0;
}

void lanes_minhop_fast_free(struct minhop_fast *fast)
{
	free(fast->open_destinations);
	fast->open_destinations = NULL;
}

/* s's adjacency entries by (load of the port, place), into out (insertion sort, stable). */
static uint32_t sort_entries_by_load(const struct lanes_fabric *f, const uint32_t *load,
				     uint32_t s, uint32_t *out)
{
	const struct lanes_adj *adj = f->adj;
	uint32_t e0 = f->adj_off[s], n = f->adj_off[s + 1] - e0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = load[adj[e0 + i].port], j = i;

		for (; j > 0 && load[adj[out[j - 1]].port] > c; j--)
			out[j] = out[j - 1];
		out[j] = e0 + i;
	}
	return n;
}

/* For every destination t: the port of s's first entry (by load) one hop closer to t. */
static void answer_every_destination(struct minhop_fast *fast, const struct lanes_fabric *f,
				     const uint8_t *dist, uint32_t s, uint32_t nentries)
{
	const uint32_t ns = f->num_switches;
	const uint8_t *hops_s = dist + (size_t)s * ns;
	uint32_t *open = fast->open_destinations, nopen = 0;

	for (uint32_t t = 0; t < ns; t++) {
		fast->answer[t] = LANES_PORT_DROP;
		if (hops_s[t] != 0 && hops_s[t] != 255)
			open[nopen++] = t;
	}
	for (uint32_t i = 0; i < nentries && nopen; i++) {
		const struct lanes_adj *a = &f->adj[fast->entries_by_load[i]];
		const uint8_t *hops_v = dist + (size_t)a->sw * ns;
		uint32_t still_open = 0;

		for (uint32_t j = 0; j < nopen; j++) {
			uint32_t t = open[j];

			if ((uint8_t)(hops_v[t] + 1) == hops_s[t])
				fast->answer[t] = a->port;
			else
				open[still_open++] = t;
		}
		nopen = still_open;
	}
}

void lanes_minhop_fast_switch_lids(struct minhop_fast *fast, const struct lanes_fabric *f,
				   const uint8_t *dist, const struct route_load *load,
				   struct lanes_routing *r, uint32_t first, uint32_t end)
{
	const uint32_t ns = f->num_switches;

	for (uint32_t s = first; s < end; s++) {
		uint32_t n = sort_entries_by_load(f, route_load_of(load, s), s,
						  fast->entries_by_load);

		answer_every_destination(fast, f, dist, s, n);
		for (uint32_t i = 0; i < fast->num_lid_switches; i++) {
			uint32_t t = fast->lid_switches[i];

			r->lft[(size_t)fast->lid_of[i] * ns + s] = t == s ? 0 : fast->answer[t];
		}
	}
}
