/* Link and switch queries built on NVIDIA's firmware tools (MFT): mlxlink
 * (the "Key : value" sections of one port's link) and ibswinfo (the
 * "key | value" table of an unmanaged InfiniBand switch: its identity,
 * firmware, power supplies and fans). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/port_state.h"
#include "engine/xalloc.h"

/* mlxlink's device argument names an RDMA device (mlx5_1) unless it is
 * an MST path or a PCI address, which name no RDMA device. */
static bool rdma_name(const char *arg)
{
	return arg && arg[0] && !strchr(arg, '/') && !strchr(arg, ':');
}

/* The port mlxlink reports when -p is not given (mlxlink -h: "-p |--port
 * <port_number>"; a ConnectX function has one port). */
#define MLXLINK_PORT 1

struct link {
	struct fact *port;
	struct line opcode, recommendation, fw, state;
};

static void upper(char *s)
{
	for (; *s; s++)
		*s = (char)toupper((unsigned char)*s);
}

/* "Speed : 100G" (Ethernet) or "Speed : IB-HDR" (InfiniBand). */
static void link_speed(struct emit *e, struct fact *f, const struct line *val)
{
	double gbps;
	char buf[16];

	if (line_number(val, &gbps) && line_contains(val, "G")) {
		emit_num(e, f, "rate_gbps", gbps, val);
		return;
	}
	line_copy(val, buf, sizeof(buf));
	emit_str(e, f, "speed", strncmp(buf, "IB-", 3) ? buf : buf + 3,
		 strlen(strncmp(buf, "IB-", 3) ? buf : buf + 3), val);
}

static void link_field(struct emit *e, struct link *l, const struct line *key,
		       const struct line *val)
{
	const char *norm;
	char buf[16];

	if (line_eq(key, "Status Opcode")) {
		l->opcode = *val;
	} else if (line_eq(key, "Recommendation")) {
		l->recommendation = *key;
		l->recommendation.len =
			(size_t)(val->p + val->len - key->p);
	} else if (line_eq(key, "Firmware Version")) {
		l->fw = *val;
	} else if (!l->port) {
		return;
	} else if (line_eq(key, "State")) {
		norm = port_state_norm(val->p, val->len);
		if (norm)
			emit_str(e, l->port, "state", norm, strlen(norm), val);
	} else if (line_eq(key, "Physical state")) {
		norm = phys_state_norm(val->p, val->len);
		if (norm)
			emit_str(e, l->port, "phys_state", norm, strlen(norm),
				 val);
	} else if (line_eq(key, "Speed")) {
		link_speed(e, l->port, val);
	} else if (line_eq(key, "Width")) {
		line_copy(val, buf, sizeof(buf));
		upper(buf);
		emit_str(e, l->port, "width", buf, strlen(buf), val);
	}
}

int parse_mlxlink(struct emit *e, const char *text, size_t len,
		  const char *arg)
{
	struct link l = { 0 };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), key, val;

		if (line_starts(&ln, "-E-") || line_starts(&ln, "-W-")) {
			emit_tool_error(e, "mlxlink", &ln);
			continue;
		}
		if (!line_kv(&ln, ':', &key, &val) || !val.len)
			continue;
		if (!l.port && rdma_name(arg) && line_eq(&key, "State")) {
			l.state = ln;
			l.port = emit_begin(e, "port", &ln);
			emit_str(e, l.port, "hca", arg, strlen(arg), NULL);
			emit_int(e, l.port, "port", MLXLINK_PORT, NULL);
		}
		link_field(e, &l, &key, &val);
	}
	emit_end(e, l.port);
	if (l.port) {
		struct fact *hca = emit_begin(e, "hca", &l.state);

		emit_str(e, hca, "name", arg, strlen(arg), NULL);
		if (l.fw.p)
			emit_line(e, hca, "fw_ver", &l.fw, &l.fw);
		emit_end(e, hca);
	}
	/* a non-zero opcode is a problem the firmware found on the link */
	if (l.opcode.p && !line_eq(&l.opcode, "0") &&
	    l.recommendation.p)
		emit_tool_error(e, "mlxlink", &l.recommendation);
	return (int)(e->nfacts - before);
}

