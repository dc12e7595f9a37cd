/*
 * dragonfly.c - the fully connected dragonfly of Kim, Dally, Scott and Abts
 * ("Technology-driven, highly-scalable dragonfly topology", ISCA 2008), with
 * the parameters of seed 000 (Sec. 2.1): g groups of a switches, every group
 * a complete graph of local cables, p hosts and h global ports per switch;
 * g <= a*h + 1, and with g = a*h + 1 exactly one global cable joins every
 * pair of groups, N = a*p*(a*h + 1) hosts.
 *
 * Global arrangements (Camarero, Vallejo, Beivide, "Topological analysis and
 * characterization of dragonfly global link arrangements", 2014; the
 * caminos-lib simulator by the same authors). Global link j = s*h + k of a
 * group is global port k of its switch s. With g = a*h + 1:
 *   consecutive (absolute, Kim-Dally): link j of group i goes to group j if
 *       j < i, else j + 1;
 *   palmtree: link j of group i goes to group (i - j - 1) mod g, and lands
 *       on link a*h - 1 - j there.
 * With g < a*h + 1 (our rule; the papers leave it open): every group has
 * n = g - 1 partners and t = a*h global ports; each pair of groups gets
 * c = t / n cables, and the r = t mod n ports left per group carry one extra
 * cable each along an r-regular circulant on the groups (distances 1..r/2,
 * plus g/2 when r is odd). When g and r are both odd no r-regular graph
 * exists: groups 0..g-2 use the circulant on Z_(g-1), the pairs (0,1),
 * (2,3), .., (r-3,r-2) are replaced by cables from those groups to group
 * g-1, and group g-1 leaves its last global port (switch a-1, last port)
 * unused: the only port ever left free. A group's cables fill its links
 * round by round: round 0 takes one cable to each partner in wiring order
 * (ascending group for consecutive, i-1, i-2, ... for palmtree), then round
 * 1, ..., and the extra round last. Consecutive pairs round k with round k;
 * palmtree pairs full round k with round c-1-k, which is exactly Camarero's
 * extended palm tree whenever g - 1 divides a*h.
 *
 * Numbering: switch s of group i is switch i*a + s, labelled "g<i>-s<s>";
 * ports 1..p hosts, p+1..p+a-1 local cables to the other switches of the
 * group in ascending order, p+a..p+a+h-1 global ports 0..h-1. Hosts are
 * numbered switch by switch. Switches come first, then all cables, then the
 * hosts, so switch LIDs come first.
 */
#include <stdlib.h>
#include <stdio.h>

#include "gen.h"
#include "generators.h"
#include "params.h"
#include "core/util.h"

#define KIND "dragonfly"
#define USAGE "a=N p=N h=N [g=N] [wiring=consecutive|palmtree]"

enum { WIRING_CONSECUTIVE, WIRING_PALMTREE };

struct df {
	unsigned a, p, h, g;
	int wiring;
	unsigned n, c, r;   /* partners per group, full rounds, extra cables per group */
	uint32_t *xrank;    /* g*r: ranks of each group's extra partners, ascending */
	uint32_t first;     /* node index of switch 0 */
	struct gen gen;
};

static int read_params(struct lanes_params *prm, struct df *d, struct lanes_error *err)
{
	static const char *const wirings[] = { "consecutive", "palmtree", NULL };
	uint64_t a, p, h, g;
	char what[128];
	int rc;

	if ((rc = lanes_params_uint(prm, "a", LANES_PARAM_REQUIRED, 1, 254, &a, err)) ||
	    (rc = lanes_params_uint(prm, "p", LANES_PARAM_REQUIRED, 0, 254, &p, err)) ||
	    (rc = lanes_params_uint(prm, "h", LANES_PARAM_REQUIRED, 1, 254, &h, err)) ||
	    (rc = lanes_params_uint(prm, "g", a * h + 1, 0, UINT32_MAX, &g, err)) ||
	    (rc = lanes_params_choice(prm, "wiring", wirings, WIRING_CONSECUTIVE, &d->wiring,
				      err)) ||
	    (rc = lanes_gen_check_radix(KIND, p + a - 1 + h,
				  "'p' hosts + 'a'-1 local + 'h' global ports", err)))
		return rc;
	if (g < 2 || g > a * h + 1)
		return lanes_error_set(err, LANES_EINVAL,
				       "%s: parameter 'g' must be 2..%llu (a*h+1), not %llu", KIND,
				       (unsigned long long)(a * h + 1), (unsigned long long)g);
	snprintf(what, sizeof(what), "parameters 'a', 'p' and 'g' (a=%llu p=%llu g=%llu)",
		 (unsigned long long)a, (unsigned long long)p, (unsigned long long)g);
	if ((rc = lanes_gen_check_lids(prm, KIND, what, a * g, lanes_gen_sat_mul(a * g, p), err)))
		return rc;
	d->a = (unsigned)a;
	d->p = (unsigned)p;
	d->h = (unsigned)h;
	d->g = (unsigned)g;
	d->n = d->g - 1;
	d->c = d->a * d->h / d->n;
	d->r = d->a * d->h % d->n;
	return 0;
}

