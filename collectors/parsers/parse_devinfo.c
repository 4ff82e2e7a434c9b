/* ibv_devinfo (with or without -v) and ibv_devices.  ibv_devinfo prints
 * "hca_id:" blocks of "key: value" lines with "port:" sub-blocks; -v adds
 * capabilities, active_width/active_speed and the GID table.  Lines that
 * libibverbs or the tool print instead of data become tool_error facts. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/ib_link.h"
#include "collectors/parsers/port_state.h"
#include "engine/xalloc.h"

/* Lines that report a failure rather than data. */
static const char *const failures[] = {
	"libibverbs:",	   "Failed to ",	   "No IB devices found",
	"Couldn't ",	   "IB device ",	   "ibv_devinfo: ",
	"ibv_get_device_", "Unable to get device",
};

static const struct field_key hca_keys[] = {
	{ "fw_ver", "fw_ver" },
	{ "hw_ver", "hw_ver" },
	{ "board_id", "psid" },
	{ "phys_port_cnt", "ports" },
};

static const struct field_key port_keys[] = {
	{ "sm_lid", "sm_lid" },
	{ "port_lid", "lid" },
	{ "link_layer", "link_layer" },
};

/* transport -> node type, as rdma-core derives one from the other. */
static const struct {
	const char *transport;
	const char *node_type;
} transports[] = {
	{ "InfiniBand", "CA" },
	{ "iWARP", "RNIC" },
};

struct devinfo {
	struct emit *e;
	struct fact *hca, *port;
	char name[128];
	unsigned port_no;
	struct line port_line;
	bool verbose; /* the port block has -v lines */
	int gids;
	unsigned lanes;
	double lane_gbps;
	struct line speed_line;
	/* ports of a device named on the command line whose "port:" lines
	 * a filter dropped: a key seen again starts the next port */
	bool implicit;
	unsigned seen;
};

/* Keys ibv_devinfo prints under "port:" (libibverbs/examples/devinfo.c
 * print_hca_cap()). */
static const char *const port_words[] = { "state",     "max_mtu",
					  "active_mtu", "sm_lid",
					  "port_lid",  "port_lmc",
					  "link_layer", "phys_state",
					  "active_width", "active_speed" };

static bool failure(const struct line *ln)
{
	for (size_t i = 0; i < ARRAY_SIZE(failures); i++)
		if (line_starts(ln, failures[i]))
			return true;
	return false;
}

static void close_port(struct devinfo *d)
{
	if (d->port && d->lanes && d->lane_gbps > 0)
		emit_num(d->e, d->port, "rate_gbps", d->lanes * d->lane_gbps,
			 &d->speed_line);
	if (d->port && d->verbose)
		emit_int(d->e, d->port, "gid_count", d->gids, &d->port_line);
	emit_end(d->e, d->port);
	d->port = NULL;
	d->verbose = false;
	d->gids = 0;
	d->lanes = 0;
	d->lane_gbps = 0;
}

static void close_hca(struct devinfo *d)
{
	close_port(d);
	emit_end(d->e, d->hca);
	d->hca = NULL;
}

/* The value before a " (N)" code: "PORT_ACTIVE (4)" -> "PORT_ACTIVE". */
static struct line before_code(struct line v)
{
	const char *paren = memchr(v.p, '(', v.len);

	if (paren)
		v.len = (size_t)(paren - v.p);
	return line_trim(v);
}

/* The N of a trailing "(N)", or -1. */
static long code_of(const struct line *v)
{
	const char *paren = memchr(v->p, '(', v->len);
	char buf[24], *end;
	long c;

	if (!paren)
		return -1;
	line_copy(&(struct line){ paren + 1,
				  (size_t)(v->p + v->len - paren - 1), v->no },
		  buf, sizeof(buf));
	c = strtol(buf, &end, 10);
	return end != buf && *end == ')' ? c : -1;
}

/* Hex digits and colons: a GUID, not a poster's "-" or "xxxx". */
static bool guid_like(const struct line *v)
{
	bool digit = false;

	for (size_t i = 0; i < v->len; i++) {
		if (!isxdigit((unsigned char)v->p[i]) && v->p[i] != ':')
			return false;
		digit = digit || v->p[i] != ':';
	}
	return digit;
}

/* "vendor_id: 0x02c9": devinfo.c prints the device attributes' vendor
 * id as "0x%04x" (rdma-core libibverbs/examples/devinfo.c); it is the
 * IEEE vendor id ibv_query_device(3) names, which some providers fill
 * with their PCI vendor id and Mellanox's with its OUI 02c9, so it is
 * kept apart from the PCI vendor id sysfs and lspci give. */
