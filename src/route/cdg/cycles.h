/*
 * cycles.h - a set of channel dependencies and its cycles (cdg_cycles.c):
 * one depth-first search for the engines that test or break the cycles of
 * a whole set at once, the credit-loop check (cdg_check.c, for dnup),
 * dfsssp's one-layer test (dfsssp_one_fast.c) and dfsssp's cycle breaking
 * (dfsssp_layers.c). The incremental graph that stays acyclic while paths
 * are added is cdg.h's struct lanes_cdg.
 */
#ifndef LANES_ROUTE_CDG_CYCLES_H
#define LANES_ROUTE_CDG_CYCLES_H

#include <stdint.h>
#include "lanes/error.h"
#include "route/cdg/channels.h"

/* ------------------------------------------------- a dependency set */

/*
 * A dependency set over a route_channels ch (channels.h). It is filled
 * without checks: the caller marks the dependencies it uses in a byte per
 * dependency number (marks[route_dependency(ch, in, out)] = 1), and
 * lanes_route_deps_list() lists the marked ones in dependency-number order,
 * which is by the switch they cross, then the channel in, then the channel
 * out; so each channel's out-dependencies are one run of the list, in the
 * order of the channels they lead to. A search may weigh the listed
 * dependencies (an array of the caller's, uint64_t per place in the list):
 * those of weight 0 are out of the set, so the set shrinks as the caller
 * lowers weights to 0.
 */
struct route_deps {
	const struct route_channels *ch;
	uint32_t n;         /**< dependencies listed */
	uint32_t *first;    /**< per adjacency entry e (E + 1): the out-dependencies of
				 channel rev[e], the one that enters e's switch by e's
				 port, are listed first[e] .. first[e + 1] - 1 */
	uint32_t *in, *out; /**< per listed dependency: its channels */
	uint32_t *number;   /**< per dependency number: its place in the list, or
				 LANES_NONE; NULL unless asked for */
	uint32_t cap;       /**< room in in and out */
};

/**
 * List the dependencies marked in marks (ch->ndeps bytes) into d; d holds an earlier listing or is zeroed. with_numbers: fill
 * d->number too. @return 0, or LANES_ENOMEM
 */
int lanes_route_deps_list(struct route_deps *d, const struct route_channels *ch, const uint8_t *marks,
			  int with_numbers, struct lanes_error *err);

/**
 * Room in d (zeroed, or an earlier listing) for listings of up to n of
 * ch's dependencies (with d->number when with_numbers), so that they
 * cannot fail. @return 0, or LANES_ENOMEM (d freed)
 */
int lanes_route_deps_reserve(struct route_deps *d, const struct route_channels *ch, size_t n,
			     int with_numbers, struct lanes_error *err);

/** Free the buffers (the struct itself is the caller's). */
void lanes_route_deps_free(struct route_deps *d);

/* ------------------------------------------------- its cycles */

/*
 * struct route_cycles searches the set of a route_deps (and weights) for
 * cycles, depth first, in one fixed order: roots in channel order, a
 * channel's out-dependencies in list order (the order of the channels they
 * lead to). lanes_route_cycles_next() stops at the first cycle met: its
 * channels are on the search's stack. While the set only shrinks, the
 * search goes on from there at the next call, and a channel pushed again
 * resumes its scan where it stopped (what it passed is out of the set or
 * searched for good). A caller that breaks the cycle by taking dependency
 * i of it out says so with lanes_route_cycles_cut(): the search backs up to
 * that dependency's tail.
 */
struct route_cycles {
	const struct route_deps *deps; /**< the set searched (the caller's) */
	const uint64_t *weight; /**< per listed dependency: 0 when out of the set (the caller's), or NULL */
	uint8_t *state;        /**< per channel: new, on the stack, or done */
	uint32_t *depth;       /**< per channel on the stack: its place there */
	uint32_t *resume;      /**< per channel: the dependency its scan goes on from */
	uint32_t *stack_chan;  /**< the stack: a path of channels from the root */
	uint32_t *stack_dep;   /**< per place: the dependency its scan is at */
	uint32_t E;            /**< channels */
	uint32_t top;          /**< channels on the stack */
	uint32_t from;         /**< the last cycle's first place on the stack */
	uint32_t root;         /**< the channel the search started from last */
};

/** Room for searches over ch's channels. @return 0, or LANES_ENOMEM */
int lanes_route_cycles_init(struct route_cycles *s, const struct route_channels *ch,
			    struct lanes_error *err);

/** Free the buffers (the struct itself is the caller's). */
void lanes_route_cycles_free(struct route_cycles *s);

/**
 * A new search of deps (borrowed): every channel new, no scan begun. weight
 * (borrowed, or NULL: every listed dependency is in the set): per listed
 * dependency, 0 when it is out of the set; the caller may lower weights to
 * 0 between calls, never raise one from 0.
 */
void lanes_route_cycles_start(struct route_cycles *s, const struct route_deps *deps, const uint64_t *weight);

/**
 * Search on to the next cycle: its channels are the stack's from .. top - 1
 * (route_cycle_chan), dependency i (route_cycle_dep, a place in the list)
 * leads from channel i to channel i + 1, the last back to channel 0, and
 * every one is in the set. @return the cycle's length, or 0: the set is acyclic
 */
uint32_t lanes_route_cycles_next(struct route_cycles *s);

/** Dependency i of the last cycle has left the set: search on from its tail. */
void lanes_route_cycles_cut(struct route_cycles *s, uint32_t i);

/** A new search of every dependency deps lists: @return 1 when they make a cycle, else 0 */
int lanes_route_cycles_any(struct route_cycles *s, const struct route_deps *deps);

/** @return channel i of the last cycle */
static inline uint32_t route_cycle_chan(const struct route_cycles *s, uint32_t i)
{
	return s->stack_chan[s->from + i];
}

/** @return dependency i of the last cycle (its place in the list), from channel i to the next */
static inline uint32_t route_cycle_dep(const struct route_cycles *s, uint32_t i)
{
	return s->stack_dep[s->from + i];
}

#endif
