/* ibstatus: "Infiniband device 'mlx5_0' port 1 status:" blocks of
 * "key: value" lines ("state: 4: ACTIVE", "rate: 100 Gb/sec (4X EDR)",
 * "base lid: 0x33bf", "default gid:", the port's gids/0, a gid fact of
 * index 0).  Old versions print no link_layer line and no
 * blank line between ports; the block header alone delimits them.  The
 * script's "Fatal error:" lines become tool_error facts. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/ib_link.h"
#include "collectors/parsers/port_state.h"
#include "engine/xalloc.h"

#define HEADER "Infiniband device '"

/* Port keys that map onto a port field as they are. */
static const struct field_key plain_keys[] = {
	{ "base lid", "lid" },
	{ "sm lid", "sm_lid" },
	{ "link_layer", "link_layer" },
};

/* "Infiniband device 'mlx5_0' port 1 status:" -> name and port. */
static bool header(const struct line *ln, struct line *name, unsigned *port)
{
	const char *q, *end = ln->p + ln->len;
	char buf[64];

	if (!line_starts(ln, HEADER))
		return false;
	name->p = ln->p + strlen(HEADER);
	q = memchr(name->p, '\'', (size_t)(end - name->p));
	if (!q || q == name->p)
		return false;
	name->len = (size_t)(q - name->p);
	name->no = ln->no;
	snprintf(buf, sizeof(buf), "%.*s",
		 (int)(end - q - 1 < 63 ? end - q - 1 : 63), q + 1);
	return sscanf(buf, " port %5u status", port) == 1;
}

/* A GID as sysfs spells it, not "unknown" (the script's word when the
 * file cannot be read) nor the all-zero entry of an unset GID. */
static bool gid_value(const struct line *v)
{
	bool colon = false, nonzero = false;

	for (size_t i = 0; i < v->len; i++) {
		char c = v->p[i];

		if (c == ':')
			colon = true;
		else if (!isxdigit((unsigned char)c) && c != '.')
			return false;
		else if (c != '0' && c != '.')
			nonzero = true;
	}
	return colon && nonzero;
}

static void rate(struct emit *e, struct fact *f, const struct line *val,
		 const struct line *ln)
{
	struct ib_link_rate r;

	if (!ib_link_rate_parse(val->p, val->len, &r))
		return;
	emit_num(e, f, "rate_gbps", r.gbps, ln);
	if (r.width[0])
		emit_str(e, f, "width", r.width, strlen(r.width), ln);
	if (r.speed[0])
		emit_str(e, f, "speed", r.speed, strlen(r.speed), ln);
}

static void port_value(struct emit *e, struct fact *f, const struct line *key,
		       const struct line *val, const struct line *ln)
{
	const char *v;

	if (line_eq(key, "state")) {
		if ((v = port_state_norm(val->p, val->len)))
			emit_str(e, f, "state", v, strlen(v), ln);
	} else if (line_eq(key, "phys state")) {
		if ((v = phys_state_norm(val->p, val->len)))
			emit_str(e, f, "phys_state", v, strlen(v), ln);
	} else if (line_eq(key, "rate")) {
		rate(e, f, val, ln);
	} else {
		emit_keyed(e, f, plain_keys, ARRAY_SIZE(plain_keys), key, val,
			   ln);
	}
}

/* The gids/0 the script prints as the port's "default gid", kept until
 * the port's block ends: on RoCE it is always the link-local GID, and the
 * IP-based ones the table holds past index 0 are never shown, so there it
 * is no evidence of the table and is left out. */
struct default_gid {
	bool seen;
	struct line val, ln;
};

static void end_port(struct emit *e, struct fact *port, const struct line *dev,
		     unsigned dev_port, struct default_gid *dg)
{
	const char *ll = port ? fact_text(port, "link_layer") : NULL;

	if (dg->seen && !(ll && !strcmp(ll, "Ethernet"))) {
		struct fact *g = emit_begin(e, "gid", &dg->ln);

		emit_line(e, g, "hca", dev, &dg->ln);
		emit_int(e, g, "port", dev_port, &dg->ln);
		emit_int(e, g, "index", 0, &dg->ln);
		emit_line(e, g, "gid", &dg->val, &dg->ln);
		emit_end(e, g);
	}
	dg->seen = false;
	emit_end(e, port);
}

int parse_ibstatus(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	struct fact *port = NULL;
	struct lines it;
	struct line raw, dev = { 0 };
	unsigned before = e->nfacts, dev_port = 0;
	struct default_gid dg = { 0 };

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), key, val, name;
		unsigned number;

		if (line_starts(&ln, "Fatal error:")) {
			emit_tool_error(e, "ibstatus", &ln);
			continue;
		}
		if (header(&ln, &name, &number)) {
			struct fact *hca = emit_begin(e, "hca", &ln);

			emit_line(e, hca, "name", &name, &ln);
			emit_end(e, hca);
			end_port(e, port, &dev, dev_port, &dg);
			port = emit_begin(e, "port", &ln);
			emit_line(e, port, "hca", &name, &ln);
			emit_int(e, port, "port", number, &ln);
			dev = name;
			dev_port = number;
			continue;
		}
		if (!port || !line_kv(&ln, ':', &key, &val))
			continue;
		if (line_eq(&key, "default gid")) {
			if (gid_value(&val)) {
				dg.seen = true;
				dg.val = val;
				dg.ln = ln;
			}
			continue;
		}
		port_value(e, port, &key, &val, &ln);
	}
	end_port(e, port, &dev, dev_port, &dg);
	return (int)(e->nfacts - before);
}

bool ibstatus_header_line(const struct line *ln)
{
	struct line name;
	unsigned port;

	return header(ln, &name, &port);
}
