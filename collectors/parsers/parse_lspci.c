/* lspci -vv/-vvv/-nnvv: one block per PCI function, a header line
 * ("19:00.0 Infiniband controller [0207]: Mellanox ... [15b3:1021]")
 * then indented capability lines; LnkCap and LnkSta give the link's
 * capability and negotiated speed and width.  Also reads '| grep Width'
 * fragments (LnkCap/LnkSta lines without a header) and lines a mail
 * client wrapped after "Speed 8GT/s,". */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

/* Class names lspci prints without -nn, for the network classes. */
static const struct {
	const char *name;
	const char *code;
} classes[] = {
	{ "Ethernet controller", "0200" },
	{ "Infiniband controller", "0207" },
	{ "Fabric controller", "0208" },
	{ "Network controller", "0280" },
};

enum link_side { SIDE_NONE, SIDE_CAP, SIDE_STA };

struct lspci {
	struct emit *e;
	struct fact *f;
	bool keyed, cap, sta;
	/* A LnkCap/LnkSta line that lacked its speed or width: the next
	 * line may carry it. */
	enum link_side pending;
	bool want_speed, want_width;
};

static void close_fn(struct lspci *s)
{
	emit_end(s->e, s->f);
	s->f = NULL;
	s->keyed = s->cap = s->sta = false;
	s->pending = SIDE_NONE;
}

/* "[15b3:1021]" at p: vendor and device. */
static bool id_pair(const char *p, size_t n, struct line *vendor,
		    struct line *device)
{
	if (n < 11 || p[0] != '[' || p[5] != ':' || p[10] != ']')
		return false;
	for (size_t i = 1; i < 10; i++)
		if (i != 5 && !isxdigit((unsigned char)p[i]))
			return false;
	*vendor = (struct line){ p + 1, 4, 0 };
	*device = (struct line){ p + 6, 4, 0 };
	return true;
}

/* Whether t is exactly a PCI address; buf (32 bytes) gets it normalized. */
static bool whole_addr(const struct line *t, char *buf)
{
	return t->len >= 7 && t->len <= 17 && t->p[t->len - 2] == '.' &&
	       line_pci_addr(t, buf, 32);
}

/* "19:00.0 Infiniband controller [0207]: Mellanox ... [15b3:1021] (rev 01)" */
static bool header(struct lspci *s, const struct line *ln)
{
	struct line tok[2], cls, desc, vendor = { 0 }, device = { 0 };
	char addr[32];
	const char *colon, *end = ln->p + ln->len;

	if (line_split(ln, tok, 2) != 2 || !whole_addr(&tok[0], addr) ||
	    !(colon = memchr(tok[1].p, ':', tok[1].len)))
		return false;
	cls = (struct line){ tok[1].p, (size_t)(colon - tok[1].p), ln->no };
	desc = line_trim(
		(struct line){ colon + 1, (size_t)(end - colon - 1), ln->no });
	if (!cls.len || !desc.len || cls.len > 80)
		return false;
	close_fn(s);
	s->f = emit_begin(s->e, "pcie", ln);
	s->keyed = true;
	emit_str(s->e, s->f, "pci", addr, strlen(addr), ln);
	/* -nn: "Ethernet controller [0200]" */
	if (cls.len > 7 && cls.p[cls.len - 1] == ']' &&
	    cls.p[cls.len - 6] == '[') {
		emit_str(s->e, s->f, "class", cls.p + cls.len - 5, 4, ln);
		cls.len -= 6;
		cls = line_trim(cls);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
			if (line_eq(&cls, classes[i].name))
				emit_str(s->e, s->f, "class", classes[i].code,
					 4, ln);
	}
	/* " (rev 01)" and " [15b3:1017]" end the description. */
	if (desc.len > 9 && desc.p[desc.len - 1] == ')' &&
	    memmem(desc.p, desc.len, " (rev ", 6)) {
		const char *rev = memmem(desc.p, desc.len, " (rev ", 6);

		desc.len = (size_t)(rev - desc.p);
	}
	if (desc.len >= 12 &&
	    id_pair(desc.p + desc.len - 11, 11, &vendor, &device)) {
		desc.len -= 11;
		desc = line_trim(desc);
		emit_line(s->e, s->f, "vendor_id", &vendor, ln);
		emit_line(s->e, s->f, "device_id", &device, ln);
	}
	emit_line(s->e, s->f, "description", &desc, ln);
	return true;
}

