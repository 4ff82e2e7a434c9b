/* Firmware tools: flint/mstflint "q" (one device: "FW Version:", "PSID:",
 * "Image type:", ...) and mlxfwmanager / mlxup --query ("Device #1:"
 * blocks with a "Versions: Current Available" table and a "Status:").
 * Both give fw_image facts keyed by the PCI device the tool queried. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

#define MLXFW_TOKENS 8 /* @@ words of a version-table row */

static const struct field_key flint_keys[] = {
	{ "Image type", "image_type" },
	{ "FW Version", "fw_ver" },
	{ "FW Version(Running)", "fw_running" },
	/* burn: what the flash held before it ("New FW version" is the
	 * image's) */
	{ "Current FW version on flash", "fw_ver" },
	{ "FW Release Date", "release_date" },
	{ "Product Version", "product_version" },
	{ "Part Number", "part_number" },
	{ "Description", "description" },
	{ "PSID", "psid" },
};

static const struct field_key manager_keys[] = {
	{ "Device Type", "device_type" },
	{ "Part Number", "part_number" },
	{ "Description", "description" },
	{ "PSID", "psid" },
};

/* What mlxfwmanager and mlxup print after "Status:". */
static const char *const statuses[] = {
	"Up to date",
	"Update required",
	"Forced update required",
	"No matching image found",
};

/* The device a query names: a PCI address (normalized), else the name
 * as given (/dev/mst/mt4117_pciconf0, mlx5_0, pci0:6:0:0). */
static void emit_device(struct emit *e, struct fact *f, const struct line *v,
			const struct line *ln)
{
	char addr[32];

	if (line_pci_addr(v, addr, sizeof(addr)) &&
	    (v->len == 7 || v->p[v->len - 2] == '.'))
		emit_str(e, f, "pci", addr, strlen(addr), ln);
	else if (v->len)
		emit_line(e, f, "pci", v, ln);
}

/* "mstflint -d 0000:08:00.0 q": the word after -d. */
static bool query_device(const struct line *ln, struct line *dev)
{
	struct line tok[16];
	size_t n = line_split(ln, tok, 16);
	bool flint = false;

	for (size_t i = 0; i + 1 < n; i++) {
		flint = flint || line_contains(&tok[i], "flint");
		if (flint &&
		    (line_eq(&tok[i], "-d") || line_eq(&tok[i], "--device"))) {
			*dev = tok[i + 1];
			return true;
		}
	}
	return false;
}

static struct fact *begin_image(struct emit *e, const char *arg,
				const struct line *ln)
{
	struct fact *f = emit_begin(e, "fw_image", ln);

	if (arg) {
		struct line a = { arg, strlen(arg), 0 };

		emit_device(e, f, &a, NULL);
	}
	return f;
}

int parse_flint_q(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct fact *f = NULL;
	bool has_data = false;
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_unmark(raw), key, val, dev;

		if (line_starts(&ln, "-E-")) {
			emit_tool_error(e, "flint", &ln);
			continue;
		}
		if (query_device(&ln, &dev)) {
			emit_end(e, f);
			f = begin_image(e, arg, &ln);
			emit_device(e, f, &dev, &ln);
			has_data = false;
			continue;
		}
		if (!line_kv(&ln, ':', &key, &val) || !val.len ||
		    line_eq(&val, "N/A"))
			continue;
		/* "Description: UID GuidsNumber" heads the GUID table; the
		 * board's description (newer flint) comes earlier. */
		if (line_eq(&key, "Description") &&
		    (line_starts(&val, "UID ") || line_starts(&val, "Node ")))
			continue;
		if (line_eq(&key, "Image type") && has_data) {
			emit_end(e, f); /* a second query pasted after it */
			f = NULL;
		}
		if (!f)
			f = begin_image(e, arg, &ln);
		if (line_eq(&key, "Device ID")) {
			char hex[8];

			if (line_pci_id(&val, hex, sizeof(hex)))
				emit_str(e, f, "pci_device_id", hex,
					 strlen(hex), &ln);
			continue;
		}
		if (emit_keyed(e, f, flint_keys, ARRAY_SIZE(flint_keys), &key,
			       &val, &ln))
			has_data = true;
	}
	emit_end(e, f);
	return (int)(e->nfacts - before);
}


/* The status phrase s holds, into buf.  A mail client may have wrapped
 * the phrase ("No" / "matching image found"): then s and next join, and
 * the result says next was used. */
