/*
 * plugin.c - liblanes_opensm.so, an OpenSM event plugin that puts lanes'
 * engines into a running OpenSM. In opensm.conf:
 *
 *   event_plugin_name lanes_opensm
 *   event_plugin_options vls=8 verify=yes
 *   routing_engine lanes-dfsssp,minhop
 *   qos TRUE
 *
 * OpenSM loads the plugin (lib<name>.so from the library path) before it
 * sets up its routing engines; create() registers every lanes engine as an
 * external engine named lanes-<engine> (osm_register_external_routing_engine,
 * exported by the opensm executable). At each sweep OpenSM calls
 * ucast_build_fwd_tables: the plugin builds a lanes fabric from the subnet
 * (subnet.c), routes it, runs the verifier (unless verify=no), and writes
 * every switch's new LFT; a failure returns -1 with the reason in OpenSM's
 * log, and OpenSM goes on to the next engine of routing_engine. Then OpenSM
 * asks update_sl2vl for every (switch, in port, out port) and CA port, and
 * the SA asks path_sl for every path record: both answer from the sweep's
 * routing. update_sl2vl is only called with `qos TRUE`. Each sweep logs its
 * time, the LFTs' size and OpenSM's peak memory.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "lanes/verify.h"
#include "lanes_opensm.h"

/* The plugin's options (event_plugin_options) and its engines. */
struct plugin {
	osm_opensm_t *osm;
	struct lanes_route_opts route;
	int verify;
	char *roots;
	struct engine *engines;
	size_t num_engines;
};

/* One registered engine and its sweep. */
struct engine {
	struct plugin *plugin;
	const struct lanes_engine *lanes;
	char name[64];
	external_routing_engine_module_t module;
	struct sweep sweep;
};

#define LOG(p, level, ...) osm_log(&(p)->osm->log, (level), "lanes_opensm: " __VA_ARGS__)

/* ------------------------------------------------------------ options */

/* One "key=value" word. @return 0, or -1 after logging what is wrong */
static int parse_option(struct plugin *p, const char *word, size_t len)
{
	const char *eq = memchr(word, '=', len);
	size_t klen = eq ? (size_t)(eq - word) : len;
	char value[256];
	char *end;
	unsigned long v;

	if (!eq || len - klen - 1 >= sizeof(value)) {
		LOG(p, OSM_LOG_ERROR, "ERR: event_plugin_options: '%.*s' is not key=value\n", (int)len, word);
		return -1;
	}
	memcpy(value, eq + 1, len - klen - 1);
	value[len - klen - 1] = '\0';
	v = strtoul(value, &end, 10);
	if (klen == 6 && !strncmp(word, "verify", 6) && (!strcmp(value, "yes") || !strcmp(value, "no")))
		p->verify = value[0] == 'y';
	else if (klen == 5 && !strncmp(word, "roots", 5) && value[0]) {
		free(p->roots);
		if (!(p->roots = strdup(value)))
			return -1;
	}
	else if (*end || !value[0])
		goto bad;
	else if (klen == 3 && !strncmp(word, "vls", 3) && v >= 1 && v <= 15)
		p->route.max_vls = (uint8_t)v;
	else if (klen == 3 && !strncmp(word, "sls", 3) && v >= 1 && v <= 16)
		p->route.max_sls = (uint8_t)v;
	else if (klen == 4 && !strncmp(word, "seed", 4))
		p->route.seed = v;
	else if (klen == 7 && !strncmp(word, "threads", 7) && v <= 256)
		p->route.threads = (unsigned)v;
	else
		goto bad;
	return 0;
bad:
	LOG(p, OSM_LOG_ERROR, "ERR: event_plugin_options: bad option '%.*s' (known: vls=1..15, "
	    "sls=1..16, seed=N, threads=0..256, roots=FILE, verify=yes|no)\n", (int)len, word);
	return -1;
}

