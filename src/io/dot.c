/*
 * dot.c - Graphviz DOT output of a fabric (write only).
 *
 * Switches are boxes, CAs ellipses, routers diamonds; each cable is one
 * undirected edge labelled with its two port numbers, so `dot -Tsvg` or
 * `neato` draw the fabric as cabled. Labels carry the description and LID;
 * like every writer, an analysis-only LID above 0xBFFF is printed as 0.
 */
#include "formats.h"

static void put_escaped(const char *s, FILE *out)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
}

static const char *shape_of(int type)
{
	return type == LANES_NODE_SWITCH ? "box" : type == LANES_NODE_CA ? "ellipse" : "diamond";
}

static int dot_write(const struct lanes_fabric *f, FILE *out, struct lanes_error *err)
{
	fprintf(out, "graph fabric {\n\tnode [fontsize=10];\n\tedge [fontsize=8];\n");
	for (uint32_t i = 0; i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];
		uint8_t first = n->type == LANES_NODE_SWITCH ? 0 : 1;

		fprintf(out, "\tn%u [shape=%s, label=\"", i, shape_of(n->type));
		put_escaped(n->desc, out);
		fprintf(out, "\\nLID %u\"];\n", lanes_lid_in_file(lanes_fabric_lid(f, i, first)));
	}
	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_link *k = &f->links[l];

		fprintf(out, "\tn%u -- n%u [taillabel=\"%u\", headlabel=\"%u\"];\n", k->a, k->b,
			k->pa, k->pb);
	}
	fprintf(out, "}\n");
	if (ferror(out))
		return lanes_error_set(err, LANES_EIO, "write error");
	return 0;
}

const struct lanes_format lanes_format_dot = {
	.name = "dot",
	.summary = "Graphviz DOT drawing of the cabling (write only)",
	.write = dot_write,
};
