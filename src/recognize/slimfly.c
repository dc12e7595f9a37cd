/*
 * slimfly.c - recognise a Slim Fly (MMS graph): not yet written.
 */
#include <string.h>

#include "recognize/recognize.h"

int lanes_recognize_slimfly(const struct lanes_fabric *f, struct lanes_structure *s,
			   struct lanes_error *err)
{
	(void)f;
	memset(s, 0, sizeof(*s));
	return lanes_error_set(err, LANES_EINVAL, "not a Slim Fly: recogniser not written yet");
}
