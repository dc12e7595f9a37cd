/*
 * verify_report.c - the verifier's findings as text and as JSON.
 *
 * A channel prints as "switch-name/port -> switch-name/port VL v", where the
 * name is the switch's description (its GUID when it has none); LIDs print as
 * 0x%04x, the way OpenSM and infiniband-diags print them.
 */
#include <stdio.h>

#include <json-c/json.h>

#include "cli.h"
#include "lanes/verify.h"

static const char *sw_name(const struct lanes_fabric *f, uint32_t sw, char *buf, size_t n)
{
	const struct lanes_node *node = &f->nodes[f->switches[sw]];

	if (node->desc[0])
		return node->desc;
	snprintf(buf, n, "0x%016llx", (unsigned long long)node->guid);
	return buf;
}

static void print_cycle(const struct lanes_fabric *f, const struct lanes_verify_result *res)
{
	char a[40], b[40];

	printf("deadlock            CREDIT LOOP: a cycle of %u channels in the channel dependency graph\n",
	       res->cycle_len);
	for (uint32_t i = 0; i < res->cycle_len; i++) {
		const struct lanes_cycle_step *s = &res->cycle[i];

		printf("  %s/%u -> %s/%u VL %u   (LID 0x%04x -> 0x%04x goes on to the next)\n",
		       sw_name(f, s->from_sw, a, sizeof(a)), s->from_port,
		       sw_name(f, s->to_sw, b, sizeof(b)), s->to_port, s->vl, s->src_lid, s->dst_lid);
	}
}

static void print_reach(const struct lanes_fabric *f, const struct lanes_verify_result *res)
{
	char a[40];

	printf("reachability        %s: %llu pairs checked, %llu unreachable (%llu in loops, %llu dropped)\n",
	       res->reachable ? "ok" : "FAILED", (unsigned long long)res->pairs_checked,
	       (unsigned long long)res->unreachable_pairs, (unsigned long long)res->loops,
	       (unsigned long long)res->drops);
	for (uint32_t i = 0; i < res->num_examples; i++) {
		const struct lanes_path_failure *e = &res->examples[i];

		printf("  LID 0x%04x -> 0x%04x: %s at %s port %u\n", e->src_lid, e->dst_lid,
		       e->kind == LANES_PATH_LOOP ? "forwarding loop" : "dropped",
		       sw_name(f, e->at_switch, a, sizeof(a)), e->port);
	}
}

void cli_verify_text(const struct lanes_fabric *f, const struct lanes_verify_result *res,
		     const struct lanes_verify_opts *vo)
{
	int all_traffic = vo->all_traffic, switch_pairs = vo->metric_traffic == LANES_VERIFY_SWITCH_PAIRS;
	char a[40], b[40];

	print_reach(f, res);
	printf("VLs                 %u used%s%s, SLs %u used\n", res->vls_used,
	       res->vls_over_budget ? " (OVER THE BUDGET)" : "",
	       res->vl15_used ? " (VL 15 CARRIES DATA)" : "", res->sls_used);
	printf("traffic checked     %s\n", all_traffic ? "every path, switches included"
						       : "CA-to-CA paths (--all-traffic adds switches)");
	if (res->deadlock_free)
		printf("deadlock            none: the channel dependency graph is acyclic (%llu dependencies)\n",
		       (unsigned long long)res->cdg_dependencies);
	else
		print_cycle(f, res);
	printf("%s %llu\n", switch_pairs ? "switch-pair routes " : "CA-to-CA routes    ",
	       (unsigned long long)res->routes);
	printf("hops                avg %.3f, max %u;", res->hops_avg, res->hops_max);
	for (uint32_t h = 0; h < LANES_VERIFY_HOPS_HIST; h++)
		if (res->hops_hist[h])
			printf(" %u:%llu", h, (unsigned long long)res->hops_hist[h]);
	printf("\nstretch             avg %.4f, max %.4f\n", res->stretch_avg, res->stretch_max);
	printf("routes per channel  max %llu, min %llu, avg %.2f, stddev %.2f\n",
	       (unsigned long long)res->rpc_max, (unsigned long long)res->rpc_min, res->rpc_avg,
	       res->rpc_stddev);
	printf("routes per VL      %s", switch_pairs ? " (CA-to-CA routes only)" : "");
	for (uint32_t v = 0; v < 16 && !switch_pairs; v++)
		if (res->routes_per_vl[v])
			printf(" VL%u:%llu", v, (unsigned long long)res->routes_per_vl[v]);
	printf("\nhottest channels\n");
	for (uint32_t i = 0; i < res->num_hottest; i++) {
		const struct lanes_channel_load *h = &res->hottest[i];

		printf("  %8llu  %s/%u -> %s/%u\n", (unsigned long long)h->routes,
		       sw_name(f, h->from_sw, a, sizeof(a)), h->from_port,
		       sw_name(f, h->to_sw, b, sizeof(b)), h->to_port);
	}
	if (res->ebb_patterns)
		printf("effective bisection bandwidth  %.4f (%u random bisections)\n", res->ebb,
		       res->ebb_patterns);
}