bool mlxlink_section_line(const struct line *ln)
{
	return line_eq(ln, "Operational Info") ||
	       line_eq(ln, "Troubleshooting Info") ||
	       line_eq(ln, "Supported Info") ||
	       line_eq(ln, "Tool Information");
}

/* ibswinfo.sh prints its table with printf "%-18s | %s\n"; the
 * identity rows and the fw_image fields they fill. */
static const struct field_key switch_keys[] = {
	{ "part number", "part_number" },
	{ "product name", "description" },
	{ "PSID", "psid" },
	{ "firmware version", "fw_ver" },
};

/* Rows that report the state of a part: "PSU0 status", its indented
 * "DC power" and "fan status", and the switch's own "fan status". */
static bool status_row(const struct line *key)
{
	return line_eq(key, "DC power") ||
	       (key->len >= 6 &&
		!memcmp(key->p + key->len - 6, "status", 6));
}

#define SWITCH_ROWS 64 /* @@ rows of one ibswinfo table */

struct switch_table {
	struct line guid;
	struct line rows[SWITCH_ROWS], keys[SWITCH_ROWS], vals[SWITCH_ROWS];
	bool indented[SWITCH_ROWS];
	size_t n;
};

static struct line first_word(const struct line *t)
{
	struct line w = *t;

	w.len = 0;
	while (w.len < t->len && !isspace((unsigned char)t->p[w.len]))
		w.len++;
	return w;
}

int parse_ibswinfo(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	struct switch_table *t = xcalloc(1, sizeof(*t));
	struct lines it;
	struct line raw;
	struct fact *img = NULL;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw) && t->n < ARRAY_SIZE(t->rows)) {
		struct line ln = line_trim(raw), key, val;

		if (!line_kv(&ln, '|', &key, &val) || !key.len || !val.len)
			continue;
		if (line_eq(&key, "GUID"))
			t->guid = val;
		t->rows[t->n] = ln;
		t->keys[t->n] = key;
		t->vals[t->n] = val;
		/* indented rows belong to the PSU row above them */
		t->indented[t->n] = raw.len && isspace((unsigned char)raw.p[0]);
		t->n++;
	}
	for (size_t i = 0; i < t->n; i++) {
		if (!status_row(&t->keys[i]) && img)
			emit_keyed(e, img, switch_keys, ARRAY_SIZE(switch_keys),
				   &t->keys[i], &t->vals[i], &t->rows[i]);
		if (!img && t->guid.p) {
			img = emit_begin(e, "fw_image", &t->rows[i]);
			emit_line(e, img, "pci", &t->guid, &t->guid);
			emit_keyed(e, img, switch_keys, ARRAY_SIZE(switch_keys),
				   &t->keys[i], &t->vals[i], &t->rows[i]);
		}
	}
	emit_end(e, img);
	{
		struct line psu = { 0 };

		for (size_t i = 0; i < t->n; i++) {
			const struct line *key = &t->keys[i];
			struct fact *f;
			char name[96];

			if (!t->indented[i])
				psu = line_starts(key, "PSU") ?
					      first_word(key) :
					      (struct line){ 0 };
			if (!status_row(key))
				continue;
			/* a row indented under a PSU row is that PSU's */
			if (psu.p && t->indented[i])
				snprintf(name, sizeof(name), "%.*s %.*s",
					 (int)psu.len, psu.p, (int)key->len,
					 key->p);
			else
				line_copy(key, name, sizeof(name));
			f = emit_begin(e, "sensor", &t->rows[i]);
			if (t->guid.p)
				emit_line(e, f, "device", &t->guid, &t->guid);
			emit_str(e, f, "name", name, strlen(name), &t->rows[i]);
			emit_line(e, f, "status", &t->vals[i], &t->rows[i]);
			emit_end(e, f);
		}
	}
	free(t);
	return (int)(e->nfacts - before);
}

bool ibswinfo_row_line(const struct line *ln)
{
	struct line key, val;

	return line_kv(ln, '|', &key, &val) &&
	       (line_eq(&key, "PSID") || line_eq(&key, "part number") ||
		line_eq(&key, "firmware version") ||
		line_eq(&key, "fan status") || line_eq(&key, "GUID"));
}
