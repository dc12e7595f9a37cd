/*
 * sim/sim_engine.c - the events of the packet-level simulator: injection,
 * routing in a switch, VL arbitration on an output, the link, credits and
 * delivery (docs/sim.md tells the whole model).
 *
 * Virtual cut-through with credit-based flow control, as InfiniBand does it
 * (InfiniBand Architecture Specification vol. 1, rel. 1.2.1, ch. 7.9 "flow
 * control", credits in 64-byte blocks) and as the seed simulators model it
 * (Maglione-Mathey et al., "Leveraging InfiniBand controller to configure
 * deadlock-free routing engines for Dragonflies", JPDC 2021, Sec. 5: VCT,
 * per-VL input buffers, VOQs, round-robin VL arbitration). Per packet:
 *
 *   - a channel (out port, VL) may start a packet when its link is free and
 *     the buffer downstream has credits for the whole packet (VCT); the
 *     credits are taken then, and the link is busy for one packet time
 *     (packet_bytes * 8 / link Gb/s), but never less than it takes the tail
 *     to arrive in the buffer the packet leaves;
 *   - the head arrives after the link latency; the switch routes it in the
 *     switch latency (event READY); the tail arrives one packet time after
 *     the head;
 *   - when the tail has left a buffer, the buffer's credits go back
 *     upstream and arrive there one link latency later (event CREDIT);
 *   - a host sinks at link rate: its tail arrival is the delivery.
 *
 * The paper is silent on the arbitration among the inputs of one VL; we
 * serve them round robin (try_output), as a crossbar arbiter does, which
 * also keeps an input from starving.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/error.h"
#include "sim/sim_internal.h"

int lanes_sim_push(struct sim *s, uint64_t at_ps, unsigned kind, uint32_t index)
{
	if (s->heap.n == s->heap_cap) {
		uint32_t cap = s->heap_cap ? 2 * s->heap_cap : 1024;
		struct lanes_heap_entry *e = realloc(s->heap.entry, (size_t)cap * sizeof(*e));

		if (!e)
			return LANES_ENOMEM;
		s->heap.entry = e;
		s->heap_cap = cap;
	}
	/* ties in scheduling order; past 2^32 events the order wraps, still the same every run */
	lanes_heap_push(&s->heap, at_ps, (uint32_t)s->event_seq++,
			(uint32_t)kind << SIM_EV_SHIFT | index);
	return 0;
}

static void queue_append(struct sim *s, struct sim_queue *q, uint32_t id)
{
	s->packets[id].next = LANES_NONE;
	if (q->head == LANES_NONE)
		q->head = id;
	else
		s->packets[q->tail].next = id;
	q->tail = id;
}

static uint32_t queue_pop(struct sim *s, struct sim_queue *q)
{
	uint32_t id = q->head;

	q->head = s->packets[id].next;
	if (q->head == LANES_NONE)
		q->tail = LANES_NONE;
	return id;
}

/*
 * The forwarding step: where a packet that arrived on in_port / in_vl of a
 * switch may go next, as (out port, out VL, priority) candidates. Today one
 * candidate, from the LFT and the SL2VL map of (in port, out port); hardware
 * with several candidates (adaptive routing) fills more here, and the core
 * takes the first with the lowest priority.
 */
unsigned lanes_sim_forward(const struct sim *s, uint32_t sw_node, uint8_t in_port, uint8_t in_vl,
		     uint8_t sl, uint32_t dst_lid, struct sim_candidate *cand, unsigned max)
{
	const struct lanes_fabric *f = s->fabric;
	uint32_t sw = f->nodes[sw_node].switch_index;
	uint8_t out = lanes_routing_port(s->routing, sw, dst_lid);

	(void)in_vl;
	if (!max || out == 0 || out == LANES_PORT_DROP || out > f->nodes[sw_node].nports)
		return 0;
	cand[0].out_port = out;
	cand[0].out_vl = lanes_routing_switch_map(s->routing, f, sw, in_port, out)[sl];
	cand[0].priority = 0;
	return 1;
}

