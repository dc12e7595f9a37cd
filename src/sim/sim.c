/*
 * sim/sim.c - the packet-level simulator's public calls (lanes/sim.h): the
 * options, one load point (setup, the event loop, the measurement) and a
 * sweep of points over threads. The events are in sim_engine.c, the
 * deadlock watchdog in sim_deadlock.c; docs/sim.md tells the model.
 *
 * The defaults are those of Maglione-Mathey, Yebenes, Escudero-Sahuquillo,
 * Garcia, Quiles and Zahavi, "Leveraging InfiniBand controller to configure
 * deadlock-free routing engines for Dragonflies", JPDC 147 (2021), Sec. 5:
 * QDR 4x links, 4 KB MTU and packets, 8 data VLs, 16 packets per VL, VOQs.
 *
 * What is measured (the paper does not say how; we follow the usual
 * practice of network simulators, e.g. Dally and Towles, "Principles and
 * Practices of Interconnection Networks", ch. 23): after warmup_ns, for
 * measure_ns, the bytes delivered in that window from measured sources
 * (accepted load, per source, as a fraction of its link), and the latency
 * (creation to tail delivery) of the packets created in the window and
 * delivered before its end. The hot-spot pattern is measured where the
 * paper says, at the endpoints that receive no hot-spot traffic: bytes
 * delivered to them, per such endpoint (sim/traffic.h, measured[]); its
 * latency too is that of the packets to them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "core/util.h"
#include "lanes/error.h"
#include "sim/sim_internal.h"

#define SIM_CREDIT_BYTES 64

void lanes_sim_opts_init(struct lanes_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->data_vls = 8;
	o->link_gbps = 32.0;
	o->mtu_bytes = 4096;
	o->packet_bytes = 4096;
	o->buffer_packets = 16;
	o->buffer_bytes = 0;
	o->voq = 1;
	o->arbitration = LANES_SIM_ARB_ROUND_ROBIN;
	o->injection = LANES_SIM_BERNOULLI;
	o->link_latency_ns = 10.0;
	o->switch_latency_ns = 100.0;
	o->warmup_ns = 1e6;
	o->measure_ns = 5e6;
	o->watchdog_ns = 100e3;
	o->seed = 1;
	o->threads = 0;
	/* weighted arbitration: every VL once in the low table, weight 1 (one packet): round robin */
	o->vlarb_low_entries = 15;
	for (uint8_t vl = 0; vl < 15; vl++) {
		o->vlarb_low[vl].vl = vl;
		o->vlarb_low[vl].weight = 1;
	}
}

void lanes_sim_traffic_init(struct lanes_sim_traffic *t)
{
	memset(t, 0, sizeof(*t));
	t->pattern = LANES_SIM_UNIFORM;
	t->shift = 1;
	t->hotspot_fraction = 0.06;
}

void lanes_sim_point_clear(struct lanes_sim_point *p)
{
	if (!p)
		return;
	free(p->deadlock_witness);
	p->deadlock_witness = NULL;
}

static uint32_t credits_of(uint32_t bytes)
{
	return (bytes + SIM_CREDIT_BYTES - 1) / SIM_CREDIT_BYTES;
}

/*
 * The VL arbitration tables: at most 64 entries each, VLs 0..14, and every
 * VL the routing uses served by an entry of nonzero weight (else its
 * packets would wait for ever, which the watchdog would not call a
 * deadlock: the channel has credits).
 */
static int check_vlarb(const struct lanes_routing *r, const struct lanes_sim_opts *o,
		       struct lanes_error *err)
{
	uint16_t served = 0;

