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
};

/* Validate input LIDs and assign the missing ones (lid.c). */
int lanes_builder_assign_lids(struct lanes_builder *b, struct lanes_error *err);

/* The text used for a node in messages: its description, else its GUID. */
const char *lanes_builder_node_label(const struct lanes_builder *b, uint32_t node, char *buf,
				     size_t size);

#endif
