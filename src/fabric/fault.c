/*
 * fault.c - reproducible fault injection: remove random switches and
 * switch-to-switch cables.
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

static int rebuild(const struct lanes_fabric *f, const unsigned char *dead_node,
		   const unsigned char *dead_link, struct lanes_fabric **out,
		   struct lanes_error *err)
{
	struct lanes_builder *b;
	uint32_t *map = malloc(sizeof(*map) * (f->num_nodes + 1));
	int rc = lanes_builder_new(&b, err);

	if (rc || !map) {
		free(map);
		lanes_builder_free(b);
		return rc ? rc : lanes_error_oom(err);
	}
	for (uint32_t i = 0; i < f->num_nodes && !rc; i++) {
		const struct lanes_node *n = &f->nodes[i];
		struct lanes_node_spec spec = { n->type, n->nports, n->guid, n->sysimage_guid,
						n->vendor_id, n->device_id, n->desc };

		map[i] = LANES_NONE;
		if (dead_node[i])
			continue;
		rc = lanes_builder_add_node(b, &spec, &map[i], err);
		for (unsigned p = 0; p <= n->nports && !rc; p++) {
			const struct lanes_port *port = &f->ports[n->port_base + p];

			rc = lanes_builder_set_port(b, map[i], (uint8_t)p, port->guid,
						    lanes_lid_in_file(port->lid),
						    port->lmc, err);
		}
	}
	for (uint32_t l = 0; l < f->num_links && !rc; l++) {
		const struct lanes_link *k = &f->links[l];
		const struct lanes_port *port = lanes_fabric_port(f, k->a, k->pa);

		if (!dead_link[l] && !dead_node[k->a] && !dead_node[k->b])
			rc = lanes_builder_connect(b, map[k->a], k->pa, map[k->b], k->pb,
						   port->width, port->speed, err);
	}
	free(map);
	if (rc) {
		lanes_builder_free(b);
		return rc;
	}
	return lanes_builder_finish(b, out, err);
}

static int is_net_link(const struct lanes_fabric *f, const struct lanes_link *k)
{
	return k->a != k->b && f->nodes[k->a].type == LANES_NODE_SWITCH &&
	       f->nodes[k->b].type == LANES_NODE_SWITCH;
}

int lanes_fabric_inject_faults(const struct lanes_fabric *f, const struct lanes_fault_spec *spec,
			       struct lanes_fabric **out, struct lanes_fault_report *report,
			       struct lanes_error *err)
{
	struct lanes_rng rng;
	struct lanes_fault_report rep = { 0, 0, 0 };
	unsigned char *dead_node = calloc((size_t)f->num_nodes + 1, 1);
	unsigned char *dead_link = calloc((size_t)f->num_links + 1, 1);
	unsigned char *dead_sw = calloc((size_t)f->num_switches + 1, 1);
	uint32_t *cand = malloc(sizeof(*cand) * ((size_t)f->num_links + f->num_switches + 1));
	uint32_t n = 0;
	int rc = LANES_ENOMEM;

	*out = NULL;
	if (!dead_node || !dead_link || !dead_sw || !cand) {
		lanes_error_set(err, rc, "out of memory");
		goto out;
	}
	lanes_rng_seed(&rng, spec->seed);
	if ((rc = to_count(spec->fail_switches, f->num_switches, "fail-switches",
			   &rep.switches_removed, err)))
		goto out;
	if (rep.switches_removed && rep.switches_removed == f->num_switches) {
		rc = lanes_error_set(err, LANES_EINVAL,
				     "fail-switches: removing all %u switches leaves no fabric",
				     f->num_switches);
		goto out;
	}
	for (uint32_t s = 0; s < f->num_switches; s++)
		cand[s] = s;
	choose(cand, f->num_switches, rep.switches_removed, &rng, dead_sw);
	for (uint32_t s = 0; s < f->num_switches; s++)
		dead_node[f->switches[s]] = dead_sw[s];
	for (uint32_t i = 0; i < f->num_nodes; i++)
		if (f->nodes[i].type != LANES_NODE_SWITCH && ca_orphaned(f, i, dead_node)) {
			dead_node[i] = 1;
			rep.cas_removed++;
		}
	for (uint32_t l = 0; l < f->num_links; l++)
		if (is_net_link(f, &f->links[l]) && !dead_node[f->links[l].a] &&
		    !dead_node[f->links[l].b])
			cand[n++] = l;
	if ((rc = to_count(spec->fail_links, n, "fail-links", &rep.links_removed, err)))
		goto out;
	choose(cand, n, rep.links_removed, &rng, dead_link);
	if ((rc = rebuild(f, dead_node, dead_link, out, err)))
		goto out;
	if (report)
		*report = rep;
out:
	free(dead_node);
	free(dead_link);
	free(dead_sw);
	free(cand);
	return rc;
}
