/*
 * cmd_compare.c - `lanes compare`: route one fabric with several engines and
 * judge every routing with the verifier, one row per engine.
 *
 * "Deadlock-free" in the table is the verifier's verdict (an acyclic channel
 * dependency graph, no VL over the budget, no data on VL 15), never the
 * engine's claim. The metrics are the verifier's CA-to-CA ones (hops, routes
 * per switch-to-switch channel, effective bisection bandwidth over random
 * bisections); time_s is the routing alone, as `lanes route` reports it.
 * An engine that refuses (its check, or a budget it cannot fit) gets a row
 * with the reason. Exit 1 when an engine fails otherwise (an internal
 * error), when an engine that claims deadlock freedom yields a routing the
 * verifier rejects, or when a routing leaves pairs unreachable on a connected
 * fabric: all are bugs worth a non-zero status in a script. The claim is
 * freedom for CA-to-CA traffic (what the verifier checks by default), so with
 * --all-traffic the column shows the stricter verdict but does not judge it.
 * Bad input is the command's error, not an engine's refusal: a --roots file
 * that updn cannot read or use stops the command with exit 2, as `lanes
 * route` does (cli.h: the class comes from the error code). Engines that
 * read --roots run first, so a bad file fails before the others spend time.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "cli.h"
#include "progress.h"
#include "lanes/route.h"
#include "lanes/topo.h"
#include "lanes/verify.h"

static const char compare_usage[] =
	"usage: lanes compare FABRIC [-e E1,E2,...|all] [--vls N] [--sls N] [--ebb-patterns N]\n"
	"                     [--all-traffic] [--ca-only] [--roots FILE] [--threads N] [--json]\n"
	"\n"
	"  Route FABRIC with each engine (default: all) and check each routing with the\n"
	"  verifier. One row per engine: deadlock-free by the verifier (not the engine's claim),\n"
	"  VLs and SLs used, CA-to-CA hops average and max, routes per switch-to-switch channel\n"
	"  max and standard deviation, effective bisection bandwidth, routing time (unit shown),\n"
	"  or the reason the engine refused; NOTE says when pairs are unreachable.\n"
	"  -e LIST          engines, comma separated, or all; each may carry its parameters,\n"
	"                   NAME:KEY=VALUE[:KEY=VALUE...] (dfdn:base=minhop)\n"
	"  --vls N, --sls N the budgets every engine gets (default 8 and 16)\n"
	"  --ca-only        no engine routes switch LIDs as destinations\n"
	"  --seed S         the engines' seed, for randomised engines (default 1)\n"
	"  --ebb-seed S     seed for the bisections (default 1)\n"
	"  --roots FILE     root switch GUIDs for updn only (the other engines do not use it);\n"
	"                   refused when LIST does not name updn\n"
	"  --ebb-patterns N random bisections for the EBB (default 100; 0 skips it: EBB -, null)\n"
	"  --all-traffic    judge credit loops on every path, switch traffic included\n"
	"  --threads N      worker threads for each engine and the verifier, 0 one per core\n"
	"                   (default); the results do not depend on it\n"
	"  --json           an array of objects: engine, claims_deadlock_free, deadlock_free,\n"
	"                   reachable, unreachable_pairs, vls, sls (used), vls_needed,\n"
	"                   sls_needed (what the engine's scheme needs), hops_avg, hops_max,\n"
	"                   routes_per_channel_max, routes_per_channel_stddev, ebb, time_s, error\n"
	"  Exit 0 done; 1 an engine failed (an internal error, not a refusal), an engine that\n"
	"  claims deadlock freedom was rejected by the verifier (CA-to-CA traffic; not judged\n"
	"  with --all-traffic), or a routing left pairs unreachable on a connected fabric;\n"
	"  2 bad input (the fabric, an option, the --roots file) or usage.\n"
	"\n" CLI_FABRIC_HELP;

#define MAX_ENGINES CLI_MAX_ENGINES

/* One engine's outcome. */
struct row {
	const struct lanes_engine *e;
	char label[128];          /* as -e names it: "dfdn:base=minhop" */
	char params[256];         /* from -e NAME:KEY=VALUE, space-separated */
	char error[512];          /* empty, or why it refused */
	int failed;               /* the error is not a refusal: a bug */
	int deadlock_free, reachable;
	int has_ebb;              /* the EBB was computed (--ebb-patterns > 0) */
	uint64_t unreachable;     /* pairs lost: loops and drops */
	unsigned vls, sls;        /* used, as the verifier counts them */
	unsigned vls_needed, sls_needed; /* what the engine's scheme needs */
	double hops_avg, rpc_stddev, ebb, time_s;
	unsigned hops_max;
	uint64_t rpc_max;
};

