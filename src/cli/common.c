/*
 * common.c - error printing, option values, fabric and table loading, and
 * engine lists for `lanes`.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "cli.h"
#include "progress.h"
#include "lanes/dump.h"
#include "lanes/io.h"
#include "lanes/route.h"
#include "lanes/topo.h"
#include "lanes/verify.h"

#define MAX_WARNINGS_SHOWN 20

int cli_fail(const struct lanes_error *err)
{
	char buf[1024];

	cli_progress_clear_active();
	fprintf(stderr, "lanes: %s\n", lanes_error_format(err, buf, sizeof(buf)));
	return err->code == LANES_ENOMEM ? EXIT_FINDING : EXIT_USAGE;
}

int cli_out_of_memory(void)
{
	cli_progress_clear_active();
	fputs("lanes: out of memory\n", stderr);
	return EXIT_FINDING;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	cli_progress_clear_active();
	fputs("lanes: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

const char *cli_duration(double seconds, char *buf, size_t n)
{
	static const struct { double scale; const char *unit; } units[] = {
		{ 1e6, "\u00b5s" }, { 1e3, "ms" }, { 1, "s" } };
	size_t u = seconds < 1e-3 ? 0 : seconds < 1 ? 1 : 2;
	double v = seconds * units[u].scale;

	/* three significant digits: 85.2, 2.34, 190 (rounding may reach 1000: it stays) */
	snprintf(buf, n, "%.*f %s", v < 9.995 ? 2 : v < 99.95 ? 1 : 0, v, units[u].unit);
	return buf;
}

int cli_parse_amount(const char *opt, const char *value, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(value, &end);
	if (errno || end == value || *end || !(*out >= 0) || isinf(*out) ||
	    (*out >= 1 && *out != floor(*out)))
		return cli_usage_error("--%s: expected a count or a fraction in [0, 1), not '%s'",
				       opt, value);
	return 0;
}

/*
 * Decimal only: base 0 would read "010" as 8 and refuse "08", which no one
 * typing a seed means. strtoull() would also take blanks, a sign and a
 * negated value, so the first character must be a digit.
 */
int cli_parse_u64(const char *opt, const char *value, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(value, &end, 10);
	if (errno || end == value || *end || value[0] < '0' || value[0] > '9')
		return cli_usage_error("--%s: expected a non-negative integer, not '%s'", opt,
				       value);
	return 0;
}

/* The option's name as a user types it: "--output (-o)", "--json" or "-o". */
static void option_name(int c, const char *shortopts, const struct option *longopts, char *buf,
			size_t n)
{
	int has_short = c > ' ' && c < 127 && strchr(shortopts, c);

	for (const struct option *o = longopts; o->name; o++)
		if (!o->flag && o->val == c) {
			if (has_short)
				snprintf(buf, n, "--%s (-%c)", o->name, c);
			else
				snprintf(buf, n, "--%s", o->name);
			return;
		}
	snprintf(buf, n, "-%c", has_short ? c : '?');
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
	       struct cli_seen *seen)
{
	int c = getopt_long(argc, argv, shortopts, longopts, NULL);
	char name[64];

	if (c == -1 || c == '?' || c == ':' || c == 'h' || c == 'W' || c == 'X')
		return c; /* --help, --fail-link and --fail-switch may repeat */
	if (cli_seen_has(seen, c)) {
		option_name(c, shortopts, longopts, name, sizeof(name));
		cli_usage_error("%s given twice", name);
		return CLI_OPT_TWICE;
	}
	if (seen->n < (int)(sizeof(seen->opt) / sizeof(seen->opt[0])))
		seen->opt[seen->n++] = c;
	return c;
}

int cli_seen_has(const struct cli_seen *seen, int c)
{
	for (int i = 0; i < seen->n; i++)
		if (seen->opt[i] == c)
			return 1;
	return 0;
}

/* "512M", "16G", "2T" or bytes; 0 or EXIT_USAGE (printed). */
static int parse_size(const char *opt, const char *arg, uint64_t *out)
{
	static const char units[] = "KMGT";
	char *end;
	double v;
	const char *u;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || !(v > 0) || (*end && (end[1] || !(u = strchr(units, *end)))))
		return cli_usage_error("--%s: expected a size such as 512M or 16G, not '%s'", opt, arg);
	for (const char *k = units; *end && k <= u; k++)
		v *= 1024;
	*out = v >= 1.8e19 ? UINT64_MAX : (uint64_t)v;
	return 0;
}

/* MemAvailable from /proc/meminfo, bytes; 0 when it cannot be read. */
static uint64_t mem_available(void)
{
	FILE *fp = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (fp)
		fclose(fp);
	return (uint64_t)kb * 1024;
}

