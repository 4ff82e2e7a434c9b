/* perfquery (with or without -x, -E, ...): a "# Port counters: Lid 10
 * port 1 (CapMask: 0x5300)" header, then dot-padded "Name:....value"
 * lines.  PortSelect and CounterSelect lines select, they do not count. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

static const char *const selectors[] = {
	"PortSelect",
	"CounterSelect",
	"CounterSelect2",
};

struct block {
	struct line header;
	long lid, port; /* -1 when unknown */
};

/* "# Port extended counters: Lid 10 port 1 (CapMask: ...)" */
static bool header(const struct line *ln, struct block *b)
{
	const char *at = memmem(ln->p, ln->len, "counters: Lid ", 14);
	char buf[64];

	if (!line_starts(ln, "#") || !at)
		return false;
	line_copy(&(struct line){ at + 14, (size_t)(ln->p + ln->len - at - 14),
				  ln->no },
		  buf, sizeof(buf));
	b->header = *ln;
	b->lid = b->port = -1;
	if (sscanf(buf, "%9ld port %9ld", &b->lid, &b->port) < 1)
		b->lid = -1;
	return true;
}

/* "PortXmitData:....................178791657177235" */
static bool counter(const struct line *ln, struct line *name, uint64_t *value)
{
	const char *colon = memchr(ln->p, ':', ln->len), *v;
	char buf[32], *end;
	size_t n;

	if (!colon || colon == ln->p)
		return false;
	*name = (struct line){ ln->p, (size_t)(colon - ln->p), ln->no };
	for (size_t i = 0; i < name->len; i++)
		if (!isalnum((unsigned char)name->p[i]) && name->p[i] != '_')
			return false;
	v = colon + 1;
	while (v < ln->p + ln->len && *v == '.')
		v++;
	n = (size_t)(ln->p + ln->len - v);
	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)*v))
		return false;
	memcpy(buf, v, n);
	buf[n] = '\0';
	errno = 0;
	*value = strtoull(buf, &end, 0);
	return !*end && errno != EINVAL;
}

static bool selector(const struct line *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(selectors); i++)
		if (line_eq(name, selectors[i]))
			return true;
	return false;
}

int parse_perfquery(struct emit *e, const char *text, size_t len,
		    const char *arg)
{
	struct block b = { { 0 }, -1, -1 };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), name;
		struct fact *f;
		uint64_t value;

		if (header(&ln, &b))
			continue;
		if (line_starts(&ln, "ibwarn:") ||
		    line_starts(&ln, "ibpanic:")) {
			emit_tool_error(e, "perfquery", &ln);
			continue;
		}
		if (!b.header.p || !counter(&ln, &name, &value) ||
		    selector(&name))
			continue;
		f = emit_begin(e, "counter", &ln);
		if (arg)
			emit_str(e, f, "hca", arg, strlen(arg), NULL);
		if (b.lid >= 0)
			emit_int(e, f, "lid", b.lid, &b.header);
		if (b.port >= 0)
			emit_int(e, f, "port", b.port, &b.header);
		emit_line(e, f, "name", &name, &ln);
		/* A saturated 64-bit counter reads as the largest value. */
		emit_int(e, f, "value",
			 value > INT64_MAX ? INT64_MAX : (int64_t)value, &ln);
		emit_end(e, f);
	}
	return (int)(e->nfacts - before);
}

bool perfquery_header_line(const struct line *ln)
{
	struct block b;

	return header(ln, &b);
}
