/*
 * formats.h - the format descriptors, one per file in src/io/.
 * Adding a format is one file plus one line here and one in registry.c.
 */
#ifndef LANES_IO_FORMATS_H
#define LANES_IO_FORMATS_H

#include "lanes/io.h"

extern const struct lanes_format lanes_format_ibnetdiscover;
extern const struct lanes_format lanes_format_ibsim;
extern const struct lanes_format lanes_format_dot;
extern const struct lanes_format lanes_format_opensm_subnet;

/* The ibnetdiscover writer, in its own file (ibnetdiscover_write.c). */
int lanes_ibnetdiscover_write(const struct lanes_fabric *f, FILE *out, struct lanes_error *err);
/* The ibsim writer, in its own file (ibsim_write.c). */
int lanes_ibsim_write(const struct lanes_fabric *f, FILE *out, struct lanes_error *err);

#endif
