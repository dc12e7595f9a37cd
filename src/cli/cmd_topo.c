/*
 * cmd_topo.c - `lanes topo gen|info|list`: make fabrics and describe them.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cleanup.h"
#include "cli.h"
#include "progress.h"
#include "lanes/io.h"
#include "lanes/recognize.h"
#include "lanes/topo.h"

static const char topo_usage[] =
	"usage: lanes topo gen KIND key=value... [-o FILE] [--format|--to ibnetdiscover|ibsim|dot]\n"
	"       lanes topo convert FABRIC [-o FILE] --to ibnetdiscover|ibsim|dot\n"
	"       lanes topo info FABRIC [--json] [--exact]\n"
	"       lanes topo list [--json]\n"
	"\n"
	"  gen   generate a fabric and write it (to standard output without -o);\n"
	"        --format and --to both name the output format (default ibnetdiscover)\n"
	"  convert  read a fabric (file or spec) and write it in another format;\n"
	"        --format names the input file's format, --to the output's\n"
	"  info  print switches, CAs, links, radix, diameter, average distance,\n"
	"        connectivity, parallel links and self-loops; exit 1 if disconnected.\n"
	"        Over 20,000 switches the distances are sampled (labelled so) unless --exact\n"
	"  list  list the topology generators and their keys\n"
	"\n" CLI_FABRIC_HELP;

static void add_int(struct json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}


static struct json_object *stats_json(const struct lanes_fabric_stats *st,
				      const struct lanes_fabric *f,
				      const struct cli_fabric_opts *opts)
{
	struct json_object *o = json_object_new_object();

	add_int(o, "switches", st->switches);
	add_int(o, "cas", st->cas);
	add_int(o, "routers", st->routers);
	add_int(o, "links_switch_switch", st->links_switch_switch);
	add_int(o, "links_switch_ca", st->links_switch_ca);
	add_int(o, "links_other", st->links_other);
	add_int(o, "radix_min", st->radix_min);
	add_int(o, "radix_max", st->radix_max);
	add_int(o, "network_radix_min", st->net_radix_min);
	add_int(o, "network_radix_max", st->net_radix_max);
	add_int(o, "hosts_per_switch_min", st->hosts_min);
	add_int(o, "hosts_per_switch_max", st->hosts_max);
	add_int(o, "ports_max", st->ports_max);
	add_int(o, "diameter", st->diameter);
	add_int(o, "distances_sampled_sources", st->sampled_sources); /* 0: exact */
	json_object_object_add(o, "avg_distance", json_object_new_double(st->avg_distance));
	json_object_object_add(o, "connected", json_object_new_boolean(st->connected));
	add_int(o, "components", st->components);
	add_int(o, "fabric_components", st->fabric_components);
	add_int(o, "isolated_cas", st->isolated_cas);
	add_int(o, "parallel_links", st->parallel_links);
	add_int(o, "self_loops", st->self_loops);
	add_int(o, "max_lid", f->max_lid);
	add_int(o, "warnings", f->num_warnings);
	if (opts->faults)
		json_object_object_add(o, "faults", cli_faults_json(opts));
	return o;
}

/* The smallest and largest group, of a recognised dragonfly. */
static void group_sizes(const struct lanes_structure *s, uint32_t *lo, uint32_t *hi)
{
	uint32_t *size = calloc((size_t)s->num_groups + 1, sizeof(*size));

	*lo = *hi = 0;
	if (!size)
		return;
	for (uint32_t u = 0; u < s->num_switches; u++)
		size[s->group[u]]++;
	*lo = UINT32_MAX;
	for (uint32_t g = 0; g < s->num_groups; g++) {
		*lo = size[g] < *lo ? size[g] : *lo;
		*hi = size[g] > *hi ? size[g] : *hi;
	}
	free(size);
}

