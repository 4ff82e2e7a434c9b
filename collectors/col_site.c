/* The site parsers' collector: the output of each command an overlay's
 * declarative parser names, run on a live host (argv only, no shell, with
 * the parser's timeout) or found in a bundle, read with that parser. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/collector.h"
#include "collectors/parsers/dparse.h"
#include "collectors/sources/catalog.h"
#include "engine/xalloc.h"

#define DPARSE_BUNDLE_FILES_MAX 1024 /* files one pattern reads */

/* The catalog entry a parser describes (borrowing its words); false when
 * it names no command and no files. */
static bool site_command(const struct dparse *p, struct command *cmd)
{
	const char *const *argv = dparse_argv(p), *const *files = dparse_files(p);

	memset(cmd, 0, sizeof(*cmd));
	cmd->name = dparse_name(p);
	for (size_t i = 0; i < DPARSE_ARGV_MAX && argv[i]; i++)
		cmd->argv[i] = argv[i];
	for (size_t i = 0; i < DPARSE_FILES_MAX && files[i]; i++)
		cmd->files[i] = files[i];
	return cmd->argv[0] || cmd->files[0];
}

static void parse_fetched(struct col_ctx *c, const struct dparse *p,
			  struct fetch *f, struct col_status *st)
{
	struct emit e;
	int facts = 0;

	if (f->status == FETCH_OK || f->status == FETCH_TRUNCATED) {
		emit_init(&e, c->fb, f->where);
		facts = dparse_run(p, &e, f->data, f->len);
	}
	if (f->status == FETCH_OK && f->exit_code > 0 && !facts)
		col_status(st, FETCH_ERROR, "%s: %s", f->where,
			   f->detail ? f->detail : "failed");
	else if (f->status == FETCH_OK || f->status == FETCH_TRUNCATED)
		col_status(st, f->status, "%s: %d fact%s (parser %s)",
			   f->where, facts, facts == 1 ? "" : "s",
			   dparse_origin(p));
	else
		col_status(st, f->status, "%s: %s",
			   f->where ? f->where : dparse_name(p),
			   f->detail ? f->detail : "unavailable");
}

/* The bundle files that pattern (a path with '*' in its last part)
 * names, read one by one: sos names a per-port run by its whole command
 * line ("sminfo_-C_mlx5_0_-P_1"), which no item expands back to. */
static void read_matching(struct col_ctx *c, const struct dparse *p,
			  const char *pattern, struct col_status *st)
{
	const char *slash = strrchr(pattern, '/');
	char *dir = xasprintf("/%.*s", slash ? (int)(slash - pattern) : 0,
			      pattern);
	const char *base = slash ? slash + 1 : pattern;
	struct names ents;

	if (strchr(dir, '*') || source_list(c->src, dir, &ents)) {
		free(dir);
		return;
	}
	for (size_t i = 0; i < ents.n && i < DPARSE_BUNDLE_FILES_MAX; i++) {
		char *path;
		struct fetch f;

		if (fnmatch(base, ents.v[i], 0))
			continue;
		path = xasprintf("%s/%s", dir, ents.v[i]);
		if (!source_read(c->src, path, 0, &f))
			parse_fetched(c, p, &f, st);
		fetch_release(&f);
		free(path);
	}
	names_release(&ents);
	free(dir);
}

bool col_site_parser(struct col_ctx *c, const struct dparse *p,
		     struct col_status *st)
{
	const char *const *files = dparse_files(p);
	struct command cmd;
	struct fetch f;
	size_t n = 0;

	if (!site_command(p, &cmd))
		return false;
	if (source_is_live(c->src) && !cmd.argv[0])
		return false;
	/* the command (live, or a bundle's manifest) and its plain files */
	for (size_t i = 0; files[i]; i++)
		if (!strchr(files[i], '*'))
			cmd.files[n++] = files[i];
	for (size_t i = n; i < DPARSE_FILES_MAX; i++)
		cmd.files[i] = NULL;
	col_progress(c, "running %s", dparse_name(p));
	if (cmd.argv[0] || cmd.files[0]) {
		source_command_timed(c->src, &cmd, NULL, dparse_timeout_ms(p),
				     &f);
		if (f.status != FETCH_MISSING || !files[n])
			parse_fetched(c, p, &f, st);
		fetch_release(&f);
	}
	if (source_is_live(c->src))
		return true;
	for (size_t i = 0; files[i]; i++)
		if (strchr(files[i], '*'))
			read_matching(c, p, files[i], st);
	return true;
}
