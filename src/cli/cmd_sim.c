/*
 * cmd_sim.c - `lanes sim`: offer traffic to a routing in the packet-level
 * simulator (lanes/sim.h, docs/sim.md) over a sweep of offered loads, and
 * report what each engine's routing delivers: accepted throughput, latency,
 * deadlock, link utilisation; as a table, CSV or JSON, and as an SVG plot.
 *
 * The routing comes from engines (-e, as in `lanes compare`: each routes
 * with the same budgets, --vls being the switches' data VLs too) or from
 * tables (a DIR written by `lanes route`, or OpenSM's dumps, as `lanes
 * verify` reads them). An engine that refuses the fabric is a row saying
 * so; a deadlock is a result (exit 0) whose witness is printed below the
 * table. Every number depends only on the fabric, the routing, the options
 * and the seeds (--sim-seed, and --seed for the engines), never on --threads (the sweep's points run in parallel, each
 * with its own random stream).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "lanes/io.h"
#include "lanes/route.h"
#include "lanes/sim.h"
#include "svg.h"

static const char sim_usage[] =
	"usage: lanes sim -e ENGINE[,ENGINE...] FABRIC [options]\n"
	"       lanes sim FABRIC DIR [options]\n"
	"       lanes sim FABRIC --lfts FILE [--sl2vl FILE] [--path-sl FILE] [options]\n"
	"\n"
	"  Simulate traffic on each routing at packet level (docs/sim.md) for a sweep of\n"
	"  offered loads. One row per engine and load: accepted throughput and offered load\n"
	"  (fractions of link bandwidth per host), mean and 99th percentile latency in ns,\n"
	"  deadlock, and the busiest switch-to-switch link's utilisation. A deadlock is a\n"
	"  result: its witness (a cycle of buffers) is printed below the table.\n"
	"  -e LIST              engines, comma separated, or all; NAME:KEY=VALUE passes parameters\n"
	"  DIR                  a routing written by `lanes route` (opensm-lfts.dump, ...)\n"
	"  --lfts, --sl2vl, --path-sl FILE   OpenSM's dumps, as for `lanes verify`\n"
	"  --pattern P          uniform (default), bitcomp, bitrev, bitrot, shuffle, transpose,\n"
	"                       shift, stencil3d, hotspot, dragonfly-worst (docs/traffic-patterns.md)\n"
	"  --load L             A:B:STEP (B included), one value, or a comma list, each in 0..1\n"
	"                       (default 0.1:1.0:0.1)\n"
	"  --shift K            distance of --pattern shift (default 1)\n"
	"  --hotspot-fraction F senders of --pattern hotspot (default 0.06)\n"
	"  --placement P        linear (default: rank i on the i-th CA port in node order) or\n"
	"                       random (ranks shuffled by --sim-seed)\n"
	"  --vls N              data VLs of the switches, and the engines' VL budget (default 8)\n"
	"  --mtu B, --packet B  MTU and packet size in bytes (default 4096 and 4096)\n"
	"  --buffer N           input buffer per VL in packets (default 16)\n"
	"  --buffer-bytes B     or in bytes (64-byte credits)\n"
	"  --no-voq             one FIFO per input buffer instead of virtual output queues\n"
	"  --arbitration A      rr (default), weighted, age: VL arbitration on an output\n"
	"  --injection I        bernoulli (default) or poisson\n"
	"  --link-gbps G        data rate of every link (default 32, QDR 4x; 0 each port's own)\n"
	"  --link-latency NS    cable latency (default 10); --switch-latency NS (default 100)\n"
	"  --warmup NS          not measured (default 1000000); --time NS measured (default 5000000)\n"
	"  --sim-seed S         the simulation's randomness: traffic, injection, placement\n"
	"                       (default 1); --seed S seeds the engines, --fault-seed S faults\n"
	"  --threads N          worker threads, 0 one per core (default); results do not depend on it\n"
	"  --sls N, --seed S, --ca-only, --roots FILE   for the engines, as in `lanes route`\n"
	"  --csv                the table as CSV with a header\n"
	"  --json               one object: fabric, pattern, engines: [{engine, error, points}]\n"
	"  --plot FILE.svg      accepted throughput and mean latency against offered load\n"
	"  A progress line goes to standard error when it is a terminal.\n"
	"  Exit 0 done (deadlocks included); 1 an engine failed (a bug, not a refusal);\n"
	"  2 bad input or usage.\n"
	"\n" CLI_FABRIC_HELP;

#define MAX_LOADS 1000

enum {
	OPT_PATTERN = 1000, OPT_LOAD, OPT_MTU, OPT_PACKET, OPT_BUFFER, OPT_BUFFER_BYTES,
	OPT_NO_VOQ, OPT_ARBITRATION, OPT_INJECTION, OPT_LINK_GBPS, OPT_LINK_LATENCY,
	OPT_SWITCH_LATENCY, OPT_WARMUP, OPT_TIME, OPT_SHIFT, OPT_HOTSPOT, OPT_PLACEMENT, OPT_SIM_SEED, OPT_CSV, OPT_JSON,
	OPT_PLOT,
};

struct sargs {
	struct cli_fabric_opts fo;
	struct lanes_route_opts ro;
	struct lanes_sim_opts so;
	struct lanes_sim_traffic traffic;
	const char *engines, *lfts, *sl2vl, *path_sl, *dir, *plot, *load_spec;
	int csv, json;
	double loads[MAX_LOADS];
	size_t num_loads;
	char **words;
	int nwords;
	char fabric_label[512];
};

/* One routing's outcome: a point per load, or why there is none. */
struct sim_row {
	struct cli_engine_choice c; /* c.e NULL for tables read from files */
	char error[512];            /* empty, or why it refused or failed */
	int failed;                 /* the error is a bug, not a refusal */
	struct lanes_sim_point *points;
};

