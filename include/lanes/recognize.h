/*
 * lanes/recognize.h - structure recognition: which regular topology a bare
 * fabric is, found from its switch graph alone (no names, no GUIDs, no port
 * numbers, no generator metadata), as a subnet manager sees it.
 *
 * - Dragonfly: the group of every switch (closed neighbourhoods, Maglione-
 *   Mathey et al., "Leveraging InfiniBand controller to configure deadlock-
 *   free routing engines for Dragonflies", JPDC 2021, Sec. 4; link
 *   equivalence, Sec. 2.2 of "Early evaluation of direct large-scale
 *   InfiniBand networks with adaptive routing").
 * - HyperX / Flattened Butterfly (hypercubes included): the coordinate of
 *   every switch in every dimension (link equivalence and union-find, same
 *   paper, Sec. 2.1).
 * - Slim Fly (MMS graphs): the (t, x, y) coordinate of every switch.
 * - Slim Fly x FlatFly products (SF x FF, same paper, Sec. 1.5): every
 *   switch's Slim Fly vertex and its coordinates in the complete graphs.
 *
 * Recognition tolerates missing switches and cables: what is found is what
 * the surviving graph shows (a dragonfly group with a missing switch is a
 * smaller group). Engines that need the complete structure check it
 * themselves and name what is missing. docs/recognize.md gives the methods,
 * the decisions and the fault tolerance measured.
 *
 * Numbering is deterministic: dragonfly groups by their lowest switch index;
 * HyperX dimensions by their lowest link (lower switch index, then higher),
 * and the values of a dimension by their lowest switch index.
 */
#ifndef LANES_RECOGNIZE_H
#define LANES_RECOGNIZE_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The kinds of structure lanes recognises. */
enum lanes_structure_kind {
	LANES_STRUCTURE_NONE = 0,  /**< none recognised */
	LANES_STRUCTURE_DRAGONFLY, /**< groups */
	LANES_STRUCTURE_HYPERX,    /**< coordinates, one per dimension */
	LANES_STRUCTURE_SLIMFLY,   /**< coordinates (t, x, y) of an MMS graph */
	LANES_STRUCTURE_TORUS,     /**< coordinates of a torus or mesh, wraparound per dimension */
	LANES_STRUCTURE_SFXFF,     /**< Slim Fly x complete graphs: dimension 0 the Slim Fly */
};

/** Most dimensions a recognised HyperX may have. */
#define LANES_STRUCTURE_MAX_DIMS 16

/** What was recognised. Free with lanes_structure_free(). */
struct lanes_structure {
	int kind;                 /**< enum lanes_structure_kind */
	uint32_t num_switches;    /**< of the fabric */

	/* LANES_STRUCTURE_DRAGONFLY */
	uint32_t num_groups;
	uint32_t *group;          /**< per switch index: its group, 0..num_groups-1 */

	/* LANES_STRUCTURE_HYPERX, LANES_STRUCTURE_TORUS and LANES_STRUCTURE_SLIMFLY */
	uint32_t num_dims;        /**< HyperX, torus: dimensions; Slim Fly: 3 (t, x, y) */
	uint32_t extent[LANES_STRUCTURE_MAX_DIMS]; /**< values per dimension */
	/** Torus: 1 when dimension d wraps around (a ring of extent >= 3), 0 a path (a mesh) */
	uint8_t wrap[LANES_STRUCTURE_MAX_DIMS];
	uint32_t *coord;          /**< [switch * num_dims + dim] */
	uint32_t slimfly_q;       /**< Slim Fly and SF x FF: the prime power q */

	/** Why nothing (or something partial) was recognised: a sentence per kind tried. */
	char note[1280];
};

/** Kind name: "none", "dragonfly", "hyperx", "slimfly", "torus", "sfxff". */
const char *lanes_structure_kind_name(int kind);

/**
 * Recognise f as a Slim Fly, a HyperX, a Slim Fly x FlatFly product, a
 * torus or mesh, or a dragonfly, tried in that order (a 3-ary or 4-ary torus is also a HyperX, and comes
 * back as one; lanes_recognize_torus() gives its torus view).
 * Finding nothing is not an error: s->kind is LANES_STRUCTURE_NONE and
 * s->note says why. Errors are out of memory only.
 */
int lanes_recognize(const struct lanes_fabric *f, struct lanes_structure *s,
		    struct lanes_error *err);

/**
 * Recognise one kind only. LANES_EINVAL, with the reason in err, when f is
 * not of that kind (s is then empty); LANES_ENOMEM.
 */
int lanes_recognize_dragonfly(const struct lanes_fabric *f, struct lanes_structure *s,
			      struct lanes_error *err);
int lanes_recognize_hyperx(const struct lanes_fabric *f, struct lanes_structure *s,
			   struct lanes_error *err);
int lanes_recognize_slimfly(const struct lanes_fabric *f, struct lanes_structure *s,
			    struct lanes_error *err);
/**
 * A torus or mesh: the product of cycles (wrap[d] = 1) and paths. A ring
 * of 4 is two dimensions of extent 2 (the graphs are the same). Every
 * switch and link of the full product must be there.
 */
int lanes_recognize_torus(const struct lanes_fabric *f, struct lanes_structure *s,
			  struct lanes_error *err);

/**
 * In a torus view, pair the dimensions of extent 2 (that do not wrap), in
 * order, into rings of 4: a ring of 4 is K2 x K2, so the recogniser reports
 * it as two dimensions, while ecube's rings4=1 and torus-2QoS see one ring.
 * Coordinates (a, b) of a pair become the ring position 0, 3, 1, 2 for
 * (0,0), (0,1), (1,0), (1,1).
 */
void lanes_structure_pair_rings4(struct lanes_structure *s);

/**
 * A Cartesian product of one Slim Fly (MMS graph) and complete graphs, every
 * switch and link present (src/recognize/product.c). Dimension 0 is the
 * Slim Fly: extent 2q^2, coordinate the MMS vertex t q^2 + x q + y of
 * gf.c's graph for slimfly_q = q; dimensions 1.. are the complete graphs,
 * by ascending extent.
 */
int lanes_recognize_sfxff(const struct lanes_fabric *f, struct lanes_structure *s,
			  struct lanes_error *err);

/** Free what s holds and empty it. NULL is a no-op. */
void lanes_structure_free(struct lanes_structure *s);

#ifdef __cplusplus
}
#endif
#endif
