/*
 * ibsim_write.c - writing a fabric as an ibsim "net" file (ibsim.c reads it).
 *
 * Follows the format of ibsim 0.10's parser (linux-rdma/ibsim,
 * ibsim/sim_net.c). Every node is preceded by a `switchguid=`/`caguid=` line
 * that sets its GUID, and by `vendid=`, `devid=` and `sysimgguid=` lines for
 * its vendor id, device id and system image GUID (the last only when it is
 * not the node GUID, ibsim's default). Lines stay under ibsim's 256-character
 * limit. Each port line ends with the exact width and speed as a comment
 * ("# 4xEDR"): ibsim ignores it, ibsim.c prefers it, because ibsim's speed
 * mask stops at QDR. Port GUIDs other than node GUID + port cannot be
 * expressed in the format, and two nodes may not share a GUID (ibsim names
 * nodes by GUID).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../core/util.h"
#include "formats.h"

static const char *type_word(int type)
{
	return type == LANES_NODE_SWITCH ? "Switch" : type == LANES_NODE_CA ? "Hca" : "Rt";
}

static char type_letter(int type)
{
	return type == LANES_NODE_SWITCH ? 'S' : type == LANES_NODE_CA ? 'H' : 'R';
}

/* NodeDescription is 64 bytes; quotes would end the field early. */
static void clean_desc(const char *in, char *out)
{
	size_t i = 0;

	for (; in[i] && i < 64; i++)
		out[i] = in[i] == '"' ? '\'' : (in[i] == '\n' || in[i] == '\r') ? ' ' : in[i];
	out[i] = '\0';
}

static unsigned width_mask(unsigned width)
{
	return width == 12 ? 8 : width == 8 ? 4 : width == 2 ? 16 : width == 1 ? 1 : 2;
}

static unsigned speed_mask(unsigned speed)
{
	return speed == LANES_SPEED_SDR ? 1 : speed == LANES_SPEED_DDR ? 2 : 4;
}

static void write_port(const struct lanes_fabric *f, const struct lanes_node *n, unsigned p,
		       FILE *out)
{
	const struct lanes_port *port = &f->ports[n->port_base + p];
	const struct lanes_node *peer = &f->nodes[port->peer_node];

	fprintf(out, "[%u]\t\"%c-%016llx\"[%u]\tw=%u s=%u", p, type_letter(peer->type),
		(unsigned long long)peer->guid, port->peer_port, width_mask(port->width),
		speed_mask(port->speed));
	if (n->type != LANES_NODE_SWITCH)
		fprintf(out, " lid %u lmc %u", lanes_lid_in_file(port->lid), port->lmc);
	if (port->width && port->speed)
		fprintf(out, "\t# %ux%s", port->width, lanes_speed_name(port->speed));
	fputc('\n', out);
}

/*
 * The lines ibsim applies to the node that follows: vendid= and sysimgguid=
 * to that node only (sysimgguid only when it is not the node GUID, ibsim's
 * default), devid= to every later node too, so it is written whenever it
 * differs from what the previous node left (*devid).
 */
static void write_attributes(const struct lanes_node *n, uint32_t *devid, FILE *out)
{
	if (n->vendor_id)
		fprintf(out, "vendid=0x%x\n", n->vendor_id);
	if (n->device_id != *devid)
		fprintf(out, "devid=0x%x\n", n->device_id);
	*devid = n->device_id;
	if (n->sysimage_guid && n->sysimage_guid != n->guid)
		fprintf(out, "sysimgguid=0x%016llx\n", (unsigned long long)n->sysimage_guid);
}

static void write_node(const struct lanes_fabric *f, const struct lanes_node *n, uint32_t *devid,
		       FILE *out)
{
	char desc[65];
	const char *guidkey = n->type == LANES_NODE_SWITCH ? "switchguid"
			      : n->type == LANES_NODE_CA   ? "caguid"
							   : "rtguid";

	clean_desc(n->desc, desc);
	write_attributes(n, devid, out);
	fprintf(out, "%s=0x%016llx\n%s\t%u \"%c-%016llx\"\t# \"%s\"", guidkey,
		(unsigned long long)n->guid, type_word(n->type), n->nports, type_letter(n->type),
		(unsigned long long)n->guid, desc);
	if (n->type == LANES_NODE_SWITCH)
		fprintf(out, " enhanced port 0 lid %u lmc %u", lanes_lid_in_file(f->ports[n->port_base].lid),
			f->ports[n->port_base].lmc);
	fputc('\n', out);
	for (unsigned p = 1; p <= n->nports; p++) {
		const struct lanes_port *port = &f->ports[n->port_base + p];

		if (port->peer_node != LANES_NONE)
			write_port(f, n, p, out);
	}
	fputc('\n', out);
}

/* ibsim names nodes by GUID and refuses duplicates: so must we. */
static int check_unique_guids(const struct lanes_fabric *f, struct lanes_error *err)
{
	uint64_t *g = malloc(sizeof(*g) * ((size_t)f->num_nodes + 1));
	int rc = 0;

	if (!g)
		return lanes_error_oom(err);
	for (uint32_t i = 0; i < f->num_nodes; i++)
		g[i] = f->nodes[i].guid;
	qsort(g, f->num_nodes, sizeof(*g), lanes_cmp_u64);
	for (uint32_t i = 1; i < f->num_nodes && !rc; i++)
		if (g[i] == g[i - 1])
			rc = lanes_error_set(err, LANES_EINVAL,
					     "node GUID 0x%016llx is used twice; ibsim needs unique GUIDs",
					     (unsigned long long)g[i]);
	free(g);
	return rc;
}

int lanes_ibsim_write(const struct lanes_fabric *f, FILE *out, struct lanes_error *err)
{
	int rc = check_unique_guids(f, err);

	if (rc)
		return rc;
	fprintf(out, "# ibsim net file written by lanes: %u switches, %u CAs, %u routers\n"
		     "# run it with: ibsim -s -n FILE\n\n",
		f->num_switches, f->num_cas, f->num_routers);
	for (uint32_t i = 0, devid = 0; i < f->num_nodes; i++)
		write_node(f, &f->nodes[i], &devid, out);
	if (ferror(out))
		return lanes_error_set(err, LANES_EIO, "write error");
	return 0;
}
