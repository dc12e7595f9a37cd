/*
 * recognize/dragonfly.h - the acceptance checks of the dragonfly recogniser
 * (dragonfly.c), which live in dragonfly_checks.c. Each takes the groups
 * found (group[] per switch index, numbered 0..groups-1) and returns 0 when
 * the fabric passes, else LANES_EINVAL with the reason in err (or
 * LANES_ENOMEM). lanes_recognize_dragonfly() runs them in this order.
 */
#ifndef LANES_RECOGNIZE_DRAGONFLY_H
#define LANES_RECOGNIZE_DRAGONFLY_H

#include <stdint.h>

#include "recognize/recognize.h"

/*
 * At least half of the switches joined their group over a link in a
 * triangle; and either every group has one size (an intact dragonfly,
 * groups of 3 included) or more than half of the switches lie in groups of 4
 * or more (the groups a random graph's triangles make are of 3).
 */
int lanes_df_check_triangles(uint32_t n, const uint32_t *group, uint32_t groups,
			     uint32_t triangular, struct lanes_error *err);

/* Global cables spread over pairs of groups, as in a Kim-Dally dragonfly. */
int lanes_df_check_spread(const struct lanes_switch_graph *g, const uint32_t *group,
			  uint32_t groups, struct lanes_error *err);

/*
 * Local cables are at least 2/5 of all: a dragonfly switch has a-1 local
 * and h global ports, (a-1)/(a-1+h) is 2/3 for the balanced a = 2h and
 * 2/5 for a=3 h=3, and faults thin both alike. A random graph's groups
 * (its triangles) hold a quarter to a third of its cables.
 */
int lanes_df_check_local_share(const struct lanes_switch_graph *g, const uint32_t *group,
			       struct lanes_error *err);

/*
 * Every group of 3 switches or more is a near-clique: more than half of
 * its pairs linked (a dragonfly group is a clique; phase 1 takes a class of
 * triangles whole, and in a dense random graph the triangles run together
 * into one class that is no clique).
 */
int lanes_df_check_dense(const struct lanes_switch_graph *g, const uint32_t *group,
			 uint32_t groups, struct lanes_error *err);

/*
 * A dragonfly switch has at most h global cables, whatever its group lost:
 * none outside the groups of 3 or more may have more than any inside them,
 * give or take one cable and an eighth (a switch whose one local cable
 * was not recognised counts it as global, and with 40% of the switches
 * gone the most any switch keeps is under h). A random graph's triangles
 * make groups whose switches have fewer global cables than the switches
 * left alone.
 */
int lanes_df_check_global_degree(const struct lanes_switch_graph *g, const uint32_t *group,
				 uint32_t groups, struct lanes_error *err);

/*
 * A fabric with no faults is regular (every switch the same number of
 * cables to switches, as in a generated dragonfly): then its groups
 * must be of one size too. Unequal groups there mean the groups were not
 * found (with few groups and many cables between two groups, triangles of
 * a local link and two cables blur them), and a refusal beats a wrong map.
 */
int lanes_df_check_regular(const struct lanes_fabric *f, const struct lanes_switch_graph *g,
			   const uint32_t *group, uint32_t groups, struct lanes_error *err);

#endif
