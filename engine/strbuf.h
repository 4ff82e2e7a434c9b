/* Growable, always NUL-terminated byte strings. */
#ifndef RD_STRBUF_H
#define RD_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
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

/* Length of the character at s[0..n) when it is safe to show on a
 * terminal: printable ASCII, or a valid UTF-8 sequence that is not a C1
 * control (U+0080-U+009F, which some terminals obey like ESC).  0 for
 * control characters (tab and newline included), DEL and bytes that are
 * not valid UTF-8: the caller escapes those. */
size_t utf8_printable_len(const char *s, size_t n);
/* Appends s[0..n) with what utf8_printable_len() refuses as \xNN (tab
 * kept, newline kept when keep_newline). */
void sb_add_printable(struct strbuf *sb, const char *s, size_t n,
		      bool keep_newline);

#endif
