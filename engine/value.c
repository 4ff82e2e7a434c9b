/* Typed values: construction, parsing, comparison and formatting. */
#include "engine/value.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/symbol.h"
#include "engine/xalloc.h"

static const char *const type_names[] = {
#define X(id, name) name,
	VALUE_TYPES(X)
#undef X
};

const char *value_type_to_str(enum value_type type)
{
	return (unsigned)type < VALUE_TYPE_COUNT ? type_names[type] : "unknown";
}

int value_type_from_str(const char *name)
{
	for (int i = 0; i < VALUE_TYPE_COUNT; i++)
		if (!strcmp(type_names[i], name))
			return i;
	return -1;
}

struct value value_none(void)
{
	struct value v = { .type = VALUE_NONE };

	return v;
}

struct value value_str(const char *s, size_t len)
{
	struct value v = { .type = VALUE_STRING };

	v.sym = sym_intern(s, len);
	return v;
}

struct value value_cstr(const char *s)
{
	return value_str(s, strlen(s));
}

struct value value_int(int64_t i)
{
	struct value v = { .type = VALUE_INT };

	v.i = i;
	return v;
}

struct value value_num(double n)
{
	struct value v = { .type = VALUE_NUMBER };

	v.n = n;
	return v;
}

struct value value_version(const char *s, size_t len, enum version_kind kind)
{
	struct value v = { .type = VALUE_VERSION, .vkind = (uint8_t)kind };

	v.sym = sym_intern(s, len);
	return v;
}

struct value value_bool(bool b)
{
	struct value v = { .type = VALUE_BOOL };

	v.b = b;
	return v;
}

struct value value_list(const struct value_list *list)
{
	struct value v = { .type = VALUE_LIST };

	v.list = list;
	return v;
}

/* Copies s[0..len) into buf when it fits; returns 0 or -EINVAL. */
static int bounded(const char *s, size_t len, char *buf, size_t size)
{
	if (!len || len >= size || memchr(s, '\0', len))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 0;
}