static struct json_object *u64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static struct json_object *channel_json(const struct lanes_fabric *f, uint32_t from, uint8_t fp,
					uint32_t to, uint8_t tp)
{
	struct json_object *o = json_object_new_object();
	char a[40], b[40], buf[256];

	snprintf(buf, sizeof(buf), "%s/%u", sw_name(f, from, a, sizeof(a)), fp);
	json_object_object_add(o, "from", json_object_new_string(buf));
	snprintf(buf, sizeof(buf), "%s/%u", sw_name(f, to, b, sizeof(b)), tp);
	json_object_object_add(o, "to", json_object_new_string(buf));
	snprintf(buf, sizeof(buf), "0x%016llx", (unsigned long long)f->nodes[f->switches[from]].guid);
	json_object_object_add(o, "from_guid", json_object_new_string(buf));
	snprintf(buf, sizeof(buf), "0x%016llx", (unsigned long long)f->nodes[f->switches[to]].guid);
	json_object_object_add(o, "to_guid", json_object_new_string(buf));
	return o;
}

static struct json_object *cycle_json(const struct lanes_fabric *f,
				      const struct lanes_verify_result *res)
{
	struct json_object *a;

	if (res->deadlock_free)
		return NULL;
	a = json_object_new_array();
	for (uint32_t i = 0; i < res->cycle_len; i++) {
		const struct lanes_cycle_step *s = &res->cycle[i];
		struct json_object *o = channel_json(f, s->from_sw, s->from_port, s->to_sw, s->to_port);

		json_object_object_add(o, "vl", json_object_new_int(s->vl));
		json_object_object_add(o, "src_lid", u64(s->src_lid));
		json_object_object_add(o, "dst_lid", u64(s->dst_lid));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *rpc_json(const struct lanes_verify_result *res)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "max", u64(res->rpc_max));
	json_object_object_add(o, "min", u64(res->rpc_min));
	json_object_object_add(o, "avg", json_object_new_double(res->rpc_avg));
	json_object_object_add(o, "stddev", json_object_new_double(res->rpc_stddev));
	return o;
}

static struct json_object *lists_json(const struct lanes_fabric *f,
				      const struct lanes_verify_result *res, struct json_object *o)
{
	struct json_object *hist = json_object_new_object(), *vl = json_object_new_array();
	struct json_object *hot = json_object_new_array(), *ex = json_object_new_array();
	char key[16];

	for (uint32_t h = 0; h < LANES_VERIFY_HOPS_HIST; h++)
		if (res->hops_hist[h]) {
			snprintf(key, sizeof(key), "%u", h);
			json_object_object_add(hist, key, u64(res->hops_hist[h]));
		}
	for (uint32_t v = 0; v < 16; v++)
		json_object_array_add(vl, u64(res->routes_per_vl[v]));
	for (uint32_t i = 0; i < res->num_hottest; i++) {
		const struct lanes_channel_load *h = &res->hottest[i];
		struct json_object *c = channel_json(f, h->from_sw, h->from_port, h->to_sw, h->to_port);

		json_object_object_add(c, "routes", u64(h->routes));
		json_object_array_add(hot, c);
	}
	for (uint32_t i = 0; i < res->num_examples; i++) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "src_lid", u64(res->examples[i].src_lid));
		json_object_object_add(e, "dst_lid", u64(res->examples[i].dst_lid));
		json_object_object_add(e, "kind", json_object_new_string(
					  res->examples[i].kind == LANES_PATH_LOOP ? "loop" : "drop"));
		json_object_array_add(ex, e);
	}
	json_object_object_add(o, "hops_histogram", hist);
	json_object_object_add(o, "routes_per_vl", vl);
	json_object_object_add(o, "hottest_channels", hot);
	json_object_object_add(o, "unreachable_examples", ex);
	return o;
}

struct json_object *cli_verify_json(const struct lanes_fabric *f,
				    const struct lanes_verify_result *res,
				    const struct lanes_verify_opts *vo)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "cdg_traffic", json_object_new_string(vo->all_traffic ? "all" : "ca-to-ca"));
	json_object_object_add(o, "metric_traffic", json_object_new_string(
		vo->metric_traffic == LANES_VERIFY_SWITCH_PAIRS ? "switch-pairs" : "ca-pairs"));
	json_object_object_add(o, "deadlock_free", json_object_new_boolean(res->deadlock_free));
	json_object_object_add(o, "reachable", json_object_new_boolean(res->reachable));
	json_object_object_add(o, "pairs_checked", u64(res->pairs_checked));
	json_object_object_add(o, "unreachable_pairs", u64(res->unreachable_pairs));
	json_object_object_add(o, "loops", u64(res->loops));
	json_object_object_add(o, "drops", u64(res->drops));
	json_object_object_add(o, "vls_used", u64(res->vls_used));
	json_object_object_add(o, "sls_used", u64(res->sls_used));
	json_object_object_add(o, "vl15_used", json_object_new_boolean(res->vl15_used));
	json_object_object_add(o, "vls_over_budget", json_object_new_boolean(res->vls_over_budget));
	json_object_object_add(o, "routes", u64(res->routes));
	json_object_object_add(o, "hops_avg", json_object_new_double(res->hops_avg));
	json_object_object_add(o, "hops_max", u64(res->hops_max));
	json_object_object_add(o, "stretch_avg", json_object_new_double(res->stretch_avg));
	json_object_object_add(o, "stretch_max", json_object_new_double(res->stretch_max));
	json_object_object_add(o, "routes_per_channel", rpc_json(res));
	json_object_object_add(o, "ebb", json_object_new_double(res->ebb));
	json_object_object_add(o, "ebb_patterns", u64(res->ebb_patterns));
	json_object_object_add(o, "cdg_dependencies", u64(res->cdg_dependencies));
	json_object_object_add(o, "cycle", cycle_json(f, res));
	return lists_json(f, res, o);
}
