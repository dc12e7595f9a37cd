/*
 * cmd_route.c - `lanes engines` and `lanes route`: list the routing engines,
 * route a fabric and write what OpenSM loads (opensm-lfts.dump for
 * `opensm -R file -U`, opensm-sl2vl.dump), the path-SL table and report.json.
 */
#define _GNU_SOURCE /* fopencookie: counting the bytes written */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <json-c/json.h>

#include "cli.h"
#include "progress.h"
#include "route_dir.h"
#include "lanes/dump.h"
#include "lanes/io.h"
#include "lanes/route.h"

static const char route_usage[] =
	"usage: lanes route -e ENGINE FABRIC -o DIR [--vls N] [--sls N] [--seed S] [--ca-only]\n"
	"                   [--roots FILE] [--threads N]\n"
	"\n"
	"  Route FABRIC with ENGINE (see `lanes engines`) and write into DIR (a link: the\n"
	"  directory it names), a new directory or one of an earlier route, never -:\n"
	"    opensm-lfts.dump    the LFTs, as OpenSM writes them and `opensm -R file -U` loads them\n"
	"    opensm-sl2vl.dump   the SL2VL maps, as OpenSM writes them\n"
	"    lanes-path-sl.txt   the path SLs (docs/formats-routing.md)\n"
	"    report.json         engine, resources used and needed, time, the faults removed\n"
	"  ENGINE may carry the engine's parameters: NAME:KEY=VALUE[:KEY=VALUE...]\n"
	"                   (`lanes engines` lists them; dfdn:base=minhop)\n"
	"  --vls N          data VL budget, 1..15 (default 8)\n"
	"  --sls N          SL budget, 1..16 (default 16)\n"
	"  --seed S         the engine's seed, for randomised engines (default 1)\n"
	"  --threads N      worker threads, 0 one per core (default); the tables do not depend on it\n"
	"  --ca-only        route CA LIDs only, not switch LIDs, as destinations\n"
	"  --compress C     none (default), gzip or zstd: the three dumps as NAME.gz or NAME.zst,\n"
	"                   which verify, sim and trace read as they are (opensm -U: decompress)\n"
	"  --roots FILE     root switch GUIDs for updn, one per line (default: found as OpenSM does);\n"
	"                   refused with other engines, which do not use it\n"
	"  Exit 0 routed; 1 the engine refused, could not fit the budgets or failed (an internal\n"
	"  error, a bug in lanes); 2 bad input (the fabric, an option, the --roots file), usage,\n"
	"  or files that could not be written (a full disk: the old DIR is left whole).\n"
	"\n" CLI_FABRIC_HELP;

static const char *flag_words(unsigned flags, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", flags & LANES_ENGINE_DEADLOCK_FREE ? "deadlock-free" : "-",
		 flags & LANES_ENGINE_ANY_TOPOLOGY ? ", any topology" : "",
		 flags & LANES_ENGINE_RANDOMIZED ? ", randomised" : "");
	return buf;
}

