/*
 * recognize/recognize.h - what the recognisers share: a union-find on switch
 * indices and the sorted switch neighbour sets they all start from.
 */
#ifndef LANES_RECOGNIZE_INTERNAL_H
#define LANES_RECOGNIZE_INTERNAL_H

#include <stdint.h>

#include "lanes/recognize.h"

/** Union-find over 0..n-1 with path halving and union by size. */
struct lanes_uf {
	uint32_t *parent;
	uint32_t *size;
	uint32_t n;
};

int lanes_uf_init(struct lanes_uf *uf, uint32_t n, struct lanes_error *err);
void lanes_uf_free(struct lanes_uf *uf);
uint32_t lanes_uf_find(struct lanes_uf *uf, uint32_t x);
/** @return 1 if x and y were in different sets (now merged), else 0 */
int lanes_uf_union(struct lanes_uf *uf, uint32_t x, uint32_t y);

/**
 * The switch graph without parallel cables and self-loops: for each switch,
 * its distinct neighbour switches in ascending order, CSR.
 */
struct lanes_switch_graph {
	uint32_t num_switches;
	uint32_t *off; /**< num_switches + 1 */
	uint32_t *nbr; /**< off[num_switches] */
};

int lanes_switch_graph_build(const struct lanes_fabric *f, struct lanes_switch_graph *g,
			     struct lanes_error *err);
void lanes_switch_graph_free(struct lanes_switch_graph *g);
/** @return 1 if u and v are neighbours (binary search in u's list) */
int lanes_switch_graph_adjacent(const struct lanes_switch_graph *g, uint32_t u, uint32_t v);
/** @return how many switches are neighbours of both u and v */
uint32_t lanes_switch_graph_common(const struct lanes_switch_graph *g, uint32_t u, uint32_t v);

#endif
