/* ibstat: "CA 'mlx5_0'" blocks of "Key: value" lines with "Port N:"
 * sub-blocks.  Keyed on that structure, not on indentation, since pastes
 * lose it; ibwarn/ibpanic lines become tool_error facts. */
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/port_state.h"
#include "engine/xalloc.h"

struct state {
	struct emit *e;
	struct fact *hca, *port;
	char ca[128];
	/* The ports of a CA named on the command line (ibstat mlx5_0 |
	 * grep -i rate) whose "Port N:" lines a filter dropped: ibstat
	 * prints them in order, so a key seen again starts the next. */
	unsigned implicit_port;
	unsigned seen; /* port keys of the implicit port, as bits */
};

/* Keys ibstat prints under "Port N:" (infiniband-diags ibstat.c
 * port_dump()). */
static const char *const port_words[] = { "State",    "Physical state",
					  "Rate",     "Base lid",
					  "LMC",      "SM lid",
					  "Capability mask", "Port GUID",
					  "Link layer" };

static void close_port(struct state *s)
{
	emit_end(s->e, s->port);
	s->port = NULL;
}

static void close_ca(struct state *s)
{
	close_port(s);
	emit_end(s->e, s->hca);
	s->hca = NULL;
}

static const struct field_key hca_keys[] = {
	{ "CA type", "model" },		  { "Number of ports", "ports" },
	{ "Firmware version", "fw_ver" }, { "Hardware version", "hw_ver" },
	{ "Node GUID", "node_guid" },
};

static const struct field_key port_keys[] = {
	{ "Base lid", "lid" },
	{ "SM lid", "sm_lid" },
	{ "Link layer", "link_layer" },
};

static void port_value(struct state *s, const struct line *key,
		       const struct line *val, const struct line *ln)
{
	struct emit *e = s->e;
	const char *v;
	double rate;

	if (line_eq(key, "State")) {
		if ((v = port_state_norm(val->p, val->len)))
			emit_str(e, s->port, "state", v, strlen(v), ln);
	} else if (line_eq(key, "Physical state")) {
		if ((v = phys_state_norm(val->p, val->len)))
			emit_str(e, s->port, "phys_state", v, strlen(v), ln);
	} else if (line_eq(key, "Rate")) {
		if (line_number(val, &rate))
			emit_num(e, s->port, "rate_gbps", rate, ln);
	} else {
		emit_keyed(e, s->port, port_keys, ARRAY_SIZE(port_keys), key,
			   val, ln);
	}
}

/* Opens the next implicit port of a filtered output when key is a port's
 * and no "Port N:" line came. */
static void implicit_port(struct state *s, const struct line *key,
			  const struct line *ln)
{
	size_t i = 0;

	if (s->port && !s->implicit_port)
		return;
	while (i < ARRAY_SIZE(port_words) && !line_eq(key, port_words[i]))
		i++;
	if (i == ARRAY_SIZE(port_words))
		return;
	if (s->port && !(s->seen & (1u << i))) {
		s->seen |= 1u << i;
		return;
	}
	close_port(s);
	s->port = emit_begin(s->e, "port", ln);
	emit_str(s->e, s->port, "hca", s->ca, strlen(s->ca), ln);
	emit_int(s->e, s->port, "port", ++s->implicit_port, ln);
	s->seen = 1u << i;
}

static void tool_error(struct emit *e, const struct line *ln)
{
	struct fact *f = emit_begin(e, "tool_error", ln);

	emit_str(e, f, "tool", "ibstat", 6, ln);
	emit_line(e, f, "message", ln, ln);
	emit_end(e, f);
}

int parse_ibstat(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct state s = { e, NULL, NULL, "", 0, 0 };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), key, val;
		char buf[64];
		unsigned port;
		char colon;

		if (line_starts(&ln, "ibwarn:") ||
		    line_starts(&ln, "ibpanic:") ||
		    line_starts(&ln, "ibstat:")) {
			tool_error(e, &ln);
			continue;
		}
		if (line_starts(&ln, "CA '") && ln.len > 5 &&
		    ln.p[ln.len - 1] == '\'') {
			struct line name = { ln.p + 4, ln.len - 5, ln.no };
			const char *q = memchr(name.p, '\'', name.len);

			/* "CA '%s'\n": the name ends at the first quote (a
			 * paste may carry a stray one after it) */
			if (q)
				name.len = (size_t)(q - name.p);
			close_ca(&s);
			line_copy(&name, s.ca, sizeof(s.ca));
			s.hca = emit_begin(e, "hca", &ln);
			emit_line(e, s.hca, "name", &name, &ln);
			continue;
		}
		if (!s.ca[0] && arg && arg[0] && ln.len) {
			/* the CA the command line names, its "CA '...'"
			 * line filtered out */
			snprintf(s.ca, sizeof(s.ca), "%s", arg);
			s.hca = emit_begin(e, "hca", &ln);
			emit_str(e, s.hca, "name", s.ca, strlen(s.ca), &ln);
		}
		if (!s.ca[0])
			continue;
		if (sscanf(line_copy(&ln, buf, sizeof(buf)), "Port %5u%c",
			   &port, &colon) == 2 &&
		    colon == ':' && ln.len < 16) {
			close_port(&s);
			s.implicit_port = 0;
			s.port = emit_begin(e, "port", &ln);
			emit_str(e, s.port, "hca", s.ca, strlen(s.ca), &ln);
			emit_int(e, s.port, "port", port, &ln);
			continue;
		}
		if (!line_kv(&ln, ':', &key, &val))
			continue;
		implicit_port(&s, &key, &ln);
		if (s.port) {
			port_value(&s, &key, &val, &ln);
			continue;
		}
		emit_keyed(e, s.hca, hca_keys, ARRAY_SIZE(hca_keys), &key, &val,
			   &ln);
	}
	close_ca(&s);
	return (int)(e->nfacts - before);
}

bool ibstat_ca_line(const struct line *ln)
{
	return line_starts(ln, "CA '") && ln->p[ln->len - 1] == '\'';
}
