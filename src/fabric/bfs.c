/*
 * bfs.c - bit-parallel, direction-optimizing breadth-first search: 64 source
 * switches at a time, each switch holding a 64-bit mask of the sources that
 * have reached it. distance.c turns it into the all-pairs distance matrix.
 *
 * Each level goes one of two ways (Beamer, Asanovic, Patterson,
 * "Direction-optimizing breadth-first search", SC12):
 *  - push (top-down): only the switches of the frontier (those that gained
 *    source bits in the last level) send their new bits to their neighbours;
 *  - pull (bottom-up): every switch not yet reached by all 64 sources ORs
 *    its neighbours' frontier bits, one sequential pass over the adjacency.
 * Pull is chosen when the frontier's cable ends are at least 1/PULL_SHARE of
 * all of them, so a level never costs more than PULL_SHARE times what push
 * would. A switch is in the frontier only at levels where it gains a bit,
 * at most min(64, D) of them per sweep, so one sweep costs
 * O(min(64, D) * E + n) rather than the O(D * E) of pulling at every level:
 * a ring or torus of 10,000 switches no longer scans all switches for each
 * of its 5,000 levels. Dense low-diameter fabrics (dragonfly, slim fly) pull
 * at their few wide levels, as before.
 *
 * The sweep works on a relabelled copy of the switch graph (struct graph).
 * A switch gains bits at as many levels as its distances to the sweep's 64
 * sources take distinct values, so sources close to each other cost less:
 * the relabelling cuts the graph into balls of 64 switches, grown in
 * breadth-first order from seeds taken along one global breadth-first order,
 * and numbers them ball by ball, so each sweep's sources are one compact
 * ball (a 2D torus: distances to an 8x8-like patch span ~15 values, not the
 * 64 of a row) and neighbours sit close in memory. Results are mapped back
 * to switch indices, so the labels never show.
 *
 * Invariants between levels: front[v] != 0 exactly for v in the frontier
 * list; next[] is all zero; seen[v] holds every source bit that reached v.
 */
#include "bfs.h"
#include "lanes/progress.h"
#include "core/bits.h"
#include "core/parallel.h"

#include <stdlib.h>
#include <string.h>

/* Pull when the frontier holds at least 1/PULL_SHARE of all cable ends. */
#define PULL_SHARE 8
#define BALL 64

/* The switch graph under new labels; orig[label] is the switch index. */
struct graph {
	uint32_t n;
	uint32_t *off; /* n + 1 offsets into adj */
	uint32_t *adj; /* neighbour labels */
	uint32_t *orig;
};

struct bfs {
	const struct graph *g;
	uint64_t *seen, *front, *next;
	uint32_t *list, *next_list; /* the frontier, and the level being found */
	uint32_t nlist, nnext;
	uint64_t list_edges;        /* cable ends of the frontier */
	uint64_t full;              /* every source of the sweep */
};

/* dist[source][v] for the sources in bits, in switch indices; rows: the sources' rows. */
static void record(uint8_t *const *rows, const struct graph *g, uint32_t v, uint64_t bits,
		   uint32_t level)
{
	size_t to = g->orig[v];
	uint8_t hops = level > 254 ? 255 : (uint8_t)level;

	for (; bits; bits &= bits - 1)
		rows[lanes_ctz64(bits)][to] = hops;
}

static uint32_t degree(const struct graph *g, uint32_t v)
{
	return g->off[v + 1] - g->off[v];
}

/* Top-down: frontier switches hand their bits to neighbours that lack them. */
static void push(struct bfs *b)
{
	const struct graph *g = b->g;

	for (uint32_t i = 0; i < b->nlist; i++) {
		uint32_t u = b->list[i];
		uint64_t m = b->front[u];

		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t w = g->adj[e];
			uint64_t bits = m & ~b->seen[w];

			if (!bits)
				continue;
			if (!b->next[w])
				b->next_list[b->nnext++] = w;
			b->next[w] |= bits;
		}
	}
}

