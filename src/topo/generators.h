/*
 * generators.h - the generator descriptors, one per file in src/topo/.
 * Adding a generator is one file plus one line here and one in registry.c.
 */
#ifndef LANES_TOPO_GENERATORS_H
#define LANES_TOPO_GENERATORS_H

#include "lanes/topo.h"

extern const struct lanes_generator lanes_gen_dragonfly;
extern const struct lanes_generator lanes_gen_slimfly;
extern const struct lanes_generator lanes_gen_hyperx;
extern const struct lanes_generator lanes_gen_torus;
extern const struct lanes_generator lanes_gen_mesh;
extern const struct lanes_generator lanes_gen_hypercube;
extern const struct lanes_generator lanes_gen_fattree;
extern const struct lanes_generator lanes_gen_xgft;
extern const struct lanes_generator lanes_gen_sfxff;
extern const struct lanes_generator lanes_gen_jellyfish;
extern const struct lanes_generator lanes_gen_oft;

#endif