/* The progress line (stderr, a terminal only), updated as each point ends. */
struct progress {
	int on;
	double start;
	size_t done, total;
	double simulated_ns;
	uint64_t events;
	const char *label;      /* the row being simulated */
	pthread_mutex_t lock;   /* points end on the sweep's workers */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A finite number >= lo (> lo when strict); 0 or EXIT_USAGE naming --opt. */
static int parse_number(const char *opt, const char *value, double lo, int strict, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(value, &end);
	if (errno || end == value || *end || !isfinite(*out) || *out < lo || (strict && *out <= lo))
		return cli_usage_error("--%s: expected a number %s %g, not '%s'", opt,
				       strict ? ">" : ">=", lo, value);
	return 0;
}

/* An integer in lo..hi; 0 or EXIT_USAGE naming --opt. */
static int parse_u32(const char *opt, const char *value, uint64_t lo, uint64_t hi, uint32_t *out)
{
	uint64_t v;

	if (cli_parse_u64(opt, value, &v))
		return EXIT_USAGE;
	if (v < lo || v > hi)
		return cli_usage_error("--%s must be %llu..%llu, not %s", opt, (unsigned long long)lo,
				       (unsigned long long)hi, value);
	*out = (uint32_t)v;
	return 0;
}

/* A load in 0..1, rounded to 1e-9 so that 0.1 + 3 x 0.3 is 1. */
static int parse_load(const char *value, size_t len, double *out)
{
	char buf[64], *end;

	snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), value);
	errno = 0;
	*out = strtod(buf, &end);
	if (!len || len >= sizeof(buf) || errno || end == buf || *end || !(*out >= 0 && *out <= 1))
		return cli_usage_error("--load: '%s' is not a load in 0..1", buf);
	*out = round(*out * 1e9) / 1e9;
	return 0;
}

/* --load A:B:STEP, from A to B (included within rounding) in steps of STEP. */
static int parse_load_range(struct sargs *a, const char *spec)
{
	const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	double lo, hi, step, n;

	if (!c2 || strchr(c2 + 1, ':'))
		return cli_usage_error("--load: expected A:B:STEP, not '%s'", spec);
	if (parse_load(spec, (size_t)(c1 - spec), &lo) || parse_load(c1 + 1, (size_t)(c2 - c1 - 1), &hi) ||
	    parse_load(c2 + 1, strlen(c2 + 1), &step))
		return EXIT_USAGE;
	if (!(step > 0) || hi < lo)
		return cli_usage_error("--load: '%s' needs A <= B and a STEP above 0", spec);
	n = floor((hi - lo) / step + 1e-6) + 1;
	if (n > MAX_LOADS)
		return cli_usage_error("--load: '%s' has more than %d points", spec, MAX_LOADS);
	a->num_loads = (size_t)n;
	for (size_t i = 0; i < a->num_loads; i++)
		a->loads[i] = round((lo + (double)i * step) * 1e9) / 1e9;
	return 0;
}

