/*
 * sim/sim_deadlock.c - the deadlock watchdog and its witness.
 *
 * Every watchdog_ns of simulated time the watchdog looks for blocked
 * channels: a channel (out port, VL) with a routed packet waiting for it,
 * no credits downstream, and neither a packet started on it nor its first
 * waiting packet served for watchdog_ns. A channel starved only by
 * arbitration is never blocked (its packets are served first come, first
 * served within the VL, and round robin serves every VL in turn), so a
 * blocked channel waits for credits that do not come back: the watchdog
 * stops the run and sets deadlock.
 *
 * The witness is a cycle of the wait-for graph among blocked channels:
 * channel C waits for channel C' when a packet in the buffer that C feeds
 * waits for C'. A credit loop in the sense of Dally and Seitz ("Deadlock-
 * free message routing in multiprocessor interconnection networks", IEEE
 * Trans. Computers C-36(5), 1987) made real. It is printed as the verifier
 * prints a cycle of its channel dependency graph (docs/verify.md): one line
 * per channel, `switch/port -> switch/port VL v`, with the source and
 * destination LIDs of a packet in that channel's downstream buffer that
 * waits for the next channel.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "lanes/error.h"
#include "sim/sim_internal.h"

/* A channel whose head packet has waited watchdog_ps for credits that did not come. */
static int channel_blocked(const struct sim *s, size_t ch)
{
	uint32_t head = s->requests[ch].head;
	uint64_t limit = s->now_ps - s->watchdog_ps;

	return head != LANES_NONE && s->credits[ch] < s->packet_credits &&
	       s->now_ps >= s->watchdog_ps && s->last_send_ps[ch] <= limit &&
	       s->packets[head].ready_ps <= limit &&
	       s->slot_endpoint[s->peer_slot[ch / s->vls]] == LANES_NONE;
}

/* The wait-for graph: edge k goes from channel from[k] to to[k], for packet pkt[k]. */
struct wait_graph {
	uint32_t num_nodes;
	uint32_t *channel;   /* node -> channel */
	uint32_t *node_of;   /* channel -> node, or LANES_NONE */
	uint32_t *edge_off;  /* CSR over nodes */
	uint32_t *edge_to, *edge_pkt;
};

static void graph_free(struct wait_graph *g)
{
	free(g->channel);
	free(g->node_of);
	free(g->edge_off);
	free(g->edge_to);
	free(g->edge_pkt);
}

/* Count (pass 0) or place (pass 1) the edges into node `to`'s waiting packets. */
static void graph_edges(const struct sim *s, struct wait_graph *g, uint32_t to, int pass,
			uint32_t *fill)
{
	for (uint32_t id = s->requests[g->channel[to]].head; id != LANES_NONE;
	     id = s->packets[id].next) {
		const struct sim_packet *p = &s->packets[id];
		uint32_t from = g->node_of[(size_t)s->peer_slot[p->in_slot] * s->vls + p->in_vl];

		if (from == LANES_NONE)
			continue;
		if (!pass) {
			g->edge_off[from + 1]++;
		} else {
			g->edge_to[fill[from]] = to;
			g->edge_pkt[fill[from]++] = id;
		}
	}
}

static int graph_build(const struct sim *s, struct wait_graph *g)
{
	size_t channels = (size_t)s->fabric->num_port_slots * s->vls;
	uint32_t *fill = NULL;
	int rc = LANES_ENOMEM;

	g->node_of = malloc(channels * sizeof(*g->node_of));
	g->channel = malloc(channels * sizeof(*g->channel));
	if (!g->node_of || !g->channel)
		goto out;
	g->num_nodes = 0;
	for (size_t ch = 0; ch < channels; ch++) {
		g->node_of[ch] = channel_blocked(s, ch) ? g->num_nodes : LANES_NONE;
		if (g->node_of[ch] != LANES_NONE)
			g->channel[g->num_nodes++] = (uint32_t)ch;
	}
	g->edge_off = calloc((size_t)g->num_nodes + 1, sizeof(*g->edge_off));
	fill = malloc(((size_t)g->num_nodes + 1) * sizeof(*fill));
	if (!g->edge_off || !fill)
		goto out;
	for (uint32_t v = 0; v < g->num_nodes; v++)
		graph_edges(s, g, v, 0, NULL);
	for (uint32_t v = 0; v < g->num_nodes; v++)
		g->edge_off[v + 1] += g->edge_off[v];
	g->edge_to = malloc(((size_t)g->edge_off[g->num_nodes] + 1) * sizeof(*g->edge_to));
	g->edge_pkt = malloc(((size_t)g->edge_off[g->num_nodes] + 1) * sizeof(*g->edge_pkt));
	if (!g->edge_to || !g->edge_pkt)
		goto out;
	for (uint32_t v = 0; v <= g->num_nodes; v++)
		fill[v] = g->edge_off[v];
	for (uint32_t v = 0; v < g->num_nodes; v++)
		graph_edges(s, g, v, 1, fill);
	rc = 0;
out:
	free(fill);
	return rc;
}