	if (o->vlarb_high_entries > LANES_SIM_VLARB_ENTRIES ||
	    o->vlarb_low_entries > LANES_SIM_VLARB_ENTRIES)
		return lanes_error_set(err, LANES_EINVAL,
				       "vlarb_high_entries and vlarb_low_entries must be 0..%u",
				       LANES_SIM_VLARB_ENTRIES);
	for (unsigned k = 0; k < o->vlarb_high_entries + o->vlarb_low_entries; k++) {
		const struct lanes_sim_vlarb_entry *e =
			k < o->vlarb_high_entries ? &o->vlarb_high[k]
						  : &o->vlarb_low[k - o->vlarb_high_entries];

		if (e->vl > 14)
			return lanes_error_set(err, LANES_EINVAL,
					       "vlarb: VL %u in an arbitration table; data VLs are "
					       "0..14", e->vl);
		if (e->weight)
			served |= (uint16_t)(1u << e->vl);
	}
	for (unsigned vl = 0; vl < r->num_vls; vl++)
		if (!(served >> vl & 1))
			return lanes_error_set(err, LANES_EINVAL,
					       "vlarb: the routing uses VL %u, which no arbitration "
					       "table entry of nonzero weight serves", vl);
	return 0;
}

static int check_opts(const struct lanes_fabric *f, const struct lanes_routing *r,
		      const struct lanes_sim_opts *o, double load, struct lanes_error *err)
{
	int rc;

	if ((rc = lanes_routing_check(f, r, err)))
		return rc;
	if (o->data_vls < 1 || o->data_vls > 15)
		return lanes_error_set(err, LANES_EINVAL, "data VLs must be 1..15, not %u", o->data_vls);
	if (r->num_vls > o->data_vls)
		return lanes_error_set(err, LANES_EINVAL, "the routing uses %u VLs, the switches have %u",
				       r->num_vls, o->data_vls);
	if (!o->packet_bytes || o->packet_bytes > o->mtu_bytes)
		return lanes_error_set(err, LANES_EINVAL,
				       "packet_bytes %u must be 1..mtu_bytes (%u): packets are not "
				       "split", o->packet_bytes, o->mtu_bytes);
	if (o->buffer_bytes ? credits_of(o->packet_bytes) > o->buffer_bytes / SIM_CREDIT_BYTES
			    : o->buffer_packets < 1)
		return lanes_error_set(err, LANES_EINVAL, "a VL buffer must hold a whole packet");
	if (!(o->link_gbps >= 0) || !(o->link_latency_ns >= 0) || !(o->switch_latency_ns >= 0) ||
	    !(o->warmup_ns >= 0) || !(o->measure_ns > 0) || !(o->watchdog_ns > 0))
		return lanes_error_set(err, LANES_EINVAL,
				       "rates, latencies and times must not be negative");
	if (!(load >= 0 && load <= 1))
		return lanes_error_set(err, LANES_EINVAL, "offered load %g is not in 0..1", load);
	if (o->arbitration < 0 || o->arbitration > LANES_SIM_ARB_AGE || o->injection < 0 ||
	    o->injection > LANES_SIM_POISSON)
		return lanes_error_set(err, LANES_EINVAL, "unknown arbitration or injection");
	return o->arbitration == LANES_SIM_ARB_WEIGHTED ? check_vlarb(r, o, err) : 0;
}

static uint64_t ns_to_ps(double ns)
{
	return (uint64_t)llround(ns * 1000.0);
}

/* The data rate of the link at a port slot: the option, else width x speed (QDR 4x if unknown). */
static double slot_gbps(const struct sim *s, uint32_t slot)
{
	const struct lanes_port *pt = &s->fabric->ports[slot];
	double lane = lanes_speed_gbps(pt->speed);

	if (s->opts->link_gbps > 0)
		return s->opts->link_gbps;
	return pt->width && lane > 0 ? pt->width * lane : 32.0;
}

static void sim_free(struct sim *s)
{
	free(s->peer_slot);
	free(s->slot_endpoint);
	free(s->slot_is_switch);
	free(s->slot_node);
	free(s->slot_port);
	free(s->packet_time_ps);
	free(s->busy_until_ps);
	free(s->rr_last_vl);
	free(s->vlarb);
	free(s->credits);
	free(s->last_send_ps);
	free(s->requests);
	free(s->busy_in_window_ps);
	for (size_t b = 0; s->inbuf && b < (size_t)s->fabric->num_port_slots * s->vls; b++)
		free(s->inbuf[b].e);
	free(s->inbuf);
	for (uint32_t ep = 0; s->source && ep < s->traffic->num_endpoints; ep++)
		free(s->source[ep].ring);
	free(s->source);
	free(s->endpoint_slot);
	free(s->inject_vl_of_sl);
	free(s->endpoint_gap_ps);
	free(s->packets);
	free(s->heap.entry);
	free(s->latency_ns);
	free(s->witness);
}