static int parse_int(const char *s, size_t len, int64_t *out)
{
	char buf[64], *end;
	long long v;

	if (bounded(s, len, buf, sizeof(buf)))
		return -EINVAL;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (errno || *end || end == buf || buf[0] == ' ')
		return -EINVAL;
	/* strtoll reads a leading 0 as octal; decimal is what people mean. */
	if (buf[0] == '0' && buf[1] && buf[1] != 'x' && buf[1] != 'X') {
		v = strtoll(buf, &end, 10);
		if (errno || *end)
			return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_num(const char *s, size_t len, double *out)
{
	char buf[64], *end;
	double v;

	if (bounded(s, len, buf, sizeof(buf)))
		return -EINVAL;
	errno = 0;
	v = strtod(buf, &end);
	if (errno || *end || end == buf || buf[0] == ' ' || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

static const struct {
	const char *text;
	bool value;
} bool_words[] = {
	{ "true", true },   { "yes", true }, { "on", true },   { "1", true },
	{ "false", false }, { "no", false }, { "off", false }, { "0", false },
};

static int parse_bool(const char *s, size_t len, bool *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(bool_words); i++) {
		if (strlen(bool_words[i].text) == len &&
		    !strncasecmp(s, bool_words[i].text, len)) {
			*out = bool_words[i].value;
			return 0;
		}
	}
	return -EINVAL;
}

int value_parse(const char *s, size_t len, enum value_type type,
		enum version_kind kind, struct value *out)
{
	int64_t i;
	double n;
	bool b;

	switch (type) {
	case VALUE_STRING:
		*out = value_str(s, len);
		return 0;
	case VALUE_INT:
		if (parse_int(s, len, &i))
			return -EINVAL;
		*out = value_int(i);
		return 0;
	case VALUE_NUMBER:
		if (parse_num(s, len, &n))
			return -EINVAL;
		*out = value_num(n);
		return 0;
	case VALUE_VERSION:
		if (!len || memchr(s, '\0', len))
			return -EINVAL;
		*out = value_version(s, len, kind);
		return 0;
	case VALUE_BOOL:
		if (parse_bool(s, len, &b))
			return -EINVAL;
		*out = value_bool(b);
		return 0;
	default:
		return -EINVAL;
	}
}

struct value value_guess(const char *s, size_t len)
{
	struct value v;

	if (!value_parse(s, len, VALUE_INT, 0, &v))
		return v;
	if (!value_parse(s, len, VALUE_NUMBER, 0, &v))
		return v;
	if ((len == 4 && !strncmp(s, "true", 4)) ||
	    (len == 5 && !strncmp(s, "false", 5)))
		return value_bool(len == 4);
	return value_str(s, len);
}

int value_coerce(const struct value *v, enum value_type type,
		 enum version_kind kind, struct value *out)
{
	struct strbuf sb = STRBUF_INIT;
	int err;

	if (v->type == type && (type != VALUE_VERSION || v->vkind == kind)) {
		*out = *v;
		return 0;
	}
	if (type == VALUE_NUMBER && v->type == VALUE_INT) {
		*out = value_num((double)v->i);
		return 0;
	}
	if (type == VALUE_INT && v->type == VALUE_NUMBER) {
		if (v->n != floor(v->n) || fabs(v->n) > 9.0e15)
			return -EINVAL;
		*out = value_int((int64_t)v->n);
		return 0;
	}
	if (v->type == VALUE_LIST || v->type == VALUE_NONE ||
	    type == VALUE_LIST)
		return -EINVAL;
	value_format(v, &sb);
	err = value_parse(sb.buf, sb.len, type, kind, out);
	sb_release(&sb);
	return err;
}

static bool numeric(const struct value *v)
{
	return v->type == VALUE_INT || v->type == VALUE_NUMBER;
}

static double as_double(const struct value *v)
{
	return v->type == VALUE_INT ? (double)v->i : v->n;
}

static bool texty(const struct value *v)
{
	return v->type == VALUE_STRING || v->type == VALUE_VERSION;
}

bool value_equal(const struct value *a, const struct value *b)
{
	if (numeric(a) && numeric(b)) {
		if (a->type == VALUE_INT && b->type == VALUE_INT)
			return a->i == b->i;
		return as_double(a) == as_double(b);
	}
	if (texty(a) && texty(b))
		return a->sym == b->sym;
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case VALUE_NONE:
		return true;
	case VALUE_BOOL:
		return a->b == b->b;
	case VALUE_LIST:
		if (a->list->n != b->list->n)
			return false;
		for (size_t i = 0; i < a->list->n; i++)
			if (!value_equal(&a->list->items[i],
					 &b->list->items[i]))
				return false;
		return true;
	default:
		return false;
	}
}

static int sign(double d)
{
	return d < 0 ? -1 : d > 0;
}

static int as_number(const struct value *v, double *out)
{
	if (numeric(v)) {
		*out = as_double(v);
		return 0;
	}
	if (v->type == VALUE_STRING)
		return parse_num(sym_str(v->sym), sym_len(v->sym), out);
	return -EINVAL;
}

int value_compare(const struct value *a, const struct value *b, int *cmp,
		  int *vkind)
{
	double x, y;

	*vkind = -1;
	if (a->type == VALUE_VERSION || b->type == VALUE_VERSION) {
		struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
		int kind = a->type == VALUE_VERSION ? a->vkind : b->vkind;

		if (a->type == VALUE_LIST || b->type == VALUE_LIST ||
		    a->type == VALUE_BOOL || b->type == VALUE_BOOL ||
		    a->type == VALUE_NONE || b->type == VALUE_NONE)
			return -EINVAL;
		*vkind = kind;
		/* texts compare as they are, without copies: a join of every
		 * HCA with the kb's firmware table runs this per pair */
		if (texty(a) && texty(b)) {
			*cmp = version_compare(sym_str(a->sym), sym_str(b->sym),
					       kind);
			return 0;
		}
		value_format(a, &sa);
		value_format(b, &sb);
		*cmp = version_compare(sb_str(&sa), sb_str(&sb), kind);
		*vkind = kind;
		sb_release(&sa);
		sb_release(&sb);
		return 0;
	}
	if (!as_number(a, &x) && !as_number(b, &y)) {
		*cmp = sign(x - y);
		return 0;
	}
	if (a->type == VALUE_STRING && b->type == VALUE_STRING) {
		*cmp = sign(strcmp(sym_str(a->sym), sym_str(b->sym)));
		return 0;
	}
	if (a->type == VALUE_BOOL && b->type == VALUE_BOOL) {
		*cmp = (int)a->b - (int)b->b;
		return 0;
	}
	return -EINVAL;
}

void value_show(const struct value *v, struct strbuf *sb)
{
	if (v->type == VALUE_STRING && !sym_len(v->sym))
		sb_puts(sb, "\"\"");
	else
		value_format(v, sb);
}

void value_format(const struct value *v, struct strbuf *sb)
{
	switch (v->type) {
	case VALUE_STRING:
	case VALUE_VERSION:
		sb_add(sb, sym_str(v->sym), sym_len(v->sym));
		break;
	case VALUE_INT:
		sb_printf(sb, "%lld", (long long)v->i);
		break;
	case VALUE_NUMBER:
		sb_printf(sb, "%.15g", v->n);
		break;
	case VALUE_BOOL:
		sb_puts(sb, v->b ? "true" : "false");
		break;
	case VALUE_LIST:
		sb_putc(sb, '[');
		for (size_t i = 0; i < v->list->n; i++) {
			if (i)
				sb_puts(sb, ", ");
			value_format(&v->list->items[i], sb);
		}
		sb_putc(sb, ']');
		break;
	default:
		break;
	}
}

const char *value_text(const struct value *v)
{
	return texty(v) ? sym_str(v->sym) : NULL;
}

uint64_t value_hash(const struct value *v)
{
	uint64_t bits;

	switch (v->type) {
	case VALUE_STRING:
	case VALUE_VERSION:
		return hash_mix64(0x5eedULL ^ sym_hash(v->sym));
	case VALUE_INT:
		return hash_mix64((uint64_t)v->i);
	case VALUE_NUMBER:
		if (v->n == floor(v->n) && fabs(v->n) < 9.0e15)
			return hash_mix64((uint64_t)(int64_t)v->n);
		memcpy(&bits, &v->n, sizeof(bits));
		return hash_mix64(bits);
	case VALUE_BOOL:
		return hash_mix64(0xb001ULL + v->b);
	default:
		return 0;
	}
}
