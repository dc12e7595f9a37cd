/*
 * cmd_verify.c - `lanes verify`: check a routing (ours, OpenSM's dumps, or
 * ibroute / dump_lfts output) on a fabric, as a text or JSON report.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "progress.h"
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
	"  --ca-only        destinations are CA LIDs only (with -e, the engine routes only them)\n"
	"  --traffic T      what the metrics count: ca-pairs (default: every pair of CA ports)\n"
	"                   or switch-pairs (one route per ordered pair of switches, hops in\n"
	"                   switch-to-switch links, as Sancho et al. count for tori)\n"
	"  --all-traffic    credit loops and VLs from every path, switch LIDs and switch sources\n"
	"                   included (default: CA-to-CA paths, the traffic OpenSM's engines\n"
	"                   keep deadlock-free; reachability always covers every pair)\n"
	"  --ebb-patterns N random bisections for the effective bisection bandwidth (default 100)\n"
	"  --ebb-seed S     seed for the bisections (default 1)\n"
	"  --threads N      worker threads for routing and verifying, 0 one per core (default);\n"
	"                   the results do not depend on it\n"
	"  --json           one JSON object\n"
	"  --sls N, --seed S, --roots FILE   with -e: as for `lanes route`\n"
	"  Exit 0 verified; 1 a credit loop, unreachable pairs or VLs over budget, or with -e the\n"
	"  engine refused, could not fit the budgets or failed (a bug in lanes), or out of memory;\n"
	"  2 bad input.\n"
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

static int parse_args(struct vargs *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_FABRIC_LONGOPTS, CLI_ROUTE_LONGOPTS, CLI_VERIFY_LONGOPTS,
		{ "lfts", required_argument, NULL, 'l' },
		{ "sl2vl", required_argument, NULL, 'm' },
		{ "path-sl", required_argument, NULL, 'p' },
		{ "traffic", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 } };
	struct cli_seen seen = { { 0 }, 0 };
	int c, rc;

	while ((c = cli_getopt(argc, argv, "e:h", longopts, &seen)) != -1) {
		if (c == CLI_OPT_TWICE)
			return EXIT_USAGE;
		if ((rc = cli_fabric_route_verify_option(c, optarg, &a->fo, &a->ro, &a->engine, &a->vo)) < 0)
			return EXIT_USAGE;
		if (rc)
			continue;
		switch (c) {
		case 'l': a->lfts = optarg; break;
		case 'm': a->sl2vl = optarg; break;
		case 'p': a->path_sl = optarg; break;
		case 't':
			if (!strcmp(optarg, "ca-pairs"))
				a->vo.metric_traffic = LANES_VERIFY_CA_PAIRS;
			else if (!strcmp(optarg, "switch-pairs"))
				a->vo.metric_traffic = LANES_VERIFY_SWITCH_PAIRS;
			else
				return cli_usage_error("--traffic is ca-pairs or switch-pairs, not '%s'",
						       optarg);
			break;
		case 'j': a->json = 1; break;
		case 'h': fputs(verify_usage, stdout); return -1;
		default: fputs(verify_usage, stderr); return EXIT_USAGE;
		}
	}
	a->vo.ca_only = cli_seen_has(&seen, 'C') || cli_seen_has(&seen, 'K');
	if (a->vo.metric_traffic == LANES_VERIFY_SWITCH_PAIRS && a->vo.ca_only)
		return cli_usage_error("verify: --traffic switch-pairs needs the switch LIDs that "
				       "--ca-only leaves out");
	if (cli_seen_has(&seen, 'N') && !a->engine)
		return cli_usage_error("verify: --seed seeds the engine of -e; the bisections take "
				       "--ebb-seed, fault injection --fault-seed");
	a->vo.threads = a->ro.threads;
	a->vo.max_vls = a->ro.max_vls;
	return cli_split_fabric_dir("verify", argc - optind, argv + optind, &a->words, &a->nwords,
				    &a->dir);
}

void cli_verify_text(const struct lanes_fabric *f, const struct lanes_verify_result *res,
		     const struct lanes_verify_opts *vo);
struct json_object *cli_verify_json(const struct lanes_fabric *f,
				    const struct lanes_verify_result *res,
				    const struct lanes_verify_opts *vo);

static int run(struct vargs *a, struct lanes_fabric *f, struct lanes_routing **r,
	       struct cli_progress *pr)
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
	} else {
		lanes_progress_phase(&pr->p, "reading the tables", 0);
		if ((rc = cli_load_tables("verify", a->dir, a->lfts, a->sl2vl, a->path_sl, f,
					   &a->fo, &pr->p, r)))
			return rc;
	}
	rc = lanes_verify(f, *r, &a->vo, &res, &err);
	cli_progress_stop(pr); /* the report follows */
	if (rc)
		return cli_fail(&err);
	if (a->json) {
		struct json_object *o = cli_verify_json(f, res, &a->vo);

		if (a->fo.faults)
			json_object_object_add(o, "faults", cli_faults_json(&a->fo));

		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		cli_verify_text(f, res, &a->vo);
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
	struct cli_progress pr;
	int rc;

	memset(&a, 0, sizeof(a));
	cli_fabric_opts_init(&a.fo);
	lanes_route_opts_init(&a.ro);
	lanes_verify_opts_init(&a.vo);
	if ((rc = parse_args(&a, argc, argv)))
		return rc < 0 ? EXIT_OK : rc;
	cli_progress_start(&pr, "verify", a.fo.quiet);
	lanes_progress_phase(&pr.p, "reading the fabric", 0);
	a.fo.cmd = "verify";
	a.fo.table_copies = a.engine ? 3 : 2;
	a.fo.keep_removed = a.json; /* --json lists what the faults removed */
	if ((rc = cli_load_fabric(a.nwords, a.words, &a.fo, &f))) {
		cli_progress_stop(&pr);
		lanes_fault_list_free(&a.fo.removed);
		return rc;
	}
	cli_fabric_connected(f, 1);
	a.ro.progress = a.vo.progress = &pr.p;
	/* LFTs, SLs, and the verifier's walk as large as the LFTs */
	if (!(rc = cli_check_memory("verify", f, &a.fo, a.engine ? 3 : 2,
				    cli_engine_named(a.engine), &a.ro)))
		rc = run(&a, f, &r, &pr);
	cli_progress_stop(&pr);
	lanes_fault_list_free(&a.fo.removed);
	lanes_routing_free(r);
	lanes_fabric_free(f);
	return rc;
}
