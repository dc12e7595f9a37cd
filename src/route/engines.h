/*
 * engines.h - the engine descriptors, each defined in its family's main file
 * (minhop/minhop.c, updown/updn.c, ...). Adding an engine is one folder (or a
 * file in an existing family) plus one line here and one in registry.c.
 */
#ifndef LANES_ROUTE_ENGINES_H
#define LANES_ROUTE_ENGINES_H

#include "lanes/route.h"

extern const struct lanes_engine lanes_engine_minhop;
extern const struct lanes_engine lanes_engine_updn;
extern const struct lanes_engine lanes_engine_dnup;
extern const struct lanes_engine lanes_engine_ud_dfs;
extern const struct lanes_engine lanes_engine_flexible;
extern const struct lanes_engine lanes_engine_sssp;
extern const struct lanes_engine lanes_engine_dfsssp;
extern const struct lanes_engine lanes_engine_lash;
extern const struct lanes_engine lanes_engine_nue;
extern const struct lanes_engine lanes_engine_dla;
extern const struct lanes_engine lanes_engine_d3r;
extern const struct lanes_engine lanes_engine_slimfly;
extern const struct lanes_engine lanes_engine_dfdn;
extern const struct lanes_engine lanes_engine_sssp_df;
extern const struct lanes_engine lanes_engine_minhop_df;
extern const struct lanes_engine lanes_engine_ftree;
extern const struct lanes_engine lanes_engine_dor;
extern const struct lanes_engine lanes_engine_ecube;
extern const struct lanes_engine lanes_engine_hyperx;
extern const struct lanes_engine lanes_engine_torus2qos;

#endif