/* Account a channel's link time inside the measured window. */
static void account_busy(struct sim *s, size_t ch, uint64_t from, uint64_t to)
{
	if (from < s->warmup_end_ps)
		from = s->warmup_end_ps;
	if (to > s->end_ps)
		to = s->end_ps;
	if (to > from)
		s->busy_in_window_ps[ch] += to - from;
}

/* Start packet id on channel (slot, vl) now: link, credits, and what follows downstream. */
static int send_packet(struct sim *s, uint32_t slot, uint32_t id)
{
	struct sim_packet *p = &s->packets[id];
	size_t ch = (size_t)slot * s->vls + p->out_vl;
	uint32_t peer = s->peer_slot[slot];
	uint64_t tail_out = s->now_ps + s->packet_time_ps[slot];
	int rc;

	if (tail_out < p->tail_in_ps)
		tail_out = p->tail_in_ps;
	s->busy_until_ps[slot] = tail_out;
	s->last_send_ps[ch] = s->now_ps;
	s->packet_hops++;
	if ((rc = lanes_sim_push(s, tail_out, SIM_EV_LINK_FREE, slot)))
		return rc;
	if (p->in_slot != LANES_NONE) {
		uint32_t up = s->peer_slot[p->in_slot];

		rc = lanes_sim_push(s, tail_out + s->link_latency_ps, SIM_EV_CREDIT,
			      (uint32_t)((size_t)up * s->vls + p->in_vl));
		if (rc)
			return rc;
	}
	if (s->slot_endpoint[peer] != LANES_NONE)
		return lanes_sim_push(s, tail_out + s->link_latency_ps, SIM_EV_DELIVER, id);
	s->credits[ch] -= s->packet_credits;
	if (s->slot_is_switch[slot])
		account_busy(s, ch, s->now_ps, tail_out);
	p->in_slot = peer;
	p->in_vl = p->out_vl;
	p->tail_in_ps = tail_out + s->link_latency_ps;
	p->ready_ps = s->now_ps + s->link_latency_ps + s->switch_latency_ps;
	return lanes_sim_push(s, p->ready_ps, SIM_EV_READY, id);
}

/* Can channel ch take a packet now (credits downstream; hosts always sink)? */
static int channel_has_credits(const struct sim *s, uint32_t slot, size_t ch)
{
	return s->slot_endpoint[s->peer_slot[slot]] != LANES_NONE ||
	       s->credits[ch] >= s->packet_credits;
}

/* Has VL vl of the output at slot a request that may go now? */
static int vl_ready(const struct sim *s, uint32_t slot, unsigned vl)
{
	size_t ch = (size_t)slot * s->vls + vl;

	return vl < s->vls && s->requests[ch].head != LANES_NONE && channel_has_credits(s, slot, ch);
}

/* Has a VL arbitration table an entry of nonzero weight whose VL is ready? */
static int table_ready(const struct sim *s, uint32_t slot, const struct lanes_sim_vlarb_entry *t,
		       unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (t[k].weight && vl_ready(s, slot, t[k].vl))
			return 1;
	return 0;
}

/*
 * Serve one packet from a VL arbitration table (table_ready said one can
 * go): from the current entry while it has weight left and its VL is
 * ready, else from the next such entry, whose weight starts afresh. The
 * packet's 64-byte units are charged to the entry; when they use up its
 * weight the next entry's turn comes (the packet is sent whole).
 */
static int table_serve(const struct sim *s, uint32_t slot, const struct lanes_sim_vlarb_entry *t,
		       unsigned n, uint8_t *entry, int32_t *left)
{
	int vl;

	while (!(t[*entry].weight && *left > 0 && vl_ready(s, slot, t[*entry].vl))) {
		*entry = (uint8_t)((*entry + 1u) % n);
		*left = t[*entry].weight;
	}
	vl = t[*entry].vl;
	*left -= (int32_t)s->packet_credits;
	if (*left <= 0) {
		*entry = (uint8_t)((*entry + 1u) % n);
		*left = t[*entry].weight;
	}
	return vl;
}

/*
 * IB's weighted VL arbitration (InfiniBand Architecture Specification vol.
 * 1, rel. 1.2.1, Sec. 7.6.9): the high-priority table goes first, unless
 * it has sent its limit (vlarb_high_limit x 4 KB; 0: one packet; 255: no
 * limit) since a low-priority packet last had its chance and one is
 * waiting. The spec leaves open when a low packet "had its chance"; ours:
 * when one went, or when none was ready as a high one went.
 */