/* The number after "Speed " ("8GT/s", "2.5GT/s"). */
static bool speed_of(const struct line *ln, double *gts)
{
	const char *at = memmem(ln->p, ln->len, "Speed ", 6);
	struct line v;

	if (!at)
		return false;
	v = (struct line){ at + 6, (size_t)(ln->p + ln->len - at - 6), ln->no };
	return line_number(&v, gts) && *gts > 0 && *gts < 1000;
}

/* The lanes after "Width x". */
static bool width_of(const struct line *ln, long *lanes)
{
	const char *at = memmem(ln->p, ln->len, "Width x", 7);
	char buf[8], *end;

	if (!at)
		return false;
	line_copy(&(struct line){ at + 7, (size_t)(ln->p + ln->len - at - 7),
				  ln->no },
		  buf, sizeof(buf));
	*lanes = strtol(buf, &end, 10);
	return end != buf && *lanes > 0 && *lanes <= 32;
}

static void link_values(struct lspci *s, enum link_side side,
			const struct line *ln)
{
	const char *speed =
		side == SIDE_CAP ? "cap_speed_gts" : "sta_speed_gts";
	const char *width = side == SIDE_CAP ? "cap_width" : "sta_width";
	double gts;
	long lanes;

	if (s->want_speed && speed_of(ln, &gts)) {
		emit_num(s->e, s->f, speed, gts, ln);
		s->want_speed = false;
	}
	if (s->want_width && width_of(ln, &lanes)) {
		emit_int(s->e, s->f, width, lanes, ln);
		s->want_width = false;
	}
	s->pending = s->want_speed || s->want_width ? side : SIDE_NONE;
}

static void link_line(struct lspci *s, enum link_side side,
		      const struct line *ln)
{
	bool *seen = side == SIDE_CAP ? &s->cap : &s->sta;

	/* A grep'ed fragment has no headers: each LnkCap (or a second
	 * LnkSta) starts the next function. */
	if (s->f && !s->keyed && *seen)
		close_fn(s);
	if (!s->f)
		s->f = emit_begin(s->e, "pcie", ln);
	*seen = true;
	s->want_speed = s->want_width = true;
	link_values(s, side, ln);
}

/* lspci -x's first row of configuration space, "00: b3 15 03 10 ...":
 * the vendor and device ids, little-endian at offsets 0 and 2 (PCI
 * Local Bus spec; pciutils lspci.c show_hex_dump() prints "%02x:" then
 * " %02x" per byte). */
static void config_ids(struct lspci *s, const struct line *ln)
{
	struct line tok[6]; /* the offset, four bytes, the rest */
	char vendor[5], device[5];

	if (line_split(ln, tok, 6) < 5)
		return;
	for (size_t i = 1; i < 5; i++)
		if (tok[i].len != 2 || !isxdigit((unsigned char)tok[i].p[0]) ||
		    !isxdigit((unsigned char)tok[i].p[1]))
			return;
	snprintf(vendor, sizeof(vendor), "%.2s%.2s", tok[2].p, tok[1].p);
	snprintf(device, sizeof(device), "%.2s%.2s", tok[4].p, tok[3].p);
	emit_str(s->e, s->f, "vendor_id", vendor, 4, ln);
	emit_str(s->e, s->f, "device_id", device, 4, ln);
}

static void body_line(struct lspci *s, const struct line *ln)
{
	struct line key, val;

	if (line_starts(ln, "LnkCap:")) {
		link_line(s, SIDE_CAP, ln);
		return;
	}
	if (line_starts(ln, "LnkSta:")) {
		link_line(s, SIDE_STA, ln);
		return;
	}
	if (s->pending != SIDE_NONE && s->f && !memchr(ln->p, ':', ln->len)) {
		link_values(s, s->pending, ln);
		return;
	}
	s->pending = SIDE_NONE;
	if (s->f && line_starts(ln, "00: ")) {
		config_ids(s, ln);
		return;
	}
	if (s->f && line_kv(ln, ':', &key, &val) &&
	    line_eq(&key, "Kernel driver in use"))
		emit_line(s->e, s->f, "driver", &val, ln);
}

int parse_lspci(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct lspci s = { .e = e };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);

		if (header(&s, &ln))
			continue;
		body_line(&s, &ln);
	}
	close_fn(&s);
	return (int)(e->nfacts - before);
}

bool lspci_header_line(const struct line *ln)
{
	struct line tok[2];
	char addr[32];

	return line_split(ln, tok, 2) == 2 && whole_addr(&tok[0], addr) &&
	       line_contains(&tok[1], ": ");
}
