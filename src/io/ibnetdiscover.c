/* ibnetdiscover.c - PLACEHOLDER being written; replaced before landing. */
#include "formats.h"

const struct lanes_format lanes_format_ibnetdiscover = {
	.name = "ibnetdiscover",
	.summary = "",
};
