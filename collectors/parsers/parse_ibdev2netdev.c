/* ibdev2netdev: "mlx5_0 port 1 ==> ib0 (Up)", and with -v "0000:02:00.0
 * mlx5_0 (MT4115 - MCX456A-ECAT) <description> fw 12.23.1020 port 1
 * (ACTIVE) ==> ib0 (Up)".  Tolerates 'column -t' realignment, older
 * "<===>" arrows and a poster's trailing "# comments". */
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/port_state.h"
#include "engine/xalloc.h"

#define IBDEV_TOKENS 64 /* @@ words read left of the arrow */

static const char *const arrows[] = { "<===>", "==>" };

/* Splits ln at its arrow. */
static bool arrow(const struct line *ln, struct line *left, struct line *right)
{
	for (size_t i = 0; i < ARRAY_SIZE(arrows); i++) {
		const char *a =
			memmem(ln->p, ln->len, arrows[i], strlen(arrows[i]));

		if (!a)
			continue;
		*left = *ln;
		left->len = (size_t)(a - ln->p);
		*left = line_trim(*left);
		right->p = a + strlen(arrows[i]);
		right->len = (size_t)(ln->p + ln->len - right->p);
		right->no = ln->no;
		*right = line_trim(*right);
		return true;
	}
	return false;
}

/* The text between the first '(' at or after p and the next ')'. */
static bool paren(const char *p, const char *end, struct line *in)
{
	const char *open = memchr(p, '(', (size_t)(end - p)), *close;

	if (!open)
		return false;
	close = memchr(open, ')', (size_t)(end - open));
	if (!close)
		return false;
	in->p = open + 1;
	in->len = (size_t)(close - open - 1);
	*in = line_trim(*in);
	return true;
}

struct mapping {
	struct line pci, dev, model, fw, state, netdev, link;
	unsigned port;
};

/* Reads the words left of the arrow. */
static bool left_side(const struct line *left, struct mapping *m)
{
	struct line tok[IBDEV_TOKENS];
	size_t n = line_split(left, tok, IBDEV_TOKENS), p = n, d = 0;
	char buf[16], addr[32];

	for (size_t i = n; i-- > 1;)
		if (line_eq(&tok[i - 1], "port")) {
			p = i - 1;
			break;
		}
	if (p >= n || sscanf(line_copy(&tok[p + 1], buf, sizeof(buf)), "%5u",
			     &m->port) != 1)
		return false;
	if (n > 1 && line_pci_addr(&tok[0], addr, sizeof(addr))) {
		m->pci = tok[0];
		d = 1;
	}
	if (d >= p)
		return false;
	m->dev = tok[d];
	if (p + 2 < n)
		paren(tok[p + 2].p, left->p + left->len, &m->state);
	if (m->pci.len && d + 1 < p) {
		struct line model;

		if (paren(tok[d + 1].p, left->p + left->len, &model)) {
			const char *sp = memchr(model.p, ' ', model.len);

			m->model = model;
			if (sp)
				m->model.len = (size_t)(sp - model.p);
		}
		for (size_t i = p; i-- > d + 1;)
			if (line_eq(&tok[i], "fw") && i + 1 < p) {
				m->fw = tok[i + 1];
				break;
			}
	}
	return true;
}

static void emit_mapping(struct emit *e, const struct mapping *m,
			 const struct line *ln)
{
	struct fact *f;
	const char *s;
	char addr[32];
	bool have_netdev = m->netdev.len && !line_eq(&m->netdev, "N/A");

	if (m->pci.len) {
		f = emit_begin(e, "hca", ln);
		emit_line(e, f, "name", &m->dev, ln);
		if (line_pci_addr(&m->pci, addr, sizeof(addr)))
			emit_str(e, f, "pci", addr, strlen(addr), ln);
		if (m->model.len)
			emit_line(e, f, "model", &m->model, ln);
		if (m->fw.len)
			emit_line(e, f, "fw_ver", &m->fw, ln);
		emit_end(e, f);
	}
	f = emit_begin(e, "port", ln);
	emit_line(e, f, "hca", &m->dev, ln);
	emit_int(e, f, "port", m->port, ln);
	if (m->state.len && (s = port_state_norm(m->state.p, m->state.len)))
		emit_str(e, f, "state", s, strlen(s), ln);
	if (have_netdev)
		emit_line(e, f, "netdev", &m->netdev, ln);
	emit_end(e, f);
	if (!have_netdev)
		return;
	f = emit_begin(e, "netdev", ln);
	emit_line(e, f, "name", &m->netdev, ln);
	emit_line(e, f, "hca", &m->dev, ln);
	emit_int(e, f, "port", m->port, ln);
	if (m->link.len)
		emit_line(e, f, "state", &m->link, ln);
	emit_end(e, f);
}

static bool mapping(const struct line *ln, struct mapping *m)
{
	struct line left, right, tok[2];

	memset(m, 0, sizeof(*m));
	if (!arrow(ln, &left, &right) || !left_side(&left, m))
		return false;
	if (line_split(&right, tok, 2) < 1)
		return false;
	m->netdev = tok[0];
	paren(tok[0].p, right.p + right.len, &m->link);
	return true;
}

int parse_ibdev2netdev(struct emit *e, const char *text, size_t len,
		       const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);
		struct mapping m;

		if (mapping(&ln, &m))
			emit_mapping(e, &m, &ln);
	}
	return (int)(e->nfacts - before);
}

bool ibdev2netdev_line(const struct line *ln)
{
	struct mapping m;

	return mapping(ln, &m);
}