/* --load: a range, or values separated by commas. */
static int parse_loads(struct sargs *a, const char *spec)
{
	const char *s = spec;

	if (strchr(spec, ':'))
		return parse_load_range(a, spec);
	for (a->num_loads = 0;; s += strcspn(s, ",") + 1) {
		if (a->num_loads == MAX_LOADS)
			return cli_usage_error("--load: more than %d points", MAX_LOADS);
		if (parse_load(s, strcspn(s, ","), &a->loads[a->num_loads++]))
			return EXIT_USAGE;
		if (!s[strcspn(s, ",")])
			return 0;
	}
}

static int parse_choice(const char *opt, const char *value, const char *const *names, int n,
			int *out)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(value, names[i])) {
			*out = i;
			return 0;
		}
	return cli_usage_error("--%s: unknown value '%s'", opt, value);
}

/* The simulator's options (and the traffic's): 0, or EXIT_USAGE naming the option. */
static int sim_option(struct sargs *a, int c, const char *v)
{
	static const char *const arbs[] = { "rr", "weighted", "age" };
	static const char *const injs[] = { "bernoulli", "poisson" };
	static const char *const places[] = { "linear", "random" };
	struct lanes_sim_opts *o = &a->so;

	switch (c) {
	case OPT_PATTERN:
		return lanes_sim_pattern_find(v, &a->traffic.pattern)
			       ? cli_usage_error("--pattern: unknown pattern '%s' (see lanes sim --help)", v)
			       : 0;
	case OPT_LOAD: a->load_spec = v; return 0;
	case OPT_MTU: return parse_u32("mtu", v, 64, 1u << 20, &o->mtu_bytes);
	case OPT_PACKET: return parse_u32("packet", v, 1, 1u << 20, &o->packet_bytes);
	case OPT_BUFFER: return parse_u32("buffer", v, 1, 1u << 16, &o->buffer_packets);
	case OPT_BUFFER_BYTES: return parse_u32("buffer-bytes", v, 64, 1u << 30, &o->buffer_bytes);
	case OPT_NO_VOQ: o->voq = 0; return 0;
	case OPT_ARBITRATION: return parse_choice("arbitration", v, arbs, 3, &o->arbitration);
	case OPT_INJECTION: return parse_choice("injection", v, injs, 2, &o->injection);
	case OPT_LINK_GBPS: return parse_number("link-gbps", v, 0, 0, &o->link_gbps);
	case OPT_LINK_LATENCY: return parse_number("link-latency", v, 0, 0, &o->link_latency_ns);
	case OPT_SWITCH_LATENCY: return parse_number("switch-latency", v, 0, 0, &o->switch_latency_ns);
	case OPT_WARMUP: return parse_number("warmup", v, 0, 0, &o->warmup_ns);
	case OPT_TIME: return parse_number("time", v, 0, 1, &o->measure_ns);
	case OPT_SHIFT: return parse_u32("shift", v, 0, UINT32_MAX, &a->traffic.shift);
	case OPT_HOTSPOT: return parse_number("hotspot-fraction", v, 0, 1, &a->traffic.hotspot_fraction);
	case OPT_PLACEMENT: return parse_choice("placement", v, places, 2, &a->traffic.placement);
	case OPT_SIM_SEED: return cli_parse_u64("sim-seed", v, &o->seed);
	default: return -1;
	}
}

/* What the simulator cannot take, named by option before anything runs. */
static int check_sim_options(const struct sargs *a)
{
	const struct lanes_sim_opts *o = &a->so;

	if (o->packet_bytes > o->mtu_bytes)
		return cli_usage_error("--packet %u is larger than the MTU (--mtu %u)", o->packet_bytes,
				       o->mtu_bytes);
	if (o->buffer_bytes && o->buffer_bytes / 64 < (o->packet_bytes + 63) / 64)
		return cli_usage_error("--buffer-bytes %u holds no whole packet of %u bytes (--packet)",
				       o->buffer_bytes, o->packet_bytes);
	if (a->traffic.hotspot_fraction > 1)
		return cli_usage_error("--hotspot-fraction must be in (0, 1], not %g",
				       a->traffic.hotspot_fraction);
	return 0;
}

