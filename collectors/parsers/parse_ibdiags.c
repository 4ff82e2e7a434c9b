/* infiniband-diags queries of ports anywhere in the fabric: ibportstate
 * (and smpquery portinfo), whose "# Port info: Lid 2 port 24" header
 * precedes libibmad's dot-padded PortInfo fields, and ibnetdiscover -p,
 * one row per discovered port. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/port_state.h"
#include "engine/xalloc.h"

/* ibportstate.c show_port_info() and smpquery.c port_info():
 * printf("# Port info: %s port %d\n", portid2str(dest), portnum); libibmad's
 * portid2str() gives "Lid 2" or "DR path slid 0; dlid 0; 0,1". */
static bool port_info_header(const struct line *ln, struct line *node,
			     long *port)
{
	static const char tag[] = "# Port info: ";
	const char *end = ln->p + ln->len, *at;
	char buf[16];

	if (!line_starts(ln, tag))
		return false;
	/* the last " port " ends the node: a DR path holds no such word */
	for (at = end - 6; at >= ln->p + sizeof(tag) - 1; at--)
		if (!memcmp(at, " port ", 6))
			break;
	if (at < ln->p + sizeof(tag) - 1)
		return false;
	*node = (struct line){ ln->p + sizeof(tag) - 1,
			       (size_t)(at - ln->p) - (sizeof(tag) - 1),
			       ln->no };
	line_copy(&(struct line){ at + 6, (size_t)(end - at - 6), ln->no }, buf,
		  sizeof(buf));
	*port = strtol(buf, NULL, 10);
	return node->len > 0;
}

bool ibportstate_header_line(const struct line *ln)
{
	struct line node;
	long port;

	return port_info_header(ln, &node, &port);
}

/* libibmad's mad_dump_field: "LinkState:.......................Down":
 * the name, a colon, dots to column 33, the value. */
static bool dotted(const struct line *ln, struct line *name, struct line *val)
{
	const char *colon = memchr(ln->p, ':', ln->len), *v;

	if (!colon || colon == ln->p || colon + 1 >= ln->p + ln->len ||
	    colon[1] != '.')
		return false;
	*name = (struct line){ ln->p, (size_t)(colon - ln->p), ln->no };
	for (size_t i = 0; i < name->len; i++)
		if (!isalnum((unsigned char)name->p[i]))
			return false;
	for (v = colon + 1; v < ln->p + ln->len && *v == '.'; v++)
		;
	*val = line_trim(
		(struct line){ v, (size_t)(ln->p + ln->len - v), ln->no });
	return val->len > 0;
}

enum pi_value {
	PI_STATE,
	PI_PHYS,
	PI_TEXT, /* as printed: "4X", "2.5 Gbps" */
	PI_INT,
	PI_EXT_SPEED, /* replaces speed unless "No Extended Speed" */
};

/* PortInfo fields and the port fields they fill (libibmad fields.c). */
static const struct {
	const char *name, *field;
	enum pi_value how;
} portinfo[] = {
	{ "LinkState", "state", PI_STATE },
	{ "PhysLinkState", "phys_state", PI_PHYS },
	{ "LinkWidthActive", "width", PI_TEXT },
	{ "LinkSpeedActive", "speed", PI_TEXT },
	{ "LinkSpeedExtActive", "speed", PI_EXT_SPEED },
	{ "Lid", "lid", PI_INT },
	{ "SMLid", "sm_lid", PI_INT },
};

/* One port's PortInfo as read: the header, then each field's value. */
struct portinfo_read {
	struct line header, node;
	long port;
	struct line vals[ARRAY_SIZE(portinfo)];
};

static void portinfo_value(struct portinfo_read *r, const struct line *name,
			   const struct line *val)
{
	for (size_t i = 0; i < ARRAY_SIZE(portinfo); i++)
		if (line_eq(name, portinfo[i].name) && !r->vals[i].p)
			r->vals[i] = *val;
}

static bool portinfo_has(const struct portinfo_read *r, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(portinfo); i++)
		if (!strcmp(portinfo[i].name, name))
			return r->vals[i].p != NULL;
	return false;
}

/* An extended speed that is one: "14.0625 Gbps", not "No Extended
 * Speed" or "0". */
static bool ext_speed(const struct line *val)
{
	double v;

	return line_number(val, &v) && v > 0;
}

/* Emits the port read; the active extended speed, when there is one,
 * is the lane speed (LinkSpeedActive then says "Extended speed" or the
 * highest legacy speed). */
