/*
 * walk.c - follow one destination's LFT column from every switch.
 *
 * Each switch ends in one of three states: OK (the packet reaches the
 * destination, hops[] switch-to-switch links away), LOOP (it circles for
 * ever) or DROP (port 255, a port with no cable, port 0 of the wrong switch,
 * or a cable to a node that is not the destination). A chain is followed
 * once: states are memoised, and a chain that meets itself is a loop. Then
 * the OK switches are counting-sorted by decreasing hops (leaves first), the
 * order flow.c needs.
 */
#include "verify_internal.h"

#include <string.h>

enum step_kind { STEP_ARRIVED, STEP_NEXT, STEP_DROP, STEP_LOOP };

/* Where the packet goes from switch s: kind, and the next switch. */
static int step(struct vctx *c, uint32_t s, uint32_t *next)
{
	const struct lanes_fabric *f = c->f;
	const struct lanes_node *n = &f->nodes[f->switches[s]];
	uint8_t p = lanes_routing_port(c->r, s, c->d);
	const struct lanes_port *port;

	if (s == c->os && p == c->dport)
		return STEP_ARRIVED;
	if (p == 0 || p > n->nports)
		return STEP_DROP;
	port = &f->ports[n->port_base + p];
	if (port->peer_node == LANES_NONE)
		return STEP_DROP;
	if (port->peer_node == f->switches[s])
		return STEP_LOOP; /* a self-loop cable hands it back to the same LFT entry */
	if (f->nodes[port->peer_node].type != LANES_NODE_SWITCH)
		return STEP_DROP;
	*next = f->nodes[port->peer_node].switch_index;
	c->outent[s] = c->port_ent[n->port_base + p];
	return STEP_NEXT;
}

/* Give every switch on the stack the outcome of the chain's end. */
static void unwind(struct vctx *c, uint32_t *stack, uint32_t top, uint32_t end)
{
	while (top--) {
		uint32_t x = stack[top];

		c->state[x] = c->state[end];
		c->fail_at[x] = c->fail_at[end];
		c->fail_port[x] = c->fail_port[end];
		if (c->state[end] == W_OK) {
			c->hops[x] = c->hops[end] + 1;
			c->nxt[x] = end;
		}
		end = x;
	}
}

static void fail(struct vctx *c, uint32_t x, int kind)
{
	c->state[x] = (uint8_t)kind;
	c->fail_at[x] = x;
	c->fail_port[x] = lanes_routing_port(c->r, x, c->d);
}

/* Follow the chain from s; stack is scratch of S entries (reuses order[]). */
static void follow(struct vctx *c, uint32_t s)
{
	uint32_t *stack = c->order, top = 0, x = s, next = 0;

	for (;;) {
		if (c->state[x] == W_BUSY) { /* met itself: everything on the stack loops */
			fail(c, x, W_LOOP);
			for (uint32_t i = 0; i < top; i++)
				if (stack[i] != x) {
					c->state[stack[i]] = W_LOOP;
					c->fail_at[stack[i]] = x;
					c->fail_port[stack[i]] = c->fail_port[x];
				}
			return;
		}
		if (c->state[x] != W_UNKNOWN)
			break;
		c->state[x] = W_BUSY;
		stack[top++] = x;
		switch (step(c, x, &next)) {
		case STEP_ARRIVED:
			c->state[x] = W_OK;
			c->hops[x] = 0;
			c->nxt[x] = LANES_NONE;
			unwind(c, stack, top - 1, x);
			return;
		case STEP_DROP:
			fail(c, x, W_DROP);
			unwind(c, stack, top - 1, x);
			return;
		case STEP_LOOP:
			fail(c, x, W_LOOP);
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

int verify_walk(struct vctx *c, uint32_t d)
{
	if (locate(c, d))
		return -1;
	memset(c->state, W_UNKNOWN, c->S);
	for (uint32_t s = 0; s < c->S; s++)
		if (c->state[s] == W_UNKNOWN)
			follow(c, s);
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
	e->kind = c->state[s] == W_LOOP ? LANES_PATH_LOOP : LANES_PATH_DROP;
}

/* Count failed pairs: the switch itself and the CA ports behind it. */
void verify_count_failures(struct vctx *c)
{
	struct lanes_verify_result *res = c->res;

	for (uint32_t s = 0; s < c->S; s++) {
		uint32_t lid = lanes_fabric_lid(c->f, c->f->switches[s], 0);
		uint64_t n = 0;

		if (lid != c->d)
			n++;
		for (uint32_t i = c->ca_off[s]; i < c->ca_off[s + 1]; i++)
			n += c->cas[i].lid != c->d;
		res->pairs_checked += n;
		if (c->state[s] == W_OK || !n)
			continue;
		*(c->state[s] == W_LOOP ? &res->loops : &res->drops) += n;
		res->unreachable_pairs += n;
		example(c, lid != c->d ? lid : c->cas[c->ca_off[s]].lid, s);
	}
}

/* OK switches by decreasing hops: leaves before the switches they feed. */
void verify_order(struct vctx *c)
{
	uint32_t maxh = 0, *count = c->bucket;

	for (uint32_t s = 0; s < c->S; s++)
		if (c->state[s] == W_OK && c->hops[s] > maxh)
			maxh = c->hops[s];
	memset(count, 0, sizeof(uint32_t) * (maxh + 2));
	for (uint32_t s = 0; s < c->S; s++)
		if (c->state[s] == W_OK)
			count[maxh - c->hops[s] + 1]++;
	for (uint32_t h = 1; h <= maxh + 1; h++)
		count[h] += count[h - 1];
	c->num_order = count[maxh + 1];
	for (uint32_t s = 0; s < c->S; s++)
		if (c->state[s] == W_OK)
			c->order[count[maxh - c->hops[s]]++] = s;
}