/* "structure: dragonfly, 9 groups of 4 switches", "structure: hyperx 4x4x4", ... */
static void print_structure(const struct lanes_structure *s)
{
	uint32_t lo, hi;

	printf("structure           %s", lanes_structure_kind_name(s->kind));
	switch (s->kind) {
	case LANES_STRUCTURE_DRAGONFLY:
		group_sizes(s, &lo, &hi);
		if (lo == hi)
			printf(", %u groups of %u switches\n", s->num_groups, lo);
		else
			printf(", %u groups of %u..%u switches\n", s->num_groups, lo, hi);
		break;
	case LANES_STRUCTURE_HYPERX:
		for (uint32_t d = 0; d < s->num_dims; d++)
			printf("%s%u", d ? "x" : " ", s->extent[d]);
		printf("\n");
		break;
	case LANES_STRUCTURE_SLIMFLY:
		printf(" q=%u\n", s->slimfly_q);
		break;
	case LANES_STRUCTURE_TORUS:
		for (uint32_t d = 0; d < s->num_dims; d++)
			printf("%s%u", d ? "x" : " ", s->extent[d]);
		printf(", wraparound");
		for (uint32_t d = 0; d < s->num_dims; d++)
			printf("%s%s", d ? "," : " ", s->wrap[d] ? "yes" : "no");
		printf("\n");
		break;
	default:
		printf(" (%s)\n", s->note);
	}
}

/* "structure": {"kind", then per kind the counts, and every switch's place}. */
static struct json_object *structure_json(const struct lanes_structure *s,
					  const struct lanes_fabric *f)
{
	struct json_object *o = json_object_new_object(), *list = json_object_new_array();
	char guid[32];

	json_object_object_add(o, "kind", json_object_new_string(lanes_structure_kind_name(s->kind)));
	if (s->kind == LANES_STRUCTURE_NONE) {
		json_object_object_add(o, "note", json_object_new_string(s->note));
		json_object_put(list);
		return o;
	}
	if (s->kind == LANES_STRUCTURE_DRAGONFLY)
		add_int(o, "groups", s->num_groups);
	if (s->kind == LANES_STRUCTURE_SLIMFLY || s->kind == LANES_STRUCTURE_SFXFF)
		add_int(o, "q", s->slimfly_q);
	if (s->kind != LANES_STRUCTURE_DRAGONFLY) {
		struct json_object *ext = json_object_new_array();

		for (uint32_t d = 0; d < s->num_dims; d++)
			json_object_array_add(ext, json_object_new_int64(s->extent[d]));
		json_object_object_add(o, "extent", ext);
	}
	if (s->kind == LANES_STRUCTURE_TORUS) {
		struct json_object *wrap = json_object_new_array();

		for (uint32_t d = 0; d < s->num_dims; d++)
			json_object_array_add(wrap, json_object_new_boolean(s->wrap[d]));
		json_object_object_add(o, "wrap", wrap);
	}
	for (uint32_t u = 0; u < f->num_switches; u++) {
		const struct lanes_node *n = &f->nodes[f->switches[u]];
		struct json_object *sw = json_object_new_object();

		snprintf(guid, sizeof(guid), "0x%016llx", (unsigned long long)n->guid);
		json_object_object_add(sw, "guid", json_object_new_string(guid));
		json_object_object_add(sw, "name", json_object_new_string(n->desc));
		if (s->kind == LANES_STRUCTURE_DRAGONFLY) {
			add_int(sw, "group", s->group[u]);
		} else {
			struct json_object *c = json_object_new_array();

			for (uint32_t d = 0; d < s->num_dims; d++)
				json_object_array_add(c, json_object_new_int64(
							      s->coord[(size_t)u * s->num_dims + d]));
			json_object_object_add(sw, "coord", c);
		}
		json_object_array_add(list, sw);
	}
	json_object_object_add(o, "switches", list);
	return o;
}

