/* Growable, always NUL-terminated byte strings. */
#ifndef RD_STRBUF_H
#define RD_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

#define STRBUF_INIT        \
	{                  \
		NULL, 0, 0 \
	}

void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_putc(struct strbuf *sb, char c);
void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/* The contents, "" when empty; valid until the next change. */
const char *sb_str(const struct strbuf *sb);
void sb_reset(struct strbuf *sb);
/* Returns the buffer as an owned string and empties sb. */
char *sb_detach(struct strbuf *sb);
void sb_release(struct strbuf *sb);

#endif
