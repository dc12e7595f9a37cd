/*
 * traffic.c - the traffic patterns of lanes/sim.h made concrete for one
 * fabric: who sends to whom (sim/traffic.h; docs/traffic-patterns.md gives
 * every definition with a worked example for N = 8).
 *
 * Endpoints are the CA ports with a LID and a cable to a switch, in node and
 * then port order, numbered 0..N-1. A pattern is defined on ranks 0..N-1;
 * the placement says on which endpoint each rank runs: rank i on endpoint
 * i (linear, the default), or in a random order from the seed, so that
 * neighbours in a pattern are not neighbours in the fabric (random; one
 * shuffle of the endpoint list before the pattern is built, so the
 * endpoint numbers below are ranks). A pattern gives every endpoint a role
 * (offered load, full rate, idle) and its destinations: a fixed partner for
 * a permutation, a small set to draw from (stencil neighbours, hot-spot
 * destinations), or every other endpoint (uniform).
 *
 * The bit permutations are those of Dally and Towles, "Principles and
 * Practices of Interconnection Networks" (Morgan Kaufmann 2004), Sec. 3.2,
 * Table 3.2, with s_i and d_i bit i of source and destination and b bits:
 *   bit complement  d_i = not s_i
 *   bit reverse     d_i = s_(b-1-i)
 *   bit rotation    d_i = s_((i+1) mod b)      (rotate right by one)
 *   shuffle         d_i = s_((i-1) mod b)      (rotate left by one)
 *   transpose       d_i = s_((i+b/2) mod b)    (b even)
 * BookSim2's traffic.cpp (Jiang et al., ISPASS 2013) implements the same and
 * refuses an N that is not a power of two (transpose: an even power). The
 * book and BookSim are silent on other N; our definitions for any N, which
 * agree with the table wherever the table applies:
 *   - bit complement is d = N-1-s (not s, for N a power of two): a mirror
 *     of the endpoint numbering, every endpoint busy but the middle one of
 *     an odd N;
 *   - bit reverse, rotation and shuffle act on the b = floor(log2 N) bits
 *     of the largest power of two P <= N; endpoints P..N-1 are idle;
 *   - transpose is that of an m x m matrix with m = floor(sqrt N), endpoint
 *     s = r*m + c sending to c*m + r (the bit transpose when N = 4^k);
 *     endpoints m*m..N-1 are idle;
 *   - an endpoint its permutation maps onto itself is idle: a packet to
 *     oneself never enters the fabric (BookSim sends it anyway).
 * Idle endpoints (LANES_TRAFFIC_IDLE) send nothing, are not measured, and
 * still receive whatever is sent to them.
 *
 * Shift: d = (s + shift) mod N; shift = 0 mod N is refused (every endpoint
 * to itself).
 *
 * 6-point 3D stencil (the nearest-neighbour pattern of seed 000,
 * Maglione-Mathey et al., JPDC 2021, Sec. 5.2, which gives no grid): the
 * endpoints 0..X*Y*Z-1 lie on an X x Y x Z torus, x fastest, and each sends
 * uniformly to its 6 neighbours x +- 1, y +- 1, z +- 1 with wraparound. The
 * grid is ours: X >= Y >= Z >= 3 (so the 6 neighbours are distinct),
 * X <= 2*Z (near-cubic), and the most endpoints X*Y*Z <= N; among grids of
 * as many endpoints, the least X - Z, then the largest Z. The others are
 * idle. Fewer than 27 endpoints are refused.
 *
 * Hot-spot (seed 000, Sec. 5.2, item 3): h_s = floor(f*N) endpoints (f =
 * 0.06 by default) send at 100% of link bandwidth to h_d = floor(log2 h_s)
 * destinations; the others send uniformly at the offered load. Both sets
 * are drawn at random (partial Fisher-Yates from the seed). The paper
 * samples "the network throughput ... only for those endnodes not receiving
 * hot-spot traffic": the throughput of this pattern is what the endpoints
 * other than the h_d destinations receive (measured[] with
 * measure_at_destination; every other pattern measures what the endpoints
 * at the offered load send). The paper is silent on three points; ours: the
 * destinations are not senders; h_s = 1 gets one destination (log2 1 = 0);
 * h_s = 0 is plain uniform traffic.
 *
 * Dragonfly worst case: the adversarial pattern of Kim, Dally, Scott and
 * Abts ("Technology-driven, highly-scalable dragonfly topology", ISCA
 * 2008), every node of group i sending to group i+1, so that minimal
 * routing puts a whole group's traffic on the cables between two groups.
 * Kim et al. and BookSim2 (bad_dragon) draw a random node of the next group
 * per packet; issue 20 fixes the partner, and so do we: with the groups of
 * lanes_recognize_dragonfly() and a group's endpoints in endpoint order,
 * endpoint k of group g sends to endpoint k of group (g+1) mod G, and is
 * idle when that group has fewer than k+1 endpoints (a fabric with faults).
 * The load between groups is the same; only the spread inside the
 * destination group differs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/traffic.h"
#include "lanes/recognize.h"
#include "core/bits.h"
#include "core/util.h"

static const char *const pattern_names[] = {
	[LANES_SIM_UNIFORM] = "uniform",
	[LANES_SIM_BIT_COMPLEMENT] = "bitcomp",
	[LANES_SIM_BIT_REVERSE] = "bitrev",
	[LANES_SIM_BIT_ROTATION] = "bitrot",
	[LANES_SIM_SHUFFLE] = "shuffle",
	[LANES_SIM_TRANSPOSE] = "transpose",
	[LANES_SIM_SHIFT] = "shift",
	[LANES_SIM_STENCIL3D] = "stencil3d",
	[LANES_SIM_HOTSPOT] = "hotspot",
	[LANES_SIM_DRAGONFLY_WORST] = "dragonfly-worst",
};

#define NUM_PATTERNS (sizeof(pattern_names) / sizeof(pattern_names[0]))

int lanes_sim_pattern_find(const char *name, int *pattern)
{
	for (size_t i = 0; i < NUM_PATTERNS; i++)
		if (!strcmp(pattern_names[i], name)) {
			*pattern = (int)i;
			return 0;
		}
	return LANES_ENOTFOUND;
}

const char *lanes_sim_pattern_name(int pattern)
{
	if (pattern < 0 || (size_t)pattern >= NUM_PATTERNS)
		return "unknown";
	return pattern_names[pattern];
}

/* A CA port that is an endpoint: it has a LID and a cable to a switch. */
static int is_endpoint(const struct lanes_fabric *f, uint32_t node, uint8_t port)
{
	const struct lanes_port *p = lanes_fabric_port(f, node, port);

	return p->lid && p->peer_node != LANES_NONE &&
	       f->nodes[p->peer_node].type == LANES_NODE_SWITCH;
}

