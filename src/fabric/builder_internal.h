/*
 * builder_internal.h - the builder's private state, shared by builder.c
 * (nodes, cables, freezing) and lid.c (LID validation and assignment).
 */
#ifndef LANES_FABRIC_BUILDER_INTERNAL_H
#define LANES_FABRIC_BUILDER_INTERNAL_H

#include "lanes/fabric.h"

struct lanes_builder {
	struct lanes_node *nodes;
	size_t num_nodes, cap_nodes;
	struct lanes_port *ports;
	size_t num_ports, cap_ports;
	char **warnings;
	size_t num_warnings, cap_warnings;
	const char *file;       /* the file being read (lanes_builder_lid_line), or NULL */
	unsigned long *lid_line; /* per port slot: the line that gave its LID, or 0 */
	size_t num_lid_line, cap_lid_line;
};

/*
 * Readers: the line of `file` that gave (node, port)'s LID (the first one
 * given is kept), so that the LID warnings of lanes_builder_finish() name
 * file:line for the port and for the port that keeps the LID. file must
 * live until then. 0 or LANES_ENOMEM.
 */
int lanes_builder_lid_line(struct lanes_builder *b, const char *file, uint32_t node,
			   uint8_t port, unsigned long line);

/* Validate input LIDs and assign the missing ones (lid.c). */
int lanes_builder_assign_lids(struct lanes_builder *b, struct lanes_error *err);

/* The text used for a node in messages: its description, else its GUID. */
const char *lanes_builder_node_label(const struct lanes_builder *b, uint32_t node, char *buf,
				     size_t size);

#endif