static int sim_alloc(struct sim *s)
{
	size_t n = s->fabric->num_port_slots, ch = n * s->vls, ep = s->traffic->num_endpoints;

	s->peer_slot = malloc(n * sizeof(*s->peer_slot));
	s->slot_endpoint = malloc(n * sizeof(*s->slot_endpoint));
	s->slot_is_switch = calloc(n, 1);
	s->slot_node = malloc(n * sizeof(*s->slot_node));
	s->slot_port = calloc(n, 1);
	s->packet_time_ps = calloc(n, sizeof(*s->packet_time_ps));
	s->busy_until_ps = calloc(n, sizeof(*s->busy_until_ps));
	s->rr_last_vl = calloc(n, 1);
	s->credits = malloc(ch * sizeof(*s->credits));
	s->last_send_ps = calloc(ch, sizeof(*s->last_send_ps));
	s->requests = malloc(ch * sizeof(*s->requests));
	s->busy_in_window_ps = calloc(ch, sizeof(*s->busy_in_window_ps));
	s->inbuf = calloc(ch, sizeof(*s->inbuf));
	s->source = calloc(ep + 1, sizeof(*s->source));
	s->endpoint_slot = malloc((ep + 1) * sizeof(*s->endpoint_slot));
	s->inject_vl_of_sl = malloc((ep + 1) * LANES_NUM_SLS);
	s->endpoint_gap_ps = malloc((ep + 1) * sizeof(*s->endpoint_gap_ps));
	if (s->opts->arbitration == LANES_SIM_ARB_WEIGHTED &&
	    !(s->vlarb = calloc(n, sizeof(*s->vlarb))))
		return LANES_ENOMEM;
	if (!s->peer_slot || !s->slot_endpoint || !s->slot_is_switch || !s->slot_node ||
	    !s->slot_port || !s->packet_time_ps || !s->busy_until_ps || !s->rr_last_vl ||
	    !s->credits || !s->last_send_ps || !s->requests || !s->busy_in_window_ps ||
	    !s->inbuf || !s->source || !s->endpoint_slot || !s->inject_vl_of_sl ||
	    !s->endpoint_gap_ps)
		return LANES_ENOMEM;
	return 0;
}

/* Port slots: owner, peer, link time, credits and empty queues. */
static void setup_slots(struct sim *s)
{
	const struct lanes_fabric *f = s->fabric;

	for (uint32_t node = 0; node < f->num_nodes; node++) {
		const struct lanes_node *nd = &f->nodes[node];

		for (uint32_t p = 0; p <= nd->nports; p++) {
			uint32_t slot = nd->port_base + p;
			const struct lanes_port *pt = &f->ports[slot];

			s->slot_node[slot] = node;
			s->slot_port[slot] = (uint8_t)p;
			s->slot_is_switch[slot] = nd->type == LANES_NODE_SWITCH;
			s->slot_endpoint[slot] = LANES_NONE;
			s->peer_slot[slot] = p && pt->peer_node != LANES_NONE && pt->peer_node != node
						     ? f->nodes[pt->peer_node].port_base + pt->peer_port
						     : LANES_NONE;
			s->packet_time_ps[slot] =
				ns_to_ps(s->opts->packet_bytes * 8.0 / slot_gbps(s, slot));
		}
	}
	for (uint32_t slot = 0; s->vlarb && slot < f->num_port_slots; slot++) {
		s->vlarb[slot].high_left = s->opts->vlarb_high[0].weight;
		s->vlarb[slot].low_left = s->opts->vlarb_low[0].weight;
	}
	for (size_t ch = 0; ch < (size_t)f->num_port_slots * s->vls; ch++) {
		s->credits[ch] = s->buffer_credits;
		s->requests[ch].head = s->requests[ch].tail = LANES_NONE;
	}
}