static void ib_vendor_id(struct devinfo *d, const struct line *val,
			 const struct line *ln)
{
	struct line v = *val;
	char hex[9];

	if (v.len > 2 && v.p[0] == '0' && (v.p[1] == 'x' || v.p[1] == 'X')) {
		v.p += 2;
		v.len -= 2;
	}
	if (!v.len || v.len >= sizeof(hex))
		return;
	for (size_t i = 0; i < v.len; i++) {
		if (!isxdigit((unsigned char)v.p[i]))
			return;
		hex[i] = (char)tolower((unsigned char)v.p[i]);
	}
	hex[v.len] = '\0';
	emit_str(d->e, d->hca, "ib_vendor_id", hex, v.len, ln);
}

static void hca_value(struct devinfo *d, const struct line *key,
		      const struct line *val, const struct line *ln)
{
	if (line_eq(key, "node_guid")) {
		if (guid_like(val))
			emit_line(d->e, d->hca, "node_guid", val, ln);
	} else if (line_eq(key, "vendor_part_id")) {
		/* the PCI device id, in decimal: 4119 is 1017 */
		char hex[8];

		if (line_pci_id(val, hex, sizeof(hex)))
			emit_str(d->e, d->hca, "pci_device_id", hex,
				 strlen(hex), ln);
	} else if (line_eq(key, "vendor_id")) {
		ib_vendor_id(d, val, ln);
	} else if (line_eq(key, "transport")) {
		struct line t = before_code(*val);

		for (size_t i = 0; i < ARRAY_SIZE(transports); i++)
			if (line_eq(&t, transports[i].transport))
				emit_str(d->e, d->hca, "node_type",
					 transports[i].node_type,
					 strlen(transports[i].node_type), ln);
	} else {
		emit_keyed(d->e, d->hca, hca_keys, ARRAY_SIZE(hca_keys), key,
			   val, ln);
	}
}

/* "GID[  3]:  ::ffff:27.105.179.3, RoCE v2" */
static void gid(struct devinfo *d, const struct line *key,
		const struct line *val, const struct line *ln)
{
	char buf[16], *end;
	const char *comma = memchr(val->p, ',', val->len);
	struct line addr = *val, type = { 0 };
	struct fact *f;
	long index;

	line_copy(&(struct line){ key->p + 4, key->len - 4, key->no }, buf,
		  sizeof(buf));
	index = strtol(buf, &end, 10);
	if (end == buf || *end != ']' || index < 0)
		return;
	if (comma) {
		addr.len = (size_t)(comma - val->p);
		type.p = comma + 1;
		type.len = (size_t)(val->p + val->len - type.p);
		type = line_trim(type);
	}
	d->gids++;
	f = emit_begin(d->e, "gid", ln);
	emit_str(d->e, f, "hca", d->name, strlen(d->name), ln);
	emit_int(d->e, f, "port", d->port_no, ln);
	emit_int(d->e, f, "index", index, ln);
	emit_line(d->e, f, "gid", &addr, ln);
	if (type.len)
		emit_line(d->e, f, "type", &type, ln);
	emit_end(d->e, f);
}

static void port_value(struct devinfo *d, const struct line *key,
		       const struct line *val, const struct line *ln)
{
	const char *v;
	double n;

	if (line_eq(key, "state")) {
		if ((v = port_state_norm(val->p, val->len)))
			emit_str(d->e, d->port, "state", v, strlen(v), ln);
	} else if (line_eq(key, "phys_state")) {
		if ((v = phys_state_norm(val->p, val->len)))
			emit_str(d->e, d->port, "phys_state", v, strlen(v), ln);
	} else if (line_eq(key, "active_width")) {
		struct line w = before_code(*val);

		d->verbose = true;
		d->lanes = ib_link_lanes(w.p, w.len);
		if (d->lanes)
			emit_line(d->e, d->port, "width", &w, ln);
	} else if (line_eq(key, "active_speed")) {
		long code = code_of(val);

		v = code >= 0 ? ib_link_speed_name((unsigned)code) : NULL;
		d->verbose = true;
		if (v)
			emit_str(d->e, d->port, "speed", v, strlen(v), ln);
		if (line_number(val, &n)) {
			d->lane_gbps = n;
			d->speed_line = *ln;
		}
	} else if (line_starts(key, "GID[")) {
		gid(d, key, val, ln);
	} else if (line_eq(key, "max_mtu") || line_eq(key, "active_mtu")) {
		/* "4096 (5)": bytes, then the IBTA code */
		if (line_number(val, &n) && n >= 256 && n <= 65536)
			emit_int(d->e, d->port,
				 line_eq(key, "max_mtu") ? "max_mtu" :
							   "active_mtu",
				 (int64_t)n, ln);
	} else if (line_eq(key, "max_msg_sz") || line_eq(key, "gid_tbl_len")) {
		d->verbose = true;
	} else {
		emit_keyed(d->e, d->port, port_keys, ARRAY_SIZE(port_keys), key,
			   val, ln);
	}
}

