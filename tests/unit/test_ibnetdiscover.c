/*
 * test_ibnetdiscover.c - the ibnetdiscover reader and writer.
 *
 * Every real file in LANES_DATA_DIR loads with the counts that its README
 * gives (links = switch-switch + switch-CA cables, self-loops apart), facts
 * read off the file text hold (a LID, a cable, a description with '#', the
 * parallel-cable counts computed from the file with awk), the corrupted-LID
 * file is repaired with one warning per bad LID, every file and a built
 * fabric survive read -> write -> read unchanged, the ibdiagnet and chassis
 * dialects in tests/data load, and malformed inputs fail with the right line.
 */
#include "testutil.h"

#include <inttypes.h>

static const struct lanes_format *fmt(void)
{
	const struct lanes_format *f = lanes_format_find("ibnetdiscover");

	assert_non_null(f);
	return f;
}

static int read_str(const char *text, struct lanes_fabric **f, struct lanes_error *err)
{
	memset(err, 0, sizeof(*err));
	return fmt()->read(text, strlen(text), "mem.txt", f, err);
}

static struct lanes_fabric *read_ok(const char *text)
{
	struct lanes_fabric *f = NULL;
	struct lanes_error err;
	char msg[1024];

	if (read_str(text, &f, &err))
		fail_msg("%s", lanes_error_format(&err, msg, sizeof(msg)));
	return f;
}

static struct lanes_fabric *data_file(const char *name)
{
	return read_fabric(LANES_DATA_DIR, name, "ibnetdiscover");
}

/* The node of a given type and GUID, or LANES_NONE. */
static uint32_t find_node(const struct lanes_fabric *f, int type, uint64_t guid)
{
	for (uint32_t i = 0; i < f->num_nodes; i++)
		if (f->nodes[i].guid == guid && f->nodes[i].type == type)
			return i;
	return LANES_NONE;
}

static void check_counts(const struct lanes_fabric *f, uint32_t sw, uint32_t cas, uint32_t links,
			 uint32_t self_loops)
{
	struct lanes_fabric_stats st = stats_of(f);

	assert_int_equal(f->num_switches, sw);
	assert_int_equal(f->num_cas, cas);
	assert_int_equal(st.links_switch_switch + st.links_switch_ca, links);
	assert_int_equal(st.self_loops, self_loops);
	assert_int_equal(st.links_other, 0);
}

/* Every LID-bearing port has a LID, and no two ranges overlap. */
static void check_lids_unique(const struct lanes_fabric *f)
{
	unsigned char *used = calloc(LANES_LID_UNICAST_MAX + 1, 1);

	assert_non_null(used);
	for (uint32_t i = 0; i < f->num_nodes; i++)
		for (unsigned p = 0; p <= f->nodes[i].nports; p++) {
			const struct lanes_port *port = lanes_fabric_port(f, i, (uint8_t)p);
			int bears = f->nodes[i].type == LANES_NODE_SWITCH
					    ? p == 0 : p > 0 && port->peer_node != LANES_NONE;

			if (!bears)
				continue;
			assert_true(port->lid >= 1);
			for (unsigned k = 0; k < (1u << port->lmc); k++) {
				assert_true(port->lid + k <= LANES_LID_UNICAST_MAX);
				assert_false(used[port->lid + k]);
				used[port->lid + k] = 1;
			}
		}
	free(used);
}

/* ---- round trips ---- */

static char *write_mem(const struct lanes_fabric *f, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	struct lanes_error err;

	assert_non_null(fp);
	if (fmt()->write(f, fp, &err))
		fail_msg("write: %s", err.message);
	fclose(fp);
	return buf;
}

static void same_port(const struct lanes_fabric *a, const struct lanes_fabric *b, uint32_t i,
		      uint32_t j, unsigned p, const uint32_t *map)
{
	const struct lanes_port *x = lanes_fabric_port(a, i, (uint8_t)p);
	const struct lanes_port *y = lanes_fabric_port(b, j, (uint8_t)p);

	assert_true(x->guid == y->guid);
	assert_int_equal(x->lid, y->lid);
	assert_int_equal(x->lmc, y->lmc);
	assert_int_equal(x->width, y->width);
	assert_int_equal(x->speed, y->speed);
	assert_int_equal(x->peer_node == LANES_NONE, y->peer_node == LANES_NONE);
	if (x->peer_node != LANES_NONE) {
		assert_int_equal(map[x->peer_node], y->peer_node);
		assert_int_equal(x->peer_port, y->peer_port);
	}
}

/* a and b hold the same nodes (matched by type and GUID, in the same order
 * within each type), ports, LIDs and cables. */
static void assert_same_fabric(const struct lanes_fabric *a, const struct lanes_fabric *b)
{
	uint32_t *map = malloc(sizeof(*map) * (a->num_nodes + 1));
	uint32_t last[4] = { 0, 0, 0, 0 };

	assert_non_null(map);
	assert_int_equal(a->num_nodes, b->num_nodes);
	assert_int_equal(a->num_links, b->num_links);
	assert_int_equal(a->num_self_loops, b->num_self_loops);
	for (uint32_t i = 0; i < a->num_nodes; i++) {
		const struct lanes_node *x = &a->nodes[i], *y;

		map[i] = find_node(b, x->type, x->guid);
		assert_int_not_equal(map[i], LANES_NONE);
		assert_true(map[i] + 1 > last[x->type]); /* order within a type is kept */
		last[x->type] = map[i] + 1;
		y = &b->nodes[map[i]];
		assert_string_equal(x->desc, y->desc);
		assert_int_equal(x->nports, y->nports);
		assert_true(x->sysimage_guid == y->sysimage_guid);
		assert_int_equal(x->vendor_id, y->vendor_id);
		assert_int_equal(x->device_id, y->device_id);
	}
	for (uint32_t i = 0; i < a->num_nodes; i++)
		for (unsigned p = 0; p <= a->nodes[i].nports; p++)
			same_port(a, b, i, map[i], p, map);
	free(map);
}

