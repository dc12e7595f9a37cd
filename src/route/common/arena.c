/*
 * arena.c - the per-call arena of dfsssp and nue (arena.h). No paper: a
 * speed-up that changes no result.
 *
 * Why: a call of either engine made sixty to eighty arrays (nue: the CDG,
 * the escape trees, the search, its BFS shortcut and bundles, the
 * destinations, the switch LIDs' hops; dfsssp: the channels, the units'
 * scratch, the layers), and on a fabric of a few switches malloc and free
 * cost more than the routing. The first arrays go into the caller's room
 * (on its stack: NUE_ROOM in nue/nue.c, DFSSSP_ROOM in
 * dfsssp_internal.h); then shared blocks of ROUTE_ARENA_BLOCK bytes; an
 * array of more than a quarter of that gets a block of its own (the shared
 * room stays), so on large fabrics this is malloc by another name. Small
 * blocks, because of the first call in a process: malloc puts them into
 * the holes the fabric's reading left, pages already touched, where blocks
 * of 16 KB and more went to fresh pages at the heap's top (some ten more
 * page faults on a 100-switch fabric). Every block goes to the front of one
 * list, so that a mark (the list's head and the room left) lets the scratch
 * made after it be given back (lanes_route_arena_release: the blocks made since
 * are freed, the room is used again; nue's destination sort, METIS arrays
 * and switch-LID hops). Growing arrays stay on malloc.
 *
 * An arena belongs to one thread at a time (dfsssp's views each have their
 * own, dfsssp_split.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "route/common/arena.h"

#define ROUTE_ARENA_BLOCK 4096 /* bytes of a shared block */
#define ALIGN ROUTE_ARENA_ALIGN

struct route_block {
	struct route_block *next; /* the block made before */
};

/* The header, rounded up so that the room after it is aligned. */
#define HEADER ((sizeof(struct route_block) + ALIGN - 1) & ~(size_t)(ALIGN - 1))

void lanes_route_arena_init(struct route_arena *a, void *room, size_t size)
{
	a->head = NULL;
	a->next = room;
	a->left = room ? size & ~(size_t)(ALIGN - 1) : 0;
}

/* A block of its own for n bytes (the newest block's room stays). */
static void *own_block(struct route_arena *a, size_t n)
{
	struct route_block *b = malloc(HEADER + n);

	if (!b)
		return NULL;
	b->next = a->head;
	a->head = b;
	return (char *)b + HEADER;
}

void *lanes_route_alloc_block(struct route_arena *a, size_t n)
{
	struct route_block *b;
	char *p;

	if (n > SIZE_MAX - HEADER - ALIGN)
		return NULL;
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (n > a->left) {
		if (n > ROUTE_ARENA_BLOCK / 4)
			return own_block(a, n);
		if (!(b = malloc(ROUTE_ARENA_BLOCK)))
			return NULL;
		b->next = a->head;
		a->head = b;
		a->next = (char *)b + HEADER;
		a->left = ROUTE_ARENA_BLOCK - HEADER;
	}
	p = a->next;
	a->next += n;
	a->left -= n;
	return p;
}

void lanes_route_arena_release(struct route_arena *a, struct route_arena_mark m)
{
	while (a->head != m.head) { /* the blocks made since, the newest first */
		struct route_block *b = a->head;

		a->head = b->next;
		free(b);
	}
	a->next = m.next;
	a->left = m.left;
}

void lanes_route_arena_free(struct route_arena *a)
{
	while (a->head) {
		struct route_block *b = a->head;

		a->head = b->next;
		free(b);
	}
	a->next = NULL;
	a->left = 0;
}