int cmd_engines(int argc, char **argv)
{
	char buf[128];
	int json = argc > 1 && !strcmp(argv[1], "--json");

	if (argc > 1 && !json) {
		fputs("usage: lanes engines [--json]\n", strcmp(argv[1], "--help") ? stderr : stdout);
		return strcmp(argv[1], "--help") ? EXIT_USAGE : EXIT_OK;
	}
	if (json) {
		struct json_object *a = json_object_new_array();

		for (size_t i = 0; lanes_engine_at(i); i++) {
			const struct lanes_engine *e = lanes_engine_at(i);
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "name", json_object_new_string(e->name));
			json_object_object_add(o, "scope", json_object_new_string(e->scope));
			json_object_object_add(o, "deadlock_free", json_object_new_boolean(
					       (e->flags & LANES_ENGINE_DEADLOCK_FREE) != 0));
			json_object_object_add(o, "resources", json_object_new_string(e->resources));
			json_object_object_add(o, "summary", json_object_new_string(e->summary));
			json_object_object_add(o, "source", json_object_new_string(e->source));
			json_object_object_add(o, "params", e->params_usage ?
					       json_object_new_string(e->params_usage) : NULL);
			json_object_array_add(a, o);
		}
		puts(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(a);
		return EXIT_OK;
	}
	printf("%-10s %-16s %-30s %-14s %s\n", "ENGINE", "SCOPE", "CLAIM", "RESOURCES", "SUMMARY");
	for (size_t i = 0; lanes_engine_at(i); i++) {
		const struct lanes_engine *e = lanes_engine_at(i);

		printf("%-10s %-16s %-30s %-14s %s", e->name, e->scope,
		       flag_words(e->flags, buf, sizeof(buf)), e->resources, e->summary);
		if (e->params_usage)
			printf(" (-e %s:%s)", e->name, e->params_usage);
		putchar('\n');
	}
	return EXIT_OK;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The class of a code from route() (cli.h says why). */
static enum cli_engine_outcome outcome_of(int code)
{
	switch (code) {
	case LANES_ERANGE:
	case LANES_EREFUSED:
		return CLI_REFUSED;
	case LANES_EINTERNAL:
	case LANES_ENOMEM:
		return CLI_FAILED;
	default:
		return CLI_BAD_INPUT;
	}
}

/* The engine's warnings (lanes_routing.warnings), a line each, on stderr. */
static void print_warnings_of(const struct lanes_routing *r)
{
	const char *s = r->warnings;

	if (!s)
		return;
	cli_progress_clear_active();
	while (*s) {
		size_t len = strcspn(s, "\n");

		fprintf(stderr, "lanes: warning: %.*s\n", (int)len, s);
		s += len + (s[len] == '\n');
	}
}

enum cli_engine_outcome cli_run_engine(const struct lanes_engine *e, const struct lanes_fabric *f,
				       const struct lanes_route_opts *o,
				       struct lanes_routing **out, double *seconds,
				       struct lanes_error *err)
{
	double t;
	int rc;

	*out = NULL;
	/*
	 * lanes_route() runs check() again (it is cheap); calling it first is what
	 * tells its refusal, whatever the code, from route()'s errors. A fabric
	 * without switches is left to lanes_route(), which names the problem.
	 */
	if (e->check && f->num_switches && (rc = e->check(f, o, err)))
		return rc == LANES_ENOMEM ? CLI_FAILED : CLI_REFUSED;
	t = now();
	if ((rc = lanes_route(e, f, o, out, err)))
		return outcome_of(rc);
	*seconds = now() - t;
	print_warnings_of(*out);
	return CLI_ROUTED;
}

const char *cli_engine_message(const struct lanes_engine *e, const struct lanes_error *err,
			       char *buf, size_t size)
{
	const char *msg = lanes_error_format(err, buf, size);
	size_t n = strlen(e->name);

	if (!strncmp(msg, e->name, n) && msg[n] == ':')
		msg += n + (msg[n + 1] == ' ' ? 2 : 1);
	return msg;
}

void cli_engine_error(const struct lanes_engine *e, const struct lanes_error *err)
{
	char buf[1024];

	/* engines name themselves ("dfsssp: needs 9 VLs ..."); say it once */
	cli_progress_clear_active();
	fprintf(stderr, "lanes: %s: %s\n", e->name, cli_engine_message(e, err, buf, sizeof(buf)));
}

int cli_engine_spec(const char *cmd, const char *spec, size_t len, const struct lanes_engine **e,
		    char *params, size_t cap)
{
	size_t name_len = strcspn(spec, ":");
	char name[128];

	if (name_len > len)
		name_len = len;
	snprintf(name, sizeof(name), "%.*s", (int)name_len, spec);
	if (name_len >= sizeof(name) || !(*e = lanes_engine_find(name)))
		return cli_usage_error("%s: no engine named '%s' (see `lanes engines`)", cmd, name);
	params[0] = 0;
	if (name_len == len)
		return 0;
	if (!(*e)->params_usage)
		return cli_usage_error("%s: %s takes no parameters, not '%.*s'", cmd, name,
				       (int)(len - name_len - 1), spec + name_len + 1);
	if (len - name_len >= cap)
		return cli_usage_error("%s: the parameters of %s are too long", cmd, name);
	snprintf(params, cap, "%.*s", (int)(len - name_len - 1), spec + name_len + 1);
	for (char *p = params; *p; p++)
		if (*p == ':')
			*p = ' ';
	return 0;
}

/*
 * --roots is the one engine option that is not a parameter of its own
 * (OpenSM's root_guid_file, kept as a flag); updn alone reads it.
 */
int cli_engine_takes_roots(const struct lanes_engine *e)
{
	return !strcmp(e->name, "updn");
}

int cli_check_roots(const char *cmd, const struct lanes_engine *e,
		    const struct lanes_route_opts *o)
{
	if (o->roots && !cli_engine_takes_roots(e))
		return cli_usage_error("%s: --roots is read by updn only; %s does not use a roots "
				       "file", cmd, e->name);
	return 0;
}

int cli_route_fabric(const struct lanes_engine *e, const struct lanes_fabric *f,
		     const struct lanes_route_opts *o, struct lanes_routing **out, double *seconds)
{
	struct lanes_error err;

	switch (cli_run_engine(e, f, o, out, seconds, &err)) {
	case CLI_ROUTED:
		return EXIT_OK;
	case CLI_REFUSED:
	case CLI_FAILED:
		cli_engine_error(e, &err);
		return EXIT_FINDING;
	default:
		cli_engine_error(e, &err);
		return EXIT_USAGE;
	}
}

typedef int (*dump_writer)(const struct lanes_fabric *, const struct lanes_routing *, FILE *,
			   struct lanes_error *);

/* What route writes: the routing and what it was made with. */
struct route_out {
	const struct lanes_engine *e;
	const struct lanes_fabric *f;
	const struct lanes_routing *r;
	const struct lanes_route_opts *o;
	const struct cli_fabric_opts *fo; /* the faults removed, when any */
	double seconds;
	int compress; /* enum lanes_compress, for the three dumps */
	struct lanes_progress *progress; /* the bytes written, before compression */
};

/* Close a file written in the temporary directory; a failed write (a full disk) is an error. */
static int finish_file(FILE *fp, const char *path)
{
	int bad, e;

	/* a write that failed earlier set the stream's error flag; its errno is gone */
	errno = 0;
	bad = ferror(fp) | fflush(fp);
	e = errno;
	if (fclose(fp) && !bad) {
		bad = 1;
		e = errno;
	}
	return bad ? cli_usage_error("%s: write failed: %s", path, strerror(e ? e : EIO)) : 0;
}

/* A stream that counts what goes through it into a progress, over inner (closed with it). */
struct counting {
	FILE *inner;
	struct lanes_progress *progress;
};

static ssize_t counting_write(void *c, const char *buf, size_t size)
{
	struct counting *k = c;
	size_t n = fwrite(buf, 1, size, k->inner);

	lanes_progress_add(k->progress, n);
	return n < size ? -1 : (ssize_t)n;
}

static int counting_close(void *c)
{
	struct counting *k = c;
	int rc = fclose(k->inner);

	free(k);
	return rc;
}

/* fp, counted; fp itself when that fails (only the count is lost). */
static FILE *counted(FILE *fp, struct lanes_progress *progress)
{
	cookie_io_functions_t io = { NULL, counting_write, NULL, counting_close };
	struct counting *k = malloc(sizeof(*k));
	FILE *out;

	if (!progress || !k) {
		free(k);
		return fp;
	}
	*k = (struct counting){ fp, progress };
	if (!(out = fopencookie(k, "w", io)))
		free(k);
	return out ? out : fp;
}

static int write_dump(const char *path, dump_writer w, const struct route_out *out)
{
	struct lanes_error err;
	FILE *fp = fopen(path, "w"), *z;

	if (!fp)
		return cli_usage_error("%s: %s", path, strerror(errno));
	if (out->compress != LANES_COMPRESS_NONE) {
		if (!(z = lanes_io_compress(fp, out->compress, &err))) {
			fclose(fp);
			return cli_fail(&err);
		}
		fp = z;
	}
	fp = counted(fp, out->progress);
	errno = 0;
	if (w(out->f, out->r, fp, &err)) {
		int e = errno; /* of the write that failed, when it was one */

		fclose(fp);
		if (err.code != LANES_EIO)
			return cli_fail(&err);
		return cli_usage_error("%s: write failed: %s", path, strerror(e ? e : EIO));
	}
	return finish_file(fp, path);
}

/* The fabric's fingerprints, as `lanes verify` compares them (cli_check_fingerprint). */
static struct json_object *fingerprint_json(const struct lanes_fabric *f)
{
	struct json_object *j = json_object_new_object();
	struct lanes_fingerprint fp;
	char hex[24];

	lanes_fabric_fingerprint(f, &fp);
	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)fp.nodes);
	json_object_object_add(j, "nodes", json_object_new_string(hex));
	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)fp.lids);
	json_object_object_add(j, "lids", json_object_new_string(hex));
	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)fp.cables);
	json_object_object_add(j, "cables", json_object_new_string(hex));
	return j;
}