static int other_option(struct sargs *a, int c)
{
	switch (c) {
	case 'l': a->lfts = optarg; return 0;
	case 'm': a->sl2vl = optarg; return 0;
	case 'p': a->path_sl = optarg; return 0;
	case OPT_CSV: a->csv = 1; return 0;
	case OPT_JSON: a->json = 1; return 0;
	case OPT_PLOT: a->plot = optarg; return 0;
	case 'h': fputs(sim_usage, stdout); return -1;
	default: {
		int rc = sim_option(a, c, optarg);

		if (rc >= 0)
			return rc;
		fputs(sim_usage, stderr);
		return EXIT_USAGE;
	}
	}
}

/* FABRIC as the user named it: the file, or the generator and its words. */
static void fabric_label(struct sargs *a)
{
	size_t used = 0;

	a->fabric_label[0] = 0;
	for (int i = 0; i < a->nwords && used < sizeof(a->fabric_label); i++)
		used += (size_t)snprintf(a->fabric_label + used, sizeof(a->fabric_label) - used,
					 "%s%s", i ? " " : "", a->words[i]);
}

/* Options into a; -1 after --help, EXIT_USAGE (printed) on bad usage. */
static int parse_args(struct sargs *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_FABRIC_LONGOPTS, CLI_ROUTE_LONGOPTS,
		{ "lfts", required_argument, NULL, 'l' }, { "sl2vl", required_argument, NULL, 'm' },
		{ "path-sl", required_argument, NULL, 'p' },
		{ "pattern", required_argument, NULL, OPT_PATTERN },
		{ "load", required_argument, NULL, OPT_LOAD }, { "mtu", required_argument, NULL, OPT_MTU },
		{ "packet", required_argument, NULL, OPT_PACKET },
		{ "buffer", required_argument, NULL, OPT_BUFFER },
		{ "buffer-bytes", required_argument, NULL, OPT_BUFFER_BYTES },
		{ "no-voq", no_argument, NULL, OPT_NO_VOQ },
		{ "arbitration", required_argument, NULL, OPT_ARBITRATION },
		{ "injection", required_argument, NULL, OPT_INJECTION },
		{ "link-gbps", required_argument, NULL, OPT_LINK_GBPS },
		{ "link-latency", required_argument, NULL, OPT_LINK_LATENCY },
		{ "switch-latency", required_argument, NULL, OPT_SWITCH_LATENCY },
		{ "warmup", required_argument, NULL, OPT_WARMUP }, { "time", required_argument, NULL, OPT_TIME },
		{ "shift", required_argument, NULL, OPT_SHIFT },
		{ "hotspot-fraction", required_argument, NULL, OPT_HOTSPOT },
		{ "placement", required_argument, NULL, OPT_PLACEMENT },
		{ "sim-seed", required_argument, NULL, OPT_SIM_SEED },
		{ "csv", no_argument, NULL, OPT_CSV }, { "json", no_argument, NULL, OPT_JSON },
		{ "plot", required_argument, NULL, OPT_PLOT }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 } };
	struct cli_seen seen = { { 0 }, 0 };
	int c, rc;

	while ((c = cli_getopt(argc, argv, "e:h", longopts, &seen)) != -1) {
		if (c == CLI_OPT_TWICE)
			return EXIT_USAGE;
		if ((rc = cli_fabric_option(c, optarg, &a->fo)) ||
		    (rc = cli_route_option(c, optarg, &a->ro, &a->engines))) {
			if (rc < 0)
				return EXIT_USAGE;
			continue;
		}
		if ((rc = other_option(a, c)))
			return rc;
	}
	if (a->csv + a->json > 1)
		return cli_usage_error("sim: --csv and --json exclude each other");
	if (cli_seen_has(&seen, 'N') && !a->engines)
		return cli_usage_error("sim: --seed seeds the engines of -e; the traffic takes "
				       "--sim-seed, fault injection --fault-seed");
	a->so.threads = a->ro.threads;
	a->so.data_vls = a->ro.max_vls;
	if ((rc = check_sim_options(a)) ||
	    (rc = parse_loads(a, a->load_spec ? a->load_spec : "0.1:1.0:0.1")))
		return rc;
	if ((rc = cli_split_fabric_dir("sim", argc - optind, argv + optind, &a->words, &a->nwords,
				       &a->dir)))
		return rc;
	fabric_label(a);
	return 0;
}

