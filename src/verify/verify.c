/*
 * verify.c - the verifier's driver: build the tables it needs from the
 * fabric, run every destination LID through walk.c and flow.c, then look for
 * a cycle in the channel dependency graph and compute the metrics.
 *
 * Cost: O(S) per destination LID plus the CDG, which is bits; memory is a
 * few arrays of S or E entries, the S x S distance matrix (for the stretch)
 * and the CDG bit matrices.
 *
 * Destinations are split into contiguous LID ranges, one per thread; each
 * thread has its own scratch, counters and CDG bits, merged in range order.
 * Every merged quantity is an integer sum, a maximum, an OR, or "the lowest
 * destination", so the result is the same for any number of threads.
 */
#include <stdlib.h>
#include <string.h>

#include "verify_internal.h"

#include "core/parallel.h"
#include "core/util.h"
#include "fabric/distance.h"

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

/* Per switch: LID, ports, and where each port leads. */
static void switch_row(struct vctx *c, uint32_t s)
{
	const struct lanes_fabric *f = c->f;
	uint32_t node = f->switches[s];
	const struct lanes_node *n = &f->nodes[node];

	c->sw_lid[s] = lanes_fabric_lid(f, node, 0);
	c->sw_base[s] = n->port_base;
	c->sw_nports[s] = n->nports;
	for (unsigned p = 0; p <= n->nports; p++) {
		uint32_t peer = f->ports[n->port_base + p].peer_node;
		uint32_t *x = &c->port_next[n->port_base + p];

		if (peer == LANES_NONE || p == 0)
			*x = NEXT_NO_CABLE;
		else if (peer == node)
			*x = NEXT_SELF;
		else if (f->nodes[peer].type != LANES_NODE_SWITCH)
			*x = NEXT_NOT_SWITCH;
		else
			*x = f->nodes[peer].switch_index;
	}
}

/* CSR entry owners, reverse positions, and port -> entry. */
static int link_tables(struct vctx *c)
{
	const struct lanes_fabric *f = c->f;

	c->ent_sw = malloc(sizeof(uint32_t) * (c->E + 1));
	c->rev = malloc(sizeof(uint32_t) * (c->E + 1));
	c->port_ent = malloc(sizeof(uint32_t) * (f->num_port_slots + 1));
	c->port_next = malloc(sizeof(uint32_t) * (f->num_port_slots + 1));
	c->sw_lid = malloc(sizeof(uint32_t) * (c->S + 1));
	c->sw_base = malloc(sizeof(uint32_t) * (c->S + 1));
	c->sw_nports = malloc(c->S + 1);
	if (!c->ent_sw || !c->rev || !c->port_ent || !c->port_next || !c->sw_lid || !c->sw_base ||
	    !c->sw_nports)
		return -1;
	for (uint32_t i = 0; i < f->num_port_slots; i++)
		c->port_ent[i] = LANES_NONE;
	for (uint32_t s = 0; s < c->S; s++)
		switch_row(c, s);
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
		c->total_sources = c->S + total;
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
	c->seq = malloc(n * sizeof(uint32_t));
	c->fail_at = malloc(n * sizeof(uint32_t));
	c->bucket = calloc(n, sizeof(uint32_t));
	c->sub = malloc(n * sizeof(uint64_t));
	c->sub_sl = malloc(n * sizeof(uint64_t));
	c->vlmask = malloc(n * sizeof(uint16_t));
	c->own_sls = malloc(n * sizeof(uint16_t));
	c->routes = calloc((size_t)c->E + 1, sizeof(uint64_t));
	c->stretch_hist = calloc((size_t)STRETCH_SIDE * STRETCH_SIDE, sizeof(uint64_t));
	return c->state && c->fail_port && c->active && c->hops && c->nxt && c->outent &&
			       c->order && c->seq && c->fail_at && c->bucket && c->sub && c->sub_sl &&
			       c->vlmask && c->own_sls && c->routes && c->stretch_hist
		       ? 0
		       : -1;
}

/* What each thread owns: scratch, counters, CDG bits. */
static void release_worker(struct vctx *c)
{
	void *p[] = { c->state, c->fail_port, c->active, c->hops,  c->nxt,
		      c->outent, c->order,    c->seq,    c->fail_at, c->bucket,
		      c->sub,   c->sub_sl,    c->vlmask, c->own_sls, c->routes,
		      c->stretch_hist, c->bits, c->bit_off };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
}

