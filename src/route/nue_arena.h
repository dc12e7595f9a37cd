/*
 * nue_arena.h - the arena of the nue engine (engines/nue.c and the nue_*.c
 * files it uses): the arrays made once per routing call, whose sizes are
 * known when they are made and that live until the call returns, carved
 * from a few blocks and freed together (as dfsssp_arena.c does for dfsssp).
 * See nue_arena.c for the block sizes.
 */
#ifndef LANES_NUE_ARENA_H
#define LANES_NUE_ARENA_H

#include <stddef.h>
#include <string.h>

#define NUE_ALIGN 16 /* of every array */

struct nue_block;

struct nue_arena {
	struct nue_block *head; /* the blocks made so far, the newest first */
	char *next;             /* free room of the newest block (or of the first room) */
	size_t left;            /* bytes there */
};

/** Start an arena whose first arrays go into room[0..size) (the caller's, 16-aligned). */
void nue_arena_init(struct nue_arena *a, void *room, size_t size);

/** nue_alloc() when the room left is too small: from another block. */
void *nue_alloc_block(struct nue_arena *a, size_t n);

/** @return n bytes, 16-aligned, until nue_arena_free(); NULL out of memory */
static inline void *nue_alloc(struct nue_arena *a, size_t n)
{
	char *p = a->next;

	if (n > a->left)
		return nue_alloc_block(a, n);
	n = (n + NUE_ALIGN - 1) & ~(size_t)(NUE_ALIGN - 1); /* still fits: left is a multiple */
	a->next += n;
	a->left -= n;
	return p;
}

/** nue_alloc(), zeroed. */
static inline void *nue_zalloc(struct nue_arena *a, size_t n)
{
	void *p = nue_alloc(a, n);

	return p ? memset(p, 0, n) : NULL;
}

/* Where an arena stood: nue_arena_release() gives back what was made since. */
struct nue_arena_mark {
	struct nue_block *head;
	char *next;
	size_t left;
};

static inline struct nue_arena_mark nue_arena_mark(const struct nue_arena *a)
{
	return (struct nue_arena_mark){ a->head, a->next, a->left };
}

/** Give back every array made since m (scratch): its room is used again. */
void nue_arena_release(struct nue_arena *a, struct nue_arena_mark m);

/** Free every block (the arrays of the arena all at once). */
void nue_arena_free(struct nue_arena *a);

#endif
