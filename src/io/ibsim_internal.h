/*
 * ibsim_internal.h - what the ibsim net reader (ibsim.c) shares with its
 * cabling step (ibsim_cables.c).
 */
#ifndef LANES_IO_IBSIM_INTERNAL_H
#define LANES_IO_IBSIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/util.h"
#include "formats.h"
#include "text.h"

/* One port line, kept until every node is known. */
struct pport {
	uint32_t node;
	uint8_t port, rport;
	uint8_t wmask, smask, emask; /* enabled width, speed and extended speed */
	uint8_t width, speed;        /* exact, from our "# 4xEDR" comment; 0 if none */
	uint16_t lid;
	uint8_t lmc;
	char *rid;
	unsigned long line;
};

struct ibsim_parse {
	struct lanes_lines lines;
	struct lanes_builder *b;
	struct lanes_strmap ids;
	struct lanes_strmap guids; /* 8-byte GUID -> its node's line, to refuse duplicates */
	struct pport *ports;
	size_t nports, cap;
	uint64_t guid[4];          /* next GUID per node type */
	uint8_t width_mask, speed_mask, ext_mask; /* defaults from width= speed= extspeed= */
	uint32_t vendid, devid;    /* vendid= (next node only), devid= (every later node) */
	uint64_t sysimg;           /* sysimgguid= (next node only; 0: the node GUID) */
	struct lanes_error *err;
};

/* Cable every port line (each must be listed from both ends, as ibsim requires). */
int lanes_ibsim_connect_all(struct ibsim_parse *ps);

#endif