static int arbitrate_weighted(struct sim *s, uint32_t slot)
{
	const struct lanes_sim_opts *o = s->opts;
	struct sim_vlarb *st = &s->vlarb[slot];
	int high = table_ready(s, slot, o->vlarb_high, o->vlarb_high_entries);
	int low = table_ready(s, slot, o->vlarb_low, o->vlarb_low_entries);
	uint64_t limit = (uint64_t)o->vlarb_high_limit * 4096;

	if (high && (!low || o->vlarb_high_limit == 255 || st->high_bytes == 0 ||
		     st->high_bytes < limit)) {
		st->high_bytes = low ? st->high_bytes + o->packet_bytes : 0;
		return table_serve(s, slot, o->vlarb_high, o->vlarb_high_entries, &st->high_entry,
				   &st->high_left);
	}
	if (!low)
		return -1;
	st->high_bytes = 0;
	return table_serve(s, slot, o->vlarb_low, o->vlarb_low_entries, &st->low_entry,
			   &st->low_left);
}

/* VL arbitration: the VL whose request the free link serves, or -1. */
static int arbitrate(struct sim *s, uint32_t slot)
{
	size_t base = (size_t)slot * s->vls;
	int best = -1;

	if (s->opts->arbitration == LANES_SIM_ARB_WEIGHTED)
		return arbitrate_weighted(s, slot);
	for (unsigned i = 1; i <= s->vls; i++) {
		unsigned vl = (s->rr_last_vl[slot] + i) % s->vls;
		uint32_t head = s->requests[base + vl].head;

		if (head == LANES_NONE || !channel_has_credits(s, slot, base + vl))
			continue;
		if (s->opts->arbitration != LANES_SIM_ARB_AGE)
			return (int)vl;
		if (best < 0 || s->packets[head].created_ps <
				    s->packets[s->requests[base + (unsigned)best].head].created_ps)
			best = (int)vl;
	}
	return best;
}

static int request(struct sim *s, uint32_t id);

/* The channel a routed packet waits for: (out slot, out VL). */
static uint32_t channel_of(const struct sim *s, const struct sim_packet *p)
{
	return (uint32_t)((size_t)p->out_slot * s->vls + p->out_vl);
}

/*
 * Take packet id out of its input buffer's list, and return the packet that
 * asks for a channel in its place, or LANES_NONE: VOQ off, the new head of
 * the FIFO; VOQ on, the next packet of the buffer for the same channel. The
 * list holds at most a buffer's packets, so these scans are short.
 */
static uint32_t leave_input(struct sim *s, uint32_t id)
{
	const struct sim_packet *p = &s->packets[id];
	struct sim_inbuf *b = &s->inbuf[(size_t)p->in_slot * s->vls + p->in_vl];
	uint32_t i = 0, channel;

	while (b->e[i].id != id)
		i++;
	channel = b->e[i].channel;
	memmove(b->e + i, b->e + i + 1, (size_t)(b->n - i - 1) * sizeof(*b->e));
	b->n--;
	if (!s->opts->voq)
		return b->n ? b->e[0].id : LANES_NONE;
	for (; i < b->n; i++)
		if (b->e[i].channel == channel)
			return b->e[i].id;
	return LANES_NONE;
}

/*
 * A switch output: if its link is free, serve one request. Within a VL the
 * requests are served in the order they were made, and each input buffer
 * has at most one request per channel (its oldest packet for it; the next
 * one asks when that one leaves, at the back of the queue): round robin
 * among the inputs.
 */
static int try_output(struct sim *s, uint32_t slot)
{
	int vl, rc;
	uint32_t id, successor;

	if (s->busy_until_ps[slot] > s->now_ps || (vl = arbitrate(s, slot)) < 0)
		return 0;
	s->rr_last_vl[slot] = (uint8_t)vl;
	id = queue_pop(s, &s->requests[(size_t)slot * s->vls + (unsigned)vl]);
	successor = leave_input(s, id);
	/* the link is taken before the successor may ask for this same output */
	if ((rc = send_packet(s, slot, id)))
		return rc;
	return successor == LANES_NONE ? 0 : request(s, successor);
}

