/*
 * nue_arena.c - the arena of the nue engine; see nue_arena.h. No paper: a
 * speed-up that changes no result.
 *
 * Why: a call made some eighty arrays (the CDG, the escape trees, the
 * search, its BFS shortcut and bundles, the destinations, the switch LIDs'
 * hops, per layer the order's scratch), and on a fabric of a few switches
 * malloc and free cost more than the routing. The first arrays go into the
 * caller's room (on its stack); then shared blocks, the first NUE_BLOCK
 * bytes, each further one twice the one before up to NUE_BLOCK_MAX; an
 * array of more than a quarter of the next shared block gets a block of its
 * own (the shared room stays), so on large fabrics this is malloc by
 * another name, and a fabric of some hundred switches makes a handful of
 * blocks. Growing arrays (the search's list of added dependencies) stay on
 * malloc.
 *
 * An arena belongs to one call, so to one thread.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nue_arena.h"

#define NUE_BLOCK 16384       /* bytes of the first shared block */
#define NUE_BLOCK_MAX 1048576 /* and of the largest */
#define ALIGN NUE_ALIGN

struct nue_block {
	struct nue_block *next; /* the block made before */
};

/* The header, rounded up so that the room after it is aligned. */
#define HEADER ((sizeof(struct nue_block) + ALIGN - 1) & ~(size_t)(ALIGN - 1))

void nue_arena_init(struct nue_arena *a, void *room, size_t size)
{
	a->head = NULL;
	a->next = room;
	a->left = room ? size & ~(size_t)(ALIGN - 1) : 0;
	a->grow = NUE_BLOCK;
}

/* A block of its own for n bytes, linked behind the newest (whose room stays). */
static void *own_block(struct nue_arena *a, size_t n)
{
	struct nue_block *b = malloc(HEADER + n);

	if (!b)
		return NULL;
	if (a->head) {
		b->next = a->head->next;
		a->head->next = b;
	} else {
		b->next = NULL;
		a->head = b;
	}
	return (char *)b + HEADER;
}

void *nue_alloc_block(struct nue_arena *a, size_t n)
{
	struct nue_block *b;
	char *p;

	if (n > SIZE_MAX - HEADER - ALIGN)
		return NULL;
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (n > a->left) {
		if (n > (a->grow - HEADER) / 4)
			return own_block(a, n);
		if (!(b = malloc(a->grow)))
			return NULL;
		b->next = a->head;
		a->head = b;
		a->next = (char *)b + HEADER;
		a->left = a->grow - HEADER;
		a->grow = a->grow < NUE_BLOCK_MAX ? 2 * a->grow : a->grow;
	}
	p = a->next;
	a->next += n;
	a->left -= n;
	return p;
}

void nue_arena_free(struct nue_arena *a)
{
	while (a->head) {
		struct nue_block *b = a->head;

		a->head = b->next;
		free(b);
	}
	a->next = NULL;
	a->left = 0;
}