static void round_trip(const struct lanes_fabric *f)
{
	size_t len;
	char *text = write_mem(f, &len);
	struct lanes_fabric *g = NULL;
	struct lanes_error err;
	char msg[1024];

	if (fmt()->read(text, len, "written.txt", &g, &err))
		fail_msg("%s", lanes_error_format(&err, msg, sizeof(msg)));
	assert_same_fabric(f, g);
	assert_int_equal(g->num_warnings, 0);
	free(text);
	lanes_fabric_free(g);
}

/* ---- the real files ---- */

static int has_warning(const struct lanes_fabric *f, const char *text)
{
	for (uint32_t i = 0; i < f->num_warnings; i++)
		if (strstr(f->warnings[i], text))
			return 1;
	return 0;
}

/*
 * Three of the real files end without a final newline (saved by a Windows
 * editor: CRLF lines, the last one unended). Their last line is a whole
 * port line, ending in its width and speed ("4xEDR"), so they load without
 * the "may be cut" warning a file cut inside that line gets.
 */
static void assert_whole_without_newline(const struct lanes_fabric *f)
{
	assert_int_equal(f->num_warnings, 0);
}

static const char *const data_files[] = {
	"dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt",
	"anon_4sw_edr_ibnetdiscover.txt",
	"anon_4sw_edr_INVALID_lids_ibnetdiscover.txt",
	"ut_stage_sx6036_fdr10_ibnetdiscover.txt",
	"psmn_x5_qdr_ibnetdiscover.txt",
	"nvidia_lab_2sw_mixed_ibnetdiscover.txt",
	"gen_4ary3tree_k-4-n-3-Full_ibnetdiscover.topo",
};

/* DGX SuperPOD: BOM + shell prompt first; 557 parallel cables (awk over the
 * port lines); "lf07" has LID 72 and its ports 29 and 39 go to sp69 ports 1, 2. */
static void test_dgx(void **state)
{
	struct lanes_fabric *f = data_file(data_files[0]);
	uint32_t sp69 = find_node(f, LANES_NODE_SWITCH, 0x043f720300ce5712ULL);
	uint32_t lf07 = find_node(f, LANES_NODE_SWITCH, 0x043f720300ce5672ULL);

	(void)state;
	check_counts(f, 206, 1336, 3572, 0);
	assert_int_equal(stats_of(f).parallel_links, 557);
	assert_whole_without_newline(f);
	assert_int_not_equal(sp69, LANES_NONE);
	assert_int_equal(sp69, 0); /* file order is node order */
	assert_string_equal(f->nodes[sp69].desc, "sp69.cn.a0807.qm8790.krskp");
	assert_int_equal(f->nodes[sp69].nports, 41);
	assert_int_equal(lanes_fabric_lid(f, sp69, 0), 15);
	assert_int_equal(lanes_fabric_lid(f, lf07, 0), 72);
	assert_int_equal(lanes_fabric_port(f, sp69, 1)->peer_node, lf07);
	assert_int_equal(lanes_fabric_port(f, sp69, 1)->peer_port, 29);
	assert_int_equal(lanes_fabric_port(f, sp69, 2)->peer_port, 39);
	assert_int_equal(lanes_fabric_port(f, sp69, 1)->width, 4);
	assert_int_equal(lanes_fabric_port(f, sp69, 1)->speed, LANES_SPEED_HDR);
	lanes_fabric_free(f);
}

/* anon 4sw: "l-csi-r750-05 HCA-1" (H-0c42a103006d6174) hangs off switch 4
 * port 35 with LID 1; Host3_1's port GUID and LID come from its port line. */
static void test_anon_4sw(void **state)
{
	struct lanes_fabric *f = data_file(data_files[1]);
	uint32_t sw4 = find_node(f, LANES_NODE_SWITCH, 0x4444444444444444ULL);
	uint32_t ca = find_node(f, LANES_NODE_CA, 0x0c42a103006d6174ULL);
	uint32_t h31 = find_node(f, LANES_NODE_CA, 0x0cccccccccccccc1ULL);

	(void)state;
	check_counts(f, 4, 12, 16, 0);
	assert_whole_without_newline(f);
	assert_int_equal(lanes_fabric_port(f, sw4, 35)->peer_node, ca);
	assert_int_equal(lanes_fabric_lid(f, ca, 1), 1);
	assert_int_equal(lanes_fabric_lid(f, sw4, 0), 2);
	assert_int_equal(f->nodes[sw4].nports, 37);
	assert_int_equal(f->nodes[sw4].device_id, 0xcf08);
	assert_int_equal(f->nodes[sw4].vendor_id, 0x2c9);
	assert_true(f->nodes[h31].sysimage_guid == 0xcccccccccccccc1ULL);
	assert_true(lanes_fabric_port(f, h31, 1)->guid == 0xcccccccccccccc1ULL);
	assert_int_equal(lanes_fabric_lid(f, h31, 1), 21);
	assert_int_equal(lanes_fabric_port(f, h31, 1)->speed, LANES_SPEED_EDR);
	lanes_fabric_free(f);
}

/* The corrupted file: an empty LID (line 10), 65335 (line 32), 61111 in a
 * peer comment (line 34) and -4 in a peer comment (line 45). One warning each,
 * with file:line; the switches get new LIDs, nothing else changes. Its last
 * line (140) has no newline but is whole ("4xEDR"): no warning for it. */
