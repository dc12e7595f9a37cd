/*
 * fingerprint.c - three 64-bit fingerprints of a fabric, to tell whether
 * routing files were computed for it (report.json keeps them; `lanes
 * verify` compares them): one of the nodes (type, GUID, port count, port
 * GUIDs), one of the LIDs (each LID and LMC with the GUID of the port that
 * answers it) and one of the cables (both ends' GUIDs and port numbers).
 *
 * Each item is hashed alone (splitmix64's finaliser over its fields) and the
 * item hashes are added, so the fingerprint does not depend on the order in
 * which a file lists nodes or cables, only on what they are. Three parts,
 * rather than one, let a mismatch say what changed: a recabling, a new LID
 * assignment, a replaced node.
 */
#include "lanes/fabric.h"

/* splitmix64's output function (Steele, Lea, Flood 2014): a bijective mix. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* One item of several fields, chained through mix. */
static uint64_t item(const uint64_t *fields, int n)
{
	uint64_t h = 0;

	for (int i = 0; i < n; i++)
		h = mix(h ^ fields[i]);
	return h;
}

static uint64_t port_guid(const struct lanes_fabric *f, uint32_t node, uint8_t port)
{
	return f->ports[f->nodes[node].port_base + port].guid;
}

void lanes_fabric_fingerprint(const struct lanes_fabric *f, struct lanes_fingerprint *fp)
{
	fp->nodes = fp->lids = fp->cables = 0;
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];
		uint64_t node[3] = { n->type, n->guid, n->nports };

		fp->nodes += item(node, 3);
		for (unsigned p = n->type == LANES_NODE_SWITCH ? 0 : 1; p <= n->nports; p++) {
			const struct lanes_port *pt = &f->ports[n->port_base + p];
			uint64_t port[3] = { n->guid, p, pt->guid };
			uint64_t lid[3] = { pt->lid, pt->lmc, pt->guid };

			fp->nodes += item(port, 3);
			if (pt->lid)
				fp->lids += item(lid, 3);
		}
	}
	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_link *k = &f->links[l];
		uint64_t a = port_guid(f, k->a, k->pa), b = port_guid(f, k->b, k->pb);
		/* the ends in GUID order, not node order: a file may list the nodes in any */
		int swap = a > b || (a == b && k->pa > k->pb);
		uint64_t cable[4] = { swap ? b : a, swap ? k->pb : k->pa, swap ? a : b,
				      swap ? k->pa : k->pb };

		fp->cables += item(cable, 4);
	}
}