static void portinfo_emit(struct emit *e, const struct portinfo_read *r)
{
	struct fact *f;
	bool ext = false;

	if (!r->header.p)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(portinfo); i++)
		if (portinfo[i].how == PI_EXT_SPEED && r->vals[i].p)
			ext = ext_speed(&r->vals[i]);
	f = emit_begin(e, "port", &r->header);
	emit_line(e, f, "hca", &r->node, &r->header);
	emit_int(e, f, "port", r->port, &r->header);
	for (size_t i = 0; i < ARRAY_SIZE(portinfo); i++) {
		const struct line *val = &r->vals[i];
		const char *norm = NULL;

		if (!val->p)
			continue;
		switch (portinfo[i].how) {
		case PI_STATE:
			norm = port_state_norm(val->p, val->len);
			break;
		case PI_PHYS:
			norm = phys_state_norm(val->p, val->len);
			break;
		case PI_EXT_SPEED:
			if (ext)
				emit_line(e, f, portinfo[i].field, val, val);
			continue;
		case PI_TEXT:
			if (ext && !strcmp(portinfo[i].field, "speed"))
				continue;
			emit_line(e, f, portinfo[i].field, val, val);
			continue;
		case PI_INT:
			emit_line(e, f, portinfo[i].field, val, val);
			continue;
		}
		if (norm)
			emit_str(e, f, portinfo[i].field, norm, strlen(norm),
				 val);
	}
	/* a port queried by LID answers at that LID (a switch's ports share
	 * it) when the dump shows no Lid of its own */
	if (!portinfo_has(r, "Lid") && line_starts(&r->node, "Lid "))
		emit_line(e, f, "lid",
			  &(struct line){ r->node.p + 4, r->node.len - 4,
					  r->header.no },
			  &r->header);
	emit_end(e, f);
}

int parse_ibportstate(struct emit *e, const char *text, size_t len,
		      const char *arg)
{
	struct portinfo_read *r = xcalloc(1, sizeof(*r));
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), node, name, val;
		long port;

		if (port_info_header(&ln, &node, &port)) {
			portinfo_emit(e, r);
			memset(r, 0, sizeof(*r));
			r->header = ln;
			r->node = node;
			r->port = port;
			continue;
		}
		if (line_starts(&ln, "ibwarn:") ||
		    line_starts(&ln, "ibpanic:") ||
		    line_contains(&ln, "iberror:")) {
			emit_tool_error(e, "ibportstate", &ln);
			continue;
		}
		/* another header ("# MLNX ext Port info:", whose fields
		 * reuse the names in other units) ends the port */
		if (line_starts(&ln, "#")) {
			portinfo_emit(e, r);
			memset(r, 0, sizeof(*r));
			continue;
		}
		if (r->header.p && dotted(&ln, &name, &val))
			portinfo_value(r, &name, &val);
	}
	portinfo_emit(e, r);
	free(r);
	return (int)(e->nfacts - before);
}

/* ibnetdiscover.c dump_ports_report():
 * "%2s %5d %2d 0x%016" PRIx64 " %s %s" (node type, LID, port, port GUID,
 * width, speed), then " - %2s %5d %2d 0x%016" PRIx64 " ( '%s' - '%s' )"
 * for the remote end, or "%36s'%s'" (the node description alone) for a
 * port with none. */
struct ports_row {
	struct line type, lid, port, guid, width, speed, desc;
};

static bool node_type(const struct line *t)
{
	return line_eq(t, "CA") || line_eq(t, "SW") || line_eq(t, "RT");
}

static bool ports_row(const struct line *ln, struct ports_row *r)
{
	struct line tok[7];
	const char *q, *end = ln->p + ln->len;

	if (line_split(ln, tok, 7) < 7 || !node_type(&tok[0]) ||
	    !line_digits(&tok[1], 9) || !line_digits(&tok[2], 9) ||
	    tok[3].len != 18 || !line_starts(&tok[3], "0x"))
		return false;
	r->type = tok[0];
	r->lid = tok[1];
	r->port = tok[2];
	r->guid = tok[3];
	r->width = tok[4];
	r->speed = tok[5];
	/* the description: the first quoted text after the speed */
	q = memchr(r->speed.p, '\'', (size_t)(end - r->speed.p));
	if (!q)
		return false;
	r->desc.p = q + 1;
	q = memchr(r->desc.p, '\'', (size_t)(end - r->desc.p));
	if (!q)
		return false;
	r->desc.len = (size_t)(q - r->desc.p);
	r->desc.no = ln->no;
	return true;
}

bool ibnetdiscover_row_line(const struct line *ln)
{
	struct ports_row r;

	return ports_row(ln, &r);
}

int parse_ibnetdiscover(struct emit *e, const char *text, size_t len,
			const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);
		struct ports_row r;
		struct fact *f;

		if (line_starts(&ln, "ibwarn:") ||
		    line_starts(&ln, "ibpanic:") ||
		    line_contains(&ln, "iberror:")) {
			emit_tool_error(e, "ibnetdiscover", &ln);
			continue;
		}
		if (!ports_row(&ln, &r) || !r.desc.len)
			continue;
		f = emit_begin(e, "port", &ln);
		emit_line(e, f, "hca", &r.desc, &ln);
		emit_line(e, f, "port", &r.port, &ln);
		emit_line(e, f, "lid", &r.lid, &ln);
		/* "??" and "???" stand for a width or speed not known */
		if (!memchr(r.width.p, '?', r.width.len)) {
			char w[8];

			line_copy(&r.width, w, sizeof(w));
			for (char *c = w; *c; c++)
				*c = (char)toupper((unsigned char)*c);
			emit_str(e, f, "width", w, strlen(w), &ln);
		}
		if (!memchr(r.speed.p, '?', r.speed.len))
			emit_line(e, f, "speed", &r.speed, &ln);
		emit_end(e, f);
	}
	return (int)(e->nfacts - before);
}