static void print_text(const struct lanes_fabric_stats *st, const struct lanes_fabric *f)
{
	printf("switches            %u\n", st->switches);
	printf("CAs                 %u\n", st->cas);
	if (st->routers)
		printf("routers             %u\n", st->routers);
	printf("links               %u switch-switch, %u switch-CA",
	       st->links_switch_switch, st->links_switch_ca);
	if (st->links_other)
		printf(", %u other", st->links_other);
	printf("\nradix               %u..%u cabled ports (%u..%u to switches, %u..%u to CAs)\n",
	       st->radix_min, st->radix_max, st->net_radix_min, st->net_radix_max,
	       st->hosts_min, st->hosts_max);
	if (st->sampled_sources) {
		printf("diameter            %u switch hops or more (sampled: breadth-first search from "
		       "%u of the %u switches; --exact for all pairs)\n", st->diameter,
		       st->sampled_sources, st->switches);
		printf("average distance    %.4f switch hops (sampled)\n", st->avg_distance);
	} else {
		printf("diameter            %u switch hops\n", st->diameter);
		printf("average distance    %.4f switch hops\n", st->avg_distance);
	}
	printf("connected           %s", st->connected ? "yes" : "no");
	if (!st->connected)
		printf(" (%u components, %u CAs without a cable; %u switch-graph components)",
		       st->fabric_components, st->isolated_cas, st->components);
	else if (st->components > 1)
		printf(" (through CAs: the switch graph has %u components)", st->components);
	printf("\nparallel links      %u\n", st->parallel_links);
	printf("self-loops          %u\n", st->self_loops);
	printf("LIDs                1..%u\n", f->max_lid);
}

/* topo has no engine: --seed is a fault seed typed the old way. */
static int seed_is_not_fault_seed(void)
{
	return cli_usage_error("topo: --seed seeds routing engines; fault injection takes "
			       "--fault-seed");
}

/*
 * All-pairs distances take time quadratic in the switches (0.27 s for the
 * 10,648 of torus k=22x22x22, minutes for the 65,536 of hypercube n=16):
 * above 20,000 switches topo info samples 4,096 sources unless --exact.
 */
static uint32_t sample_sources(const struct lanes_fabric *f)
{
	return f->num_switches > 20000 ? 4096 : 0;
}

/* topo info's report: text, or one JSON object. */
static void print_info(int json, const struct lanes_fabric_stats *st, const struct lanes_fabric *f,
		       const struct lanes_structure *s, const struct cli_fabric_opts *opts)
{
	if (json) {
		struct json_object *o = stats_json(st, f, opts);

		json_object_object_add(o, "structure", structure_json(s, f));
		cli_topo_links(f, o);
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		print_text(st, f);
		cli_topo_links(f, NULL);
		print_structure(s);
	}
}

static int topo_info(int argc, char **argv)
{
	static const struct option longopts[] = { CLI_FABRIC_LONGOPTS,
						  { "json", no_argument, NULL, 'j' },
						  { "seed", required_argument, NULL, 'N' },
						  { "exact", no_argument, NULL, 'x' },
						  { "help", no_argument, NULL, 'h' },
						  { NULL, 0, NULL, 0 } };
	struct cli_fabric_opts opts;
	struct cli_progress pr;
	struct lanes_fabric_stats st;
	struct lanes_structure s;
	struct lanes_fabric *f;
	struct lanes_error err;
	struct cli_seen seen = { { 0 }, 0 };
	int json = 0, exact = 0, c, rc;

	cli_fabric_opts_init(&opts);
	opts.keep_removed = 1; /* --json lists what was removed */
	while ((c = cli_getopt(argc, argv, "h", longopts, &seen)) != -1) {
		if (c == CLI_OPT_TWICE)
			return EXIT_USAGE;
		if (c == 'N')
			return seed_is_not_fault_seed();
		if ((rc = cli_fabric_option(c, optarg, &opts)))
			if (rc < 0)
				return EXIT_USAGE;
		if (c == 'j')
			json = 1;
		else if (c == 'x')
			exact = 1;
		else if (c == 'h')
			return fputs(topo_usage, stdout), EXIT_OK;
		else if (!rc)
			return fputs(topo_usage, stderr), EXIT_USAGE;
	}
	cli_progress_start(&pr, "topo info", opts.quiet);
	lanes_progress_phase(&pr.p, "reading the fabric", 0);
	opts.cmd = "topo info";
	if ((rc = cli_load_fabric(argc - optind, argv + optind, &opts, &f))) {
		cli_progress_stop(&pr);
		return rc;
	}
	rc = lanes_fabric_stats_sampled(f, exact ? 0 : sample_sources(f), &pr.p, &st, &err);
	lanes_progress_phase(&pr.p, "structure", 0);
	rc = rc || lanes_recognize(f, &s, &err);
	cli_progress_stop(&pr);
	if (rc) {
		lanes_fabric_free(f);
		lanes_fault_list_free(&opts.removed);
		return cli_fail(&err);
	}
	print_info(json, &st, f, &s, &opts);
	lanes_structure_free(&s);
	lanes_fabric_free(f);
	lanes_fault_list_free(&opts.removed);
	return st.connected ? EXIT_OK : EXIT_FINDING;
}

