/*
 * ibnetdiscover_internal.h - what the ibnetdiscover reader's line parser
 * (ibnetdiscover.c) shares with its assembly steps (ibnetdiscover_build.c).
 */
#ifndef LANES_IO_IBNETDISCOVER_INTERNAL_H
#define LANES_IO_IBNETDISCOVER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/util.h"
#include "formats.h"

struct span {
	const char *s;
	size_t len;
};

/* A node: from a Switch/Ca/Rt record, or a peer that only port lines name. */
struct rec {
	struct span id, desc;
	uint64_t guid, sysimg, port0_guid;
	uint32_t vendid, devid;
	unsigned long line;  /* node line, or the first port line naming a peer */
	unsigned long port0_line; /* the switchguid= line that gave port0_guid */
	uint32_t slot_base;  /* slots[slot_base + port] */
	uint16_t lid;        /* a switch's port-0 LID */
	uint8_t lmc, type, nports, implicit;
};

/* One port line: [port](guid) "rid"[rport](rguid) # lid L lmc M "rdesc" lid R WxS */
struct pline {
	struct span rid, rdesc;
	uint64_t guid, rguid;
	unsigned long line;
	uint32_t rec;
	uint16_t lid, rlid;
	uint8_t lmc, port, rport, width, speed, has_lid;
};

/* What all lines together say about one (node, port). */
struct slot {
	uint64_t guid;
	unsigned long line; /* where the peer was first given */
	unsigned long guid_line, lid_line; /* where the GUID and the LID were given */
	uint32_t peer;
	uint16_t lid;
	uint8_t lmc, peer_port, width, speed, guid_own, lid_set;
};

/* The vendid=/devid=/...guid= lines before a node line. */
struct header {
	uint64_t guid, sysimg, port0;
	uint32_t vendid, devid;
	unsigned long line; /* of the switchguid=, caguid= or rtguid= line */
	const char *key;    /* which of the three it was */
};

struct reader {
	struct lanes_builder *b;
	struct lanes_error *err;
	const char *file;
	unsigned long line;
	struct rec *recs;
	size_t nrecs, cap_recs;
	struct pline *pl;
	size_t npl, cap_pl;
	struct slot *slots;
	struct lanes_strmap ids;
	struct header hdr;
	uint32_t cur; /* the record port lines belong to, or LANES_NONE */
	int started;  /* a record line was seen: junk is no longer skipped */
};

#define PERR(r, ...) lanes_error_parse((r)->err, (r)->file, (r)->line, __VA_ARGS__)
#define SHOW(sp) (int)((sp).len > 80 ? 80 : (sp).len), (sp).s

/* The type an id's prefix names (S-, H-, R-), else 0; the GUID in "X-<hex>", else 0. */
int lanes_ibnd_id_type(struct span id);
uint64_t lanes_ibnd_id_guid(struct span id);
int lanes_ibnd_check_port_guids(struct reader *r);
/* Room for one more (zeroed) record at r->recs[r->nrecs]. */
int lanes_ibnd_grow_recs(struct reader *r);

/* Step 2: a record for every peer id that has none, built from the port lines. */
int lanes_ibnd_add_peers(struct reader *r);
/* No two nodes may share a GUID. */
int lanes_ibnd_check_guids(struct reader *r);
/* Step 3: per-port facts in the slot table; contradictory cabling is refused. */
int lanes_ibnd_gather(struct reader *r);
/* The port lines' words on their peers (port GUID, LID) agree with the peers' own. */
int lanes_ibnd_check_sightings(struct reader *r);
/* Nodes in file order, then their ports, then each cable once. */
int lanes_ibnd_build(struct reader *r);

#endif