/* Count the endpoints, allocate the per-endpoint arrays and fill lid/node/port. */
static int list_endpoints(const struct lanes_fabric *f, struct lanes_traffic *t,
			  struct lanes_error *err)
{
	uint32_t n = 0, k = 0;

	for (uint32_t v = 0; v < f->num_nodes; v++)
		for (uint8_t p = 1; f->nodes[v].type == LANES_NODE_CA && p <= f->nodes[v].nports; p++)
			n += (uint32_t)is_endpoint(f, v, p);
	t->num_endpoints = n;
	t->lid = malloc(((size_t)n + 1) * sizeof(*t->lid));
	t->node = malloc(((size_t)n + 1) * sizeof(*t->node));
	t->port = malloc((size_t)n + 1);
	t->role = calloc((size_t)n + 1, 1); /* LANES_TRAFFIC_OFFERED */
	t->measured = calloc((size_t)n + 1, 1);
	t->fixed = malloc(((size_t)n + 1) * sizeof(*t->fixed));
	if (!t->lid || !t->node || !t->port || !t->role || !t->measured || !t->fixed)
		return lanes_error_oom(err);
	for (uint32_t v = 0; v < f->num_nodes; v++)
		for (uint8_t p = 1; f->nodes[v].type == LANES_NODE_CA && p <= f->nodes[v].nports; p++)
			if (is_endpoint(f, v, p)) {
				t->lid[k] = lanes_fabric_port(f, v, p)->lid;
				t->node[k] = v;
				t->port[k] = p;
				t->fixed[k++] = LANES_NONE;
			}
	return 0;
}