/* Endpoints: their slots, injection VLs per SL, packet times, empty source queues. */
static void setup_endpoints(struct sim *s)
{
	const struct lanes_traffic *t = s->traffic;

	for (uint32_t ep = 0; ep < t->num_endpoints; ep++) {
		uint32_t slot = s->fabric->nodes[t->node[ep]].port_base + t->port[ep];
		const uint8_t *map = lanes_routing_port_map(s->routing, s->fabric, t->node[ep],
							    t->port[ep]);

		s->endpoint_slot[ep] = slot;
		s->slot_endpoint[slot] = ep;
		memcpy(s->inject_vl_of_sl + (size_t)ep * LANES_NUM_SLS, map, LANES_NUM_SLS);
		s->endpoint_gap_ps[ep] = s->packet_time_ps[slot];
	}
}

static int sim_setup(struct sim *s, const struct lanes_fabric *f, const struct lanes_routing *r,
		     const struct lanes_sim_opts *o, const struct lanes_traffic *t, double load,
		     uint64_t point)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->fabric = f;
	s->routing = r;
	s->opts = o;
	s->traffic = t;
	s->load = load;
	s->vls = o->data_vls;
	s->packet_credits = credits_of(o->packet_bytes);
	s->buffer_credits = o->buffer_bytes ? o->buffer_bytes / SIM_CREDIT_BYTES
					    : o->buffer_packets * s->packet_credits;
	s->link_latency_ps = ns_to_ps(o->link_latency_ns);
	s->switch_latency_ps = ns_to_ps(o->switch_latency_ns);
	s->watchdog_ps = ns_to_ps(o->watchdog_ns);
	s->warmup_end_ps = ns_to_ps(o->warmup_ns);
	s->end_ps = s->warmup_end_ps + ns_to_ps(o->measure_ns);
	s->free_packets = LANES_NONE;
	/* one stream per point: the seed and the point's index through splitmix64 */
	lanes_rng_seed(&s->rng, o->seed ^ (0x9e3779b97f4a7c15ull * (point + 1)));
	lanes_heap_init(&s->heap, NULL, NULL, 2);
	if ((rc = sim_alloc(s)))
		return rc;
	setup_slots(s);
	setup_endpoints(s);
	return 0;
}

uint32_t lanes_sim_packet_new(struct sim *s)
{
	uint32_t id = s->free_packets;

	if (id != LANES_NONE) {
		s->free_packets = s->packets[id].next;
		return id;
	}
	if (s->num_packets == s->cap_packets) {
		uint32_t cap = s->cap_packets ? 2 * s->cap_packets : 4096;
		struct sim_packet *p;

		if (cap > SIM_EV_INDEX_MASK ||
		    !(p = realloc(s->packets, (size_t)cap * sizeof(*p))))
			return LANES_NONE;
		s->packets = p;
		s->cap_packets = cap;
	}
	return s->num_packets++;
}

void lanes_sim_packet_free(struct sim *s, uint32_t id)
{
	s->packets[id].next = s->free_packets;
	s->free_packets = id;
}

/*
 * Whether a packet counts: the traffic measures endpoints where they send
 * (the ones at the offered load) or, for seed 000's hot-spot pattern, where
 * they receive (all but the hot-spot destinations).
 */
static int packet_measured(const struct sim *s, const struct sim_packet *p)
{
	const struct lanes_traffic *t = s->traffic;

	return t->measured[t->measure_at_destination ? p->dst_endpoint : p->src_endpoint];
}

int lanes_sim_record_delivery(struct sim *s, const struct sim_packet *p, uint64_t tail_ps)
{
	if (!packet_measured(s, p))
		return 0;
	if (tail_ps > s->warmup_end_ps && tail_ps <= s->end_ps) {
		s->delivered_bytes += s->opts->packet_bytes;
		s->delivered_packets++;
	}
	if (p->created_ps < s->warmup_end_ps || tail_ps > s->end_ps)
		return 0;
	if (s->num_latency == s->cap_latency) {
		uint64_t cap = s->cap_latency ? 2 * s->cap_latency : 4096;
		double *l = realloc(s->latency_ns, cap * sizeof(*l));

		if (!l)
			return LANES_ENOMEM;
		s->latency_ns = l;
		s->cap_latency = cap;
	}
	s->latency_ns[s->num_latency++] = (double)(tail_ps - p->created_ps) / 1000.0;
	s->latency_sum_ns += (double)(tail_ps - p->created_ps) / 1000.0;
	return 0;
}

