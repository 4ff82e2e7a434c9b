/* qperf (linux-rdma/qperf): each test's result as src/qperf.c prints it,
 * the test's name ("%s:\n", rc_bw, tcp_lat, ...) then its indented
 * "name  =  value unit" lines (view_show(): "    %-*s  =  %*s %s"), bw in
 * bytes per second units (KB/sec, MB/sec, GB/sec) and latency in time
 * units (ns, us, ms, sec).  Its error() prints the message alone on a
 * line, a remote side's with "server: " or "client: " first
 * (support.c remote_name()).  Each test is a perftest fact of that test
 * name; each error line a tool_error of qperf (and the error of the test
 * it ends). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

/* The test names' endings (src/qperf.c Tests[]: rc_bw, rc_bi_bw, rc_lat,
 * rc_rdma_read_bw, ..., tcp_lat, sdp_bw, ver_rc_compare_swap_mr, conf). */
static const char *const test_ends[] = {
	"_bw", "_lat", "_mr", "_rate", "_compare_swap", "_fetch_add",
};

/* What qperf's error() lines start with or hold (src/qperf.c, rdma.c,
 * socket.c and support.c format strings). */
static const char *const error_starts[] = {
	"failed to ",		       "unexpected event from RDMA CM",
	"bad IB port",		       "bad MTU",
	"bad static rate",	       "getaddrinfo failed",
	"internal error: ",	       "rdma_",
	"device only supports ",       "query port failed",
	"query QP failed",	       "query device failed",
	"CQ poll failed",	       "mismatch, sequence ",
	"synchronize ",		       "message size must be",
};
static const char *const error_holds[] = {
	": bad test; try: qperf --help tests", ": failed to connect",
	" failed: ",			       " not responding",
};

/* A test's name alone on its line: "rc_bw:". */
bool qperf_test_line(const struct line *ln)
{
	struct line name;

	if (ln->len < 4 || ln->len > 40 || ln->p[ln->len - 1] != ':')
		return false;
	name = (struct line){ ln->p, ln->len - 1, ln->no };
	for (size_t i = 0; i < name.len; i++)
		if (!islower((unsigned char)name.p[i]) &&
		    !isdigit((unsigned char)name.p[i]) && name.p[i] != '_')
			return false;
	if (line_eq(&name, "conf"))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(test_ends); i++) {
		size_t n = strlen(test_ends[i]);

		if (name.len > n &&
		    !memcmp(name.p + name.len - n, test_ends[i], n))
			return true;
	}
	return false;
}

/* "bw  =  3.07 GB/sec": *name, the number and *unit. */
static bool value_line(const struct line *ln, struct line *name, double *v,
		       struct line *unit)
{
	struct line key, val, tok[3];

	if (!line_kv(ln, '=', &key, &val) || !key.len || key.len > 24)
		return false;
	if (line_split(&val, tok, 3) != 2 || !line_number(&tok[0], v))
		return false;
	*name = key;
	*unit = tok[1];
	return true;
}

bool qperf_value_line(const struct line *ln)
{
	struct line name, unit;
	double v;

	return value_line(ln, &name, &v, &unit) &&
	       (line_eq(&name, "bw") || line_eq(&name, "latency") ||
		line_eq(&name, "msg_rate"));
}

/* Gb/s of a qperf bandwidth, or -1 for a unit it does not print. */
static double gbps(double v, const struct line *unit)
{
	static const struct {
		const char *unit;
		double per_gbps;
	} units[] = {
		{ "bytes/sec", 1.25e8 }, { "KB/sec", 1.25e5 },
		{ "MB/sec", 125.0 },	 { "GB/sec", 0.125 },
		{ "TB/sec", 0.000125 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (line_eq(unit, units[i].unit))
			return v / units[i].per_gbps;
	return -1;
}

/* Microseconds of a qperf latency, or -1. */
static double usec(double v, const struct line *unit)
{
	static const struct {
		const char *unit;
		double us;
	} units[] = {
		{ "ns", 0.001 }, { "us", 1 }, { "ms", 1000 }, { "sec", 1e6 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (line_eq(unit, units[i].unit))
			return v * units[i].us;
	return -1;
}

static bool error_line(const struct line *ln)
{
	struct line t = *ln;

	/* the remote side's error, relayed */
	if (line_starts(&t, "server: ") || line_starts(&t, "client: "))
		t = line_trim((struct line){ t.p + 8, t.len - 8, t.no });
	if (line_eq(&t, "server failure") || line_eq(&t, "client failure"))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(error_starts); i++)
		if (line_starts(&t, error_starts[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(error_holds); i++)
		if (line_contains(&t, error_holds[i]))
			return true;
	return false;
}

static void tool_error(struct emit *e, const struct line *ln)
{
	struct fact *f = emit_begin(e, "tool_error", ln);

	emit_str(e, f, "tool", "qperf", 5, ln);
	emit_line(e, f, "message", ln, ln);
	emit_str(e, f, "reason", "error", 5, ln);
	emit_str(e, f, "kb_name", "qperf", 5, ln);
	emit_end(e, f);
}

int parse_qperf(struct emit *e, const char *text, size_t len,
		const char *arg)
{
	struct fact *f = NULL;
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	bool failed = false;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), name, unit;
		double v, x;

		if (qperf_test_line(&ln)) {
			emit_end(e, f);
			f = emit_begin(e, "perftest", &ln);
			emit_line(e, f, "test",
				  &(struct line){ ln.p, ln.len - 1, ln.no },
				  &ln);
			failed = false;
			continue;
		}
		if (error_line(&ln)) {
			tool_error(e, &ln);
			if (f && !failed)
				emit_line(e, f, "error", &ln, &ln);
			failed = true;
			continue;
		}
		if (!f || !value_line(&ln, &name, &v, &unit))
			continue;
		if (line_eq(&name, "bw") && (x = gbps(v, &unit)) >= 0)
			emit_num(e, f, "bw_avg_gbps", x, &ln);
		else if (line_eq(&name, "latency") && (x = usec(v, &unit)) >= 0)
			emit_num(e, f, "lat_typical_us", x, &ln);
	}
	emit_end(e, f);
	return (int)(e->nfacts - before);
}