static void test_invalid_lids(void **state)
{
	struct lanes_fabric *f = data_file(data_files[2]);
	uint32_t sw1 = find_node(f, LANES_NODE_SWITCH, 0x1111111111111111ULL);
	uint32_t sw2 = find_node(f, LANES_NODE_SWITCH, 0x2222222222222222ULL);
	uint32_t h31 = find_node(f, LANES_NODE_CA, 0x0cccccccccccccc1ULL);

	(void)state;
	check_counts(f, 4, 12, 16, 0);
	assert_int_equal(f->num_warnings, 4);
	assert_true(has_warning(f, "anon_4sw_edr_INVALID_lids_ibnetdiscover.txt:10: switch "
				   "\"S-4444444444444444\" has no valid LID"));
	assert_true(has_warning(f, "_ibnetdiscover.txt:32: switch \"S-1111111111111111\" has no "
				   "valid LID ('65335'"));
	assert_true(has_warning(f, "_ibnetdiscover.txt:34: peer \"S-4444444444444444\" has no "
				   "valid LID ('61111'"));
	assert_true(has_warning(f, "_ibnetdiscover.txt:45: peer \"H-0cccccccccccccc1\" has no "
				   "valid LID ('-4'"));
	assert_true(has_warning(f, "('' is empty); a new one is assigned"));
	check_lids_unique(f);
	assert_int_equal(lanes_fabric_lid(f, sw2, 0), 5);
	assert_int_equal(lanes_fabric_lid(f, h31, 1), 21);
	/* the lowest free LIDs, in node order: switch 4 comes first */
	assert_int_equal(lanes_fabric_lid(f, find_node(f, LANES_NODE_SWITCH, 0x4444444444444444ULL), 0), 2);
	assert_int_equal(lanes_fabric_lid(f, sw1, 0), 4);
	lanes_fabric_free(f);
}

/* UT stage: 47 switch-switch and 145 switch-CA cables (one dual-homed CA),
 * 36 parallel ones, QDR and FDR10 mixed. */
static void test_ut_stage(void **state)
{
	struct lanes_fabric *f = data_file(data_files[3]);
	uint32_t fdr10 = 0, qdr = 0;

	(void)state;
	check_counts(f, 8, 144, 192, 0);
	assert_int_equal(stats_of(f).links_switch_switch, 47);
	assert_int_equal(stats_of(f).parallel_links, 36);
	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_port *p = lanes_fabric_port(f, f->links[l].a, f->links[l].pa);

		fdr10 += p->speed == LANES_SPEED_FDR10;
		qdr += p->speed == LANES_SPEED_QDR;
	}
	assert_true(fdr10 > 0 && qdr > 0);
	assert_int_equal(fdr10 + qdr, 192);
	lanes_fabric_free(f);
}

/* PSMN: the Voltaire switch whose description holds a '#', 46 parallel cables,
 * and a CA whose port GUID differs from its node GUID. */
static void test_psmn(void **state)
{
	struct lanes_fabric *f = data_file(data_files[4]);
	uint32_t volt = find_node(f, LANES_NODE_SWITCH, 0x0008f10500108c5cULL);
	uint32_t ca = find_node(f, LANES_NODE_CA, 0x003048c749cd0000ULL);
	uint32_t first = find_node(f, LANES_NODE_SWITCH, 0x0008f10500200b50ULL);

	(void)state;
	check_counts(f, 11, 89, 159, 0);
	assert_int_equal(stats_of(f).parallel_links, 46);
	assert_string_equal(f->nodes[volt].desc, "Voltaire 4036 # 4036-8C5C");
	assert_int_equal(lanes_fabric_lid(f, volt, 0), 16);
	assert_true(f->nodes[first].sysimage_guid == 0x8f10500200b51ULL);
	assert_true(lanes_fabric_port(f, ca, 1)->guid == 0x3048c749cd0001ULL);
	assert_int_equal(lanes_fabric_lid(f, ca, 1), 72);
	assert_int_equal(lanes_fabric_port(f, ca, 1)->speed, LANES_SPEED_DDR);
	assert_int_equal(lanes_fabric_port(f, first, 1)->peer_node, volt);
	assert_int_equal(lanes_fabric_port(f, first, 1)->peer_port, 15);
	lanes_fabric_free(f);
}

/* NVIDIA lab: self-loops 25<->26 (FDR10) and 28<->29 on the SX6036. */
static void test_nvidia_lab(void **state)
{
	struct lanes_fabric *f = data_file(data_files[5]);
	uint32_t sx = find_node(f, LANES_NODE_SWITCH, 0x0002c903007b78b0ULL);

	(void)state;
	check_counts(f, 2, 13, 14, 2);
	assert_int_equal(f->num_self_loops, 2);
	assert_int_equal(lanes_fabric_port(f, sx, 25)->peer_node, sx);
	assert_int_equal(lanes_fabric_port(f, sx, 25)->peer_port, 26);
	assert_int_equal(lanes_fabric_port(f, sx, 26)->peer_port, 25);
	assert_int_equal(lanes_fabric_port(f, sx, 25)->speed, LANES_SPEED_FDR10);
	assert_int_equal(lanes_fabric_port(f, sx, 29)->peer_port, 28);
	assert_int_equal(lanes_fabric_lid(f, sx, 0), 19);
	lanes_fabric_free(f);
}

/* The generated 4-ary 3-tree: no LIDs in the file (lid 0, no "port 0 lid"),
 * so every one is assigned, silently, in file order. */