/* Where the routings come from: engines, or tables; each a row. */
static int pick_rows(const struct sargs *a, struct sim_row *rows, size_t *n)
{
	struct cli_engine_choice picked[CLI_MAX_ENGINES];

	if (a->engines) {
		if (a->dir || a->lfts || a->sl2vl || a->path_sl)
			return cli_usage_error("sim: -e ENGINE routes itself; drop DIR, --lfts, --sl2vl "
					       "and --path-sl");
		if (cli_pick_engines("sim", a->engines, picked, n))
			return EXIT_USAGE;
		for (size_t i = 0; i < *n; i++)
			rows[i].c = picked[i];
		if (!a->ro.roots)
			return 0;
		for (size_t i = 0; i < *n; i++)
			if (cli_engine_takes_roots(rows[i].c.e))
				return 0;
		return cli_usage_error("sim: --roots is read by updn only, and -e does not name it");
	}
	if (!a->dir && !a->lfts)
		return cli_usage_error("sim: give -e ENGINE[,ENGINE...], a routing DIR or --lfts FILE");
	if (a->ro.roots)
		return cli_usage_error("sim: --roots is for routing with -e updn; the tables read are "
				       "simulated as they are");
	*n = 1;
	snprintf(rows[0].c.label, sizeof(rows[0].c.label), "%s", a->dir ? a->dir : a->lfts);
	return 0;
}

static void progress_show(struct progress *p, const char *label)
{
	double elapsed = now() - p->start;
	char eta[32] = "?";

	if (!p->on)
		return;
	if (p->done)
		snprintf(eta, sizeof(eta), "%.0f s", elapsed / (double)p->done * (double)(p->total - p->done));
	fprintf(stderr, "\r\033[Ksim: %s: point %zu/%zu, %.3g ms simulated, %.3g M events/s, ETA %s",
		label, p->done, p->total, p->simulated_ns / 1e6,
		elapsed > 0 ? (double)p->events / elapsed / 1e6 : 0.0, eta);
	fflush(stderr);
}

/* lanes_sim_opts.progress: one point of the current row ended. */
static void progress_point(void *ctx, size_t point, const struct lanes_sim_point *result)
{
	struct progress *p = ctx;

	(void)point;
	pthread_mutex_lock(&p->lock);
	p->done++;
	p->simulated_ns += result->simulated_ns;
	p->events += result->events;
	progress_show(p, p->label);
	pthread_mutex_unlock(&p->lock);
}

static void progress_end(const struct progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}

/*
 * The routing of one row: an engine's, or the tables'. 0, 1 (a refusal or
 * failure: the row says), or EXIT_USAGE.
 */
static int get_routing(const struct sargs *a, const struct lanes_fabric *f, struct sim_row *w,
		       struct lanes_routing **r)
{
	struct lanes_route_opts ro = a->ro;
	struct lanes_error err;
	char buf[1024];
	double t;

	if (!w->c.e) {
		if (cli_load_tables("sim", a->dir, a->lfts, a->sl2vl, a->path_sl, f, &a->fo, NULL, r))
			return EXIT_USAGE;
		if ((*r)->num_vls > a->so.data_vls)
			return cli_usage_error("sim: %s uses %u VLs and the switches have %u: give --vls %u",
					       w->c.label, (*r)->num_vls, a->so.data_vls, (*r)->num_vls);
		return 0;
	}
	ro.params = w->c.params[0] ? w->c.params : NULL;
	switch (cli_run_engine(w->c.e, f, &ro, r, &t, &err)) {
	case CLI_ROUTED:
		return 0;
	case CLI_FAILED:
		w->failed = 1;
		/* fall through */
	case CLI_REFUSED:
		snprintf(w->error, sizeof(w->error), "%s", cli_engine_message(w->c.e, &err, buf, sizeof(buf)));
		return 1;
	default:
		cli_engine_error(w->c.e, &err);
		return EXIT_USAGE;
	}
}

/*
 * Route (or read) and sweep one row. A simulator error that the options or
 * the traffic cause (LANES_EINVAL, LANES_EREFUSED) stops the command; out
 * of memory and internal errors are the row's failure.
 */
