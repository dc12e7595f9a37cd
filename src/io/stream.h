/*
 * stream.h - compressed files as stdio streams (stream.c). Not public API.
 */
#ifndef LANES_IO_STREAM_H
#define LANES_IO_STREAM_H

#include <stdio.h>

#include "lanes/io.h"

/*
 * Open path for reading ("-": standard input), decompressed when its first
 * bytes are gzip's or zstd's. NULL with err set (shown names the file).
 * Corrupt or cut compressed data makes a later read fail with EBADMSG.
 */
struct lanes_progress;
FILE *lanes_stream_open_read(const char *path, const char *shown, struct lanes_progress *progress,
			     struct lanes_error *err);

/*
 * "xz", "bzip2" or "lz4" when the first bytes are that compression's (which
 * lanes does not read), else NULL; lanes_stream_open_read refuses those.
 * lanes_text_compressed: the same refusal for bytes read by other means
 * (LANES_EPARSE at file, line 0), else 0.
 */
const char *lanes_compression_unread(const void *data, size_t len);
int lanes_text_compressed(const char *data, size_t len, const char *file, struct lanes_error *err);

struct lanes_lines;
/* Parse lines into ctx: 0 or a LANES_E* code with err set. */
typedef int (*lanes_lines_parser)(struct lanes_lines *lines, void *ctx, struct lanes_error *err);

/*
 * Stream path's lines (any size, gzip or zstd decompressed) to parse; a
 * read that fails (a cut compressed file) is LANES_EIO naming the line.
 */
int lanes_io_read_lines(const char *path, lanes_lines_parser parse, void *ctx,
			struct lanes_progress *progress, struct lanes_error *err);

#endif