static void test_gen_tree(void **state)
{
	struct lanes_fabric *f = data_file(data_files[6]);

	(void)state;
	check_counts(f, 80, 128, 384, 0);
	assert_int_equal(f->num_warnings, 0);
	check_lids_unique(f);
	assert_int_equal(lanes_fabric_lid(f, 0, 0), 1);
	assert_string_equal(f->nodes[0].desc, "Switch0");
	assert_true(lanes_fabric_port(f, 80, 1)->guid == 0x1000001ULL);
	lanes_fabric_free(f);
}

static void test_round_trip_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(data_files) / sizeof(data_files[0]); i++) {
		struct lanes_fabric *f = data_file(data_files[i]);

		round_trip(f);
		lanes_fabric_free(f);
	}
}

static void test_round_trip_testdata(void **state)
{
	static const char *const names[] = { "ibnd_ibdiagnet_dialect.txt",
					     "ibnd_chassis_shared_switchguid.txt" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct lanes_fabric *f = read_fabric(LANES_TESTDATA_DIR, names[i], NULL);

		round_trip(f);
		lanes_fabric_free(f);
	}
}

static uint32_t add(struct lanes_builder *b, int type, int nports, uint64_t guid, const char *desc)
{
	struct lanes_node_spec s = { (uint8_t)type, (uint8_t)nports, guid, guid ^ 1, 0x2c9, 0xd2f0,
				     desc };
	uint32_t idx;
	struct lanes_error err;

	if (lanes_builder_add_node(b, &s, &idx, &err))
		fail_msg("%s", err.message);
	return idx;
}

/* A fabric such as a generator makes, with every feature the format holds:
 * a router, a dual-port CA, LMC 2, parallel cables, a self-loop, unknown
 * width or speed, an unconnected CA, a '#' in a description. */
static struct lanes_fabric *built_fabric(void)
{
	struct lanes_builder *b;
	struct lanes_fabric *f;
	struct lanes_error err;
	uint32_t s0, s1, c0, c1, c2, r0;

	assert_int_equal(lanes_builder_new(&b, &err), 0);
	c2 = add(b, LANES_NODE_CA, 1, 0x7000, "lonely HCA-1");
	s0 = add(b, LANES_NODE_SWITCH, 36, 0x1000, "MF0;sw0:MQM8700/U1");
	s1 = add(b, LANES_NODE_SWITCH, 8, 0x2000, "Voltaire # 4036");
	c0 = add(b, LANES_NODE_CA, 2, 0x3000, "node0 HCA-1");
	c1 = add(b, LANES_NODE_CA, 1, 0x4000, "tab\there");
	r0 = add(b, LANES_NODE_ROUTER, 2, 0x5000, "router0");
	assert_int_equal(lanes_builder_set_port(b, s0, 0, 0x1001, 7, 0, &err), 0);
	assert_int_equal(lanes_builder_set_port(b, c0, 1, 0x3333, 12, 2, &err), 0);
	assert_int_equal(lanes_builder_connect(b, s0, 1, s1, 1, 4, LANES_SPEED_HDR, &err), 0);
	assert_int_equal(lanes_builder_connect(b, s0, 2, s1, 2, 4, LANES_SPEED_HDR, &err), 0);
	assert_int_equal(lanes_builder_connect(b, s0, 3, s0, 4, 1, LANES_SPEED_SDR, &err), 0);
	assert_int_equal(lanes_builder_connect(b, s0, 5, c0, 1, 12, LANES_SPEED_FDR10, &err), 0);
	assert_int_equal(lanes_builder_connect(b, s1, 5, c0, 2, 0, LANES_SPEED_EDR, &err), 0);
	assert_int_equal(lanes_builder_connect(b, s1, 8, c1, 1, 2, 0, &err), 0);
	assert_int_equal(lanes_builder_connect(b, s0, 36, r0, 2, 8, LANES_SPEED_NDR, &err), 0);
	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	(void)c2;
	return f;
}

static void test_round_trip_built(void **state)
{
	struct lanes_fabric *f = built_fabric();
	size_t len;
	char *text = write_mem(f, &len);

	(void)state;
	assert_non_null(strstr(text, "switchguid=0x1000(1001)\nSwitch\t36 \"S-0000000000001000\"\t\t"
				     "# \"MF0;sw0:MQM8700/U1\" enhanced port 0 lid 7 lmc 0\n"));
	assert_non_null(strstr(text, "[1]\t\"S-0000000000002000\"[1]\t\t# \"Voltaire # 4036\" lid "));
	assert_non_null(strstr(text, "[5]\t\"H-0000000000003000\"[1](3333) \t\t# \"node0 HCA-1\" "
				     "lid 12 12xFDR10\n"));
	assert_non_null(strstr(text, "caguid=0x3000\nCa\t2 \"H-0000000000003000\"\t\t# \"node0 HCA-1\"\n"
				     "[1](3333) \t\"S-0000000000001000\"[5]\t\t# lid 12 lmc 2 "
				     "\"MF0;sw0:MQM8700/U1\" lid 7 12xFDR10\n"));
	assert_non_null(strstr(text, "# \"Voltaire # 4036\" lid "));
	assert_non_null(strstr(text, "??EDR"));
	assert_non_null(strstr(text, "# \"tab\there\" lid "));
	assert_non_null(strstr(text, "2x???"));
	assert_non_null(strstr(text, "rtguid=0x5000\nRt\t2 \"R-0000000000005000\""));
	/* switches first, then CAs, then routers */
	assert_true(strstr(text, "Switch\t8") < strstr(text, "Ca\t1 \"H-0000000000007000\""));
	assert_true(strstr(text, "Ca\t1 \"H-0000000000007000\"") < strstr(text, "Rt\t2"));
	round_trip(f);
	free(text);
	lanes_fabric_free(f);
}

