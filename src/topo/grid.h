/*
 * grid.h - switches at integer coordinates: the k-ary n-cube family.
 *
 * Shared by torus.c, mesh.c and hypercube.c (the cabling) and by hyperx.c
 * (coordinates, labels, hosts, the size checks). See
 * docs/topologies-grid-tree.md for the conventions, which routing engines
 * (dor, torus-2qos, ecube, hyperx-dor) and the recogniser rely on:
 *
 *  - Switch index s = c_0 + k_0 * (c_1 + k_1 * (c_2 + ...)): dimension 0
 *    varies fastest. Switches are added first, in index order, so switch s
 *    is node s and has the s-th switch LID.
 *  - A switch's label is its coordinates, one letter per dimension from
 *    "xyzwabcdefghijkl": "x1-y2-z0".
 *  - Hosts: p one-port CAs on ports 1..p of every switch, added after all
 *    cables, switch by switch; host h hangs off switch h / p, port h % p + 1.
 *  - Network ports follow, one block per dimension in dimension order.
 *    Torus/mesh block of dimension i (base b_i = p + 1 + sum of earlier
 *    blocks):
 *      k_i = 1              no ports, no cables;
 *      torus, k_i = 2       L_i ports b_i .. b_i+L_i-1, each cabled to the
 *                           SAME port number on the other switch (the +1 and
 *                           -1 neighbour coincide: one set of L_i cables);
 *      torus k_i >= 3,
 *      mesh k_i >= 2        2*L_i ports: b_i+l (l < L_i) goes towards +1 and is
 *                           cabled to port b_i+L_i+l (towards -1) of the +1
 *                           neighbour. In a mesh the +1 ports of c_i = k_i-1
 *                           and the -1 ports of c_i = 0 stay uncabled.
 */
#ifndef LANES_TOPO_GRID_H
#define LANES_TOPO_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "params.h"

/* Most dimensions a grid may have (a list parameter's limit). */
#define GRID_DIMS_MAX LANES_PARAM_LIST_MAX

/* A torus or a mesh, as torus.c, mesh.c and hypercube.c describe it. */
struct grid {
	const char *kind;              /* generator name, for messages and labels */
	int wrap;                      /* 1: torus (wraparound), 0: mesh */
	size_t n;                      /* dimensions */
	uint32_t k[GRID_DIMS_MAX];     /* switches along each dimension */
	uint32_t L[GRID_DIMS_MAX];     /* parallel cables per neighbour pair */
	uint32_t p;                    /* hosts per switch */
	uint32_t switches;             /* product of k */
	uint32_t base[GRID_DIMS_MAX];  /* first port of each dimension's block */
	uint32_t width[GRID_DIMS_MAX]; /* ports in that block */
	uint32_t nports;               /* p + sum of width */
};

/* "4x8x8" into buf. */
void lanes_grid_format_dims(const uint32_t *k, size_t n, char *buf, size_t size);

/* Coordinates of switch s; and back. */
void lanes_grid_coords(const uint32_t *k, size_t n, uint32_t s, uint32_t *c);
uint32_t lanes_grid_stride(const uint32_t *k, size_t i);

/* "x1-y2-z0" into buf. */
void lanes_grid_label(const uint32_t *c, size_t n, char *buf, size_t size);

/*
 * Read list parameter "L" for n dimensions: absent means all 1, one value
 * applies to every dimension, else exactly n values.
 */
int lanes_grid_read_L(struct lanes_params *p, size_t n, uint32_t *L, struct lanes_error *err);

/* Saturating product of k[0..n) (see lanes_gen_sat_mul). */
uint64_t lanes_grid_product(const uint32_t *k, size_t n);

/* All switches of a k[0..n) grid, labelled by coordinates; *first is switch 0's node. */
int lanes_grid_add_switches(struct gen *g, const uint32_t *k, size_t n, uint32_t switches,
		      unsigned nports, uint32_t *first, struct lanes_error *err);

/* p hosts on ports 1..p of each of switches first..first+switches-1. */
int lanes_grid_add_hosts(struct gen *g, uint32_t first, uint32_t switches, uint32_t p,
		   struct lanes_error *err);

/*
 * Read k (under key kkey), L and p for a torus or mesh, and lay out ports.
 * g->kind and g->wrap must be set.
 */
int lanes_grid_read(struct lanes_params *params, const char *kkey, struct grid *g,
	      struct lanes_error *err);

/* Lay out port blocks and check radix and size; n, k, L, p must be set. */
int lanes_grid_layout(struct lanes_params *prm, struct grid *g, const char *what,
		      struct lanes_error *err);

/* Add the switches, cables and hosts of a laid-out grid. */
int lanes_grid_build(const struct grid *g, struct lanes_builder *b, struct lanes_error *err);

#endif
