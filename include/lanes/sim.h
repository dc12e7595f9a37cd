/*
 * lanes/sim.h - the packet-level simulator (issue 20): what a routing
 * delivers under load.
 *
 * Discrete events at packet granularity, virtual cut-through, credit-based
 * flow control per VL in 64-byte credits, the VL recomputed at every hop
 * from the SL2VL map of (in port, out port), per-VL input buffers of N
 * packets, optional virtual output queues, VL arbitration on every output,
 * link bandwidth from width and speed, link and switch latencies, Bernoulli
 * or Poisson injection at an offered load per host. Defaults are seed 000's
 * (Maglione-Mathey et al., JPDC 2021, Sec. 5): 8 data VLs, QDR 4x
 * (32 Gb/s), MTU 4 KB, 16 packets per VL, VOQ on, 1 ms warm-up then 5 ms
 * measured.
 *
 * The simulator reads only a fabric and a routing (LFTs, path SLs, SL2VL
 * maps), never an engine's state. One load point is one run; a sweep runs
 * its points on opts->threads workers, and every point's result depends
 * only on the fabric, the routing, the options, the traffic and the seed.
 */
#ifndef LANES_SIM_H
#define LANES_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/routing.h"

#ifdef __cplusplus
extern "C" {
#endif

/** VL arbitration on an output port. */
enum lanes_sim_arbitration {
	LANES_SIM_ARB_ROUND_ROBIN = 0, /**< the VLs with a packet and credits, in turn */
	LANES_SIM_ARB_WEIGHTED,        /**< IB's high/low priority tables (opts->vlarb_*) */
	LANES_SIM_ARB_AGE,             /**< oldest packet first (seed 003's "VL as age") */
};

/** How hosts inject. */
enum lanes_sim_injection {
	LANES_SIM_BERNOULLI = 0, /**< per packet time, a packet with probability = load */
	LANES_SIM_POISSON,       /**< exponential gaps with mean packet time / load */
};

/** Traffic patterns (docs/traffic-patterns.md defines each for any N). */
enum lanes_sim_pattern {
	LANES_SIM_UNIFORM = 0,     /**< every packet to a random other endpoint */
	LANES_SIM_BIT_COMPLEMENT,
	LANES_SIM_BIT_REVERSE,
	LANES_SIM_BIT_ROTATION,
	LANES_SIM_SHUFFLE,
	LANES_SIM_TRANSPOSE,
	LANES_SIM_SHIFT,           /**< endpoint i to i + shift mod N */
	LANES_SIM_STENCIL3D,       /**< 6-point 3D stencil on a near-cubic grid of the endpoints */
	LANES_SIM_HOTSPOT,         /**< seed 000: 6% send at full rate to floor(log2) of that many */
	LANES_SIM_DRAGONFLY_WORST, /**< every group to the next one (groups recognised) */
};

/**
 * Where the ranks of a pattern run (docs/traffic-patterns.md): a pattern
 * is defined on ranks 0..N-1, and rank i runs on one endpoint.
 */
enum lanes_sim_placement {
	LANES_SIM_PLACE_LINEAR = 0, /**< rank i on endpoint i (node order, as a batch system fills) */
	LANES_SIM_PLACE_RANDOM,     /**< ranks on endpoints in a random order drawn from the seed */
};

/** Entries of one VL arbitration table, as in InfiniBand (VLArbitration attribute). */
#define LANES_SIM_VLARB_ENTRIES 64

/**
 * One entry of a VL arbitration table (InfiniBand Architecture Specification
 * vol. 1, rel. 1.2.1, Sec. 7.6.9): when its turn comes, VL vl may send
 * until weight units of 64 bytes are used up (the packet that uses up the
 * weight is sent whole); weight 0 skips the entry.
 */
struct lanes_sim_vlarb_entry {
	uint8_t vl;
	uint8_t weight;
};

struct lanes_sim_point;

/** Options of a simulation. lanes_sim_opts_init() fills seed 000's defaults. */
struct lanes_sim_opts {
	uint8_t data_vls;         /**< VLs with buffers, 1..15 (default 8) */
	double link_gbps;         /**< data rate of every link; 0: from each port's width and
				       speed (unknown: QDR 4x); default 32 (QDR 4x) */
	uint32_t mtu_bytes;       /**< largest packet (default 4096) */
	uint32_t packet_bytes;    /**< size of every packet, 1..mtu_bytes (default 4096); a
				       larger one is refused, not split */
	uint32_t buffer_packets;  /**< input buffer per VL, in packets of packet_bytes (16) */
	uint32_t buffer_bytes;    /**< or in bytes when not 0 (seed 004: 2048); credits of 64 B */
	int voq;                  /**< virtual output queues at switch inputs (default 1) */
	int arbitration;          /**< enum lanes_sim_arbitration */
	int injection;            /**< enum lanes_sim_injection */
	double link_latency_ns;   /**< fly time of a cable (default 10) */
	double switch_latency_ns; /**< routing time in a switch (default 100) */
	double warmup_ns;         /**< before measuring (default 1e6) */
	double measure_ns;        /**< measured window (default 5e6) */
	double watchdog_ns;       /**< channels without credits that sent nothing for this
				       long, waiting only on each other: deadlock
				       (default 100e3; docs/sim.md) */
	uint64_t seed;            /**< all randomness (default 1) */
	unsigned threads;         /**< workers for a sweep's points: 0 one per core, 1 none */
	/*
	 * LANES_SIM_ARB_WEIGHTED: IB's two VL arbitration tables on every
	 * output (docs/sim.md). The high-priority table is served first, but
	 * after vlarb_high_limit x 4096 bytes of it (0: one packet; 255: no
	 * limit) a waiting low-priority packet goes. A VL the routing uses
	 * must have an entry of nonzero weight. Default: every VL 0..14 in the
	 * low table with weight 1, the high table empty, which is round robin
	 * per packet.
	 */
	struct lanes_sim_vlarb_entry vlarb_high[LANES_SIM_VLARB_ENTRIES];
	struct lanes_sim_vlarb_entry vlarb_low[LANES_SIM_VLARB_ENTRIES];
	uint8_t vlarb_high_entries;  /**< entries used in vlarb_high, 0..64 (default 0) */
	uint8_t vlarb_low_entries;   /**< entries used in vlarb_low, 0..64 (default 15) */
	uint8_t vlarb_high_limit;    /**< in 4096-byte units; 0 one packet, 255 unbounded (0) */
	/**
	 * Called after each point of a sweep with its index and result (NULL:
	 * never). Workers call it as they finish, possibly at the same time:
	 * it must be thread-safe, and must not keep the point.
	 */
	void (*progress)(void *ctx, size_t point, const struct lanes_sim_point *result);
	void *progress_ctx;
};

/** What traffic to offer. */
struct lanes_sim_traffic {
	int pattern;              /**< enum lanes_sim_pattern */
	uint32_t shift;           /**< LANES_SIM_SHIFT: the distance (default 1) */
	double hotspot_fraction;  /**< LANES_SIM_HOTSPOT: senders (default 0.06) */
	int placement;            /**< enum lanes_sim_placement (default linear) */
};

/** One load point's outcome. */
struct lanes_sim_point {
	double load;              /**< offered, as a fraction of link bandwidth per host */
	double accepted;          /**< delivered per measured host, same unit */
	double latency_avg_ns;    /**< creation to delivery of the last byte */
	double latency_p99_ns;
	uint64_t packets;         /**< delivered in the window */
	double vl_utilisation[LANES_NUM_SLS]; /**< share of switch-to-switch link time per VL */
	double link_utilisation_avg; /**< over switch-to-switch links, both directions */
	double link_utilisation_max;
	int deadlock;             /**< the watchdog fired */
	char *deadlock_witness;   /**< malloc'ed: the cycle of (port, VL) buffers, or NULL */
	double simulated_ns;      /**< simulated time reached */
	uint64_t events;          /**< events processed */
};

/** Seed 000's defaults. */
void lanes_sim_opts_init(struct lanes_sim_opts *o);

/** The default traffic: uniform. */
void lanes_sim_traffic_init(struct lanes_sim_traffic *t);

/**
 * Simulate one load point. LANES_EINVAL names an impossible option;
 * LANES_EREFUSED when the traffic does not apply (the dragonfly worst case
 * on a fabric that is no dragonfly). A deadlock is a result, not an error.
 */
int lanes_sim_run(const struct lanes_fabric *f, const struct lanes_routing *r,
		  const struct lanes_sim_opts *o, const struct lanes_sim_traffic *t, double load,
		  struct lanes_sim_point *out, struct lanes_error *err);

/** n load points on o->threads workers; out[i] for loads[i]. */
int lanes_sim_sweep(const struct lanes_fabric *f, const struct lanes_routing *r,
		    const struct lanes_sim_opts *o, const struct lanes_sim_traffic *t,
		    const double *loads, size_t n, struct lanes_sim_point *out,
		    struct lanes_error *err);

/** Free what a point holds (its witness). */
void lanes_sim_point_clear(struct lanes_sim_point *p);

/** Pattern names: "uniform", "bitcomp", ...; LANES_ENOTFOUND for an unknown one. */
int lanes_sim_pattern_find(const char *name, int *pattern);
const char *lanes_sim_pattern_name(int pattern);

#ifdef __cplusplus
}
#endif
#endif
