/*
 * mms_paths.h - the minimal routes of a Slim Fly from the coordinates of
 * its switches (mms_paths.c): the case analysis of "Early evaluation of
 * direct large-scale InfiniBand networks with adaptive routing", Sec. 3.6,
 * on the (t, x, y) that lanes_recognize_slimfly() found.
 */
#ifndef LANES_ROUTE_SLIMFLY_MMS_PATHS_H
#define LANES_ROUTE_SLIMFLY_MMS_PATHS_H

#include <stdint.h>

#include "lanes/error.h"
#include "lanes/recognize.h"
#include "topo/gf.h"

/* The shape of a route, by its link types (Sec. 3.6). */
enum sf_shape {
	SF_SHAPE_HERE = 0, /* source and destination are one switch */
	SF_SHAPE_Y,        /* one y-link */
	SF_SHAPE_T,        /* one t-link */
	SF_SHAPE_YY,       /* same column, through a third switch of it */
	SF_SHAPE_TT,       /* same half, other column: through the other half, eq. (1), (2) */
	SF_SHAPE_TY,       /* other half: t-link to the destination's column, then a y-link */
	SF_SHAPE_YT,       /* other half: y-link in the source's column, then a t-link */
};

/* The field, the generator sets and where each coordinate's switch is. */
struct sf_paths {
	unsigned q;
	struct gf field;                          /* gf.c's GF(q), same primitive element */
	uint8_t in_generator_set[2][GF_Q_MAX];    /* [t][a]: a is in X_t (X_0 = X, X_1 = X') */
	uint16_t generators_by_exponent[2][GF_Q_MAX]; /* X_t by ascending power of xi */
	uint32_t num_generators[2];
	const uint32_t *coord;                    /* the structure's (t, x, y) per switch */
	uint32_t *switch_at;                      /* per t*q*q + x*q + y: the switch there */
};

/**
 * From a recognised Slim Fly: the field of q, X and X' read off gf.c's MMS
 * graph (the neighbours of (t, 0, 0) in its column), the inverse of the
 * coordinates. s must stay alive while p is used.
 */
int lanes_slimfly_paths_init(struct sf_paths *p, const struct lanes_structure *s,
			     struct lanes_error *err);
void lanes_slimfly_paths_free(struct sf_paths *p);

/**
 * The switch after `from` on the minimal route toward `to`, and the route's
 * shape. Where there are several (yy; ty and yt both), `choice` picks one:
 * choice mod their number, in the order of mms_paths.c's header.
 * without_link: the MMS link between `from` and `to` (if they have one) is
 * not cabled; route over two links instead. LANES_NONE when there is no
 * route of at most two links (never without without_link).
 */
uint32_t lanes_slimfly_next_switch(const struct sf_paths *p, uint32_t from, uint32_t to,
				   uint32_t choice, int without_link, int *shape);

#endif
