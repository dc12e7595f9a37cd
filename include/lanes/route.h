/*
 * lanes/route.h - routing engines: the descriptor, options and registry.
 *
 * An engine is a folder src/route/<family>/ exporting one static
 * descriptor; the registry (src/route/registry.c) is one array, so adding an
 * engine is one file plus one line. Engines never print or write files and
 * keep no state between calls: route() reads a frozen fabric and options and
 * returns a struct lanes_routing (lanes/routing.h). Output is byte-identical
 * for the same fabric, options and seed.
 *
 * An engine that claims deadlock freedom must either return a routing the
 * verifier accepts or fail; when the VL budget is too small it fails with a
 * message that names the VLs it would need.
 */
#ifndef LANES_ROUTE_H
#define LANES_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/routing.h"

struct lanes_progress;

#ifdef __cplusplus
extern "C" {
#endif

/** Capability flags of an engine. */
enum lanes_engine_flags {
	LANES_ENGINE_ANY_TOPOLOGY = 1 << 0, /**< routes any connected fabric */
	LANES_ENGINE_DEADLOCK_FREE = 1 << 1, /**< claims freedom from credit loops */
	LANES_ENGINE_USES_SLS = 1 << 2,      /**< sets path SLs */
	LANES_ENGINE_USES_VLS = 1 << 3,      /**< sets SL2VL maps to more than VL 0 */
	LANES_ENGINE_RANDOMIZED = 1 << 4,    /**< output depends on the seed */
};

/** Options every engine accepts. lanes_route_opts_init() sets the defaults. */
struct lanes_route_opts {
	uint8_t max_vls;       /**< data VL budget, 1..15 (default 8) */
	uint8_t max_sls;       /**< SL budget, 1..16 (default 16) */
	int switch_lids;       /**< route switch LIDs as destinations (default 1) */
	uint64_t seed;         /**< for randomised engines (default 1) */
	const char *roots;     /**< engine-specific: a file of root GUIDs, or NULL */
	unsigned threads;      /**< worker threads: 0 one per online core (the default), 1 none;
				    the routing does not depend on it */
	const char *params;    /**< engine parameters, "key=value" words separated by commas
				    or spaces ("base=minhop"), or NULL; only for engines whose
				    params_usage names them */
	struct lanes_progress *progress; /**< where to say how far it is (lanes/progress.h), or NULL */
};

/** Fill opts with the defaults. */
void lanes_route_opts_init(struct lanes_route_opts *opts);

/** One routing engine. */
struct lanes_engine {
	const char *name;      /**< "minhop" */
	const char *summary;   /**< one line */
	const char *scope;     /**< "any", "fat trees", ... */
	const char *resources; /**< "1 VL", "2^n SLs, 2 VLs", ... */
	const char *source;    /**< the paper or document followed */
	unsigned flags;        /**< enum lanes_engine_flags */
	const char *params_usage; /**< "base=sssp|minhop": the parameters it takes, or NULL */
	/** Cheap refusal with a reason ("dla: group 3 is not fully connected"); 0 if it applies. */
	int (*check)(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		     struct lanes_error *err);
	/** Compute the routing. */
	int (*route)(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		     struct lanes_routing **out, struct lanes_error *err);
	/**
	 * Bytes route() needs beyond the routing's tables (switches x LIDs
	 * each), estimated before routing, so that a caller can refuse a
	 * fabric that would not fit; 0 on failure. NULL: little (under one
	 * byte per table entry, measured).
	 */
	uint64_t (*scratch_bytes)(const struct lanes_fabric *f, const struct lanes_route_opts *opts);
};

/** @return the engine named, or NULL */
const struct lanes_engine *lanes_engine_find(const char *name);

/** @return the i-th registered engine, or NULL past the end */
const struct lanes_engine *lanes_engine_at(size_t i);

/**
 * Check the options, run the engine's check(), then route().
 * Options out of range are LANES_EINVAL naming the option.
 */
int lanes_route(const struct lanes_engine *e, const struct lanes_fabric *f,
		const struct lanes_route_opts *opts, struct lanes_routing **out,
		struct lanes_error *err);

#ifdef __cplusplus
}
#endif
#endif
