/*
 * strbuf.h - a string built in a caller's buffer without printf, for the
 * texts the routing engines make on every call (report.json's notes).
 *
 * The first snprintf of a process costs 10-20 us (vfprintf's code and
 * stack page in), and a warm one is still a large share of routing a tiny
 * fabric; these appenders cost a few instructions a byte. They fill the
 * buffer exactly as snprintf(buf, size, ...) with the matching format does:
 * text past size - 1 bytes is dropped, and buf always holds a NUL-terminated
 * string. Usage, for "%s: %u VL%s" into char head[64]:
 *
 *   struct lanes_sb b;
 *   lanes_sb_init(&b, head, sizeof(head));
 *   lanes_sb_str(&b, name);
 *   lanes_sb_str(&b, ": ");
 *   lanes_sb_dec(&b, n);
 *   lanes_sb_str(&b, n == 1 ? " VL" : " VLs");
 */
#ifndef LANES_CORE_STRBUF_H
#define LANES_CORE_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct lanes_sb {
	char *buf;
	size_t size; /* of buf, the NUL included; at least 1 */
	size_t len;  /* bytes of text kept (strlen(buf)) */
};

/* Start an empty string in buf[0..size), size >= 1. */
void lanes_sb_init(struct lanes_sb *b, char *buf, size_t size);
/* Append n bytes of s ("%.*s"). */
static inline void lanes_sb_mem(struct lanes_sb *b, const char *s, size_t n)
{
	size_t room = b->size - 1 - b->len;

	if (n > room)
		n = room;
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

/* Append s ("%s"). Inline: for a literal, strlen and memcpy fold to a few moves. */
static inline void lanes_sb_str(struct lanes_sb *b, const char *s)
{
	lanes_sb_mem(b, s, strlen(s));
}

/* Append v in decimal ("%u", "%llu"). */
void lanes_sb_dec(struct lanes_sb *b, uint64_t v);
/* Append v in lower-case hex, zero-padded to width digits ("%0*llx"). */
void lanes_sb_hex0(struct lanes_sb *b, uint64_t v, unsigned width);
/* malloc'ed copy of the text; NULL on failure. */
char *lanes_sb_dup(const struct lanes_sb *b);

#endif
