/*
 * ibnetdiscover_build.c - steps 2 and 3 of the ibnetdiscover reader
 * (ibnetdiscover.c parses the lines): records for peers that only port lines
 * name, the GUID check, the per-port slot table where contradictory cabling
 * is caught with both line numbers, and the hand-over to the builder.
 *
 * Follows ibnetdiscover(8)'s "TOPOLOGY FILE FORMAT": a port line may name a
 * node whose record comes later or never; such a peer gets a record from the
 * port lines that name it (docs/formats-ibnetdiscover.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fabric/builder_internal.h"
#include "ibnetdiscover_internal.h"
#include "core/util.h"

/* Step 2: a record for every peer id that has none, from the port lines. */
int lanes_ibnd_add_peers(struct reader *r)
{
	for (size_t i = 0; i < r->npl; i++) {
		struct pline *pl = &r->pl[i];
		uint32_t idx = lanes_strmap_get(&r->ids, pl->rid.s, pl->rid.len);
		struct rec *n;

		r->line = pl->line;
		if (idx != LANES_NONE) {
			n = &r->recs[idx];
			if (n->implicit && pl->rport > n->nports)
				n->nports = pl->rport;
			if (n->implicit && !n->desc.len)
				n->desc = pl->rdesc;
			continue;
		}
		if (!lanes_ibnd_id_type(pl->rid))
			return PERR(r, "peer \"%.*s\" has no record and its id does not say S-, H- or R-",
				    SHOW(pl->rid));
		if (lanes_ibnd_grow_recs(r))
			return LANES_ENOMEM;
		n = &r->recs[r->nrecs];
		*n = (struct rec){ .id = pl->rid, .desc = pl->rdesc, .guid = lanes_ibnd_id_guid(pl->rid),
				   .line = pl->line, .type = (uint8_t)lanes_ibnd_id_type(pl->rid),
				   .nports = pl->rport, .implicit = 1 };
		if (lanes_strmap_put(&r->ids, pl->rid.s, pl->rid.len, (uint32_t)r->nrecs++))
			return lanes_error_oom(r->err);
		lanes_builder_warn(r->b, "%s:%lu: peer \"%.*s\" has no record of its own; it is made "
				   "from the port lines that name it", r->file, pl->line, SHOW(pl->rid));
	}
	return 0;
}

/*
 * No two nodes may share a GUID: the file names nodes by it, and a switch
 * and a CA with one GUID are one node to the SM (a CA given a switch's GUID
 * is routed as neither).
 */
int lanes_ibnd_check_guids(struct reader *r)
{
	struct lanes_strmap seen;
	char key[20];
	int rc = 0;

	lanes_strmap_init(&seen);
	for (size_t i = 0; i < r->nrecs && !rc; i++) {
		struct rec *n = &r->recs[i];
		uint32_t other;

		if (!n->guid)
			continue;
		snprintf(key, sizeof(key), "%016" PRIx64, n->guid);
		r->line = n->line;
		if ((other = lanes_strmap_get(&seen, key, strlen(key))) != LANES_NONE)
			rc = PERR(r, "\"%.*s\" has the GUID 0x%016" PRIx64 " of \"%.*s\" (line %lu)",
				  SHOW(n->id), n->guid, SHOW(r->recs[other].id), r->recs[other].line);
		else if (lanes_strmap_put(&seen, key, strlen(key), (uint32_t)i))
			rc = lanes_error_oom(r->err);
	}
	lanes_strmap_clear(&seen);
	return rc;
}

static struct slot *slot_of(struct reader *r, uint32_t rec, unsigned port)
{
	return &r->slots[r->recs[rec].slot_base + port];
}