/* The tables built once from the fabric, shared read-only by the threads. */
static void release(struct vctx *c)
{
	void *p[] = { c->ent_sw, c->rev,    c->port_ent, c->ca_off,  c->cas,      c->dist,
		      c->port_next, c->sw_lid, c->sw_base, c->sw_nports, c->inj_mask, c->ca_inj };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
	release_worker(c);
}

static int setup(struct vctx *c, struct lanes_error *err)
{
	c->S = c->f->num_switches;
	c->E = c->f->adj_off[c->S];
	c->has_maps = c->r->sl2vl_sw || c->r->sl2vl_port;
	c->V = (uint8_t)(c->has_maps ? highest_vl(c->r) + 1 : 1);
	if (scratch(c) || link_tables(c) || ca_tables(c) || (c->has_maps && injection_masks(c)))
		return lanes_error_oom(err);
	if (lanes_switch_distances_parallel(c->f, lanes_threads_for(c->o->threads, c->S), &c->dist, err))
		return LANES_ENOMEM;
	return lanes_verify_cdg_alloc(c, err);
}

/* Destinations lo .. hi - 1; in the first-destination pass, until every wanted one is found. */
static void each_destination(struct vctx *c, uint32_t lo, uint32_t hi)
{
	const struct lanes_fabric *f = c->f;

	for (uint32_t d = lo; d < hi && !(c->wanted && !c->wanted_left); d++) {
		uint32_t owner = f->lid_owner[d].node;

		if (owner == LANES_NONE || (c->o->ca_only && f->nodes[owner].type == LANES_NODE_SWITCH))
			continue;
		if (lanes_verify_walk(c, d))
			continue;
		lanes_verify_count_failures(c);
		lanes_verify_order(c);
		lanes_verify_flow(c);
	}
}

/*
 * One worker's context and LID range. Workers sit side by side in one
 * array, and a context's last fields (the destination's, hop_sum) are written
 * for every destination while the next context's first fields are read as
 * often: `apart` keeps them off each other's cache lines. Without it the two
 * threads slowed each other: verify of minhop on dragonfly a=20 p=10 h=10,
 * 2 threads, 2.1-2.2 s against 1.6 s with it (1 thread: 2.4 s).
 */
struct job {
	struct vctx w;
	uint32_t lo, hi;
	char apart[LANES_FALSE_SHARING_GAP];
};

static void run_job(void *ctx, unsigned k)
{
	struct job *j = (struct job *)ctx + k;

	each_destination(&j->w, j->lo, j->hi);
}

/*
 * A thread's own state, sharing c's tables. scratch() runs first and
 * always: it replaces every scratch pointer copied from c, so that on
 * failure release_worker() frees only what is the worker's own.
 */
static int worker_init(struct job *j, const struct vctx *c, struct lanes_error *err)
{
	int rc;

	j->w = *c;
	j->w.bits = NULL;
	j->w.bit_off = NULL;
	rc = scratch(&j->w);
	j->w.res = calloc(1, sizeof(*j->w.res));
	if (rc || !j->w.res)
		return lanes_error_oom(err);
	return lanes_verify_cdg_alloc(&j->w, err);
}

static void merge_examples(struct lanes_verify_result *to, const struct lanes_verify_result *from)
{
	for (uint32_t i = 0; i < from->num_examples && to->num_examples < LANES_VERIFY_EXAMPLES; i++)
		to->examples[to->num_examples++] = from->examples[i];
}

static void merge_result(struct lanes_verify_result *to, const struct lanes_verify_result *from)
{
	to->pairs_checked += from->pairs_checked;
	to->unreachable_pairs += from->unreachable_pairs;
	to->loops += from->loops;
	to->drops += from->drops;
	merge_examples(to, from);
	to->vls_used = to->vls_used > from->vls_used ? to->vls_used : from->vls_used;
	to->sls_used = to->sls_used > from->sls_used ? to->sls_used : from->sls_used;
	to->vl15_used |= from->vl15_used;
	to->vls_over_budget |= from->vls_over_budget;
	to->routes += from->routes;
	to->hops_max = to->hops_max > from->hops_max ? to->hops_max : from->hops_max;
	for (int i = 0; i < LANES_VERIFY_HOPS_HIST; i++)
		to->hops_hist[i] += from->hops_hist[i];
	for (int v = 0; v < 16; v++)
		to->routes_per_vl[v] += from->routes_per_vl[v];
}

