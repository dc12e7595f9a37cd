/*
 * cmd_verify.c - `lanes verify`: check a routing (ours, OpenSM's dumps, or
 * ibroute / dump_lfts output) on a fabric, as a text or JSON report.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "cli.h"
#include "lanes/dump.h"
#include "lanes/io.h"
#include "lanes/route.h"
#include "lanes/topo.h"
#include "lanes/verify.h"

static const char verify_usage[] =
	"usage: lanes verify FABRIC [DIR] [--lfts FILE] [--sl2vl FILE] [--path-sl FILE] [options]\n"
	"       lanes verify -e ENGINE FABRIC [options]\n"
	"\n"
	"  Check that every destination LID is reached from every CA and switch with no loop\n"
	"  or drop, that VLs stay within the budget and VL 15 carries no data, and that the\n"
	"  channel dependency graph of CA-to-CA traffic has no cycle (a credit loop); print\n"
	"  metrics.\n"
	"  DIR holds opensm-lfts.dump and optionally opensm-sl2vl.dump and lanes-path-sl.txt\n"
	"  (what `lanes route` writes; OpenSM's --dump_files_dir has the first two).\n"
	"  --lfts FILE      opensm-lfts.dump, or the output of ibroute / dump_lfts\n"
	"  --sl2vl FILE     opensm-sl2vl.dump (without it every SL maps to VL 0)\n"
	"  --path-sl FILE   path SLs (without it every path has SL 0)\n"
	"  -e ENGINE        route with ENGINE first instead of reading tables\n"
	"                   (NAME:KEY=VALUE[:KEY=VALUE...] passes the engine's parameters)\n"
	"  --vls N          data VL budget (default 8)\n"
	"  --ca-only        destinations are CA LIDs only\n"
	"  --all-traffic    credit loops and VLs from every path, switch LIDs and switch sources\n"
	"                   included (default: CA-to-CA paths, the traffic OpenSM's engines\n"
	"                   keep deadlock-free; reachability always covers every pair)\n"
	"  --ebb-patterns N random bisections for the effective bisection bandwidth (default 100)\n"
	"  --seed S         seed for the bisections (default 1)\n"
	"  --threads N      worker threads for routing and verifying, 0 one per core (default);\n"
	"                   the results do not depend on it\n"
	"  --json           one JSON object\n"
	"  --sls N, --ca-lids-only, --roots FILE   with -e: as for `lanes route`\n"
	"  Exit 0 verified; 1 a credit loop, unreachable pairs or VLs over budget, or with -e the\n"
	"  engine refused, could not fit the budgets or failed (a bug in lanes); 2 bad input.\n"
	"\n" CLI_FABRIC_HELP;

struct vargs {
	struct cli_fabric_opts fo;
	struct lanes_route_opts ro;
	struct lanes_verify_opts vo;
	const char *engine, *lfts, *sl2vl, *path_sl, *dir;
	char params[256]; /* the engine's parameters, from -e NAME:KEY=VALUE */
	int json;
	char **words;
	int nwords;
};

/* FABRIC is a file, or a generator followed by its key=value words; DIR may follow. */
static int split_words(struct vargs *a, int n, char **w)
{
	struct stat st;
	int k = 1;

	if (n < 1)
		return cli_usage_error("verify: missing FABRIC");
	if (stat(w[0], &st) && lanes_generator_find(w[0]))
		while (k < n && strchr(w[k], '='))
			k++;
	a->words = w;
	a->nwords = k;
	if (k < n)
		a->dir = w[k++];
	return k < n ? cli_usage_error("verify: unexpected argument '%s'", w[k]) : 0;
}

typedef int (*dump_reader)(const char *, size_t, const char *, const struct lanes_fabric *,
			   struct lanes_routing *, struct lanes_error *);

static int read_into(const char *path, dump_reader rd, const struct lanes_fabric *f,
		     struct lanes_routing *r)
{
	struct lanes_error err;
	char *data = NULL;
	size_t len;
	int rc = lanes_io_slurp(path, &data, &len, &err);

	if (!rc)
		rc = rd(data, len, path, f, r, &err);
	free(data);
	return rc ? cli_fail(&err) : 0;
}

/* DIR/name if it exists, else NULL. */
static const char *in_dir(const char *dir, const char *name, char *buf, size_t n)
{
	struct stat st;

	if (!dir)
		return NULL;
	snprintf(buf, n, "%s/%s", dir, name);
	return stat(buf, &st) ? NULL : buf;
}