static int write_report(const char *path, const struct route_out *out)
{
	struct json_object *j = json_object_new_object(), *opt = json_object_new_object();
	const struct lanes_routing *r = out->r;
	FILE *fp;
	int rc;

	json_object_object_add(j, "engine", json_object_new_string(out->e->name));
	json_object_object_add(j, "switches", json_object_new_int64(out->f->num_switches));
	json_object_object_add(j, "cas", json_object_new_int64(out->f->num_cas));
	json_object_object_add(j, "max_lid", json_object_new_int64(out->f->max_lid));
	json_object_object_add(j, "fabric", fingerprint_json(out->f));
	if (out->fo->faults)
		json_object_object_add(j, "faults", cli_faults_json(out->fo));
	json_object_object_add(j, "vls", json_object_new_int(r->num_vls));
	json_object_object_add(j, "sls", json_object_new_int(r->num_sls));
	json_object_object_add(j, "vls_needed", json_object_new_int(r->vls_needed));
	json_object_object_add(j, "sls_needed", json_object_new_int(r->sls_needed));
	json_object_object_add(j, "time_s", json_object_new_double(out->seconds));
	json_object_object_add(j, "notes", r->notes ? json_object_new_string(r->notes) : NULL);
	json_object_object_add(opt, "vls", json_object_new_int(out->o->max_vls));
	json_object_object_add(opt, "sls", json_object_new_int(out->o->max_sls));
	json_object_object_add(opt, "seed", json_object_new_int64((int64_t)out->o->seed));
	json_object_object_add(opt, "switch_lids", json_object_new_boolean(out->o->switch_lids));
	json_object_object_add(j, "options", opt);
	if ((fp = fopen(path, "w"))) {
		fprintf(fp, "%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
								     JSON_C_TO_STRING_NOSLASHESCAPE));
		rc = finish_file(fp, path);
	} else {
		rc = cli_usage_error("%s: %s", path, strerror(errno));
	}
	json_object_put(j);
	return rc;
}

