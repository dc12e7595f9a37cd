/*
 * verify.c - the verifier's driver: build the tables it needs from the
 * fabric, run every destination LID through walk.c and flow.c, then look for
 * a cycle in the channel dependency graph and compute the metrics.
 *
 * Cost: O(S) per destination LID plus the CDG, which is bits; memory is a
 * few arrays of S or E entries, the S x S distance matrix (for the stretch)
 * and the CDG bit matrices.
 */
#include <stdlib.h>
#include <string.h>

#include "verify_internal.h"

void lanes_verify_opts_init(struct lanes_verify_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->max_vls = 8;
	o->ebb_patterns = 100;
	o->seed = 1;
}

void lanes_verify_result_free(struct lanes_verify_result *res)
{
	if (!res)
		return;
	free(res->cycle);
	free(res);
}

/* CSR entry owners, reverse positions, and port -> entry. */
static int link_tables(struct vctx *c)
{
	const struct lanes_fabric *f = c->f;

	c->ent_sw = malloc(sizeof(uint32_t) * (c->E + 1));
	c->rev = malloc(sizeof(uint32_t) * (c->E + 1));
	c->port_ent = malloc(sizeof(uint32_t) * (f->num_port_slots + 1));
	if (!c->ent_sw || !c->rev || !c->port_ent)
		return -1;
	for (uint32_t i = 0; i < f->num_port_slots; i++)
		c->port_ent[i] = LANES_NONE;
	for (uint32_t s = 0; s < c->S; s++)
		for (uint32_t e = f->adj_off[s]; e < f->adj_off[s + 1]; e++) {
			c->ent_sw[e] = s;
			c->port_ent[f->nodes[f->switches[s]].port_base + f->adj[e].port] = e;
		}
	for (uint32_t e = 0; e < c->E; e++) {
		uint32_t t = f->adj[e].sw;

		c->rev[e] = c->port_ent[f->nodes[f->switches[t]].port_base + f->adj[e].peer_port] -
			    f->adj_off[t];
	}
	return 0;
}

/* The CA ports with a LID cabled to each switch, grouped by switch. */
static int ca_tables(struct vctx *c)
{
	const struct lanes_fabric *f = c->f;
	uint32_t total = 0;

	c->ca_off = calloc((size_t)c->S + 2, sizeof(uint32_t));
	if (!c->ca_off)
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		uint32_t *fill = c->ca_off + 1;

		for (uint32_t i = 0; i < f->num_nodes; i++) {
			const struct lanes_node *n = &f->nodes[i];

			for (unsigned p = 1; n->type != LANES_NODE_SWITCH && p <= n->nports; p++) {
				const struct lanes_port *port = &f->ports[n->port_base + p];
				uint32_t sw;

				if (!port->lid || port->peer_node == LANES_NONE ||
				    f->nodes[port->peer_node].type != LANES_NODE_SWITCH)
					continue;
				sw = f->nodes[port->peer_node].switch_index;
				if (!pass)
					fill[sw]++;
				else
					c->cas[c->ca_off[sw] + c->bucket[sw]++] =
						(struct vca){ i, port->lid, (uint8_t)p, port->peer_port };
			}
		}
		if (pass)
			break;
		for (uint32_t s = 0; s < c->S; s++)
			c->ca_off[s + 1] += c->ca_off[s];
		total = c->ca_off[c->S];
		if (!(c->cas = malloc(sizeof(*c->cas) * (total + 1))))
			return -1;
		memset(c->bucket, 0, sizeof(uint32_t) * (c->S + 2));
	}
	return 0;
}

/* VLs the CA in-ports of each switch port give, per SL (only with SL2VL maps). */
static int injection_masks(struct vctx *c)
{
	const struct lanes_fabric *f = c->f;

	c->inj_mask = calloc((size_t)f->num_port_slots * 16 + 1, sizeof(uint16_t));
	c->ca_inj = calloc((size_t)c->S * 16 + 1, sizeof(uint16_t));
	if (!c->inj_mask || !c->ca_inj)
		return -1;
	for (uint32_t s = 0; s < c->S; s++) {
		const struct lanes_node *n = &f->nodes[f->switches[s]];

		for (uint32_t k = c->ca_off[s]; k < c->ca_off[s + 1]; k++) {
			const uint8_t *inj = lanes_routing_port_map(c->r, f, c->cas[k].node,
								    c->cas[k].port);

			for (unsigned sl = 0; sl < 16; sl++)
				c->ca_inj[s * 16 + sl] |= (uint16_t)(1u << inj[sl]);
			for (unsigned o = 0; o <= n->nports; o++) {
				const uint8_t *m =
					lanes_routing_switch_map(c->r, f, s, c->cas[k].sw_port, (uint8_t)o);

				for (unsigned sl = 0; sl < 16; sl++)
					c->inj_mask[((size_t)n->port_base + o) * 16 + sl] |=
						(uint16_t)(1u << m[sl]);
			}
		}
	}
	return 0;
}