/* Bottom-up: every switch still missing a source looks at its neighbours. */
static void pull(struct bfs *b)
{
	const struct graph *g = b->g;

	for (uint32_t v = 0; v < g->n; v++) {
		uint64_t m = 0;

		if (b->seen[v] == b->full)
			continue;
		for (uint32_t e = g->off[v]; e < g->off[v + 1]; e++)
			m |= b->front[g->adj[e]];
		if ((m &= ~b->seen[v])) {
			b->next[v] = m;
			b->next_list[b->nnext++] = v;
		}
	}
}

/* The level found becomes the frontier; its pairs are counted (and recorded). */
static void advance(struct bfs *b, uint32_t level, struct bfs_sums *s, uint8_t *const *rows)
{
	uint32_t *t;

	for (uint32_t i = 0; i < b->nlist; i++)
		b->front[b->list[i]] = 0;
	b->list_edges = 0;
	for (uint32_t i = 0; i < b->nnext; i++) {
		uint32_t w = b->next_list[i];
		uint64_t bits = b->next[w], c = (uint64_t)lanes_popcount64(bits);

		b->next[w] = 0;
		b->seen[w] |= bits;
		b->front[w] = bits;
		b->list_edges += degree(b->g, w);
		s->dist_sum += c * level;
		s->pairs += c;
		if (level > s->diameter) /* sums span sweeps: keep the largest */
			s->diameter = level;
		if (rows)
			record(rows, b->g, w, bits, level);
	}
	t = b->list;
	b->list = b->next_list;
	b->next_list = t;
	b->nlist = b->nnext;
	b->nnext = 0;
}

/* One sweep from sources [first, first+count): levels until nothing new. */
static void sweep(struct bfs *b, uint32_t first, uint32_t count, struct bfs_sums *s,
		  uint8_t *dist)
{
	const struct graph *g = b->g;
	uint64_t ends = g->off[g->n];
	uint8_t *rows[64]; /* the sources' rows of dist */

	memset(b->seen, 0, sizeof(*b->seen) * g->n);
	b->full = count == 64 ? ~0ULL : (1ULL << count) - 1;
	b->nlist = b->nnext = 0;
	b->list_edges = 0;
	for (uint32_t k = 0; k < count; k++) {
		b->seen[first + k] = b->front[first + k] = 1ULL << k;
		b->list[b->nlist++] = first + k;
		b->list_edges += degree(g, first + k);
		if (dist) {
			rows[k] = dist + (size_t)g->orig[first + k] * g->n;
			memset(rows[k], 255, g->n);
			rows[k][g->orig[first + k]] = 0;
		}
	}
	for (uint32_t level = 1; b->nlist; level++) {
		if (b->list_edges * PULL_SHARE >= ends)
			pull(b);
		else
			push(b);
		advance(b, level, s, dist ? rows : NULL);
	}
}

/* Switch indices in one breadth-first order over every component. */
static void global_order(const struct lanes_fabric *f, uint32_t *q, uint8_t *seen)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		if (seen[s])
			continue;
		seen[s] = 1;
		q[tail++] = s;
		while (head < tail) {
			uint32_t u = q[head++];

			for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++)
				if (!seen[f->adj[e].sw]) {
					seen[f->adj[e].sw] = 1;
					q[tail++] = f->adj[e].sw;
				}
		}
	}
}

/*
 * Labels ball by ball: from each seed (in global order) not yet labelled,
 * label unlabelled switches breadth-first until the current block of BALL
 * labels is full (or the ball cannot grow). label[] maps switch -> label.
 */
static void label_balls(const struct lanes_fabric *f, const uint32_t *order, uint32_t *label,
			uint32_t *orig)
{
	uint32_t next = 0;

	for (uint32_t s = 0; s < f->num_switches; s++)
		label[s] = LANES_NONE;
	for (uint32_t i = 0; i < f->num_switches; i++) {
		uint32_t head = next, limit = (next / BALL + 1) * BALL;

		if (label[order[i]] != LANES_NONE)
			continue;
		label[order[i]] = next;
		orig[next++] = order[i];
		while (head < next && next < limit) { /* orig[head..next) is the ball's queue */
			uint32_t u = orig[head++];

			for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1] && next < limit; e++)
				if (label[f->adj[e].sw] == LANES_NONE) {
					label[f->adj[e].sw] = next;
					orig[next++] = f->adj[e].sw;
				}
		}
	}
}