/*
 * "1.6 TiB", "21.5 GiB", "459 MiB", "2.0 KiB": in the binary units
 * --max-memory reads (16G is 16 GiB), with a decimal below 100 so that
 * two sizes that differ do not print alike.
 */
static const char *bytes_text(double b, char *buf, size_t n)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };
	size_t u = 0;

	while (b >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		b /= 1024;
		u++;
	}
	snprintf(buf, n, u && b < 100 ? "%.1f %s" : "%.0f %s", b, units[u]);
	return buf;
}

/*
 * Refuse (EXIT_FINDING) when need bytes exceed the bound; what: "the tables
 * of ...", plural (the verb follows it).
 */
static int check_bound(const char *cmd, const char *what, int plural, double need,
		       const struct cli_fabric_opts *opts)
{
	uint64_t have = opts->max_memory ? opts->max_memory : mem_available();
	char a[32], b[32];

	if (!have || need <= (double)have)
		return 0;
	cli_progress_clear_active();
	fprintf(stderr, "lanes: %s: %s need%s about %s, more than the %s %s; --max-memory SIZE "
		"sets the bound\n", cmd ? cmd : "lanes", what, plural ? "" : "s",
		bytes_text(need, a, sizeof(a)),
		bytes_text((double)have, b, sizeof(b)),
		opts->max_memory ? "of --max-memory" : "this machine has available");
	return EXIT_FINDING;
}

int cli_check_memory_of(const char *cmd, const struct lanes_fabric *f,
			const struct cli_fabric_opts *opts, unsigned copies,
			const struct lanes_engine *const *engines, size_t n,
			const struct lanes_route_opts *ro)
{
	const struct lanes_engine *most = NULL;
	double scratch = 0;
	char what[160];

	for (size_t i = 0; i < n; i++) { /* each estimate once: dfsssp's searches the fabric */
		double bytes = engines[i] && engines[i]->scratch_bytes
				       ? (double)engines[i]->scratch_bytes(f, ro) : 0;

		if (bytes > scratch) {
			scratch = bytes;
			most = engines[i];
		}
	}
	snprintf(what, sizeof(what), "the tables of %u switches x %u LIDs%s%s%s", f->num_switches,
		 f->max_lid, most ? " and " : "", most ? most->name : "",
		 most ? "'s own arrays" : "");
	return check_bound(cmd, what, 1,
			   (double)f->num_switches * (f->max_lid + 1) * copies + scratch, opts);
}

int cli_check_memory(const char *cmd, const struct lanes_fabric *f,
		     const struct cli_fabric_opts *opts, unsigned copies,
		     const struct lanes_engine *e, const struct lanes_route_opts *ro)
{
	return cli_check_memory_of(cmd, f, opts, copies, &e, 1, ro);
}

const struct lanes_engine *cli_engine_named(const char *spec)
{
	char name[64];

	if (!spec)
		return NULL;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(spec, ":"), spec);
	return lanes_engine_find(name);
}

/*
 * A fabric's own memory per switch and per CA port while it is built: the
 * node, its ports, cables, adjacency and the builder's copies. Measured peaks
 * (topo info, gcc -O2): hypercube n=16 p=200, 13.2 million nodes, 2.69 GB
 * (204 B each); torus k=40x40x20 p=1, 64,000 nodes, 21.5 MB with the
 * program's 5 MB (260 B each). Rounded up.
 */
#define FABRIC_BYTES_PER_NODE 260.0

/*
 * Before generating: the fabric a spec describes (lanes_topo_measure) and,
 * when the command routes, its tables (opts->table_copies, as
 * cli_check_memory counts them, with one LID per port), against the bound.
 * 0 or EXIT_FINDING; a spec the measure refuses is left to the generator,
 * which says why.
 */
static int check_spec_memory(int nwords, char **words, const struct cli_fabric_opts *opts)
{
	struct lanes_topo_size size;
	struct lanes_error err;
	double nodes, need;
	char what[192];

	if (lanes_topo_measure(words[0], (size_t)nwords - 1, (const char *const *)(words + 1),
			       &size, &err))
		return 0;
	nodes = (double)size.switches + (double)size.host_ports;
	need = nodes * FABRIC_BYTES_PER_NODE + (double)size.switches * (nodes + 1) * opts->table_copies;
	snprintf(what, sizeof(what), "the %s fabric (%llu switches, %llu CA ports)%s", words[0],
		 (unsigned long long)size.switches, (unsigned long long)size.host_ports,
		 opts->table_copies ? " and its tables" : "");
	return check_bound(opts->cmd, what, opts->table_copies > 0, need, opts);
}

void cli_fabric_opts_init(struct cli_fabric_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->seed = 1;
}

