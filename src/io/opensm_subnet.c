/* opensm_subnet.c - PLACEHOLDER being written; replaced before landing. */
#include "formats.h"

const struct lanes_format lanes_format_opensm_subnet = {
	.name = "opensm-subnet",
	.summary = "",
};
