/*
 * sim/sim_internal.h - the state of one simulated load point, shared by
 * sim.c (setup, measurement, the public calls), sim_engine.c (events,
 * switches, links, credits) and sim_deadlock.c (watchdog and witness).
 * docs/sim.md describes the model in prose.
 *
 * Time is kept in integer picoseconds, so that event order never depends
 * on floating-point rounding. Ports are the fabric's port slots
 * (f->ports[]); a buffer is (receiving port slot, VL) and a channel is
 * (sending port slot, VL): channel (s, v) feeds buffer (peer(s), v).
 */
#ifndef LANES_SIM_INTERNAL_H
#define LANES_SIM_INTERNAL_H

#include <stdint.h>

#include "core/heap.h"
#include "lanes/rng.h"
#include "lanes/sim.h"
#include "sim/traffic.h"

/* Event kinds, in the top bits of a heap entry's id; the rest is an index. */
enum sim_event {
	SIM_EV_INJECT = 0,  /* index: endpoint; it creates its next packet */
	SIM_EV_READY,       /* index: packet; its head is routed in a switch */
	SIM_EV_DELIVER,     /* index: packet; its tail reached the destination host */
	SIM_EV_LINK_FREE,   /* index: port slot; its link finished a packet */
	SIM_EV_CREDIT,      /* index: slot * vls + VL; one packet's credits came back */
	SIM_EV_WATCHDOG,    /* index: 0; look for buffers blocked too long */
};
#define SIM_EV_SHIFT 29
#define SIM_EV_INDEX_MASK ((1u << SIM_EV_SHIFT) - 1)

/* One packet, kept in a pool and linked into one queue at a time. */
struct sim_packet {
	uint64_t created_ps;   /* creation at the source */
	uint64_t ready_ps;     /* routed in the current switch */
	uint64_t tail_in_ps;   /* its tail has fully arrived in the current buffer */
	uint32_t next;         /* next in its request queue (or the free list), or LANES_NONE */
	uint32_t src_endpoint, dst_endpoint;
	uint32_t dst_lid;
	uint32_t in_slot;      /* port slot of the buffer it sits in; LANES_NONE leaving a host */
	uint32_t out_slot;     /* where the forwarding step sends it next */
	uint8_t sl, in_vl, out_vl;
};

/*
 * A packet created but not yet sent: what its source queue keeps of it. A
 * packet record (struct sim_packet) is taken only when it enters the
 * network, so that the records in use stay few and close together in
 * memory however long the source queues grow past saturation (measured:
 * bench/RESULTS.md, the simulator at scale).
 */
struct sim_waiting {
	uint64_t created_ps;
	uint32_t dst_endpoint;
	uint8_t sl, vl;        /* path SL; injection VL from the CA port's SL2VL map */
};

/* An endpoint's source queue: a growing ring of waiting packets, unbounded. */
struct sim_source {
	struct sim_waiting *ring;
	uint32_t head, count, cap;
};

/*
 * An input buffer's routed packets in arrival order, each with the channel
 * (out slot * vls + out VL) it waits for: with VOQ, a buffer looks up "is a
 * packet ahead of me waiting for my channel?" and "which packet waits for
 * this channel next?" by scanning this small array (at most a buffer's
 * packets), not by following packet records scattered in memory (measured:
 * bench/RESULTS.md, the simulator at scale). Grown on demand.
 */
struct sim_inbuf_entry {
	uint32_t id, channel;
};

struct sim_inbuf {
	struct sim_inbuf_entry *e;
	uint32_t n, cap;
};

/* A singly linked FIFO of packets. */
struct sim_queue {
	uint32_t head, tail;
};

/* One forwarding candidate (lanes_sim_forward). */
struct sim_candidate {
	uint8_t out_port;
	uint8_t out_vl;
	uint8_t priority; /* lower first; all 0 today */
};

/* Weighted VL arbitration on one output: where each table stands. */
struct sim_vlarb {
	uint8_t high_entry, low_entry; /* the current entry of each table */
	int32_t high_left, low_left;   /* 64-byte units the current entries may still send */
	uint64_t high_bytes;           /* high-priority bytes since a low packet could go */
};

