/*
 * error.c - filling and formatting struct lanes_error.
 */
#include "lanes/error.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void set_message(struct lanes_error *err, const char *fmt, va_list ap)
{
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
}

int lanes_error_set(struct lanes_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	lanes_error_clear(err);
	err->code = code;
	va_start(ap, fmt);
	set_message(err, fmt, ap);
	va_end(ap);
	return code;
}

int lanes_error_oom(struct lanes_error *err)
{
	return lanes_error_set(err, LANES_ENOMEM, "out of memory");
}

int lanes_error_parse(struct lanes_error *err, const char *file, unsigned long line,
		      const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return LANES_EPARSE;
	lanes_error_clear(err);
	err->code = LANES_EPARSE;
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "<input>");
	err->line = line;
	va_start(ap, fmt);
	set_message(err, fmt, ap);
	va_end(ap);
	return LANES_EPARSE;
}

void lanes_error_clear(struct lanes_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

const char *lanes_error_format(const struct lanes_error *err, char *buf, unsigned long size)
{
	if (!size)
		return buf;
	if (err->file[0] && err->line)
		snprintf(buf, size, "%s:%lu: %s", err->file, err->line, err->message);
	else if (err->file[0])
		snprintf(buf, size, "%s: %s", err->file, err->message);
	else
		snprintf(buf, size, "%s", err->message[0] ? err->message : lanes_error_name(err->code));
	return buf;
}

const char *lanes_error_name(int code)
{
	switch (code) {
	case LANES_OK: return "no error";
	case LANES_EINVAL: return "invalid argument";
	case LANES_ENOMEM: return "out of memory";
	case LANES_EIO: return "input/output error";
	case LANES_EPARSE: return "malformed input";
	case LANES_ENOTFOUND: return "not found";
	case LANES_ERANGE: return "out of range";
	case LANES_EINTERNAL: return "internal error";
	case LANES_EREFUSED: return "refused";
	default: return "unknown error";
	}
}