/* Swap endpoints i and j: their LIDs, nodes and ports (before any pattern is built). */
static void swap_endpoints(struct lanes_traffic *t, uint32_t i, uint32_t j)
{
	uint32_t lid = t->lid[i], node = t->node[i];
	uint8_t port = t->port[i];

	t->lid[i] = t->lid[j];
	t->node[i] = t->node[j];
	t->port[i] = t->port[j];
	t->lid[j] = lid;
	t->node[j] = node;
	t->port[j] = port;
}

/*
 * Random placement: rank i runs on the i-th endpoint of a Fisher-Yates
 * shuffle. Endpoint numbers are ranks from here on, so every pattern below
 * is built on ranks unchanged. A stream of its own ("placemnt" in ASCII).
 */
static void place_ranks(struct lanes_traffic *t, uint64_t seed)
{
	struct lanes_rng rng;

	lanes_rng_seed(&rng, seed ^ 0x706c6163656d6e74ULL);
	for (uint32_t i = t->num_endpoints; i > 1; i--)
		swap_endpoints(t, i - 1, (uint32_t)lanes_rng_below(&rng, i));
}

/* The parameters of the permutation patterns for N endpoints. */
struct perm_params {
	uint32_t n;          /* endpoints */
	uint32_t pow2;       /* largest power of two <= n */
	unsigned bits;       /* log2 pow2 */
	uint32_t side;       /* transpose: floor(sqrt n) */
	uint32_t shift;      /* shift mod n */
};

static uint32_t reverse_bits(uint32_t s, unsigned bits)
{
	uint32_t d = 0;

	for (unsigned i = 0; i < bits; i++)
		d |= ((s >> (bits - 1 - i)) & 1u) << i;
	return d;
}

/* The partner of s under a permutation pattern, or LANES_NONE (no partner). */
static uint32_t permutation_partner(int pattern, const struct perm_params *pp, uint32_t s)
{
	const unsigned b = pp->bits;

	if (pattern == LANES_SIM_BIT_COMPLEMENT)
		return pp->n - 1 - s;
	if (pattern == LANES_SIM_SHIFT)
		return (uint32_t)(((uint64_t)s + pp->shift) % pp->n);
	if (pattern == LANES_SIM_TRANSPOSE)
		return s < pp->side * pp->side ? s % pp->side * pp->side + s / pp->side : LANES_NONE;
	if (s >= pp->pow2 || b == 0)
		return LANES_NONE;
	if (pattern == LANES_SIM_BIT_REVERSE)
		return reverse_bits(s, b);
	if (pattern == LANES_SIM_BIT_ROTATION)
		return (s >> 1) | ((s & 1u) << (b - 1));
	/* LANES_SIM_SHUFFLE */
	return ((s << 1) & (pp->pow2 - 1)) | (s >> (b - 1));
}

static int make_permutation(const struct lanes_sim_traffic *spec, struct lanes_traffic *t,
			    struct lanes_error *err)
{
	const uint32_t n = t->num_endpoints;
	struct perm_params pp = { .n = n };

	pp.bits = lanes_msb64(n);
	pp.pow2 = (uint32_t)1 << pp.bits;
	pp.side = (uint32_t)sqrt((double)n);
	while ((uint64_t)pp.side * pp.side > n)
		pp.side--;
	while ((uint64_t)(pp.side + 1) * (pp.side + 1) <= n)
		pp.side++;
	pp.shift = spec->shift % n;
	if (spec->pattern == LANES_SIM_SHIFT && pp.shift == 0)
		return lanes_error_set(err, LANES_EINVAL,
				       "shift %u is 0 modulo the %u endpoints: every endpoint "
				       "would send to itself", spec->shift, n);
	for (uint32_t s = 0; s < n; s++) {
		uint32_t d = permutation_partner(spec->pattern, &pp, s);

		t->fixed[s] = d == s ? LANES_NONE : d;
		if (t->fixed[s] == LANES_NONE)
			t->role[s] = LANES_TRAFFIC_IDLE;
	}
	return 0;
}

