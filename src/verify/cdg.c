/*
 * cdg.c - the channel dependency graph (Dally and Seitz): channels are
 * (directed switch-to-switch link, VL), and a packet that arrives on one and
 * leaves on another makes the second depend on the first. The routing is
 * free of credit loops when this graph is acyclic.
 *
 * Storage: a dependency always crosses one switch s, from one of its in-links
 * (position j in s's adjacency, VL vin) to one of its out-links (position k,
 * VL vout); each switch keeps a (deg*V) x (deg*V) bit matrix, so the graph
 * costs bits, not pointers, and setting an edge is one OR. Which destination
 * set a bit is not kept: when there is a cycle, a second pass over the
 * destinations finds, for the cycle's dependencies only, the first one that
 * adds each (lanes_verify_first_dsts), and stops when it has them all. The
 * verdict's pass, which every routing pays for, stays a pass over bits, and
 * its threads share no map.
 *
 * Cycle search: iterative depth-first search with white/grey/black colours;
 * meeting a grey channel closes a cycle, which is read off the stack.
 */
#include "verify_internal.h"
#include "core/util.h"
#include "core/bits.h"

#include <stdlib.h>
#include <string.h>

uint64_t lanes_verify_cdg_count(const struct vctx *c)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i <= c->bit_off[c->S] / 64; i++)
		n += (uint64_t)lanes_popcount64(c->bits[i]);
	return n;
}

static uint32_t degree(const struct vctx *c, uint32_t s)
{
	return c->f->adj_off[s + 1] - c->f->adj_off[s];
}

int lanes_verify_cdg_alloc(struct vctx *c, struct lanes_error *err)
{
	uint64_t total = 0;

	c->bit_off = malloc(sizeof(*c->bit_off) * ((size_t)c->S + 1));
	if (!c->bit_off)
		return lanes_error_oom(err);
	for (uint32_t s = 0; s < c->S; s++) {
		uint64_t n = (uint64_t)degree(c, s) * c->V;

		c->bit_off[s] = total;
		total += n * n;
	}
	c->bit_off[c->S] = total;
	c->bits = calloc(total / 64 + 1, sizeof(uint64_t));
	if (!c->bits)
		return lanes_error_set(err, LANES_ENOMEM,
				       "out of memory for the channel dependency graph (%llu MB)",
				       (unsigned long long)(total >> 23));
	c->res->cdg_channels = (uint64_t)c->E * c->V;
	return 0;
}

static uint64_t edge_bit(const struct vctx *c, uint32_t s, uint32_t j, uint8_t vin, uint32_t k,
			 uint8_t vout)
{
	uint64_t deg = degree(c, s);

	return c->bit_off[s] + ((j * (uint64_t)c->V + vin) * deg + k) * c->V + vout;
}

static int by_bit(const void *a, const void *b)
{
	uint64_t x = ((const struct verify_wanted *)a)->bit, y = ((const struct verify_wanted *)b)->bit;

	return (x > y) - (x < y);
}

/* The first-destination pass: is g wanted, and still without a destination? Then it is c->d. */
static void note_wanted(struct vctx *c, uint64_t g)
{
	struct verify_wanted key = { g, 0 };
	struct verify_wanted *w = bsearch(&key, c->wanted, c->num_wanted, sizeof(key), by_bit);

	if (w && w->dst == LANES_NONE) {
		w->dst = c->d;
		c->wanted_left--;
	}
}

void lanes_verify_cdg_add(struct vctx *c, uint32_t s, uint32_t j, uint8_t vin, uint32_t k, uint8_t vout)
{
	uint64_t g = edge_bit(c, s, j, vin, k, vout);
	uint64_t bit = 1ULL << (g & 63);

	if (c->bits[g >> 6] & bit)
		return;
	c->bits[g >> 6] |= bit;
	c->res->cdg_dependencies++;
	if (c->wanted)
		note_wanted(c, g);
}