static uint8_t highest_vl(const struct lanes_routing *r)
{
	uint8_t vl = 0;

	for (uint32_t m = 0; m < r->num_sl2vl_maps; m++)
		for (int s = 0; s < LANES_NUM_SLS; s++)
			if (r->sl2vl_maps[m][s] > vl)
				vl = r->sl2vl_maps[m][s];
	return vl;
}

static int scratch(struct vctx *c)
{
	size_t n = (size_t)c->S + 2;

	c->state = malloc(n);
	c->fail_port = malloc(n);
	c->active = malloc(n);
	c->hops = malloc(n * sizeof(uint32_t));
	c->nxt = malloc(n * sizeof(uint32_t));
	c->outent = malloc(n * sizeof(uint32_t));
	c->order = malloc(n * sizeof(uint32_t));
	c->fail_at = malloc(n * sizeof(uint32_t));
	c->bucket = calloc(n, sizeof(uint32_t));
	c->sub = malloc(n * sizeof(uint64_t));
	c->sub_sl = malloc(n * sizeof(uint64_t));
	c->vlmask = malloc(n * sizeof(uint16_t));
	c->own_sls = malloc(n * sizeof(uint16_t));
	c->routes = calloc((size_t)c->E + 1, sizeof(uint64_t));
	return c->state && c->fail_port && c->active && c->hops && c->nxt && c->outent &&
			       c->order && c->fail_at && c->bucket && c->sub && c->sub_sl &&
			       c->vlmask && c->own_sls && c->routes
		       ? 0
		       : -1;
}

static void release(struct vctx *c)
{
	void *p[] = { c->ent_sw, c->rev,     c->port_ent, c->ca_off,  c->cas,   c->dist,
		      c->bits,   c->bit_off, c->state,    c->fail_port, c->active, c->hops,
		      c->nxt,    c->outent,  c->order,    c->fail_at, c->bucket, c->sub,
		      c->sub_sl, c->vlmask,  c->own_sls,  c->routes,  c->inj_mask, c->ca_inj };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	vmap_free(&c->first_dst);
}

static int setup(struct vctx *c, struct lanes_error *err)
{
	c->S = c->f->num_switches;
	c->E = c->f->adj_off[c->S];
	c->has_maps = c->r->sl2vl_sw || c->r->sl2vl_port;
	c->V = (uint8_t)(c->has_maps ? highest_vl(c->r) + 1 : 1);
	if (scratch(c) || link_tables(c) || ca_tables(c) || (c->has_maps && injection_masks(c)))
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	if (lanes_fabric_switch_distances(c->f, &c->dist, err))
		return LANES_ENOMEM;
	return verify_cdg_alloc(c, err);
}

static int each_destination(struct vctx *c, struct lanes_error *err)
{
	const struct lanes_fabric *f = c->f;

	for (uint32_t d = 1; d <= f->max_lid; d++) {
		uint32_t owner = f->lid_owner[d].node;

		if (owner == LANES_NONE || (c->o->ca_only && f->nodes[owner].type == LANES_NODE_SWITCH))
			continue;
		if (verify_walk(c, d))
			continue;
		verify_count_failures(c);
		verify_order(c);
		if (verify_flow(c))
			return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	}
	return 0;
}

int lanes_verify(const struct lanes_fabric *f, const struct lanes_routing *r,
		 const struct lanes_verify_opts *opts, struct lanes_verify_result **out,
		 struct lanes_error *err)
{
	struct vctx c;
	int rc;

	*out = NULL;
	if (r->num_switches != f->num_switches || r->num_lids != f->max_lid + 1)
		return lanes_error_set(err, LANES_EINVAL,
				       "the routing was made for another fabric (%u switches, %u LIDs)",
				       r->num_switches, r->num_lids - 1);
	memset(&c, 0, sizeof(c));
	c.f = f;
	c.r = r;
	c.o = opts;
	if (!(c.res = calloc(1, sizeof(*c.res))))
		return lanes_error_set(err, LANES_ENOMEM, "out of memory");
	if (!(rc = setup(&c, err)) && !(rc = each_destination(&c, err)) &&
	    !(rc = verify_cdg_cycle(&c, err)) && !(rc = verify_ebb(&c, err))) {
		verify_channel_metrics(&c);
		c.res->reachable = c.res->unreachable_pairs == 0;
		*out = c.res;
		c.res = NULL;
	}
	lanes_verify_result_free(c.res);
	release(&c);
	return rc;
}
