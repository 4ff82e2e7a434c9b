/* lspci -vv/-vvv/-nnvv: one block per PCI function, a header line
 * ("19:00.0 Infiniband controller [0207]: Mellanox ... [15b3:1021]")
 * then indented capability lines; LnkCap and LnkSta give the link's
 * capability and negotiated speed and width.  Bridges (root ports and
 * switch ports) give the buses below them, so that rules can walk the
 * path from a root port to an adapter; the Express capability gives the
 * port type and DevCtl's MaxPayload and MaxReadReq, the ACS capability
 * its controls.  Also reads '| grep Width' fragments (LnkCap/LnkSta lines
 * without a header, tied to the function "lspci -s ADDR" selected) and
 * lines a mail client wrapped after "Speed 8GT/s,". */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

/* Class names lspci prints without -nn (pci.ids class and subclass
 * names), for the network classes, bridges and GPUs. */
static const struct {
	const char *name;
	const char *code;
} classes[] = {
	{ "Ethernet controller", "0200" },
	{ "Infiniband controller", "0207" },
	/* pci.ids class 0c (Serial bus controller), subclass 06: what
	 * InfiniHost adapters report */
	{ "InfiniBand", "0c06" },
	{ "Fabric controller", "0208" },
	{ "Network controller", "0280" },
	{ "VGA compatible controller", "0300" },
	{ "3D controller", "0302" },
	{ "PCI bridge", "0604" },
};

/* The RDMA adapter classes of the table above: "Infiniband controller"
 * and InfiniHost's "InfiniBand". */
static bool rdma_class(const char *code)
{
	return !strcmp(code, classes[1].code) || !strcmp(code, classes[2].code);
}

bool lspci_rdma_function(const char *class_code, const char *description)
{
	static const char *const names[] = { "mellanox", "connectx",
					     "bluefield" };

	if (class_code && rdma_class(class_code))
		return true;
	if (!description)
		return false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasestr(description, names[i]))
			return true;
	return false;
}

/* The device/port types pciutils' cap_express() prints after "Express "
 * (and "(v2) " at -vv), as the vocabulary names them. */
static const struct {
	const char *printed;
	const char *port_type;
} port_types[] = {
	{ "Endpoint", "endpoint" },
	{ "Legacy Endpoint", "legacy_endpoint" },
	{ "Root Port", "root_port" },
	{ "Upstream Port", "upstream_port" },
	{ "Downstream Port", "downstream_port" },
	{ "PCI-Express to PCI/PCI-X Bridge", "pcie_pci_bridge" },
	{ "PCI/PCI-X to PCI-Express Bridge", "pci_pcie_bridge" },
	{ "Root Complex Integrated Endpoint", "rc_endpoint" },
	{ "Root Complex Event Collector", "rc_event_collector" },
};

/* The ACSCtl controls that stop peer-to-peer traffic from crossing a
 * port directly: request and completion redirect and egress control,
 * the bits Linux's "pci=disable_acs_redir=" clears (drivers/pci/pci.c,
 * commit aaca43fda742 "PCI: Add "pci=disable_acs_redir=" parameter for
 * peer-to-peer support"). */
static const char *const acs_redirect_controls[] = {
	"ReqRedir+",
	"CmpltRedir+",
	"EgressCtrl+",
};

enum link_side { SIDE_NONE, SIDE_CAP, SIDE_STA };

struct lspci {
	struct emit *e;
	struct fact *f;
	/* the one function 'lspci -s ADDR' selected, normalized, or "" */
	char selected[32];
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

/* Two hex digits at p as a number, or -1. */
static long hex2(const char *p)
{
	char buf[3] = { p[0], p[1], 0 }, *end;
	long v;

	if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]))
		return -1;
	v = strtol(buf, &end, 16);
	return *end ? -1 : v;
}

/* The domain and bus of a normalized address, "0000:3b:00.0"; the
 * domain may be longer than four digits (Intel VMD's "10000:e1:00.0"). */
