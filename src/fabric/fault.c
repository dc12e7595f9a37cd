/*
 * fault.c - reproducible fault injection: remove named switches and cables
 * (an administrator's "this one is down"), then random switches and
 * switch-to-switch cables among those left.
 *
 * Switches are drawn first, then cables among the switches that remain, each
 * by a partial Fisher-Yates shuffle driven by the seeded rng, so one seed
 * always removes the same parts. Removing every switch is refused: what is
 * left is no fabric (and no file lanes could read back). A CA whose every cabled port leads to a
 * removed switch goes with it (its host is unreachable anyway), which keeps
 * "connected" a statement about the hosts that are left. The result is a new
 * fabric built through the builder with the surviving LIDs kept.
 */
#include "lanes/fabric.h"
#include "core/util.h"
#include "copy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * A count from an option value: a fraction of total when < 1, else a count.
 * The comparison with total happens in floating point, before any cast: a
 * double of 2^32 or more does not fit in a uint32_t (converting it is
 * undefined behaviour, and in practice wraps to a small count).
 */
static int to_count(double v, uint32_t total, const char *what, uint32_t *out,
		    struct lanes_error *err)
{
	double n;

	if (!(v >= 0) || (v >= 1 && v != floor(v)))
		return lanes_error_set(err, LANES_EINVAL,
				       "%s must be a fraction in [0, 1) or a whole count, not %g",
				       what, v);
	n = v < 1 ? round(v * total) : v;
	if (n > total)
		return lanes_error_set(err, LANES_EINVAL, "%s: cannot remove %.0f of %u", what, n,
				       total);
	*out = (uint32_t)n;
	return 0;
}

/* Mark `count` of the candidates (indices into a dense set) as chosen. */
static int choose(uint32_t *cand, uint32_t n, uint32_t count, struct lanes_rng *rng,
		  unsigned char *chosen)
{
	for (uint32_t i = 0; i < count; i++) {
		uint32_t j = i + (uint32_t)lanes_rng_below(rng, n - i);
		uint32_t t = cand[i];

		cand[i] = cand[j];
		cand[j] = t;
		chosen[cand[i]] = 1;
	}
	return 0;
}

static int ca_orphaned(const struct lanes_fabric *f, uint32_t i, const unsigned char *dead_node)
{
	const struct lanes_node *n = &f->nodes[i];
	int cabled = 0;

	for (unsigned p = 1; p <= n->nports; p++) {
		uint32_t peer = f->ports[n->port_base + p].peer_node;

		if (peer == LANES_NONE)
			continue;
		cabled = 1;
		if (!dead_node[peer])
			return 0;
	}
	return cabled;
}

static int is_net_link(const struct lanes_fabric *f, const struct lanes_link *k)
{
	return k->a != k->b && f->nodes[k->a].type == LANES_NODE_SWITCH &&
	       f->nodes[k->b].type == LANES_NODE_SWITCH;
}

/* Named switches: by node or port-0 GUID; each must be a switch. */
static int mark_named_switches(const struct lanes_fabric *f, const struct lanes_fault_names *names,
			       unsigned char *dead_sw, struct lanes_error *err)
{
	for (uint32_t i = 0; names && i < names->num_switch_guids; i++) {
		uint32_t n = lanes_fabric_find_guid(f, names->switch_guids[i]);

		if (n == LANES_NONE || f->nodes[n].type != LANES_NODE_SWITCH)
			return lanes_error_set(err, LANES_EINVAL, "fail-switch: 0x%016llx is %s",
					       (unsigned long long)names->switch_guids[i],
					       n == LANES_NONE ? "not a GUID of the fabric"
							       : "not a switch");
		dead_sw[f->nodes[n].switch_index] = 1;
	}
	return 0;
}

/* The link index of the cable in a port, or LANES_NONE. */
static uint32_t link_at(const struct lanes_fabric *f, uint32_t node, uint8_t port)
{
	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_link *k = &f->links[l];

		if ((k->a == node && k->pa == port) || (k->b == node && k->pb == port))
			return l;
	}
	return LANES_NONE;
}

/* Named cables: by the node (or port) GUID and port number of one end. */
static int mark_named_cables(const struct lanes_fabric *f, const struct lanes_fault_names *names,
			     unsigned char *dead_link, struct lanes_error *err)
{
	for (uint32_t i = 0; names && i < names->num_cables; i++) {
		const struct lanes_fault_port *c = &names->cables[i];
		uint32_t n = lanes_fabric_find_guid(f, c->guid), l;

		if (n == LANES_NONE)
			return lanes_error_set(err, LANES_EINVAL, "fail-link: 0x%016llx is not a GUID "
					       "of the fabric", (unsigned long long)c->guid);
		if (c->port < 1 || c->port > f->nodes[n].nports ||
		    (l = link_at(f, n, c->port)) == LANES_NONE)
			return lanes_error_set(err, LANES_EINVAL, "fail-link: port %u of '%s' has no "
					       "cable", c->port, f->nodes[n].desc);
		dead_link[l] = 1;
	}
	return 0;
}

void lanes_fault_list_free(struct lanes_fault_list *list)
{
	free(list->switches);
	free(list->cas);
	free(list->cables);
	memset(list, 0, sizeof(*list));
}

