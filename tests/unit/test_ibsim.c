/*
 * test_ibsim.c - the ibsim net reader and writer.
 *
 * Counts come from ../shared/data/README.md; GUIDs follow ibsim's own
 * counters (switches from 0x200000, CAs from 0x100000 reserving nports + 1),
 * which is what OpenSM reported for ibsim_net.basic in opensm-subnet.lst
 * (Hca2 NodeGUID 0x100003, Switch2 0x200001).
 */
#include "testutil.h"

static struct lanes_fabric *parse(const char *text, struct lanes_error *err, int *rc)
{
	struct lanes_fabric *f = NULL;

	*rc = lanes_format_find("ibsim")->read(text, strlen(text), "t.net", &f, err);
	return f;
}

static void test_data_files(void **state)
{
	static const struct { const char *file; uint32_t sw, ca, links; } cases[] = {
		{ "ibsim_net.basic", 2, 2, 4 },
		{ "ibsim_net.2sw2path4hca2port", 2, 2, 6 },
		{ "ibsim_4ary3tree_k-4-n-3-Full.topology", 80, 128, 384 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lanes_fabric *f = read_fabric(LANES_DATA_DIR, cases[i].file, NULL);
		struct lanes_fabric_stats st = stats_of(f);

		assert_int_equal(st.switches, cases[i].sw);
		assert_int_equal(st.cas, cases[i].ca);
		assert_int_equal(st.links_switch_switch + st.links_switch_ca, cases[i].links);
		assert_true(st.connected);
		assert_int_equal(f->num_warnings, 0);
		lanes_fabric_free(f);
	}
}

static void test_guids_as_ibsim_assigns_them(void **state)
{
	struct lanes_fabric *f = read_fabric(LANES_DATA_DIR, "ibsim_net.basic", "ibsim");
	uint32_t hca2 = lanes_fabric_find_guid(f, 0x100003);

	(void)state;
	assert_int_equal(lanes_fabric_find_guid(f, 0x200000), 0);
	assert_int_equal(lanes_fabric_find_guid(f, 0x200001), 1);
	assert_int_equal(lanes_fabric_find_guid(f, 0x100000), 2);
	assert_int_not_equal(hca2, LANES_NONE);
	assert_string_equal(f->nodes[hca2].desc, "Hca2");
	/* Hca2 is cabled from its port 2 to Switch1 port 2 */
	assert_int_equal(lanes_fabric_port(f, hca2, 2)->peer_node, 0);
	assert_int_equal(lanes_fabric_port(f, hca2, 2)->peer_port, 2);
	assert_int_equal(lanes_fabric_port(f, hca2, 2)->guid, 0x100005);
	assert_int_equal(lanes_fabric_port(f, hca2, 1)->peer_node, LANES_NONE);
	/* the two ISLs are parallel */
	assert_int_equal(stats_of(f).parallel_links, 1);
	lanes_fabric_free(f);
}

static void test_options_and_guid_lines(void **state)
{
	struct lanes_error err;
	int rc;
	struct lanes_fabric *f = parse("switchguid=0x5000\n"
				       "Switch 4 \"a\" # \"Spine A\" enhanced port 0 lid 9 lmc 0\n"
				       "[1] \"h\"[2] w=8 s=2\n"
				       "[2] \"b\"\n"
				       "\n"
				       "Switch 4 \"b\"\n"
				       "# a comment inside a record\n"
				       "[1] \"a\"[2]\n"
				       "\n"
				       "caguid=0x7000\n"
				       "Hca 2 \"h\" # host one\n"
				       "[2] \"a\"[1] lid 20 lmc 1 w=8 s=2\n",
				       &err, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(f->nodes[0].desc, "Spine A");
	assert_int_equal(f->nodes[0].guid, 0x5000);
	assert_int_equal(f->nodes[1].guid, 0x5001);
	assert_string_equal(f->nodes[1].desc, "b");
	assert_string_equal(f->nodes[2].desc, "host one");
	assert_int_equal(f->nodes[2].guid, 0x7000);
	assert_int_equal(lanes_fabric_lid(f, 0, 0), 9);
	assert_int_equal(lanes_fabric_lid(f, 2, 2), 20);
	assert_int_equal(lanes_fabric_port(f, 2, 2)->lmc, 1);
	assert_int_equal(lanes_fabric_port(f, 0, 1)->width, 12);
	assert_int_equal(lanes_fabric_port(f, 0, 1)->speed, LANES_SPEED_DDR);
	/* "[2] "b"" without a remote port means port 1 */
	assert_int_equal(lanes_fabric_port(f, 0, 2)->peer_port, 1);
	lanes_fabric_free(f);
}

/*
 * vendid= and sysimgguid= apply to the next node only, devid= to every later
 * node; a node without sysimgguid has its node GUID. The expected values are
 * what the real ibsim 0.10 showed OpenSM 3.3.23 for this file (its
 * opensm-subnet.lst: VenID, DevID, SystemGUID).
 */
static void test_node_attribute_lines(void **state)
{
	struct lanes_error err;
	int rc;
	struct lanes_fabric *f = parse("vendid=0x1234\ndevid=0xabcd\nsysimgguid=0x999\n"
				       "switchguid=0x10\n"
				       "Switch 4 \"S1\"\n[1] \"S2\"[1]\n[2] \"H1\"[1]\n\n"
				       "Switch 4 \"S2\"\n[1] \"S1\"[1]\n[2] \"H2\"[1]\n\n"
				       "vendid=0x77\n"
				       "Hca 1 \"H1\"\n[1] \"S1\"[2]\n\n"
				       "sysimgguid=0x555\ndevid=0x42\n"
				       "Hca 1 \"H2\"\n[1] \"S2\"[2]\n",
				       &err, &rc);
	static const struct { uint64_t guid, sys; uint32_t ven, dev; } want[] = {
		{ 0x10, 0x999, 0x1234, 0xabcd },
		{ 0x11, 0x11, 0, 0xabcd },
		{ 0x100000, 0x100000, 0x77, 0xabcd },
		{ 0x100002, 0x555, 0, 0x42 },
	};

	(void)state;
	assert_int_equal(rc, 0);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(f->nodes[i].guid, want[i].guid);
		assert_int_equal(f->nodes[i].sysimage_guid, want[i].sys);
		assert_int_equal(f->nodes[i].vendor_id, want[i].ven);
		assert_int_equal(f->nodes[i].device_id, want[i].dev);
	}
	lanes_fabric_free(f);
	/* numbers as ibsim's strtol(.., 0) reads them: decimal, 0x hex, 0 octal */
	f = parse("vendid=10\ndevid=010\nSwitch 1 \"a\"\n", &err, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(f->nodes[0].vendor_id, 10);
	assert_int_equal(f->nodes[0].device_id, 8);
	lanes_fabric_free(f);
}

/* One cable between two switches with the given options on each end. */
static struct lanes_fabric *cable(const char *pre, const char *a, const char *b, int *rc)
{
	char text[256];
	struct lanes_error err;

	snprintf(text, sizeof(text), "%sSwitch 4 \"A\"\n[1] \"B\"[1] %s\n\nSwitch 4 \"B\"\n[1] \"A\"[1] %s\n",
		 pre, a, b);
	return parse(text, &err, rc);
}

/*
 * Width, speed and extended speed masks: the active values are the highest
 * both ends enable, ibsim 0.10's link-up rule. Each case was run through the
 * real ibsim and OpenSM: the refused ones make ibsim stop ("bad enabled
 * width", "mismatched enabled speed"), and OpenSM's opensm-subnet.lst showed
 * these widths and rates, except for "speed=7 / s=2", which OpenSM itself
 * raises to QDR after link-up by setting LinkSpeedEnabled (its
 * force_link_speed default); what the file says is DDR.
 */
static void test_masks(void **state)
{
	static const struct {
		const char *pre, *a, *b;
		uint8_t width, speed;
	} ok[] = {
		{ "", "", "", 4, LANES_SPEED_SDR },
		{ "", "w=16", "w=16", 2, LANES_SPEED_SDR },
		{ "", "w=31 s=7", "w=31 s=7", 12, LANES_SPEED_QDR },
		{ "", "w=2", "", 4, LANES_SPEED_SDR },
		{ "", "e=2", "", 4, LANES_SPEED_SDR },
		{ "", "e=2", "e=2", 4, LANES_SPEED_EDR },
		{ "", "e=2 s=4", "e=6 s=4", 4, LANES_SPEED_EDR },
		{ "", "e=7 s=7", "e=4 s=4", 4, LANES_SPEED_HDR },
		{ "", "e=1", "e=3", 4, LANES_SPEED_FDR },
		{ "width=16\nextspeed=2\n", "", "", 2, LANES_SPEED_EDR },
		{ "speed=7\n", "", "s=2", 4, LANES_SPEED_DDR },
	};
	static const char *const bad[][2] = {
		{ "w=1", "" }, { "s=2", "" }, { "w=32", "w=32" }, { "s=8", "s=8" },
		{ "s=0", "s=0" }, { "e=8", "e=8" },
	};
	int rc;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct lanes_fabric *f = cable(ok[i].pre, ok[i].a, ok[i].b, &rc);

		if (rc)
			fail_msg("case %zu refused", i);
		assert_int_equal(lanes_fabric_port(f, 0, 1)->width, ok[i].width);
		assert_int_equal(lanes_fabric_port(f, 0, 1)->speed, ok[i].speed);
		assert_int_equal(lanes_fabric_port(f, 1, 1)->speed, ok[i].speed);
		lanes_fabric_free(f);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_null(cable("", bad[i][0], bad[i][1], &rc));
		assert_int_equal(rc, LANES_EPARSE);
	}
	assert_null(cable("width=32\n", "", "", &rc));
	assert_null(cable("extspeed=8\n", "", "", &rc));
	{
		struct lanes_fabric *f = cable("extspeed=7\n", "", "", &rc);

		assert_non_null(f);
		assert_int_equal(lanes_fabric_port(f, 0, 1)->speed, LANES_SPEED_HDR);
		lanes_fabric_free(f);
	}
}

static void expect_error(const char *text, unsigned long line, const char *what)
{
	struct lanes_error err;
	int rc;
	struct lanes_fabric *f = parse(text, &err, &rc);

	assert_null(f);
	assert_int_equal(rc, LANES_EPARSE);
	assert_string_equal(err.file, "t.net");
	if (err.line != line || !strstr(err.message, what))
		fail_msg("expected line %lu '%s', got %lu '%s'", line, what, err.line, err.message);
}

static void test_malformed(void **state)
{
	(void)state;
	expect_error("", 0, "no Switch");
	expect_error("Switch 0 \"a\"\n", 1, "port count");
	expect_error("Switch 300 \"a\"\n", 1, "port count");
	expect_error("Switch 4 a\n", 1, "quoted node id");
	expect_error("Switch 4 \"a\n", 1, "quoted node id");
	expect_error("Switch 4 \"a\"\n[9] \"b\"[1]\n", 2, "outside 1..4");
	expect_error("Switch 4 \"a\"\n[1] b[1]\n", 2, "quoted remote");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[x]\n", 2, "remote port");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1] w=99\n", 2, "bad port option");
	expect_error("Switch 4 \"a\"\n[1] \"zz\"[1]\n", 2, "does not exist");
	expect_error("Switch 4 \"a\"\n\nSwitch 4 \"a\"\n", 3, "duplicate node id");
	expect_error("Switch 4 \"a#b\"\n", 1, "'#' or '@'");
	expect_error("[1] \"b\"[1]\n", 1, "outside a node record");
	expect_error("hello\n", 1, "expected Switch");
	expect_error("include \"x\"\n", 1, "not supported");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1]\n\nSwitch 4 \"b\"\n", 2,
		     "does not list this cable back");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1]\n\nSwitch 4 \"b\"\n[1] \"a\"[2]\n", 5,
		     "two ends disagree");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[7]\n\nSwitch 4 \"b\"\n", 2, "beyond");
	expect_error("Switch 4 \"a\" lid x\n", 1, "expected a LID");
	/* a digit above a small maximum is refused by the scanner, with the line */
	expect_error("Switch 4 \"a\" lmc 9\n", 1, "LMC 0..7");
	expect_error("Hca 1 \"h\"\n[1] \"s\"[1] lid 4 lmc 8\n", 2, "LMC 0..7");
	expect_error("switchguid=zz\n", 1, "expected a GUID");
	expect_error("caguid=0x10\nHca 1 \"a\"\n\ncaguid=0x10\nHca 1 \"b\"\n", 5,
		     "node GUID 0x10 is already taken (first on line 2;");
	/* issue 22: a CA given a switch's GUID; a file cut inside its last line */
	expect_error("switchguid=0x10\nSwitch 2 \"s\"\n\ncaguid=0x10\nHca 1 \"h\"\n", 5,
		     "node GUID 0x10 is already taken (first on line 2;");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1]\n\nSwitch 4 \"b\"\n[1] \"a\"[", 5,
		     "truncated: the file ends inside line 5 (");
	expect_error("switchguid 5\n", 1, "expected '=' or '+'");
	expect_error("vendid=0x1000000\n", 1, "vendid");
	expect_error("devid=0x10000\n", 1, "devid");
	expect_error("devid 5\n", 1, "devid");
	expect_error("sysimgguid=zz\n", 1, "sysimgguid");
	/* words ibsim would skip: a cut "lmc", a stray word (issue 22) */
	expect_error("Switch 1 \"s\"\n[1] \"h\"[1]\n\nHca 1 \"h\"\n[1] \"s\"[1] w=2 s=4 lid 18 l", 5,
		     "truncated: the file ends inside line 5 (unexpected text on a port line");
	expect_error("Switch 1 \"s\"\n[1] \"h\"[1] bogus\n\nHca 1 \"h\"\n[1] \"s\"[1]\n", 2,
		     "unexpected text on a port line (after the remote end: w=, s=, e=, lid N, "
		     "lmc N, a # comment): 'bogus'");
	expect_error("Switch 1 \"s\"\n[1] \"h\" [1]\n\nHca 1 \"h\"\n[1] \"s\"[1]\n", 2,
		     "unexpected text on a port line");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1] w=1\n\nSwitch 4 \"b\"\n[1] \"a\"[1]\n", 2,
		     "enables no width");
	expect_error("Switch 4 \"a\"\n[1] \"b\"[1] s=4\n\nSwitch 4 \"b\"\n[1] \"a\"[1]\n", 2,
		     "enables no speed");
}

