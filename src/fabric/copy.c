/*
 * copy.c - rebuild a fabric through the builder with parts left out or
 * renamed (copy.h). The builder checks and freezes the copy as it does a
 * file's fabric, and keeps the LIDs the original file gave.
 */
#include "copy.h"
#include "core/util.h"

#include <stdlib.h>

static int copy_nodes(const struct lanes_fabric *f, const unsigned char *dead_node,
		      const char *const *desc, struct lanes_builder *b, uint32_t *map,
		      struct lanes_error *err)
{
	int rc = 0;

	for (uint32_t i = 0; i < f->num_nodes && !rc; i++) {
		const struct lanes_node *n = &f->nodes[i];
		struct lanes_node_spec spec = { n->type, n->nports, n->guid, n->sysimage_guid,
						n->vendor_id, n->device_id,
						desc && desc[i] ? desc[i] : n->desc };

		map[i] = LANES_NONE;
		if (dead_node && dead_node[i])
			continue;
		rc = lanes_builder_add_node(b, &spec, &map[i], err);
		for (unsigned p = 0; p <= n->nports && !rc; p++) {
			const struct lanes_port *port = &f->ports[n->port_base + p];

			rc = lanes_builder_set_port(b, map[i], (uint8_t)p, port->guid,
						    lanes_lid_in_file(port->lid), port->lmc, err);
		}
	}
	return rc;
}

int lanes_fabric_copy(const struct lanes_fabric *f, const unsigned char *dead_node,
		      const unsigned char *dead_link, const char *const *desc,
		      struct lanes_fabric **out, struct lanes_error *err)
{
	struct lanes_builder *b;
	uint32_t *map = malloc(sizeof(*map) * (f->num_nodes + 1));
	int rc = lanes_builder_new(&b, err);

	if (rc || !map) {
		free(map);
		lanes_builder_free(b);
		return rc ? rc : lanes_error_oom(err);
	}
	rc = copy_nodes(f, dead_node, desc, b, map, err);
	for (uint32_t l = 0; l < f->num_links && !rc; l++) {
		const struct lanes_link *k = &f->links[l];
		const struct lanes_port *port = lanes_fabric_port(f, k->a, k->pa);

		if ((!dead_link || !dead_link[l]) && map[k->a] != LANES_NONE && map[k->b] != LANES_NONE)
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