/* The event loop: until the end of the window, or a deadlock. */
static int sim_loop(struct sim *s)
{
	struct lanes_heap_entry e;
	int rc;

	if ((rc = lanes_sim_start(s)))
		return rc;
	while (lanes_heap_pop(&s->heap, &e)) {
		if (e.key > s->end_ps)
			break;
		s->now_ps = e.key;
		s->events_done++;
		if ((rc = lanes_sim_handle(s, e.id >> SIM_EV_SHIFT, e.id & SIM_EV_INDEX_MASK)))
			return rc;
		if (s->deadlock)
			break;
	}
	if (!s->deadlock)
		s->now_ps = s->end_ps;
	return 0;
}

/*
 * The k-th smallest of v[0..n) (0-based), by quickselect (Hoare's FIND,
 * CACM 4(7), 1961) with the median of three as pivot: linear on average,
 * where sorting every latency took an eighth of a sweep's time. v is
 * reordered.
 */
static double select_kth(double *v, uint64_t n, uint64_t k)
{
	uint64_t lo = 0, hi = n - 1;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		double a = v[lo], b = v[mid], c = v[hi];
		double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i++] = v[j];
				v[j] = t;
				if (j-- == 0)
					break;
			}
		}
		if (k <= j && j != UINT64_MAX)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

/* Link and VL utilisation over the switch-to-switch channels, in the window. */
static void utilisation(const struct sim *s, double window_ps, struct lanes_sim_point *out)
{
	uint64_t links = 0;
	double sum = 0.0;

	for (uint32_t slot = 0; slot < s->fabric->num_port_slots; slot++) {
		uint32_t peer = s->peer_slot[slot];
		uint64_t busy = 0;

		if (!s->slot_is_switch[slot] || peer == LANES_NONE || !s->slot_is_switch[peer])
			continue;
		for (unsigned vl = 0; vl < s->vls; vl++) {
			busy += s->busy_in_window_ps[(size_t)slot * s->vls + vl];
			out->vl_utilisation[vl] += (double)s->busy_in_window_ps[(size_t)slot * s->vls + vl];
		}
		links++;
		sum += (double)busy / window_ps;
		if ((double)busy / window_ps > out->link_utilisation_max)
			out->link_utilisation_max = (double)busy / window_ps;
	}
	for (unsigned vl = 0; vl < s->vls; vl++)
		out->vl_utilisation[vl] = links ? out->vl_utilisation[vl] / (window_ps * (double)links) : 0;
	out->link_utilisation_avg = links ? sum / (double)links : 0.0;
}

/* The point's figures from the counters. */
static void sim_measure(struct sim *s, struct lanes_sim_point *out)
{
	double window_ps = s->now_ps > s->warmup_end_ps ? (double)(s->now_ps - s->warmup_end_ps) : 0;
	double gbps_sum = 0.0;

	for (uint32_t ep = 0; ep < s->traffic->num_endpoints; ep++)
		if (s->traffic->measured[ep])
			gbps_sum += s->opts->packet_bytes * 8.0 / ((double)s->endpoint_gap_ps[ep] / 1000.0);
	/* bits / (ns * Gb/s): Gb/s is bits per ns */
	if (window_ps > 0 && gbps_sum > 0)
		out->accepted = (double)s->delivered_bytes * 8.0 / (window_ps / 1000.0 * gbps_sum);
	out->packets = s->delivered_packets;
	if (s->num_latency) {
		uint64_t k = (uint64_t)ceil(0.99 * (double)s->num_latency);

		out->latency_avg_ns = s->latency_sum_ns / (double)s->num_latency;
		out->latency_p99_ns = select_kth(s->latency_ns, s->num_latency, k ? k - 1 : 0);
	}
	if (window_ps > 0)
		utilisation(s, window_ps, out);
	out->deadlock = s->deadlock;
	out->deadlock_witness = s->witness;
	s->witness = NULL;
	out->simulated_ns = (double)s->now_ps / 1000.0;
}