/* The last line without its newline still parses: a warning names it (issue 22). */
static void test_cut_at_end_warns(void **state)
{
	const char *text = "Switch 1 \"s\"\n[1] \"h\"[1]\n\nHca 1 \"h\"\n[1] \"s\"[1] lid 18";
	struct lanes_error err;
	int rc;
	struct lanes_fabric *f = parse(text, &err, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_int_equal(f->num_warnings, 1);
	assert_string_equal(f->warnings[0], "t.net:5: the last line has no newline: the file may be cut");
	lanes_fabric_free(f);
}

/* A LID already taken: both lines, and the LID the port gets instead (issue 22). */
static void test_lid_taken_names_lines(void **state)
{
	struct lanes_error err;
	int rc;
	struct lanes_fabric *f = parse("Switch 3 \"s\" # \"sw\" enhanced port 0 lid 5 lmc 0\n"
				       "[1] \"h\"[1]\n[2] \"g\"[1]\n\n"
				       "Hca 1 \"h\"\n[1] \"s\"[1] lid 5\n\n"
				       "Hca 1 \"g\"\n[1] \"s\"[2] lid 4 lmc 1\n",
				       &err, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_int_equal(f->num_warnings, 2);
	assert_string_equal(f->warnings[0], "t.net:6: LID 5 of port 1 of \"h\" is already taken by "
			    "switch \"sw\" (line 1); it gets LID 1 instead");
	assert_string_equal(f->warnings[1], "t.net:9: LID 4 of port 1 of \"g\" (LMC 1) covers LID 5, "
			    "which is already taken by switch \"sw\" (line 1); it gets LID 2 instead");
	lanes_fabric_free(f);
}

/* A LID above the unicast range (0xBFFF) is none, said with file:line; the port gets a LID. */
static void test_lid_above_unicast_warns(void **state)
{
	struct lanes_error err;
	int rc;
	struct lanes_fabric *f = parse("Switch 2 \"s\" # \"sw\" enhanced port 0 lid 1\n"
				       "[1] \"h\"[1]\n\nHca 1 \"h\"\n[1] \"s\"[1] lid 50000\n",
				       &err, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_int_equal(f->num_warnings, 1);
	assert_string_equal(f->warnings[0], "t.net:5: LID 50000 (0xc350) is above the unicast range "
			    "1..0xBFFF: read as none (a LID is assigned)");
	assert_int_equal(f->max_lid, 2); /* the switch's 1, the CA's assigned 2 */
	lanes_fabric_free(f);
}

static void assert_same_fabric(const struct lanes_fabric *a, const struct lanes_fabric *b)
{
	assert_int_equal(a->num_nodes, b->num_nodes);
	assert_int_equal(a->num_links, b->num_links);
	for (uint32_t i = 0; i < a->num_nodes; i++) {
		const struct lanes_node *x = &a->nodes[i], *y = &b->nodes[i];

		assert_int_equal(x->guid, y->guid);
		assert_int_equal(x->sysimage_guid, y->sysimage_guid);
		assert_int_equal(x->vendor_id, y->vendor_id);
		assert_int_equal(x->device_id, y->device_id);
		assert_int_equal(x->type, y->type);
		assert_int_equal(x->nports, y->nports);
		assert_string_equal(x->desc, y->desc);
		for (unsigned p = 0; p <= x->nports; p++) {
			const struct lanes_port *u = &a->ports[x->port_base + p];
			const struct lanes_port *v = &b->ports[y->port_base + p];

			assert_int_equal(u->peer_node, v->peer_node);
			assert_int_equal(u->peer_port, v->peer_port);
			assert_int_equal(u->lid, v->lid);
			assert_int_equal(u->lmc, v->lmc);
			assert_int_equal(u->width, v->width);
			assert_int_equal(u->speed, v->speed);
		}
	}
}

static void round_trip(struct lanes_fabric *f)
{
	const struct lanes_format *fmt = lanes_format_find("ibsim");
	struct lanes_fabric *g = NULL;
	struct lanes_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_int_equal(fmt->write(f, mem, &err), 0);
	fclose(mem);
	assert_true(len > 0);
	if (fmt->read(buf, len, "mem", &g, &err))
		fail_msg("%s:%lu: %s", err.file, err.line, err.message);
	assert_same_fabric(f, g);
	lanes_fabric_free(g);
	free(buf);
	lanes_fabric_free(f);
}

static void test_round_trips(void **state)
{
	(void)state;
	round_trip(read_fabric(LANES_DATA_DIR, "ibsim_net.basic", NULL));
	round_trip(read_fabric(LANES_DATA_DIR, "ibsim_net.2sw2path4hca2port", NULL));
	round_trip(read_fabric(LANES_DATA_DIR, "ibsim_4ary3tree_k-4-n-3-Full.topology", NULL));
	round_trip(gen("dragonfly a=4 p=2 h=2"));
	round_trip(gen("torus k=3x4 p=2"));
	/* ibnetdiscover -> ibsim -> read: vendor, device and system image GUID survive */
	round_trip(read_fabric(LANES_DATA_DIR, "anon_4sw_edr_ibnetdiscover.txt", NULL));
	round_trip(read_fabric(LANES_DATA_DIR, "nvidia_lab_2sw_mixed_ibnetdiscover.txt", NULL));
	round_trip(read_fabric(LANES_DATA_DIR, "ut_stage_sx6036_fdr10_ibnetdiscover.txt", NULL));
	round_trip(read_fabric(LANES_DATA_DIR, "psmn_x5_qdr_ibnetdiscover.txt", NULL));
	round_trip(read_fabric(LANES_DATA_DIR, "dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt", NULL));
	round_trip(read_fabric(LANES_TESTDATA_DIR, "ibnd_chassis_shared_switchguid.txt", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_files),
		cmocka_unit_test(test_guids_as_ibsim_assigns_them),
		cmocka_unit_test(test_options_and_guid_lines),
		cmocka_unit_test(test_node_attribute_lines),
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_cut_at_end_warns),
		cmocka_unit_test(test_lid_taken_names_lines),
		cmocka_unit_test(test_lid_above_unicast_warns),
		cmocka_unit_test(test_round_trips),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