/* A generator's fabric (the dragonfly of seed 000) survives a round trip. */
static void test_round_trip_generated(void **state)
{
	struct lanes_fabric *f = gen("dragonfly a=4 p=2 h=2");

	(void)state;
	round_trip(f);
	lanes_fabric_free(f);
}

/* ---- dialects and forms ---- */

/* ibdiagnet's dialect: the IBDIAG header, zero-padded ids, port labels. */
static void test_ibdiagnet_dialect(void **state)
{
	struct lanes_fabric *f = read_fabric(LANES_TESTDATA_DIR, "ibnd_ibdiagnet_dialect.txt", NULL);
	uint32_t leaf1 = find_node(f, LANES_NODE_SWITCH, 0x0c42a1030076a8c0ULL);
	uint32_t n3 = find_node(f, LANES_NODE_CA, 0x0c42a10300aabb30ULL);

	(void)state;
	check_counts(f, 2, 4, 6, 0);
	assert_int_equal(f->num_warnings, 0);
	assert_int_equal(f->nodes[leaf1].vendor_id, 0x2c9);
	assert_int_equal(f->nodes[leaf1].device_id, 0xcb20);
	assert_int_equal(stats_of(f).parallel_links, 1);
	assert_int_equal(lanes_fabric_port(f, leaf1, 3)->peer_node, n3);
	assert_int_equal(lanes_fabric_port(f, leaf1, 3)->width, 2);
	assert_int_equal(lanes_fabric_lid(f, n3, 1), 5);
	assert_true(lanes_fabric_port(f, leaf1, 0)->guid == 0x0c42a1030076a8c0ULL);
	lanes_fabric_free(f);
}

/* Chassis ASICs sharing switchguid=, ibnetdiscover -g: ids come from "S-..". */
static void test_chassis(void **state)
{
	struct lanes_fabric *f =
		read_fabric(LANES_TESTDATA_DIR, "ibnd_chassis_shared_switchguid.txt", NULL);
	uint32_t spine = find_node(f, LANES_NODE_SWITCH, 0x0002c90300b00100ULL);
	uint32_t host1 = find_node(f, LANES_NODE_CA, 0x0002c90300a00010ULL);

	(void)state;
	check_counts(f, 3, 3, 6, 0);
	assert_int_equal(f->num_warnings, 0);
	assert_int_equal(spine, 0);
	assert_true(f->nodes[spine].sysimage_guid == 0x2c90300b00000ULL);
	assert_true(lanes_fabric_port(f, spine, 0)->guid == 0x0002c90300b00100ULL);
	assert_string_equal(f->nodes[1].desc, "MF0;dir1:CS7520/L01/U1");
	assert_int_equal(lanes_fabric_lid(f, 2, 0), 12);
	assert_int_equal(f->nodes[host1].nports, 2);
	assert_int_equal(lanes_fabric_lid(f, host1, 2), 4);
	assert_true(lanes_fabric_port(f, host1, 2)->guid == 0x2c90300a00012ULL);
	lanes_fabric_free(f);
}

/* Peers without a record are made from the port lines, with a warning each;
 * a port line may name a record that comes later; routers; CRLF. */
static void test_peers_without_record(void **state)
{
	struct lanes_fabric *f = read_ok(
		"Switch\t8 \"S-00000000000000a1\"\t# \"sw a\" base port 0 lid 3 lmc 0\r\n"
		"[1]\t\"H-00000000000000b1\"[2](b3) \t# \"host b\" lid 9 4xQDR\r\n"
		"[2]\t\"S-00000000000000a2\"[4]\t# \"sw c\" lid 20 1xSDR\r\n"
		"[3]\t\"R-00000000000000c1\"[1](c2) \t# \"rtr\" lid 30 4xEDR\r\n"
		"\r\n"
		"rtguid=0xc1\r\n"
		"Rt\t2 \"R-00000000000000c1\"\t# \"rtr\"\r\n"
		"[1](c2) \t\"S-00000000000000a1\"[3]\t# lid 30 lmc 1 \"sw a\" lid 3 4xEDR\r\n");
	uint32_t host = find_node(f, LANES_NODE_CA, 0xb1);
	uint32_t sw = find_node(f, LANES_NODE_SWITCH, 0xa2);

	(void)state;
	assert_int_equal(f->num_nodes, 4);
	assert_int_equal(f->num_routers, 1);
	assert_int_equal(f->num_warnings, 2);
	assert_true(has_warning(f, "mem.txt:2: peer \"H-00000000000000b1\" has no record"));
	assert_true(has_warning(f, "mem.txt:3: peer \"S-00000000000000a2\" has no record"));
	assert_int_equal(f->nodes[host].nports, 2);
	assert_string_equal(f->nodes[host].desc, "host b");
	assert_int_equal(lanes_fabric_lid(f, host, 2), 9);
	assert_true(lanes_fabric_port(f, host, 2)->guid == 0xb3);
	assert_int_equal(f->nodes[sw].nports, 4);
	assert_int_equal(lanes_fabric_lid(f, sw, 0), 20);
	assert_int_equal(lanes_fabric_port(f, 1, 1)->peer_node, 0); /* router is node 1 */
	assert_int_equal(lanes_fabric_lid(f, 1, 1), 30);
	assert_int_equal(lanes_fabric_port(f, 1, 1)->lmc, 1);
	round_trip(f);
	lanes_fabric_free(f);
}

/*
 * A file that still parses when cut at its end: the last line without its
 * newline warns, naming that line; the same file whole does not (issue 22).
 */
