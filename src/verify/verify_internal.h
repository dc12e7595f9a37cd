/*
 * verify_internal.h - the verifier's working state, shared by its files:
 *   verify.c   setup, the per-destination loop, results
 *   walk.c     following one LFT column: reachability, hops, leaves-first order
 *   flow.c     one destination's routes: counts per channel, VLs, CDG edges
 *   cdg.c      the channel dependency graph: edge bits, cycle search, witness
 *   metrics.c  routes per channel, hottest channels
 *   ebb.c      effective bisection bandwidth
 * Nothing here includes src/route/: the verifier rebuilds everything from
 * the fabric and the routing tables.
 */
#ifndef LANES_VERIFY_INTERNAL_H
#define LANES_VERIFY_INTERNAL_H

#include "lanes/progress.h"
#include "lanes/verify.h"

/* A CA (or router) port cabled to a switch: a source and maybe a destination. */
struct vca {
	uint32_t node;
	uint32_t lid;     /* base LID */
	uint8_t port;     /* the CA's port */
	uint8_t sw_port;  /* the switch port it is cabled to */
};

/* port_next codes for ports that do not lead to another switch. */
#define NEXT_NO_CABLE 0xFFFFFFFFu
#define NEXT_NOT_SWITCH 0xFFFFFFFEu
#define NEXT_SELF 0xFFFFFFFDu

/* Walk states of a switch for the current destination. */
enum { WALK_UNKNOWN = 0, WALK_BUSY, WALK_OK, WALK_LOOP, WALK_DROP };

/* u64 -> u32 open-addressing map: CDG edge bit -> first destination creating it. */
/* A dependency of a cycle's witness and the first destination whose routes make it. */
struct verify_wanted {
	uint64_t bit;  /* the dependency's CDG bit */
	uint32_t dst;  /* the lowest destination LID that adds it, or LANES_NONE */
};

struct vctx {
	const struct lanes_fabric *f;
	const struct lanes_routing *r;
	const struct lanes_verify_opts *o;
	struct lanes_verify_result *res;
	uint32_t S, E;          /* switches, CSR entries */
	uint8_t V;              /* VLs in the CDG: 1 + the highest VL of any map */
	int has_maps;           /* the routing has SL2VL maps */

	/* fabric tables */
	uint32_t *ent_sw;       /* CSR entry -> owning switch */
	uint32_t *rev;          /* CSR entry s->t -> position of t->s in t's list */
	uint32_t *port_ent;     /* port slot of a switch port -> CSR entry, or LANES_NONE */
	uint32_t *port_next;    /* port slot of a switch port -> next switch, or a NEXT_* code */
	uint32_t *sw_lid, *sw_base; /* per switch: its LID, its port-0 slot */
	uint8_t *sw_nports;
	uint32_t total_sources; /* switches + CA ports with a LID */
	uint32_t *ca_off;       /* per switch: its CA ports in cas[] */
	struct vca *cas;
	uint8_t *dist;          /* switch distance matrix */

	/* CDG */
	uint64_t *bits;
	uint64_t *bit_off;      /* per switch, in bits */
	/* the first-destination pass only (lanes_verify_first_dsts): the bits it
	 * looks for, sorted, and how many of them are still without a destination */
	struct verify_wanted *wanted;
	uint32_t num_wanted, wanted_left;

	/* per destination scratch */
	uint8_t *state;
	uint32_t *hops, *nxt, *outent, *order, *fail_at, *bucket;
	uint32_t *seq;          /* OK switches in the order the walk found them (root first) */
	uint8_t *fail_port;
	uint32_t num_order;
	uint64_t *sub;          /* routes (CA sources) through a switch */
	uint64_t *sub_sl;
	uint16_t *vlmask;       /* VLs on a switch's out-link for the current SL */
	uint8_t *active;
	uint16_t *own_sls;
	uint16_t *inj_mask;     /* per switch port slot and SL: VLs its CA in-ports give */
	uint16_t *ca_inj;       /* per switch and SL: VLs its CAs inject with */

	/* destination being processed */
	uint32_t d, os, dport, dnode;
	uint32_t num_failed;    /* switches that do not reach d */
	uint8_t dport_dst;      /* the destination's own port on its node */

	/* accumulators */
	uint64_t *routes;       /* per CSR entry */
	uint64_t hop_sum;
	uint64_t *stretch_hist; /* [routed hops (<= 255) * 256 + shortest hops]: pairs */
};

/* Stretch histogram side: hops are clamped to this. */
#define STRETCH_SIDE 256

/* walk.c */
int lanes_verify_walk(struct vctx *c, uint32_t d);
void lanes_verify_count_failures(struct vctx *c);
void lanes_verify_order(struct vctx *c);

/* flow.c */
void lanes_verify_flow(struct vctx *c);

/* cdg.c */
int lanes_verify_cdg_alloc(struct vctx *c, struct lanes_error *err);
void lanes_verify_cdg_add(struct vctx *c, uint32_t s, uint32_t j, uint8_t vin, uint32_t k, uint8_t vout);
int lanes_verify_cdg_cycle(struct vctx *c, struct lanes_error *err);
uint64_t lanes_verify_cdg_count(const struct vctx *c);

/* metrics.c */
void lanes_verify_channel_metrics(struct vctx *c);

/* verify.c: how many threads for `work` independent items */
uint32_t lanes_verify_threads(const struct lanes_verify_opts *o, uint32_t work);

/*
 * verify.c: for each of the n dependencies of want (sorted by bit), the
 * first destination in LID order whose routes add it, by a second pass over
 * the destinations on a scratch context of c that stops when every one is
 * found. Only a cycle's witness needs it, so the verdict's pass keeps no
 * record of which destination made which dependency.
 */
int lanes_verify_first_dsts(const struct vctx *c, struct verify_wanted *want, uint32_t n,
			    struct lanes_error *err);

/* ebb.c */
int lanes_verify_ebb(struct vctx *c, struct lanes_error *err);

/* helpers shared by the files */
uint8_t lanes_verify_sl(const struct vctx *c, uint32_t src_sw, uint32_t src_lid, uint32_t dst);
uint8_t lanes_verify_vl(const struct vctx *c, uint32_t sw, uint8_t in, uint8_t out, uint8_t sl);
void lanes_verify_note_vl(struct vctx *c, uint8_t vl);

#endif