static void address_parts(struct lspci *s, const char *addr,
			  const struct line *ln)
{
	const char *colon = strchr(addr, ':');
	long bus = colon ? hex2(colon + 1) : -1;

	if (!colon || colon == addr)
		return;
	emit_str(s->e, s->f, "domain", addr, (size_t)(colon - addr), ln);
	if (bus >= 0 && colon[3] == ':')
		emit_int(s->e, s->f, "bus", bus, ln);
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
	address_parts(s, addr, ln);
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

/* pciutils ls-caps.c link_compare() marks a LnkSta value below the
 * function's own LnkCap " (downgraded)" (3.8 and later, endpoints and
 * upstream ports only); 3.7 marked an equal one " (ok)". */
static void link_mark(struct lspci *s, const struct line *ln,
		      const char *what, const char *field)
{
	const char *at = memmem(ln->p, ln->len, what, strlen(what));
	const char *end = ln->p + ln->len, *comma;
	struct line v;

	if (!at)
		return;
	comma = memchr(at, ',', (size_t)(end - at));
	v = (struct line){ at, (size_t)((comma ? comma : end) - at), ln->no };
	if (line_contains(&v, "(downgraded)"))
		emit_bool(s->e, s->f, field, true, ln);
	else if (line_contains(&v, "(ok)"))
		emit_bool(s->e, s->f, field, false, ln);
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
		if (side == SIDE_STA)
			link_mark(s, ln, "Speed ", "sta_speed_downgraded");
		s->want_speed = false;
	}
	if (s->want_width && width_of(ln, &lanes)) {
		emit_int(s->e, s->f, width, lanes, ln);
		if (side == SIDE_STA)
			link_mark(s, ln, "Width x", "sta_width_downgraded");
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
	if (!s->f) {
		s->f = emit_begin(s->e, "pcie", ln);
		/* 'lspci -s 17:00.0 -vvv | grep Width': the lines without
		 * their header are the selected function's */
		if (s->selected[0]) {
			emit_str(s->e, s->f, "pci", s->selected,
				 strlen(s->selected), ln);
			address_parts(s, s->selected, ln);
			s->keyed = true;
		}
	}
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

/* The two hex digits after name in ln ("secondary=3c"), or -1. */
static long bus_after(const struct line *ln, const char *name)
{
	size_t n = strlen(name);
	const char *at = memmem(ln->p, ln->len, name, n);

	if (!at || (size_t)(ln->p + ln->len - at) < n + 2)
		return -1;
	return hex2(at + n);
}

/* A bridge's "Bus: primary=3a, secondary=3b, subordinate=3c,
 * sec-latency=0" (pciutils lspci.c show_htype1()). */
static void bridge_buses(struct lspci *s, const struct line *ln)
{
	long secondary = bus_after(ln, "secondary="),
	     subordinate = bus_after(ln, "subordinate=");

	if (secondary < 0 || subordinate < secondary)
		return;
	emit_int(s->e, s->f, "secondary_bus", secondary, ln);
	emit_int(s->e, s->f, "subordinate_bus", subordinate, ln);
}

/* "Capabilities: [68] Express (v2) Downstream Port (Slot+), MSI 00"
 * (pciutils ls-caps.c cap_express()). */
static void express_type(struct lspci *s, const struct line *ln)
{
	const char *at = memmem(ln->p, ln->len, "] Express ", 10);
	struct line rest;

	if (!at)
		return;
	rest = (struct line){ at + 10, (size_t)(ln->p + ln->len - at - 10),
			      ln->no };
	if (line_starts(&rest, "(v")) {
		const char *close = memchr(rest.p, ')', rest.len);

		if (!close)
			return;
		rest.len -= (size_t)(close + 1 - rest.p);
		rest.p = close + 1;
		rest = line_trim(rest);
	}
	for (size_t i = 0; i < ARRAY_SIZE(port_types); i++) {
		size_t n = strlen(port_types[i].printed);

		/* "Endpoint" must not take "Root Complex Integrated
		 * Endpoint": the printed name ends at ',' or ' (' or
		 * the line's end. */
		if (rest.len >= n && !memcmp(rest.p, port_types[i].printed, n) &&
		    (rest.len == n || rest.p[n] == ',' || rest.p[n] == ' ')) {
			emit_str(s->e, s->f, "port_type",
				 port_types[i].port_type,
				 strlen(port_types[i].port_type), ln);
			return;
		}
	}
}

/* The number of bytes after name ("MaxReadReq 512 bytes"). */
static bool bytes_after(const struct line *ln, const char *name, long *bytes)
{
	size_t n = strlen(name);
	const char *at = memmem(ln->p, ln->len, name, n);
	char buf[8], *end;

	if (!at)
		return false;
	line_copy(&(struct line){ at + n, (size_t)(ln->p + ln->len - at - n),
				  ln->no },
		  buf, sizeof(buf));
	*bytes = strtol(buf, &end, 10);
	return end != buf && *bytes >= 128 && *bytes <= 4096;
}

/* DevCtl's "MaxPayload 256 bytes, MaxReadReq 512 bytes" (ls-caps.c
 * cap_express_dev()); DevCap's "MaxPayload" line has no MaxReadReq,
 * which tells the two apart. */
static void dev_ctl_sizes(struct lspci *s, const struct line *ln)
{
	long bytes;

	if (bytes_after(ln, "MaxReadReq ", &bytes))
		emit_int(s->e, s->f, "max_read_req", bytes, ln);
	if (bytes_after(ln, "MaxPayload ", &bytes))
		emit_int(s->e, s->f, "max_payload", bytes, ln);
}

/* "ACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+
 * EgressCtrl- DirectTrans-" (ls-ecaps.c cap_acs()). */
static void acs_controls(struct lspci *s, const struct line *ln)
{
	struct line flags = line_trim((struct line){
		ln->p + 7, ln->len - 7, ln->no });
	bool redirect = false;

	if (!flags.len || flags.len > 120)
		return;
	emit_line(s->e, s->f, "acs_ctl", &flags, ln);
	for (size_t i = 0; i < ARRAY_SIZE(acs_redirect_controls); i++)
		if (line_contains(&flags, acs_redirect_controls[i]))
			redirect = true;
	emit_bool(s->e, s->f, "acs_p2p_redirect", redirect, ln);
}

/* Lines only a whole function's block has: bridge buses, the Express
 * capability, DevCtl sizes and the ACS controls. */
static bool function_line(struct lspci *s, const struct line *ln)
{
	if (!s->f || !s->keyed)
		return false;
	if (line_starts(ln, "Bus: primary="))
		bridge_buses(s, ln);
	else if (line_starts(ln, "Capabilities: [") &&
		 line_contains(ln, "] Express "))
		express_type(s, ln);
	else if (line_contains(ln, "MaxReadReq "))
		dev_ctl_sizes(s, ln);
	else if (line_starts(ln, "ACSCtl:"))
		acs_controls(s, ln);
	else
		return false;
	return true;
}

/* MLNX_OFED's installer checks each Mellanox function's link after its
 * lspci -s line (mlnxofedinstall check_pcie_link(): "\tLink Width:
 * x${link_width}", then " ( WARNING - device supports x${cap} )" only
 * when the two differ, and "\tPCI Link Speed: $link_speed", "8GT/s" or
 * "Unknown"; its older releases print "2.5Gb/s" and "5Gb/s" for the
 * same rates).  The lines are the function's negotiated link. */
static bool installer_link_line(struct lspci *s, const struct line *ln)
{
	struct line v;
	double gts;
	long lanes, cap;
	char buf[8], *end;
	const char *warn;

	if (!s->f || !s->keyed)
		return false;
	if (line_starts(ln, "Link Width: x")) {
		v = line_trim((struct line){ ln->p + 13, ln->len - 13, ln->no });
		line_copy(&v, buf, sizeof(buf));
		lanes = strtol(buf, &end, 10);
		if (end == buf || lanes <= 0 || lanes > 32)
			return true;
		emit_int(s->e, s->f, "sta_width", lanes, ln);
		cap = lanes;
		warn = memmem(ln->p, ln->len, "device supports x", 17);
		if (warn) {
			v = (struct line){ warn + 17,
					   (size_t)(ln->p + ln->len - warn - 17),
					   ln->no };
			line_copy(&v, buf, sizeof(buf));
			cap = strtol(buf, &end, 10);
			if (end == buf || cap <= 0 || cap > 32)
				return true;
		}
		emit_int(s->e, s->f, "cap_width", cap, ln);
		return true;
	}
	if (line_starts(ln, "PCI Link Speed: ")) {
		v = line_trim((struct line){ ln->p + 16, ln->len - 16, ln->no });
		if (line_number(&v, &gts) && gts > 0 && gts < 1000)
			emit_num(s->e, s->f, "sta_speed_gts", gts, ln);
		return true;
	}
	return false;
}

static void body_line(struct lspci *s, const struct line *ln)
{
	struct line key, val;

	if (installer_link_line(s, ln))
		return;

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
	if (function_line(s, ln))
		return;
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

	/* only a whole address names one function: "-s 17:" or "-s .0"
	 * select several */
	if (arg) {
		struct line sel = { arg, strlen(arg), 0 };

		if (!whole_addr(&sel, s.selected))
			s.selected[0] = '\0';
	}
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

/* The header of an RDMA adapter's function, alone enough to tell an
 * lspci line ("lspci -s 3b:00.0" prints one): an InfiniBand class
 * (pci.ids 0207 "Infiniband controller", 0c06 "InfiniBand") or the
 * vendor pci.ids names 15b3, "Mellanox Technologies". */
bool lspci_rdma_header_line(const struct line *ln)
{
	static const char *const marks[] = {
		" Infiniband controller", " InfiniBand:", "[0207]:",
		"[0c06]:", ": Mellanox Technologies ", "[15b3:",
	};

	if (!lspci_header_line(ln))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (line_contains(ln, marks[i]))
			return true;
	return false;
}

bool lspci_header_line(const struct line *ln)
{
	struct line tok[2];
	char addr[32];

	return line_split(ln, tok, 2) == 2 && whole_addr(&tok[0], addr) &&
	       line_contains(&tok[1], ": ");
}