/* Cable one end (rec, port) to (peer, peer_port), unless it has another peer. */
static int set_end(struct reader *r, uint32_t rec, uint8_t port, uint32_t peer, uint8_t peer_port)
{
	struct slot *s = slot_of(r, rec, port);

	if (s->peer == LANES_NONE) {
		s->peer = peer;
		s->peer_port = peer_port;
		s->line = r->line;
		return 0;
	}
	if (s->peer == peer && s->peer_port == peer_port)
		return 0;
	return PERR(r, "port %u of \"%.*s\" is cabled to port %u of \"%.*s\" on line %lu, "
		    "not to port %u of \"%.*s\"", port, SHOW(r->recs[rec].id), s->peer_port,
		    SHOW(r->recs[s->peer].id), s->line, peer_port, SHOW(r->recs[peer].id));
}

/*
 * A cable's two lines must give one width and speed; the first is kept and
 * the other named in a warning (nothing taken silently).
 */
static void same_rate(struct reader *r, const struct slot *s, const struct pline *pl)
{
	if (!s->width || !pl->width || (s->width == pl->width && s->speed == pl->speed))
		return;
	lanes_builder_warn(r->b, "%s:%lu: the cable of port %u of \"%.*s\" runs %ux%s here and "
			   "%ux%s on line %lu; %ux%s kept", r->file, pl->line, pl->port,
			   SHOW(r->recs[pl->rec].id), pl->width, lanes_speed_name(pl->speed),
			   s->width, lanes_speed_name(s->speed), s->line, s->width,
			   lanes_speed_name(s->speed));
}

static void fill_unknown(struct slot *s, const struct pline *pl)
{
	if (!s->width)
		s->width = pl->width;
	if (!s->speed)
		s->speed = pl->speed;
}

/* Port facts from one line: own GUID and LID first, the peer's as a fallback. */
static void port_facts(struct reader *r, const struct pline *pl, uint32_t peer)
{
	struct rec *pn = &r->recs[peer];
	struct slot *own = slot_of(r, pl->rec, pl->port);
	struct slot *far = slot_of(r, peer, pl->rport);
	struct slot *far_lid = pn->type == LANES_NODE_SWITCH ? slot_of(r, peer, 0) : far;

	same_rate(r, own, pl);
	fill_unknown(own, pl);
	fill_unknown(far, pl);
	if (pl->guid && r->recs[pl->rec].type != LANES_NODE_SWITCH) {
		own->guid = pl->guid;
		own->guid_own = 1;
		own->guid_line = pl->line;
	}
	if (pl->has_lid) {
		own->lid = pl->lid;
		own->lmc = pl->lmc;
		own->lid_set = 1;
		own->lid_line = pl->line;
	}
	if (pl->rguid && pn->type != LANES_NODE_SWITCH && !far->guid_own && !far->guid) {
		far->guid = pl->rguid;
		far->guid_line = pl->line;
	}
	if (pn->implicit && pl->rlid && !far_lid->lid_set) {
		far_lid->lid = pl->rlid;
		far_lid->lid_set = 1;
		far_lid->lid_line = pl->line;
	}
}

/*
 * No two CA or router ports may share a port GUID: SA path queries and the
 * dumps name ports by it, so the second would be written twice and reached
 * never. (A switch's ports all carry the switch's port-0 GUID.)
 */
/* The GUID a CA or router port ends up with: its own, or the builder's node GUID + port. */
static uint64_t port_guid(struct reader *r, uint32_t rec, unsigned port)
{
	uint64_t own = slot_of(r, rec, port)->guid;

	return own ? own : r->recs[rec].guid ? r->recs[rec].guid + port : 0;
}

/* Where port p of rec got its GUID: the line that gave it, else its node's line. */
static unsigned long guid_line(struct reader *r, uint32_t rec, unsigned port)
{
	const struct slot *s = slot_of(r, rec, port);

	return s->guid && s->guid_line ? s->guid_line : r->recs[rec].line;
}