/*
 * Where gen and convert write: standard output, or -o FILE through
 * lanes_atomic, its temporary file removed by SIGINT, SIGTERM or SIGHUP and
 * a file-size limit a failed write (cleanup.c). tmp is a copy of a.tmp: the
 * signal handler may still read it after lanes_atomic_commit() frees a.tmp.
 */
struct output {
	struct lanes_atomic a;
	struct cli_cleanup cleanup;
	char *tmp;
	int to_file;
};

/* The writer --format (gen) or --to names. */
static int find_writer(const char *format, const struct lanes_format **fmt)
{
	*fmt = lanes_format_find(format);
	if (!*fmt || !(*fmt)->write)
		return cli_usage_error("--format: no writer named '%s' (ibnetdiscover, ibsim, dot)",
				       format);
	return 0;
}

/* Open -o FILE before the fabric is made, so a name refused costs no time. */
static int open_output(struct output *o, const char *path, const char *cmd)
{
	struct lanes_error err;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-"))
		return 0;
	if (!*path)
		return cli_usage_error("%s: -o: an empty file name; give a file, or - for standard "
				       "output", cmd);
	if (lanes_atomic_open(&o->a, path, &err))
		return cli_fail(&err);
	if (o->a.tmp && !(o->tmp = strdup(o->a.tmp))) {
		lanes_atomic_abort(&o->a);
		return cli_out_of_memory();
	}
	o->to_file = 1;
	o->cleanup.names = (const char *const *)&o->tmp;
	o->cleanup.num_names = o->tmp ? 1 : 0;
	cli_cleanup_arm(&o->cleanup);
	return 0;
}

/* Commit the file when rc is 0, else remove its temporary; rc, or the commit's failure. */
static int close_output(struct output *o, int rc)
{
	struct lanes_error err;

	if (!o->to_file)
		return rc;
	if (!rc && lanes_atomic_commit(&o->a, &err))
		rc = cli_fail(&err);
	lanes_atomic_abort(&o->a); /* nothing left to do after a commit */
	cli_cleanup_disarm(&o->cleanup);
	free(o->tmp);
	return rc;
}

/* A write that fails (a full disk, `ulimit -f`) names the file and the reason. */
static int write_fabric(const struct lanes_fabric *f, struct output *o,
			const struct lanes_format *fmt)
{
	struct lanes_error err;
	int e;

	errno = 0;
	if (fmt->write(f, o->to_file ? o->a.fp : stdout, &err)) {
		e = errno; /* of the write that failed, when it was one */
		if (!o->to_file || err.code != LANES_EIO)
			return cli_fail(&err);
		return cli_usage_error("%s: write failed: %s", o->a.path, strerror(e ? e : EIO));
	}
	if (!o->to_file && fflush(stdout))
		return cli_usage_error("cannot write standard output");
	return EXIT_OK;
}

/*
 * For gen there is no input file, so --format names the output, and --to
 * (convert's name for it) means the same; both at once must agree.
 */
static int gen_output_format(struct cli_fabric_opts *opts, const char **to)
{
	if (*to && opts->format && strcmp(*to, opts->format))
		return cli_usage_error("topo gen: --format %s and --to %s disagree; give the "
				       "output format once",
				       opts->format, *to);
	if (!*to)
		*to = opts->format;
	opts->format = NULL;
	return 0;
}

/*
 * gen and convert share this: gen takes a generator spec and --format names
 * the output; convert takes any FABRIC, --format names the input and --to
 * the output.
 */
