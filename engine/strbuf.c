/* Growable strings for messages, templates and report text. */
#include "engine/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

static void reserve(struct strbuf *sb, size_t extra)
{
	xgrow(&sb->buf, &sb->cap, sb->len + extra + 1, 1);
}

void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	reserve(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_putc(struct strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n <= 0)
		return;
	reserve(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *sb_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

size_t utf8_printable_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t need;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f ? 1 : 0;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4;
	else
		return 0;
	if (n < need)
		return 0;
	for (size_t i = 1; i < need; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (need == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0; /* C1 control */
	if (need == 3 &&
	    ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
		return 0;
	if (need == 4 &&
	    ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0;
	return need;
}

void sb_add_printable(struct strbuf *sb, const char *s, size_t n,
		      bool keep_newline)
{
	size_t i = 0;

	while (i < n) {
		size_t run = 0, k;

		/* a run of printable characters goes in at once */
		while ((k = utf8_printable_len(s + i + run, n - i - run)))
			run += k;
		if (run) {
			sb_add(sb, s + i, run);
			i += run;
			continue;
		}
		if (s[i] == '\t' || (keep_newline && s[i] == '\n'))
			sb_putc(sb, s[i]);
		else
			sb_printf(sb, "\\x%02x", (unsigned char)s[i]);
		i++;
	}
}