/* --fail-link and --fail-switch: kept as given, resolved once the fabric is read. */
static int named_fault(const char *opt, const char *arg, const char **list, int *n,
		       struct cli_fabric_opts *opts)
{
	if (*n == CLI_MAX_NAMED_FAULTS)
		return cli_usage_error("--%s: more than %d", opt, CLI_MAX_NAMED_FAULTS), -1;
	list[(*n)++] = arg;
	opts->faults = 1;
	return 1;
}

int cli_fabric_option(int opt, const char *arg, struct cli_fabric_opts *opts)
{
	switch (opt) {
	case 'M':
		opts->name_map = arg;
		return 1;
	case 'q':
		opts->quiet = 1;
		return 1;
	case 'Y':
		return parse_size("max-memory", arg, &opts->max_memory) ? -1 : 1;
	case 'W':
		return named_fault("fail-link", arg, opts->fail_link, &opts->num_fail_link, opts);
	case 'X':
		return named_fault("fail-switch", arg, opts->fail_switch, &opts->num_fail_switch,
				   opts);
	case 'F':
		opts->format = arg;
		return 1;
	case 'L':
		opts->faults = 1;
		return cli_parse_amount("fail-links", arg, &opts->fail_links) ? -1 : 1;
	case 'S':
		opts->faults = 1;
		return cli_parse_amount("fail-switches", arg, &opts->fail_switches) ? -1 : 1;
	case 's':
		return cli_parse_u64("fault-seed", arg, &opts->seed) ? -1 : 1;
	default:
		return 0;
	}
}

static void print_warnings(const char *what, const struct lanes_fabric *f)
{
	cli_progress_clear_active();
	for (uint32_t i = 0; i < f->num_warnings && i < MAX_WARNINGS_SHOWN; i++)
		fprintf(stderr, "lanes: warning: %s\n", f->warnings[i]);
	if (f->num_warnings > MAX_WARNINGS_SHOWN)
		fprintf(stderr, "lanes: warning: %s: %u more warnings not shown\n", what,
			f->num_warnings - MAX_WARNINGS_SHOWN);
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISDIR(st.st_mode);
}

/* A node by GUID (0x...) or by its description, which must name one node. */
static uint32_t node_named(const struct lanes_fabric *f, const char *opt, const char *name,
			   size_t len)
{
	uint32_t found = LANES_NONE, count = 0;
	char *end;

	if (len > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
		uint64_t guid = strtoull(name + 2, &end, 16);

		if (end == name + len && (found = lanes_fabric_find_guid(f, guid)) != LANES_NONE)
			return found;
	}
	for (uint32_t i = 0; i < f->num_nodes; i++)
		if (strlen(f->nodes[i].desc) == len && !memcmp(f->nodes[i].desc, name, len) &&
		    !count++)
			found = i;
	if (count == 1)
		return found;
	cli_usage_error("--%s: '%.*s' %s", opt, (int)len, name,
			count ? "names more than one node; give its GUID"
			      : "is neither a GUID nor a node description of the fabric");
	return LANES_NONE;
}

/* GUID/PORT or NAME/PORT (the last '/': names hold slashes) to a port. */
static int cable_named(const struct lanes_fabric *f, const char *arg, struct lanes_fault_port *out)
{
	const char *slash = strrchr(arg, '/');
	uint64_t port;
	uint32_t node;

	if (!slash || cli_parse_u64("fail-link", slash + 1, &port))
		return slash ? EXIT_USAGE : cli_usage_error("--fail-link: '%s' is not GUID/PORT "
							    "or NAME/PORT", arg);
	if ((node = node_named(f, "fail-link", arg, (size_t)(slash - arg))) == LANES_NONE)
		return EXIT_USAGE;
	if (port < 1 || port > f->nodes[node].nports)
		return cli_usage_error("--fail-link: '%s' has ports 1..%u, not %llu",
				       f->nodes[node].desc, f->nodes[node].nports,
				       (unsigned long long)port);
	*out = (struct lanes_fault_port){ f->nodes[node].guid, (uint8_t)port };
	return 0;
}

static const char *desc_of(const struct lanes_fabric *f, uint64_t guid)
{
	uint32_t n = lanes_fabric_find_guid(f, guid);

	return n == LANES_NONE ? "" : f->nodes[n].desc;
}

static struct json_object *guid_json(uint64_t guid)
{
	char hex[24];

	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)guid);
	return json_object_new_string(hex);
}

/* [[GUID, port], [GUID, port]]: a cable by its two ends. */
static struct json_object *cable_json(const struct lanes_fault_cable *c)
{
	struct json_object *j = json_object_new_array(), *a = json_object_new_array(),
			   *b = json_object_new_array();

	json_object_array_add(a, guid_json(c->guid_a));
	json_object_array_add(a, json_object_new_int(c->port_a));
	json_object_array_add(b, guid_json(c->guid_b));
	json_object_array_add(b, json_object_new_int(c->port_b));
	json_object_array_add(j, a);
	json_object_array_add(j, b);
	return j;
}

