/* The device files of /dev/infiniband as ls prints them: "ls -l" (a
 * character device per line: "crw-rw-rw- 1 root root 231, 192 Mar 22 10:47
 * uverbs0"), plain "ls" (names in columns), and "ls /dev/infiniband/umad*"
 * (full paths).  Each name becomes a devnode fact. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

#define DEVNODE_DIR "/dev/infiniband/"
#define DEVNODE_TOKENS 32 /* @@ names of one line read */

/* The files the RDMA core creates there, a stem and whether a number
 * follows it: ib_uverbs' "uverbs%d" (drivers/infiniband/core/uverbs_main.c),
 * ib_umad's "umad%d" and "issm%d" (user_mad.c), rdma_ucm's misc device
 * "rdma_cm" (ucma.c), the old ib_ucm's "ucm%d" (ucm.c, gone in 5.3). */
static const struct {
	const char *stem;
	bool numbered;
} devnodes[] = {
	{ "uverbs", true }, { "umad", true }, { "issm", true },
	{ "rdma_cm", false }, { "ucm", true },
};

static bool devnode_name(const struct line *w)
{
	for (size_t i = 0; i < ARRAY_SIZE(devnodes); i++) {
		size_t n = strlen(devnodes[i].stem), j;

		if (w->len < n || memcmp(w->p, devnodes[i].stem, n))
			continue;
		if (!devnodes[i].numbered) {
			if (w->len == n)
				return true;
			continue;
		}
		for (j = n; j < w->len && isdigit((unsigned char)w->p[j]); j++)
			;
		if (j > n && j == w->len)
			return true;
	}
	return false;
}

/* The name a word gives: itself, or what follows DEVNODE_DIR in a path. */
static bool word_name(struct line w, struct line *name)
{
	size_t dir = strlen(DEVNODE_DIR);

	if (w.len > dir && !memcmp(w.p, DEVNODE_DIR, dir)) {
		w.p += dir;
		w.len -= dir;
	}
	*name = w;
	return devnode_name(&w);
}

/* ls -l of a character device: the mode "crw-rw-rw-" (perhaps with '.' or
 * '+' after it), then links, owner, group, "major," minor, the time, and
 * the name last. */
bool devnode_long_line(const struct line *ln)
{
	struct line w[DEVNODE_TOKENS], name;
	size_t n = line_split(ln, w, DEVNODE_TOKENS);

	if (n < 7 || (w[0].len != 10 && w[0].len != 11) || w[0].p[0] != 'c')
		return false;
	for (size_t i = 1; i < 10; i++)
		if (!strchr("rwxsStT-", w[0].p[i]))
			return false;
	return word_name(w[n - 1], &name);
}

/* Whether every word of ln is a device file's name or path; *paths
 * counts the paths. */
static bool all_names(const struct line *ln, size_t *paths)
{
	struct line w[DEVNODE_TOKENS], name;
	size_t n = line_split(ln, w, DEVNODE_TOKENS);

	*paths = 0;
	if (!n || n >= DEVNODE_TOKENS)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!word_name(w[i], &name))
			return false;
		*paths += name.p != w[i].p;
	}
	return true;
}

/* plain ls or a glob of paths: every word a device file's name, and two
 * of them or a path (a lone "rdma_cm" is as likely a module's name) */
bool devnode_names_line(const struct line *ln)
{
	struct line w[2];
	size_t paths;

	return all_names(ln, &paths) &&
	       (paths || line_split(ln, w, 2) >= 2);
}

static void emit_devnode(struct emit *e, const struct line *name,
			 const struct line *at)
{
	struct fact *f = emit_begin(e, "devnode", at);
	char path[128];
	int n = snprintf(path, sizeof(path), DEVNODE_DIR "%.*s",
			 (int)(name->len < 64 ? name->len : 64), name->p);

	emit_line(e, f, "name", name, at);
	emit_str(e, f, "path", path, (size_t)n, at);
	emit_end(e, f);
}

int parse_devnodes(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_unmark(raw), w[DEVNODE_TOKENS], name;
		size_t n = line_split(&ln, w, DEVNODE_TOKENS), paths;

		if (devnode_long_line(&ln)) {
			word_name(w[n - 1], &name);
			emit_devnode(e, &name, &ln);
		} else if (devnode_names_line(&ln) ||
			   (arg && all_names(&ln, &paths))) {
			/* under "ls /dev/infiniband", one name a line too */
			for (size_t i = 0; i < n; i++) {
				word_name(w[i], &name);
				emit_devnode(e, &name, &ln);
			}
		}
	}
	return (int)(e->nfacts - before);
}
