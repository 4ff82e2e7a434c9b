/* The streaming JSON reader: a cursor over the text that reads one value
 * at a time. */
#include "engine/jscan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define JSCAN_MAX_DEPTH 64 /* @@ as engine/json.c */
#define JSCAN_NUMBER_MAX 64 /* @@ longest number text */

void jscan_init(struct jscan *s, const char *text, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->p = text;
	s->end = text + len;
}

void jscan_release(struct jscan *s)
{
	sb_release(&s->str);
}

struct jscan_mark jscan_tell(const struct jscan *s)
{
	struct jscan_mark m = { s->p, s->depth, s->fresh };

	return m;
}

void jscan_seek(struct jscan *s, struct jscan_mark m)
{
	if (s->failed)
		return;
	s->p = m.p;
	s->depth = m.depth;
	s->fresh = m.fresh;
}

bool jscan_failed(const struct jscan *s)
{
	return s->failed;
}

size_t jscan_offset(const struct jscan *s, const char *text)
{
	return (size_t)(s->p - text);
}

static int fail(struct jscan *s)
{
	s->failed = true;
	s->p = s->end;
	return -EINVAL;
}

static void skip_space(struct jscan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' ||
				 *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

/* Consumes the literal word w when it comes next. */
static bool word(struct jscan *s, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, w, n))
		return false;
	s->p += n;
	return true;
}

enum jscan_type jscan_peek(struct jscan *s)
{
	skip_space(s);
	if (s->failed || s->p >= s->end)
		return JSCAN_INVALID;
	switch (*s->p) {
	case '{':
		return JSCAN_OBJECT;
	case '[':
		return JSCAN_ARRAY;
	case '"':
		return JSCAN_STRING;
	case 't':
	case 'f':
		return JSCAN_BOOL;
	case 'n':
		return JSCAN_NULL;
	case '-':
	case '0' ... '9':
		return JSCAN_NUMBER;
	default:
		return JSCAN_INVALID;
	}
}