struct json_object *cli_faults_json(const struct cli_fabric_opts *opts)
{
	const struct lanes_fault_list *r = &opts->removed;
	struct json_object *x = json_object_new_object(), *sw = json_object_new_array(),
			   *cas = json_object_new_array(), *cables = json_object_new_array();

	json_object_object_add(x, "seed", json_object_new_int64((int64_t)opts->seed));
	json_object_object_add(x, "links_removed", json_object_new_int64(opts->report.links_removed));
	json_object_object_add(x, "switches_removed",
			       json_object_new_int64(opts->report.switches_removed));
	json_object_object_add(x, "cas_removed", json_object_new_int64(opts->report.cas_removed));
	for (uint32_t i = 0; i < r->num_switches; i++)
		json_object_array_add(sw, guid_json(r->switches[i]));
	for (uint32_t i = 0; i < r->num_cas; i++)
		json_object_array_add(cas, guid_json(r->cas[i]));
	for (uint32_t i = 0; i < r->num_cables; i++)
		json_object_array_add(cables, cable_json(&r->cables[i]));
	json_object_object_add(x, "switches", sw);
	json_object_object_add(x, "cas", cas);
	json_object_object_add(x, "cables", cables);
	return x;
}

/* On stderr: the counts, and each part removed (the first 20 of each kind). */
static void print_faults(const struct lanes_fabric *f, const struct cli_fabric_opts *opts,
			 const struct lanes_fault_list *l)
{
	const struct lanes_fault_report *r = &opts->report;

	fprintf(stderr, "lanes: faults (seed %llu): removed %u cables, %u switches, %u CAs\n",
		(unsigned long long)opts->seed, r->links_removed, r->switches_removed,
		r->cas_removed);
	for (uint32_t i = 0; i < l->num_switches && i < MAX_WARNINGS_SHOWN; i++)
		fprintf(stderr, "lanes:   switch 0x%016llx '%s'\n", (unsigned long long)l->switches[i],
			desc_of(f, l->switches[i]));
	for (uint32_t i = 0; i < l->num_cas && i < MAX_WARNINGS_SHOWN; i++)
		fprintf(stderr, "lanes:   CA 0x%016llx '%s' (cabled only to removed switches)\n",
			(unsigned long long)l->cas[i], desc_of(f, l->cas[i]));
	for (uint32_t i = 0; i < l->num_cables && i < MAX_WARNINGS_SHOWN; i++)
		fprintf(stderr, "lanes:   cable 0x%016llx/%u '%s' - 0x%016llx/%u '%s'\n",
			(unsigned long long)l->cables[i].guid_a, l->cables[i].port_a,
			desc_of(f, l->cables[i].guid_a), (unsigned long long)l->cables[i].guid_b,
			l->cables[i].port_b, desc_of(f, l->cables[i].guid_b));
	if (l->num_switches > MAX_WARNINGS_SHOWN || l->num_cas > MAX_WARNINGS_SHOWN ||
	    l->num_cables > MAX_WARNINGS_SHOWN)
		fprintf(stderr, "lanes:   (%d of each kind shown; `lanes topo info --json` lists all)\n",
			MAX_WARNINGS_SHOWN);
}

/* --node-name-map: *f with the map's names (before faults: they may use them). */
static int apply_name_map(const char *path, struct lanes_fabric **f)
{
	struct lanes_fabric *named;
	struct lanes_error err;

	if (lanes_io_apply_name_map(*f, path, &named, &err)) {
		lanes_fabric_free(*f);
		*f = NULL;
		return cli_fail(&err);
	}
	lanes_fabric_free(*f);
	*f = named;
	return 0;
}

static int apply_faults(struct cli_fabric_opts *opts, struct lanes_fabric **f)
{
	uint64_t guids[CLI_MAX_NAMED_FAULTS];
	struct lanes_fault_port ports[CLI_MAX_NAMED_FAULTS];
	struct lanes_fault_spec spec = { opts->fail_links, opts->fail_switches, opts->seed };
	struct lanes_fault_names names = { guids, (uint32_t)opts->num_fail_switch, ports,
					   (uint32_t)opts->num_fail_link };
	struct lanes_fabric *faulty;
	struct lanes_error err;
	uint32_t node;

	for (int i = 0; i < opts->num_fail_switch; i++) {
		if ((node = node_named(*f, "fail-switch", opts->fail_switch[i],
				       strlen(opts->fail_switch[i]))) == LANES_NONE)
			return EXIT_USAGE;
		guids[i] = (*f)->nodes[node].guid;
	}
	for (int i = 0; i < opts->num_fail_link; i++)
		if (cable_named(*f, opts->fail_link[i], &ports[i]))
			return EXIT_USAGE;
	if (lanes_fabric_remove_faults(*f, &spec, &names, &faulty, &opts->report, &opts->removed,
				       &err))
		return cli_fail(&err);
	print_faults(*f, opts, &opts->removed);
	if (!opts->keep_removed)
		lanes_fault_list_free(&opts->removed);
	lanes_fabric_free(*f);
	*f = faulty;
	return 0;
}