/*
 * The relabelled graph, into g's arrays (carved by lanes_bfs_all); label,
 * order and seen are scratch, seen all zero.
 */
static void graph_build(const struct lanes_fabric *f, struct graph *g, uint32_t *label,
			uint32_t *order, uint8_t *seen)
{
	global_order(f, order, seen);
	label_balls(f, order, label, g->orig);
	g->off[0] = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		uint32_t u = g->orig[v], k = g->off[v];

		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++)
			g->adj[k++] = label[f->adj[e].sw];
		g->off[v + 1] = k;
	}
}

/* One worker's sweeps: those of sources 64 k, 64 (k + workers), ...; its own scratch and sums. */
struct sweeper {
	const struct graph *g;
	uint8_t *dist;
	unsigned workers;
	uint32_t stride;   /* every stride-th block of 64 sources (1: all) */
	struct lanes_progress *progress;
	int failed;
	struct bfs_sums sums;
	char gap[LANES_FALSE_SHARING_GAP];
};

static void sweep_job(void *ctx, unsigned k)
{
	struct sweeper *w = (struct sweeper *)ctx + k;
	const struct graph *g = w->g;
	size_t n = (size_t)g->n + 1;
	uint64_t *masks = calloc(3 * n * sizeof(uint64_t) + 2 * n * sizeof(uint32_t), 1);
	uint32_t *lists = (uint32_t *)(masks + 3 * n);
	struct bfs b = { g, masks, masks + n, masks + 2 * n, lists, lists + n, 0, 0, 0, 0 };

	if (!masks) {
		w->failed = 1;
		return;
	}
	for (uint64_t first = 64ULL * k * w->stride; first < g->n;
	     first += 64ULL * w->workers * w->stride) {
		uint32_t count = g->n - first < 64 ? g->n - (uint32_t)first : 64;

		sweep(&b, (uint32_t)first, count, &w->sums, w->dist);
		lanes_progress_add(w->progress, count);
	}
	free(masks);
}

/*
 * The relabelled graph in one block (a dozen mallocs cost more than the
 * search on a fabric of a few switches), then the sweeps, interleaved over
 * the workers; their sums add up in worker order.
 */
int lanes_bfs_all(const struct lanes_fabric *f, unsigned workers, struct bfs_sums *sums, uint8_t *dist)
{
	return lanes_bfs_sample(f, workers, 1, sums, dist, NULL);
}

int lanes_bfs_sample(const struct lanes_fabric *f, unsigned workers, uint32_t stride,
		     struct bfs_sums *sums, uint8_t *dist, struct lanes_progress *progress)
{
	size_t n = (size_t)f->num_switches + 1, ne = (size_t)f->adj_off[f->num_switches] + 1;
	uint32_t *lists = malloc((5 * n + ne) * sizeof(uint32_t) + n);
	struct sweeper w[LANES_MAX_THREADS];
	struct graph g;
	int failed = 0;

	if (!lists)
		return LANES_ENOMEM;
	g = (struct graph){ f->num_switches, lists, lists + n, lists + n + ne };
	memset(lists + 4 * n + ne, 0, n); /* seen */
	graph_build(f, &g, lists + 2 * n + ne, lists + 3 * n + ne, (uint8_t *)(lists + 4 * n + ne));
	workers = lanes_threads_for(workers ? workers : 1, (f->num_switches + 63) / 64);
	for (unsigned k = 0; k < workers; k++)
		w[k] = (struct sweeper){ .g = &g, .dist = dist, .workers = workers,
					 .stride = stride ? stride : 1, .progress = progress };
	lanes_parallel_run(workers, sweep_job, w);
	for (unsigned k = 0; k < workers; k++) {
		failed |= w[k].failed;
		sums->dist_sum += w[k].sums.dist_sum;
		sums->pairs += w[k].sums.pairs;
		if (w[k].sums.diameter > sums->diameter)
			sums->diameter = w[k].sums.diameter;
	}
	free(lists);
	return failed ? LANES_ENOMEM : 0;
}
