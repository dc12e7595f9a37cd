/*
 * minhop_swlids.c - minhop's switch LIDs (seed 002, "Min Hop Algorithm";
 * OpenSM 3.3.23 osm_ucast_mgr.c, ucast_mgr_process_port with
 * port_profile_switch_nodes off), every destination switch at once.
 *
 * With one pass (LMC 0 everywhere) the switch LIDs come after every end
 * port and are not counted, so they all see the same counters: a switch s
 * sends switch t's LID to the first least-loaded of its min-hop ports
 * toward t (lanes_route_fill_lids for one uncounted LID). Taking s's adjacency
 * entries in order of (its port's load, its place), that is the first
 * entry whose neighbour is one hop closer to t. So each switch answers every
 * t at once: the distance matrix is symmetric, row s holds s's hops to
 * every t and row v its neighbour's, and one 64-bit word of each compares
 * eight destinations, a byte each (v's hops + 1 == s's hops, with no carry
 * between bytes, so the byte order of the machine does not matter). Each
 * destination takes the first entry that matches; the scan of s stops when
 * all are answered. t itself (0 hops) and unreachable t (255) take none:
 * LANES_PORT_DROP, as lanes_route_hop_ports_fill leaves them.
 *
 * O(S^2 / 8 * entries scanned) word operations instead of an adjacency
 * scan per destination switch.
 */
#include "route/minhop/minhop_swlids.h"

#include "route/common/swar.h"
#include "route/common/load.h"

#include <stdlib.h>
#include <string.h>

int lanes_minhop_swlids_init(struct minhop_swlids *w, const struct lanes_fabric *f,
		       struct lanes_error *err)
{
	size_t ns = f->num_switches, nw = ns / 8 + 1, deg = 1;

	for (uint32_t s = 0; s < ns; s++)
		if (f->adj_off[s + 1] - f->adj_off[s] > deg)
			deg = f->adj_off[s + 1] - f->adj_off[s];
	/* one block: open, col, to, idx, ans */
	w->open = malloc(sizeof(uint64_t) * nw + sizeof(uint8_t *) * (ns + 1) +
			 sizeof(uint32_t) * (ns + 1 + deg) + 8 * nw);
	if (!w->open)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	w->col = (uint8_t **)(w->open + nw);
	w->to = (uint32_t *)(w->col + ns + 1);
	w->idx = w->to + ns + 1;
	w->ans = (uint8_t *)(w->idx + deg);
	return 0;
}

void lanes_minhop_swlids_free(struct minhop_swlids *w)
{
	free(w->open);
	w->open = NULL;
}

/* s's adjacency entries by (load of the port, place), into idx (insertion sort, stable). */
static uint32_t entries_by_load(const struct lanes_fabric *f, const uint32_t *load, uint32_t s,
				uint32_t *idx)
{
	const struct lanes_adj *adj = f->adj;
	uint32_t e0 = f->adj_off[s], n = f->adj_off[s + 1] - e0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = load[adj[e0 + i].port], j = i;

		for (; j > 0 && load[adj[idx[j - 1]].port] > c; j--)
			idx[j] = idx[j - 1];
		idx[j] = e0 + i;
	}
	return n;
}

/*
 * Eight destinations at a time (the full words of row s): each open byte
 * takes the port of the first entry (in idx order) that matches, and
 * closes; the scan stops when no word has an open byte.
 */
static void answer_words(struct minhop_swlids *w, const struct lanes_fabric *f,
			 const uint8_t *dist, uint32_t s, uint32_t n)
{
	const uint32_t ns = f->num_switches, nw = ns / 8;
	const uint8_t *rs = dist + (size_t)s * ns;
	uint64_t *open = w->open;
	uint32_t left = 0;

	for (uint32_t k = 0; k < nw; k++) {
		/* 0 hops (s itself) and 255 (unreachable) take none */
		open[k] = swar_between(rs + 8 * k);
		left += open[k] != 0;
	}
	for (uint32_t i = 0; i < n && left; i++) {
		const struct lanes_adj *a = &f->adj[w->idx[i]];
		const uint8_t *rv = dist + (size_t)a->sw * ns;
		uint64_t port = a->port * SWAR_ONES;

		for (uint32_t k = 0; k < nw; k++) {
			uint64_t z, keep, ans;

			if (!open[k])
				continue;
			z = swar_one_closer(rv + 8 * k, rs + 8 * k) & open[k];
			if (!z)
				continue;
			keep = (z >> 7) * 0xff;
			ans = swar_word(w->ans + 8 * k);
			ans = (ans & ~keep) | (port & keep);
			memcpy(w->ans + 8 * k, &ans, 8);
			open[k] &= ~z;
			left -= !open[k];
		}
	}
}

/* The destinations past the full words, one byte at a time. */
static void answer_tail(struct minhop_swlids *w, const struct lanes_fabric *f,
			const uint8_t *dist, uint32_t s, uint32_t n)
{
	const uint32_t ns = f->num_switches;
	const uint8_t *rs = dist + (size_t)s * ns;

	for (uint32_t t = ns / 8 * 8; t < ns; t++) {
		if (rs[t] == 0 || rs[t] == 255)
			continue;
		for (uint32_t i = 0; i < n; i++) {
			const struct lanes_adj *a = &f->adj[w->idx[i]];

			if ((uint8_t)(dist[(size_t)a->sw * ns + t] + 1) == rs[t]) {
				w->ans[t] = a->port;
				break;
			}
		}
	}
}

void lanes_minhop_swlids_route(struct minhop_swlids *w, const struct lanes_fabric *f,
			 const uint8_t *dist, const struct route_load *load,
			 struct lanes_routing *r)
{
	const uint32_t ns = f->num_switches;
	uint32_t *to = w->to, nt = 0;

	for (uint32_t t = 0; t < ns; t++) {
		const struct lanes_port *p0 = lanes_fabric_port(f, f->switches[t], 0);

		if (p0->lid) {
			w->col[nt] = r->lft + (size_t)p0->lid * ns;
			to[nt++] = t;
		}
	}
	for (uint32_t s = 0; s < ns; s++) {
		uint32_t n = entries_by_load(f, route_load_of(load, s), s, w->idx);
		const uint8_t *ans = w->ans;

		memset(w->ans, LANES_PORT_DROP, ns);
		answer_words(w, f, dist, s, n);
		answer_tail(w, f, dist, s, n);
		for (uint32_t i = 0; i < nt; i++)
			w->col[i][s] = ans[to[i]];
	}
	for (uint32_t i = 0; i < nt; i++)
		w->col[i][to[i]] = 0;
}