#define SPEC_WORDS 64

/* A generator spec given as one quoted word ("torus k=4x4 p=2"): its words. */
static int load_quoted_spec(const char *spec, struct cli_fabric_opts *opts,
			    struct lanes_fabric **out)
{
	char *copy = strdup(spec), *words[SPEC_WORDS], *save = NULL;
	int n = 0, rc;

	if (!copy)
		return cli_out_of_memory();
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n == SPEC_WORDS) {
			free(copy);
			return cli_usage_error("'%s': more than %d words", spec, SPEC_WORDS);
		}
		words[n++] = w;
	}
	rc = cli_load_fabric(n, words, opts, out);
	free(copy);
	return rc;
}

int cli_load_fabric(int nwords, char **words, struct cli_fabric_opts *opts,
		    struct lanes_fabric **out)
{
	struct lanes_error err;
	int rc;

	*out = NULL;
	if (nwords == 1 && !exists(words[0]) && strpbrk(words[0], " \t"))
		return load_quoted_spec(words[0], opts, out);
	if (nwords < 1)
		return cli_usage_error("missing FABRIC (a file, or a generator spec)");
	/* a directory is read (and refused as one) unless it is named like a generator */
	if (!exists(words[0]) && !lanes_generator_find(words[0]) && !strchr(words[0], '/') &&
	    strcmp(words[0], "-"))
		return cli_usage_error("'%s' is neither a file nor a topology generator "
				       "(see `lanes topo list`)", words[0]);
	if (is_file(words[0]) || !lanes_generator_find(words[0])) {
		if (nwords > 1)
			return cli_usage_error("unexpected argument '%s' after the fabric file",
					       words[1]);
		rc = lanes_io_read_file(words[0], opts->format, out, &err);
	} else if (opts->format) {
		return cli_usage_error("--format %s names the format of a fabric file, and '%s' "
				       "is a generator spec (for the output format, see --to)",
				       opts->format, words[0]);
	} else if ((rc = check_spec_memory(nwords, words, opts))) {
		return rc;
	} else {
		rc = lanes_topo_generate(words[0], (size_t)nwords - 1,
					 (const char *const *)(words + 1), out, &err);
	}
	if (rc)
		return cli_fail(&err);
	print_warnings(words[0], *out);
	if (opts->name_map && (rc = apply_name_map(opts->name_map, out)))
		return rc;
	if (opts->faults && (rc = apply_faults(opts, out))) {
		lanes_fabric_free(*out);
		*out = NULL;
	}
	return rc;
}

int cli_fabric_connected(const struct lanes_fabric *f, int warn)
{
	uint32_t switch_parts, parts;
	struct lanes_error err;

	if (lanes_fabric_components(f, &switch_parts, &parts, &err))
		return 1; /* out of memory for a warning: the command goes on and fails where it must */
	if (parts > 1 && warn)
		cli_progress_clear_active();
	if (parts > 1 && warn)
		fprintf(stderr, "lanes: warning: the fabric is not connected (%u components, %u of "
			"them with switches): pairs in different components cannot be routed\n",
			parts, switch_parts);
	return parts <= 1;
}

int cli_verify_option(int c, const char *arg, struct lanes_verify_opts *o)
{
	uint64_t v;

	switch (c) {
	case 'a':
		o->all_traffic = 1;
		return 1;
	case 'b':
		if (cli_parse_u64("ebb-patterns", arg, &v)) /* it said why */
			return -1;
		if (v > 100000) {
			cli_usage_error("--ebb-patterns must be 0..100000, not %llu", (unsigned long long)v);
			return -1;
		}
		o->ebb_patterns = (uint32_t)v;
		return 1;
	case 'B':
		return cli_parse_u64("ebb-seed", arg, &o->seed) ? -1 : 1;
	default:
		return 0;
	}
}

int cli_fabric_route_verify_option(int c, const char *arg, struct cli_fabric_opts *fo,
				   struct lanes_route_opts *ro, const char **engine,
				   struct lanes_verify_opts *vo)
{
	int rc;

	if ((rc = cli_fabric_option(c, arg, fo)) || (rc = cli_route_option(c, arg, ro, engine)))
		return rc;
	return cli_verify_option(c, arg, vo);
}

/* The engine (with its parameters) named by s[0..len) into c; EXIT_USAGE printed, naming -e. */
static int one_engine(const char *cmd, const char *list, const char *s, size_t len,
		      struct cli_engine_choice *c)
{
	char what[64];

