/*
 * lanes/topo.h - topology generators, registered by name.
 *
 * A generator turns "key=value" parameters into a fabric through a builder:
 * `dragonfly a=4 p=2 h=2`. Each lives in one file under src/topo/, cites the
 * construction it follows, and exports one descriptor. Generated fabrics look
 * like real ones: Mellanox-style GUIDs, descriptions such as
 * "MF0;dragonfly-g2-s1:MQM8700/U1" and "node0042 HCA-1", and LIDs assigned
 * the way the builder documents. Impossible parameters are LANES_EINVAL with
 * a message that names the parameter.
 */
#ifndef LANES_TOPO_H
#define LANES_TOPO_H

#include <stddef.h>

#include "lanes/error.h"
#include "lanes/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Parsed "key=value" parameters (opaque; see src/topo/params.h). */
struct lanes_params;

/** One generator. */
struct lanes_generator {
	const char *name;    /**< "dragonfly" */
	const char *summary; /**< one line */
	/**
	 * "a=N p=N h=N [g=N] [wiring=consecutive|palmtree]": also the list of
	 * keys, since every "key=" in it is one; other keys are refused before
	 * generating.
	 */
	const char *usage;
	const char *source;  /**< the paper or document followed */
	/** Add the topology's nodes and cables to b. */
	int (*generate)(struct lanes_params *params, struct lanes_builder *b,
			struct lanes_error *err);
};

/** @return the generator named, or NULL */
const struct lanes_generator *lanes_generator_find(const char *name);

/** @return the i-th registered generator, or NULL past the end */
const struct lanes_generator *lanes_generator_at(size_t i);

/**
 * Generate a fabric.
 * @param name   generator name
 * @param nargs  number of "key=value" strings
 * @param args   the strings; a key the usage string does not name is
 *               LANES_EINVAL naming it, before anything is generated
 */
int lanes_topo_generate(const char *name, size_t nargs, const char *const *args,
			struct lanes_fabric **out, struct lanes_error *err);

/** What a generator spec would build (lanes_topo_measure). */
struct lanes_topo_size {
	uint64_t switches;   /**< switches */
	uint64_t host_ports; /**< CA ports cabled to switches (hosts x ports per host) */
};

/**
 * The size of the fabric a spec describes, without building it: its
 * parameters are read and checked as lanes_topo_generate() reads them, up
 * to the size check every generator makes before it builds, so a caller
 * can estimate the memory a fabric needs before allocating it. Checks made
 * while building (cabling, radix of some generators) are not made.
 */
int lanes_topo_measure(const char *name, size_t nargs, const char *const *args,
		       struct lanes_topo_size *out, struct lanes_error *err);

#ifdef __cplusplus
}
#endif
#endif
