/* perftest (ib_write_bw, ib_read_lat, ...): the test title, the header's
 * Device and Link type, the last result row, and failure strings. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

/* perftest's MiB/sec (0x100000 bytes) to Gb/sec (125000000 bytes). */
#define MIB_TO_GBIT (1048576.0 / 125000000.0)

enum table {
	TABLE_NONE,
	TABLE_BW,
	TABLE_BW_QOS,
	TABLE_LAT,
};

/* Verb words of the title line ("RDMA_Write BW Test") and the name of
 * the tool that prints them. */
static const struct {
	const char *title;
	const char *tool;
} verbs[] = {
	{ "RDMA_Write", "write" },
	{ "RDMA_Read", "read" },
	{ "Send", "send" },
	{ "Atomic", "atomic" },
};

/* Lines perftest prints when a test cannot run. */
static const char *const failures[] = {
	"Failed to ", "Unable to ",	"Couldn't ",
	"Couldnt ",   "Did not detect", "No IB devices",
	"IB device ", "Error ",		"ERROR:",
};

/* Warnings perftest prints and runs on (perftest_parameters.c: the CPU
 * frequency check, and ctx_set_max_inline() "Device not recognized to
 * implement inline feature. Disabling it" for a device its table does
 * not know, rxe or hns). */
static const char *const warnings[] = {
	"Conflicting CPU frequency",
	"Device not recognized to implement inline feature",
};

/* The port perftest uses when -i/--ib-port is not given
 * (perftest_parameters.h: DEF_IB_PORT 1). */
#define PERFTEST_DEFAULT_PORT 1

struct result {
	char test[32];
	struct line title, device_line, link_line, row, error, warning;
	struct line local, local_lid; /* "local address: LID 0x02 ..." */
	struct line device, link;
	enum table table;
	bool mib;
	double size, peak, avg, typical;
};

/* The value after "key ... :" on a header line holding one or two
 * "key : value" pairs. */
static bool header_value(const struct line *ln, const char *key,
			 struct line *val)
{
	const char *at = memmem(ln->p, ln->len, key, strlen(key));
	const char *end = ln->p + ln->len, *colon;

	if (!at)
		return false;
	colon = memchr(at, ':', (size_t)(end - at));
	if (!colon)
		return false;
	val->p = colon + 1;
	while (val->p < end && (*val->p == ' ' || *val->p == '\t'))
		val->p++;
	val->len = 0;
	while (val->p + val->len < end &&
	       !isspace((unsigned char)val->p[val->len]))
		val->len++;
	val->no = ln->no;
	return val->len > 0;
}

static void title(struct result *r, const struct line *ln)
{
	bool bw = line_contains(ln, " BW ") || line_contains(ln, "BW Test");
	bool lat = line_contains(ln, "Latency Test");

	if (!bw && !lat)
		return;
	for (size_t i = 0; i < sizeof(verbs) / sizeof(*verbs); i++) {
		struct line t = line_trim(*ln);

		if (line_starts(&t, verbs[i].title)) {
			snprintf(r->test, sizeof(r->test), "ib_%s_%s",
				 verbs[i].tool, bw ? "bw" : "lat");
			r->title = *ln;
		}
	}
}

static void command_line(struct result *r, const struct line *ln)
{
	static const char *const tools[] = {
		"ib_write_bw",	"ib_read_bw",  "ib_send_bw",  "ib_atomic_bw",
		"ib_write_lat", "ib_read_lat", "ib_send_lat", "ib_atomic_lat",
	};

	if (r->test[0])
		return;
	for (size_t i = 0; i < sizeof(tools) / sizeof(*tools); i++)
		if (line_contains(ln, tools[i]))
			snprintf(r->test, sizeof(r->test), "%s", tools[i]);
}

/* Every row of the result table, as perftest_row: a run over several
 * message sizes (-a) shows each, and the perftest fact keeps the last. */
static void emit_row(struct emit *e, const struct result *r)
{
	struct fact *f = emit_begin(e, "perftest_row", &r->row);
	double k = r->mib ? MIB_TO_GBIT : 1;

	if (r->test[0])
		emit_str(e, f, "test", r->test, strlen(r->test), &r->row);
	if (r->device.p)
		emit_line(e, f, "hca", &r->device, &r->device_line);
	emit_int(e, f, "msg_size", (int64_t)r->size, &r->row);
	if (r->table == TABLE_LAT) {
		emit_num(e, f, "lat_typical_us", r->typical, &r->row);
	} else {
		emit_num(e, f, "bw_peak_gbps", r->peak * k, &r->row);
		emit_num(e, f, "bw_avg_gbps", r->avg * k, &r->row);
	}
	emit_end(e, f);
}

static void data_row(struct result *r, const struct line *ln)
{
	struct line tok[8];
	size_t n = line_split(ln, tok, 8);
	double v[8];

	if (n < 4 || !isdigit((unsigned char)tok[0].p[0]))
		return;
	for (size_t i = 0; i < n; i++)
		if (!line_number(&tok[i], &v[i]))
			return;
	r->row = *ln;
	r->size = v[0];
	if (r->table == TABLE_BW && n >= 4) {
		r->peak = v[2];
		r->avg = v[3];
	} else if (r->table == TABLE_BW_QOS && n >= 5) {
		r->peak = v[3];
		r->avg = v[4];
	} else if (r->table == TABLE_LAT && n >= 5) {
		r->typical = v[4];
	}
}

