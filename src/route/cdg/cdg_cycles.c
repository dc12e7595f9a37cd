/*
 * cdg_cycles.c - a set of channel dependencies and its cycles (cycles.h).
 *
 * Dally and Seitz, "Deadlock-Free Message Routing in Multiprocessor
 * Interconnection Networks" (IEEE Trans. Computers, 1987): routes are free
 * of deadlock when their channel dependency graph is acyclic. Its nodes
 * are the channels of a route_channels (channels.h), its edges the
 * dependencies of a set. The set is marked in a byte per dependency
 * number, then listed: the marked dependencies in number order, which puts
 * each channel's out-dependencies in one run (the compressed rows of a
 * sparse matrix). A search may take a weight per listed dependency (dfsssp:
 * its LID pairs in the layer): those of weight 0 are out of the set, so the
 * caller shrinks the set by its own counts, and the search reads the same
 * array the caller picks a cycle's lightest dependency from. The search
 * reads only the list: its scans touch the dependencies used, not every
 * port pair.
 *
 * The search is Tarjan's depth-first search ("Depth-First Search and
 * Linear Graph Algorithms", SIAM J. Computing, 1972), iterative, with
 * three states per channel: new, on the stack, done. A channel is done
 * when each of its out-dependencies is out of the set or leads to a done
 * channel; a dependency into a channel on the stack closes a cycle, the
 * stack from that channel up. The order is fixed: roots in channel order
 * (a channel is a root when it is still new at its turn), out-dependencies
 * in the order of the channels they lead to (list order).
 *
 * Going on after a cycle, while the set only shrinks (dfsssp breaks cycles
 * so: it takes out the cycle's lightest dependency, and with it others):
 * - a done channel stays done: what it reached is done, and only loses
 *   dependencies;
 * - each place on the stack keeps the dependency its scan is at; the
 *   dependencies before it were out of the set or led to done channels,
 *   and stay so. A channel taken off the stack without being done (the
 *   caller broke a cycle below it, lanes_route_cycles_cut) keeps that place
 *   in resume[] and goes on from it when pushed again;
 * - the stack is a path when pushed, but a dependency on it may leave the
 *   set later. So a cycle is checked before it is reported: where one of
 *   its dependencies left the set, the stack backs up to that
 *   dependency's tail and the search goes on.
 * Each channel's scan thus passes each dependency once per search, plus
 * the checks of the cycles found. Channels below the current root are all
 * done, so the stack never holds one of them again.
 *
 * When the caller takes out only the dependency it cuts at, each cycle
 * found is the first cycle a fresh search of the current set would find
 * (test_cdg_cycles.c checks it against a recursive search).
 */
#include <stdlib.h>
#include <string.h>

#include "route/cdg/cycles.h"
#include "core/util.h"

enum { NEW = 0, ON_STACK, DONE };

/* ------------------------------------------------- the list */

/* realloc(), freeing p when it fails. */
static void *realloc_or_free(void *p, size_t n)
{
	void *q = realloc(p, n);

	if (!q)
		free(p);
	return q;
}

int lanes_route_deps_reserve(struct route_deps *d, const struct route_channels *ch, size_t n,
			     int with_numbers, struct lanes_error *err)
{
	d->ch = ch;
	if (!d->first && !(d->first = malloc(sizeof(*d->first) * ((size_t)ch->E + 1))))
		return lanes_error_oom(err);
	if (with_numbers && !d->number && !(d->number = malloc(sizeof(*d->number) * (ch->ndeps + 1))))
		return lanes_error_oom(err);
	if (n <= d->cap && d->in)
		return 0;
	if (!(d->in = realloc_or_free(d->in, sizeof(*d->in) * (n + 1))) ||
	    !(d->out = realloc_or_free(d->out, sizeof(*d->out) * (n + 1)))) {
		lanes_route_deps_free(d);
		return lanes_error_oom(err);
	}
	d->cap = n;
	return 0;
}

/* The marked dependencies of switch x, in number order: in entry, then out entry. */
static uint32_t list_switch(struct route_deps *d, const uint8_t *marks, uint32_t x, uint32_t k)
{
	const struct route_channels *ch = d->ch;
	uint32_t a = ch->f->adj_off[x], deg = ch->f->adj_off[x + 1] - a;
	size_t num = ch->dense_off[x];

	for (uint32_t i = 0; i < deg; i++) {
		d->first[a + i] = k;
		for (uint32_t o = 0; o < deg; o++, num++) {
			if (d->number)
				d->number[num] = marks[num] ? k : LANES_NONE;
			if (!marks[num])
				continue;
			d->in[k] = ch->rev[a + i];
			d->out[k++] = a + o;
		}
	}
	return k;
}