static bool status_join(const struct line *s, const struct line *next,
			char *buf, size_t size)
{
	line_copy(s, buf, size);
	for (size_t i = 0; i < ARRAY_SIZE(statuses); i++)
		if (!strcmp(buf, statuses[i]))
			return false;
	if (!next || !next->len || s->len + next->len + 2 > size)
		return false;
	snprintf(buf + s->len, size - s->len, " %.*s", (int)next->len, next->p);
	for (size_t i = 0; i < ARRAY_SIZE(statuses); i++)
		if (!strcmp(buf, statuses[i]))
			return true;
	line_copy(s, buf, size);
	return false;
}

bool mlxfw_status_line(const struct line *ln)
{
	struct line rest;

	if (!line_starts(ln, "Status:"))
		return false;
	rest = line_trim((struct line){ ln->p + 7, ln->len - 7, ln->no });
	for (size_t i = 0; i < ARRAY_SIZE(statuses); i++)
		if (rest.len && !strncmp(statuses[i], rest.p, rest.len) &&
		    rest.len <= strlen(statuses[i]))
			return true;
	return false;
}

/* Whether key is one of a device's own fields. */
static bool manager_key(const struct line *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(manager_keys); i++)
		if (line_eq(key, manager_keys[i].key))
			return true;
	return false;
}

struct manager {
	struct emit *e;
	struct fact *f;
	bool versions;
	struct line status, status_ln; /* a Status: not yet emitted */
};

/* Emits a pending status; true when it took next as its wrapped end. */
static bool flush_status(struct manager *m, const struct line *next)
{
	char buf[64];
	bool used;

	if (!m->status.len)
		return false;
	used = status_join(&m->status, next, buf, sizeof(buf));
	emit_str(m->e, m->f, "status", buf, strlen(buf), &m->status_ln);
	m->status.len = 0;
	return used;
}

static void close_device(struct manager *m)
{
	flush_status(m, NULL);
	emit_end(m->e, m->f);
	m->f = NULL;
	m->versions = false;
}

/* "FW   14.26.0226   N/A   [Status: No]" */
static void version_row(struct manager *m, const struct line *ln)
{
	struct line tok[MLXFW_TOKENS];
	size_t n = line_split(ln, tok, MLXFW_TOKENS);

	if (n < 2 || !line_eq(&tok[0], "FW"))
		return;
	emit_line(m->e, m->f, "fw_ver", &tok[1], ln);
	if (n > 2 && !line_eq(&tok[2], "N/A") &&
	    !line_starts(&tok[2], "Status"))
		emit_line(m->e, m->f, "fw_available", &tok[2], ln);
}

int parse_mlxfwmanager(struct emit *e, const char *text, size_t len,
		       const char *arg)
{
	struct manager m = { .e = e };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_unmark(raw), key, val;
		const char *st;

		if (flush_status(&m, &ln))
			continue;
		if (line_starts(&ln, "-E-")) {
			emit_tool_error(e, "mlxfwmanager", &ln);
			continue;
		}
		if (line_starts(&ln, "Device #")) {
			close_device(&m);
			m.f = emit_begin(e, "fw_image", &ln);
			continue;
		}
		/* a fragment whose "Device #N:" line a blank line or the cut
		 * left behind: its first field opens the device */
		if (!m.f && line_kv(&ln, ':', &key, &val) &&
		    (line_eq(&key, "PCI Device Name") ||
		     line_eq(&key, "Versions") ||
		     manager_key(&key)))
			m.f = emit_begin(e, "fw_image", &ln);
		if (!m.f)
			continue;
		if (m.versions)
			version_row(&m, &ln);
		st = memmem(ln.p, ln.len, "Status:", 7);
		if (st) {
			m.status = line_trim((struct line){
				st + 7, (size_t)(ln.p + ln.len - st - 7),
				ln.no });
			m.status_ln = ln;
			m.versions = false;
			continue;
		}
		if (!line_kv(&ln, ':', &key, &val))
			continue;
		if (line_eq(&key, "Versions")) {
			m.versions = true;
			continue;
		}
		if (line_eq(&key, "PCI Device Name")) {
			emit_device(e, m.f, &val, &ln);
			continue;
		}
		emit_keyed(e, m.f, manager_keys, ARRAY_SIZE(manager_keys), &key,
			   &val, &ln);
	}
	close_device(&m);
	return (int)(e->nfacts - before);
}

