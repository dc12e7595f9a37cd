/*
 * copy.h - a fabric rebuilt without some nodes and cables, or with other
 * node descriptions (fault injection, node-name maps).
 */
#ifndef LANES_FABRIC_COPY_H
#define LANES_FABRIC_COPY_H

#include "lanes/fabric.h"

/*
 * A new fabric through the builder: f's nodes, ports (GUIDs, LIDs as the
 * file gave them, LMC) and cables, less the nodes dead_node marks and the
 * cables dead_link marks (either may be NULL), with desc[i] instead of node
 * i's description where desc and desc[i] are not NULL.
 */
int lanes_fabric_copy(const struct lanes_fabric *f, const unsigned char *dead_node,
		      const unsigned char *dead_link, const char *const *desc,
		      struct lanes_fabric **out, struct lanes_error *err);

#endif