static void test_cut_at_end_warns(void **state)
{
	static const char *const cuts[] = {
		"Switch 4 \"S-1\" # \"x\"\n[4] \"S-2\"[4] # \"y\" lid 2 4xNDR\n\n"
		"Switch 4 \"S-2\" # \"y\"\n[4] \"S-1\"[4] # \"x\" lid 0 4xN",
		"Switch 4 \"S-1\" # \"x\"\n[4] \"S-2\"[4] # \"y\" lid 2 4xNDR\n\n"
		"Switch 4 \"S-2\" # \"y\"\n[4] \"S-1\"[4] # \"x\"",
		"Switch 4 \"S-1\" # \"x\"\n[4] \"S-2\"[4] # \"y\" lid 2 4xNDR\n\n"
		"Switch 4 \"S-2\" # \"y\"\n[4] \"S-1\"[4]",
	};
	char whole[512];
	struct lanes_fabric *f;

	(void)state;
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		f = read_ok(cuts[i]);
		/* (the first also runs 4x "here" against line 2's 4xNDR: a second warning) */
		assert_true(has_warning(f, "mem.txt:5: the last line has no newline: the file may "
					   "be cut"));
		assert_int_equal(f->num_warnings, i == 0 ? 2 : 1);
		lanes_fabric_free(f);
		snprintf(whole, sizeof(whole), "%s\n", cuts[i]);
		f = read_ok(whole);
		assert_false(has_warning(f, "may be cut"));
		lanes_fabric_free(f);
	}
	/* a whole last line (its width and speed complete) without its newline: no warning */
	f = read_ok("Switch 4 \"S-1\" # \"x\"\n[4] \"S-2\"[4] # \"y\" lid 2 4xNDR\n\n"
		    "Switch 4 \"S-2\" # \"y\"\n[4] \"S-1\"[4] # \"x\" lid 0 4xNDR\r");
	assert_int_equal(f->num_warnings, 0);
	lanes_fabric_free(f);
}

/* Junk before the first record is skipped: BOM, prompt, banner text. */
static void test_junk_before_records(void **state)
{
	struct lanes_fabric *f = read_ok("\xEF\xBB\xBF[root@host dir]# ibnetdiscover\n"
					 "Welcome to the cluster\n"
					 "[bad port line before any record]\n"
					 "Switch 4 \"S-1\" # \"x\"\n"
					 "Switch 4 \"S-2\" # \"y\"\n"
					 "[4] \"S-1\"[4] # \"x\" lid 0 4xNDR\n");

	(void)state;
	check_counts(f, 2, 0, 1, 0);
	assert_int_equal(lanes_fabric_port(f, 1, 4)->speed, LANES_SPEED_NDR);
	lanes_fabric_free(f);
}

static void test_sniff(void **state)
{
	static const char *const ibsim[] = { "ibsim_net.basic", "ibsim_net.2sw2path4hca2port",
					     "ibsim_4ary3tree_k-4-n-3-Full.topology" };
	char path[1024], *data;
	size_t len;
	struct lanes_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(data_files) / sizeof(data_files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", LANES_DATA_DIR, data_files[i]);
		assert_int_equal(lanes_io_slurp(path, &data, &len, &err), 0);
		assert_true(fmt()->sniff(data, len) >= 90);
		free(data);
	}
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", LANES_DATA_DIR, ibsim[i]);
		assert_int_equal(lanes_io_slurp(path, &data, &len, &err), 0);
		assert_int_equal(fmt()->sniff(data, len), 0);
		free(data);
	}
	assert_int_equal(fmt()->sniff("", 0), 0);
	assert_int_equal(fmt()->sniff("Switch 4 \"S-1\"\n", 15), 70);
}

/* ---- malformed input ---- */

struct bad {
	const char *text;
	unsigned long line;
	const char *message;
};

#define SW "switchguid=0x1(1)\nSwitch 4 \"S-1\" # \"s\" enhanced port 0 lid 1 lmc 0\n"