/* The list: what dead_node and dead_link say, in fabric order. */
static int list_removed(const struct lanes_fabric *f, const unsigned char *dead_node,
			const unsigned char *dead_link, const struct lanes_fault_report *rep,
			struct lanes_fault_list *list, struct lanes_error *err)
{
	memset(list, 0, sizeof(*list));
	list->switches = malloc(sizeof(*list->switches) * ((size_t)rep->switches_removed + 1));
	list->cas = malloc(sizeof(*list->cas) * ((size_t)rep->cas_removed + 1));
	list->cables = malloc(sizeof(*list->cables) * ((size_t)rep->links_removed + 1));
	if (!list->switches || !list->cas || !list->cables) {
		lanes_fault_list_free(list);
		return lanes_error_oom(err);
	}
	for (uint32_t i = 0; i < f->num_nodes; i++)
		if (dead_node[i] && f->nodes[i].type == LANES_NODE_SWITCH)
			list->switches[list->num_switches++] = f->nodes[i].guid;
		else if (dead_node[i])
			list->cas[list->num_cas++] = f->nodes[i].guid;
	for (uint32_t l = 0; l < f->num_links; l++)
		if (dead_link[l]) {
			const struct lanes_link *x = &f->links[l];

			list->cables[list->num_cables++] = (struct lanes_fault_cable){
				f->nodes[x->a].guid, f->nodes[x->b].guid, x->pa, x->pb };
		}
	return 0;
}

/* Switches: the named ones, then `fail_switches` at random among the rest. */
static int remove_switches(const struct lanes_fabric *f, const struct lanes_fault_spec *spec,
			   const struct lanes_fault_names *names, struct lanes_rng *rng,
			   unsigned char *dead_sw, uint32_t *cand, uint32_t *removed,
			   struct lanes_error *err)
{
	uint32_t n = 0, random = 0;
	int rc;

	if ((rc = mark_named_switches(f, names, dead_sw, err)))
		return rc;
	for (uint32_t s = 0; s < f->num_switches; s++)
		if (!dead_sw[s])
			cand[n++] = s;
	if ((rc = to_count(spec->fail_switches, n, "fail-switches", &random, err)))
		return rc;
	*removed = f->num_switches - n + random;
	if (*removed && *removed == f->num_switches)
		return lanes_error_set(err, LANES_EINVAL, "fail-switches: removing all %u switches "
				       "leaves no fabric", f->num_switches);
	choose(cand, n, random, rng, dead_sw);
	return 0;
}

/* Cables: the named ones, then `fail_links` switch-to-switch ones at random. */
static int remove_cables(const struct lanes_fabric *f, const struct lanes_fault_spec *spec,
			 const struct lanes_fault_names *names, struct lanes_rng *rng,
			 const unsigned char *dead_node, unsigned char *dead_link, uint32_t *cand,
			 uint32_t *removed, struct lanes_error *err)
{
	uint32_t n = 0, random = 0;
	int rc;

	if ((rc = mark_named_cables(f, names, dead_link, err)))
		return rc;
	*removed = 0;
	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_link *k = &f->links[l];

		if (dead_node[k->a] || dead_node[k->b])
			dead_link[l] = 0; /* goes with its switch, not counted as a cable */
		else if (dead_link[l])
			(*removed)++;
		else if (is_net_link(f, k))
			cand[n++] = l;
	}
	if ((rc = to_count(spec->fail_links, n, "fail-links", &random, err)))
		return rc;
	choose(cand, n, random, rng, dead_link);
	*removed += random;
	return 0;
}

int lanes_fabric_remove_faults(const struct lanes_fabric *f, const struct lanes_fault_spec *spec,
			       const struct lanes_fault_names *names, struct lanes_fabric **out,
			       struct lanes_fault_report *report, struct lanes_fault_list *list,
			       struct lanes_error *err)
{
	struct lanes_rng rng;
	struct lanes_fault_report rep = { 0, 0, 0 };
	unsigned char *dead_node = calloc((size_t)f->num_nodes + 1, 1);
	unsigned char *dead_link = calloc((size_t)f->num_links + 1, 1);
	unsigned char *dead_sw = calloc((size_t)f->num_switches + 1, 1);
	uint32_t *cand = malloc(sizeof(*cand) * ((size_t)f->num_links + f->num_switches + 1));
	int rc = LANES_ENOMEM;

	*out = NULL;
	if (!dead_node || !dead_link || !dead_sw || !cand) {
		lanes_error_set(err, rc, "out of memory");
		goto out;
	}
	lanes_rng_seed(&rng, spec->seed);
	if ((rc = remove_switches(f, spec, names, &rng, dead_sw, cand, &rep.switches_removed, err)))
		goto out;
	for (uint32_t s = 0; s < f->num_switches; s++)
		dead_node[f->switches[s]] = dead_sw[s];
	for (uint32_t i = 0; i < f->num_nodes; i++)
		if (f->nodes[i].type != LANES_NODE_SWITCH && ca_orphaned(f, i, dead_node)) {
			dead_node[i] = 1;
			rep.cas_removed++;
		}
	if ((rc = remove_cables(f, spec, names, &rng, dead_node, dead_link, cand,
				&rep.links_removed, err)) ||
	    (list && (rc = list_removed(f, dead_node, dead_link, &rep, list, err))))
		goto out;
	if ((rc = lanes_fabric_copy(f, dead_node, dead_link, NULL, out, err))) {
		if (list)
			lanes_fault_list_free(list);
		goto out;
	}
	if (report)
		*report = rep;
out:
	free(dead_node);
	free(dead_link);
	free(dead_sw);
	free(cand);
	return rc;
}

int lanes_fabric_inject_faults(const struct lanes_fabric *f, const struct lanes_fault_spec *spec,
			       struct lanes_fabric **out, struct lanes_fault_report *report,
			       struct lanes_error *err)
{
	return lanes_fabric_remove_faults(f, spec, NULL, out, report, NULL, err);
}
