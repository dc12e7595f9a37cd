/*
 * route_internal.h - routing helpers shared by the engines (not public API).
 *
 * - End ports: the CA and router ports cabled to a switch, i.e. the LIDs an
 *   engine routes besides switch LIDs, listed in the order OpenSM 3.3.23
 *   routes them (osm_ucast_mgr.c, ucast_mgr_build_lfts with no
 *   guid_routing_order file: sort_ports_by_switch_load, then the port GUID
 *   table). The order matters because port load counters make each choice
 *   depend on the ones before it.
 * - Port load counters: per switch and port, the number of destination LIDs
 *   routed through it (OpenSM's port profile path count).
 * - Min-hop ports: for one destination switch t, every switch's ports that
 *   lie on a shortest path to t, in ascending port order, from the distance
 *   row of t. They depend only on (switch, destination switch), so an engine
 *   computes them once for all the CAs behind t.
 * - The least-loaded choice among candidate ports, with OpenSM's
 *   tie-breaking (osm_switch_recommend_path: the first port scanned with the
 *   strictly smallest count wins; the scan starts at a given port and wraps).
 *
 * Everything iterates in index order and keeps no global state.
 */
#ifndef LANES_ROUTE_INTERNAL_H
#define LANES_ROUTE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"

/* ------------------------------------------------------------ end ports */

/** A CA or router port cabled to a switch: one routing destination. */
struct route_endport {
	uint32_t node;   /**< the CA or router node */
	uint32_t sw;     /**< switch index it is cabled to */
	uint32_t lid;    /**< its base LID */
	uint8_t port;    /**< its port number */
	uint8_t sw_port; /**< the switch port it is cabled to */
	uint8_t lmc;     /**< it answers 2^lmc LIDs from lid */
};

/** The end ports of a fabric, in OpenSM's routing order. */
struct route_endports {
	struct route_endport *ep;
	uint32_t n;
	uint8_t max_lmc; /**< largest LMC of an end port or a switch port 0 */
};

/**
 * List the switch-attached CA and router ports in the order OpenSM's
 * ucast_mgr_build_lfts puts them: switches by decreasing number of end-port
 * cables (a stable sort of OpenSM's switch GUID map, whose key is the GUID
 * in network byte order; see route_osm_guid_key), and behind each switch its
 * end ports in switch port order. Ports with LID 0 are left out, as OpenSM
 * ignores them. CA ports cabled to no switch are not destinations.
 */
int route_endports_osm_order(const struct lanes_fabric *f, struct route_endports *out,
			     struct lanes_error *err);

/** Free the list (the struct itself is the caller's). */
void route_endports_free(struct route_endports *eps);

/**
 * The key by which OpenSM's GUID maps (cl_qmap) order nodes and ports: the
 * GUID as stored, in network byte order, read as a host integer. On the
 * little-endian hosts OpenSM runs on, that is the byte-swapped GUID.
 */
uint64_t route_osm_guid_key(uint64_t guid);

/* ------------------------------------------------------- load counters */

/** Paths routed through each (switch, port); port 0 included. */
struct route_load {
	uint32_t *off;   /**< num_switches + 1 offsets into count */
	uint32_t *count; /**< count[off[sw] + port] */
};

/** Allocate all-zero counters for every switch port of f. */
int route_load_init(struct route_load *l, const struct lanes_fabric *f, struct lanes_error *err);

/** Free the counters (the struct itself is the caller's). */
void route_load_free(struct route_load *l);

/** @return the counters of switch sw, indexed by port number */
static inline uint32_t *route_load_of(const struct route_load *l, uint32_t sw)
{
	return l->count + l->off[sw];
}

/* ------------------------------------------------------- min-hop ports */

/**
 * For one destination switch: each switch's ports on a shortest path to it.
 * Most switches have exactly one, so that case is a byte per switch (a
 * column an engine can copy into an LFT); the switches with several are
 * listed apart with their ports.
 */
struct route_hop_ports {
	uint8_t *one;    /**< per switch: its only min-hop port; 0 when it has several
			      (see multi); LANES_PORT_DROP (255) when none (the
			      destination itself, or unreachable) */
	uint32_t *multi; /**< switches with several min-hop ports, ascending */
	uint32_t *moff;  /**< nmulti + 1 offsets into port */
	uint8_t *port;   /**< ascending port numbers of each multi switch */
	uint32_t nmulti;
	uint32_t dst;    /**< the destination switch filled in, or LANES_NONE */
	uint32_t *nb;    /**< private: adjacency neighbours, a compact copy */
};