/* Fold a thread into c. Threads come in LID order, so the examples stay in LID order. */
static void merge(struct vctx *c, const struct vctx *w)
{
	merge_result(c->res, w->res);
	c->hop_sum += w->hop_sum;
	for (size_t i = 0; i < (size_t)STRETCH_SIDE * STRETCH_SIDE; i++)
		c->stretch_hist[i] += w->stretch_hist[i];
	for (uint32_t e = 0; e < c->E; e++)
		c->routes[e] += w->routes[e];
	for (uint64_t i = 0; i <= c->bit_off[c->S] / 64; i++)
		c->bits[i] |= w->bits[i];
}

uint32_t lanes_verify_threads(const struct lanes_verify_opts *o, uint32_t work)
{
	return lanes_threads_for(o->threads, work / 2); /* two items a thread at least */
}

/* Give each job its own state (sharing c's tables); on failure, free what was made. */
static int jobs_init(struct job *jobs, uint32_t T, const struct vctx *c, uint32_t lids,
		     struct lanes_error *err)
{
	for (uint32_t k = 0; k < T; k++) {
		jobs[k].lo = 1 + (uint32_t)((uint64_t)lids * k / T);
		jobs[k].hi = 1 + (uint32_t)((uint64_t)lids * (k + 1) / T);
		if (worker_init(&jobs[k], c, err)) {
			for (uint32_t i = 0; i <= k; i++) {
				lanes_verify_result_free(jobs[i].w.res);
				release_worker(&jobs[i].w);
			}
			return LANES_ENOMEM;
		}
	}
	return 0;
}

static uint32_t lid_at(uint64_t x, uint32_t lids)
{
	return x <= lids ? (uint32_t)x : lids + 1;
}

/* Has some worker found a destination for every wanted dependency? */
static int all_found(const struct verify_wanted *found, uint32_t n, uint32_t T)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = 0;

		while (k < T && found[(size_t)k * n + i].dst == LANES_NONE)
			k++;
		if (k == T)
			return 0;
	}
	return 1;
}

/*
 * Destinations in rounds of T blocks of LIDs, job k taking the k-th block
 * of each round: small blocks keep the jobs level (two halves of the LIDs
 * of dragonfly a=26 p=13 h=13 took 6.3 and 7.9 s). With examples_to, the
 * path failures' examples are merged into it after each round in block
 * order, so they come in LID order, as on one thread. With found (the
 * first-destination pass), the rounds stop once every one of its n wanted
 * dependencies has a destination.
 */
static void run_rounds(struct job *jobs, uint32_t T, uint32_t lids,
		       struct lanes_verify_result *examples_to, const struct verify_wanted *found,
		       uint32_t n)
{
	uint32_t block = lids / (64 * T) + 1;

	for (uint64_t lo = 1; lo <= lids && !(found && all_found(found, n, T)); lo += (uint64_t)block * T) {
		for (uint32_t k = 0; k < T; k++) {
			jobs[k].lo = lid_at(lo + (uint64_t)k * block, lids);
			jobs[k].hi = lid_at(lo + (uint64_t)(k + 1) * block, lids);
		}
		lanes_parallel_run(T, run_job, jobs);
		lanes_progress_add(jobs[0].w.o->progress, jobs[T - 1].hi - jobs[0].lo);
		for (uint32_t k = 0; examples_to && k < T; k++) {
			merge_examples(examples_to, jobs[k].w.res);
			jobs[k].w.res->num_examples = 0;
		}
	}
}

/* Destinations on T jobs (run_rounds), their findings merged. */
static int run_threads(struct vctx *c, struct lanes_error *err)
{
	uint32_t lids = c->f->max_lid, T = lids < 128 ? 1 : lanes_verify_threads(c->o, lids);
	struct job *jobs;
	int rc = 0;

	lanes_progress_phase(c->o->progress, "paths", lids);
	if (T == 1) { /* in 64 blocks, to say how far it is */
		for (uint64_t lo = 1, step = lids / 64 + 1; lo <= lids; lo += step) {
			uint32_t hi = lid_at(lo + step, lids);

			each_destination(c, (uint32_t)lo, hi);
			lanes_progress_add(c->o->progress, hi - lo);
		}
		return 0;
	}
	if (!(jobs = calloc(T, sizeof(*jobs))))
		return lanes_error_oom(err);
	if ((rc = jobs_init(jobs, T, c, lids, err)))
		goto out;
	run_rounds(jobs, T, lids, c->res, NULL, 0);
	for (uint32_t k = 0; k < T; k++) {
		merge(c, &jobs[k].w);
		lanes_verify_result_free(jobs[k].w.res);
		release_worker(&jobs[k].w);
	}
	c->res->cdg_dependencies = lanes_verify_cdg_count(c);
out:
	free(jobs);
	return rc;
}

