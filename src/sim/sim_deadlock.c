/*
 * sim/sim_deadlock.c - the deadlock watchdog and its witness.
 *
 * A deadlock is a set of channels (out port, VL) that can never send
 * again: each has no credits left downstream, and every packet in the
 * buffer it feeds waits for a channel of the same set, so no buffer of the
 * set ever frees a credit. This is a credit loop in the sense of Dally and
 * Seitz ("Deadlock-free message routing in multiprocessor interconnection
 * networks", IEEE Trans. Computers C-36(5), 1987) made real: their channel
 * dependency graph, restricted to the dependencies the waiting packets
 * actually have. Congestion alone (tree saturation behind a hot spot) is
 * no deadlock: some packet of some buffer on the way waits for a channel
 * that still moves.
 *
 * Every watchdog_ns of simulated time the watchdog takes the stuck
 * channels (packets waiting, no credits, nothing sent for watchdog_ns, so
 * no credit is on its way back) and removes, until nothing changes, every
 * one whose downstream buffer holds no routed packet or a packet that
 * waits for a channel not (or no longer) in the set. What remains is a
 * deadlock, and every channel left has a successor left: following them
 * from any channel closes a cycle, the witness. It is printed as the
 * verifier prints a cycle of its channel dependency graph (docs/verify.md):
 * one line per channel, `switch/port -> switch/port VL v`, with the source
 * and destination LIDs of a packet in that channel's downstream buffer that
 * waits for the next channel.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/error.h"
#include "sim/sim_internal.h"

/* Packets wait for the channel, it has no credits and sent nothing for watchdog_ps. */
static int channel_stuck(const struct sim *s, size_t ch)
{
	return s->requests[ch].head != LANES_NONE && s->credits[ch] < s->packet_credits &&
	       s->now_ps >= s->watchdog_ps && s->last_send_ps[ch] <= s->now_ps - s->watchdog_ps &&
	       s->slot_endpoint[s->peer_slot[ch / s->vls]] == LANES_NONE;
}

/*
 * The wait-for graph among stuck channels: node v is channel[v]; edge k
 * from[k] -> to[k] (packet pkt[k] in from's downstream buffer waits for to).
 */
struct wait_graph {
	uint32_t num_nodes, num_edges;
	uint32_t *channel;   /* node -> channel */
	uint32_t *node_of;   /* channel -> node, or LANES_NONE */
	uint8_t *alive;      /* per node: still possibly deadlocked */
	uint32_t *from, *to, *pkt;
};

static void graph_free(struct wait_graph *g)
{
	free(g->channel);
	free(g->node_of);
	free(g->alive);
	free(g->from);
	free(g->to);
	free(g->pkt);
}

/* The node of the channel that fed the buffer packet p waits in, or LANES_NONE. */
static uint32_t feeding_node(const struct sim *s, const struct wait_graph *g,
			     const struct sim_packet *p)
{
	return g->node_of[(size_t)s->peer_slot[p->in_slot] * s->vls + p->in_vl];
}

/*
 * Every routed packet that waits: an edge when both its channel and the one
 * that fed its buffer are stuck; else the feeding channel (if stuck) has a
 * way out. A stuck channel with no waiting packet downstream is alive only
 * once one is seen (alive 2 -> 1 below).
 */
static void graph_edges(const struct sim *s, struct wait_graph *g, size_t channels, int place)
{
	for (size_t ch = 0; ch < channels; ch++) {
		uint32_t to = g->node_of[ch];

		for (uint32_t id = s->requests[ch].head; id != LANES_NONE; id = s->packets[id].next) {
			uint32_t from = feeding_node(s, g, &s->packets[id]);

			if (from == LANES_NONE)
				continue;
			if (to == LANES_NONE) {
				g->alive[from] = 0;
				continue;
			}
			if (place) {
				g->from[g->num_edges] = from;
				g->to[g->num_edges] = to;
				g->pkt[g->num_edges] = id;
				if (g->alive[from] == 2)
					g->alive[from] = 1;
			}
			g->num_edges++;
		}
	}
}

static int graph_build(const struct sim *s, struct wait_graph *g)
{
	size_t channels = (size_t)s->fabric->num_port_slots * s->vls;

	g->node_of = malloc(channels * sizeof(*g->node_of));
	g->channel = malloc(channels * sizeof(*g->channel));
	if (!g->node_of || !g->channel)
		return LANES_ENOMEM;
	for (size_t ch = 0; ch < channels; ch++) {
		g->node_of[ch] = channel_stuck(s, ch) ? g->num_nodes : LANES_NONE;
		if (g->node_of[ch] != LANES_NONE)
			g->channel[g->num_nodes++] = (uint32_t)ch;
	}
	if (!g->num_nodes)
		return 0;
	g->alive = malloc(g->num_nodes);
	if (!g->alive)
		return LANES_ENOMEM;
	memset(g->alive, 2, g->num_nodes);
	graph_edges(s, g, channels, 0);
	g->from = malloc(((size_t)g->num_edges + 1) * sizeof(*g->from));
	g->to = malloc(((size_t)g->num_edges + 1) * sizeof(*g->to));
	g->pkt = malloc(((size_t)g->num_edges + 1) * sizeof(*g->pkt));
	if (!g->from || !g->to || !g->pkt)
		return LANES_ENOMEM;
	g->num_edges = 0;
	graph_edges(s, g, channels, 1);
	for (uint32_t v = 0; v < g->num_nodes; v++)
		g->alive[v] = g->alive[v] == 1;
	return 0;
}