static int write_command(int argc, char **argv, int convert)
{
	static const struct option longopts[] = { CLI_FABRIC_LONGOPTS,
						  { "output", required_argument, NULL, 'o' },
						  { "to", required_argument, NULL, 't' },
						  { "seed", required_argument, NULL, 'N' },
						  { "help", no_argument, NULL, 'h' },
						  { NULL, 0, NULL, 0 } };
	struct cli_fabric_opts opts;
	struct cli_progress pr;
	const char *output = NULL, *to = NULL;
	const struct lanes_format *fmt;
	struct lanes_fabric *f = NULL;
	struct output out;
	struct cli_seen seen = { { 0 }, 0 };
	int c, rc;

	cli_fabric_opts_init(&opts);
	while ((c = cli_getopt(argc, argv, "o:h", longopts, &seen)) != -1) {
		if (c == CLI_OPT_TWICE)
			return EXIT_USAGE;
		if (c == 'N')
			return seed_is_not_fault_seed();
		if ((rc = cli_fabric_option(c, optarg, &opts)) < 0)
			return EXIT_USAGE;
		if (c == 'o')
			output = optarg;
		else if (c == 't')
			to = optarg;
		else if (c == 'h')
			return fputs(topo_usage, stdout), EXIT_OK;
		else if (!rc)
			return fputs(topo_usage, stderr), EXIT_USAGE;
	}
	if (!convert && (optind >= argc || !lanes_generator_find(argv[optind])))
		return cli_usage_error("topo gen: expected a generator name (see `lanes topo list`)");
	if (!convert && (rc = gen_output_format(&opts, &to)))
		return rc;
	opts.cmd = convert ? "topo convert" : "topo gen";
	if ((rc = find_writer(to ? to : "ibnetdiscover", &fmt)) ||
	    (rc = open_output(&out, output, opts.cmd)))
		return rc;
	cli_progress_start(&pr, opts.cmd, opts.quiet);
	lanes_progress_phase(&pr.p, convert ? "reading the fabric" : "generating", 0);
	if (!(rc = cli_load_fabric(argc - optind, argv + optind, &opts, &f))) {
		lanes_progress_phase(&pr.p, "writing", 0);
		rc = write_fabric(f, &out, fmt);
	}
	rc = close_output(&out, rc);
	cli_progress_stop(&pr);
	lanes_fabric_free(f);
	return rc;
}

static int topo_gen(int argc, char **argv)
{
	return write_command(argc, argv, 0);
}

static int topo_convert(int argc, char **argv)
{
	return write_command(argc, argv, 1);
}

/* The keys of a usage line: every "key=" (what the generator accepts). */
static struct json_object *usage_keys(const char *usage)
{
	struct json_object *keys = json_object_new_array();

	for (const char *s = usage; *s; s++) {
		size_t n = 0;

		if (s > usage && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))
			continue;
		while (isalnum((unsigned char)s[n]) || s[n] == '_')
			n++;
		if (n && s[n] == '=')
			json_object_array_add(keys, json_object_new_string_len(s, (int)n));
		s += n ? n - 1 : 0;
	}
	return keys;
}

static void list_json(void)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; lanes_generator_at(i); i++) {
		const struct lanes_generator *g = lanes_generator_at(i);
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(g->name));
		json_object_object_add(o, "summary", json_object_new_string(g->summary));
		json_object_object_add(o, "usage", json_object_new_string(g->usage));
		json_object_object_add(o, "keys", usage_keys(g->usage));
		json_object_object_add(o, "source", json_object_new_string(g->source));
		json_object_array_add(a, o);
	}
	puts(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(a);
}

static int topo_list(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return fputs(topo_usage, stdout), EXIT_OK;
	if (argc == 2 && !strcmp(argv[1], "--json"))
		return list_json(), EXIT_OK;
	if (argc > 1)
		return cli_usage_error("topo list: unexpected argument '%s'", argv[1]);
	for (size_t i = 0; lanes_generator_at(i); i++) {
		const struct lanes_generator *g = lanes_generator_at(i);

		printf("%-10s %s\n           %s %s\n           after: %s\n", g->name, g->summary,
		       g->name, g->usage, g->source);
	}
	return EXIT_OK;
}

int cmd_topo(int argc, char **argv)
{
	static const struct cli_command subs[] = {
		{ "gen", "generate a fabric", topo_gen },
		{ "info", "describe a fabric", topo_info },
		{ "convert", "write a fabric in another format", topo_convert },
		{ "list", "list generators", topo_list },
	};

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(topo_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].run(argc - 1, argv + 1);
	fprintf(stderr, "lanes: topo: unknown subcommand '%s'\n%s", argv[1], topo_usage);
	return EXIT_USAGE;
}