struct cargs {
	struct cli_fabric_opts fo;
	struct lanes_route_opts ro;
	struct lanes_verify_opts vo;
	const char *engines;
	int json;
};

/* The reason, without the engine's name when the engine already led with it. */
static void refusal(struct row *w, const struct lanes_error *err)
{
	char buf[1024];

	snprintf(w->error, sizeof(w->error), "%s", cli_engine_message(w->e, err, buf, sizeof(buf)));
}

/*
 * Route and verify with one engine. A refusal (its check(), a budget it
 * cannot fit), an internal error and running out of memory are rows; bad
 * input (a roots file that cannot be read or used) stops the command.
 * @return 0, or EXIT_USAGE (printed) when the work cannot go on.
 */
static int run_engine(const struct cargs *a, const struct lanes_fabric *f, struct row *w)
{
	struct lanes_routing *r;
	struct lanes_verify_result *res;
	struct lanes_error err;

	struct lanes_route_opts ro = a->ro;

	ro.params = w->params[0] ? w->params : NULL;
	switch (cli_run_engine(w->e, f, &ro, &r, &w->time_s, &err)) {
	case CLI_ROUTED:
		break;
	case CLI_FAILED:
		w->failed = 1;
		/* fall through */
	case CLI_REFUSED:
		refusal(w, &err);
		return 0;
	default:
		cli_engine_error(w->e, &err);
		return EXIT_USAGE;
	}
	if (lanes_verify(f, r, &a->vo, &res, &err)) {
		lanes_routing_free(r);
		return cli_fail(&err);
	}
	w->deadlock_free = res->deadlock_free && !res->vl15_used && !res->vls_over_budget;
	w->reachable = res->reachable;
	w->unreachable = res->unreachable_pairs;
	w->vls = res->vls_used;
	w->sls = res->sls_used;
	w->vls_needed = r->vls_needed;
	w->sls_needed = r->sls_needed;
	w->hops_avg = res->hops_avg;
	w->hops_max = res->hops_max;
	w->rpc_max = res->rpc_max;
	w->rpc_stddev = res->rpc_stddev;
	w->has_ebb = res->ebb_patterns > 0;
	w->ebb = res->ebb;
	lanes_verify_result_free(res);
	lanes_routing_free(r);
	return 0;
}

/* Resolve -e into rows; NULL or "all" is every registered engine. Empty names are errors. */
static int pick_engines(const char *list, struct row *rows, size_t *n)
{
	struct cli_engine_choice picked[CLI_MAX_ENGINES];

	if (cli_pick_engines("compare", list, picked, n))
		return EXIT_USAGE;
	for (size_t i = 0; i < *n; i++) {
		rows[i].e = picked[i].e;
		memcpy(rows[i].label, picked[i].label, sizeof(rows[i].label));
		memcpy(rows[i].params, picked[i].params, sizeof(rows[i].params));
	}
	return 0;
}

/* The tables and the hungriest engine's own arrays (the engines run one by one). */
static int check_memory(const struct cargs *a, const struct lanes_fabric *f,
			const struct row *rows, size_t n)
{
	const struct lanes_engine *engines[CLI_MAX_ENGINES];

	for (size_t i = 0; i < n; i++)
		engines[i] = rows[i].e;
	return cli_check_memory_of("compare", f, &a->fo, 3, engines, n, &a->ro);
}

/* --roots must reach an engine that reads it. */
static int check_roots(const struct cargs *a, const struct row *rows, size_t n)
{
	if (!a->ro.roots)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (cli_engine_takes_roots(rows[i].e))
			return 0;
	return cli_usage_error("compare: --roots is read by updn only, and -e does not name it");
}