static int dup_port_guid(struct reader *r, uint32_t i, unsigned p, uint32_t other, unsigned q)
{
	uint64_t guid = port_guid(r, i, p);
	int derived = !slot_of(r, i, p)->guid || !slot_of(r, other, q)->guid;

	r->line = guid_line(r, i, p);
	return PERR(r, "port %u of \"%.*s\" has the port GUID 0x%016" PRIx64 " of port %u of "
		    "\"%.*s\" (line %lu)%s", p, SHOW(r->recs[i].id), guid, q,
		    SHOW(r->recs[other].id), guid_line(r, other, q),
		    derived ? " (a port without a GUID of its own gets node GUID + port)" : "");
}

int lanes_ibnd_check_port_guids(struct reader *r)
{
	struct lanes_strmap seen;
	int rc = 0;

	lanes_strmap_init(&seen);
	for (uint32_t i = 0; i < r->nrecs && !rc; i++) {
		if (r->recs[i].type == LANES_NODE_SWITCH)
			continue;
		for (unsigned p = 1; p <= r->recs[i].nports && !rc; p++) {
			struct slot *s = slot_of(r, i, p);
			uint64_t guid = port_guid(r, i, p);
			uint32_t other;

			if (!guid || (!s->guid && s->peer == LANES_NONE)) /* uncabled, no GUID: unused */
				continue;
			if ((other = lanes_strmap_get(&seen, (const char *)&guid, 8)) == LANES_NONE) {
				if (lanes_strmap_put(&seen, (const char *)&guid, 8, i))
					rc = lanes_error_oom(r->err);
				continue;
			}
			unsigned q = 1; /* the other node's port with this GUID (not p itself) */

			while (port_guid(r, other, q) != guid || (other == i && q == p) ||
			       (!slot_of(r, other, q)->guid && slot_of(r, other, q)->peer == LANES_NONE))
				q++;
			rc = dup_port_guid(r, i, p, other, q);
		}
	}
	lanes_strmap_clear(&seen);
	return rc;
}

/* Step 3: the slot table. */
int lanes_ibnd_gather(struct reader *r)
{
	size_t total = 0;
	int rc;

	for (size_t i = 0; i < r->nrecs; i++) {
		r->recs[i].slot_base = (uint32_t)total;
		total += (size_t)r->recs[i].nports + 1;
	}
	if (!(r->slots = calloc(total, sizeof(*r->slots))))
		return lanes_error_oom(r->err);
	for (size_t i = 0; i < total; i++)
		r->slots[i].peer = LANES_NONE;
	for (size_t i = 0; i < r->nrecs; i++) {
		slot_of(r, (uint32_t)i, 0)->lid = r->recs[i].lid;
		slot_of(r, (uint32_t)i, 0)->lmc = r->recs[i].lmc;
		slot_of(r, (uint32_t)i, 0)->guid = r->recs[i].port0_guid;
		slot_of(r, (uint32_t)i, 0)->lid_set = !r->recs[i].implicit;
		slot_of(r, (uint32_t)i, 0)->lid_line = r->recs[i].line;
		slot_of(r, (uint32_t)i, 0)->guid_line = r->recs[i].port0_line;
	}
	for (size_t i = 0; i < r->npl; i++) {
		const struct pline *pl = &r->pl[i];
		uint32_t peer = lanes_strmap_get(&r->ids, pl->rid.s, pl->rid.len);

		r->line = pl->line;
		if (pl->rport > r->recs[peer].nports)
			return PERR(r, "port %u of \"%.*s\" is beyond the %u ports declared on line %lu",
				    pl->rport, SHOW(pl->rid), r->recs[peer].nports, r->recs[peer].line);
		if (peer == pl->rec && pl->rport == pl->port)
			return PERR(r, "port %u is cabled to itself", pl->port);
		if ((rc = set_end(r, pl->rec, pl->port, peer, pl->rport)) ||
		    (rc = set_end(r, peer, pl->rport, pl->rec, pl->port)))
			return rc;
		port_facts(r, pl, peer);
	}
	return 0;
}