/* One point with its own random stream (index point); the traffic is built already. */
static int sim_point(const struct lanes_fabric *f, const struct lanes_routing *r,
		     const struct lanes_sim_opts *o, const struct lanes_traffic *t, double load,
		     uint64_t point, struct lanes_sim_point *out, uint64_t *packet_hops)
{
	struct sim s;
	int rc;

	memset(out, 0, sizeof(*out));
	out->load = load;
	if (!(rc = sim_setup(&s, f, r, o, t, load, point)) && !(rc = sim_loop(&s))) {
		sim_measure(&s, out);
		out->events = s.events_done;
		if (packet_hops)
			*packet_hops = s.packet_hops;
	}
	sim_free(&s);
	return rc;
}

int lanes_sim_run(const struct lanes_fabric *f, const struct lanes_routing *r,
		  const struct lanes_sim_opts *o, const struct lanes_sim_traffic *t, double load,
		  struct lanes_sim_point *out, struct lanes_error *err)
{
	return lanes_sim_sweep(f, r, o, t, &load, 1, out, err);
}

struct sweep {
	const struct lanes_fabric *f;
	const struct lanes_routing *r;
	const struct lanes_sim_opts *o;
	const struct lanes_traffic *t;
	const double *loads;
	size_t n;
	unsigned workers;
	struct lanes_sim_point *out;
	int *rc;
	uint64_t *hops;
};

static void sweep_job(void *ctx, unsigned k)
{
	struct sweep *w = ctx;

	for (size_t i = k; i < w->n; i += w->workers) {
		w->rc[i] = sim_point(w->f, w->r, w->o, w->t, w->loads[i], i, &w->out[i], &w->hops[i]);
		if (w->o->progress && !w->rc[i])
			w->o->progress(w->o->progress_ctx, i, &w->out[i]);
	}
}

int lanes_sim_sweep(const struct lanes_fabric *f, const struct lanes_routing *r,
		    const struct lanes_sim_opts *o, const struct lanes_sim_traffic *t,
		    const double *loads, size_t n, struct lanes_sim_point *out,
		    struct lanes_error *err)
{
	return lanes_sim_sweep_counted(f, r, o, t, loads, n, out, NULL, err);
}

int lanes_sim_sweep_counted(const struct lanes_fabric *f, const struct lanes_routing *r,
			    const struct lanes_sim_opts *o, const struct lanes_sim_traffic *t,
			    const double *loads, size_t n, struct lanes_sim_point *out,
			    uint64_t *packet_hops, struct lanes_error *err)
{
	struct lanes_traffic traffic;
	struct sweep w = { f, r, o, &traffic, loads, n, lanes_threads_for(o->threads, n), out, NULL,
			   NULL };
	int rc;

	memset(&traffic, 0, sizeof(traffic));
	memset(out, 0, n * sizeof(*out));
	for (size_t i = 0; i < n; i++)
		if ((rc = check_opts(f, r, o, loads[i], err)))
			return rc;
	if ((rc = lanes_traffic_make(f, t, o->seed, &traffic, err)))
		return rc;
	rc = LANES_ENOMEM;
	w.rc = calloc(n + 1, sizeof(*w.rc));
	w.hops = calloc(n + 1, sizeof(*w.hops));
	if (!w.rc || !w.hops)
		goto out;
	lanes_parallel_run(w.workers, sweep_job, &w);
	rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = w.rc[i];
	for (size_t i = 0; i < n && packet_hops; i++)
		packet_hops[i] = w.hops[i];
	if (rc)
		for (size_t i = 0; i < n; i++)
			lanes_sim_point_clear(&out[i]);
out:
	if (rc)
		lanes_error_oom(err);
	free(w.rc);
	free(w.hops);
	lanes_traffic_free(&traffic);
	return rc;
}
