/* The site parsers' collector: the output of each command an overlay's
 * declarative parser names, run on a live host (argv only, no shell, with
 * the parser's timeout) or found in a bundle, read with that parser. */
#include <string.h>

#include "collectors/collector.h"
#include "collectors/parsers/dparse.h"
#include "collectors/sources/catalog.h"
#include "engine/xalloc.h"

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

bool col_site_parser(struct col_ctx *c, const struct dparse *p,
		     struct col_status *st)
{
	struct command cmd;
	struct names items;
	struct fetch f;

	if (!site_command(p, &cmd))
		return false;
	if (source_is_live(c->src) && !cmd.argv[0])
		return false;
	col_progress(c, "running %s", dparse_name(p));
	source_command_timed(c->src, &cmd, NULL, dparse_timeout_ms(p), &f);
	parse_fetched(c, p, &f, st);
	fetch_release(&f);
	if (source_is_live(c->src))
		return true;
	/* sos writes one file per port ("sminfo_-C_mlx5_0_-P_1") */
	source_command_items(c->src, &cmd, &items);
	for (size_t i = 0; i < items.n; i++) {
		if (!source_command(c->src, &cmd, items.v[i], &f))
			parse_fetched(c, p, &f, st);
		fetch_release(&f);
	}
	names_release(&items);
	return true;
}
