/* pam_limits configuration (/etc/security/limits.conf, limits.d/NAME.conf):
 * "<domain> <type> <item> <value>" lines; only memlock matters here.  A
 * "-" type sets soft and hard; a later line for the same domain and type
 * replaces an earlier one, as pam_limits reads them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

#define LIMITS_MAX 128 /* @@ distinct domain/type pairs kept per file */

static const char *const types[] = { "soft", "hard" };

struct entry {
	struct line domain, value, ln;
	size_t type; /* index into types */
};

/* "unlimited"/"infinity" -> -1; else KiB. */
static bool memlock_kb(const struct line *v, int64_t *kb)
{
	char buf[32], *end;
	long long n;

	if (line_eq(v, "unlimited") || line_eq(v, "infinity")) {
		*kb = -1;
		return true;
	}
	line_copy(v, buf, sizeof(buf));
	n = strtoll(buf, &end, 10);
	if (end == buf || *end || n < -1 || v->len >= sizeof(buf))
		return false;
	*kb = n;
	return true;
}

static void keep(struct entry *v, size_t *n, const struct entry *add)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i].type == add->type &&
		    v[i].domain.len == add->domain.len &&
		    !memcmp(v[i].domain.p, add->domain.p, add->domain.len)) {
			v[i] = *add;
			return;
		}
	if (*n < LIMITS_MAX)
		v[(*n)++] = *add;
}

static void emit_entry(struct emit *e, const struct entry *x, const char *file)
{
	struct fact *f = emit_begin(e, "limits", &x->ln);
	const char *type = types[x->type];
	char scope[160];
	int64_t kb;

	snprintf(scope, sizeof(scope), "%s %.*s %s", file,
		 (int)(x->domain.len < 64 ? x->domain.len : 64), x->domain.p,
		 type);
	emit_str(e, f, "scope", scope, strlen(scope), &x->ln);
	emit_line(e, f, "domain", &x->domain, &x->ln);
	emit_str(e, f, "type", type, strlen(type), &x->ln);
	emit_str(e, f, "file", file, strlen(file), &x->ln);
	if (memlock_kb(&x->value, &kb))
		emit_int(e, f, "memlock_kb", kb, &x->ln);
	emit_end(e, f);
}

int parse_limits_conf(struct emit *e, const char *text, size_t len,
		      const char *arg)
{
	struct entry *v = xcalloc(LIMITS_MAX, sizeof(*v));
	struct lines it;
	struct line raw;
	size_t n = 0;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), tok[5];
		struct entry x = { 0 };
		const char *hash;

		if (line_split(&ln, tok, 5) < 4 || tok[0].p[0] == '#' ||
		    !line_eq(&tok[2], "memlock"))
			continue;
		x.domain = tok[0];
		x.value = tok[3];
		hash = memchr(x.value.p, '#', x.value.len);
		if (hash)
			x.value.len = (size_t)(hash - x.value.p);
		x.ln = ln;
		for (size_t t = 0; t < ARRAY_SIZE(types); t++) {
			x.type = t;
			if (line_eq(&tok[1], types[t]) || line_eq(&tok[1], "-"))
				keep(v, &n, &x);
		}
	}
	for (size_t i = 0; i < n; i++)
		emit_entry(e, &v[i], arg ? arg : "limits.conf");
	free(v);
	return (int)(e->nfacts - before);
}

bool limits_memlock_line(const struct line *ln)
{
	struct line tok[5];
	size_t n = line_split(ln, tok, 5);

	return n >= 4 && tok[0].p[0] != '#' &&
	       (line_eq(&tok[1], "soft") || line_eq(&tok[1], "hard") ||
		line_eq(&tok[1], "-")) &&
	       line_eq(&tok[2], "memlock");
}
