/*
 * common/layers.c - path SLs and SL2VL maps for the engines that put paths in
 * virtual layers (dfsssp, lash, nue): SL = layer = VL.
 *
 * - Path SLs per (source switch, destination LID), all 0 to start. The table
 *   is as large as the LFTs; it is allocated here rather than through
 *   lanes_routing_set_sl_mode(), which refuses any table past 2^30 cells (a
 *   limit meant for per-pair SLs) that a 100k-endpoint dragonfly just
 *   exceeds.
 * - One SL2VL map, SL i -> VL i for i < nvls and VL 0 beyond, on every
 *   switch (in port, out port) pair, port 0 included, and on every CA or
 *   router port.
 * - The layer budget (the least of the VL and SL limits, since SL = VL) and
 *   the refusal that names it and both limits.
 */
#include <stdlib.h>
#include <string.h>

#include "lanes/route.h"
#include "lanes/routing.h"
#include "route/common/layers.h"
#include "core/strbuf.h"

uint32_t lanes_route_layer_budget(const struct lanes_route_opts *o)
{
	return o->max_vls < o->max_sls ? o->max_vls : o->max_sls;
}

const char *lanes_route_count_text(uint32_t n, uint32_t max, char *buf, size_t size)
{
	struct lanes_sb b;

	lanes_sb_init(&b, buf, size);
	if (n > max)
		lanes_sb_str(&b, "more than ");
	lanes_sb_dec(&b, n > max ? max : n);
	return buf;
}

int lanes_route_over_budget(struct lanes_error *err, const char *engine, uint32_t needed,
		      uint32_t max_layers, const struct lanes_route_opts *o)
{
	char count[32];

	return lanes_error_set(err, LANES_ERANGE, "%s: needs %s VLs, the budget is %u (%s%s %u)",
			       engine, lanes_route_count_text(needed, max_layers, count, sizeof(count)),
			       lanes_route_layer_budget(o), o->max_vls <= o->max_sls ? "vls" : "sls",
			       o->max_vls == o->max_sls ? " and sls" : "", lanes_route_layer_budget(o));
}

int lanes_route_sls_per_src_switch(struct lanes_routing *r, struct lanes_error *err)
{
	lanes_routing_reset_sls(r);
	r->sl = calloc(lanes_routing_sl_cells(r, LANES_SL_PER_SRC_SWITCH) + 1, 1);
	if (!r->sl)
		return lanes_error_set(err, LANES_ENOMEM, "out of memory for path SLs");
	r->sl_mode = LANES_SL_PER_SRC_SWITCH;
	return 0;
}

/* n copies of v from p, by doubling copies */
static void fill_u16(uint16_t *p, uint16_t v, size_t n)
{
	size_t done = n < 16 ? n : 16;

	for (size_t i = 0; i < done; i++)
		p[i] = v;
	while (done < n) {
		size_t c = done < n - done ? done : n - done;

		memcpy(p + done, p, c * sizeof(*p));
		done += c;
	}
}

int lanes_route_sl2vl_identity(struct lanes_routing *r, const struct lanes_fabric *f, uint32_t nvls,
			 struct lanes_error *err)
{
	uint8_t map[LANES_NUM_SLS];
	uint16_t m;
	int rc;

	for (uint32_t s = 0; s < LANES_NUM_SLS; s++)
		map[s] = (uint8_t)(s < nvls ? s : 0);
	if ((rc = lanes_routing_add_map(r, map, &m, err)) ||
	    (rc = lanes_route_sl2vl_alloc(r, f, err)))
		return rc;
	/* every (in, out) pair of every switch: one run of the table */
	fill_u16(r->sl2vl_sw, m, r->sl2vl_sw_off[f->num_switches]);
	for (uint32_t n = 0; n < f->num_nodes; n++) {
		uint16_t *slot = r->sl2vl_port + f->nodes[n].port_base;

		if (f->nodes[n].type != LANES_NODE_SWITCH)
			for (uint8_t p = 1; p <= f->nodes[n].nports; p++)
				slot[p] = m;
	}
	return 0;
}
