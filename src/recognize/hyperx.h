/*
 * recognize/hyperx.h - what the HyperX recogniser's files share: its working
 * state, and the steps of hyperx_place.c (placing what faults left
 * unsettled) and hyperx_checks.c (the acceptance checks), which hyperx.c
 * runs. Each returns 0, or a negative LANES_E* code with err filled
 * (LANES_EINVAL: not a HyperX, and why).
 */
#ifndef LANES_RECOGNIZE_HYPERX_H
#define LANES_RECOGNIZE_HYPERX_H

#include <stdint.h>

#include "recognize/recognize.h"

/* The working state: the graph, its links' classes and the coordinates. */
struct hx {
	struct lanes_switch_graph g;
	uint32_t *reverse;   /* per link position u->v: the position of v->u */
	struct lanes_uf eps; /* over link positions */
	uint32_t *dim_of;    /* per link position: its dimension */
	uint32_t num_dims;
	uint32_t extent[LANES_STRUCTURE_MAX_DIMS];
	uint32_t *coord;     /* [switch * num_dims + dim] */
};

/*
 * A switch with a value of its own in some dimension (below, unsettled) is
 * placed where its placed neighbours allow exactly one place (our addition
 * to the paper's method, for faulty fabrics); unsettled switches next to
 * unsettled ones follow, round after round. When only switches with
 * several places are left (one hanging on a single cable may sit one step
 * from its neighbour in any free direction), the lowest takes the first
 * place (lowest neighbour, dimension, value): a guess, the only one made.
 */
int lanes_hx_place_unsettled(struct hx *x, struct lanes_error *err);

/* Values renumbered by lowest switch, extents recounted (loners moved). */
int lanes_hx_renumber_values(struct hx *x, struct lanes_error *err);

/* An orphan link joins switches that differ in one coordinate: its dimension. */
int lanes_hx_place_orphans(struct hx *x, struct lanes_error *err);

/* Distinct coordinates, and enough of the switches and links present. */
int lanes_hx_check_fill(struct hx *x, struct lanes_error *err);

/* Every dimension has 2+ values and every link changes its own coordinate. */
int lanes_hx_check_dims(const struct hx *x, struct lanes_error *err);

/* The switch graph is connected: one component. */
int lanes_hx_check_connected(const struct lanes_switch_graph *g, struct lanes_error *err);

#endif
