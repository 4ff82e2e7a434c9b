/* UCX log lines ("[1668693503.473099] [host:pid:thread] ib_log.c:246 UCX
 * ERROR mlx5_0: ibv_create_cq() failed: ..."): errors and warnings
 * become tool_error facts, and the locked-memory limit UCX reports
 * ("max locked memory (ulimit -l) ... (current: 64 kbytes)") becomes the
 * application's limits fact, which a shell's ulimit may not show. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

static const char *const levels[] = { " UCX  ERROR ", " UCX  WARN ",
				      " UCX ERROR ", " UCX WARN " };

/* The message after the level, or false when ln is not a UCX line
 * (which starts with its "[seconds.usec]" timestamp). */
static bool ucx_message(const struct line *ln, struct line *msg)
{
	if (!line_starts(ln, "[") || ln->len < 3 ||
	    !isdigit((unsigned char)ln->p[1]))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(levels); i++) {
		size_t k = strlen(levels[i]);
		const char *at = memmem(ln->p, ln->len, levels[i], k);

		if (!at)
			continue;
		*msg = line_trim((struct line){
			at + k, (size_t)(ln->p + ln->len - at - k), ln->no });
		return msg->len > 0;
	}
	return false;
}

/* "(current: 64 kbytes)" -> 64; "(current: unlimited)" -> -1. */
static bool current_memlock(const struct line *msg, int64_t *kb)
{
	const char *at = memmem(msg->p, msg->len, "(current: ", 10);
	char buf[48], unit[16];
	long long n;

	if (!at || !line_contains(msg, "locked memory"))
		return false;
	line_copy(&(struct line){ at + 10,
				  (size_t)(msg->p + msg->len - at - 10),
				  msg->no },
		  buf, sizeof(buf));
	if (!strncmp(buf, "unlimited", 9)) {
		*kb = -1;
		return true;
	}
	if (sscanf(buf, "%18lld %15[a-z]", &n, unit) != 2 || n < 0)
		return false;
	if (!strcmp(unit, "kbytes") || !strcmp(unit, "kb"))
		*kb = n;
	else if (!strcmp(unit, "bytes"))
		*kb = n / 1024;
	else
		return false;
	return true;
}

int parse_ucx_log(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), msg;
		struct fact *f;
		int64_t kb;

		if (!ucx_message(&ln, &msg))
			continue;
		f = emit_begin(e, "tool_error", &ln);
		emit_str(e, f, "tool", "ucx", 3, &ln);
		emit_line(e, f, "message", &msg, &ln);
		emit_end(e, f);
		if (!current_memlock(&msg, &kb))
			continue;
		f = emit_begin(e, "limits", &ln);
		emit_str(e, f, "scope", "application", 11, &ln);
		emit_int(e, f, "memlock_kb", kb, &ln);
		emit_end(e, f);
	}
	return (int)(e->nfacts - before);
}

bool ucx_log_line(const struct line *ln)
{
	struct line msg;

	return ucx_message(ln, &msg);
}
