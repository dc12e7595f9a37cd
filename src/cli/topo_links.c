/*
 * topo_links.c - `lanes topo info`'s link widths and speeds: how many cables
 * run at each width and speed ("4xQDR"), and the cables that run slower than
 * their ports can, as ibdiagnet's link checks report them.
 *
 * A file says how each link runs (ibnetdiscover's "4xQDR"), not what its
 * ports could do. The ports of one switch are of one kind, and so are the
 * CAs of one device ID, so what an end can do is what the fastest port of
 * its kind runs at; a cable is listed as slower than its ports when it runs
 * below what both its ends can do (a 4x cable trained at 1x, an HDR cable
 * at EDR between two HDR switches). (Two lines that give one cable two
 * rates are the reader's warning.) CAs are grouped by
 * device ID by sorting, so a fabric of millions of CAs takes seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"

#define MAX_RATES 64
#define MAX_SLOW_SHOWN 20

struct rate_count {
	uint8_t width, speed;
	uint32_t links;
};

/* Gb/s of a port's link: lanes times the lane's data rate; 0 unknown. */
static double gbps(const struct lanes_port *p)
{
	return p->width * lanes_speed_gbps(p->speed);
}

static void rate_name(const struct lanes_port *p, char *buf, size_t n)
{
	if (!p->width || !p->speed)
		snprintf(buf, n, "unknown");
	else
		snprintf(buf, n, "%ux%s", p->width, lanes_speed_name(p->speed));
}

struct kind_best {
	uint32_t device_id;
	double gbps;
};

static int by_device(const void *pa, const void *pb)
{
	const struct kind_best *a = pa, *b = pb;

	return (a->device_id > b->device_id) - (a->device_id < b->device_id);
}

/* The fastest link of each CA device ID, sorted by ID; *n of them. */
static struct kind_best *fastest_of_kinds(const struct lanes_fabric *f, const double *best,
					  size_t *n)
{
	struct kind_best *k = malloc(sizeof(*k) * ((size_t)f->num_nodes + 1));
	size_t m = 0;

	for (uint32_t i = 0; k && i < f->num_nodes; i++)
		if (f->nodes[i].type != LANES_NODE_SWITCH)
			k[m++] = (struct kind_best){ f->nodes[i].device_id, best[i] };
	if (k)
		qsort(k, m, sizeof(*k), by_device);
	*n = 0;
	for (size_t i = 0; k && i < m; i++)
		if (*n && k[*n - 1].device_id == k[i].device_id)
			k[*n - 1].gbps = k[i].gbps > k[*n - 1].gbps ? k[i].gbps : k[*n - 1].gbps;
		else
			k[(*n)++] = k[i];
	return k;
}

/*
 * What a cable's ends can run at, by what like ports run elsewhere: per
 * node, the fastest cabled port of its switch, or of any CA with its device
 * ID (one kind of card, one capability; device ID 0 counts as one kind).
 */
static double *fastest_alike(const struct lanes_fabric *f)
{
	double *best = calloc((size_t)f->num_nodes + 1, sizeof(*best));
	struct kind_best *kinds = NULL, key = { 0, 0 }, *kind;
	size_t nkinds = 0;

	for (uint32_t i = 0; best && i < f->num_nodes; i++) {
		const struct lanes_node *n = &f->nodes[i];

		for (unsigned p = 1; p <= n->nports; p++) {
			const struct lanes_port *pt = &f->ports[n->port_base + p];

			if (pt->peer_node != LANES_NONE && gbps(pt) > best[i])
				best[i] = gbps(pt);
		}
	}
	if (best && !(kinds = fastest_of_kinds(f, best, &nkinds))) {
		free(best);
		return NULL;
	}
	for (uint32_t i = 0; best && i < f->num_nodes; i++) /* CAs: the best of their kind */
		if (f->nodes[i].type != LANES_NODE_SWITCH) {
			key.device_id = f->nodes[i].device_id;
			kind = bsearch(&key, kinds, nkinds, sizeof(key), by_device);
			best[i] = kind->gbps;
		}
	free(kinds);
	return best;
}