int lanes_route_deps_list(struct route_deps *d, const struct route_channels *ch, const uint8_t *marks,
			  int with_numbers, struct lanes_error *err)
{
	size_t n = 0;
	uint32_t k = 0;
	int rc;

	for (size_t i = 0; i < ch->ndeps; i++)
		n += marks[i] != 0;
	d->n = 0;
	if ((rc = lanes_route_deps_reserve(d, ch, n, with_numbers, err)))
		return rc;
	for (uint32_t x = 0; x < ch->f->num_switches; x++)
		k = list_switch(d, marks, x, k);
	d->first[ch->E] = k;
	d->n = k;
	return 0;
}

void lanes_route_deps_free(struct route_deps *d)
{
	free(d->first);
	free(d->in);
	free(d->out);
	free(d->number);
	memset(d, 0, sizeof(*d));
}

/* ------------------------------------------------- the search */

int lanes_route_cycles_init(struct route_cycles *s, const struct route_channels *ch,
			    struct lanes_error *err)
{
	size_t n = (size_t)ch->E + 1;

	memset(s, 0, sizeof(*s));
	s->E = ch->E;
	s->state = malloc(n);
	s->depth = malloc(sizeof(uint32_t) * n * 4); /* depth, resume, stack_chan, stack_dep */
	if (!s->state || !s->depth) {
		lanes_route_cycles_free(s);
		return lanes_error_oom(err);
	}
	s->resume = s->depth + n;
	s->stack_chan = s->resume + n;
	s->stack_dep = s->stack_chan + n;
	return 0;
}

void lanes_route_cycles_free(struct route_cycles *s)
{
	free(s->state);
	free(s->depth); /* resume and the stack are in its block */
	memset(s, 0, sizeof(*s));
}

/* The end of channel c's run of out-dependencies; *first its start. None where c is not cabled back. */
static uint32_t out_run(const struct route_deps *d, uint32_t c, uint32_t *first)
{
	uint32_t e = d->ch->rev[c];

	if (e == LANES_NONE) {
		*first = 0;
		return 0;
	}
	*first = d->first[e];
	return d->first[e + 1];
}

void lanes_route_cycles_start(struct route_cycles *s, const struct route_deps *deps, const uint64_t *weight)
{
	s->deps = deps;
	s->weight = weight;
	s->top = s->from = s->root = 0;
	memset(s->state, NEW, s->E);
	for (uint32_t c = 0; c < s->E; c++)
		out_run(deps, c, &s->resume[c]);
}

static void push(struct route_cycles *s, uint32_t c)
{
	s->state[c] = ON_STACK;
	s->depth[c] = s->top;
	s->stack_chan[s->top] = c;
	s->stack_dep[s->top++] = s->resume[c];
}

/* Take the places keep .. top - 1 off the stack; their channels are new again and resume there. */
static void pop_to(struct route_cycles *s, uint32_t keep)
{
	for (uint32_t i = keep; i < s->top; i++) {
		s->state[s->stack_chan[i]] = NEW;
		s->resume[s->stack_chan[i]] = s->stack_dep[i];
	}
	s->top = keep;
}

/*
 * The scan of the top channel, from its place's dependency on: the first
 * one in the set to a channel not done. The place stays on it, so that the scan
 * comes back to it once that channel is done. @return that channel, or
 * LANES_NONE
 */
static uint32_t next_out(struct route_cycles *s)
{
	const struct route_deps *d = s->deps;
	const uint64_t *w = s->weight;
	uint32_t *dep = &s->stack_dep[s->top - 1], first, end = out_run(d, s->stack_chan[s->top - 1], &first);

	for (uint32_t k = *dep; k < end; k++)
		if ((!w || w[k]) && s->state[d->out[k]] != DONE) {
			*dep = k;
			return d->out[k];
		}
	*dep = end;
	return LANES_NONE;
}

/* Is the stack from place from up still a path in the set? If not, back up to the first gap. */
static int still_a_cycle(struct route_cycles *s, uint32_t from)
{
	for (uint32_t i = from; s->weight && i < s->top; i++)
		if (!s->weight[s->stack_dep[i]]) {
			pop_to(s, i + 1);
			return 0;
		}
	return 1;
}

/* The next root: the first channel from the last one on that is still new. @return 0 when none */
static int push_root(struct route_cycles *s)
{
	while (s->root < s->E && s->state[s->root] != NEW)
		s->root++;
	if (s->root == s->E)
		return 0;
	push(s, s->root);
	return 1;
}

uint32_t lanes_route_cycles_next(struct route_cycles *s)
{
	while (s->top || push_root(s)) {
		uint32_t n = next_out(s);

		if (n == LANES_NONE) {
			s->state[s->stack_chan[--s->top]] = DONE;
		} else if (s->state[n] == NEW) {
			push(s, n);
		} else if (still_a_cycle(s, s->depth[n])) {
			s->from = s->depth[n];
			return s->top - s->from;
		}
	}
	return 0;
}

void lanes_route_cycles_cut(struct route_cycles *s, uint32_t i)
{
	pop_to(s, s->from + i + 1);
}

int lanes_route_cycles_any(struct route_cycles *s, const struct route_deps *deps)
{
	lanes_route_cycles_start(s, deps, NULL);
	return lanes_route_cycles_next(s) != 0;
}
