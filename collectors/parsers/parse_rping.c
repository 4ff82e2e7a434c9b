/* rping (librdmacm/examples/rping.c): a ping over an rdma_cm connection.
 * With -d it traces each step ("created cm_id %p", "cma_event type %s
 * cma_id %p (%s)", "rdma_resolve_addr - rdma_resolve_route successful",
 * "ESTABLISHED", "send completion"), with -v it prints "ping data: %s";
 * a failed step prints "cma event %s, error %d", "cq completion failed
 * status %d" or "wait for <STATE> state %d".  The run is one perftest
 * fact of test rping, with the first failure before the peer disconnected
 * as its error. */
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

/* What rping prints when a step fails (rping.c fprintf(stderr, ...)). */
static const char *const failures[] = {
	"cma event RDMA_CM_EVENT_", "cq completion failed status ",
	"wait for ",		    "cma detected device removal",
	"Received bogus data",	    "post send error ",
	"post recv error ",	    "recv wc error",
	"rdma_buf reg_mr failed",   "send_buf reg_mr failed",
	"recv_buf reg_mr failed",   "start_buf reg_mr failed",
	"ibv_alloc_pd failed",	    "ibv_create_cq failed",
	"ibv_create_comp_channel failed",
};

/* Lines of a run that went through the connection's steps. */
static const char *const steps[] = {
	"cma_event type RDMA_CM_EVENT_",
	"rdma_resolve_addr - rdma_resolve_route successful",
	"ping data: ",
};

bool rping_line(const struct line *ln)
{
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
		if (line_starts(ln, steps[i]) ||
		    (i == 2 && line_contains(ln, " ping data: rdma-ping-")))
			return true;
	return false;
}

int parse_rping(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct line error = { 0 }, first = { 0 };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	struct fact *f;
	bool closed = false;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);

		if (!first.p && rping_line(&ln))
			first = ln;
		/* "server DISCONNECT EVENT...": the peer closed; the server's
		 * "wait for RDMA_READ_ADV state 10" after it is the end of
		 * every run, no failure */
		if (line_contains(&ln, "DISCONNECT EVENT"))
			closed = true;
		for (size_t i = 0; i < ARRAY_SIZE(failures) && !error.p &&
				   !closed;
		     i++)
			if (line_starts(&ln, failures[i]))
				error = ln;
	}
	if (!first.p && !error.p)
		return 0;
	f = emit_begin(e, "perftest", first.p ? &first : &error);
	emit_str(e, f, "test", "rping", 5, first.p ? &first : &error);
	if (error.p)
		emit_line(e, f, "error", &error, &error);
	emit_end(e, f);
	return (int)(e->nfacts - before);
}