static int load_tables(struct vargs *a, const struct lanes_fabric *f, struct lanes_routing **out)
{
	char b1[4096], b2[4096], b3[4096];
	const char *lfts = a->lfts ? a->lfts : in_dir(a->dir, "opensm-lfts.dump", b1, sizeof(b1));
	const char *sl2vl = a->sl2vl ? a->sl2vl : in_dir(a->dir, "opensm-sl2vl.dump", b2, sizeof(b2));
	const char *psl = a->path_sl ? a->path_sl : in_dir(a->dir, "lanes-path-sl.txt", b3, sizeof(b3));
	struct lanes_error err;
	int rc;

	if (!lfts)
		return cli_usage_error(a->dir ? "verify: %s has no opensm-lfts.dump"
					      : "verify: give DIR, --lfts FILE or -e ENGINE%s",
				       a->dir ? a->dir : "");
	if (lanes_routing_new(f, out, &err))
		return cli_fail(&err);
	if ((rc = read_into(lfts, lanes_lfts_read, f, *out)) ||
	    (sl2vl && (rc = read_into(sl2vl, lanes_sl2vl_read, f, *out))) ||
	    (psl && (rc = read_into(psl, lanes_path_sl_read, f, *out))))
		return rc;
	if (!psl)
		fprintf(stderr, "lanes: no path SLs given: every path is taken as SL 0\n");
	if (!sl2vl)
		fprintf(stderr, "lanes: no SL2VL maps given: every SL maps to VL 0\n");
	return 0;
}

static int parse_args(struct vargs *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_FABRIC_LONGOPTS, CLI_ROUTE_LONGOPTS, CLI_VERIFY_LONGOPTS,
		{ "lfts", required_argument, NULL, 'l' },
		{ "sl2vl", required_argument, NULL, 'm' },
		{ "path-sl", required_argument, NULL, 'p' },
		{ "ca-only", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 } };
	int c, rc;

	while ((c = getopt_long(argc, argv, "e:h", longopts, NULL)) != -1) {
		if ((rc = cli_fabric_route_verify_option(c, optarg, &a->fo, &a->ro, &a->engine, &a->vo)) < 0)
			return EXIT_USAGE;
		if (rc)
			continue;
		switch (c) {
		case 'l': a->lfts = optarg; break;
		case 'm': a->sl2vl = optarg; break;
		case 'p': a->path_sl = optarg; break;
		case 'c': a->vo.ca_only = 1; break;
		case 'j': a->json = 1; break;
		case 'h': fputs(verify_usage, stdout); return -1;
		default: fputs(verify_usage, stderr); return EXIT_USAGE;
		}
	}
	a->ro.seed = a->vo.seed = a->fo.seed;
	a->vo.threads = a->ro.threads;
	a->vo.max_vls = a->ro.max_vls;
	return split_words(a, argc - optind, argv + optind);
}

void cli_verify_text(const struct lanes_fabric *f, const struct lanes_verify_result *res,
		     int all_traffic);
struct json_object *cli_verify_json(const struct lanes_fabric *f,
				    const struct lanes_verify_result *res, int all_traffic);

static int run(struct vargs *a, struct lanes_fabric *f, struct lanes_routing **r)
{
	struct lanes_verify_result *res;
	struct lanes_error err;
	double t;
	int rc;

	if (a->engine) {
		const struct lanes_engine *e;

		if ((rc = cli_engine_spec("verify", a->engine, strlen(a->engine), &e, a->params,
					  sizeof(a->params))))
			return rc;
		a->ro.params = a->params[0] ? a->params : NULL;
		if (a->dir || a->lfts)
			return cli_usage_error("verify: -e ENGINE routes itself; drop DIR and --lfts");
		if ((rc = cli_check_roots("verify", e, &a->ro)) ||
		    (rc = cli_route_fabric(e, f, &a->ro, r, &t)))
			return rc;
	} else if (a->ro.roots) {
		return cli_usage_error("verify: --roots is for routing with -e updn; the tables "
				       "read are verified as they are");
	} else if ((rc = load_tables(a, f, r))) {
		return rc;
	}
	if (lanes_verify(f, *r, &a->vo, &res, &err))
		return cli_fail(&err);
	if (a->json) {
		struct json_object *o = cli_verify_json(f, res, a->vo.all_traffic);

		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		cli_verify_text(f, res, a->vo.all_traffic);
	}
	rc = res->deadlock_free && res->reachable && !res->vl15_used && !res->vls_over_budget
		     ? EXIT_OK
		     : EXIT_FINDING;
	lanes_verify_result_free(res);
	return rc;
}

int cmd_verify(int argc, char **argv)
{
	struct vargs a;
	struct lanes_fabric *f;
	struct lanes_routing *r = NULL;
	int rc;

	memset(&a, 0, sizeof(a));
	a.fo.seed = 1;
	lanes_route_opts_init(&a.ro);
	lanes_verify_opts_init(&a.vo);
	if ((rc = parse_args(&a, argc, argv)))
		return rc < 0 ? EXIT_OK : rc;
	if ((rc = cli_load_fabric(a.nwords, a.words, &a.fo, &f)))
		return rc;
	rc = run(&a, f, &r);
	lanes_routing_free(r);
	lanes_fabric_free(f);
	return rc;
}