/* The stencil's grid: X >= Y >= Z >= 3, X <= 2Z, most X*Y*Z <= n, then least X - Z, largest Z. */
static int stencil_grid(uint32_t n, uint32_t grid[3])
{
	uint64_t best = 0;

	for (uint64_t z = 3; z * z * z <= n; z++)
		for (uint64_t y = z; y <= 2 * z && z * y * y <= n; y++) {
			uint64_t x = n / (y * z) < 2 * z ? n / (y * z) : 2 * z;
			uint64_t size = x * y * z;

			if (x < y)
				continue;
			if (size > best || (size == best && (x - z < grid[0] - grid[2] ||
							      (x - z == grid[0] - grid[2] && z > grid[2])))) {
				best = size;
				grid[0] = (uint32_t)x;
				grid[1] = (uint32_t)y;
				grid[2] = (uint32_t)z;
			}
		}
	return best > 0;
}

/* The 6 neighbours of endpoint i on the grid, in the order -x, +x, -y, +y, -z, +z. */
static void stencil_neighbours(const uint32_t grid[3], uint32_t i, uint32_t *out)
{
	const uint32_t X = grid[0], Y = grid[1], Z = grid[2];
	const uint32_t x = i % X, y = i / X % Y, z = i / (X * Y);

	out[0] = (x + X - 1) % X + y * X + z * X * Y;
	out[1] = (x + 1) % X + y * X + z * X * Y;
	out[2] = x + (y + Y - 1) % Y * X + z * X * Y;
	out[3] = x + (y + 1) % Y * X + z * X * Y;
	out[4] = x + y * X + (z + Z - 1) % Z * X * Y;
	out[5] = x + y * X + (z + 1) % Z * X * Y;
}

static int make_stencil(struct lanes_traffic *t, struct lanes_error *err)
{
	const uint32_t n = t->num_endpoints;
	uint32_t grid[3] = { 0, 0, 0 }, cells;

	if (!stencil_grid(n, grid))
		return lanes_error_set(err, LANES_EREFUSED,
				       "stencil3d needs at least 27 endpoints (a 3x3x3 grid), "
				       "the fabric has %u", n);
	cells = grid[0] * grid[1] * grid[2];
	t->set_off = malloc(((size_t)n + 1) * sizeof(*t->set_off));
	t->set = malloc((size_t)cells * 6 * sizeof(*t->set));
	if (!t->set_off || !t->set)
		return lanes_error_oom(err);
	for (uint32_t i = 0; i <= n; i++)
		t->set_off[i] = 6 * (i < cells ? i : cells);
	for (uint32_t i = 0; i < n; i++) {
		if (i < cells)
			stencil_neighbours(grid, i, t->set + 6 * (size_t)i);
		else
			t->role[i] = LANES_TRAFFIC_IDLE;
	}
	return 0;
}

/* h_s and h_d of seed 000's hot-spot rule, for n endpoints; LANES_EINVAL. */
static int hotspot_sizes(double fraction, uint32_t n, uint32_t *senders, uint32_t *dests,
			 struct lanes_error *err)
{
	if (!(fraction >= 0 && fraction <= 1))
		return lanes_error_set(err, LANES_EINVAL,
				       "hot-spot fraction must be in [0, 1], not %g", fraction);
	/* floor(f*N); the tolerance keeps 0.06 * 50 at 3 whatever the rounding */
	*senders = (uint32_t)floor(fraction * n + 1e-9);
	*dests = *senders > 1 ? lanes_msb64(*senders) : *senders;
	if ((uint64_t)*senders + *dests > n)
		return lanes_error_set(err, LANES_EINVAL,
				       "hot-spot fraction %g: %u senders and %u destinations "
				       "do not fit in %u endpoints", fraction, *senders, *dests, n);
	return 0;
}

static int make_hotspot(const struct lanes_sim_traffic *spec, uint64_t seed,
			struct lanes_traffic *t, struct lanes_error *err)
{
	const uint32_t n = t->num_endpoints;
	uint32_t num_senders = 0, num_dests = 0, *order = NULL;
	struct lanes_rng rng;
	int rc;