/* route_dir_writer: the four files into the temporary directory. */
static int write_files(const char *tmpdir, const char *const *names, void *ctx)
{
	static const dump_writer dumps[] = { lanes_lfts_write, lanes_sl2vl_write, lanes_path_sl_write };
	static const char *const suffix[] = { "", ".gz", ".zst" }; /* by enum lanes_compress */
	const struct route_out *out = ctx;
	char path[4096 + 64]; /* the temporary directory's name is at most 4096 bytes */
	int rc;

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", tmpdir, names[i], suffix[out->compress]);
		if ((rc = write_dump(path, dumps[i], ctx)))
			return rc;
	}
	snprintf(path, sizeof(path), "%s/%s", tmpdir, names[3]);
	return write_report(path, ctx);
}

static int parse_budget(const char *opt, const char *arg, unsigned max, uint8_t *out)
{
	uint64_t v;

	if (cli_parse_u64(opt, arg, &v))
		return EXIT_USAGE;
	if (v < 1 || v > max)
		return cli_usage_error("--%s must be 1..%u, not %s", opt, max, arg);
	*out = (uint8_t)v;
	return 0;
}

/* --threads N: 0 (one per core) .. LANES_CLI_MAX_THREADS. */
static int parse_threads(const char *arg, unsigned *out)
{
	uint64_t v;

	if (cli_parse_u64("threads", arg, &v))
		return EXIT_USAGE;
	if (v > LANES_CLI_MAX_THREADS)
		return cli_usage_error("--threads must be 0..%u, not %s", LANES_CLI_MAX_THREADS, arg);
	*out = (unsigned)v;
	return 0;
}

/* Options shared by route, verify and compare: engine, budgets, threads. */
int cli_route_option(int c, const char *arg, struct lanes_route_opts *o, const char **engine)
{
	switch (c) {
	case 'e':
		*engine = arg;
		return 1;
	case 'V':
		return parse_budget("vls", arg, 15, &o->max_vls) ? -1 : 1;
	case 'Q':
		return parse_budget("sls", arg, 16, &o->max_sls) ? -1 : 1;
	case 'K': /* the old spelling, kept for scripts, with a warning */
		fputs("lanes: warning: --ca-lids-only is now spelled --ca-only\n", stderr);
		/* fall through */
	case 'C':
		o->switch_lids = 0;
		return 1;
	case 'R':
		o->roots = arg;
		return 1;
	case 'T':
		return parse_threads(arg, &o->threads) ? -1 : 1;
	case 'N':
		return cli_parse_u64("seed", arg, &o->seed) ? -1 : 1;
	default:
		return 0;
	}
}