static int hex4(struct jscan *s, unsigned *out)
{
	*out = 0;
	if (s->end - s->p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = *s->p++;

		*out <<= 4;
		if (c >= '0' && c <= '9')
			*out |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*out |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*out |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static void put_utf8(struct strbuf *sb, unsigned cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	sb_add(sb, b, n);
}

/* \uXXXX, with a following low surrogate when XXXX is a high one. */
static int unicode_escape(struct jscan *s, bool keep)
{
	unsigned cp, lo;

	if (hex4(s, &cp))
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return -1;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (!word(s, "\\u") || hex4(s, &lo) || lo < 0xdc00 ||
		    lo > 0xdfff)
			return -1;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (keep)
		put_utf8(&s->str, cp);
	return 0;
}

/* Reads a string into s->str, or only past it when keep is false. */
static int read_string(struct jscan *s, bool keep)
{
	static const char escaped[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";

	if (keep)
		sb_reset(&s->str);
	if (s->p >= s->end || *s->p != '"')
		return fail(s);
	s->p++;
	for (;;) {
		const char *run = s->p, *e;

		while (s->p < s->end && *s->p != '"' && *s->p != '\\' &&
		       (unsigned char)*s->p >= 0x20)
			s->p++;
		if (keep)
			sb_add(&s->str, run, (size_t)(s->p - run));
		if (s->p >= s->end || (unsigned char)*s->p < 0x20)
			return fail(s);
		if (*s->p++ == '"')
			return 0;
		if (s->p >= s->end)
			return fail(s);
		if (*s->p == 'u') {
			s->p++;
			if (unicode_escape(s, keep))
				return fail(s);
		} else if (*s->p && (e = strchr(escaped, *s->p))) {
			s->p++;
			if (keep)
				sb_putc(&s->str, meant[e - escaped]);
		} else {
			return fail(s);
		}
	}
}

const char *jscan_string(struct jscan *s, size_t *len)
{
	if (jscan_peek(s) != JSCAN_STRING || read_string(s, true))
		return NULL;
	s->fresh = false;
	*len = s->str.len;
	return sb_str(&s->str);
}

static size_t digits(const char *p, const char *end)
{
	size_t n = 0;

	while (p + n < end && p[n] >= '0' && p[n] <= '9')
		n++;
	return n;
}

/* Reads past a number; its text is [*start, s->p). */
static int scan_number(struct jscan *s, const char **start, bool *is_int)
{
	const char *q;
	size_t n;

	if (jscan_peek(s) != JSCAN_NUMBER)
		return fail(s);
	*start = q = s->p;
	*is_int = true;
	if (*q == '-')
		q++;
	n = digits(q, s->end);
	if (!n || (n > 1 && *q == '0'))
		return fail(s);
	q += n;
	if (q < s->end && *q == '.') {
		*is_int = false;
		n = digits(++q, s->end);
		if (!n)
			return fail(s);
		q += n;
	}
	if (q < s->end && (*q == 'e' || *q == 'E')) {
		*is_int = false;
		if (++q < s->end && (*q == '+' || *q == '-'))
			q++;
		n = digits(q, s->end);
		if (!n)
			return fail(s);
		q += n;
	}
	if ((size_t)(q - *start) > JSCAN_NUMBER_MAX)
		return fail(s);
	s->p = q;
	s->fresh = false;
	return 0;
}

int jscan_number(struct jscan *s, bool *is_int, int64_t *i, double *d)
{
	char buf[JSCAN_NUMBER_MAX + 1];
	const char *start;
	char *end;

	if (scan_number(s, &start, is_int))
		return -EINVAL;
	memcpy(buf, start, (size_t)(s->p - start));
	buf[s->p - start] = '\0';
	if (*is_int) {
		errno = 0;
		*i = strtoll(buf, &end, 10);
		if (!errno)
			return 0;
		*is_int = false;
	}
	*d = strtod(buf, &end);
	return 0;
}

int jscan_bool(struct jscan *s, bool *b)
{
	if (jscan_peek(s) != JSCAN_BOOL)
		return fail(s);
	if (word(s, "true"))
		*b = true;
	else if (word(s, "false"))
		*b = false;
	else
		return fail(s);
	s->fresh = false;
	return 0;
}

static int enter(struct jscan *s, enum jscan_type type)
{
	if (jscan_peek(s) != type || s->depth >= JSCAN_MAX_DEPTH)
		return fail(s);
	s->p++;
	s->depth++;
	s->fresh = true;
	return 0;
}

int jscan_object(struct jscan *s)
{
	return enter(s, JSCAN_OBJECT);
}

int jscan_array(struct jscan *s)
{
	return enter(s, JSCAN_ARRAY);
}

/* Before a member or an item: the closing bracket (returns 0), or the
 * separating comma when one is due (returns 1), or an error. */
static int next_in(struct jscan *s, char close)
{
	skip_space(s);
	if (s->failed || s->p >= s->end)
		return fail(s);
	if (*s->p == close) {
		s->p++;
		s->depth--;
		s->fresh = false;
		return 0;
	}
	if (!s->fresh) {
		if (*s->p != ',')
			return fail(s);
		s->p++;
		skip_space(s);
	}
	s->fresh = false;
	return 1;
}

const char *jscan_key(struct jscan *s, size_t *len)
{
	if (next_in(s, '}') <= 0 || read_string(s, true))
		return NULL;
	skip_space(s);
	if (s->p >= s->end || *s->p != ':') {
		fail(s);
		return NULL;
	}
	s->p++;
	*len = s->str.len;
	return sb_str(&s->str);
}

bool jscan_item(struct jscan *s)
{
	return next_in(s, ']') > 0;
}

int jscan_skip(struct jscan *s)
{
	const char *start;
	bool b, is_int;
	size_t len;

	switch (jscan_peek(s)) {
	case JSCAN_NULL:
		if (!word(s, "null"))
			return fail(s);
		s->fresh = false;
		return 0;
	case JSCAN_BOOL:
		return jscan_bool(s, &b);
	case JSCAN_NUMBER:
		return scan_number(s, &start, &is_int);
	case JSCAN_STRING:
		if (read_string(s, false))
			return -EINVAL;
		s->fresh = false;
		return 0;
	case JSCAN_ARRAY:
		if (jscan_array(s))
			return -EINVAL;
		while (jscan_item(s))
			if (jscan_skip(s))
				return -EINVAL;
		return s->failed ? -EINVAL : 0;
	case JSCAN_OBJECT:
		if (jscan_object(s))
			return -EINVAL;
		while (jscan_key(s, &len))
			if (jscan_skip(s))
				return -EINVAL;
		return s->failed ? -EINVAL : 0;
	default:
		return fail(s);
	}
}

bool jscan_at_end(struct jscan *s)
{
	skip_space(s);
	return !s->failed && s->p >= s->end;
}