	if (!len)
		return cli_usage_error("%s: -e: empty engine name in '%s' (engines are separated "
				       "by single commas, with none at either end)", cmd, list);
	snprintf(what, sizeof(what), "%s: -e", cmd);
	if (cli_engine_spec(what, s, len, &c->e, c->params, sizeof(c->params)))
		return EXIT_USAGE;
	snprintf(c->label, sizeof(c->label), "%.*s", (int)len, s);
	return 0;
}

int cli_pick_engines(const char *cmd, const char *list, struct cli_engine_choice *out, size_t *n)
{
	const char *s = list;

	*n = 0;
	if (!list || !strcmp(list, "all")) {
		while (*n < CLI_MAX_ENGINES && lanes_engine_at(*n)) {
			out[*n].e = lanes_engine_at(*n);
			out[*n].params[0] = 0;
			snprintf(out[*n].label, sizeof(out[*n].label), "%s", out[*n].e->name);
			(*n)++;
		}
		return 0;
	}
	for (;;) {
		size_t len = strcspn(s, ",");

		if (*n == CLI_MAX_ENGINES)
			return cli_usage_error("%s: -e: more than %d engines", cmd, CLI_MAX_ENGINES);
		if (one_engine(cmd, list, s, len, &out[*n]))
			return EXIT_USAGE;
		for (size_t i = 0; i < *n; i++)
			if (!strcmp(out[i].label, out[*n].label))
				return cli_usage_error("%s: -e: '%s' is named twice", cmd, out[i].label);
		(*n)++;
		if (!s[len])
			return 0;
		s += len + 1; /* past the comma: "a," ends with an empty name */
	}
}

int cli_split_fabric_dir(const char *cmd, int n, char **w, char ***words, int *nwords,
			 const char **dir)
{
	struct stat st;
	int k = 1;

	*dir = NULL;
	if (n < 1)
		return cli_usage_error("%s: missing FABRIC", cmd);
	if (stat(w[0], &st) && lanes_generator_find(w[0]))
		while (k < n && strchr(w[k], '='))
			k++;
	*words = w;
	*nwords = k;
	if (k < n)
		*dir = w[k++];
	return k < n ? cli_usage_error("%s: unexpected argument '%s' (expected FABRIC [DIR]%s)", cmd,
				       w[k], strcmp(cmd, "trace") ? "" : " SRC DST: the last two "
				       "are SRC and DST") : 0;
}

typedef int (*dump_reader)(const char *, const struct lanes_fabric *, struct lanes_routing *,
			   struct lanes_progress *, struct lanes_error *);

static int read_into(const char *path, dump_reader rd, const struct lanes_fabric *f,
		     struct lanes_routing *r, struct lanes_progress *progress)
{
	struct lanes_error err;

	return rd(path, f, r, progress, &err) ? cli_fail(&err) : 0;
}

/*
 * DIR/name, or DIR/name.zst or DIR/name.gz (route --compress), if one
 * exists; else NULL. Two of them are refused (*twice set, the message
 * printed): which one is the routing's cannot be told.
 */
static const char *in_dir(const char *cmd, const char *dir, const char *name, char *buf, size_t n,
			  int *twice)
{
	static const char *const suffixes[] = { "", ".zst", ".gz" };
	const char *found = NULL;
	struct stat st;

	for (size_t i = 0; dir && i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char path[4096 + 64];

		size_t len = (size_t)snprintf(path, sizeof(path), "%s/%s%s", dir, name, suffixes[i]);

		if (len >= n || stat(path, &st))
			continue;
		if (found && twice) {
			*twice = cli_usage_error("%s: %s holds both %s and %s: one routing each; "
						 "remove the other", cmd, dir, found, path);
			return NULL;
		}
		memcpy(buf, path, len + 1);
		found = buf;
	}
	return found;
}

/* A switch port the tables send packets out of that has no cable in f. */
static const char *uncabled_port(const struct lanes_fabric *f, const struct lanes_routing *r,
				 char *buf, size_t n)
{
	for (uint32_t s = 0; s < f->num_switches; s++) {
		uint32_t node = f->switches[s];

		for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
			uint8_t p = lanes_routing_port(r, s, lid);

			if (p && p != LANES_PORT_DROP && p <= f->nodes[node].nports &&
			    lanes_fabric_port(f, node, p)->peer_node == LANES_NONE) {
				snprintf(buf, n, "switch 0x%016llx '%s' sends LID %u out of port %u, "
					 "which has no cable in this fabric",
					 (unsigned long long)f->nodes[node].guid, f->nodes[node].desc,
					 lid, p);
				return buf;
			}
		}
	}
	return NULL;
}

/*
 * The first difference between the fabric and the LFT dump of another one:
 * the reader's message (it checks every table's switch and every LID's port
 * GUID against the fabric), else a port the tables use that has no cable
 * here; NULL when none shows.
 */