/* A port line's (rguid) of a CA or router peer must be the peer port's GUID. */
static int same_peer_guid(struct reader *r, const struct pline *pl, uint32_t peer)
{
	const struct slot *far = slot_of(r, peer, pl->rport);

	if (!pl->rguid || r->recs[peer].type == LANES_NODE_SWITCH || far->guid == pl->rguid)
		return 0;
	r->line = pl->line;
	return PERR(r, "port %u of \"%.*s\" has the port GUID 0x%016" PRIx64 " here and "
		    "0x%016" PRIx64 " on line %lu", pl->rport, SHOW(pl->rid), pl->rguid, far->guid,
		    far->guid_line);
}

/* A port line's "lid R" of its peer must be the LID the peer's own line gives. */
static int same_peer_lid(struct reader *r, const struct pline *pl, uint32_t peer)
{
	int sw = r->recs[peer].type == LANES_NODE_SWITCH;
	const struct slot *far = slot_of(r, peer, sw ? 0 : pl->rport);

	if (!pl->rlid || !far->lid_set || !far->lid || far->lid == pl->rlid)
		return 0;
	r->line = pl->line;
	if (sw)
		return PERR(r, "switch \"%.*s\" has LID %u here and LID %u on line %lu",
			    SHOW(pl->rid), pl->rlid, far->lid, far->lid_line);
	return PERR(r, "port %u of \"%.*s\" has LID %u here and LID %u on line %lu", pl->rport,
		    SHOW(pl->rid), pl->rlid, far->lid, far->lid_line);
}

int lanes_ibnd_check_sightings(struct reader *r)
{
	int rc = 0;

	for (size_t i = 0; i < r->npl && !rc; i++) {
		uint32_t peer = lanes_strmap_get(&r->ids, r->pl[i].rid.s, r->pl[i].rid.len);

		if (!(rc = same_peer_guid(r, &r->pl[i], peer)))
			rc = same_peer_lid(r, &r->pl[i], peer);
	}
	return rc;
}

static int add_node(struct reader *r, const struct rec *n)
{
	struct lanes_node_spec spec = { n->type, n->nports, n->guid, n->sysimg,
					n->vendid, n->devid, NULL };
	char *desc = lanes_strndup(n->desc.s ? n->desc.s : "", n->desc.len);
	int rc;

	if (!desc)
		return lanes_error_oom(r->err);
	spec.desc = desc;
	rc = lanes_builder_add_node(r->b, &spec, NULL, r->err);
	free(desc);
	return rc;
}

/* Where a port's LID was given, for the builder's LID warnings. */
static int note_lid_line(struct reader *r, uint32_t node, unsigned port, unsigned long line)
{
	if (lanes_builder_lid_line(r->b, r->file, node, (uint8_t)port, line))
		return lanes_error_oom(r->err);
	return 0;
}

/* Nodes in file order, then their ports, then each cable once. */
int lanes_ibnd_build(struct reader *r)
{
	int rc = 0;

	for (size_t i = 0; i < r->nrecs && !rc; i++)
		rc = add_node(r, &r->recs[i]);
	for (uint32_t i = 0; i < r->nrecs && !rc; i++)
		for (unsigned p = 0; p <= r->recs[i].nports && !rc; p++) {
			struct slot *s = slot_of(r, i, p);

			if (s->guid || s->lid)
				rc = lanes_builder_set_port(r->b, i, (uint8_t)p, s->guid, s->lid, s->lmc,
							    r->err);
			if (!rc && s->lid)
				rc = note_lid_line(r, i, p, s->lid_line);
			if (!rc && p && s->peer != LANES_NONE &&
			    (s->peer > i || (s->peer == i && s->peer_port > p)))
				rc = lanes_builder_connect(r->b, i, (uint8_t)p, s->peer, s->peer_port,
							   s->width, s->speed, r->err);
		}
	return rc;
}