/** Allocate room for any destination switch of f. */
int route_hop_ports_init(struct route_hop_ports *h, const struct lanes_fabric *f,
			 struct lanes_error *err);

/**
 * Fill in the min-hop ports toward switch dst, given dist_to_dst[s] = hops
 * from switch s to dst (255 unreachable): every port of s whose neighbour is
 * one hop closer. The destination itself and unreachable switches get none.
 */
void route_hop_ports_fill(struct route_hop_ports *h, const struct lanes_fabric *f, uint32_t dst,
			  const uint8_t *dist_to_dst);

/** Free the buffers (the struct itself is the caller's). */
void route_hop_ports_free(struct route_hop_ports *h);

/** A copy of one destination's min-hop ports, in one block (free() it). */
struct route_saved_hops {
	struct route_hop_ports h; /**< h.nb is NULL */
	uint8_t *extra;           /**< num_switches bytes of the caller's, or NULL */
	uint32_t tag;             /**< the caller's */
};

/**
 * Copy h (of a fabric with ns switches) and, when extra is not NULL, ns
 * bytes of it, if the copy fits in *budget bytes, which it then takes.
 * @return the copy, or NULL (over budget or out of memory: recompute instead)
 */
struct route_saved_hops *route_hop_ports_save(const struct route_hop_ports *h, uint32_t ns,
					      const uint8_t *extra, size_t *budget);

/** The budget of saved copies an engine may keep: 4 MB and a quarter of the LFTs. */
size_t route_hop_ports_save_budget(const struct lanes_fabric *f);

/**
 * The far end of every switch port, indexed like route_load (off[sw] +
 * port), for OpenSM's LMC preference: the node (LANES_NONE if no cable) and
 * its system image GUID, the node GUID where the fabric has none (0), as
 * ibsim gives a node without a sysimgguid line.
 */
struct route_peers {
	uint32_t *node;
	uint64_t *sys;
};

/** Fill p for f, whose switch ports l counts (route_load_init). */
int route_peers_init(struct route_peers *p, const struct lanes_fabric *f,
		     const struct route_load *l, struct lanes_error *err);

/** Free the arrays (the struct itself is the caller's). */
void route_peers_free(struct route_peers *p);

/**
 * minhop's LFT column fill for the m LIDs lids[] toward h's destination, as
 * if the LIDs came one after the other: a switch with one candidate takes
 * it, the others their least-loaded candidate (route_least_loaded), counted
 * for h->multi[0..ncount) only. lft is num_lids x ns, LID-major.
 * offset > 0 (LID base + offset of each end port; peers required): the scan
 * starts after the port of lids[j] - 1, and a counted switch prefers, as
 * OpenSM's osm_switch_recommend_path with LMC > 0, a port towards a system,
 * then a node, that none of base .. lids[j] - 1 leaves to (see load.c).
 */
void route_fill_lids(uint8_t *lft, uint32_t ns, const struct route_hop_ports *h,
		     const struct route_load *load, const struct route_peers *peers,
		     const uint32_t *lids, uint32_t m, int offset, uint32_t ncount);

/**
 * OpenSM's least-loaded choice among n >= 1 candidate ports (ascending):
 * the scan visits the ports >= start first, then the others, each in
 * ascending order, and keeps the first port with a strictly smaller count.
 * start = 1 is the plain scan; LMC > 0 starts after the previous LID's port.
 */
static inline uint8_t route_least_loaded(const uint32_t *load, const uint8_t *ports, uint32_t n,
					 unsigned start)
{
	uint32_t k = 0, best_count = UINT32_MAX;
	uint8_t best = ports[0];

	while (k < n && ports[k] < start)
		k++;
	for (uint32_t i = k; i < n; i++)
		if (load[ports[i]] < best_count) {
			best = ports[i];
			best_count = load[best];
		}
	for (uint32_t i = 0; i < k; i++)
		if (load[ports[i]] < best_count) {
			best = ports[i];
			best_count = load[best];
		}
	return best;
}

/* ---------------------------------------------------------- SSSP paths */

/*
 * OpenSM's (DF)SSSP path computation (osm_ucast_dfsssp.c, seed 002 steps 1
 * and 2), shared by the sssp and dfsssp engines: destination LIDs one at a
 * time, each a shortest-path tree over the switches whose choices minimise
 * the routes already placed on the channels, then those routes added to the
 * channel weights. See sssp_paths.c for the exact rules.
 */

struct lanes_route_opts;
struct lanes_routing;