static struct json_object *row_json(const struct row *w)
{
	struct json_object *o = json_object_new_object();
	int ok = !w->error[0];

#define NUM(key, v) json_object_object_add(o, key, ok ? (v) : NULL)
	json_object_object_add(o, "engine", json_object_new_string(w->label));
	json_object_object_add(o, "claims_deadlock_free",
			       json_object_new_boolean((w->e->flags & LANES_ENGINE_DEADLOCK_FREE) != 0));
	NUM("deadlock_free", json_object_new_boolean(w->deadlock_free));
	NUM("reachable", json_object_new_boolean(w->reachable));
	NUM("unreachable_pairs", json_object_new_int64((int64_t)w->unreachable));
	NUM("vls", json_object_new_int((int)w->vls));
	NUM("sls", json_object_new_int((int)w->sls));
	NUM("vls_needed", json_object_new_int((int)w->vls_needed));
	NUM("sls_needed", json_object_new_int((int)w->sls_needed));
	NUM("hops_avg", json_object_new_double(w->hops_avg));
	NUM("hops_max", json_object_new_int((int)w->hops_max));
	NUM("routes_per_channel_max", json_object_new_int64((int64_t)w->rpc_max));
	NUM("routes_per_channel_stddev", json_object_new_double(w->rpc_stddev));
	NUM("ebb", w->has_ebb ? json_object_new_double(w->ebb) : NULL);
	NUM("time_s", json_object_new_double(w->time_s));
#undef NUM
	json_object_object_add(o, "error", ok ? NULL : json_object_new_string(w->error));
	return o;
}

static void print_json(const struct row *rows, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, row_json(&rows[i]));
	puts(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(a);
}

/* Bytes beyond one per character ("µ" is two): what printf's width must add. */
static int utf8_extra_bytes(const char *s)
{
	int extra = 0;

	for (; *s; s++)
		extra += ((unsigned char)*s & 0xc0) == 0x80;
	return extra;
}

/* The engine column's width: its longest label ("dfdn:base=minhop"), at least 10. */
static int label_width(const struct row *rows, size_t n)
{
	int width = 10;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i].label) > width)
			width = (int)strlen(rows[i].label);
	return width;
}

static void print_header(const struct lanes_fabric *f, int width)
{
	printf("%u switches, %u CAs; deadlock-free is the verifier's verdict; VLS and SLS are "
	       "used/needed\n\n", f->num_switches, f->num_cas);
	printf("%-*s %-13s %5s %5s %8s %8s %8s %10s %6s %8s %s\n", width, "ENGINE", "DEADLOCK-FREE",
	       "VLS", "SLS", "HOPS-AVG", "HOPS-MAX", "RPC-MAX", "RPC-STDDEV", "EBB", "TIME", "NOTE");
}

/* One row, printed as soon as it and the rows above it are done. */
static void print_row(const struct row *w, int width)
{
	char vls[16], sls[16], time[32];

	if (w->error[0]) {
		printf("%-*s %s: %s\n", width, w->label, w->failed ? "FAILED" : "refused", w->error);
		fflush(stdout);
		return;
	}
	snprintf(vls, sizeof(vls), "%u/%u", w->vls, w->vls_needed);
	snprintf(sls, sizeof(sls), "%u/%u", w->sls, w->sls_needed);
	printf("%-*s %-13s %5s %5s %8.3f %8u %8llu %10.2f ", width, w->label,
	       w->deadlock_free ? "yes" : "no", vls, sls, w->hops_avg, w->hops_max,
	       (unsigned long long)w->rpc_max, w->rpc_stddev);
	if (w->has_ebb)
		printf("%6.3f", w->ebb);
	else
		printf("%6s", "-");
	cli_duration(w->time_s, time, sizeof(time));
	printf(" %*s", 8 + utf8_extra_bytes(time), time);
	if (!w->reachable)
		printf(" unreachable: %llu pairs", (unsigned long long)w->unreachable);
	putchar('\n');
	fflush(stdout);
}

