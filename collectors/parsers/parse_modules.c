/* lsmod ("name size used_by_count users") and /proc/modules ("name size
 * refcount users state address [taint]"). */
#include <string.h>

#include "collectors/parsers/formats.h"

/* "a,b," or "-" or "[permanent]" into a list value of module names. */
static void users(struct emit *e, struct fact *f, const struct line *t,
		  const struct line *ln)
{
	struct value items[256];
	struct value_list *l;
	size_t n = 0, start = 0;

	for (size_t i = 0; i <= t->len && n < 256; i++) {
		if (i < t->len && t->p[i] != ',')
			continue;
		if (i > start) {
			struct line name = { t->p + start, i - start, t->no };

			if (line_is_module_name(&name))
				items[n++] = value_str(name.p, name.len);
		}
		start = i + 1;
	}
	l = fact_base_list(e->fb, n);
	memcpy(l->items, items, n * sizeof(*items));
	emit_value(e, f, "used_by", value_list(l), ln);
}

static int parse(struct emit *e, const char *text, size_t len, bool proc)
{
	struct lines it;
	struct line ln;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &ln)) {
		struct line tok[7];
		size_t n = line_split(&ln, tok, proc ? 7 : 4);
		struct fact *f;

		if (n < 3 || !line_is_module_name(&tok[0]) ||
		    !line_digits(&tok[1], 20) || !line_digits(&tok[2], 20))
			continue;
		f = emit_begin(e, "module", &ln);
		emit_line(e, f, "name", &tok[0], &ln);
		emit_line(e, f, "size", &tok[1], &ln);
		emit_line(e, f, "refcount", &tok[2], &ln);
		if (n > 3)
			users(e, f, &tok[3], &ln);
		else
			users(e, f, &(struct line){ "", 0, ln.no }, &ln);
		if (proc && n > 4)
			emit_line(e, f, "state", &tok[4], &ln);
		emit_bool(e, f, "builtin", false, &ln);
		emit_end(e, f);
	}
	return (int)(e->nfacts - before);
}

int parse_lsmod(struct emit *e, const char *text, size_t len, const char *arg)
{
	(void)arg;
	return parse(e, text, len, false);
}

int parse_proc_modules(struct emit *e, const char *text, size_t len,
		       const char *arg)
{
	(void)arg;
	return parse(e, text, len, true);
}

bool lsmod_header_line(const struct line *ln)
{
	struct line tok[3];

	return line_split(ln, tok, 3) == 3 && line_eq(&tok[0], "Module") &&
	       line_eq(&tok[1], "Size");
}

bool lsmod_row_line(const struct line *ln)
{
	struct line tok[4];

	return line_split(ln, tok, 4) >= 3 && line_is_module_name(&tok[0]) &&
	       line_digits(&tok[1], 20) && line_digits(&tok[2], 20);
}

/* A row with /proc/modules' state and address columns. */
bool proc_modules_line(const struct line *ln)
{
	struct line tok[7];
	size_t n = line_split(ln, tok, 7);

	return n >= 6 && line_is_module_name(&tok[0]) && line_digits(&tok[1], 20) &&
	       line_digits(&tok[2], 20) &&
	       (line_eq(&tok[4], "Live") || line_eq(&tok[4], "Loading") ||
		line_eq(&tok[4], "Unloading")) &&
	       line_starts(&tok[5], "0x");
}