	if ((rc = hotspot_sizes(spec->hotspot_fraction, n, &num_senders, &num_dests, err)))
		goto out;
	rc = LANES_ENOMEM;
	order = malloc((size_t)n * sizeof(*order));
	t->set_off = calloc((size_t)n + 1, sizeof(*t->set_off));
	t->set = malloc(((size_t)num_senders * num_dests + 1) * sizeof(*t->set));
	if (!order || !t->set_off || !t->set) {
		lanes_error_oom(err);
		goto out;
	}
	/*
	 * partial Fisher-Yates: order[0..h_s) senders, order[h_s..h_s+h_d) destinations;
	 * a stream of its own ("hotspot" in ASCII), so that a simulator seeding its
	 * injection with the same seed does not replay these draws
	 */
	lanes_rng_seed(&rng, seed ^ 0x686f7473706f74ULL);
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	for (uint32_t i = 0; i < num_senders + num_dests; i++) {
		uint32_t j = i + (uint32_t)lanes_rng_below(&rng, n - i), tmp = order[i];

		order[i] = order[j];
		order[j] = tmp;
	}
	qsort(order + num_senders, num_dests, sizeof(*order), lanes_cmp_u32);
	for (uint32_t i = 0; i < num_senders; i++)
		t->role[order[i]] = LANES_TRAFFIC_FULL_RATE;
	/* measured where received, at every endpoint but the hot-spot destinations */
	t->measure_at_destination = 1;
	memset(t->measured, 1, n);
	for (uint32_t d = 0; d < num_dests; d++)
		t->measured[order[num_senders + d]] = 0;
	for (uint32_t s = 0, k = 0; s < n; s++) {
		for (uint32_t d = 0; t->role[s] == LANES_TRAFFIC_FULL_RATE && d < num_dests; d++)
			t->set[k++] = order[num_senders + d];
		t->set_off[s + 1] = k;
	}
	rc = 0;
out:
	free(order);
	return rc;
}

/* The dragonfly group of every endpoint (LANES_NONE when its switch has none). */
static int endpoint_groups(const struct lanes_fabric *f, const struct lanes_traffic *t,
			   uint32_t *group, uint32_t *num_groups, struct lanes_error *err)
{
	struct lanes_structure s;
	struct lanes_error why;
	int rc;

	memset(&s, 0, sizeof(s));
	memset(&why, 0, sizeof(why));
	rc = lanes_recognize_dragonfly(f, &s, &why);
	if (rc == LANES_EINVAL)
		rc = lanes_error_set(err, LANES_EREFUSED, "dragonfly-worst: %s",
				     why.message);
	else if (rc)
		rc = lanes_error_set(err, rc, "%s", why.message);
	else if (s.num_groups < 2)
		rc = lanes_error_set(err, LANES_EREFUSED,
				     "dragonfly-worst: the dragonfly has %u group, it needs 2",
				     s.num_groups);
	if (rc)
		goto out;
	*num_groups = s.num_groups;
	for (uint32_t e = 0; e < t->num_endpoints; e++) {
		uint32_t sw_node = lanes_fabric_port(f, t->node[e], t->port[e])->peer_node;

		group[e] = s.group[f->nodes[sw_node].switch_index];
	}
out:
	lanes_structure_free(&s);
	return rc;
}

static int make_dragonfly_worst(const struct lanes_fabric *f, struct lanes_traffic *t,
				struct lanes_error *err)
{
	const uint32_t n = t->num_endpoints;
	uint32_t *group = malloc(((size_t)n + 1) * sizeof(*group));
	uint32_t *rank = malloc(((size_t)n + 1) * sizeof(*rank));
	uint32_t *members = malloc(((size_t)n + 1) * sizeof(*members));
	uint32_t *start = NULL, num_groups = 0;
	int rc = LANES_ENOMEM;

	if (!group || !rank || !members) {
		lanes_error_oom(err);
		goto out;
	}
	if ((rc = endpoint_groups(f, t, group, &num_groups, err)))
		goto out;
	rc = LANES_ENOMEM;
	if (!(start = calloc((size_t)num_groups + 1, sizeof(*start)))) {
		lanes_error_oom(err);
		goto out;
	}
	/* rank[e]: e is endpoint rank[e] of its group; members[start[g] + k]: endpoint k of g */
	for (uint32_t e = 0; e < n; e++)
		if (group[e] != LANES_NONE)
			rank[e] = start[group[e] + 1]++;
	for (uint32_t g = 0; g < num_groups; g++)
		start[g + 1] += start[g];
	for (uint32_t e = 0; e < n; e++)
		if (group[e] != LANES_NONE)
			members[start[group[e]] + rank[e]] = e;
	for (uint32_t e = 0; e < n; e++) {
		uint32_t next = group[e] == LANES_NONE ? 0 : (group[e] + 1) % num_groups;

		if (group[e] == LANES_NONE || rank[e] >= start[next + 1] - start[next])
			t->role[e] = LANES_TRAFFIC_IDLE;
		else
			t->fixed[e] = members[start[next] + rank[e]];
	}
	rc = 0;
out:
	free(group);
	free(rank);
	free(members);
	free(start);
	return rc;
}

