/* ucx_info -d: UCX's memory domains and the transports and devices under
 * each, as tools/info/tl_info.c prints them: "# Memory domain: ib/mlx5_0"
 * (UCX 1.6; "mlx5_0" with "#     Component: ib" later), then
 * "#   Transport: rc_mlx5" and "#   Device: mlx5_0:1" (an RDMA port) or,
 * under tcp, "#   Device: ib0" (an interface). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"

/* The key of a "#   Key: value" line, case folded by the caller. */
static bool ucx_kv(const struct line *ln, struct line *key, struct line *val)
{
	struct line t;

	if (!line_starts(ln, "#"))
		return false;
	t = line_trim((struct line){ ln->p + 1, ln->len - 1, ln->no });
	return line_kv(&t, ':', key, val) && key->len && val->len;
}

static bool key_is(const struct line *key, const char *name)
{
	return key->len == strlen(name) &&
	       !strncasecmp(key->p, name, key->len);
}

bool ucx_info_md_line(const struct line *ln)
{
	struct line key, val;

	return ucx_kv(ln, &key, &val) && key_is(&key, "Memory domain");
}

struct domain {
	char component[32];
	struct line name; /* the RDMA device of an ib domain */
	bool tcp; /* the transport now listed is tcp */
};

static void domain_start(struct emit *e, struct domain *d,
			 const struct line *val)
{
	const char *slash = memchr(val->p, '/', val->len);

	memset(d, 0, sizeof(*d));
	d->name = *val;
	if (slash) {
		/* UCX 1.6: "component/device" */
		line_copy(&(struct line){ val->p, (size_t)(slash - val->p),
					  val->no },
			  d->component, sizeof(d->component));
		d->name = (struct line){ slash + 1,
					 (size_t)(val->p + val->len - slash -
						  1),
					 val->no };
	}
	(void)e;
}

static void domain_hca(struct emit *e, const struct domain *d,
		       const struct line *ln)
{
	struct fact *f;

	if (strcmp(d->component, "ib") || !d->name.len)
		return;
	f = emit_begin(e, "hca", ln);
	emit_line(e, f, "name", &d->name, ln);
	emit_end(e, f);
}

static void device(struct emit *e, const struct domain *d,
		   const struct line *val, const struct line *ln)
{
	const char *colon = memchr(val->p, ':', val->len);
	struct fact *f;

	if (d->tcp) {
		f = emit_begin(e, "netdev", ln);
		emit_line(e, f, "name", val, ln);
		emit_end(e, f);
		return;
	}
	if (strcmp(d->component, "ib") || !colon)
		return;
	f = emit_begin(e, "port", ln);
	emit_line(e, f, "hca",
		  &(struct line){ val->p, (size_t)(colon - val->p), ln->no },
		  ln);
	emit_line(e, f, "port",
		  &(struct line){ colon + 1,
				  (size_t)(val->p + val->len - colon - 1),
				  ln->no },
		  ln);
	emit_end(e, f);
}

int parse_ucx_info(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	struct domain d = { { 0 }, { 0 }, false };
	struct line md = { 0 };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), key, val;

		if (!ucx_kv(&ln, &key, &val))
			continue;
		if (key_is(&key, "Memory domain")) {
			domain_start(e, &d, &val);
			md = ln;
			if (d.component[0])
				domain_hca(e, &d, &md);
		} else if (key_is(&key, "Component") && md.p &&
			   !d.component[0]) {
			line_copy(&val, d.component, sizeof(d.component));
			domain_hca(e, &d, &md);
		} else if (key_is(&key, "Transport")) {
			d.tcp = line_eq(&val, "tcp");
		} else if (key_is(&key, "Device")) {
			device(e, &d, &val, &ln);
		}
	}
	return (int)(e->nfacts - before);
}