static int run_row(const struct sargs *a, const struct lanes_fabric *f, struct sim_row *w,
		   struct progress *p)
{
	struct lanes_routing *r = NULL;
	struct lanes_error err;
	int rc;

	pthread_mutex_lock(&p->lock);
	p->label = w->c.label;
	progress_show(p, w->c.label);
	pthread_mutex_unlock(&p->lock);
	if ((rc = get_routing(a, f, w, &r)))
		goto out;
	if (!(w->points = calloc(a->num_loads, sizeof(*w->points)))) {
		rc = cli_out_of_memory();
		goto out;
	}
	if ((rc = lanes_sim_sweep(f, r, &a->so, &a->traffic, a->loads, a->num_loads, w->points, &err))) {
		free(w->points);
		w->points = NULL;
		if (rc == LANES_EINVAL || rc == LANES_EREFUSED) {
			rc = cli_fail(&err);
			goto out;
		}
		w->failed = 1;
		lanes_error_format(&err, w->error, sizeof(w->error));
	}
	rc = 0;
out:
	pthread_mutex_lock(&p->lock);
	p->done = (p->done + a->num_loads - 1) / a->num_loads * a->num_loads; /* a row that stopped */
	progress_show(p, w->c.label);
	pthread_mutex_unlock(&p->lock);
	lanes_routing_free(r);
	return rc == 1 ? 0 : rc;
}

static void print_header(const struct sargs *a, const struct lanes_fabric *f)
{
	printf("%s: %u switches, %u CAs; pattern %s%s; %.0f ns warm-up, %.0f ns measured per point\n"
	       "LOAD and ACCEPTED are fractions of link bandwidth per host; LINK-MAX the busiest "
	       "switch-to-switch link's utilisation\n\n",
	       a->fabric_label, f->num_switches, f->num_cas, lanes_sim_pattern_name(a->traffic.pattern),
	       a->traffic.placement == LANES_SIM_PLACE_RANDOM ? ", random placement" : "", a->so.warmup_ns, a->so.measure_ns);
}

static void print_table(const struct sargs *a, const struct lanes_fabric *f,
			const struct sim_row *rows, size_t n)
{
	int width = 10;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i].c.label) > width)
			width = (int)strlen(rows[i].c.label);
	print_header(a, f);
	printf("%-*s %6s %9s %11s %11s %8s %9s\n", width, "ENGINE", "LOAD", "ACCEPTED", "LAT-AVG-NS",
	       "LAT-P99-NS", "DEADLOCK", "LINK-MAX");
	for (size_t i = 0; i < n; i++) {
		const struct sim_row *w = &rows[i];

		if (w->error[0]) {
			printf("%-*s %s: %s\n", width, w->c.label, w->failed ? "FAILED" : "refused", w->error);
			continue;
		}
		for (size_t k = 0; k < a->num_loads; k++) {
			const struct lanes_sim_point *p = &w->points[k];

			printf("%-*s %6.3f %9.4f %11.1f %11.1f %8s %9.4f\n", width, w->c.label, p->load,
			       p->accepted, p->latency_avg_ns, p->latency_p99_ns, p->deadlock ? "yes" : "no",
			       p->link_utilisation_max);
		}
	}
}

/* Every deadlock's witness: under the table, or on stderr after CSV (JSON holds them). */
static void print_witnesses(FILE *out, const struct sargs *a, const struct sim_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; rows[i].points && k < a->num_loads; k++) {
			const struct lanes_sim_point *p = &rows[i].points[k];

			if (p->deadlock)
				fprintf(out, "\n%s at load %.3f: %s", rows[i].c.label, p->load,
					p->deadlock_witness ? p->deadlock_witness : "deadlock (no witness)\n");
		}
}

/* CSV quoting: a field with a comma, quote or newline in quotes, quotes doubled. */
static void csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void print_csv(const struct sargs *a, const struct sim_row *rows, size_t n)
{
	puts("engine,load,accepted,latency_avg_ns,latency_p99_ns,deadlock,link_utilisation_avg,"
	     "link_utilisation_max,packets,simulated_ns,error");
	for (size_t i = 0; i < n; i++) {
		const struct sim_row *w = &rows[i];

		if (w->error[0]) {
			csv_field(w->c.label);
			fputs(",,,,,,,,,,", stdout);
			csv_field(w->error);
			putchar('\n');
			continue;
		}
		for (size_t k = 0; k < a->num_loads; k++) {
			const struct lanes_sim_point *p = &w->points[k];

			csv_field(w->c.label);
			printf(",%.10g,%.10g,%.10g,%.10g,%s,%.10g,%.10g,%llu,%.10g,\n", p->load, p->accepted,
			       p->latency_avg_ns, p->latency_p99_ns, p->deadlock ? "yes" : "no",
			       p->link_utilisation_avg, p->link_utilisation_max,
			       (unsigned long long)p->packets, p->simulated_ns);
		}
	}
}