/**
 * route_sssp's progress: routed(ctx, t) once the LIDs of the end ports
 * behind switch t are routed (their LFT columns final), for every such
 * switch, in routing order, on route_sssp's thread.
 */
struct sssp_progress {
	void (*routed)(void *ctx, uint32_t t);
	void *ctx;
};

/**
 * Fill r's LFTs with SSSP paths for every end-port LID and (when
 * opts->switch_lids) every switch LID; each switch keeps its own LIDs on
 * port 0. r must be fresh from lanes_routing_new(). replay: break ties as
 * OpenSM's heap does (its tables entry for entry, slower; the lowest port
 * where it declines), else by the less loaded channel, then the lowest port
 * (see sssp_paths.c). prog: NULL, or told of each destination switch routed.
 */
int route_sssp(const struct lanes_fabric *f, const struct lanes_route_opts *opts, int replay,
	       const struct sssp_progress *prog, struct lanes_routing *r, struct lanes_error *err);

/** Nonzero: sssp's tie keys always take 128 bits (tests compare the two ways). */
extern int sssp_wide_keys;

/**
 * Switches from which route_sssp prepares the next destination on a second
 * thread, for its own rule and the heap replay (sssp_cands.c sets the
 * default; tests force it lower).
 */
extern int sssp_thread_min;

/** The destinations of route_sssp in OpenSM's order (sssp_order.c makes them). */
struct sssp_osm_order {
	const struct route_endports *eps; /**< end ports, grouped by switch */
	const uint32_t *ep_first;         /**< per switch: its first end port, or LANES_NONE */
	const uint64_t *hca;              /**< per switch: OpenSM's num_hca */
	const uint32_t *seq;              /**< destination switches in routing order */
	uint32_t ngroups;                 /**< seq[0..ngroups): their end ports */
	uint32_t nseq;                    /**< seq[ngroups..nseq): their own LIDs */
};

/**
 * OpenSM's own Dijkstra and heap, step for step (sssp_osm.c): 1 when it
 * routed every LID of o, 0 when OpenSM's arithmetic would not reach every
 * switch (the caller then routes the whole fabric itself), <0 on error.
 */
int route_sssp_osm(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		   struct lanes_routing *r, const struct sssp_osm_order *o,
		   struct lanes_error *err);

/* ------------------------------------------------------------ up* / down* */

/*
 * Up* / down* routing on a total order of the switches (updown.c; seed 004
 * section 3, OpenSM's updn and dnup of seed 002). pos[s] is switch s's place
 * in the order, 0 first; a move from s to a neighbour with a smaller place is
 * "up", any other move "down", and a legal path is zero or more up moves
 * followed by zero or more down moves. A total order makes the up moves
 * acyclic, which is what keeps CA-to-CA traffic free of credit loops on one
 * VL. The engines differ only in the order: BFS ranks from roots (updn),
 * hops from the switches with CAs (dnup), DFS visit order (ud-dfs).
 */

/** Where an order leaves CA traffic without a legal path. */
struct route_updown_gap {
	uint32_t from_sw; /**< a switch with CAs, or LANES_NONE */
	uint32_t to_sw;   /**< a switch with CAs it cannot reach legally */
};

struct lanes_route_opts;
struct lanes_routing;

/**
 * Route every LID of f into r (fresh from lanes_routing_new) under the
 * up* / down* rule of pos, one destination switch at a time, with minhop's
 * port order, load counters and least-loaded choice among the candidates
 * (the shortest legal moves, with one restriction: a switch that packets may
 * enter by a down move only moves down; updown_legal.c explains the states).
 * Switches with no legal path at all (only switches without CAs, for CA
 * destinations) get a shortest completion so every LID stays reachable; that
 * carries management traffic only.
 * With r NULL it builds no tables and only answers whether they would have
 * a gap (1; gap is then not filled in) or not (0).
 * @return 0; 1 when a switch with CAs has no legal path to a destination
 *         switch with CAs (gap says which; r is then incomplete); or a
 *         negative LANES_E* code
 */
int route_updown_lfts(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		      const uint32_t *pos, struct lanes_routing *r, struct route_updown_gap *gap,
		      struct lanes_error *err);

/**
 * updn's roots from the GUID file at path (updn_roots.c gives the format):
 * roots[0..*nroots) the switches named, ascending; *unknown the GUIDs of the
 * file that are not in f.
 * @return 0, or a negative LANES_E* code (a file:line parse error, or no GUID
 *         names a switch or a cabled CA of f)
 */
