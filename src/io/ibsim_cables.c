/*
 * ibsim_cables.c - the cabling step of the ibsim net reader (ibsim.c): every
 * port line becomes a cable once all nodes are known.
 *
 * Follows ibsim 0.10 (linux-rdma/ibsim, ibsim/sim_net.c): a cable must be
 * listed from both ends, and its width and speed are what ibsim makes
 * active: the highest width both ends enable, and the highest extended speed
 * both enable, else the highest speed both enable. Our own files carry the
 * exact width and speed as a "# 4xEDR" comment, which wins over the masks.
 */
#include <stdlib.h>
#include <string.h>

#include "../fabric/builder_internal.h"
#include "ibsim_internal.h"
#include "core/util.h"

/* ibsim's get_active_linkwidth() order: 12x, 8x, 4x, 2x, 1x. */
static uint8_t width_of_mask(unsigned m)
{
	return m & 8 ? 12 : m & 4 ? 8 : m & 2 ? 4 : m & 16 ? 2 : m & 1 ? 1 : 0;
}

/*
 * The common masks of both ends: an extended speed if they share one, else
 * the highest common speed; ibsim needs a common speed in either case.
 */
static uint8_t speed_of_masks(unsigned s, unsigned e)
{
	if (!s)
		return 0;
	if (e)
		return e & 4 ? LANES_SPEED_HDR : e & 2 ? LANES_SPEED_EDR : LANES_SPEED_FDR;
	return s & 4 ? LANES_SPEED_QDR : s & 2 ? LANES_SPEED_DDR : s & 1 ? LANES_SPEED_SDR : 0;
}

static int cable_error(struct ibsim_parse *ps, const struct pport *pp, const char *what)
{
	return lanes_error_parse(ps->err, ps->lines.file, pp->line,
				 "port %u: remote \"%s\" port %u %s", pp->port, pp->rid, pp->rport,
				 what);
}

/* The port line of (node, port), or NULL; start[] holds each node's first line. */
static const struct pport *find_line(const struct ibsim_parse *ps, const size_t *start,
				     uint32_t node, uint8_t port)
{
	for (size_t i = start[node]; i < start[node + 1]; i++)
		if (ps->ports[i].port == port)
			return &ps->ports[i];
	return NULL;
}

/*
 * The width and speed of the cable between the lines a and b (its two ends):
 * our exact "# 4xEDR" comment when either end has one, else what ibsim makes
 * active from the enabled masks of both ends.
 */
static int active(struct ibsim_parse *ps, const struct pport *a, const struct pport *b,
		  uint8_t *width, uint8_t *speed)
{
	const struct pport *exact = a->width ? a : b->width ? b : NULL;

	if (exact) {
		*width = exact->width;
		*speed = exact->speed;
		return 0;
	}
	*width = width_of_mask(a->wmask & b->wmask);
	*speed = speed_of_masks(a->smask & b->smask, a->emask & b->emask);
	if (!*width || !*speed)
		return cable_error(ps, a, *width ? "enables no speed (s=) that this end enables"
						 : "enables no width (w=) that this end enables");
	return 0;
}

/* Each node's first port line (port lines come grouped by node, in node order). */
static size_t *line_starts(const struct ibsim_parse *ps, uint32_t n)
{
	size_t *start = calloc((size_t)n + 2, sizeof(*start));

	if (!start)
		return NULL;
	for (size_t i = 0; i < ps->nports; i++)
		start[ps->ports[i].node + 1]++;
	for (uint32_t v = 0; v < n; v++)
		start[v + 1] += start[v];
	return start;
}

/* Every cable listed back from its other end gets its active width and speed. */
static int check_both_ends(struct ibsim_parse *ps, uint32_t n)
{
	size_t *start = line_starts(ps, n);
	int rc = 0;

	if (!start)
		return lanes_error_oom(ps->err);
	for (size_t i = 0; i < ps->nports && !rc; i++) {
		const struct pport *pp = &ps->ports[i], *back;
		uint32_t r = lanes_builder_peer(ps->b, pp->node, pp->port);
		uint8_t width, speed;

		if (!(back = find_line(ps, start, r, pp->rport)))
			rc = cable_error(ps, pp, "does not list this cable back (ibsim needs both ends)");
		else if (!(rc = active(ps, pp, back, &width, &speed)))
			rc = lanes_builder_connect(ps->b, pp->node, pp->port, r, pp->rport, width,
						   speed, ps->err);
	}
	free(start);
	return rc;
}

/* Cable every port line; each cable must be listed from both ends. */
int lanes_ibsim_connect_all(struct ibsim_parse *ps)
{
	uint32_t n = lanes_builder_num_nodes(ps->b);
	uint32_t *listed = calloc((size_t)n * 256 / 32 + 1, sizeof(uint32_t));
	int rc = 0;

	if (!listed)
		return lanes_error_oom(ps->err);
	for (size_t i = 0; i < ps->nports && !rc; i++) {
		struct pport *pp = &ps->ports[i];
		uint32_t r = lanes_strmap_get(&ps->ids, pp->rid, strlen(pp->rid));
		size_t bit = (size_t)pp->node * 256 + pp->port;

		if (listed[bit / 32] & (1u << bit % 32))
			rc = lanes_error_parse(ps->err, ps->lines.file, pp->line,
					       "port %u is listed twice", pp->port);
		else if (r == UINT32_MAX)
			rc = cable_error(ps, pp, "does not exist");
		else if (pp->rport > lanes_builder_nports(ps->b, r))
			rc = cable_error(ps, pp, "is beyond that node's port count");
		else if (lanes_builder_connect(ps->b, pp->node, pp->port, r, pp->rport, 0, 0,
					       ps->err))
			rc = cable_error(ps, pp, "is cabled elsewhere (the two ends disagree)");
		else if ((pp->lid || pp->lmc) &&
			 !(rc = lanes_builder_set_port(ps->b, pp->node, pp->port, 0, pp->lid,
						       pp->lmc, ps->err)) &&
			 lanes_builder_lid_line(ps->b, ps->lines.file, pp->node, pp->port, pp->line))
			rc = lanes_error_oom(ps->err);
		listed[bit / 32] |= 1u << bit % 32;
	}
	free(listed);
	return rc ? rc : check_both_ends(ps, n);
}