static const struct bad bad_inputs[] = {
	{ "", 0, "no Switch, Ca or Rt record found" },
	{ "# only comments\n\n", 0, "no Switch, Ca or Rt record found" },
	{ "garbage\nmore garbage\n", 0, "no Switch, Ca or Rt record found" },
	{ SW "this is not ibnetdiscover\n", 3, "not an ibnetdiscover line" },
	{ SW "[1] \"S-2\"[1] # \"t\" lid 2 4xQDR\nSwitch 4 \"S-2\"\n[2] \"S-1", 5, "not closed" },
	{ SW "[1] \"S-2\"", 3, "peer port number" },
	{ SW "[1] \"S-2\"[1", 3, "bad peer port number" },
	{ SW "[1", 3, "bad local port number" },
	{ SW "[0] \"S-2\"[1]\n", 3, "local port 0 is not in 1..254" },
	{ SW "[1] \"S-2\"[300]\n", 3, "peer port 300 is not in 1..254" },
	{ SW "[x] \"S-2\"[1]\n", 3, "bad local port number" },
	{ SW "[5] \"S-2\"[1] # \"t\" lid 2 4xQDR\n", 3, "port 5 is beyond the 4 ports declared on line 2" },
	{ SW "[1] \"S-2\"[9]\nSwitch 8 \"S-9\"\nSwitch 4 \"S-2\"\n", 3,
	  "port 9 of \"S-2\" is beyond the 4 ports declared on line 5" },
	{ SW "[1] \"S-2\"[1]\n[1] \"S-3\"[1]\n", 4, "port 1 of \"S-1\" is cabled to port 1 of \"S-2\" on line 3" },
	{ SW "[1] \"S-2\"[1]\n[2] \"S-2\"[1]\n", 4, "port 1 of \"S-2\" is cabled to port 1 of \"S-1\" on line 3" },
	{ SW "[2] \"S-1\"[2]\n", 3, "port 2 is cabled to itself" },
	{ SW "Switch 300 \"S-2\"\n", 3, "port count in 1..254" },
	{ SW "Switch 0 \"S-2\"\n", 3, "port count in 1..254" },
	{ SW "Switch\n", 3, "port count" },
	{ SW "Switch 4\n", 3, "node id in double quotes" },
	{ SW "Switch 4 \"S-2\n", 3, "not closed" },
	{ SW "Ca 4 \"S-2\"\n", 3, "does not name a ca" },
	{ SW "Switch 8 \"S-1\"\n", 3, "already listed on line 2" },
	{ "vendid=zz\n", 1, "vendid= needs a hexadecimal value" },
	{ SW "caguid=0x12345678901234567\n", 3, "needs a hexadecimal value" },
	{ "[1] \"S-2\"[1]\nSwitch 4 \"S-1\" # \"s\" enhanced port 1 lid 1 lmc 0\n", 2, "port 0 lid" },
	{ SW "Ca 2 \"H-5\" # \"h\"\n[1](zz) \"S-1\"[2]\n", 4, "bad port GUID" },
	{ SW "Ca 2 \"H-5\" # \"h\"\n[1](5 \"S-1\"[2]\n", 4, "'(' without ')'" },
	{ SW "Ca 2 \"H-5\" # \"h\"\n[1](6) \"S-1\"[2] # lid 3 lmc 9 \"s\" lid 1 4xQDR\n", 4,
	  "LMC 9 is not in 0..7" },
	{ SW "Ca 2 \"H-5\" # \"h\"\n[1](6) \"S-1\"[2] # lid 3 \"s\" lid 1 4xQDR\n", 4, "'lmc N'" },
	{ SW "[1] \"peer\"[1] # \"p\" lid 3 4xQDR\n", 3, "does not say S-, H- or R-" },
	{ SW "Switch 4 \"S-01\"\n", 3, "has the GUID 0x0000000000000001 of \"S-1\" (line 2)" },
	{ SW "[1] \"S-2\"[1] extra\n", 3, "unexpected text after the peer port" },
	{ SW "Switch 4 \"S-2\" junk # \"t\"\n", 3, "unexpected text after the node id" },
	{ SW "Switch 4 \"S-2\" # no quotes\n", 3, "node description in double quotes" },
	{ SW "[1] \"\"[1]\n", 3, "empty node id" },
	{ SW "[1] \"S-\x01\"[1]\n", 3, "control character" },
	{ SW "devid=0x1\n[1] \"S-2\"[1]\n", 4, "port line outside" },
	{ "Switch 4 \"S-1\"\n[1] \"S-2\"[1] # \"x\" lid 3 4xQDR\n[2][ext 1 \"S-2\"\n", 3,
	  "'[' without ']'" },
	/* issue 22: GUIDs longer than 64 bits, and two CA ports with one port GUID */
	{ SW "Ca 1 \"H-10002c90301000004\"\n", 3,
	  "the id \"H-10002c90301000004\" holds 17 hex digits; a GUID has at most 16" },
	{ SW "[1] \"S-00000000000000000002\"[1]\n", 3, "holds 20 hex digits" },
	{ SW "Ca 1 \"H-5\" # \"a\"\n[1](9) \"S-1\"[1] # lid 3 lmc 0 \"s\" lid 1 4xQDR\n"
	     "Ca 1 \"H-6\" # \"b\"\n[1](9) \"S-1\"[2] # lid 4 lmc 0 \"s\" lid 1 4xQDR\n", 6,
	  "port 1 of \"H-6\" has the port GUID 0x0000000000000009 of port 1 of \"H-5\" (line 4)" },
	/* ... named where the GUIDs are given: line 8 gives 9 to "H-6", not line 3 */
	{ SW "[1] \"H-5\"[1](9) # \"a\" lid 3 4xQDR\n[2] \"H-6\"[1](a) # \"b\" lid 4 4xQDR\n"
	     "Ca 1 \"H-5\" # \"a\"\n[1](9) \"S-1\"[1] # lid 3 lmc 0 \"s\" lid 1 4xQDR\n"
	     "Ca 1 \"H-6\" # \"b\"\n[1](9) \"S-1\"[2] # lid 4 lmc 0 \"s\" lid 1 4xQDR\n", 4,
	  "port 1 of \"H-6\" has the port GUID 0x000000000000000a here and 0x0000000000000009 on "
	  "line 8" },
	{ SW "[1] \"H-5\"[1] # \"a\" lid 3 4xQDR\n[2] \"H-6\"[1] # \"b\" lid 4 4xQDR\n"
	     "Ca 1 \"H-5\" # \"a\"\n[1](9) \"S-1\"[1] # lid 3 lmc 0 \"s\" lid 1 4xQDR\n"
	     "Ca 1 \"H-6\" # \"b\"\n[1](9) \"S-1\"[2] # lid 4 lmc 0 \"s\" lid 1 4xQDR\n", 8,
	  "port 1 of \"H-6\" has the port GUID 0x0000000000000009 of port 1 of \"H-5\" (line 6)" },
	/* issue 22: node GUIDs are unique across types; an H-<guid> id agrees with caguid= */
	{ SW "Ca 1 \"H-1\" # \"c\"\n", 3, "\"H-1\" has the GUID 0x0000000000000001 of \"S-1\" (line 2)" },
	{ SW "caguid=0x7\nCa 1 \"a\"\ncaguid=0x7\nCa 1 \"b\"\n", 6,
	  "\"b\" has the GUID 0x0000000000000007 of \"a\" (line 4)" },
	{ SW "caguid=0x7\nCa 1 \"H-8\"\n", 4,
	  "the id \"H-8\" names the GUID 0x0000000000000008, but the caguid= on line 3 gives "
	  "0x0000000000000007" },
	/* issue 22: two sightings of one port agree on its LID and port GUID */
	{ SW "[1] \"H-5\"[1](9) # \"a\" lid 4 4xQDR\n"
	     "Ca 1 \"H-5\" # \"a\"\n[1](9) \"S-1\"[1] # lid 3 lmc 0 \"s\" lid 1 4xQDR\n", 3,
	  "port 1 of \"H-5\" has LID 4 here and LID 3 on line 5" },
	{ SW "[1] \"H-5\"[1](9) # \"a\" lid 3 4xQDR\n"
	     "Ca 1 \"H-5\" # \"a\"\n[1](9) \"S-1\"[1] # lid 3 lmc 0 \"s\" lid 2 4xQDR\n", 5,
	  "switch \"S-1\" has LID 2 here and LID 1 on line 2" },
	{ SW "[1] \"H-5\"[1](8) # \"a\" lid 3 4xQDR\n"
	     "Ca 1 \"H-5\" # \"a\"\n[1](9) \"S-1\"[1] # lid 3 lmc 0 \"s\" lid 1 4xQDR\n", 3,
	  "port 1 of \"H-5\" has the port GUID 0x0000000000000008 here and 0x0000000000000009 on "
	  "line 5" },
	/* issue 22: switchguid=G(P): P is a port GUID, and one switch has one */
	{ "switchguid=0x1(10000000000000000000)\nSwitch 4 \"S-1\"\n", 1,
	  "the port GUID after switchguid= holds 20 hex digits; a GUID has at most 16" },
	{ "switchguid=0x1(zz)\nSwitch 4 \"S-1\"\n", 1, "'(zz)' after switchguid= is not a port GUID" },
	{ "switchguid=0x1(0)\nSwitch 4 \"S-1\"\n", 1, "'(0)' after switchguid= is not a port GUID" },
	{ SW "switchguid=0x1(2)\nSwitch 4 \"S-1\"\n", 3,
	  "switch \"S-1\" has the port GUID 0x0000000000000002 here and 0x0000000000000001 on line 1" },
	/* issue 22: bzip2 (or xz, lz4) bytes are named, not read as junk before a record */
	{ "BZh91AY&SY\n" SW, 0, "compressed with bzip2, which lanes cannot read (gzip and zstd only)" },
	/* issue 22: cut inside the last line */
	{ SW "Switch 4", 3, "truncated: the file ends inside line 3 (expected" },
};

