/*
 * arena.h - the per-call arena of the engines that make many arrays
 * (dfsssp, nue): arrays whose sizes are known when they are made and that
 * live until the call (or a mark) ends, carved from a few blocks and freed
 * together. arena.c says why and how big the blocks are.
 */
#ifndef LANES_ROUTE_ARENA_H
#define LANES_ROUTE_ARENA_H

#include <stddef.h>
#include <string.h>

#define ROUTE_ARENA_ALIGN 16 /* of every array */

struct route_block;

struct route_arena {
	struct route_block *head; /* the blocks made so far, the newest first */
	char *next;               /* free room of the newest block (or of the first room) */
	size_t left;              /* bytes there */
};

/** Start an arena whose first arrays go into room[0..size) (the caller's, 16-aligned; room may be NULL). */
void lanes_route_arena_init(struct route_arena *a, void *room, size_t size);

/** route_alloc() when the room left is too small: from another block. */
void *lanes_route_alloc_block(struct route_arena *a, size_t n);

/** @return n bytes, 16-aligned, until lanes_route_arena_free(); NULL out of memory */
static inline void *route_alloc(struct route_arena *a, size_t n)
{
	char *p = a->next;

	if (n > a->left)
		return lanes_route_alloc_block(a, n);
	n = (n + ROUTE_ARENA_ALIGN - 1) & ~(size_t)(ROUTE_ARENA_ALIGN - 1); /* still fits: left is a multiple */
	a->next += n;
	a->left -= n;
	return p;
}

/** route_alloc(), zeroed. */
static inline void *route_zalloc(struct route_arena *a, size_t n)
{
	void *p = route_alloc(a, n);

	return p ? memset(p, 0, n) : NULL;
}

/* Where an arena stood: lanes_route_arena_release() gives back what was made since. */
struct route_arena_mark {
	struct route_block *head;
	char *next;
	size_t left;
};

static inline struct route_arena_mark route_arena_mark(const struct route_arena *a)
{
	return (struct route_arena_mark){ a->head, a->next, a->left };
}

/** Give back every array made since m (scratch): its room is used again. */
void lanes_route_arena_release(struct route_arena *a, struct route_arena_mark m);

/** Free every block (the arrays of the arena all at once). */
void lanes_route_arena_free(struct route_arena *a);

#endif