/* A routed packet asks for its channel. */
static int request(struct sim *s, uint32_t id)
{
	struct sim_packet *p = &s->packets[id];

	queue_append(s, &s->requests[(size_t)p->out_slot * s->vls + p->out_vl], id);
	return try_output(s, p->out_slot);
}

/* Append a created packet to a source queue's ring, doubling it when full. */
static int source_append(struct sim_source *q, const struct sim_waiting *w)
{
	if (q->count == q->cap) {
		uint32_t cap = q->cap ? 2 * q->cap : 16;
		struct sim_waiting *ring;

		if (cap < q->cap || !(ring = realloc(q->ring, (size_t)cap * sizeof(*ring))))
			return LANES_ENOMEM;
		/* unwrap: the entries before head move after the old end */
		for (uint32_t i = 0; i < q->head; i++)
			ring[q->cap + i] = ring[i];
		q->ring = ring;
		q->cap = cap;
	}
	q->ring[(q->head + q->count++) % q->cap] = *w;
	return 0;
}

/*
 * A host: if its link is free and the head of its source queue has credits,
 * it enters the network now, as a packet record.
 */
static int try_host(struct sim *s, uint32_t ep)
{
	struct sim_source *q = &s->source[ep];
	uint32_t slot = s->endpoint_slot[ep], id;
	const struct sim_waiting *w;
	struct sim_packet *p;

	if (!q->count || s->busy_until_ps[slot] > s->now_ps)
		return 0;
	w = &q->ring[q->head];
	if (!channel_has_credits(s, slot, (size_t)slot * s->vls + w->vl))
		return 0;
	if ((id = lanes_sim_packet_new(s)) == LANES_NONE)
		return LANES_ENOMEM;
	p = &s->packets[id];
	p->created_ps = w->created_ps;
	p->src_endpoint = ep;
	p->dst_endpoint = w->dst_endpoint;
	p->dst_lid = s->traffic->lid[w->dst_endpoint];
	p->in_slot = LANES_NONE;
	p->sl = w->sl;
	p->out_vl = w->vl;
	p->tail_in_ps = s->now_ps;
	q->head = (q->head + 1) % q->cap;
	q->count--;
	s->in_network++;
	return send_packet(s, slot, id);
}

/* The gap to an endpoint's next packet: Bernoulli per packet time, or Poisson. */
static uint64_t next_gap(struct sim *s, uint32_t ep, double load)
{
	double u = lanes_rng_double(&s->rng), gap = (double)s->endpoint_gap_ps[ep];

	if (s->opts->injection == LANES_SIM_POISSON)
		return (uint64_t)llround(-log1p(-u) * gap / load) + 1;
	if (load >= 1.0)
		return (uint64_t)gap;
	/* failures before the first success of a Bernoulli(load) trial per slot */
	return (uint64_t)gap * (1 + (uint64_t)floor(log1p(-u) / log1p(-load)));
}

/* An endpoint creates a packet (at the source queue's tail) and plans its next one. */
static int inject(struct sim *s, uint32_t ep)
{
	const struct lanes_traffic *t = s->traffic;
	double load = t->role[ep] == LANES_TRAFFIC_FULL_RATE ? 1.0 : s->load;
	uint32_t dst = lanes_traffic_next(t, ep, &s->rng);
	struct sim_waiting w;
	int rc;

	if (dst == LANES_NONE)
		return 0;
	w.created_ps = s->now_ps;
	w.dst_endpoint = dst;
	w.sl = lanes_routing_sl(s->routing, s->fabric, t->lid[ep], t->lid[dst]);
	w.vl = s->inject_vl_of_sl[(size_t)ep * LANES_NUM_SLS + w.sl];
	if ((rc = source_append(&s->source[ep], &w)) || (rc = try_host(s, ep)))
		return rc;
	return lanes_sim_push(s, s->now_ps + next_gap(s, ep, load), SIM_EV_INJECT, ep);
}

/*
 * A routed packet joins its input buffer's list, and asks for its channel
 * when no packet ahead of it does: VOQ off, when it is the FIFO's head;
 * VOQ on, when no packet ahead of it wants the same channel.
 */