int route_read_roots(const struct lanes_fabric *f, const char *path, uint32_t *roots,
		     uint32_t *nroots, uint32_t *unknown, struct lanes_error *err);

/**
 * Multi-source BFS hop counts from seeds over the switch graph; rank[s] is
 * UINT32_MAX where no seed reaches.
 */
int route_bfs_ranks(const struct lanes_fabric *f, const uint32_t *seeds, uint32_t nseeds,
		    uint32_t *rank, struct lanes_error *err);

/**
 * The order of switches by key ascending, then node GUID ascending, then
 * index: pos[s] receives switch s's place.
 */
int route_order_by_key(const struct lanes_fabric *f, const uint32_t *key, uint32_t *pos,
		       struct lanes_error *err);

/** Connected components of the switch graph: comp[s] in 0..count-1, by lowest switch index. */
int route_components(const struct lanes_fabric *f, uint32_t *comp, uint32_t *count,
		     struct lanes_error *err);

/**
 * The fallback roots: one per connected component, the switch of minimum
 * eccentricity (from the distance matrix dist), ties to the lowest GUID:
 * roots[c] for component c.
 */
int route_center_roots(const struct lanes_fabric *f, const uint8_t *dist, const uint32_t *comp,
		       uint32_t ncomp, uint32_t *roots, struct lanes_error *err);

/**
 * A malloc'ed notes string: head, then "roots=0x..,0x.." naming the node
 * GUIDs of the n root switches (none when n is 0), then tail (may be NULL).
 */
char *route_notes_with_roots(const struct lanes_fabric *f, const char *head,
			     const uint32_t *roots, uint32_t n, const char *tail);

/* ------------------------------------- channels and their dependencies */

/*
 * The channels of a channel dependency graph (CDG), as dfsssp, lash and nue
 * number them (channels.c): a channel is a directed switch-to-switch cable,
 * numbered by its switch adjacency entry e (f->adj[e] leaves switch s for
 * adj_off[s] <= e < adj_off[s + 1]). A dependency "in, then out" (out leaves
 * the switch x where in ends) is numbered densely per switch, deg^2 numbers
 * for a switch of degree deg:
 *   dense_off[x] + (rev[in] - adj_off[x]) * deg + (out - adj_off[x]),
 * so a channel's out-dependencies are one run of deg numbers and its
 * in-dependencies one stride of deg. Engines keep their per-dependency state
 * (counts, LID pairs, flags) in arrays of ndeps entries indexed so.
 */
struct route_channels {
	const struct lanes_fabric *f;
	uint32_t E;         /**< channels: adjacency entries */
	uint32_t *port_ent; /**< per fabric port slot: its adjacency entry, or LANES_NONE */
	uint32_t *rev;      /**< per channel: the same cable from the other end, or
				 LANES_NONE (not cabled back to a switch port) */
	size_t *dense_off;  /**< per switch + 1: its first dependency number */
	size_t ndeps;       /**< dense_off[num_switches], below UINT32_MAX */
};

/**
 * Number the channels and dependencies of f; LANES_ERANGE ("who: too many
 * switch port pairs") when the dependency numbers would not fit 32 bits.
 */
int route_channels_init(struct route_channels *c, const struct lanes_fabric *f, const char *who,
			struct lanes_error *err);

/** Free the buffers (the struct itself is the caller's). */
void route_channels_free(struct route_channels *c);

/** @return the channel that leaves switch sw by port, or LANES_NONE */
static inline uint32_t route_channel_at(const struct route_channels *c, uint32_t sw, uint8_t port)
{
	const struct lanes_node *n = &c->f->nodes[c->f->switches[sw]];

	return port >= 1 && port <= n->nports ? c->port_ent[n->port_base + port] : LANES_NONE;
}

/** @return the number of the dependency "in, then out" (out leaves where in ends) */
static inline uint32_t route_dependency(const struct route_channels *c, uint32_t in, uint32_t out)
{
	const struct lanes_fabric *f = c->f;
	uint32_t x = f->adj[in].sw, a = f->adj_off[x], deg = f->adj_off[x + 1] - a;

	return (uint32_t)(c->dense_off[x] + (size_t)(c->rev[in] - a) * deg + (out - a));
}

/* --------------------------------------- dynamic topological order */

/*
 * Engines that keep a CDG acyclic while adding dependencies (lash per layer,
 * nue in nue_cdg.c) give every channel a place ord[c] that all used
 * dependencies respect (Pearce and Kelly, JEA 2006; cdg_order.c). Adding
 * u -> v against the order, the engine searches its own dependencies: F,
 * what v reaches through places below ord[u] (reaching u is a cycle), and
 * B, what reaches u through places above ord[v]; route_pk_reorder() then
 * hands their places out again. The searches stay with the engines because
 * each reads its own per-dependency state (lash: path counts per layer; nue:
 * one byte, used or blocked) in its innermost loop.
 */

