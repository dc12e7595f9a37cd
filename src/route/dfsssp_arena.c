/*
 * dfsssp_arena.c - the arena of the dfsssp engine (engines/dfsssp.c; shared
 * state: dfsssp_internal.h): the arrays made once per call, whose sizes are
 * known when they are made and that live until the call returns, carved
 * from a few blocks and freed together.
 *
 * Why: on a fabric of a few switches the engine made some sixty arrays per
 * call, and malloc and free cost more than the routing. Small arrays share
 * a block of DFSSSP_BLOCK bytes; an array of more than a quarter of that
 * gets a block of its own, so on large fabrics this is malloc by another
 * name. Growing
 * arrays (the units, their dependencies) and the scratch that is freed
 * before the call ends stay on malloc.
 *
 * An arena belongs to one thread at a time: d's to whichever thread sets up
 * the units (dfsssp_overlap.c) and then to the caller, a view's to the
 * thread that works on it.
 */
#include <stdlib.h>
#include <string.h>

#include "dfsssp_internal.h"

#define DFSSSP_BLOCK 8192 /* bytes of a shared block */
#define ALIGN 16

struct dfsssp_block {
	struct dfsssp_block *next; /* the block made before */
};

/* The header, rounded up so that the room after it is aligned. */
#define HEADER ((sizeof(struct dfsssp_block) + ALIGN - 1) & ~(size_t)(ALIGN - 1))

void dfsssp_arena_init(struct dfsssp_arena *a, void *room, size_t size)
{
	a->head = NULL;
	a->next = room;
	a->left = size & ~(size_t)(ALIGN - 1);
}

/* A block of its own for n bytes, linked behind the shared block (whose room stays). */
static void *own_block(struct dfsssp_arena *a, size_t n)
{
	struct dfsssp_block *b = malloc(HEADER + n);

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

void *dfsssp_alloc(struct dfsssp_arena *a, size_t n)
{
	struct dfsssp_block *b;
	char *p;

	if (n > SIZE_MAX - HEADER - ALIGN)
		return NULL;
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (n > DFSSSP_BLOCK / 4)
		return own_block(a, n);
	if (n > a->left) {
		if (!(b = malloc(DFSSSP_BLOCK)))
			return NULL;
		b->next = a->head;
		a->head = b;
		a->next = (char *)b + HEADER;
		a->left = DFSSSP_BLOCK - HEADER;
	}
	p = a->next;
	a->next += n;
	a->left -= n;
	return p;
}

void *dfsssp_zalloc(struct dfsssp_arena *a, size_t n)
{
	void *p = dfsssp_alloc(a, n);

	return p ? memset(p, 0, n) : NULL;
}

void dfsssp_arena_free(struct dfsssp_arena *a)
{
	while (a->head) {
		struct dfsssp_block *b = a->head;

		a->head = b->next;
		free(b);
	}
	a->next = NULL;
	a->left = 0;
}
