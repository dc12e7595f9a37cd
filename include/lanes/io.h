/*
 * lanes/io.h - fabric file formats: a registry of readers and writers.
 *
 * Each format lives in one file under src/io/ and exports one descriptor.
 * Readers parse a whole buffer (so fuzzers and tests can feed memory) and
 * report malformed input as LANES_EPARSE with file and line. Writers write to
 * a stream; lanes_io_write_file() writes to a temporary file next to the
 * target and renames it, so an existing file is never left half-written.
 */
#ifndef LANES_IO_H
#define LANES_IO_H

#include <stddef.h>
#include <stdio.h>

#include "lanes/error.h"
#include "lanes/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One file format. read or write may be NULL when the format is one-way. */
struct lanes_format {
	const char *name;    /**< "ibnetdiscover", "ibsim", "dot" */
	const char *summary; /**< one line */
	/** Parse data[0..len) named `file` (used in messages). */
	int (*read)(const char *data, size_t len, const char *file, struct lanes_fabric **out,
		    struct lanes_error *err);
	/** Write a fabric to a stream. */
	int (*write)(const struct lanes_fabric *f, FILE *out, struct lanes_error *err);
	/** How sure is this format that data is its own: 0 (no) to 100. */
	int (*sniff)(const char *data, size_t len);
};

/** @return the format named, or NULL */
const struct lanes_format *lanes_format_find(const char *name);

/** @return the i-th registered format, or NULL past the end */
const struct lanes_format *lanes_format_at(size_t i);

/** @return the readable format that claims data most strongly, or NULL */
const struct lanes_format *lanes_format_sniff(const char *data, size_t len);

/** Compression of a file: read from its first bytes, written by its name's extension. */
enum lanes_compress {
	LANES_COMPRESS_NONE,
	LANES_COMPRESS_GZIP, /**< .gz (zlib) */
	LANES_COMPRESS_ZSTD, /**< .zst (libzstd) */
};

/** The compression a file name asks for: .gz gzip, .zst zstd, else none. */
int lanes_compress_of_path(const char *path);

/**
 * A stream that compresses (enum lanes_compress, not NONE) into raw, which
 * it owns: fclose() finishes the compressed data, closes raw, and returns
 * EOF if any write failed. NULL (raw untouched) when out of memory.
 */
FILE *lanes_io_compress(FILE *raw, int kind, struct lanes_error *err);

/** Largest input file lanes reads: 1 GiB (a 100k-endpoint fabric is ~40 MB). */
#define LANES_IO_MAX_BYTES ((size_t)1 << 30)

/**
 * Read a whole file into memory (NUL-terminated); path "-" is standard
 * input, named "(standard input)" in errors. A directory is LANES_EIO
 * ("Is a directory"); more than LANES_IO_MAX_BYTES (a huge file, or a
 * device such as /dev/zero that never ends) is LANES_EINVAL, found without
 * reading more than that. A read error names the system's reason.
 * @param out receives a malloc'ed buffer; free() it
 */
int lanes_io_slurp(const char *path, char **out, size_t *len, struct lanes_error *err);

/**
 * Apply an infiniband-diags node-name map (lines `GUID "name"`, '#'
 * comments): *out is f with those nodes' descriptions replaced. GUIDs the
 * fabric lacks are ignored; a GUID named twice or a malformed line is
 * LANES_EPARSE with file:line.
 */
int lanes_io_apply_name_map(const struct lanes_fabric *f, const char *path,
			    struct lanes_fabric **out, struct lanes_error *err);

/** How errors name path: itself, or "(standard input)" for "-". */
const char *lanes_io_shown_name(const char *path);

/**
 * Read a fabric file ("-": standard input).
 * @param format a format name, or NULL to recognise it from the content
 */
int lanes_io_read_file(const char *path, const char *format, struct lanes_fabric **out,
		       struct lanes_error *err);

/** Write a fabric to path through a temporary file and rename() (see lanes_atomic). */
int lanes_io_write_file(const char *path, const char *format, const struct lanes_fabric *f,
			struct lanes_error *err);

/**
 * An output file that only appears when committed: writes go to
 * "path.tmp.XXXXXX" beside it, lanes_atomic_commit() renames it over path,
 * lanes_atomic_abort() removes it. A symbolic link is followed: the file it
 * names is replaced (with the temporary file beside that file) and the link
 * stays. A replaced file keeps its permission bits (and owner, when allowed);
 * a new one gets 0666 & ~umask, as open(O_CREAT, 0666) would give it (the
 * temporary file is created so, with O_EXCL under a random name: the
 * process umask is never changed, not even briefly). An existing path that
 * is not a regular file (a device such as /dev/null, a FIFO) is written
 * directly, with no temporary file (tmp is NULL), since renaming over it
 * would replace the device; a directory is refused. A name ending in .gz or
 * .zst is written compressed; .xz, .bz2 and .lz4 (compressions lanes does
 * not write) and an empty name are refused (LANES_EINVAL) before anything
 * is created.
 */
struct lanes_atomic {
	FILE *fp;
	char *path; /**< the file written: path with symbolic links followed */
	char *tmp;  /**< the temporary file, or NULL when writing directly */
};

/** Open path for atomic writing. */
int lanes_atomic_open(struct lanes_atomic *a, const char *path, struct lanes_error *err);
/** Flush, close and rename into place. */
int lanes_atomic_commit(struct lanes_atomic *a, struct lanes_error *err);
/** Close and remove the temporary file. Safe after commit or on a zeroed struct. */
void lanes_atomic_abort(struct lanes_atomic *a);

#ifdef __cplusplus
}
#endif
#endif