static void test_malformed(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
		struct lanes_fabric *f = NULL;
		struct lanes_error err;
		int rc = read_str(bad_inputs[i].text, &f, &err);

		if (rc != LANES_EPARSE || err.line != bad_inputs[i].line ||
		    !strstr(err.message, bad_inputs[i].message))
			fail_msg("input %zu: rc %d, line %lu, '%s'; expected line %lu, '%s'", i, rc,
				 err.line, err.message, bad_inputs[i].line, bad_inputs[i].message);
		assert_null(f);
		assert_string_equal(err.file, "mem.txt");
	}
}

/* The reader never looks past len: a record cut inside a quoted string. */
static void test_not_nul_terminated(void **state)
{
	const char text[] = "Switch 4 \"S-1\" # \"abc\"";
	char *copy = malloc(15);
	struct lanes_fabric *f = NULL;
	struct lanes_error err;

	(void)state;
	memcpy(copy, text, 15); /* up to and including the id's closing quote */
	assert_int_equal(fmt()->read(copy, 15, "cut", &f, &err), 0);
	assert_int_equal(f->num_switches, 1);
	lanes_fabric_free(f);
	assert_int_equal(fmt()->read(copy, 12, "cut", &f, &err), LANES_EPARSE);
	assert_int_equal(err.line, 1);
	free(copy);
}

/* The writer refuses two nodes of one type with one GUID. */
static void test_write_duplicate_guid(void **state)
{
	struct lanes_builder *b;
	struct lanes_fabric *f;
	struct lanes_error err;
	FILE *fp = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(fp);
	assert_int_equal(lanes_builder_new(&b, &err), 0);
	add(b, LANES_NODE_SWITCH, 4, 0x99, "a");
	add(b, LANES_NODE_SWITCH, 4, 0x99, "b");
	assert_int_equal(lanes_builder_finish(b, &f, &err), 0);
	assert_int_equal(fmt()->write(f, fp, &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "share the GUID"));
	fclose(fp);
	lanes_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dgx),
		cmocka_unit_test(test_anon_4sw),
		cmocka_unit_test(test_invalid_lids),
		cmocka_unit_test(test_ut_stage),
		cmocka_unit_test(test_psmn),
		cmocka_unit_test(test_nvidia_lab),
		cmocka_unit_test(test_gen_tree),
		cmocka_unit_test(test_round_trip_files),
		cmocka_unit_test(test_round_trip_testdata),
		cmocka_unit_test(test_round_trip_built),
		cmocka_unit_test(test_round_trip_generated),
		cmocka_unit_test(test_ibdiagnet_dialect),
		cmocka_unit_test(test_chassis),
		cmocka_unit_test(test_peers_without_record),
		cmocka_unit_test(test_junk_before_records),
		cmocka_unit_test(test_cut_at_end_warns),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_not_nul_terminated),
		cmocka_unit_test(test_write_duplicate_guid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
