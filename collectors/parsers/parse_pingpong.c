/* The libibverbs pingpong examples (ibv_rc_pingpong, ibv_ud_pingpong,
 * ...): "local address:" and "remote address:" lines, then
 * "8192000 bytes in 0.01 seconds = 8635.66 Mbit/sec" and
 * "1000 iters in 0.01 seconds = 7.59 usec/iter", or a failure line. */
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

#define PINGPONG_TOKENS 16 /* @@ words read from a command line */

static const char *const tools[] = {
	"ibv_rc_pingpong",  "ibv_uc_pingpong",	 "ibv_ud_pingpong",
	"ibv_srq_pingpong", "ibv_xsrq_pingpong",
};

/* What the examples print when a step fails. */
static const char *const failures[] = {
	"Failed to ",	  "Couldn't ",	     "Could not ",
	"IB device ",	  "No IB devices",   "Completion for unknown",
	"Failed status ", "parse WC failed", "Unable to ",
	"client read",	  "client write",    "server read",
	"server write",	  "Error ",
};

struct pingpong {
	char test[32];
	struct line test_line, dev, dev_line, bw_line, lat_line, error;
	struct line remote; /* the "remote address:" line */
	bool local; /* the "local address:" line was printed */
	double bytes, mbit, iters, usec;
};

/* "ibv_rc_pingpong -d mlx5_0 -g 3 host": the tool and its -d device. */
static void command_line(struct pingpong *p, const struct line *ln)
{
	struct line tok[PINGPONG_TOKENS];
	size_t n = line_split(ln, tok, PINGPONG_TOKENS);

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < ARRAY_SIZE(tools); k++) {
			size_t tl = strlen(tools[k]);

			if (tok[i].len < tl ||
			    memcmp(tok[i].p + tok[i].len - tl, tools[k], tl))
				continue;
			if (!p->test_line.p) {
				snprintf(p->test, sizeof(p->test), "%s",
					 tools[k]);
				p->test_line = *ln;
			}
			for (size_t j = i + 1; j + 1 < n; j++)
				if ((line_eq(&tok[j], "-d") ||
				     line_eq(&tok[j], "--ib-dev")) &&
				    !p->dev.p) {
					p->dev = tok[j + 1];
					p->dev_line = *ln;
				}
			return;
		}
}

static void result_line(struct pingpong *p, const struct line *ln)
{
	char buf[128];
	double a, b, c;

	line_copy(ln, buf, sizeof(buf));
	if (sscanf(buf, "%lf bytes in %lf seconds = %lf Mbit/sec", &a, &b,
		   &c) == 3) {
		p->bytes = a;
		p->mbit = c;
		p->bw_line = *ln;
	} else if (sscanf(buf, "%lf iters in %lf seconds = %lf usec/iter", &a,
			  &b, &c) == 3) {
		p->iters = a;
		p->usec = c;
		p->lat_line = *ln;
	}
}

static void emit_result(struct emit *e, struct pingpong *p)
{
	/* both addresses and nothing after: the run was cut or never
	 * ended (the examples print the result only once every iteration
	 * completed), which is itself what the output shows */
	const struct line *at = p->bw_line.p  ? &p->bw_line :
				p->lat_line.p ? &p->lat_line :
				p->error.p    ? &p->error :
						&p->remote;
	struct fact *f;

	if (!at->p)
		return;
	f = emit_begin(e, "perftest", at);
	emit_str(e, f, "test", p->test, strlen(p->test),
		 p->test_line.p ? &p->test_line : at);
	if (p->dev.p)
		emit_line(e, f, "hca", &p->dev,
			  p->dev_line.p ? &p->dev_line : at);
	if (p->bw_line.p)
		emit_num(e, f, "bw_avg_gbps", p->mbit / 1000, &p->bw_line);
	if (p->lat_line.p)
		emit_num(e, f, "lat_typical_us", p->usec, &p->lat_line);
	/* The examples count each message twice (sent and received):
	 * bytes = size * iters * 2. */
	if (p->bw_line.p && p->lat_line.p && p->iters >= 1 &&
	    p->bytes / (2 * p->iters) < 1e12)
		emit_int(e, f, "msg_size", (int64_t)(p->bytes / (2 * p->iters)),
			 &p->bw_line);
	if (p->error.p)
		emit_line(e, f, "error", &p->error, &p->error);
	emit_end(e, f);
}

/* The -d device as an hca fact once the example printed its "local
 * address:" line: rc_pingpong.c and its siblings (rdma-core
 * libibverbs/examples) print it only after the device was found by name
 * ("IB device %s not found" otherwise), opened ("Couldn't get context")
 * and its port queried.  Cited from the command line that names it. */
static void emit_device(struct emit *e, const struct pingpong *p)
{
	struct fact *f;

	if (!p->local || !p->dev.p || !p->dev.len || p->dev.len >= 64 ||
	    !p->dev_line.p)
		return;
	f = emit_begin(e, "hca", &p->dev_line);
	emit_line(e, f, "name", &p->dev, &p->dev_line);
	emit_end(e, f);
}

/* Whether name is one of the examples. */
static bool pingpong_tool(const char *name)
{
	for (size_t k = 0; k < ARRAY_SIZE(tools); k++)
		if (!strcmp(name, tools[k]))
			return true;
	return false;
}

/* arg is the -d device of the command line above the output, and
 * e->command its program, when a paste shows them. */
int parse_pingpong(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	struct pingpong p = { .test = "ibv_rc_pingpong" };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	if (e->command && pingpong_tool(e->command))
		snprintf(p.test, sizeof(p.test), "%s", e->command);
	if (arg && arg[0] && strlen(arg) < 64)
		p.dev = (struct line){ arg, strlen(arg), 0 };
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);

		if (line_contains(&ln, "pingpong"))
			command_line(&p, &ln);
		result_line(&p, &ln);
		/* a device from the command line is cited where the
		 * example shows it opened it */
		if (!p.local && line_starts(&ln, "local address:") &&
		    p.dev.p && !p.dev_line.p)
			p.dev_line = ln;
		p.local = p.local || line_starts(&ln, "local address:");
		if (p.local && !p.remote.p &&
		    line_starts(&ln, "remote address:"))
			p.remote = ln;
		for (size_t i = 0; i < ARRAY_SIZE(failures) && !p.error.p; i++)
			if (line_starts(&ln, failures[i]))
				p.error = ln;
	}
	emit_result(e, &p);
	emit_device(e, &p);
	return (int)(e->nfacts - before);
}

