/*
 * hyperx.c - recognise a HyperX / Flattened Butterfly: not yet written.
 */
#include <string.h>

#include "recognize/recognize.h"

int lanes_recognize_hyperx(const struct lanes_fabric *f, struct lanes_structure *s,
			   struct lanes_error *err)
{
	(void)f;
	memset(s, 0, sizeof(*s));
	return lanes_error_set(err, LANES_EINVAL, "not a HyperX: recogniser not written yet");
}
