/* The iproute2 rdma tool: "rdma link show" lines ("link mlx5_0/1 lid 3
 * sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP netdev ib0", or the
 * old "0/1: mlx5_0/1: ..." form) and "rdma dev show" lines ("0: mlx5_0:
 * node_type ca fw 16.29.0550 node_guid ...").  Both can share one paste. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/port_state.h"
#include "engine/xalloc.h"

#define RDMA_TOKENS 48 /* @@ key/value words read from one line */

/* What the tool prints instead of data ("Failed to open NETLINK_RDMA
 * socket" without the rdma netlink support in the kernel). */
static const char *const failures[] = {
	"Failed to ",
	"error:",
	"Error:",
	"Wrong device name",
};

/* "ca" -> "CA", as sysfs node_type spells it. */
static const struct {
	const char *rdma;
	const char *node_type;
} node_types[] = {
	{ "ca", "CA" },
	{ "rnic", "RNIC" },
	{ "switch", "switch" },
};

static bool device_name(const struct line *t)
{
	if (!t->len || t->len > 64)
		return false;
	for (size_t i = 0; i < t->len; i++)
		if (!isalnum((unsigned char)t->p[i]) && t->p[i] != '_' &&
		    t->p[i] != '-' && t->p[i] != '.')
			return false;
	return true;
}

static bool digits(const char *p, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)p[i]))
			return false;
	return true;
}

/* Drops one trailing ':' (the old format's "mlx5_0/1:"). */
static struct line uncolon(struct line t)
{
	if (t.len && t.p[t.len - 1] == ':')
		t.len--;
	return t;
}

/* "mlx5_0/1" -> name and port. */
static bool dev_port(struct line t, struct line *name, unsigned *port)
{
	const char *slash = memrchr(t.p, '/', t.len);
	char buf[12];

	t = uncolon(t);
	if (!slash || !digits(slash + 1, (size_t)(t.p + t.len - slash - 1)) ||
	    t.p + t.len - slash - 1 > 9)
		return false;
	*name = t;
	name->len = (size_t)(slash - t.p);
	snprintf(buf, sizeof(buf), "%.*s", (int)(t.p + t.len - slash - 1),
		 slash + 1);
	return device_name(name) && sscanf(buf, "%u", port) == 1;
}

/* The value after the word key among tok[from..n), or NULL. */
static const struct line *value_of(const struct line *tok, size_t from,
				   size_t n, const char *key)
{
	for (size_t i = from; i + 1 < n; i++)
		if (line_eq(&tok[i], key))
			return &tok[i + 1];
	return NULL;
}

static void link_line(struct emit *e, const struct line *tok, size_t n,
		      size_t from, const struct line *name, unsigned port,
		      const struct line *ln)
{
	struct fact *f = emit_begin(e, "port", ln);
	const struct line *v;
	const char *s;

	emit_line(e, f, "hca", name, ln);
	emit_int(e, f, "port", port, ln);
	if ((v = value_of(tok, from, n, "state")) &&
	    (s = port_state_norm(v->p, v->len)))
		emit_str(e, f, "state", s, strlen(s), ln);
	if ((v = value_of(tok, from, n, "physical_state")) &&
	    (s = phys_state_norm(v->p, v->len)))
		emit_str(e, f, "phys_state", s, strlen(s), ln);
	if ((v = value_of(tok, from, n, "lid")))
		emit_line(e, f, "lid", v, ln);
	if ((v = value_of(tok, from, n, "sm_lid")))
		emit_line(e, f, "sm_lid", v, ln);
	if ((v = value_of(tok, from, n, "netdev")))
		emit_line(e, f, "netdev", v, ln);
	/* The kernel reports subnet prefix and LIDs only for InfiniBand
	 * ports; RoCE and iWARP ports have neither. */
	s = value_of(tok, from, n, "subnet_prefix") ||
			    value_of(tok, from, n, "lid") ?
		    "InfiniBand" :
		    "Ethernet";
	emit_str(e, f, "link_layer", s, strlen(s), ln);
	emit_end(e, f);
}

static void dev_line(struct emit *e, const struct line *tok, size_t n,
		     const struct line *name, const struct line *ln)
{
	struct fact *f = emit_begin(e, "hca", ln);
	const struct line *v;

	emit_line(e, f, "name", name, ln);
	if ((v = value_of(tok, 2, n, "fw")))
		emit_line(e, f, "fw_ver", v, ln);
	if ((v = value_of(tok, 2, n, "node_guid")))
		emit_line(e, f, "node_guid", v, ln);
	if ((v = value_of(tok, 2, n, "node_type")))
		for (size_t i = 0; i < ARRAY_SIZE(node_types); i++)
			if (line_eq(v, node_types[i].rdma))
				emit_str(e, f, "node_type",
					 node_types[i].node_type,
					 strlen(node_types[i].node_type), ln);
	emit_end(e, f);
}

