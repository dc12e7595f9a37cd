/*
 * lanes/dump.h - routing files: OpenSM's dumps, infiniband-diags' ibroute /
 * dump_lfts output, and lanes' path-SL table.
 *
 * - opensm-lfts.dump: one block per switch, "Unicast lids [0-N] of switch Lid
 *   L guid 0x... ('desc'):", then "0xLLLL PPP # ..." lines, then "N lids
 *   dumped"; written exactly as OpenSM writes it, and as `opensm -R file -U`
 *   loads it.
 * - ibroute / dump_lfts.sh: "Unicast lids [0x0-0xN] of switch Lid L guid
 *   0x... (desc):", a two-line column header, "0xLLLL PPP : (...)" lines,
 *   "N valid lids dumped"; one or many switches in one file.
 * - opensm-sl2vl.dump: per switch and CA port, "in out : vl0 .. vl15" rows.
 * - path SLs: lanes' own table (docs/formats-routing.md), at the routing's
 *   granularity.
 *
 * Readers match switches by GUID and LIDs by value against the fabric, fill
 * an existing routing, and report `file:line: what is wrong`.
 */
#ifndef LANES_DUMP_H
#define LANES_DUMP_H

#include <stddef.h>
#include <stdio.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/routing.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lanes_progress;

/** Read opensm-lfts.dump (or ibroute / dump_lfts.sh output: either is recognised) into r. */
int lanes_lfts_read(const char *data, size_t len, const char *file, const struct lanes_fabric *f,
		    struct lanes_routing *r, struct lanes_error *err);

/**
 * The same from a file ("-" standard input), read as a stream: any size,
 * memory for the tables and one line; gzip or zstd decompressed when the
 * file's first bytes say so. progress (lanes/progress.h; NULL: none) gets
 * phase "reading", a unit per byte of the file as stored (total 0 for a
 * pipe).
 */
int lanes_lfts_read_file(const char *path, const struct lanes_fabric *f, struct lanes_routing *r,
			 struct lanes_progress *progress, struct lanes_error *err);

/** Write r's LFTs as OpenSM's opensm-lfts.dump. */
int lanes_lfts_write(const struct lanes_fabric *f, const struct lanes_routing *r, FILE *out,
		     struct lanes_error *err);

/** Read opensm-sl2vl.dump into r's SL2VL maps. */
int lanes_sl2vl_read(const char *data, size_t len, const char *file, const struct lanes_fabric *f,
		     struct lanes_routing *r, struct lanes_error *err);

/** The same from a file, streamed and decompressed as lanes_lfts_read_file(). */
int lanes_sl2vl_read_file(const char *path, const struct lanes_fabric *f, struct lanes_routing *r,
			  struct lanes_progress *progress, struct lanes_error *err);

/** Write r's SL2VL maps as OpenSM's opensm-sl2vl.dump. */
int lanes_sl2vl_write(const struct lanes_fabric *f, const struct lanes_routing *r, FILE *out,
		      struct lanes_error *err);

/** Read a path-SL table into r (switching r to the table's granularity). */
int lanes_path_sl_read(const char *data, size_t len, const char *file,
		       const struct lanes_fabric *f, struct lanes_routing *r,
		       struct lanes_error *err);

/** The same from a file, streamed and decompressed as lanes_lfts_read_file(). */
int lanes_path_sl_read_file(const char *path, const struct lanes_fabric *f,
			    struct lanes_routing *r, struct lanes_progress *progress,
			    struct lanes_error *err);

/** Write r's path SLs as a path-SL table. */
int lanes_path_sl_write(const struct lanes_fabric *f, const struct lanes_routing *r, FILE *out,
			struct lanes_error *err);

#ifdef __cplusplus
}
#endif
#endif