static const char *first_difference(const char *lfts, const struct lanes_fabric *f,
				    char *buf, size_t n)
{
	struct lanes_routing *r = NULL;
	struct lanes_error err;
	const char *said = NULL;

	if (!lfts || lanes_routing_new(f, &r, &err))
		return NULL;
	if (lanes_lfts_read_file(lfts, f, r, NULL, &err))
		said = err.code != LANES_ENOMEM ? lanes_error_format(&err, buf, n) : NULL;
	else
		said = uncabled_port(f, r, buf, n);
	lanes_routing_free(r);
	return said;
}

/* report.json's sizes against the fabric's, when they differ: "9 CAs there, 18 here". */
static const char *size_difference(struct json_object *report, const struct lanes_fabric *f,
				   char *buf, size_t n)
{
	static const char *const keys[] = { "switches", "cas", "max_lid" };
	static const char *const what[] = { "switches", "CAs", "as the highest LID" };
	const uint64_t here[] = { f->num_switches, f->num_cas, f->max_lid };
	struct json_object *v;

	for (int i = 0; i < 3; i++)
		if (json_object_object_get_ex(report, keys[i], &v) &&
		    (uint64_t)json_object_get_int64(v) != here[i]) {
			snprintf(buf, n, "the routing is for %lld %s, this fabric has %llu",
				 (long long)json_object_get_int64(v), what[i],
				 (unsigned long long)here[i]);
			return buf;
		}
	return NULL;
}

/*
 * DIR/report.json, or NULL with *rc 0 when DIR has none (said: the dumps are
 * then only checked LID by LID) or *rc an exit code (printed).
 */
static struct json_object *read_report(const char *cmd, const char *dir, char *path, size_t n,
				       int *rc)
{
	struct json_object *report;
	struct lanes_error err;
	char *text = NULL;
	size_t len = 0;

	*rc = 0;
	if (!in_dir(cmd, dir, "report.json", path, n, rc)) {
		if (!*rc) {
			cli_progress_clear_active();
			fprintf(stderr, "lanes: note: %s has no report.json (not written by `lanes "
				"route`): the dumps are checked against the fabric LID by LID only\n",
				dir);
		}
		return NULL;
	}
	if (lanes_io_slurp(path, &text, &len, &err)) {
		*rc = cli_fail(&err);
		return NULL;
	}
	if (!(report = json_tokener_parse(text)) || !json_object_is_type(report, json_type_object)) {
		json_object_put(report);
		report = NULL;
		*rc = cli_usage_error("%s: %s: not the JSON route writes (cut or corrupt?)", cmd, path);
	}
	free(text);
	return report;
}

/* Why the fingerprints may differ when fault options differ: "" when they agree. */
static const char *faults_note(struct json_object *report, const struct cli_fabric_opts *fo)
{
	int made_with = json_object_object_get_ex(report, "faults", NULL);

	if (made_with && !fo->faults)
		return " (report.json says the routing was made with faults removed: give the "
		       "same --fail-* options and --fault-seed)";
	if (!made_with && fo->faults)
		return " (the routing was made for the whole fabric; the --fail-* options removed "
		       "parts of it here)";
	return "";
}

/*
 * DIR/report.json (written by `lanes route`) names the fabric the routing
 * was computed for by three fingerprints; a routing of another fabric, or
 * of an older state of this one, is refused with the part that differs and
 * the first difference the LFT dump shows.
 */
static int check_fingerprint(const char *cmd, const char *dir, const char *lfts,
			     const struct lanes_fabric *f, const struct cli_fabric_opts *fo)
{
	static const char *const parts[] = { "nodes", "lids", "cables" };
	static const char *const what[] = { "nodes or port GUIDs", "LIDs", "cables" };
	char path[4096 + 16], here[3][24], first[1024];
	struct lanes_fingerprint fp;
	struct json_object *report, *fab = NULL, *v;
	const char *diff;
	int rc;

	if (!(report = read_report(cmd, dir, path, sizeof(path), &rc)))
		return rc;
	lanes_fabric_fingerprint(f, &fp);
	snprintf(here[0], sizeof(here[0]), "0x%016llx", (unsigned long long)fp.nodes);
	snprintf(here[1], sizeof(here[1]), "0x%016llx", (unsigned long long)fp.lids);
	snprintf(here[2], sizeof(here[2]), "0x%016llx", (unsigned long long)fp.cables);
	if (!json_object_object_get_ex(report, "fabric", &fab))
		fprintf(stderr, "lanes: warning: %s has no fabric fingerprint (written by an older "
			"lanes): not checked against the fabric\n", path);
	for (int i = 0; i < 3 && !rc && fab; i++) {
		const char *there = json_object_object_get_ex(fab, parts[i], &v) &&
					    json_object_is_type(v, json_type_string)
					    ? json_object_get_string(v) : "(none)";

		if (!strcmp(there, here[i]))
			continue;
		if (!(diff = first_difference(lfts, f, first, sizeof(first))))
			diff = size_difference(report, f, first, sizeof(first));
		rc = cli_usage_error("%s: %s: the routing was computed for another fabric%s: its %s "
				     "differ (fingerprint %s there, %s here); %s%s; route this "
				     "fabric, or give the one the routing is for", cmd, path,
				     faults_note(report, fo), what[i], there, here[i],
				     diff ? "the first difference: " :
				     "the LFT dump agrees with this fabric's switches, LIDs and "
				     "port GUIDs where both have them", diff ? diff : "");
	}
	json_object_put(report);
	return rc;
}

