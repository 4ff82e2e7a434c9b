/* The result tables of libfabric's fabtests and of librdmacm's stream
 * examples.  fi_pingpong (libfabric util/pingpong.c show_perf()) prints
 * "bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec" (a "name"
 * column first when the test is named); the other fabtests
 * (fabtests/common/shared.c show_perf()) "name bytes iters total time
 * MB/sec usec/xfer Mxfers/sec" (Gb/sec in older releases); rstream and
 * riostream (rdma-core librdmacm/examples) "name bytes xfers iters total
 * time Gb/sec usec/xfer".  Sizes are size_str()'s "64", "4k", "1m", a
 * time "0.03s".  The table is one perftest fact (its last row's values,
 * the test the block's command ran, the domain its -d named as the
 * device) and a perftest_row per row.  A ping-pong (a test whose
 * program names "pingpong", a row whose name ends "_lat") is
 * latency-bound: its MB/sec is no bandwidth a link could carry, so it
 * gives the latency only, as ib_*_lat does. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

#define COLUMNS_MAX 12 /* @@ columns of one table */

enum column {
	COL_OTHER,
	COL_NAME,
	COL_BYTES,
	COL_MBPS,
	COL_GBPS,
	COL_USEC,
};

/* The header words that name a column rdmadoctor reads. */
static const struct {
	const char *word;
	enum column col;
} header_words[] = {
	{ "name", COL_NAME },
	{ "bytes", COL_BYTES },
	{ "MB/sec", COL_MBPS },
	{ "Gb/sec", COL_GBPS },
	{ "usec/xfer", COL_USEC },
};

struct table {
	enum column cols[COLUMNS_MAX];
	size_t ncols;
};

/* The header row: starts with "name" or "bytes" and holds "usec/xfer". */
static bool header(const struct line *ln, struct table *t)
{
	struct line tok[COLUMNS_MAX + 1];
	size_t n;

	if ((!line_starts(ln, "name ") && !line_starts(ln, "bytes ")) ||
	    !line_contains(ln, " usec/xfer"))
		return false;
	n = line_split(ln, tok, COLUMNS_MAX + 1);
	if (n < 4 || n > COLUMNS_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		t->cols[i] = COL_OTHER;
		for (size_t j = 0; j < ARRAY_SIZE(header_words); j++)
			if (line_eq(&tok[i], header_words[j].word))
				t->cols[i] = header_words[j].col;
	}
	t->ncols = n;
	return true;
}

bool fabtests_header_line(const struct line *ln)
{
	struct table t;

	return header(ln, &t);
}

/* size_str(): "64", "4k", "1.5k", "1m", "2g" (one decimal when the
 * size is no whole multiple); -1 when it is none or too large. */
static long long size_of(const struct line *t)
{
	long long v = 0, mult = 1, tenths = -1;
	size_t n = t->len;

	if (!n || n > 14)
		return -1;
	switch (t->p[n - 1]) {
	case 'k': mult = 1LL << 10; n--; break;
	case 'm': mult = 1LL << 20; n--; break;
	case 'g': mult = 1LL << 30; n--; break;
	default: break;
	}
	if (n >= 3 && t->p[n - 2] == '.' && mult > 1 &&
	    isdigit((unsigned char)t->p[n - 1])) {
		tenths = t->p[n - 1] - '0';
		n -= 2;
	}
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)t->p[i]))
			return -1;
		if (v > (LLONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (t->p[i] - '0');
	}
	if (v > LLONG_MAX / mult - 1)
		return -1;
	v *= mult;
	if (tenths > 0)
		v += tenths * mult / 10;
	return v;
}

/* A ping-pong row: latency only. */
static bool ping_pong(const char *test, const struct table *t,
		      const struct line *tok, size_t n)
{
	if (strstr(test, "pingpong"))
		return true;
	for (size_t i = 0; i < n; i++)
		if (t->cols[i] == COL_NAME && tok[i].len >= 4 &&
		    !memcmp(tok[i].p + tok[i].len - 4, "_lat", 4))
			return true;
	return false;
}

/* A data row of t: as many fields as the header, the numbers where the
 * header says so.  Fills the row fact's fields into f when f is given. */
static bool row(struct emit *e, struct fact *f, const char *test,
		const struct table *t, const struct line *ln)
{
	struct line tok[COLUMNS_MAX + 1];
	size_t n = line_split(ln, tok, COLUMNS_MAX + 1);
	bool lat_only;
	double v;

	if (n != t->ncols)
		return false;
	lat_only = ping_pong(test, t, tok, n);
	for (size_t i = 0; i < n; i++) {
		long long size;

		switch (t->cols[i]) {
		case COL_BYTES:
			if ((size = size_of(&tok[i])) < 0)
				return false;
			if (f)
				emit_int(e, f, "msg_size", size, ln);
			break;
		case COL_MBPS:
		case COL_GBPS:
		case COL_USEC:
			if (!line_number(&tok[i], &v) || !isfinite(v) ||
			    v < 0)
				return false;
			if (!f)
				break;
			if (t->cols[i] == COL_USEC)
				emit_num(e, f, "lat_typical_us", v, ln);
			else if (!lat_only)
				emit_num(e, f, "bw_avg_gbps",
					 t->cols[i] == COL_MBPS ? v * 8 / 1000 :
								  v,
					 ln);
			break;
		case COL_NAME:
		case COL_OTHER:
			break;
		}
	}
	return true;
}

static void emit_row(struct emit *e, const char *kind, const char *test,
		     const char *domain, const struct table *t,
		     const struct line *ln)
{
	struct fact *f = emit_begin(e, kind, ln);

	emit_str(e, f, "test", test, strlen(test), ln);
	if (domain && domain[0])
		emit_str(e, f, "hca", domain, strnlen(domain, 64), ln);
	row(e, f, test, t, ln);
	emit_end(e, f);
}

int parse_fabtests(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	/* the program the block's command ran names the test */
	const char *test = e->command ? e->command : "fabtests";
	struct table t = { { COL_OTHER }, 0 };
	struct line last = { 0 };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);
		struct table h;

		if (header(&ln, &h)) {
			if (last.p)
				emit_row(e, "perftest", test, arg, &t, &last);
			t = h;
			last = (struct line){ 0 };
			continue;
		}
		if (t.ncols && row(e, NULL, test, &t, &ln)) {
			emit_row(e, "perftest_row", test, arg, &t, &ln);
			last = ln;
		}
	}
	if (last.p)
		emit_row(e, "perftest", test, arg, &t, &last);
	return (int)(e->nfacts - before);
}
