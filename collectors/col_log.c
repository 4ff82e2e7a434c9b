/* The kernel log collector: one kernel log per host, chosen by how much
 * history it holds (the journal, then /var/log/messages and its kin with
 * their rotations, then dmesg), so that signature counts are not doubled
 * by reading the same lines twice. */
#include <stdlib.h>
#include <string.h>

#include "collectors/sources/archive.h"
#include "collectors/collector.h"
#include "engine/xalloc.h"

#define LOG_ROTATIONS_MAX 8 /* @@ rotated files read per family */

/* Parses a log fetch, for kernel lines and for application error lines;
 * compressed rotations are decompressed first. */
static int parse(struct col_ctx *c, struct fetch *f)
{
	const unsigned char *p = (const unsigned char *)f->data;

	if (f->len >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
		char err[160], *plain;
		size_t len;

		if (archive_decompress(f->data, f->len, 256u << 20, &plain,
				       &len, err, sizeof(err)))
			return -1;
		fetch_replace(f, plain, len);
	}
	/* Applications write there too (services through syslog and the
	 * journal; Lustre's o2iblnd in the kernel log itself). */
	return col_parse(c, "dmesg", f, NULL) + col_parse(c, "app_log", f, NULL);
}

static void note(struct col_status *st, struct fetch *f, int facts)
{
	col_status(st, f->status, "%s: %d facts%s%s", f->where, facts,
		   f->detail ? ", " : "", f->detail ? f->detail : "");
}

/* Whether a journal holds only journalctl's own word that it has no
 * entries ("-- No entries --", "No journal files were found."). */
static bool journal_empty(const struct fetch *f)
{
	static const char *const said[] = { "-- No entries --",
					    "No journal files were found" };
	const char *p = f->data, *end = f->data + f->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		bool known = !n || (n == 1 && *p == '\r');

		for (size_t i = 0; i < ARRAY_SIZE(said) && !known; i++)
			known = n >= strlen(said[i]) &&
				!memcmp(p, said[i], strlen(said[i]));
		if (!known)
			return false;
		p = nl ? nl + 1 : end;
	}
	return true;
}

static bool journal(struct col_ctx *c, struct col_status *st)
{
	const struct command *cmd = catalog_find("journal");
	struct fetch f;

	if (source_is_live(c->src))
		return false;
	if (source_command(c->src, cmd, NULL, &f) || journal_empty(&f)) {
		fetch_release(&f);
		return false;
	}
	col_progress(c, "scanning %s", f.where);
	note(st, &f, parse(c, &f));
	fetch_release(&f);
	return true;
}

/* /var/log/<family> and its rotations (family.1, family-20240301,
 * family.2.gz, ...). */
static bool var_log(struct col_ctx *c, struct col_status *st)
{
	struct names ls;
	bool any = false;

	if (source_list(c->src, "/var/log", &ls)) {
		names_release(&ls);
		return false;
	}
	for (size_t fam = 0; catalog_log_family(fam); fam++) {
		const char *family = catalog_log_family(fam);
		size_t len = strlen(family), read = 0;

		for (size_t i = ls.n; i-- > 0 && read < LOG_ROTATIONS_MAX;) {
			char *path;
			struct fetch f;

			if (strncmp(ls.v[i], family, len) ||
			    (ls.v[i][len] && !strchr(".-", ls.v[i][len])))
				continue;
			path = xasprintf("/var/log/%s", ls.v[i]);
			col_progress(c, "scanning %s", path);
			if (!source_read(c->src, path, 0, &f)) {
				note(st, &f, parse(c, &f));
				any = true;
				read++;
			}
			fetch_release(&f);
			free(path);
		}
		if (any)
			break;
	}
	names_release(&ls);
	return any;
}

static bool dmesg(struct col_ctx *c, struct col_status *st)
{
	struct fetch f;

	col_progress(c, "reading the kernel log (dmesg)");
	source_command(c->src, catalog_find("dmesg"), NULL, &f);
	if (f.status == FETCH_MISSING) {
		fetch_release(&f);
		return false;
	}
	if (f.status == FETCH_OK && f.exit_code > 0) {
		col_status(st, FETCH_ERROR, "%s: %s", f.where,
			   f.detail ? f.detail : "failed");
		fetch_release(&f);
		return false;
	}
	note(st, &f, parse(c, &f));
	fetch_release(&f);
	return true;
}

void col_kernel_log(struct col_ctx *c, struct col_status *st)
{
	if (source_is_live(c->src)) {
		if (!dmesg(c, st))
			var_log(c, st);
	} else if (!journal(c, st) && !var_log(c, st)) {
		dmesg(c, st);
	}
	if (!st->seen)
		col_status(st, FETCH_MISSING,
			   "no kernel log (dmesg, journal or /var/log)");
}
