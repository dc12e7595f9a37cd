/*
 * lanes/verify.h - the independent referee: is a routing complete and free
 * of credit loops, and how good is it?
 *
 * The verifier reads only a fabric and a struct lanes_routing (LFTs, path
 * SLs, SL2VL maps), never engine code, so one bug cannot both create and hide
 * a deadlock. It works one destination LID at a time, never per pair:
 *  - reachability: every destination LID (CA and switch LIDs, or CA LIDs
 *    only) from every CA port and every switch, with no forwarding loop, no
 *    drop (port 255, a port with no cable, a packet handed to the wrong node);
 *  - VLs: every VL used on a hop is within the budget, and VL 15 carries no
 *    data;
 *  - the channel dependency graph over (directed switch-to-switch link, VL),
 *    built from CA-to-CA paths (or from every path), is acyclic; a cycle comes back as a witness: its channels, and for each
 *    dependency one source/destination pair that creates it;
 *  - metrics over CA-to-CA routes: hops, stretch, routes per channel
 *    (seed 004's crossing path and deviation crossing), routes per VL, the
 *    hottest channels, and the effective bisection bandwidth.
 */
#ifndef LANES_VERIFY_H
#define LANES_VERIFY_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/routing.h"

struct lanes_progress;

#ifdef __cplusplus
extern "C" {
#endif

/** Which routes the metrics count (hops, stretch, routes per channel, hottest). */
enum lanes_verify_metric_traffic {
	LANES_VERIFY_CA_PAIRS = 0,  /**< every ordered pair of CA ports (the default) */
	/**
	 * One route per ordered pair of distinct switches, from the switch to
	 * the other's LID, hops in switch-to-switch links: how Sancho, Robles,
	 * Lopez, Flich and Duato ("Routing in InfiniBand torus network
	 * topologies", ICPP 2003, Sec. 5) count average distance and crossing
	 * paths. The deadlock check and the EBB still use CA traffic.
	 */
	LANES_VERIFY_SWITCH_PAIRS,
};

/** Options; lanes_verify_opts_init() sets the defaults. */
struct lanes_verify_opts {
	int ca_only;           /**< destinations are CA LIDs only (default: CA and switch LIDs) */
	/**
	 * Build the channel dependency graph and check VLs from every path,
	 * including those a switch sends (port 0) or receives. Default 0: from
	 * CA-to-CA paths only, the traffic that OpenSM's engines keep free of
	 * deadlock ("between any two hosts", seed 002) and that ibdmchk checks;
	 * switches only answer management queries. Reachability always covers
	 * every source and destination.
	 */
	int all_traffic;
	int metric_traffic;    /**< enum lanes_verify_metric_traffic (default CA pairs) */
	uint8_t max_vls;       /**< data VL budget (default 8) */
	uint32_t ebb_patterns; /**< random bisections for the EBB (default 100; 0 skips it) */
	uint64_t seed;         /**< for the bisections (default 1) */
	unsigned threads;      /**< worker threads: 0 one per online core (the default), 1 none. Results do not depend on it. */
	struct lanes_progress *progress; /**< where to say how far it is (lanes/progress.h), or NULL */
};

void lanes_verify_opts_init(struct lanes_verify_opts *o);

/** Kinds of failed paths. */
enum lanes_path_problem {
	LANES_PATH_LOOP = 1, /**< the LFTs send the packet round a forwarding loop */
	LANES_PATH_DROP,     /**< port 255, a port without a cable, or the wrong node */
};

/** One failed source/destination pair, as an example. */
struct lanes_path_failure {
	uint32_t src_lid, dst_lid;
	uint32_t at_switch; /**< switch index where it goes wrong */
	uint8_t port;       /**< the out port there */
	uint8_t kind;       /**< enum lanes_path_problem */
};

/** One channel of a cycle, and the dependency to the next channel. */
struct lanes_cycle_step {
	uint32_t from_sw, to_sw;   /**< switch indices of the directed link */
	uint8_t from_port, to_port;
	uint8_t vl;
	uint32_t src_lid, dst_lid; /**< a pair whose path uses this channel and then the next one */
};

/** A directed switch-to-switch link and how many routes cross it. */
struct lanes_channel_load {
	uint32_t from_sw, to_sw;
	uint8_t from_port, to_port;
	uint64_t routes;
};

#define LANES_VERIFY_HOTTEST 10
#define LANES_VERIFY_EXAMPLES 10
#define LANES_VERIFY_HOPS_HIST 64

/** Everything the verifier found. */
struct lanes_verify_result {
	int deadlock_free;          /**< the CDG is acyclic */
	int reachable;              /**< no loop and no drop for any checked pair */
	uint64_t pairs_checked;     /**< source/destination pairs */
	uint64_t unreachable_pairs; /**< loops + drops */
	uint64_t loops, drops;      /**< pairs that loop, pairs that are dropped */
	struct lanes_path_failure examples[LANES_VERIFY_EXAMPLES];
	uint32_t num_examples;

	uint32_t vls_used;   /**< 1 + the highest VL on any hop */
	uint32_t sls_used;   /**< 1 + the highest path SL of a checked pair */
	int vl15_used;       /**< some hop carries data on VL 15 */
	int vls_over_budget; /**< some hop uses a VL >= max_vls */

	struct lanes_cycle_step *cycle; /**< NULL, or the witness */
	uint32_t cycle_len;
	uint64_t cdg_channels, cdg_dependencies;

	/* CA-to-CA routes (switch-to-switch with LANES_VERIFY_SWITCH_PAIRS) */
	uint64_t routes;            /**< CA-to-CA pairs routed (or switch pairs) */
	double hops_avg;            /**< links from CA to CA (or switch to switch) */
	uint32_t hops_max;
	uint64_t hops_hist[LANES_VERIFY_HOPS_HIST];
	double stretch_avg, stretch_max; /**< routed hops / shortest hops */
	uint64_t rpc_max, rpc_min;  /**< routes per switch-to-switch channel */
	double rpc_avg, rpc_stddev;
	uint64_t routes_per_vl[16]; /**< route-hops carried on each VL */
	struct lanes_channel_load hottest[LANES_VERIFY_HOTTEST];
	uint32_t num_hottest;
	double ebb;                 /**< effective bisection bandwidth, 0..1 of a link */
	uint32_t ebb_patterns;
};

/** Verify r on f. Fails only on bad arguments or memory; findings go in the result. */
int lanes_verify(const struct lanes_fabric *f, const struct lanes_routing *r,
		 const struct lanes_verify_opts *opts, struct lanes_verify_result **out,
		 struct lanes_error *err);

/** Free a result. NULL is a no-op. */
void lanes_verify_result_free(struct lanes_verify_result *res);

#ifdef __cplusplus
}
#endif
#endif