/* The next dependency of channel u at or after row position *cur, or -1. */
static int64_t next_edge(const struct vctx *c, uint64_t u, uint64_t *cur)
{
	uint32_t e = (uint32_t)(u / c->V), t = c->f->adj[e].sw;
	uint64_t len = (uint64_t)degree(c, t) * c->V;
	uint64_t base = c->bit_off[t] + (c->rev[e] * (uint64_t)c->V + u % c->V) * len;

	for (uint64_t p = *cur; p < len; p++) {
		uint64_t g = base + p;

		if (!(c->bits[g >> 6] >> (g & 63) & 1)) {
			if (!(g & 63) && !c->bits[g >> 6])
				p += 63; /* skip an empty word */
			continue;
		}
		*cur = p + 1;
		return (int64_t)((c->f->adj_off[t] + p / c->V) * c->V + p % c->V);
	}
	*cur = len;
	return -1;
}

struct frame {
	uint64_t node, cur;
};

/* DFS from u; on a cycle, fills *from with its first stack index. */
static int64_t dfs(struct vctx *c, uint64_t u, uint8_t *color, struct frame *stack, uint64_t *top)
{
	*top = 0;
	stack[(*top)++] = (struct frame){ u, 0 };
	color[u] = 1;
	while (*top) {
		struct frame *fr = &stack[*top - 1];
		int64_t v = next_edge(c, fr->node, &fr->cur);

		if (v < 0) {
			color[fr->node] = 2;
			(*top)--;
		} else if (color[v] == 1) {
			uint64_t i = *top;

			while (stack[i - 1].node != (uint64_t)v)
				i--;
			return (int64_t)(i - 1);
		} else if (!color[v]) {
			color[v] = 1;
			stack[(*top)++] = (struct frame){ (uint64_t)v, 0 };
		}
	}
	return -1;
}

/* Does a source at y, with SL sl entering on port in, cross e1 on vin and then e2 on vout? */
static int source_matches(struct vctx *c, uint32_t y, uint8_t in, uint8_t sl, uint32_t e1,
			  uint8_t vin, uint8_t vout)
{
	const struct lanes_fabric *f = c->f;
	uint32_t t = c->ent_sw[e1];

	for (uint32_t x = y; x != LANES_NONE && x != t; x = c->nxt[x])
		in = f->adj[c->outent[x]].peer_port;
	if (lanes_verify_vl(c, t, in, lanes_routing_port(c->r, t, c->d), sl) != vin)
		return 0;
	uint32_t s = f->adj[e1].sw;

	return lanes_verify_vl(c, s, f->adj[e1].peer_port, lanes_routing_port(c->r, s, c->d), sl) ==
	       vout;
}

/* A source whose path to d uses e1 with vin and then its next link with vout. */
static uint32_t witness_source(struct vctx *c, uint32_t d, uint32_t e1, uint8_t vin, uint8_t vout)
{
	uint32_t t = c->ent_sw[e1];
	uint8_t *passes = c->active;

	if (d == LANES_NONE || lanes_verify_walk(c, d))
		return LANES_NONE;
	lanes_verify_order(c);
	for (uint32_t i = c->num_order; i--;) { /* root first: nxt[y] is done before y */
		uint32_t y = c->order[i];

		passes[y] = y == t || (c->nxt[y] != LANES_NONE && passes[c->nxt[y]]);
	}
	for (uint32_t i = 0; i < c->num_order; i++) {
		uint32_t y = c->order[i], lid = c->sw_lid[y];

		if (!passes[y])
			continue;
		if (c->o->all_traffic && lid != d &&
		    source_matches(c, y, 0, lanes_verify_sl(c, y, lid, d), e1, vin, vout))
			return lid;
		for (uint32_t k = c->ca_off[y]; k < c->ca_off[y + 1]; k++) {
			uint8_t sl = lanes_verify_sl(c, y, c->cas[k].lid, d);

			if (c->cas[k].lid != d &&
			    source_matches(c, y, c->cas[k].sw_port, sl, e1, vin, vout))
				return c->cas[k].lid;
		}
	}
	return LANES_NONE;
}