static int parse_args(struct cargs *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_FABRIC_LONGOPTS, CLI_ROUTE_LONGOPTS, CLI_VERIFY_LONGOPTS,
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 } };
	struct cli_seen seen = { { 0 }, 0 };
	int c, rc;

	while ((c = cli_getopt(argc, argv, "e:h", longopts, &seen)) != -1) {
		if (c == CLI_OPT_TWICE)
			return EXIT_USAGE;
		if ((rc = cli_fabric_route_verify_option(c, optarg, &a->fo, &a->ro, &a->engines, &a->vo)) < 0)
			return EXIT_USAGE;
		if (rc)
			continue;
		switch (c) {
		case 'j': a->json = 1; break;
		case 'h': fputs(compare_usage, stdout); return -1;
		default: fputs(compare_usage, stderr); return EXIT_USAGE;
		}
	}
	a->vo.threads = a->ro.threads;
	a->vo.max_vls = a->ro.max_vls;
	return 0;
}

/* Is some row a failure, a broken claim, or unreachable pairs on a connected fabric? */
static int findings(const struct cargs *a, const struct lanes_fabric *f, const struct row *rows,
		    size_t n)
{
	int connected = cli_fabric_connected(f, 0);

	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];

		if (w->failed) {
			fprintf(stderr, "lanes: %s failed: %s\n", w->e->name, w->error);
			return EXIT_FINDING;
		}
		if (w->error[0])
			continue;
		if ((w->e->flags & LANES_ENGINE_DEADLOCK_FREE) && !w->deadlock_free &&
		    !a->vo.all_traffic) {
			fprintf(stderr, "lanes: %s claims deadlock freedom; the verifier disagrees\n",
				w->e->name);
			return EXIT_FINDING;
		}
		if (connected && !w->reachable) {
			fprintf(stderr, "lanes: %s leaves pairs unreachable\n", w->e->name);
			return EXIT_FINDING;
		}
	}
	return EXIT_OK;
}

/*
 * Route in two passes, engines that read --roots first (a bad roots file
 * stops the command before the others run and before anything is printed).
 * Rows stay in -e order: in text, each is printed once it and the rows
 * above it are done.
 */
static int run_all(const struct cargs *a, const struct lanes_fabric *f, struct row *rows,
		   size_t n, struct cli_progress *pr)
{
	int rc = 0, width = label_width(rows, n), done[MAX_ENGINES] = { 0 };
	size_t printed = 0, count = 0;
	char prefix[sizeof(((struct row *)0)->label) + 48];

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n && !rc; i++) {
			if (cli_engine_takes_roots(rows[i].e) != (pass == 0))
				continue;
			snprintf(prefix, sizeof(prefix), "[%zu/%zu %s] ", ++count, n, rows[i].label);
			cli_progress_prefix(pr, prefix);
			rc = run_engine(a, f, &rows[i]);
			done[i] = !rc;
			if (!a->json && done[printed])
				cli_progress_clear(pr);
			if (!a->json && !printed && done[0])
				print_header(f, width); /* not before: bad input prints no table */
			while (!a->json && printed < n && done[printed])
				print_row(&rows[printed++], width);
		}
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct row rows[MAX_ENGINES];
	struct cli_progress pr;
	struct cargs a;
	struct lanes_fabric *f;
	size_t n = 0;
	int rc;

	memset(&a, 0, sizeof(a));
	cli_fabric_opts_init(&a.fo);
	lanes_route_opts_init(&a.ro);
	lanes_verify_opts_init(&a.vo);
	if ((rc = parse_args(&a, argc, argv)))
		return rc < 0 ? EXIT_OK : rc;
	memset(rows, 0, sizeof(rows));
	if ((rc = pick_engines(a.engines, rows, &n)) || (rc = check_roots(&a, rows, n)))
		return rc;
	cli_progress_start(&pr, "compare", a.fo.quiet);
	lanes_progress_phase(&pr.p, "reading the fabric", 0);
	a.fo.cmd = "compare";
	a.fo.table_copies = 3;
	if ((rc = cli_load_fabric(argc - optind, argv + optind, &a.fo, &f))) {
		cli_progress_stop(&pr);
		return rc;
	}
	a.ro.progress = a.vo.progress = &pr.p;
	if (!(rc = check_memory(&a, f, rows, n)))
		rc = run_all(&a, f, rows, n, &pr);
	cli_progress_stop(&pr);
	if (!rc) {
		if (a.json)
			print_json(rows, n);
		rc = findings(&a, f, rows, n);
	}
	lanes_fabric_free(f);
	return rc;
}
