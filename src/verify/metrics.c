/*
 * metrics.c - routes per channel over the directed switch-to-switch links:
 * maximum and minimum ("crossing path" in Sancho et al., seed 004), mean and
 * standard deviation ("deviation crossing"), and the hottest channels.
 * Unused links count with zero routes, as they do in seed 004.
 */
#include "verify_internal.h"

#include <math.h>
#include <string.h>

static void insert_hot(struct vctx *c, uint32_t e)
{
	struct lanes_verify_result *res = c->res;
	const struct lanes_adj *a = &c->f->adj[e];
	struct lanes_channel_load load;
	uint32_t i = res->num_hottest;

	memset(&load, 0, sizeof(load)); /* padding too: results compare byte for byte */
	load.from_sw = c->ent_sw[e];
	load.to_sw = a->sw;
	load.from_port = a->port;
	load.to_port = a->peer_port;
	load.routes = c->routes[e];
	if (i == LANES_VERIFY_HOTTEST) {
		if (res->hottest[i - 1].routes >= load.routes)
			return;
		i--;
	} else {
		res->num_hottest++;
	}
	while (i > 0 && res->hottest[i - 1].routes < load.routes) {
		res->hottest[i] = res->hottest[i - 1];
		i--;
	}
	res->hottest[i] = load;
}

/* Mean and largest routed/shortest ratio, from the exact histogram. */
static void stretch(struct vctx *c)
{
	struct lanes_verify_result *res = c->res;
	double sum = 0;

	for (uint32_t h = 0; h < STRETCH_SIDE; h++)
		for (uint32_t s = 1; s < STRETCH_SIDE; s++) {
			uint64_t n = c->stretch_hist[h * STRETCH_SIDE + s];

			if (!n)
				continue;
			sum += (double)n * h / s;
			if ((double)h / s > res->stretch_max)
				res->stretch_max = (double)h / s;
		}
	if (res->routes)
		res->stretch_avg = sum / (double)res->routes;
}

void lanes_verify_channel_metrics(struct vctx *c)
{
	struct lanes_verify_result *res = c->res;
	double sum = 0, sq = 0;

	res->rpc_min = c->E ? UINT64_MAX : 0;
	for (uint32_t e = 0; e < c->E; e++) {
		uint64_t n = c->routes[e];

		sum += (double)n;
		if (n > res->rpc_max)
			res->rpc_max = n;
		if (n < res->rpc_min)
			res->rpc_min = n;
		if (n)
			insert_hot(c, e);
	}
	if (c->E) {
		res->rpc_avg = sum / c->E;
		for (uint32_t e = 0; e < c->E; e++)
			sq += ((double)c->routes[e] - res->rpc_avg) * ((double)c->routes[e] - res->rpc_avg);
		res->rpc_stddev = sqrt(sq / c->E);
	}
	if (res->routes)
		res->hops_avg = (double)c->hop_sum / (double)res->routes;
	stretch(c);
}
