/* modinfo: "key: value" blocks, one per module, each starting with
 * "filename:" (or "name:" in grep'ed pastes). */
#include <string.h>

#include "collectors/parsers/formats.h"

struct block {
	struct fact *f;
	bool intree, out_of_tree;
	struct line origin_line; /* what told the origin */
	struct line version;
};

/* intree: Y says inbox; a versioned module under extra/ or updates/ is an
 * out-of-tree (OFED) build; else the version's shape decides. */
static void close_block(struct emit *e, struct block *b)
{
	const char *o = NULL;

	if (!b->f)
		return;
	if (b->intree)
		o = "inbox";
	else if (b->out_of_tree && b->version.len)
		o = "mlnx_ofed";
	else if (b->version.len)
		o = driver_origin_of(b->version.p, b->version.len);
	if (o && strcmp(o, "unknown"))
		emit_str(e, b->f, "origin", o, strlen(o), &b->origin_line);
	emit_end(e, b->f);
	memset(b, 0, sizeof(*b));
}

/* "/lib/modules/.../mlx5_core.ko.xz" -> "mlx5_core" */
static struct line base_name(struct line path)
{
	const char *slash = memrchr(path.p, '/', path.len);
	const char *dot;

	if (slash) {
		path.len -= (size_t)(slash + 1 - path.p);
		path.p = slash + 1;
	}
	dot = memchr(path.p, '.', path.len);
	if (dot)
		path.len = (size_t)(dot - path.p);
	return path;
}

int parse_modinfo(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct block b = { 0 };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), key, val;

		if (!line_kv(&ln, ':', &key, &val))
			continue;
		if (line_eq(&key, "filename")) {
			struct line name = base_name(val);

			close_block(e, &b);
			b.f = emit_begin(e, "driver", &ln);
			emit_line(e, b.f, "name", &name, &ln);
			emit_line(e, b.f, "filename", &val, &ln);
			emit_str(e, b.f, "evidence", "modinfo", 7, &ln);
			b.out_of_tree = line_contains(&val, "/extra/") ||
					line_contains(&val, "/updates/");
			b.origin_line = ln;
			continue;
		}
		if (!b.f &&
		    (line_eq(&key, "version") || line_eq(&key, "name"))) {
			/* A grep'ed paste without filename: one module, named by
			 * the caller or by a name: line. */
			b.f = emit_begin(e, "driver", &ln);
			emit_str(e, b.f, "evidence", "modinfo", 7, &ln);
			if (arg)
				emit_str(e, b.f, "name", arg, strlen(arg), &ln);
		}
		if (!b.f)
			continue;
		if (line_eq(&key, "name")) {
			emit_line(e, b.f, "name", &val, &ln);
		} else if (line_eq(&key, "version")) {
			emit_line(e, b.f, "version", &val, &ln);
			b.version = val;
			if (!b.intree && !b.out_of_tree)
				b.origin_line = ln;
		} else if (line_eq(&key, "srcversion")) {
			emit_line(e, b.f, "srcversion", &val, &ln);
		} else if (line_eq(&key, "intree") && line_eq(&val, "Y")) {
			b.intree = true;
			b.origin_line = ln;
		}
	}
	close_block(e, &b);
	return (int)(e->nfacts - before);
}

