/*
 * recognize.c - the entry point that tries each recogniser, and the
 * union-find and simple switch graph they share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "recognize/recognize.h"
#include "core/util.h"

const char *lanes_structure_kind_name(int kind)
{
	switch (kind) {
	case LANES_STRUCTURE_DRAGONFLY: return "dragonfly";
	case LANES_STRUCTURE_HYPERX: return "hyperx";
	case LANES_STRUCTURE_SLIMFLY: return "slimfly";
	case LANES_STRUCTURE_TORUS: return "torus";
	case LANES_STRUCTURE_SFXFF: return "sfxff";
	default: return "none";
	}
}

void lanes_structure_free(struct lanes_structure *s)
{
	if (!s)
		return;
	free(s->group);
	free(s->coord);
	memset(s, 0, sizeof(*s));
}

int lanes_recognize(const struct lanes_fabric *f, struct lanes_structure *s,
		    struct lanes_error *err)
{
	static int (*const recognizers[])(const struct lanes_fabric *, struct lanes_structure *,
					  struct lanes_error *) = {
		lanes_recognize_slimfly, lanes_recognize_hyperx, lanes_recognize_sfxff,
		lanes_recognize_torus, lanes_recognize_dragonfly,
	};
	char why[5][256];
	struct lanes_sb b;
	int rc;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < sizeof(recognizers) / sizeof(recognizers[0]); i++) {
		struct lanes_error e;

		lanes_error_clear(&e);
		rc = recognizers[i](f, s, &e);
		if (rc == 0)
			return 0;
		if (rc != LANES_EINVAL)
			return lanes_error_set(err, rc, "%s", e.message);
		snprintf(why[i], sizeof(why[i]), "%.255s", e.message);
	}
	memset(s, 0, sizeof(*s));
	s->num_switches = f->num_switches;
	lanes_sb_init(&b, s->note, sizeof(s->note));
	for (size_t i = 0; i < sizeof(recognizers) / sizeof(recognizers[0]); i++) {
		lanes_sb_str(&b, i ? "; " : "");
		lanes_sb_str(&b, why[i]);
	}
	return 0;
}

int lanes_uf_init(struct lanes_uf *uf, uint32_t n, struct lanes_error *err)
{
	uf->n = n;
	uf->parent = malloc(((size_t)n + 1) * sizeof(*uf->parent));
	uf->size = malloc(((size_t)n + 1) * sizeof(*uf->size));
	if (!uf->parent || !uf->size) {
		lanes_uf_free(uf);
		return lanes_error_oom(err);
	}
	for (uint32_t i = 0; i < n; i++) {
		uf->parent[i] = i;
		uf->size[i] = 1;
	}
	return 0;
}

void lanes_uf_free(struct lanes_uf *uf)
{
	free(uf->parent);
	free(uf->size);
	uf->parent = uf->size = NULL;
}

uint32_t lanes_uf_find(struct lanes_uf *uf, uint32_t x)
{
	while (uf->parent[x] != x) {
		uf->parent[x] = uf->parent[uf->parent[x]];
		x = uf->parent[x];
	}
	return x;
}

int lanes_uf_union(struct lanes_uf *uf, uint32_t x, uint32_t y)
{
	x = lanes_uf_find(uf, x);
	y = lanes_uf_find(uf, y);
	if (x == y)
		return 0;
	if (uf->size[x] < uf->size[y]) {
		uint32_t t = x;
		x = y;
		y = t;
	}
	uf->parent[y] = x;
	uf->size[x] += uf->size[y];
	return 1;
}

int lanes_switch_graph_build(const struct lanes_fabric *f, struct lanes_switch_graph *g,
			     struct lanes_error *err)
{
	uint32_t n = f->num_switches, k = 0;

	g->num_switches = n;
	g->off = malloc(((size_t)n + 1) * sizeof(*g->off));
	g->nbr = malloc(((size_t)f->adj_off[n] + 1) * sizeof(*g->nbr));
	if (!g->off || !g->nbr) {
		lanes_switch_graph_free(g);
		return lanes_error_oom(err);
	}
	for (uint32_t u = 0; u < n; u++) {
		uint32_t first = k;

		g->off[u] = first;
		for (uint32_t e = f->adj_off[u]; e < f->adj_off[u + 1]; e++)
			if (f->adj[e].sw != u)
				g->nbr[k++] = f->adj[e].sw;
		qsort(g->nbr + first, k - first, sizeof(*g->nbr), lanes_cmp_u32);
		uint32_t w = first;
		for (uint32_t i = first; i < k; i++)
			if (i == first || g->nbr[i] != g->nbr[i - 1])
				g->nbr[w++] = g->nbr[i];
		k = w;
	}
	g->off[n] = k;
	return 0;
}

void lanes_switch_graph_free(struct lanes_switch_graph *g)
{
	free(g->off);
	free(g->nbr);
	g->off = g->nbr = NULL;
}

int lanes_switch_graph_adjacent(const struct lanes_switch_graph *g, uint32_t u, uint32_t v)
{
	uint32_t n = g->off[u + 1] - g->off[u];
	uint32_t i = lanes_lower_bound(g->nbr + g->off[u], n, v);

	return i < n && g->nbr[g->off[u] + i] == v;
}

uint32_t lanes_switch_graph_common(const struct lanes_switch_graph *g, uint32_t u, uint32_t v)
{
	uint32_t i = g->off[u], j = g->off[v], common = 0;

	while (i < g->off[u + 1] && j < g->off[v + 1]) {
		if (g->nbr[i] < g->nbr[j])
			i++;
		else if (g->nbr[i] > g->nbr[j])
			j++;
		else {
			common++;
			i++;
			j++;
		}
	}
	return common;
}
