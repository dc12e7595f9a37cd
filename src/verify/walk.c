/*
 * walk.c - follow one destination's LFT column from every switch.
 *
 * Each switch ends in one of three states: OK (the packet reaches the
 * destination, hops[] switch-to-switch links away), LOOP (it circles for
 * ever) or DROP (port 255, a port with no cable, port 0 of the wrong switch,
 * or a cable to a node that is not the destination). A chain is followed
 * once: states are memoised, and a chain that meets itself is a loop.
 *
 * A switch becomes OK only after the switch it forwards to, so the order in
 * which switches become OK runs from the destination outwards; reversed, it
 * is the leaves-first order that flow.c needs, with no sorting.
 */
#include "verify_internal.h"

#include <string.h>

enum step_kind { STEP_ARRIVED, STEP_NEXT, STEP_DROP, STEP_LOOP };

/* Where the packet goes from switch s: kind, and the next switch. */
static int step(struct vctx *c, const uint8_t *col, uint32_t s, uint32_t *next)
{
	uint8_t p = col[s];
	uint32_t slot, x;

	if (s == c->os && p == c->dport)
		return STEP_ARRIVED;
	if (p == 0 || p > c->sw_nports[s])
		return STEP_DROP;
	slot = c->sw_base[s] + p;
	x = c->port_next[slot];
	if (x == NEXT_SELF)
		return STEP_LOOP; /* a self-loop cable hands it back to the same LFT entry */
	if (x >= NEXT_SELF) /* no cable, or a CA that is not the destination */
		return STEP_DROP;
	*next = x;
	c->outent[s] = c->port_ent[slot];
	return STEP_NEXT;
}

static void mark_ok(struct vctx *c, uint32_t x)
{
	c->state[x] = WALK_OK;
	c->seq[c->num_order++] = x;
}

/* Give every switch on the stack the outcome of the chain's end. */
static void unwind(struct vctx *c, uint32_t *stack, uint32_t top, uint32_t end)
{
	while (top--) {
		uint32_t x = stack[top];

		c->fail_at[x] = c->fail_at[end];
		c->fail_port[x] = c->fail_port[end];
		if (c->state[end] == WALK_OK) {
			c->hops[x] = c->hops[end] + 1;
			c->nxt[x] = end;
			mark_ok(c, x);
		} else {
			c->state[x] = c->state[end];
		}
		end = x;
	}
}

static void fail(struct vctx *c, uint32_t x, int kind)
{
	c->num_failed++;
	c->state[x] = (uint8_t)kind;
	c->fail_at[x] = x;
	c->fail_port[x] = lanes_routing_port(c->r, x, c->d);
}

/* Follow the chain from s; stack is scratch of S entries (reuses order[]). */
static void follow(struct vctx *c, const uint8_t *col, uint32_t s)
{
	uint32_t *stack = c->order, top = 0, x = s, next = 0;

	for (;;) {
		if (c->state[x] == WALK_BUSY) { /* met itself: everything on the stack loops */
			fail(c, x, WALK_LOOP);
			for (uint32_t i = 0; i < top; i++)
				if (stack[i] != x) {
					c->state[stack[i]] = WALK_LOOP;
					c->fail_at[stack[i]] = x;
					c->fail_port[stack[i]] = c->fail_port[x];
				}
			return;
		}
		if (c->state[x] != WALK_UNKNOWN)
			break;
		c->state[x] = WALK_BUSY;
		stack[top++] = x;
		switch (step(c, col, x, &next)) {
		case STEP_ARRIVED:
			mark_ok(c, x);
			c->hops[x] = 0;
			c->nxt[x] = LANES_NONE;
			unwind(c, stack, top - 1, x);
			return;
		case STEP_DROP:
			fail(c, x, WALK_DROP);
			unwind(c, stack, top - 1, x);
			return;
		case STEP_LOOP:
			fail(c, x, WALK_LOOP);
			unwind(c, stack, top - 1, x);
			return;
		default:
			x = next;
		}
	}
	unwind(c, stack, top, x);
}

/* Set up destination d: its owner switch and the port that delivers it. */
static int locate(struct vctx *c, uint32_t d)
{
	const struct lanes_fabric *f = c->f;
	uint32_t node = f->lid_owner[d].node;
	uint8_t port = f->lid_owner[d].port;

	c->d = d;
	c->dnode = node;
	c->dport_dst = port;
	if (f->nodes[node].type == LANES_NODE_SWITCH) {
		c->os = f->nodes[node].switch_index;
		c->dport = 0;
		return 0;
	}
	const struct lanes_port *p = lanes_fabric_port(f, node, port);

	if (p->peer_node == LANES_NONE || f->nodes[p->peer_node].type != LANES_NODE_SWITCH)
		return -1; /* not reachable through any switch: not a destination */
	c->os = f->nodes[p->peer_node].switch_index;
	c->dport = p->peer_port;
	return 0;
}

int lanes_verify_walk(struct vctx *c, uint32_t d)
{
	if (locate(c, d))
		return -1;
	const uint8_t *col = lanes_routing_column(c->r, d);

	memset(c->state, WALK_UNKNOWN, c->S);
	memset(c->sub, 0, sizeof(*c->sub) * c->S);
	c->num_failed = 0;
	c->num_order = 0;
	for (uint32_t s = 0; s < c->S; s++)
		if (c->state[s] == WALK_UNKNOWN)
			follow(c, col, s);
	return 0;
}

static void example(struct vctx *c, uint32_t src_lid, uint32_t s)
{
	struct lanes_verify_result *res = c->res;
	struct lanes_path_failure *e;

	if (res->num_examples == LANES_VERIFY_EXAMPLES)
		return;
	e = &res->examples[res->num_examples++];
	e->src_lid = src_lid;
	e->dst_lid = c->d;
	e->at_switch = c->fail_at[s];
	e->port = c->fail_port[s];
	e->kind = c->state[s] == WALK_LOOP ? LANES_PATH_LOOP : LANES_PATH_DROP;
}

/* Sources behind switch s other than the destination itself. */
static uint64_t sources_at(const struct vctx *c, uint32_t s)
{
	uint64_t n = 1 + c->ca_off[s + 1] - c->ca_off[s];

	if (s == c->os)
		n--; /* the destination: the switch itself, or the CA port on c->dport */
	return n;
}

/* Count failed pairs: the switch itself and the CA ports behind it. */
void lanes_verify_count_failures(struct vctx *c)
{
	struct lanes_verify_result *res = c->res;

	res->pairs_checked += c->total_sources - 1;
	for (uint32_t s = 0; c->num_failed && s < c->S; s++) {
		uint32_t lid = c->sw_lid[s];
		uint64_t n = sources_at(c, s);

		if (c->state[s] == WALK_OK || !n)
			continue;
		*(c->state[s] == WALK_LOOP ? &res->loops : &res->drops) += n;
		res->unreachable_pairs += n;
		example(c, lid != c->d ? lid : c->cas[c->ca_off[s]].lid, s);
	}
}

/* OK switches leaves first: the reverse of the order they became OK in. */
void lanes_verify_order(struct vctx *c)
{
	for (uint32_t i = 0; i < c->num_order; i++)
		c->order[i] = c->seq[c->num_order - 1 - i];
}
