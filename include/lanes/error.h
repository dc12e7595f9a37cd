/*
 * lanes/error.h - error reporting for every fallible liblanes call.
 *
 * A fallible function returns 0 on success or a negative LANES_E* code, and
 * fills a caller-owned struct lanes_error (which may be NULL when the caller
 * does not want details). The library never prints, exits or aborts on bad
 * input: the message says what is wrong, and for parse errors file and line
 * say where, so a front end can print "file:line: message".
 */
#ifndef LANES_ERROR_H
#define LANES_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/** Error codes; every one is negative. */
enum lanes_error_code {
	LANES_OK = 0,
	LANES_EINVAL = -1,   /**< an impossible parameter or argument */
	LANES_ENOMEM = -2,   /**< allocation failed */
	LANES_EIO = -3,      /**< the operating system refused (errno is set) */
	LANES_EPARSE = -4,   /**< malformed input file (file and line are set) */
	LANES_ENOTFOUND = -5,/**< a named thing (engine, generator, format) does not exist */
	LANES_ERANGE = -6,   /**< a value is outside what the fabric model can hold, or a
				  routing does not fit the VL/SL budget */
	LANES_EINTERNAL = -7,/**< an internal invariant failed: a bug in lanes, never the input */
	LANES_EREFUSED = -8, /**< the engine does not apply to this fabric (its structure, its
				  faults); the message names what is missing */
};

/** Details of the last failure of one call. */
struct lanes_error {
	int code;          /**< one of enum lanes_error_code */
	int sys_errno;     /**< errno for LANES_EIO, else 0 */
	char file[256];    /**< input file for LANES_EPARSE, else "" */
	unsigned long line;/**< 1-based line for LANES_EPARSE, else 0 */
	char message[512]; /**< what is wrong, without file or line */
};

/**
 * Record an error.
 * @param err   where to record it; may be NULL
 * @param code  a negative LANES_E* code
 * @param fmt   printf-style message
 * @return code, so that callers can write `return lanes_error_set(...)`
 */
int lanes_error_set(struct lanes_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/**
 * Record a parse error at file:line.
 * @return LANES_EPARSE
 */
int lanes_error_parse(struct lanes_error *err, const char *file, unsigned long line,
		      const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/** Reset an error record to "no error". @param err may be NULL */
void lanes_error_clear(struct lanes_error *err);

/**
 * Format an error the way the command line prints it:
 * "file:line: message" for parse errors, else "message".
 * @param err  the error
 * @param buf  output buffer
 * @param size size of buf
 * @return buf
 */
const char *lanes_error_format(const struct lanes_error *err, char *buf, unsigned long size);

/** A short name for a code ("invalid argument", ...). */
const char *lanes_error_name(int code);

#ifdef __cplusplus
}
#endif
#endif