/* A double printed with 10 significant digits (0.4, not 0.40000000000000002). */
static struct json_object *num(double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.10g", v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *point_json(const struct sargs *a, const struct lanes_sim_point *p)
{
	struct json_object *o = json_object_new_object(), *vl = json_object_new_array();

	json_object_object_add(o, "load", num(p->load));
	json_object_object_add(o, "accepted", num(p->accepted));
	json_object_object_add(o, "latency_avg_ns", num(p->latency_avg_ns));
	json_object_object_add(o, "latency_p99_ns", num(p->latency_p99_ns));
	json_object_object_add(o, "deadlock", p->deadlock ? json_object_new_string(
						     p->deadlock_witness ? p->deadlock_witness : "")
							  : NULL);
	json_object_object_add(o, "link_utilisation_avg", num(p->link_utilisation_avg));
	json_object_object_add(o, "link_utilisation_max", num(p->link_utilisation_max));
	for (unsigned v = 0; v < a->so.data_vls && v < LANES_NUM_SLS; v++)
		json_object_array_add(vl, num(p->vl_utilisation[v]));
	json_object_object_add(o, "vl_utilisation", vl);
	json_object_object_add(o, "packets", json_object_new_int64((int64_t)p->packets));
	json_object_object_add(o, "simulated_ns", num(p->simulated_ns));
	return o;
}

static void print_json(const struct sargs *a, const struct sim_row *rows, size_t n)
{
	struct json_object *o = json_object_new_object(), *engines = json_object_new_array();

	json_object_object_add(o, "fabric", json_object_new_string(a->fabric_label));
	json_object_object_add(o, "pattern",
			       json_object_new_string(lanes_sim_pattern_name(a->traffic.pattern)));
	json_object_object_add(o, "placement", json_object_new_string(
		a->traffic.placement == LANES_SIM_PLACE_RANDOM ? "random" : "linear"));
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_new_object(), *pts = json_object_new_array();

		json_object_object_add(e, "engine", json_object_new_string(rows[i].c.label));
		json_object_object_add(e, "error", rows[i].error[0] ? json_object_new_string(rows[i].error)
								     : NULL);
		for (size_t k = 0; rows[i].points && k < a->num_loads; k++)
			json_object_array_add(pts, point_json(a, &rows[i].points[k]));
		json_object_object_add(e, "points", pts);
		json_object_array_add(engines, e);
	}
	json_object_object_add(o, "engines", engines);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* The series of the plot: x the loads, y accepted (panel 0) and mean latency in us (panel 1). */
static void plot_series(const struct sargs *a, const struct sim_row *rows, size_t n,
			struct svg_series *acc, struct svg_series *lat, double *ys, size_t *m)
{
	*m = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sim_row *w = &rows[i];
		double *ya = ys + 2 * *m * a->num_loads, *yl = ya + a->num_loads;

		if (!w->points)
			continue;
		for (size_t k = 0; k < a->num_loads; k++) {
			ya[k] = w->points[k].accepted;
			yl[k] = w->points[k].packets ? w->points[k].latency_avg_ns / 1000.0 : NAN;
		}
		acc[*m] = (struct svg_series){ w->c.label, a->num_loads, a->loads, ya };
		lat[*m] = (struct svg_series){ w->c.label, a->num_loads, a->loads, yl };
		(*m)++;
	}
}