static void open_port(struct devinfo *d, const struct line *ln);

/* Opens the next port of a filtered output when key is a port's. */
static void implicit_port(struct devinfo *d, const struct line *key,
			  const struct line *ln)
{
	size_t i = 0;

	while (i < ARRAY_SIZE(port_words) && !line_eq(key, port_words[i]))
		i++;
	if (i == ARRAY_SIZE(port_words))
		return;
	if (d->port && !(d->seen & (1u << i))) {
		d->seen |= 1u << i;
		return;
	}
	close_port(d);
	d->port_no = d->implicit ? d->port_no + 1 : 1;
	d->implicit = true;
	open_port(d, ln);
	d->seen = 1u << i;
}

static void open_port(struct devinfo *d, const struct line *ln)
{
	d->port_line = *ln;
	d->port = emit_begin(d->e, "port", ln);
	emit_str(d->e, d->port, "hca", d->name, strlen(d->name), ln);
	emit_int(d->e, d->port, "port", d->port_no, ln);
}

int parse_ibv_devinfo(struct emit *e, const char *text, size_t len,
		      const char *arg)
{
	struct devinfo d = { .e = e };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), key, val;
		char buf[16];

		if (failure(&ln)) {
			emit_tool_error(e, "ibv_devinfo", &ln);
			continue;
		}
		if (!line_kv(&ln, ':', &key, &val))
			continue;
		if (line_eq(&key, "hca_id") && val.len) {
			close_hca(&d);
			line_copy(&val, d.name, sizeof(d.name));
			d.hca = emit_begin(e, "hca", &ln);
			emit_line(e, d.hca, "name", &val, &ln);
			continue;
		}
		/* ibv_devinfo -d mlx5_0 | grep fw: the device the command
		 * line names, its hca_id line filtered out */
		if (!d.hca && !d.name[0] && arg && arg[0]) {
			snprintf(d.name, sizeof(d.name), "%s", arg);
			d.hca = emit_begin(e, "hca", &ln);
			emit_str(e, d.hca, "name", d.name, strlen(d.name), &ln);
		}
		if (!d.hca)
			continue;
		if (line_eq(&key, "port") &&
		    sscanf(line_copy(&val, buf, sizeof(buf)), "%5u",
			   &d.port_no) == 1) {
			close_port(&d);
			d.implicit = false;
			d.port_line = ln;
			d.port = emit_begin(e, "port", &ln);
			emit_str(e, d.port, "hca", d.name, strlen(d.name), &ln);
			emit_int(e, d.port, "port", d.port_no, &ln);
			continue;
		}
		if (d.implicit || (!d.port && arg && arg[0]))
			implicit_port(&d, &key, &ln);
		if (d.port)
			port_value(&d, &key, &val, &ln);
		else
			hca_value(&d, &key, &val, &ln);
	}
	close_hca(&d);
	return (int)(e->nfacts - before);
}


/* ibv_devices: a "device  node GUID" header, a dashed rule, then one
 * "name  guid" row per device. */
int parse_ibv_devices(struct emit *e, const char *text, size_t len,
		      const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	bool table = false;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), tok[3];
		size_t n = line_split(&ln, tok, 3);
		char guid[20];
		struct fact *f;

		if (failure(&ln)) {
			emit_tool_error(e, "ibv_devices", &ln);
			continue;
		}
		if (n == 3 && line_eq(&tok[0], "device") &&
		    line_eq(&tok[1], "node") && line_starts(&tok[2], "GUID")) {
			table = true;
			continue;
		}
		if (!table || n != 2 || line_starts(&tok[0], "---") ||
		    tok[1].len != 16 || !guid_like(&tok[1]) ||
		    memchr(tok[1].p, ':', tok[1].len))
			continue;
		/* The form sysfs and ibv_devinfo print: 0c42:a103:00b3:4b9e */
		snprintf(guid, sizeof(guid), "%.4s:%.4s:%.4s:%.4s", tok[1].p,
			 tok[1].p + 4, tok[1].p + 8, tok[1].p + 12);
		f = emit_begin(e, "hca", &ln);
		emit_line(e, f, "name", &tok[0], &ln);
		emit_str(e, f, "node_guid", guid, strlen(guid), &ln);
		emit_end(e, f);
	}
	return (int)(e->nfacts - before);
}