/* Does the pair of groups (i, m) carry an extra cable? (see the header) */
static int extra_pair(unsigned g, unsigned r, unsigned i, unsigned m)
{
	unsigned lo = i < m ? i : m, hi = i < m ? m : i, e = g - 1, d;

	if (!r)
		return 0;
	if ((g * r) % 2 == 0) {
		d = hi - lo < g - (hi - lo) ? hi - lo : g - (hi - lo);
		return d <= r / 2 || (r % 2 && 2 * d == g);
	}
	if (hi == e)
		return lo + 2 <= r;
	d = hi - lo < e - (hi - lo) ? hi - lo : e - (hi - lo);
	if (d == 1 && lo % 2 == 0 && hi == lo + 1 && hi + 2 <= r)
		return 0;
	return d <= (r - 1) / 2 || 2 * d == e;
}

/* Position of partner m in group i's wiring order, and its inverse. */
static unsigned rank_of(const struct df *d, unsigned i, unsigned m)
{
	if (d->wiring == WIRING_PALMTREE)
		return (i + d->g - m - 1) % d->g;
	return m < i ? m : m - 1;
}

static unsigned partner_at(const struct df *d, unsigned i, unsigned k)
{
	if (d->wiring == WIRING_PALMTREE)
		return (i + 2 * d->g - k - 1) % d->g;
	return k < i ? k : k + 1;
}

static int list_extras(struct df *d, struct lanes_error *err)
{
	if (!d->r)
		return 0;
	d->xrank = malloc((size_t)d->g * d->r * sizeof(*d->xrank));
	if (!d->xrank)
		return lanes_error_oom(err);
	for (size_t j = 0; j < (size_t)d->g * d->r; j++)
		d->xrank[j] = UINT32_MAX; /* group g-1 may list one fewer */
	for (unsigned i = 0; i < d->g; i++) {
		uint32_t *out = &d->xrank[(size_t)i * d->r];

		for (unsigned k = 0; k < d->n; k++)
			if (extra_pair(d->g, d->r, i, partner_at(d, i, k)))
				*out++ = k;
	}
	return 0;
}

/* Global link of group i that carries its round-k cable to group m. */
static unsigned link_of(const struct df *d, unsigned i, unsigned m, unsigned k)
{
	const uint32_t *x = d->xrank ? &d->xrank[(size_t)i * d->r] : NULL;
	unsigned rk = rank_of(d, i, m), lo = 0, hi = d->r;

	if (k < d->c)
		return k * d->n + rk;
	while (lo < hi) { /* the extras are listed by ascending rank */
		unsigned mid = (lo + hi) / 2;

		if (x[mid] < rk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return d->c * d->n + lo;
}

static uint32_t sw(const struct df *d, unsigned group, unsigned s)
{
	return d->first + group * d->a + s;
}

static int global_cable(struct df *d, unsigned i, unsigned m, unsigned k,
			struct lanes_error *err)
{
	unsigned km = d->wiring == WIRING_PALMTREE && k < d->c ? d->c - 1 - k : k;
	unsigned ji = link_of(d, i, m, k), jm = link_of(d, m, i, km);
	unsigned base = d->p + d->a;

	return lanes_gen_cable(&d->gen, sw(d, i, ji / d->h), base + ji % d->h, sw(d, m, jm / d->h),
			 base + jm % d->h, err);
}

static int add_switches(struct df *d, struct lanes_error *err)
{
	char label[32];
	int rc;

	for (unsigned i = 0; i < d->g; i++)
		for (unsigned s = 0; s < d->a; s++) {
			uint32_t node;

			snprintf(label, sizeof(label), "g%u-s%u", i, s);
			if ((rc = lanes_gen_switch(&d->gen, d->p + d->a - 1 + d->h, label, &node, err)))
				return rc;
			if (!i && !s)
				d->first = node;
		}
	return 0;
}

static int add_cables(struct df *d, struct lanes_error *err)
{
	int rc;

	for (unsigned i = 0; i < d->g; i++)
		for (unsigned s = 0; s < d->a; s++)
			for (unsigned s2 = s + 1; s2 < d->a; s2++)
				if ((rc = lanes_gen_cable(&d->gen, sw(d, i, s), d->p + s2, sw(d, i, s2),
						    d->p + 1 + s, err)))
					return rc;
	for (unsigned i = 0; i < d->g; i++)
		for (unsigned m = i + 1; m < d->g; m++) {
			unsigned count = d->c + (unsigned)extra_pair(d->g, d->r, i, m);

			for (unsigned k = 0; k < count; k++)
				if ((rc = global_cable(d, i, m, k, err)))
					return rc;
		}
	return 0;
}

static int generate(struct lanes_params *prm, struct lanes_builder *b, struct lanes_error *err)
{
	struct df d = { 0 };
	int rc;

	lanes_gen_init(&d.gen, b, KIND);
	if ((rc = read_params(prm, &d, err)) || (rc = list_extras(&d, err)) ||
	    (rc = add_switches(&d, err)) || (rc = add_cables(&d, err)))
		goto out;
	for (unsigned v = 0; v < d.a * d.g; v++)
		if ((rc = lanes_gen_hosts(&d.gen, d.first + v, 1, d.p, err)))
			goto out;
out:
	free(d.xrank);
	return rc;
}

const struct lanes_generator lanes_gen_dragonfly = {
	.name = "dragonfly",
	.summary = "groups of a fully connected switches, groups joined by global cables",
	.usage = USAGE,
	.source = "Kim, Dally, Scott, Abts, ISCA 2008 (seed 000 Sec. 2.1); global arrangements: "
		  "Camarero, Vallejo, Beivide 2014",
	.generate = generate,
};
