/*
 * fuzz_stream.c - fuzz target for the streamed readers and their gzip and
 * zstd decompression (io/stream.c, under lanes_lfts_read_file() and
 * lanes_io_read_file()).
 *
 * Each input is written to a file and read back as a user's file is: in
 * 64 KiB chunks through fopencookie, decompressed when its first bytes are
 * gzip's or zstd's. The oracle is the in-memory reader on the bytes the
 * file holds once decompressed, the decompression done here in one call per
 * member or frame rather than chunk by chunk:
 *   - plain bytes: the streamed LFT reader and lanes_lfts_read() on the same
 *     bytes both fail, or both give the same tables; likewise the fabric
 *     readers (the same nodes, ports and cables);
 *   - compressed bytes that decompress whole (gzip members or zstd frames
 *     back to back, nothing after them): the same, on the decompressed text;
 *   - compressed bytes that do not (corrupt, cut, or followed by anything
 *     else): the streamed readers must fail, never read a shorter file.
 * Inputs that decompress to more than 1 MiB are skipped (a bomb says
 * nothing more and only slows the fuzzer).
 * The fabric for the LFTs is a torus k=4x4 p=1, as fuzz_lfts.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "lanes/dump.h"
#include "lanes/io.h"
#include "fuzz_fabric.h"
#include "lanes/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MOST_TEXT (1u << 20)

enum { BROKEN = -1, PLAIN = 0, WHOLE = 1 };

/* The fabric of the LFTs, made once per process; the file of one input. */
struct fixture {
	const struct lanes_fabric *f;
	char path[64];
};

/* Append n bytes to *text; 0, or -1 past MOST_TEXT. */
static int append(char **text, size_t *len, const void *bytes, size_t n)
{
	if (*len + n > MOST_TEXT)
		return -1;
	if (!(*text = realloc(*text, *len + n + 1)))
		abort();
	memcpy(*text + *len, bytes, n);
	*len += n;
	return 0;
}

/* gzip members back to back; WHOLE, BROKEN, or -2 when too large. */
static int gunzip(const uint8_t *in, size_t size, char **text, size_t *len)
{
	unsigned char out[16384];
	size_t pos = 0;
	int rc = WHOLE;

	while (rc == WHOLE && pos < size) {
		z_stream z;
		int zr = Z_OK;

		memset(&z, 0, sizeof(z));
		if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
			abort();
		z.next_in = (unsigned char *)(uintptr_t)(in + pos);
		z.avail_in = (uInt)(size - pos);
		while (zr == Z_OK && rc == WHOLE) {
			z.next_out = out;
			z.avail_out = sizeof(out);
			zr = inflate(&z, Z_NO_FLUSH);
			if ((zr == Z_OK || zr == Z_STREAM_END) &&
			    append(text, len, out, sizeof(out) - z.avail_out))
				rc = -2;
		}
		if (zr != Z_STREAM_END && rc == WHOLE)
			rc = BROKEN; /* corrupt, or cut inside the member */
		pos = size - z.avail_in;
		inflateEnd(&z);
	}
	return rc;
}

/* zstd frames back to back; WHOLE, BROKEN, or -2 when too large. */
static int unzstd(const uint8_t *in, size_t size, char **text, size_t *len)
{
	ZSTD_DStream *zd = ZSTD_createDStream();
	ZSTD_inBuffer src = { in, size, 0 };
	char out[16384];
	size_t hint = 1;
	int rc = WHOLE;

	if (!zd)
		abort();
	for (;;) { /* until the input is used and nothing more is held back */
		ZSTD_outBuffer dst = { out, sizeof(out), 0 };

		hint = ZSTD_decompressStream(zd, &dst, &src);
		if (ZSTD_isError(hint)) {
			rc = BROKEN;
			break;
		}
		if (append(text, len, out, dst.pos)) {
			rc = -2;
			break;
		}
		if (src.pos == src.size && dst.pos < sizeof(out))
			break;
	}
	if (rc == WHOLE && hint)
		rc = BROKEN; /* cut inside a frame */
	ZSTD_freeDStream(zd);
	return rc;
}

/* What the file holds once decompressed, into *text; PLAIN, WHOLE, BROKEN or -2. */
static int decompressed(const uint8_t *data, size_t size, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
		return gunzip(data, size, text, len);
	if (size >= 4 && !memcmp(data, "\x28\xb5\x2f\xfd", 4))
		return unzstd(data, size, text, len);
	if (append(text, len, data, size))
		return -2;
	return PLAIN;
}

static void check_lfts(const struct fixture *fx, const char *text, size_t len, int kind)
{
	struct lanes_routing *streamed, *in_memory;
	struct lanes_error err;
	int rs, rm = -1;

	if (lanes_routing_new(fx->f, &streamed, &err) || lanes_routing_new(fx->f, &in_memory, &err))
		abort();
	rs = lanes_lfts_read_file(fx->path, fx->f, streamed, NULL, &err);
	if (kind != BROKEN)
		rm = lanes_lfts_read(text ? text : "", len, fx->path, fx->f, in_memory, &err);
	if (kind == BROKEN ? rs == 0 : (rs == 0) != (rm == 0))
		abort();
	if (rs == 0 && memcmp(streamed->lft, in_memory->lft,
			      (size_t)streamed->num_lids * streamed->num_switches))
		abort();
	lanes_routing_free(streamed);
	lanes_routing_free(in_memory);
}

static int same_fabric(const struct lanes_fabric *a, const struct lanes_fabric *b)
{
	if (a->num_nodes != b->num_nodes || a->num_links != b->num_links ||
	    a->max_lid != b->max_lid || a->num_switches != b->num_switches)
		return 0;
	for (uint32_t i = 0; i < a->num_nodes; i++)
		if (a->nodes[i].guid != b->nodes[i].guid || a->nodes[i].nports != b->nodes[i].nports)
			return 0;
	for (uint32_t l = 0; l < a->num_links; l++) {
		const struct lanes_link *x = &a->links[l], *y = &b->links[l];

		if (x->a != y->a || x->b != y->b || x->pa != y->pa || x->pb != y->pb)
			return 0;
	}
	return 1;
}

static void check_fabric(const struct fixture *fx, const char *text, size_t len, int kind)
{
	const struct lanes_format *fmt = lanes_format_find("ibnetdiscover");
	struct lanes_fabric *streamed = NULL, *in_memory = NULL;
	struct lanes_error err;
	int rs, rm = -1;

	rs = lanes_io_read_file(fx->path, "ibnetdiscover", &streamed, &err);
	if (kind != BROKEN)
		rm = fmt->read(text ? text : "", len, fx->path, &in_memory, &err);
	if (kind == BROKEN ? rs == 0 : (rs == 0) != (rm == 0))
		abort();
	if (rs == 0 && !same_fabric(streamed, in_memory))
		abort();
	lanes_fabric_free(streamed);
	lanes_fabric_free(in_memory);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fixture fx = { fuzz_fabric(), "/tmp/lanes-fuzz-stream-XXXXXX" };
	char *text;
	size_t len;
	int kind = decompressed(data, size, &text, &len), fd;
	FILE *fp;

	if (kind == -2) {
		free(text);
		return 0;
	}
	if ((fd = mkstemp(fx.path)) < 0 || !(fp = fdopen(fd, "wb")) ||
	    fwrite(data, 1, size, fp) != size || fclose(fp))
		abort();
	check_lfts(&fx, text, len, kind);
	check_fabric(&fx, text, len, kind);
	unlink(fx.path); /* each input's own file: none is left behind */
	free(text);
	return 0;
}