/* The whole event_plugin_options line (the rest of the config line, spaces included). */
static int parse_options(struct plugin *p, const char *line)
{
	lanes_route_opts_init(&p->route);
	p->verify = 1;
	while (line && *line) {
		size_t len;

		line += strspn(line, " \t");
		len = strcspn(line, " \t");
		if (len && parse_option(p, line, len))
			return -1;
		line += len;
	}
	p->route.roots = p->roots;
	return 0;
}

/* ------------------------------------------------------------ checks before the tables go live */

/* Data VLs an OperVLs / VLCap code allows: 1 VL0, 2 VL0-1, 3 VL0-3, 4 VL0-7, 5 VL0-14. */
static unsigned vls_of_code(unsigned code)
{
	static const unsigned vls[] = { 1, 1, 2, 4, 8, 15 };

	return code < sizeof(vls) / sizeof(vls[0]) ? vls[code] : 15;
}

/* The data VLs every cabled port can hold (VLCap), and OpenSM's max_op_vls. */
static unsigned vl_capacity(const struct sweep *s, const osm_subn_t *subn)
{
	unsigned cap = vls_of_code(subn->opt.max_op_vls);

	for (uint32_t i = 0; i < s->num_nodes; i++)
		for (uint8_t p = 1; p < osm_node_get_num_physp(s->node[i]); p++) {
			osm_physp_t *ph = osm_node_get_physp_ptr(s->node[i], p);
			unsigned v;

			if (!ph || !osm_physp_get_remote(ph))
				continue;
			v = vls_of_code(ib_port_info_get_vl_cap(&ph->port_info));
			cap = v < cap ? v : cap;
		}
	return cap;
}

/* The verifier's cycle in OpenSM's log, one channel a line. */
static void log_cycle(const struct engine *e, const struct lanes_verify_result *res)
{
	const struct lanes_fabric *f = e->sweep.f;

	for (uint32_t i = 0; i < res->cycle_len; i++) {
		const struct lanes_cycle_step *c = &res->cycle[i];

		LOG(e->plugin, OSM_LOG_ERROR, "ERR: %s: cycle %u/%u: \"%s\" port %u -> \"%s\" port %u VL %u "
		    "(LID %u -> %u goes on to the next)\n", e->name, i + 1, res->cycle_len,
		    f->nodes[f->switches[c->from_sw]].desc, c->from_port,
		    f->nodes[f->switches[c->to_sw]].desc, c->to_port, c->vl, c->src_lid, c->dst_lid);
	}
}

/* The verifier's first failed paths (a loop or a drop) in OpenSM's log, at most three. */
static void log_failures(const struct engine *e, const struct lanes_verify_result *res)
{
	const struct lanes_fabric *f = e->sweep.f;

	for (uint32_t i = 0; i < res->num_examples && i < 3; i++) {
		const struct lanes_path_failure *x = &res->examples[i];

		LOG(e->plugin, OSM_LOG_ERROR, "ERR: %s: LID %u -> %u %s at \"%s\" port %u\n", e->name,
		    x->src_lid, x->dst_lid, x->kind == LANES_PATH_LOOP ? "loops" : "is dropped",
		    f->nodes[f->switches[x->at_switch]].desc, x->port);
	}
}

/* lanes' verifier on the sweep's routing. @return 1 it may go live, else 0 (logged) */
static int verified(const struct engine *e)
{
	struct lanes_verify_opts vo;
	struct lanes_verify_result *res = NULL;
	struct lanes_error err;
	int ok;

	lanes_verify_opts_init(&vo);
	vo.max_vls = e->plugin->route.max_vls;
	vo.ebb_patterns = 0;
	vo.threads = e->plugin->route.threads;
	if (lanes_verify(e->sweep.f, e->sweep.r, &vo, &res, &err)) {
		LOG(e->plugin, OSM_LOG_ERROR, "ERR: %s: verifier: %s\n", e->name, err.message);
		return 0;
	}
	ok = res->deadlock_free && res->reachable && !res->vls_over_budget;
	if (!res->deadlock_free)
		LOG(e->plugin, OSM_LOG_ERROR, "ERR: %s: refused: a credit loop of %u channels\n", e->name,
		    res->cycle_len);
	log_cycle(e, res);
	if (!res->reachable)
		LOG(e->plugin, OSM_LOG_ERROR, "ERR: %s: refused: %llu unreachable pairs\n", e->name,
		    (unsigned long long)res->unreachable_pairs);
	log_failures(e, res);
	if (res->vls_over_budget)
		LOG(e->plugin, OSM_LOG_ERROR, "ERR: %s: refused: VLs over the budget of %u\n", e->name,
		    vo.max_vls);
	lanes_verify_result_free(res);
	return ok;
}