/* Why the cable is slower than its ports, into why; 0 if it is not. */
static int slow_link(const struct lanes_fabric *f, const struct lanes_link *k, const double *best,
		     char *why, size_t n)
{
	const struct lanes_port *a = lanes_fabric_port(f, k->a, k->pa); /* a cable has one rate */
	double can = best[k->a] < best[k->b] ? best[k->a] : best[k->b];
	uint32_t slower = best[k->a] < best[k->b] ? k->a : k->b;
	char ra[16];

	rate_name(a, ra, sizeof(ra));
	if (gbps(a) <= 0 || gbps(a) >= can)
		return 0;
	snprintf(why, n, "runs %s (%g Gb/s); both ends can run %g Gb/s (as other ports of %s '%s' do)",
		 ra, gbps(a), can, f->nodes[slower].type == LANES_NODE_SWITCH ? "switch" : "CAs like",
		 f->nodes[slower].desc);
	return 1;
}

static void count_rate(struct rate_count *rates, int *nrates, const struct lanes_port *p)
{
	for (int i = 0; i < *nrates; i++)
		if (rates[i].width == p->width && rates[i].speed == p->speed) {
			rates[i].links++;
			return;
		}
	if (*nrates < MAX_RATES)
		rates[(*nrates)++] = (struct rate_count){ p->width, p->speed, 1 };
}

/* One cable as "0xGUID/P 'desc' - 0xGUID/P 'desc'". */
static void cable_name(const struct lanes_fabric *f, const struct lanes_link *k, char *buf,
		       size_t n)
{
	snprintf(buf, n, "0x%016llx/%u '%s' - 0x%016llx/%u '%s'",
		 (unsigned long long)f->nodes[k->a].guid, k->pa, f->nodes[k->a].desc,
		 (unsigned long long)f->nodes[k->b].guid, k->pb, f->nodes[k->b].desc);
}

/*
 * The cables slower than their ports, counted; into a JSON array if js, or
 * printed (the first 20) if print.
 */
static uint32_t slow_links(const struct lanes_fabric *f, const double *best, struct json_object *js,
			   int print)
{
	char why[256], cable[512];
	uint32_t slow = 0;

	for (uint32_t l = 0; l < f->num_links; l++) {
		const struct lanes_link *k = &f->links[l];

		if (k->a == k->b || !slow_link(f, k, best, why, sizeof(why)))
			continue;
		cable_name(f, k, cable, sizeof(cable));
		if (js) {
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "cable", json_object_new_string(cable));
			json_object_object_add(o, "why", json_object_new_string(why));
			json_object_array_add(js, o);
		} else if (print && slow < MAX_SLOW_SHOWN) {
			printf("  %s: %s\n", cable, why);
		}
		slow++;
	}
	return slow;
}

int cli_topo_links(const struct lanes_fabric *f, struct json_object *json)
{
	struct rate_count rates[MAX_RATES];
	double *best = fastest_alike(f);
	char name[16];
	int nrates = 0;
	uint32_t slow;

	if (!best)
		return cli_out_of_memory();
	for (uint32_t l = 0; l < f->num_links; l++)
		if (f->links[l].a != f->links[l].b)
			count_rate(rates, &nrates, lanes_fabric_port(f, f->links[l].a, f->links[l].pa));
	if (json) {
		struct json_object *jr = json_object_new_object(), *js = json_object_new_array();

		for (int i = 0; i < nrates; i++) {
			struct lanes_port p = { .width = rates[i].width, .speed = rates[i].speed };

			rate_name(&p, name, sizeof(name));
			json_object_object_add(jr, name, json_object_new_int64(rates[i].links));
		}
		slow_links(f, best, js, 0);
		json_object_object_add(json, "link_rates", jr);
		json_object_object_add(json, "links_slower_than_ports", js);
		free(best);
		return 0;
	}
	printf("link rates         ");
	for (int i = 0; i < nrates; i++) {
		struct lanes_port p = { .width = rates[i].width, .speed = rates[i].speed };

		rate_name(&p, name, sizeof(name));
		printf(" %s %u%s", name, rates[i].links, i + 1 < nrates ? "," : "");
	}
	slow = slow_links(f, best, NULL, 0);
	printf("\nslower than ports   %u cable%s%s\n", slow, slow == 1 ? "" : "s",
	       slow > MAX_SLOW_SHOWN ? " (the first 20; --json lists all)" : "");
	slow_links(f, best, NULL, 1);
	free(best);
	return 0;
}
