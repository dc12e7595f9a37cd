/*
 * heap.h - one min-heap for the library's shortest-path searches: a d-ary
 * heap (2 children per node, 4, or any power of two) of entries
 * (key, tie, id), ordered by key, then tie, so that equal keys break the
 * same way on every run and on every machine.
 *
 * Two ways to use it:
 * - lazy (pos NULL): lanes_heap_push() every candidate, and the caller skips
 *   a popped id it has already settled; id is then only carried along (a
 *   parent, say). Entries with equal (key, tie) pop in an order fixed by the
 *   pushes and the arity (the same on every run).
 * - indexed (pos: an array of one slot per id, each LANES_HEAP_ABSENT at
 *   the start): at most one entry per id, and lanes_heap_offer() inserts an
 *   id or lowers its entry (decrease-key). The heap then holds one entry per
 *   vertex instead of one per edge.
 *
 * A d-ary heap of arity 2^k: the parent of i is (i - 1) >> k, its children
 * (i << k) + 1 .. (i << k) + 2^k; a wider heap is shallower (fewer moves on
 * a push, more compares on a pop). Sifting down takes the least child, ties
 * to the lower index, or, where last_of_equal_children is set, to the
 * higher one: OpenSM's cl_heap (complib/cl_heap.c) does that, and the sssp
 * engines replay its Dijkstra step for step (route/sssp/sssp_osm_dijkstra.c).
 * The caller gives the room (entry: the most the heap ever holds) and keeps
 * it; nothing here allocates.
 */
#ifndef LANES_CORE_HEAP_H
#define LANES_CORE_HEAP_H

#include <stdint.h>

#define LANES_HEAP_ABSENT UINT32_MAX /* pos[id] of an id not in the heap */

struct lanes_heap_entry {
	uint64_t key;
	uint32_t tie; /* second key: equal keys pop by lower tie */
	uint32_t id;  /* what the entry is for (indexed: the id pos[] is kept for) */
};

struct lanes_heap {
	struct lanes_heap_entry *entry; /* the caller's room */
	uint32_t *pos;                  /* indexed: per id, its index in entry[]; lazy: NULL */
	uint32_t n;                     /* entries in the heap */
	unsigned log2_arity;            /* children per node: 1 << log2_arity */
	int last_of_equal_children;     /* sifting down: ties between children to the higher index */
};

/** Start an empty heap over the caller's arrays (pos NULL: lazy; else every slot ABSENT). */
static inline void lanes_heap_init(struct lanes_heap *h, struct lanes_heap_entry *entry, uint32_t *pos,
				   unsigned log2_arity)
{
	h->entry = entry;
	h->pos = pos;
	h->n = 0;
	h->log2_arity = log2_arity;
	h->last_of_equal_children = 0;
}

/**
 * @return nonzero when a comes before b: lower key, or equal key and lower
 * tie. Where the compiler has 128-bit integers, (key, tie) as one number: a
 * compare and a subtract with borrow, no branch on equal keys (common in
 * the searches, where such a branch mispredicts); else the same by parts.
 */
static inline int lanes_heap_less(const struct lanes_heap_entry *a, const struct lanes_heap_entry *b)
{
#if defined(__SIZEOF_INT128__) && !defined(LANES_PORTABLE_BITS)
	__extension__ typedef unsigned __int128 lanes_heap_u128;

	return ((lanes_heap_u128)a->key << 64 | a->tie) < ((lanes_heap_u128)b->key << 64 | b->tie);
#else
	return (a->key < b->key) | ((a->key == b->key) & (a->tie < b->tie));
#endif
}

/*
 * Move e up from index i (a free slot, or e's own) past every parent it comes
 * before. The loops here and in lanes_heap_pop keep entry and pos in locals:
 * a helper that stores through h->entry and h->pos makes the compiler reload
 * them after every store (they may alias), and nue on dragonfly a=16 p=8 h=8
 * then takes 3.3 s of user CPU instead of 2.9 (threads 1, 3 runs each).
 */