/* DIR must be a directory: a file or a missing name says what it is. */
static int check_dir(const char *cmd, const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return cli_usage_error("%s: %s: %s", cmd, dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error("%s: %s is a file, not the directory `lanes route -o` writes; "
				       "give a dump with --lfts FILE (--sl2vl, --path-sl)", cmd, dir);
	return 0;
}

/* Standard input can be read once: at most one of the files is "-", and not the fabric's. */
static int stdin_once(const char *cmd, const char *a, const char *b, const char *c)
{
	int n = (a && !strcmp(a, "-")) + (b && !strcmp(b, "-")) + (c && !strcmp(c, "-"));

	if (n && feof(stdin)) /* the fabric came from it */
		return cli_usage_error("%s: '-' (standard input) was read for the fabric already; "
				       "give the tables as files", cmd);
	return n > 1 ? cli_usage_error("%s: '-' (standard input) is given for %d files; it can be "
				       "read once", cmd, n) : 0;
}

/* What DIR holds that lanes cannot read, for "DIR has no opensm-lfts.dump". */
static const char *unread_dump(const char *dir, char *buf, size_t n)
{
	static const char *const suffixes[] = { ".xz", ".bz2", ".lz4" };
	struct stat st;

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char path[4096 + 32];

		snprintf(path, sizeof(path), "%s/opensm-lfts.dump%s", dir, suffixes[i]);
		if (stat(path, &st))
			continue;
		snprintf(buf, n, " (it holds opensm-lfts.dump%s: lanes reads gzip and zstd only)",
			 suffixes[i]);
		return buf;
	}
	return "";
}

int cli_load_tables(const char *cmd, const char *dir, const char *lfts, const char *sl2vl,
		    const char *path_sl, const struct lanes_fabric *f,
		    const struct cli_fabric_opts *fo, struct lanes_progress *progress,
		    struct lanes_routing **out)
{
	char b1[4096], b2[4096], b3[4096], why[96];
	const char *psl;
	struct lanes_error err;
	int rc;

	*out = NULL;
	if (dir && (lfts || sl2vl || path_sl))
		return cli_usage_error("%s: give DIR or --lfts/--sl2vl/--path-sl, not both: DIR's "
				       "files would be mixed with another routing's", cmd);
	if (dir && (rc = check_dir(cmd, dir)))
		return rc;
	rc = 0;
	lfts = lfts ? lfts : in_dir(cmd, dir, "opensm-lfts.dump", b1, sizeof(b1), &rc);
	sl2vl = sl2vl ? sl2vl : in_dir(cmd, dir, "opensm-sl2vl.dump", b2, sizeof(b2), &rc);
	psl = path_sl ? path_sl : in_dir(cmd, dir, "lanes-path-sl.txt", b3, sizeof(b3), &rc);
	if (rc)
		return rc;
	if ((rc = stdin_once(cmd, lfts, sl2vl, psl)))
		return rc;
	if (!lfts)
		return dir ? cli_usage_error("%s: %s has no opensm-lfts.dump%s", cmd, dir,
					     unread_dump(dir, why, sizeof(why)))
			   : cli_usage_error("%s: give DIR, --lfts FILE or -e ENGINE", cmd);
	if (dir && (rc = check_fingerprint(cmd, dir, lfts, f, fo)))
		return rc;
	if (lanes_routing_new(f, out, &err))
		return cli_fail(&err);
	if ((rc = read_into(lfts, lanes_lfts_read_file, f, *out, progress)) ||
	    (sl2vl && (rc = read_into(sl2vl, lanes_sl2vl_read_file, f, *out, progress))) ||
	    (psl && (rc = read_into(psl, lanes_path_sl_read_file, f, *out, progress)))) {
		lanes_routing_free(*out);
		*out = NULL;
		return rc;
	}
	cli_progress_clear_active();
	if (!psl)
		fprintf(stderr, "lanes: no path SLs given: every path is taken as SL 0\n");
	if (!sl2vl)
		fprintf(stderr, "lanes: no SL2VL maps given: every SL maps to VL 0\n");
	return 0;
}