/* Remove, until nothing changes, the channels with a packet waiting for a removed one. */
static uint32_t graph_settle(struct wait_graph *g)
{
	uint32_t left = 0;
	int changed = 1;

	while (changed) {
		changed = 0;
		for (uint32_t k = 0; k < g->num_edges; k++) {
			if (g->alive[g->from[k]] && !g->alive[g->to[k]]) {
				g->alive[g->from[k]] = 0;
				changed = 1;
			}
		}
	}
	for (uint32_t v = 0; v < g->num_nodes; v++)
		left += g->alive[v];
	return left;
}

/*
 * The witness cycle: from the first channel left, follow to each channel's
 * first edge to a channel left until one repeats; cyc[0..*len) are the
 * channels of the cycle, pkt[k] the packet through which cyc[k] waits.
 */
static void find_cycle(const struct wait_graph *g, uint32_t *order, uint32_t *via,
		       uint32_t *cyc, uint32_t *pkt, uint32_t *len)
{
	uint32_t v = 0, steps = 0, first;

	while (!g->alive[v])
		v++;
	for (uint32_t u = 0; u < g->num_nodes; u++)
		order[u] = LANES_NONE;
	while (order[v] == LANES_NONE) {
		uint32_t k = 0;

		while (g->from[k] != v || !g->alive[g->to[k]])
			k++;
		order[v] = steps++;
		via[v] = k;
		v = g->to[k];
	}
	first = v;
	*len = 0;
	do {
		cyc[*len] = v;
		pkt[(*len)++] = g->pkt[via[v]];
		v = g->to[via[v]];
	} while (v != first);
}

static const char *node_name(const struct lanes_fabric *f, uint32_t node, char *buf, size_t n)
{
	if (f->nodes[node].desc[0])
		return f->nodes[node].desc;
	snprintf(buf, n, "0x%016" PRIx64, f->nodes[node].guid);
	return buf;
}

/* The witness text of a cycle of len channels. */
static char *witness_text(const struct sim *s, const struct wait_graph *g, const uint32_t *cyc,
			  const uint32_t *pkt, uint32_t len)
{
	const struct lanes_fabric *f = s->fabric;
	size_t size = 200 + (size_t)len * 400, used;
	char *text = malloc(size), a[40], b[40];

	if (!text)
		return NULL;
	used = (size_t)snprintf(text, size,
				"deadlock at %.0f ns: a cycle of %u (port, VL) buffers whose packets "
				"wait on each other's credits\n",
				(double)s->now_ps / 1000.0, len);
	for (uint32_t k = 0; k < len && used < size; k++) {
		uint32_t ch = g->channel[cyc[k]], slot = ch / s->vls, peer = s->peer_slot[slot];
		const struct sim_packet *p = &s->packets[pkt[k]];

		used += (size_t)snprintf(
			text + used, size - used,
			"  %s/%u -> %s/%u VL %u   (LID 0x%04x -> 0x%04x waits for the next)\n",
			node_name(f, s->slot_node[slot], a, sizeof(a)), s->slot_port[slot],
			node_name(f, s->slot_node[peer], b, sizeof(b)), s->slot_port[peer],
			ch % s->vls, s->traffic->lid[p->src_endpoint], p->dst_lid);
	}
	return text;
}

/* The witness of the deadlock that g holds. */
static int build_witness(struct sim *s, const struct wait_graph *g)
{
	size_t n = (size_t)g->num_nodes + 1;
	uint32_t *order = malloc(n * sizeof(*order)), *via = malloc(n * sizeof(*via));
	uint32_t *cyc = malloc(n * sizeof(*cyc)), *pkt = malloc(n * sizeof(*pkt)), len = 0;
	int rc = LANES_ENOMEM;

	if (!order || !via || !cyc || !pkt)
		goto out;
	find_cycle(g, order, via, cyc, pkt, &len);
	if ((s->witness = witness_text(s, g, cyc, pkt, len)))
		rc = 0;
out:
	free(order);
	free(via);
	free(cyc);
	free(pkt);
	return rc;
}

int lanes_sim_watchdog(struct sim *s)
{
	struct wait_graph g = { 0 };
	int rc = 0;

	if (s->in_network) {
		if ((rc = graph_build(s, &g)))
			goto out;
		if (g.num_nodes && graph_settle(&g)) {
			s->deadlock = 1;
			rc = build_witness(s, &g);
			goto out;
		}
	}
	rc = lanes_sim_push(s, s->now_ps + s->watchdog_ps, SIM_EV_WATCHDOG, 0);
out:
	graph_free(&g);
	return rc;
}