/* What `lanes route` was asked. */
struct rargs {
	struct cli_fabric_opts fo;
	struct lanes_route_opts ro;
	const struct lanes_engine *e;
	const char *dir;
	char params[256];
	int compress;
};

static double dump_bytes(const struct lanes_fabric *f, const struct lanes_routing *r,
			 double *lfts);

/*
 * The routing's directory (route_dir.c), and the seconds writing it took
 * into *seconds. Progress: phase "writing the files", the bytes of the
 * dumps before compression against their estimate.
 */
static int write_timed(const struct rargs *a, const struct lanes_fabric *f,
		       const struct lanes_routing *r, double t, struct lanes_progress *progress,
		       double *seconds)
{
	struct route_out out = { a->e, f, r, &a->ro, &a->fo, t, a->compress, progress };
	double lfts;
	double start = now();
	int rc;

	lanes_progress_phase(progress, "writing the files", (uint64_t)dump_bytes(f, r, &lfts));
	rc = route_dir_write(a->dir, write_files, &out);

	*seconds = now() - start;
	return rc;
}

/* --compress none|gzip|zstd; -1 (printed) otherwise. */
static int compress_kind(const char *arg)
{
	if (!strcmp(arg, "none"))
		return LANES_COMPRESS_NONE;
	if (!strcmp(arg, "gzip"))
		return LANES_COMPRESS_GZIP;
	if (!strcmp(arg, "zstd"))
		return LANES_COMPRESS_ZSTD;
	cli_usage_error("--compress is none, gzip or zstd, not '%s'", arg);
	return -1;
}

/*
 * About how many bytes the three dumps take uncompressed: the LFT dump's
 * line for a LID is the same on every switch ("0x000a 001 # Channel Adapter
 * portguid 0x...: 'desc'"), the SL2VL dump has a row per in and cabled out
 * port of a switch, the path-SL table a line per cell of its granularity.
 */
static double dump_bytes(const struct lanes_fabric *f, const struct lanes_routing *r, double *lfts)
{
	double per_switch = 0, sl2vl = 0, cells;

	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		const struct lanes_lid_owner *o = &f->lid_owner[lid];
		size_t desc = o->node == LANES_NONE ? 0 : strlen(f->nodes[o->node].desc);

		per_switch += 14 + 28 + 16 + 4 + (desc > 63 ? 63 : desc) + 2;
	}
	*lfts = f->num_switches * (per_switch + 120);
	for (uint32_t s = 0; s < f->num_switches; s++) {
		const struct lanes_node *n = &f->nodes[f->switches[s]];

		sl2vl += (double)(f->adj_off[s + 1] - f->adj_off[s]) * (n->nports + 1) * 58 + 260;
	}
	cells = r->sl_mode == LANES_SL_PER_DST	       ? f->max_lid
		: r->sl_mode == LANES_SL_PER_SRC_SWITCH ? (double)f->max_lid * f->num_switches
		: r->sl_mode == LANES_SL_PER_PAIR       ? (double)f->max_lid * f->max_lid : 0;
	return *lfts + sl2vl + cells * 28;
}

/* Before writing: the size, when it is over 1 GB. */
static void say_size(const struct lanes_fabric *f, const struct lanes_routing *r, const char *dir,
		     int compress)
{
	double lfts, total = dump_bytes(f, r, &lfts);

	if (total < 1e9)
		return;
	cli_progress_clear_active();
	fprintf(stderr, "lanes: writing about %.1f GB to %s/ (opensm-lfts.dump %.1f GB)%s\n",
		total / 1e9, dir, lfts / 1e9,
		compress ? ", before compression" : "; --compress zstd writes them compressed");
}

