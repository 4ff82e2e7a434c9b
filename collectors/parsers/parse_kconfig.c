/* Kernel configuration: "CONFIG_X=y|m|value" and "# CONFIG_X is not set"
 * (recorded as n). */
#include <string.h>

#include "collectors/parsers/formats.h"

static bool option_name(const struct line *t)
{
	if (t->len < 8 || !line_starts(t, "CONFIG_"))
		return false;
	for (size_t i = 0; i < t->len; i++) {
		char c = t->p[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      (c >= 'a' && c <= 'z') || c == '_'))
			return false;
	}
	return true;
}

int parse_kconfig(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), name, val;
		struct fact *f;

		if (line_starts(&ln, "# CONFIG_") && ln.len > 13 &&
		    !memcmp(ln.p + ln.len - 11, " is not set", 11)) {
			name.p = ln.p + 2;
			name.len = ln.len - 13;
			name.no = ln.no;
			val.p = "n";
			val.len = 1;
		} else if (!line_kv(&ln, '=', &name, &val)) {
			continue;
		}
		if (!option_name(&name))
			continue;
		if (val.len >= 2 && val.p[0] == '"' &&
		    val.p[val.len - 1] == '"') {
			val.p++;
			val.len -= 2;
		}
		f = emit_begin(e, "kconfig", &ln);
		emit_line(e, f, "name", &name, &ln);
		if (val.len)
			emit_line(e, f, "value", &val, &ln);
		else
			emit_str(e, f, "value", "\"\"", 2, &ln);
		emit_end(e, f);
	}
	return (int)(e->nfacts - before);
}