/* ------------------------------------------------------------ the callbacks */

/* Every switch's new LFT from the sweep's routing (OpenSM set them all to "no path" before). */
static void write_lfts(const struct engine *e)
{
	const struct lanes_fabric *f = e->sweep.f;

	for (uint32_t s = 0; s < f->num_switches; s++) {
		osm_switch_t *sw = e->sweep.node[f->switches[s]]->sw;
		uint32_t top = f->max_lid < sw->max_lid_ho ? f->max_lid : sw->max_lid_ho;

		for (uint32_t lid = 1; lid <= top; lid++)
			sw->new_lft[lid] = lanes_routing_port(e->sweep.r, s, lid);
	}
}

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The sweep: fabric, routing, VL room, verifier. @return 0, or -1 (logged) */
static int route_sweep(struct engine *e)
{
	struct plugin *p = e->plugin;
	struct lanes_error err;
	unsigned room;

	if (lanes_osm_sweep_build(&p->osm->subn, &e->sweep, &err) ||
	    lanes_route(e->lanes, e->sweep.f, &p->route, &e->sweep.r, &err)) {
		LOG(p, OSM_LOG_ERROR, "ERR: %s: %s\n", e->name, err.message);
		return -1;
	}
	room = vl_capacity(&e->sweep, &p->osm->subn);
	if (e->sweep.r->num_vls > room) {
		LOG(p, OSM_LOG_ERROR, "ERR: %s: refused: the routing needs %u VLs, the ports hold %u "
		    "(VLCap, max_op_vls)\n", e->name, e->sweep.r->num_vls, room);
		return -1;
	}
	return p->verify && !verified(e) ? -1 : 0;
}

static int build_fwd_tables(void *ctx)
{
	struct engine *e = ctx;
	double t0 = seconds();
	struct rusage ru;

	lanes_osm_sweep_free(&e->sweep);
	if (route_sweep(e)) {
		lanes_osm_sweep_free(&e->sweep);
		return -1;
	}
	write_lfts(e);
	getrusage(RUSAGE_SELF, &ru);
	LOG(e->plugin, OSM_LOG_INFO, "%s: %u switches, %u endpoints, LIDs up to %u: %u VL(s), %u SL(s), "
	    "%s, %.3f s, LFTs %.1f MB, OpenSM's peak RSS %.1f MB\n", e->name, e->sweep.f->num_switches,
	    e->sweep.f->num_cas, e->sweep.f->max_lid, e->sweep.r->num_vls, e->sweep.r->num_sls,
	    e->plugin->verify ? "verified" : "not verified (verify=no)", seconds() - t0,
	    (double)e->sweep.r->num_lids * e->sweep.r->num_switches / 1048576.0,
	    (double)ru.ru_maxrss / 1024.0);
	return 0;
}

/* The SL of every path from the sweep's routing; the hint where it has none. */
static uint8_t path_sl(void *ctx, uint8_t hint, const ib_net16_t slid, const ib_net16_t dlid)
{
	const struct engine *e = ctx;
	uint32_t src = cl_ntoh16(slid), dst = cl_ntoh16(dlid);

	if (!e->sweep.r || !src || !dst || src > e->sweep.f->max_lid || dst > e->sweep.f->max_lid)
		return hint;
	return lanes_routing_sl(e->sweep.r, e->sweep.f, src, dst);
}

