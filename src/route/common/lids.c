/*
 * lids.c - the LIDs that end at each switch (common/lids.h): a counting
 * sort of the LIDs by lanes_fabric_lid_switch().
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "lanes/routing.h"
#include "route/common/lids.h"

int lanes_route_switch_lids_init(struct route_switch_lids *l, const struct lanes_fabric *f,
				 struct lanes_error *err)
{
	uint32_t n = f->num_switches, *fill;

	l->first = calloc((size_t)n + 2, sizeof(*l->first));
	l->lid = malloc(((size_t)f->max_lid + 1) * sizeof(*l->lid));
	fill = malloc(((size_t)n + 1) * sizeof(*fill));
	if (!l->first || !l->lid || !fill) {
		free(fill);
		return lanes_error_oom(err);
	}
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint32_t sw = lanes_fabric_lid_switch(f, lid);

		if (sw != LANES_NONE)
			l->first[sw + 1]++;
	}
	for (uint32_t s = 0; s < n; s++)
		l->first[s + 1] += l->first[s];
	memcpy(fill, l->first, (size_t)n * sizeof(*fill));
	for (uint32_t lid = 1; lid <= f->max_lid; lid++) {
		uint32_t sw = lanes_fabric_lid_switch(f, lid);

		if (sw != LANES_NONE)
			l->lid[fill[sw]++] = lid;
	}
	free(fill);
	return 0;
}

void lanes_route_switch_lids_free(struct route_switch_lids *l)
{
	free(l->first);
	free(l->lid);
	l->first = l->lid = NULL;
}