/* LID x, or lids + 1 (the end) when x is beyond. */

/*
 * Rounds of T consecutive blocks of LIDs, block k of a round on worker k
 * (each with its own copy of want, its own CDG bits, and so its own first
 * destination of each dependency among the LIDs it has seen); after a round
 * every LID below the round's end has been seen, so once every dependency
 * has a destination the least over the workers is the first one, and the
 * pass stops. Blocks are a 64th of the LIDs a worker: a cycle's dependencies
 * are usually all made within the first few (minhop on dragonfly a=20 p=10
 * h=10: within the first quarter of the LIDs), so this costs a part of a
 * second pass, and only where there is a cycle to explain.
 */
int lanes_verify_first_dsts(const struct vctx *c, struct verify_wanted *want, uint32_t n,
			    struct lanes_error *err)
{
	uint32_t lids = c->f->max_lid, T = lids < 128 ? 1 : lanes_verify_threads(c->o, lids);
	struct job *jobs = calloc(T, sizeof(*jobs));
	struct verify_wanted *found = malloc(sizeof(*found) * ((size_t)n * T + 1));
	int rc = 0;

	if (!jobs || !found) {
		rc = lanes_error_oom(err);
		goto out;
	}
	if ((rc = jobs_init(jobs, T, c, lids, err)))
		goto out;
	lanes_progress_phase(c->o->progress, "the cycle's paths", lids);
	for (uint32_t k = 0; k < T; k++) {
		memcpy(found + (size_t)k * n, want, sizeof(*want) * n);
		jobs[k].w.wanted = found + (size_t)k * n;
		jobs[k].w.num_wanted = jobs[k].w.wanted_left = n;
	}
	run_rounds(jobs, T, lids, NULL, found, n);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < T; k++)
			if (found[(size_t)k * n + i].dst < want[i].dst)
				want[i].dst = found[(size_t)k * n + i].dst;
	for (uint32_t k = 0; k < T; k++) {
		lanes_verify_result_free(jobs[k].w.res);
		release_worker(&jobs[k].w);
	}
out:
	free(jobs);
	free(found);
	return rc;
}

int lanes_verify(const struct lanes_fabric *f, const struct lanes_routing *r,
		 const struct lanes_verify_opts *opts, struct lanes_verify_result **out,
		 struct lanes_error *err)
{
	struct vctx c;
	int rc;

	*out = NULL;
	if ((rc = lanes_routing_check(f, r, err)))
		return rc;
	if (opts->metric_traffic != LANES_VERIFY_CA_PAIRS &&
	    opts->metric_traffic != LANES_VERIFY_SWITCH_PAIRS)
		return lanes_error_set(err, LANES_EINVAL, "no metric traffic %d", opts->metric_traffic);
	if (opts->metric_traffic == LANES_VERIFY_SWITCH_PAIRS && opts->ca_only)
		return lanes_error_set(err, LANES_EINVAL,
				       "switch-pairs metrics need the switch LIDs as destinations, "
				       "which ca_only leaves out");
	memset(&c, 0, sizeof(c));
	c.f = f;
	c.r = r;
	c.o = opts;
	if (!(c.res = calloc(1, sizeof(*c.res))))
		return lanes_error_oom(err);
	if (!(rc = setup(&c, err)) && !(rc = run_threads(&c, err)) &&
	    !(rc = lanes_verify_cdg_cycle(&c, err)) && !(rc = lanes_verify_ebb(&c, err))) {
		lanes_verify_channel_metrics(&c);
		c.res->reachable = c.res->unreachable_pairs == 0;
		*out = c.res;
		c.res = NULL;
	}
	lanes_verify_result_free(c.res);
	release(&c);
	return rc;
}