struct sim {
	const struct lanes_fabric *fabric;
	const struct lanes_routing *routing;
	const struct lanes_sim_opts *opts;
	const struct lanes_traffic *traffic;
	double load;
	unsigned vls;               /* opts->data_vls */
	uint32_t packet_credits;    /* 64-byte credits one packet takes */
	uint32_t buffer_credits;    /* credits of one (port, VL) buffer */
	uint64_t link_latency_ps, switch_latency_ps, watchdog_ps;
	uint64_t warmup_end_ps, end_ps;
	struct lanes_rng rng;

	/* per port slot */
	uint32_t *peer_slot;        /* the slot at the other end of the cable, or LANES_NONE */
	uint32_t *slot_endpoint;    /* the endpoint a CA port is, or LANES_NONE */
	uint8_t *slot_is_switch;    /* the slot belongs to a switch */
	uint32_t *slot_node;        /* the node a slot belongs to */
	uint8_t *slot_port;         /* its port number there */
	uint64_t *packet_time_ps;   /* serialisation of one packet on the slot's link */
	uint64_t *busy_until_ps;    /* the slot's sending link is busy until then */
	uint8_t *rr_last_vl;        /* the VL the slot's arbiter served last */
	struct sim_vlarb *vlarb;    /* weighted arbitration's state, or NULL */
	/* per channel (slot * vls + VL) */
	uint32_t *credits;          /* credits for the buffer downstream */
	uint64_t *last_send_ps;     /* the channel last started a packet then */
	struct sim_queue *requests; /* per input buffer, its oldest packet that wants the channel */
	uint64_t *busy_in_window_ps;/* switch-to-switch channels: time on the link, measured */
	/* per buffer (slot * vls + VL): its routed packets in arrival order (VOQ off: the FIFO) */
	struct sim_inbuf *inbuf;
	/* per endpoint */
	struct sim_source *source;  /* infinite source queue */
	uint32_t *endpoint_slot;    /* the CA port's slot */
	uint8_t *inject_vl_of_sl;   /* [endpoint * 16 + sl] */
	uint64_t *endpoint_gap_ps;  /* one packet time on the endpoint's link */

	struct sim_packet *packets;
	uint32_t num_packets, cap_packets, free_packets;

	struct lanes_heap heap;
	uint32_t heap_cap;
	uint64_t event_seq;         /* events scheduled: the tie of equal times (low 32 bits) */
	uint64_t events_done;       /* events processed */

	uint64_t now_ps;
	uint64_t in_network;        /* packets that left their source and were not delivered */
	uint64_t packet_hops;       /* link traversals started (sends) */
	uint64_t dropped;           /* packets without a route */
	int deadlock;
	char *witness;

	/* measurement */
	uint64_t delivered_bytes;   /* in the window, from measured sources */
	uint64_t delivered_packets;
	double *latency_ns;
	uint64_t num_latency, cap_latency;
	double latency_sum_ns;
};

/* sim_engine.c */
int lanes_sim_push(struct sim *s, uint64_t at_ps, unsigned kind, uint32_t index);
int lanes_sim_handle(struct sim *s, unsigned kind, uint32_t index);
int lanes_sim_start(struct sim *s);
unsigned lanes_sim_forward(const struct sim *s, uint32_t sw_node, uint8_t in_port, uint8_t in_vl,
		     uint8_t sl, uint32_t dst_lid, struct sim_candidate *cand, unsigned max);
/* sim_deadlock.c */
int lanes_sim_watchdog(struct sim *s);
/* sim.c; lanes_sim_sweep and, per point, the link traversals (for bench/bench_sim.c) */
int lanes_sim_sweep_counted(const struct lanes_fabric *f, const struct lanes_routing *r,
			    const struct lanes_sim_opts *o, const struct lanes_sim_traffic *t,
			    const double *loads, size_t n, struct lanes_sim_point *out,
			    uint64_t *packet_hops, struct lanes_error *err);
int lanes_sim_record_delivery(struct sim *s, const struct sim_packet *p, uint64_t tail_ps);
uint32_t lanes_sim_packet_new(struct sim *s);
void lanes_sim_packet_free(struct sim *s, uint32_t id);

#endif
