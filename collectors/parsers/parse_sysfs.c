/* Files of /sys/class/infiniband as a paste shows them: the value alone,
 * with its path on the command line (cat .../mlx5_0/ports/1/state gives
 * "4: ACTIVE"), or "path:value" lines (grep . .../ports/N/state).  The
 * path names the device, the port and the attribute. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/ib_link.h"
#include "collectors/parsers/port_state.h"
#include "engine/xalloc.h"

#define SYSFS_CLASS "/sys/class/infiniband/"

enum decode { RAW, PORT_STATE, PHYS_STATE, RATE, HEX_INT, NODE_TYPE };

/* The attributes read (Linux Documentation/ABI/stable/sysfs-class-infiniband)
 * and the field each fills; port attributes live under ports/N/. */
static const struct {
	const char *file;
	bool port;
	const char *field;
	enum decode how;
} attrs[] = {
	{ "state", true, "state", PORT_STATE },
	{ "phys_state", true, "phys_state", PHYS_STATE },
	{ "rate", true, "rate_gbps", RATE },
	{ "link_layer", true, "link_layer", RAW },
	{ "lid", true, "lid", HEX_INT },
	{ "sm_lid", true, "sm_lid", HEX_INT },
	{ "fw_ver", false, "fw_ver", RAW },
	{ "board_id", false, "psid", RAW },
	{ "hca_type", false, "model", RAW },
	{ "hw_rev", false, "hw_ver", RAW },
	{ "node_guid", false, "node_guid", RAW },
	{ "node_type", false, "node_type", NODE_TYPE },
};

struct where {
	char dev[64];
	unsigned port; /* 0 for a device attribute */
	int attr; /* attrs[] index, -1 */
};

/* Reads ".../infiniband/mlx5_0/ports/1/state" into w. */
static bool sysfs_path(const char *p, size_t n, struct where *w)
{
	const char *at = memmem(p, n, SYSFS_CLASS, strlen(SYSFS_CLASS)), *end;
	char rest[256], *slash, *file;

	memset(w, 0, sizeof(*w));
	w->attr = -1;
	if (!at)
		return false;
	at += strlen(SYSFS_CLASS);
	end = p + n;
	snprintf(rest, sizeof(rest), "%.*s", (int)(end - at), at);
	if (strpbrk(rest, "*?[ "))
		return false;
	slash = strchr(rest, '/');
	if (!slash || slash == rest || (size_t)(slash - rest) >= sizeof(w->dev))
		return false;
	snprintf(w->dev, sizeof(w->dev), "%.*s", (int)(slash - rest), rest);
	file = slash + 1;
	if (!strncmp(file, "ports/", 6)) {
		char *num_end;

		w->port = (unsigned)strtoul(file + 6, &num_end, 10);
		if (!w->port || *num_end != '/')
			return false;
		file = num_end + 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++)
		if (!strcmp(attrs[i].file, file) &&
		    attrs[i].port == (w->port != 0))
			w->attr = (int)i;
	return w->attr >= 0;
}

static void emit_attr_value(struct emit *e, const struct where *w,
			    const struct line *v, const struct line *ln)
{
	const char *s;
	struct ib_link_rate r;
	struct fact *f = emit_begin(e, w->port ? "port" : "hca", ln);
	const char *field = attrs[w->attr].field;

	if (w->port) {
		emit_str(e, f, "hca", w->dev, strlen(w->dev), ln);
		emit_int(e, f, "port", w->port, ln);
	} else {
		emit_str(e, f, "name", w->dev, strlen(w->dev), ln);
	}
	switch (attrs[w->attr].how) {
	case PORT_STATE:
		if ((s = port_state_norm(v->p, v->len)))
			emit_str(e, f, field, s, strlen(s), ln);
		break;
	case PHYS_STATE:
		if ((s = phys_state_norm(v->p, v->len)))
			emit_str(e, f, field, s, strlen(s), ln);
		break;
	case RATE:
		if (ib_link_rate_parse(v->p, v->len, &r)) {
			emit_num(e, f, field, r.gbps, ln);
			if (r.width[0])
				emit_str(e, f, "width", r.width,
					 strlen(r.width), ln);
			if (r.speed[0])
				emit_str(e, f, "speed", r.speed,
					 strlen(r.speed), ln);
		}
		break;
	case HEX_INT: {
		char buf[24], *end;
		long x;

		line_copy(v, buf, sizeof(buf));
		x = strtol(buf, &end, 0);
		if (end != buf && !*end && x >= 0)
			emit_int(e, f, field, x, ln);
		break;
	}
	case NODE_TYPE: /* "1: CA" */
		s = memchr(v->p, ':', v->len);
		if (s) {
			struct line t = line_trim((struct line){
				s + 1, (size_t)(v->p + v->len - s - 1),
				v->no });

			emit_line(e, f, field, &t, ln);
		}
		break;
	case RAW:
		emit_line(e, f, field, v, ln);
		break;
	}
	emit_end(e, f);
}

bool sysfs_value_line(const struct line *ln)
{
	struct where w;

	return sysfs_path(ln->p, ln->len, &w);
}

int parse_sysfs_attr(struct emit *e, const char *text, size_t len,
		     const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	struct where named;
	bool have = arg && sysfs_path(arg, strlen(arg), &named);

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);
		const char *colon;
		struct where w;

		if (!ln.len)
			continue;
		/* "/sys/class/infiniband/mlx5_0/ports/1/state:4: ACTIVE" */
		colon = line_starts(&ln, SYSFS_CLASS) ?
				memchr(ln.p, ':', ln.len) :
				NULL;
		if (colon && sysfs_path(ln.p, (size_t)(colon - ln.p), &w)) {
			struct line v = line_trim((struct line){
				colon + 1, (size_t)(ln.p + ln.len - colon - 1),
				ln.no });

			emit_attr_value(e, &w, &v, &ln);
		} else if (have) {
			emit_attr_value(e, &named, &ln, &ln);
			have = false; /* one file, one value */
		}
	}
	return (int)(e->nfacts - before);
}