/* --plot: two panels, written to a temporary file and renamed into place. */
static int write_plot(const struct sargs *a, const struct sim_row *rows, size_t n)
{
	struct svg_series acc[CLI_MAX_ENGINES], lat[CLI_MAX_ENGINES];
	struct lanes_atomic out;
	struct lanes_error err;
	double *ys = malloc(2 * (n ? n : 1) * a->num_loads * sizeof(*ys));
	char title[640];
	size_t m;
	int rc = EXIT_USAGE;

	memset(&out, 0, sizeof(out));
	if (!ys)
		return cli_out_of_memory();
	plot_series(a, rows, n, acc, lat, ys, &m);
	struct svg_panel panels[2] = {
		{ "Accepted throughput", "offered load (fraction of link bandwidth per host)",
		  "accepted (fraction of link bandwidth per host)", acc, m },
		{ "Mean latency", "offered load (fraction of link bandwidth per host)",
		  "mean latency (\u00b5s)", lat, m },
	};
	snprintf(title, sizeof(title), "%s, pattern %s%s", a->fabric_label,
		 lanes_sim_pattern_name(a->traffic.pattern),
		 a->traffic.placement == LANES_SIM_PLACE_RANDOM ? ", random placement" : "");
	if (lanes_atomic_open(&out, a->plot, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	if (svg_write(out.fp, title, panels, 2)) {
		rc = cli_usage_error("%s: cannot write the plot", a->plot);
		goto out;
	}
	rc = lanes_atomic_commit(&out, &err) ? cli_fail(&err) : 0;
out:
	lanes_atomic_abort(&out);
	free(ys);
	return rc;
}

/* Print what the rows came to; exit 1 when a row failed (a bug). */
static int report(const struct sargs *a, const struct lanes_fabric *f, const struct sim_row *rows,
		  size_t n)
{
	int rc = EXIT_OK;

	if (a->json) {
		print_json(a, rows, n);
	} else if (a->csv) {
		print_csv(a, rows, n);
		print_witnesses(stderr, a, rows, n);
	} else {
		print_table(a, f, rows, n);
		print_witnesses(stdout, a, rows, n);
	}
	if (a->plot && (rc = write_plot(a, rows, n)))
		return rc;
	for (size_t i = 0; i < n; i++)
		if (rows[i].failed) {
			fprintf(stderr, "lanes: %s failed: %s\n", rows[i].c.label, rows[i].error);
			rc = EXIT_FINDING;
		}
	return rc;
}

/* The tables and the hungriest engine's own arrays (the rows run one by one). */
static int check_memory(const struct sargs *a, const struct lanes_fabric *f,
			const struct sim_row *rows, size_t n)
{
	const struct lanes_engine *engines[CLI_MAX_ENGINES];

	for (size_t i = 0; i < n; i++)
		engines[i] = rows[i].c.e; /* NULL for tables read from files */
	return cli_check_memory_of("sim", f, &a->fo, 2, engines, n, &a->ro);
}

int cmd_sim(int argc, char **argv)
{
	struct sim_row *rows = calloc(CLI_MAX_ENGINES, sizeof(*rows));
	struct progress prog = { isatty(STDERR_FILENO), now(), 0, 0, 0, 0, "", PTHREAD_MUTEX_INITIALIZER };
	struct sargs *a = calloc(1, sizeof(*a));
	struct lanes_fabric *f = NULL;
	size_t n = 0;
	int rc;

	if (!rows || !a) {
		rc = cli_out_of_memory();
		goto out;
	}
	cli_fabric_opts_init(&a->fo);
	lanes_route_opts_init(&a->ro);
	lanes_sim_opts_init(&a->so);
	lanes_sim_traffic_init(&a->traffic);
	a->fo.cmd = "sim";
	a->fo.table_copies = 2; /* the LFTs and the path SLs of the engine it runs */
	if ((rc = parse_args(a, argc, argv)) || (rc = pick_rows(a, rows, &n)) ||
	    (rc = cli_load_fabric(a->nwords, a->words, &a->fo, &f)) ||
	    (rc = check_memory(a, f, rows, n)))
		goto out;
	prog.total = n * a->num_loads;
	if (prog.on) {
		a->so.progress = progress_point;
		a->so.progress_ctx = &prog;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = run_row(a, f, &rows[i], &prog);
	progress_end(&prog);
	if (!rc)
		rc = report(a, f, rows, n);
out:
	for (size_t i = 0; rows && i < n; i++) {
		for (size_t k = 0; rows[i].points && k < a->num_loads; k++)
			lanes_sim_point_clear(&rows[i].points[k]);
		free(rows[i].points);
	}
	lanes_fabric_free(f);
	free(rows);
	free(a);
	return rc < 0 ? EXIT_OK : rc;
}