static void emit_result(struct emit *e, struct result *r)
{
	struct fact *f;
	const struct line *at = r->row.p   ? &r->row :
				r->error.p ? &r->error :
					     &r->title;
	double k = r->mib ? MIB_TO_GBIT : 1;

	/* a header with no result yet still names the test, the device
	 * and the link (an output cut before its table) */
	if (!r->row.p && !r->error.p && !(r->title.p && r->device.p))
		return;
	f = emit_begin(e, "perftest", at->p ? at : NULL);
	if (r->test[0])
		emit_str(e, f, "test", r->test, strlen(r->test),
			 r->title.p ? &r->title : at);
	if (r->device.p)
		emit_line(e, f, "hca", &r->device, &r->device_line);
	if (r->link.p)
		emit_line(e, f, "link_type", &r->link, &r->link_line);
	if (r->row.p) {
		emit_int(e, f, "msg_size", (int64_t)r->size, &r->row);
		if (r->table == TABLE_LAT) {
			emit_num(e, f, "lat_typical_us", r->typical, &r->row);
		} else {
			emit_num(e, f, "bw_peak_gbps", r->peak * k, &r->row);
			emit_num(e, f, "bw_avg_gbps", r->avg * k, &r->row);
		}
	}
	if (r->error.p)
		emit_line(e, f, "error", &r->error, &r->error);
	if (r->warning.p)
		emit_line(e, f, "warning", &r->warning, &r->warning);
	emit_end(e, f);
}

/* "local address: LID 0x02 QPN 0x0032 PSN ...": the LID of the port the
 * test ran on (InfiniBand; RoCE prints LID 0000 and a GID). */
static void local_address(struct result *r, const struct line *ln)
{
	static const char tag[] = "local address: LID ";
	struct line v;

	if (r->local.p || !line_starts(ln, tag))
		return;
	v = (struct line){ ln->p + sizeof(tag) - 1,
			   ln->len - (sizeof(tag) - 1), ln->no };
	v.len = 0;
	while (v.len < ln->len - (sizeof(tag) - 1) &&
	       !isspace((unsigned char)v.p[v.len]))
		v.len++;
	r->local = *ln;
	r->local_lid = v;
}

static void emit_local_port(struct emit *e, const struct result *r)
{
	char buf[16];
	long lid;
	struct fact *f;

	if (!r->local.p || !r->device.p || !r->link.p ||
	    !line_eq(&r->link, "IB"))
		return;
	line_copy(&r->local_lid, buf, sizeof(buf));
	lid = strtol(buf, NULL, 0);
	if (lid <= 0 || lid >= 0xffff)
		return;
	f = emit_begin(e, "port", &r->local);
	emit_line(e, f, "hca", &r->device, &r->device_line);
	emit_int(e, f, "port", PERFTEST_DEFAULT_PORT, NULL);
	emit_int(e, f, "lid", lid, &r->local);
	emit_end(e, f);
}

/* The device of the header's "Device : mlx5_0", as an hca fact: perftest
 * prints that header (perftest_parameters.c ctx_print_test_info(), with
 * the port's active MTU beside it) only after it opened the device and
 * queried its port, so the name is of a device that exists.  A name
 * longer than the kernel's IB_DEVICE_NAME_MAX (64) or with spaces is not
 * one. */
static void emit_device(struct emit *e, const struct result *r)
{
	struct fact *f;

	if (!r->device.p || !r->device.len || r->device.len >= 64 ||
	    memchr(r->device.p, ' ', r->device.len) ||
	    memchr(r->device.p, '\t', r->device.len))
		return;
	f = emit_begin(e, "hca", &r->device_line);
	emit_line(e, f, "name", &r->device, &r->device_line);
	emit_end(e, f);
}

int parse_perftest(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	struct result r = { 0 };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	if (arg)
		snprintf(r.test, sizeof(r.test), "%s", arg);
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), val;

		if (line_contains(&ln, " Test") && !r.title.p)
			title(&r, &ln);
		command_line(&r, &ln);
		if (!r.device.p && header_value(&ln, "Device", &val) &&
		    line_contains(&ln, " : ")) {
			r.device = val;
			r.device_line = ln;
		}
		if (!r.link.p && header_value(&ln, "Link type", &val)) {
			r.link = val;
			r.link_line = ln;
		}
		if (line_starts(&ln, "#bytes")) {
			r.table = line_contains(&ln, "t_typical") ||
						  line_contains(&ln, "t_avg") ?
					  TABLE_LAT :
				  line_contains(&ln, "#sl") ? TABLE_BW_QOS :
							      TABLE_BW;
			r.mib = line_contains(&ln, "MB/sec") ||
				line_contains(&ln, "MiB/sec");
			continue;
		}
		if (r.table != TABLE_NONE && ln.len &&
		    isdigit((unsigned char)ln.p[0])) {
			const char *seen = r.row.p;

			data_row(&r, &ln);
			if (r.row.p != seen)
				emit_row(e, &r);
			continue;
		}
		local_address(&r, &ln);
		for (size_t i = 0; i < ARRAY_SIZE(warnings) && !r.warning.p;
		     i++)
			if (line_starts(&ln, warnings[i]))
				r.warning = ln;
		for (size_t i = 0; i < sizeof(failures) / sizeof(*failures);
		     i++)
			if (line_starts(&ln, failures[i]) && !r.error.p)
				r.error = ln;
	}
	emit_result(e, &r);
	emit_local_port(e, &r);
	emit_device(e, &r);
	return (int)(e->nfacts - before);
}