/* Refuse a traffic in which no endpoint sends. */
static int check_senders(const struct lanes_sim_traffic *spec, const struct lanes_traffic *t,
			 struct lanes_error *err)
{
	for (uint32_t e = 0; e < t->num_endpoints; e++)
		if (t->role[e] != LANES_TRAFFIC_IDLE)
			return 0;
	return lanes_error_set(err, LANES_EREFUSED, "%s: no endpoint of the %u has a partner",
			       lanes_sim_pattern_name(spec->pattern), t->num_endpoints);
}

int lanes_traffic_make(const struct lanes_fabric *f, const struct lanes_sim_traffic *spec,
		       uint64_t seed, struct lanes_traffic *t, struct lanes_error *err)
{
	int rc;

	memset(t, 0, sizeof(*t));
	if (spec->pattern < 0 || (size_t)spec->pattern >= NUM_PATTERNS) {
		rc = lanes_error_set(err, LANES_EINVAL, "no traffic pattern %d", spec->pattern);
		goto out;
	}
	if ((rc = list_endpoints(f, t, err)))
		goto out;
	if (t->num_endpoints < 2) {
		rc = lanes_error_set(err, LANES_EREFUSED,
				     "%s traffic needs 2 endpoints (CA ports with a LID cabled to "
				     "a switch), the fabric has %u",
				     lanes_sim_pattern_name(spec->pattern), t->num_endpoints);
		goto out;
	}
	if (spec->placement == LANES_SIM_PLACE_RANDOM)
		place_ranks(t, seed);
	else if (spec->placement != LANES_SIM_PLACE_LINEAR) {
		rc = lanes_error_set(err, LANES_EINVAL, "no placement %d", spec->placement);
		goto out;
	}
	switch (spec->pattern) {
	case LANES_SIM_UNIFORM: break;
	case LANES_SIM_STENCIL3D: rc = make_stencil(t, err); break;
	case LANES_SIM_HOTSPOT: rc = make_hotspot(spec, seed, t, err); break;
	case LANES_SIM_DRAGONFLY_WORST: rc = make_dragonfly_worst(f, t, err); break;
	default: rc = make_permutation(spec, t, err); break;
	}
	if (!rc)
		rc = check_senders(spec, t, err);
	/* elsewhere measured where sent: the endpoints that send at the offered load */
	for (uint32_t e = 0; !rc && !t->measure_at_destination && e < t->num_endpoints; e++)
		t->measured[e] = t->role[e] == LANES_TRAFFIC_OFFERED;
out:
	if (rc)
		lanes_traffic_free(t);
	return rc;
}

uint32_t lanes_traffic_next(const struct lanes_traffic *t, uint32_t src, struct lanes_rng *rng)
{
	uint32_t lo, hi, other;

	if (t->role[src] == LANES_TRAFFIC_IDLE)
		return LANES_NONE;
	if (t->fixed[src] != LANES_NONE)
		return t->fixed[src];
	lo = t->set ? t->set_off[src] : 0;
	hi = t->set ? t->set_off[src + 1] : 0;
	if (hi > lo)
		return t->set[lo + (uint32_t)lanes_rng_below(rng, hi - lo)];
	/* every other endpoint: draw among n-1 and step over src */
	other = (uint32_t)lanes_rng_below(rng, t->num_endpoints - 1);
	return other >= src ? other + 1 : other;
}

void lanes_traffic_free(struct lanes_traffic *t)
{
	if (!t)
		return;
	free(t->lid);
	free(t->node);
	free(t->port);
	free(t->role);
	free(t->measured);
	free(t->fixed);
	free(t->set_off);
	free(t->set);
	memset(t, 0, sizeof(*t));
}