/* The CDG bit of the dependency from stack channel u to stack channel w. */
static uint64_t step_bit(const struct vctx *c, uint64_t u, uint64_t w)
{
	const struct lanes_fabric *f = c->f;
	uint32_t e = (uint32_t)(u / c->V), e2 = (uint32_t)(w / c->V), s = f->adj[e].sw;

	return edge_bit(c, s, c->rev[e], (uint8_t)(u % c->V), e2 - f->adj_off[s], (uint8_t)(w % c->V));
}

/* The first destination of every dependency of the cycle stack[from .. from + len), sorted by bit. */
static struct verify_wanted *cycle_dsts(struct vctx *c, const struct frame *stack, uint64_t from,
					uint32_t len, struct lanes_error *err)
{
	struct verify_wanted *want = malloc(sizeof(*want) * len);

	if (!want) {
		lanes_error_oom(err);
		return NULL;
	}
	for (uint32_t i = 0; i < len; i++)
		want[i] = (struct verify_wanted){
			step_bit(c, stack[from + i].node, stack[from + (i + 1) % len].node), LANES_NONE
		};
	qsort(want, len, sizeof(*want), by_bit);
	if (lanes_verify_first_dsts(c, want, len, err)) {
		free(want);
		return NULL;
	}
	return want;
}

static int record_cycle(struct vctx *c, struct frame *stack, uint64_t from, uint64_t top,
			struct lanes_error *err)
{
	const struct lanes_fabric *f = c->f;
	uint32_t len = (uint32_t)(top - from);
	struct lanes_cycle_step *steps = calloc(len, sizeof(*steps));
	struct verify_wanted *want = steps ? cycle_dsts(c, stack, from, len, err) : NULL;

	if (!steps || !want) {
		free(steps);
		return steps ? LANES_ENOMEM : lanes_error_oom(err);
	}
	for (uint32_t i = 0; i < len; i++) {
		uint64_t u = stack[from + i].node, w = stack[from + (i + 1) % len].node;
		uint32_t e = (uint32_t)(u / c->V), s = f->adj[e].sw;
		uint8_t vin = (uint8_t)(u % c->V), vout = (uint8_t)(w % c->V);
		struct verify_wanted key = { step_bit(c, u, w), 0 };
		uint32_t d = ((struct verify_wanted *)bsearch(&key, want, len, sizeof(key), by_bit))->dst;

		steps[i].from_sw = c->ent_sw[e]; /* field by field: calloc'ed padding stays 0 */
		steps[i].to_sw = s;
		steps[i].from_port = f->adj[e].port;
		steps[i].to_port = f->adj[e].peer_port;
		steps[i].vl = vin;
		steps[i].dst_lid = d;
		steps[i].src_lid = witness_source(c, d, e, vin, vout);
	}
	free(want);
	c->res->cycle = steps;
	c->res->cycle_len = len;
	return 0;
}

int lanes_verify_cdg_cycle(struct vctx *c, struct lanes_error *err)
{
	uint64_t n = (uint64_t)c->E * c->V, top = 0;
	uint8_t *color = calloc(n + 1, 1);
	struct frame *stack = malloc(sizeof(*stack) * (n + 1));
	int rc = 0;

	lanes_progress_phase(c->o->progress, "credit loops", n);
	c->res->deadlock_free = 1;
	if (!color || !stack) {
		rc = lanes_error_set(err, LANES_ENOMEM, "out of memory for the cycle search");
		goto out;
	}
	for (uint64_t u = 0; u < n; u++) {
		int64_t from;

		if (!(u & 0xffff))
			lanes_progress_add(c->o->progress, u ? 0x10000 : 0);
		if (color[u] || (from = dfs(c, u, color, stack, &top)) < 0)
			continue;
		c->res->deadlock_free = 0;
		rc = record_cycle(c, stack, (uint64_t)from, top, err);
		break;
	}
out:
	free(color);
	free(stack);
	return rc;
}
