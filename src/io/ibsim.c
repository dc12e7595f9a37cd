/* ibsim.c - PLACEHOLDER being written; replaced before landing. */
#include "formats.h"

const struct lanes_format lanes_format_ibsim = {
	.name = "ibsim",
	.summary = "",
};