/* A switch's (in port, out port) map, or a CA or router port's, from the sweep's routing. */
static void update_sl2vl(void *ctx, osm_physp_t *port, uint8_t in, uint8_t out, ib_slvl_table_t *t)
{
	const struct engine *e = ctx;
	const struct lanes_fabric *f = e->sweep.f;
	uint32_t i = e->sweep.r ? lanes_osm_sweep_find(&e->sweep, osm_physp_get_node_ptr(port)) : LANES_NONE;
	const uint8_t *map;

	if (i == LANES_NONE)
		return;
	if (f->nodes[i].switch_index != LANES_NONE)
		map = lanes_routing_switch_map(e->sweep.r, f, f->nodes[i].switch_index, in, out);
	else
		map = lanes_routing_port_map(e->sweep.r, f, i, osm_physp_get_port_num(port));
	for (unsigned k = 0; k < 8; k++)
		t->raw_vl_by_sl[k] = (uint8_t)((map[2 * k] & 0xF) << 4 | (map[2 * k + 1] & 0xF));
}

/* OpenSM calls it for each mention of the name; the sweep stays until the plugin goes. */
static void engine_destroy(void *ctx)
{
	struct engine *e = ctx;

	lanes_osm_sweep_free(&e->sweep);
}

static int engine_setup(struct osm_routing_engine *re, struct osm_opensm *osm)
{
	(void)osm;
	re->ucast_build_fwd_tables = build_fwd_tables;
	re->path_sl = path_sl;
	re->update_sl2vl = update_sl2vl;
	re->destroy = engine_destroy;
	return 0;
}

/* ------------------------------------------------------------ the plugin */

static void plugin_free(struct plugin *p)
{
	for (size_t i = 0; p && i < p->num_engines; i++)
		lanes_osm_sweep_free(&p->engines[i].sweep);
	if (p) {
		free(p->engines);
		free(p->roots);
	}
	free(p);
}

/* lanes-<engine> for every lanes engine. @return 0, or -1 (logged) */
static int register_engines(struct plugin *p)
{
	while (lanes_engine_at(p->num_engines))
		p->num_engines++;
	if (!(p->engines = calloc(p->num_engines, sizeof(*p->engines))))
		return -1;
	for (size_t i = 0; i < p->num_engines; i++) {
		struct engine *e = &p->engines[i];

		e->plugin = p;
		e->lanes = lanes_engine_at(i);
		snprintf(e->name, sizeof(e->name), "lanes-%s", e->lanes->name);
		e->module = (external_routing_engine_module_t){ e->name, engine_setup, e };
		if (osm_register_external_routing_engine(p->osm, &e->module, e) != CL_SUCCESS) {
			LOG(p, OSM_LOG_ERROR, "ERR: cannot register routing engine '%s'\n", e->name);
			return -1;
		}
	}
	return 0;
}

static void *plugin_create(struct osm_opensm *osm)
{
	struct plugin *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->osm = osm;
	if (parse_options(p, osm->subn.opt.event_plugin_options) || register_engines(p)) {
		plugin_free(p);
		return NULL;
	}
	LOG(p, OSM_LOG_INFO, "%zu engines registered (lanes-%s ... lanes-%s)\n", p->num_engines,
	    p->engines[0].lanes->name, p->engines[p->num_engines - 1].lanes->name);
	return p;
}

static void plugin_delete(void *data)
{
	plugin_free(data);
}

static void plugin_report(void *data, osm_epi_event_id_t id, void *event)
{
	(void)data;
	(void)id;
	(void)event;
}

/* OpenSM loads this by name; it refuses a plugin built for another OpenSM version. */
const struct osm_event_plugin osm_event_plugin = {
	OSM_VERSION,
	plugin_create,
	plugin_delete,
	plugin_report,
};
