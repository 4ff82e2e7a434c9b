/* Collectors that read command outputs: ibstat, ethtool -i, modinfo. */
#include <string.h>

#include "collectors/collector.h"
#include "engine/xalloc.h"

/* At most this many interfaces get an ethtool -i each. */
#define ETHTOOL_MAX_IFACES 64 /* @@ */

/* Records a command fetch: its facts, or why there are none. */
static void note(struct col_status *st, const struct fetch *f, int facts,
		 const char *what, const char *what_plural)
{
	if (f->status == FETCH_OK && f->exit_code > 0 && !facts)
		col_status(st, FETCH_ERROR, "%s: %s", f->where,
			   f->detail ? f->detail : "failed");
	else if (f->status == FETCH_OK || f->status == FETCH_TRUNCATED)
		col_status(st, f->status, "%s: %d %s%s%s", f->where, facts,
			   facts == 1 ? what : what_plural,
			   f->detail ? ", " : "", f->detail ? f->detail : "");
	else
		col_status(st, f->status, "%s: %s", f->where,
			   f->detail ? f->detail : "unavailable");
}

void col_ibstat(struct col_ctx *c, struct col_status *st)
{
	struct fetch f;

	col_progress(c, "running ibstat");
	source_command(c->src, catalog_find("ibstat"), NULL, &f);
	if (f.status == FETCH_OK || f.status == FETCH_TRUNCATED)
		note(st, &f, col_parse(c, "ibstat", &f, NULL), "fact", "facts");
	else
		note(st, &f, 0, "fact", "facts");
	fetch_release(&f);
}

void col_ethtool(struct col_ctx *c, struct col_status *st)
{
	const struct command *cmd = catalog_find("ethtool_i");
	struct names items;
	int runs = 0;

	source_command_items(c->src, cmd, &items);
	for (size_t i = 0; i < items.n && runs < ETHTOOL_MAX_IFACES; i++) {
		struct fetch f;

		if (!strcmp(items.v[i], "lo") ||
		    !strcmp(items.v[i], "bonding_masters"))
			continue;
		col_progress(c, "running ethtool -i %s", items.v[i]);
		source_command(c->src, cmd, items.v[i], &f);
		if (f.status == FETCH_OK)
			note(st, &f, col_parse(c, "ethtool_i", &f, items.v[i]),
			     "fact", "facts");
		else
			note(st, &f, 0, "fact", "facts");
		fetch_release(&f);
		runs++;
	}
	if (!runs)
		col_status(st, FETCH_MISSING, "no ethtool -i output");
	names_release(&items);
}

void col_modinfo(struct col_ctx *c, struct col_status *st)
{
	const struct command *cmd = catalog_find("modinfo");
	struct names items;
	struct fetch f;

	if (!source_command(c->src, cmd, NULL, &f))
		note(st, &f, col_parse(c, "modinfo", &f, NULL), "module",
		     "modules");
	else
		col_status(st, FETCH_MISSING,
			   "no modinfo output in the bundle");
	fetch_release(&f);
	source_command_items(c->src, cmd, &items);
	for (size_t i = 0; i < items.n; i++) {
		if (!source_command(c->src, cmd, items.v[i], &f))
			note(st, &f, col_parse(c, "modinfo", &f, items.v[i]),
			     "module", "modules");
		fetch_release(&f);
	}
	names_release(&items);
}