/* Options into a; -1 after --help, EXIT_USAGE (printed) on bad usage. */
static int parse_route_args(struct rargs *a, int argc, char **argv)
{
	static const struct option longopts[] = { CLI_FABRIC_LONGOPTS, CLI_ROUTE_LONGOPTS,
						  { "output", required_argument, NULL, 'o' },
						  { "compress", required_argument, NULL, 'Z' },
						  { "help", no_argument, NULL, 'h' },
						  { NULL, 0, NULL, 0 } };
	struct cli_seen seen = { { 0 }, 0 };
	const char *engine = NULL;
	int c, rc;

	while ((c = cli_getopt(argc, argv, "e:o:h", longopts, &seen)) != -1) {
		if (c == CLI_OPT_TWICE)
			return EXIT_USAGE;
		if ((rc = cli_fabric_option(c, optarg, &a->fo)) < 0 ||
		    (!rc && (rc = cli_route_option(c, optarg, &a->ro, &engine)) < 0))
			return EXIT_USAGE;
		if (c == 'o')
			a->dir = optarg;
		else if (c == 'Z' && (a->compress = compress_kind(optarg)) < 0)
			return EXIT_USAGE;
		else if (c == 'h')
			return fputs(route_usage, stdout), -1;
		else if (!rc && c != 'Z')
			return fputs(route_usage, stderr), EXIT_USAGE;
	}
	if (!engine || !a->dir)
		return cli_usage_error("route: -e ENGINE and -o DIR are required (see lanes route --help)");
	if (!*a->dir)
		return cli_usage_error("route: -o '': an empty name; name a directory");
	if (!strcmp(a->dir, "-"))
		return cli_usage_error("route: -o -: route writes a directory of four files, not "
				       "standard output; name a directory (./- for one called '-')");
	if ((rc = cli_engine_spec("route", engine, strlen(engine), &a->e, a->params,
				  sizeof(a->params))))
		return rc;
	a->ro.params = a->params[0] ? a->params : NULL;
	return cli_check_roots("route", a->e, &a->ro);
}

/* The summary line, and what deploying the routing needs. */
static void print_routed(const struct rargs *a, const struct lanes_fabric *f,
			 const struct lanes_routing *r, double t, double w)
{
	char routed[32], written[32];

	printf("%s: routed %u switches and %u LIDs in %s with %u VL(s) and %u SL(s) "
	       "(%u and %u needed); wrote %s/ in %s\n",
	       a->e->name, f->num_switches, f->max_lid, cli_duration(t, routed, sizeof(routed)),
	       r->num_vls, r->num_sls, r->vls_needed, r->sls_needed, a->dir,
	       cli_duration(w, written, sizeof(written)));
	if (a->compress != LANES_COMPRESS_NONE)
		printf("note: the dumps are compressed; OpenSM's -U wants %s/opensm-lfts.dump "
		       "decompressed (%s -d)\n", a->dir,
		       a->compress == LANES_COMPRESS_GZIP ? "gzip" : "zstd");
	if (r->num_vls > 1 || r->num_sls > 1)
		printf("note: `opensm -R file -U %s/opensm-lfts.dump` loads the LFTs only; this routing "
		       "also needs its SLs (lanes-path-sl.txt) and SL2VL maps (opensm-sl2vl.dump): "
		       "deploy it with OpenSM's lanes-%s engine (liblanes_opensm.so, "
		       "docs/opensm-plugin.md)\n",
		       a->dir, a->e->name);
}

int cmd_route(int argc, char **argv)
{
	struct rargs a;
	struct lanes_fabric *f;
	struct lanes_routing *r = NULL;
	struct cli_progress pr;
	double t = 0, w = 0;
	int rc;

	memset(&a, 0, sizeof(a));
	lanes_route_opts_init(&a.ro);
	cli_fabric_opts_init(&a.fo);
	if ((rc = parse_route_args(&a, argc, argv)))
		return rc < 0 ? EXIT_OK : rc;
	cli_progress_start(&pr, "route", a.fo.quiet);
	lanes_progress_phase(&pr.p, "reading the fabric", 0);
	a.fo.cmd = "route";
	a.fo.table_copies = 2;
	a.fo.keep_removed = 1; /* report.json lists what the faults removed */
	if ((rc = cli_load_fabric(argc - optind, argv + optind, &a.fo, &f))) {
		cli_progress_stop(&pr);
		lanes_fault_list_free(&a.fo.removed);
		return rc;
	}
	cli_fabric_connected(f, 1);
	a.ro.progress = &pr.p;
	/* the LFTs and the SLs per source switch, before they are made */
	if (!(rc = cli_check_memory("route", f, &a.fo, 2, a.e, &a.ro)))
		rc = cli_route_fabric(a.e, f, &a.ro, &r, &t);
	lanes_progress_phase(&pr.p, "writing the files", 0);
	if (!rc)
		say_size(f, r, a.dir, a.compress);
	rc = rc ? rc : write_timed(&a, f, r, t, &pr.p, &w);
	cli_progress_stop(&pr);
	if (!rc)
		print_routed(&a, f, r, t, w);
	lanes_routing_free(r);
	lanes_fabric_free(f);
	lanes_fault_list_free(&a.fo.removed);
	return rc;
}