/* What kind of line: 'l' link, 'd' dev, 0 neither. */
static char classify(const struct line *tok, size_t n, struct line *name,
		     unsigned *port)
{
	struct line t0;

	if (n < 3)
		return 0;
	if (line_eq(&tok[0], "link"))
		return dev_port(tok[1], name, port) ? 'l' : 0;
	t0 = tok[0];
	if (!t0.len || t0.p[t0.len - 1] != ':' || tok[1].len < 2 ||
	    tok[1].p[tok[1].len - 1] != ':')
		return 0;
	t0.len--;
	if (memchr(t0.p, '/', t0.len))
		return dev_port(tok[1], name, port) ? 'l' : 0;
	*name = uncolon(tok[1]);
	if (!digits(t0.p, t0.len) || !device_name(name))
		return 0;
	return value_of(tok, 2, n, "node_type") || value_of(tok, 2, n, "fw") ?
		       'd' :
		       0;
}

int parse_rdma(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), tok[RDMA_TOKENS], name;
		size_t n = line_split(&ln, tok, RDMA_TOKENS);
		unsigned port;

		switch (classify(tok, n, &name, &port)) {
		case 'l':
			link_line(e, tok, n, 2, &name, port, &ln);
			break;
		case 'd':
			dev_line(e, tok, n, &name, &ln);
			break;
		default:
			for (size_t i = 0; i < ARRAY_SIZE(failures); i++)
				if (line_starts(&ln, failures[i])) {
					emit_tool_error(e, "rdma", &ln);
					break;
				}
		}
	}
	return (int)(e->nfacts - before);
}

static char line_kind(const struct line *ln)
{
	struct line tok[RDMA_TOKENS], name;
	size_t n = line_split(ln, tok, RDMA_TOKENS);
	unsigned port;
	char kind = classify(tok, n, &name, &port);

	if (kind == 'l' && !value_of(tok, 2, n, "state") &&
	    !value_of(tok, 2, n, "physical_state"))
		return 0;
	return kind;
}

bool rdma_link_line(const struct line *ln)
{
	return line_kind(ln) == 'l';
}

bool rdma_dev_line(const struct line *ln)
{
	return line_kind(ln) == 'd';
}

static bool counter_name(const struct line *t);

/* rdma statistic show: "link mlx5_0/1 rx_write_requests 0 rx_read_requests
 * 0 ..." (iproute2 rdma/stat.c: the link, then name value pairs) */
bool rdma_statistic_line(const struct line *ln)
{
	struct line tok[4], name;
	unsigned port;

	return line_split(ln, tok, 4) == 4 && line_eq(&tok[0], "link") &&
	       dev_port(tok[1], &name, &port) && counter_name(&tok[2]) &&
	       digits(tok[3].p, tok[3].len);
}

/* A counter name as rdma prints it: lowercase, digits and '_'. */
static bool counter_name(const struct line *t)
{
	if (!t->len || t->len > 64 || !islower((unsigned char)t->p[0]))
		return false;
	for (size_t i = 0; i < t->len; i++)
		if (!islower((unsigned char)t->p[i]) &&
		    !isdigit((unsigned char)t->p[i]) && t->p[i] != '_')
			return false;
	return true;
}

/* Both forms: "link mlx5_0/1 name value name value ..." (which a mail
 * client may wrap anywhere) and -p's "link mlx5_0/1" with one "name value"
 * per line after it. */
int parse_rdma_statistic(struct emit *e, const char *text, size_t len,
			 const char *arg)
{
	struct lines it;
	struct line raw, name = { NULL, 0, 0 }, pending = { NULL, 0, 0 };
	unsigned before = e->nfacts, port = 0;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), tok[RDMA_TOKENS];
		size_t n = line_split(&ln, tok, RDMA_TOKENS), i = 0;

		if (!n) {
			name.p = NULL;
			continue;
		}
		if (n >= 2 && line_eq(&tok[0], "link")) {
			if (!dev_port(tok[1], &name, &port))
				name.p = NULL;
			pending.p = NULL;
			i = 2;
		}
		if (!name.p)
			continue;
		for (; i < n; i++) {
			struct fact *f;

			if (counter_name(&tok[i])) {
				pending = tok[i];
				continue;
			}
			if (!pending.p || !digits(tok[i].p, tok[i].len)) {
				pending.p = NULL;
				continue;
			}
			f = emit_begin(e, "counter", &ln);
			emit_line(e, f, "hca", &name, &ln);
			emit_int(e, f, "port", port, &ln);
			emit_line(e, f, "name", &pending, &ln);
			emit_line(e, f, "value", &tok[i], &ln);
			emit_end(e, f);
			pending.p = NULL;
		}
	}
	return (int)(e->nfacts - before);
}
