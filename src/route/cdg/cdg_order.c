/*
 * cdg_order.c - a topological order of channels that can change a little
 * at a time (the order of one layer of cdg.c; cdg.h declares it).
 *
 * The channels form one list in the order; each carries a 64-bit label that
 * grows along the list, so "is a before b" is one comparison of labels.
 * Moving a few channels to a place between two neighbours gives them labels
 * in the gap between the neighbours' labels. When the gap is too narrow, a
 * stretch of the list around it is labelled again, evenly: the stretch
 * grows (doubling its channels) until its labels span at least the square
 * of the channels it will hold, so that a gap of at least that many labels
 * follows; this is the order-maintenance problem of Dietz and Sleator,
 * "Two algorithms for maintaining order in a list" (STOC 1987), in a plain
 * form (Bender, Cole, Demaine, Farach-Colton, Zito, "Two simplified
 * algorithms for maintaining order in a list", ESA 2002, give the bounds).
 *
 * lanes_route_sort_u64 is kept here too: nue's level sort uses it.
 */
#include <string.h>

#include "route/cdg/cdg.h"

void lanes_cdg_order_init(struct cdg_order *o, uint32_t n)
{
	uint64_t step = UINT64_MAX / ((uint64_t)n + 2);

	o->n = n;
	for (uint32_t c = 0; c < n; c++) {
		o->label[c] = step * (c + 1);
		o->next[c] = c + 1;
		o->prev[c] = c ? c - 1 : n;
	}
	o->next[n] = n ? 0 : n; /* n: the list's head and tail */
	o->prev[n] = n ? n - 1 : n;
}

void lanes_cdg_order_set(struct cdg_order *o, const uint32_t *chan)
{
	uint64_t step = UINT64_MAX / ((uint64_t)o->n + 2);
	uint32_t last = o->n; /* the head */

	for (uint32_t i = 0; i < o->n; i++) {
		o->label[chan[i]] = step * (i + 1);
		o->prev[chan[i]] = last;
		o->next[last] = chan[i];
		last = chan[i];
	}
	o->next[last] = o->n;
	o->prev[o->n] = last;
}

/* The labels around the gap after channel p (the head n: 0 and UINT64_MAX). */
static uint64_t label_below(const struct cdg_order *o, uint32_t p)
{
	return p == o->n ? 0 : o->label[p];
}

static uint64_t label_above(const struct cdg_order *o, uint32_t q)
{
	return q == o->n ? UINT64_MAX : o->label[q];
}

/* Label count channels from first on, along the list, evenly in (lo, hi). */
static void spread(struct cdg_order *o, uint32_t first, uint32_t count, uint64_t lo, uint64_t hi)
{
	uint64_t step = (hi - lo) / ((uint64_t)count + 1);
	uint32_t c = first;

	for (uint32_t i = 0; i < count; i++, c = o->next[c])
		o->label[c] = lo + step * (i + 1);
}

/*
 * Make room for k channels after p: the stretch of channels strictly between
 * below and above grows around the gap, doubling, until the labels between
 * below and above span the square of the channels it will hold; then they
 * are labelled again, evenly.
 */
static void make_room(struct cdg_order *o, uint32_t p, uint32_t k)
{
	uint32_t below = p, above = o->next[p], count = 0;

	for (;;) {
		uint64_t span = label_above(o, above) - label_below(o, below);
		double need = ((double)count + k + 1) * ((double)count + k + 1);

		if ((double)span >= need || (below == o->n && above == o->n))
			break;
		for (uint32_t target = count ? 2 * count : 2; count < target && (below != o->n || above != o->n);) {
			if (below != o->n)
				below = o->prev[below], count++;
			if (above != o->n)
				above = o->next[above], count++;
		}
	}
	spread(o, o->next[below], count, label_below(o, below), label_above(o, above));
}

static void unlink_channel(struct cdg_order *o, uint32_t c)
{
	o->next[o->prev[c]] = o->next[c];
	o->prev[o->next[c]] = o->prev[c];
}

/* Put nodes[0..k) (out of the list) after p, in that order, with labels in the gap. */
static void insert_after(struct cdg_order *o, uint32_t p, const uint32_t *nodes, uint32_t k)
{
	uint64_t lo = label_below(o, p), hi = label_above(o, o->next[p]);

	if ((hi - lo) / ((uint64_t)k + 1) < 1) {
		make_room(o, p, k);
		lo = label_below(o, p);
		hi = label_above(o, o->next[p]);
	}
	for (uint32_t i = 0; i < k; i++) {
		uint32_t c = nodes[i], q = o->next[p];

		o->label[c] = lo + (hi - lo) / ((uint64_t)k + 1) * (i + 1);
		o->prev[c] = p;
		o->next[c] = q;
		o->next[p] = c;
		o->prev[q] = c;
		p = c;
	}
}

void lanes_cdg_order_move_after(struct cdg_order *o, uint32_t anchor, const uint32_t *nodes, uint32_t k)
{
	for (uint32_t i = 0; i < k; i++)
		unlink_channel(o, nodes[i]);
	insert_after(o, anchor, nodes, k);
}

void lanes_cdg_order_move_before(struct cdg_order *o, uint32_t anchor, const uint32_t *nodes, uint32_t k)
{
	for (uint32_t i = 0; i < k; i++)
		unlink_channel(o, nodes[i]);
	insert_after(o, o->prev[anchor], nodes, k);
}

void lanes_route_sort_u64(uint64_t *a, uint32_t n, uint64_t *tmp, unsigned lo, unsigned hi)
{
	if (n <= 32) {
		for (uint32_t i = 1; i < n; i++) {
			uint64_t v = a[i];
			uint32_t j = i;

			for (; j > 0 && a[j - 1] > v; j--)
				a[j] = a[j - 1];
			a[j] = v;
		}
		return;
	}
	for (unsigned shift = lo; shift < hi; shift += 8) {
		uint32_t count[257] = { 0 };

		for (uint32_t i = 0; i < n; i++)
			count[((a[i] >> shift) & 0xff) + 1]++;
		if (count[((a[0] >> shift) & 0xff) + 1] == n)
			continue; /* one digit for all */
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (uint32_t i = 0; i < n; i++)
			tmp[count[(a[i] >> shift) & 0xff]++] = a[i];
		memcpy(a, tmp, sizeof(*a) * n);
	}
}