static int join_input(struct sim *s, uint32_t id)
{
	const struct sim_packet *p = &s->packets[id];
	struct sim_inbuf *b = &s->inbuf[(size_t)p->in_slot * s->vls + p->in_vl];
	uint32_t channel = channel_of(s, p), ahead = 0;

	if (b->n == b->cap) {
		uint32_t cap = b->cap ? 2 * b->cap : 4;
		struct sim_inbuf_entry *e = realloc(b->e, (size_t)cap * sizeof(*e));

		if (!e)
			return LANES_ENOMEM;
		b->e = e;
		b->cap = cap;
	}
	while (s->opts->voq && ahead < b->n && b->e[ahead].channel != channel)
		ahead++;
	b->e[b->n].id = id;
	b->e[b->n++].channel = channel;
	/* VOQ on: no packet ahead waits for this channel; VOQ off: it is the FIFO's head */
	return (s->opts->voq ? ahead == b->n - 1 : b->n == 1) ? request(s, id) : 0;
}

/* A packet's head was routed in a switch: pick its channel and queue it. */
static int routed(struct sim *s, uint32_t id)
{
	struct sim_packet *p = &s->packets[id];
	uint32_t node = s->slot_node[p->in_slot];
	struct sim_candidate cand[4];
	unsigned n = lanes_sim_forward(s, node, s->slot_port[p->in_slot], p->in_vl, p->sl, p->dst_lid,
				 cand, 4), best = 0;

	for (unsigned k = 1; k < n; k++)
		if (cand[k].priority < cand[best].priority)
			best = k;
	if (!n || s->peer_slot[s->fabric->nodes[node].port_base + cand[best].out_port] == LANES_NONE) {
		/* dropped (no route, or a port without a cable): its buffer frees at once */
		uint32_t ch = (uint32_t)((size_t)s->peer_slot[p->in_slot] * s->vls + p->in_vl);

		s->in_network--;
		s->dropped++;
		lanes_sim_packet_free(s, id);
		return lanes_sim_push(s, s->now_ps + s->link_latency_ps, SIM_EV_CREDIT, ch);
	}
	p->out_slot = s->fabric->nodes[node].port_base + cand[best].out_port;
	p->out_vl = cand[best].out_vl;
	return join_input(s, id);
}

/* The tail of packet id reached its destination host. */
static int deliver(struct sim *s, uint32_t id)
{
	int rc = lanes_sim_record_delivery(s, &s->packets[id], s->now_ps);

	s->in_network--;
	lanes_sim_packet_free(s, id);
	return rc;
}

/* Credits for one packet came back to channel ch. */
static int credit(struct sim *s, uint32_t ch)
{
	uint32_t slot = ch / s->vls;

	s->credits[ch] += s->packet_credits;
	if (s->slot_endpoint[slot] != LANES_NONE)
		return try_host(s, s->slot_endpoint[slot]);
	return try_output(s, slot);
}

int lanes_sim_handle(struct sim *s, unsigned kind, uint32_t index)
{
	switch (kind) {
	case SIM_EV_INJECT:
		return inject(s, index);
	case SIM_EV_READY:
		return routed(s, index);
	case SIM_EV_DELIVER:
		return deliver(s, index);
	case SIM_EV_LINK_FREE:
		if (s->slot_endpoint[index] != LANES_NONE)
			return try_host(s, s->slot_endpoint[index]);
		return try_output(s, index);
	case SIM_EV_CREDIT:
		return credit(s, index);
	default:
		return lanes_sim_watchdog(s);
	}
}

/* The first packet of every sending endpoint, and the first watchdog round. */
int lanes_sim_start(struct sim *s)
{
	int rc;

	for (uint32_t ep = 0; ep < s->traffic->num_endpoints; ep++) {
		int role = s->traffic->role[ep];
		double load = role == LANES_TRAFFIC_FULL_RATE ? 1.0 : s->load;

		if (role == LANES_TRAFFIC_IDLE || load <= 0.0)
			continue;
		if ((rc = lanes_sim_push(s, next_gap(s, ep, load), SIM_EV_INJECT, ep)))
			return rc;
	}
	return lanes_sim_push(s, s->watchdog_ps, SIM_EV_WATCHDOG, 0);
}