static inline void lanes_heap_sift_up(struct lanes_heap *h, uint32_t i, struct lanes_heap_entry e)
{
	struct lanes_heap_entry *entry = h->entry;
	uint32_t *pos = h->pos;
	const unsigned shift = h->log2_arity;

	while (i) {
		uint32_t parent = (i - 1) >> shift;

		if (!lanes_heap_less(&e, &entry[parent]))
			break;
		if (pos)
			pos[entry[parent].id] = i;
		entry[i] = entry[parent];
		i = parent;
	}
	entry[i] = e;
	if (pos)
		pos[e.id] = i;
}

/** Add an entry (lazy use; indexed, see lanes_heap_offer). The room must have a free slot. */
static inline void lanes_heap_push(struct lanes_heap *h, uint64_t key, uint32_t tie, uint32_t id)
{
	struct lanes_heap_entry e = { key, tie, id };

	lanes_heap_sift_up(h, h->n++, e);
}

/** Indexed: insert (key, tie) for id, or lower id's entry to it if it comes before that entry. */
static inline void lanes_heap_offer(struct lanes_heap *h, uint64_t key, uint32_t tie, uint32_t id)
{
	struct lanes_heap_entry e = { key, tie, id };
	uint32_t i = h->pos[id];

	if (i == LANES_HEAP_ABSENT)
		lanes_heap_sift_up(h, h->n++, e);
	else if (lanes_heap_less(&e, &h->entry[i]))
		lanes_heap_sift_up(h, i, e);
}

/*
 * The least of the children entry[first .. end), ties to the lower index.
 * Four children (a full node of a 4-ary heap) in a tournament: two
 * compares that do not wait for each other, then one, instead of a chain
 * of three. This and the 128-bit compare of lanes_heap_less() together
 * make nue's heap search 1.24x faster end to end (dragonfly a=16 p=8 h=8,
 * without its BFS shortcut: 5.2 s of user CPU against 6.4 s, medians of 5;
 * either alone gains little).
 */
static inline uint32_t lanes_heap_least_child(const struct lanes_heap_entry *entry, uint32_t first,
					      uint32_t end)
{
	uint32_t child = first;

	if (end - first == 4) {
		uint32_t a = lanes_heap_less(&entry[first + 1], &entry[first]) ? first + 1 : first;
		uint32_t b = lanes_heap_less(&entry[first + 3], &entry[first + 2]) ? first + 3 : first + 2;

		return lanes_heap_less(&entry[b], &entry[a]) ? b : a;
	}
	for (uint32_t k = first + 1; k < end; k++)
		child = lanes_heap_less(&entry[k], &entry[child]) ? k : child;
	return child;
}

/* The least of the children entry[first .. end), ties to the higher index (cl_heap's rule). */
static inline uint32_t lanes_heap_least_child_last(const struct lanes_heap_entry *entry, uint32_t first,
						   uint32_t end)
{
	uint32_t child = first;

	for (uint32_t k = first + 1; k < end; k++)
		child = lanes_heap_less(&entry[child], &entry[k]) ? child : k;
	return child;
}

/** Take the least entry into *out. @return 1, or 0 when the heap is empty */
static inline int lanes_heap_pop(struct lanes_heap *h, struct lanes_heap_entry *out)
{
	struct lanes_heap_entry *entry = h->entry, last;
	uint32_t *pos = h->pos, i = 0, n = h->n;
	const uint32_t arity = 1u << h->log2_arity;

	if (!n)
		return 0;
	*out = entry[0];
	if (pos)
		pos[out->id] = LANES_HEAP_ABSENT;
	h->n = --n;
	if (!n)
		return 1;
	last = entry[n];
	for (;;) {
		uint32_t first = i * arity + 1, end = first + arity < n ? first + arity : n, child;

		if (first >= n)
			break;
		child = h->last_of_equal_children ? lanes_heap_least_child_last(entry, first, end)
						  : lanes_heap_least_child(entry, first, end);
		if (!lanes_heap_less(&entry[child], &last))
			break;
		if (pos)
			pos[entry[child].id] = i;
		entry[i] = entry[child];
		i = child;
	}
	entry[i] = last;
	if (pos)
		pos[last.id] = i;
	return 1;
}

#endif