/*
 * Iterative depth-first search for a cycle; on success cyc[0..*len) are
 * nodes, each waiting for the next (the last for the first), and pkt[k]
 * the packet through which cyc[k] waits.
 */
static int find_cycle(const struct wait_graph *g, uint32_t *cyc, uint32_t *pkt, uint32_t *len)
{
	uint32_t n = g->num_nodes, *pos = malloc(((size_t)n + 1) * sizeof(*pos));
	uint8_t *colour = calloc((size_t)n + 1, 1);
	uint32_t *stack = malloc(((size_t)n + 1) * sizeof(*stack)), top = 0;
	int found = 0;

	if (!pos || !colour || !stack) {
		found = LANES_ENOMEM;
		goto out;
	}
	for (uint32_t root = 0; root < n && !found; root++) {
		if (colour[root])
			continue;
		stack[top++] = root;
		colour[root] = 1;
		pos[root] = g->edge_off[root];
		while (top && !found) {
			uint32_t v = stack[top - 1], e = pos[v]++;

			if (e >= g->edge_off[v + 1]) {
				colour[v] = 2;
				top--;
			} else if (colour[g->edge_to[e]] == 0) {
				uint32_t w = g->edge_to[e];

				colour[w] = 1;
				pos[w] = g->edge_off[w];
				stack[top++] = w;
			} else if (colour[g->edge_to[e]] == 1) {
				uint32_t first = 0;

				while (stack[first] != g->edge_to[e])
					first++;
				*len = 0;
				for (uint32_t k = first; k < top; k++) {
					cyc[*len] = stack[k];
					/* the edge followed out of stack[k] is the one before pos */
					pkt[(*len)++] = g->edge_pkt[pos[stack[k]] - 1];
				}
				found = 1;
			}
		}
	}
out:
	free(pos);
	free(colour);
	free(stack);
	return found;
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

/* Build the witness of a deadlock, or a note that no cycle was found. */
static int build_witness(struct sim *s)
{
	struct wait_graph g = { 0 };
	uint32_t *cyc = NULL, *pkt = NULL, len = 0;
	int rc, found;

	if ((rc = graph_build(s, &g)))
		goto out;
	cyc = malloc(((size_t)g.num_nodes + 1) * sizeof(*cyc));
	pkt = malloc(((size_t)g.num_nodes + 1) * sizeof(*pkt));
	rc = LANES_ENOMEM;
	if (!cyc || !pkt || (found = find_cycle(&g, cyc, pkt, &len)) < 0)
		goto out;
	if (found) {
		s->witness = witness_text(s, &g, cyc, pkt, len);
	} else {
		s->witness = malloc(160);
		if (s->witness)
			snprintf(s->witness, 160,
				 "deadlock at %.0f ns: %u blocked channels, no cycle among them\n",
				 (double)s->now_ps / 1000.0, g.num_nodes);
	}
	rc = s->witness ? 0 : LANES_ENOMEM;
out:
	free(cyc);
	free(pkt);
	graph_free(&g);
	return rc;
}

int lanes_sim_watchdog(struct sim *s)
{
	size_t channels = (size_t)s->fabric->num_port_slots * s->vls;

	if (s->in_network) {
		for (size_t ch = 0; ch < channels; ch++) {
			if (channel_blocked(s, ch)) {
				s->deadlock = 1;
				return build_witness(s);
			}
		}
	}
	return lanes_sim_push(s, s->now_ps + s->watchdog_ps, SIM_EV_WATCHDOG, 0);
}