/** Scratch for route_pk_reorder(): E + 1 entries each. */
struct route_pk_scratch {
	uint64_t *tmp;
	uint32_t *slots;
};

/**
 * Hand the places of B (bwd) and F (fwd), given as (place << 32 | channel)
 * keys in any order, out again in ascending order, B first, each set in its
 * old order; both arrays are left sorted. ord: per channel, its place; E:
 * the number of channels (every place is below it).
 */
void route_pk_reorder(uint32_t *ord, uint32_t E, uint64_t *bwd, uint32_t nb, uint64_t *fwd,
		      uint32_t nf, struct route_pk_scratch *s);

/**
 * Sort a[0..n) ascending by bits lo..hi of each key, where the keys are
 * distinct (cdg_order.c): insertion sort when short, else an LSD radix sort
 * a byte at a time (stable), tmp holding n entries.
 */
void route_sort_u64(uint64_t *a, uint32_t n, uint64_t *tmp, unsigned lo, unsigned hi);

/* ------------------------------------------------- credit-loop check */

/*
 * An incremental check that the routes to CA LIDs use an acyclic set of
 * channel dependencies on one VL (cdg_check.c). Every switch counts as a
 * source, so it may report a cycle the CA traffic does not close, never
 * miss one. New dependencies are tested in batches: a cycle shows up at a
 * later LID than the one that closed it, at the latest in
 * route_cdg_check_finish.
 */
struct route_cdg_check;

int route_cdg_check_new(const struct lanes_fabric *f, struct route_cdg_check **out,
			struct lanes_error *err);
void route_cdg_check_free(struct route_cdg_check *k);

/** Add the dependencies of r's routes to lid. @return 1 no cycle found yet, 0 a cycle (for good) */
int route_cdg_check_lid(struct route_cdg_check *k, const struct lanes_routing *r, uint32_t lid);

/** Test the dependencies not tested yet: the verdict on all of them. @return 1 a cycle, else 0 */
int route_cdg_check_finish(struct route_cdg_check *k);

/** @return 1 once a cycle was found */
int route_cdg_check_cyclic(const struct route_cdg_check *k);

/**
 * OpenSM's Min Hop tables (engines/minhop.c). With check, every CA LID's
 * routes go through it as they are made, and the first cycle ends the work:
 * then 0 and *out NULL.
 */
int route_minhop(const struct lanes_fabric *f, const struct lanes_route_opts *opts,
		 struct route_cdg_check *check, struct lanes_routing **out, struct lanes_error *err);

/* ------------------------------------------------ SLs of layered engines */

/*
 * Engines that put paths in virtual layers (dfsssp, lash, nue) use SL =
 * layer = VL (sl_layers.c).
 */

/**
 * Give r path SLs per (source switch, destination LID), all 0, without
 * lanes_routing_set_sl_mode()'s 2^30-cell limit (meant for per-pair SLs).
 */
int route_sls_per_src_switch(struct lanes_routing *r, struct lanes_error *err);

/**
 * One SL2VL map on every switch port pair and every CA or router port:
 * SL i -> VL i for i < nvls, VL 0 beyond.
 */
int route_sl2vl_identity(struct lanes_routing *r, const struct lanes_fabric *f, uint32_t nvls,
			 struct lanes_error *err);

/**
 * lanes_routing_enable_sl2vl() without clearing the switch pairs' indices
 * (routing.c), for a caller that sets every one of them.
 */
int route_sl2vl_alloc(struct lanes_routing *r, const struct lanes_fabric *f,
		      struct lanes_error *err);

/** The layers an SL = VL engine may use: the least of opts->max_vls and opts->max_sls. */
uint32_t route_layer_budget(const struct lanes_route_opts *o);

/** "9", or "more than 16" when n > max; in buf. */
const char *route_count_text(uint32_t n, uint32_t max, char *buf, size_t size);

/**
 * LANES_ERANGE "ENGINE: needs N VLs, the budget is B (vls B)" (or "sls B",
 * or "vls and sls B": the limit that binds); N above max_layers is written
 * "more than max_layers".
 */
int route_over_budget(struct lanes_error *err, const char *engine, uint32_t needed,
		      uint32_t max_layers, const struct lanes_route_opts *o);

#endif
