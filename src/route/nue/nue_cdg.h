/*
 * nue_cdg.h - the complete channel dependency graph of one virtual layer for
 * the nue engine (nue/nue.c), with an incremental cycle check (also the
 * credit-loop check of cdg_check.c).
 *
 * Channels are the switch adjacency entries of the fabric (a directed
 * switch-to-switch cable). A dependency "in, then out" exists for every pair
 * of channels that meet at a switch (in ends where out starts): the complete
 * CDG of Domke et al. (HPDC 2016). Each pair is one byte, numbered as
 * route_channels numbers dependencies (cdg/channels.h), and is
 * unused, used, or blocked (known to close a cycle: refused without a search).
 * The used ones are also kept as bit masks per channel, its successors and
 * its predecessors (one bit per channel at the switch between), which the
 * cycle check walks. The used dependencies are kept acyclic at all times:
 * lanes_nue_cdg_add() refuses a dependency that would close a cycle.
 *
 * The check keeps a topological order of the channels that all used
 * dependencies respect (a list with labels): a new dependency that agrees
 * with the order costs O(1); otherwise a search from both of its ends,
 * inside the window between their places, decides, and the side that ran
 * out first moves as a block (nue_cdg.c). OpenSM's Nue uses coloured
 * subgraphs plus a depth-first search for the same question.
 */
#ifndef LANES_NUE_CDG_H
#define LANES_NUE_CDG_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "route/common/arena.h"
#include "route/cdg/channels.h"
#include "core/bits.h"

enum { NUE_DEP_UNUSED = 0, NUE_DEP_USED = 1, NUE_DEP_BLOCKED = 2 };

/* Labels of a fresh order: this far apart. */
#define NUE_GAP (1ull << 32)

struct nue_lab {
	uint64_t l;
	uint32_t c;
};

struct nue_cdg {
	const struct lanes_fabric *f;
	struct route_channels ch; /* channels and dependency numbers */
	uint32_t *tail;      /* per channel: the switch it leaves */
	uint32_t *drow;      /* per channel in: nue_cdg_dep(in, out) - out, mod 2^32 */
	uint8_t *dep;        /* per dependency: NUE_DEP_* */
	/* the used dependencies again, as bits for the searches: W words per channel */
	uint32_t W;
	uint64_t *succ;      /* per channel in: bit j, "in, then head[in] + j" used */
	uint64_t *pred;      /* per channel out: bit i, "rev[tailf[out] + i], then out" used */
	uint32_t *head;      /* per channel: the first channel leaving the switch it enters */
	uint32_t *tailf;     /* per channel: the first channel leaving the switch it leaves */
	uint64_t *lab;       /* per channel: its label, increasing along the order */
	uint32_t *nxt, *prv; /* per channel, and the sentinel E: the order as a list */
	uint32_t *mark, stamp;
	uint32_t *setf, *setb, nset; /* the searches' sets F and B (and stacks) */
	struct nue_lab *sorted;      /* scratch: a set by label */
	uint32_t *lv, *q, *key, *cnt; /* scratch of lanes_nue_cdg_order_from */
	uint64_t searches;   /* dependencies that needed a search (statistics) */
};

/** Map the channels of f and allocate an empty layer (the arrays from a). */
int lanes_nue_cdg_init(struct nue_cdg *g, const struct lanes_fabric *f, struct route_arena *a,
		 const char *who, struct lanes_error *err);

/** Free the channel map (the arrays are the arena's; the struct the caller's). */
void lanes_nue_cdg_free(struct nue_cdg *g);

/** Forget every used dependency: a fresh layer. */
void lanes_nue_cdg_reset(struct nue_cdg *g);

/**
 * Start a fresh layer's order (nothing used): the channels away from the
 * destination switches (want[s]) first, the nearest first, then those
 * between switches as near, then those toward them, the farthest first;
 * within each, up*-down* from the roots (toward a root first, the deepest
 * first, across, away, the shallowest first). Routes up then down agree
 * with it, so their dependencies go in without a search; only the time
 * changes.
 */
void lanes_nue_cdg_order_from(struct nue_cdg *g, const uint32_t *roots, uint32_t nroots, const uint8_t *want);

/** @return the number of the dependency "in, then out" (out leaves where in ends) */
static inline size_t nue_cdg_dep(const struct nue_cdg *g, uint32_t in, uint32_t out)
{
	return (uint32_t)(g->drow[in] + out); /* route_dependency(&g->ch, in, out) */
}

/**
 * The dependencies onto channel out, which leaves switch x: the state of
 * "rev[e], then out" for x's i-th adjacency entry e is at [i * deg(x)]
 * (channels.h: a channel's in-dependencies are one stride of deg).
 */
static inline const uint8_t *nue_cdg_onto(const struct nue_cdg *g, uint32_t out)
{
	uint32_t x = g->tail[out], a0 = g->f->adj_off[x];

	return g->dep + g->ch.dense_off[x] + (out - a0);
}

/** @return nonzero when "in, then out" is used */
static inline int nue_cdg_used(const struct nue_cdg *g, uint32_t in, uint32_t out)
{
	return g->dep[nue_cdg_dep(g, in, out)] == NUE_DEP_USED;
}

/** @return nonzero when "in, then out" is known to close a cycle */
static inline int nue_cdg_blocked(const struct nue_cdg *g, uint32_t in, uint32_t out)
{
	return g->dep[nue_cdg_dep(g, in, out)] == NUE_DEP_BLOCKED;
}

/** Forget that "in, then out" was refused, so that the next add searches again. */
static inline void nue_cdg_unblock(struct nue_cdg *g, uint32_t in, uint32_t out)
{
	size_t d = nue_cdg_dep(g, in, out);

	if (g->dep[d] == NUE_DEP_BLOCKED)
		g->dep[d] = NUE_DEP_UNUSED;
}

/** @return 1 when using "in, then out" would close a cycle (it is then blocked), else 0 */
int lanes_nue_cdg_would_cycle(struct nue_cdg *g, uint32_t in, uint32_t out);

/**
 * Use "in, then out" unless it is blocked or closes a cycle (then it is blocked).
 * @return 0 used (or already used), 1 refused
 */
int lanes_nue_cdg_add(struct nue_cdg *g, uint32_t in, uint32_t out);

/* Set (on = 1) or clear the bits of "in, then out" in succ and pred. */
static inline void nue_cdg_bits(struct nue_cdg *g, uint32_t in, uint32_t out, int on)
{
	uint32_t j = out - g->head[in], i = g->ch.rev[in] - g->tailf[out];
	uint64_t *s = g->succ + (size_t)in * g->W + j / 64, *p = g->pred + (size_t)out * g->W + i / 64;
	uint64_t bj = 1ull << (j % 64), bi = 1ull << (i % 64);

	*s = on ? *s | bj : *s & ~bj;
	*p = on ? *p | bi : *p & ~bi;
}

/** Stop using a dependency (the order stays valid). */
static inline void nue_cdg_remove(struct nue_cdg *g, uint32_t in, uint32_t out)
{
	g->dep[nue_cdg_dep(g, in, out)] = 0;
	nue_cdg_bits(g, in, out, 0);
}

#endif
