/* Commands in a source: run on the live host, or found in a bundle
 * through sos 4.x's manifest (read as a stream) or by the catalog's file
 * names. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/sources/catalog.h"
#include "collectors/sources/run.h"
#include "collectors/sources/snapshot.h"
#include "collectors/sources/source.h"
#include "collectors/sources/source_tree.h"
#include "engine/jscan.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

#define SOURCE_MAX_MANIFEST (64u << 20) /* @@ */

static char *cmdline(const struct command *cmd, const char *item)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; cmd->argv[i]; i++) {
		if (i)
			sb_putc(&sb, ' ');
		sb_puts(&sb, strcmp(cmd->argv[i], CATALOG_ITEM) ? cmd->argv[i] :
			     item				? item :
								  "");
	}
	return sb_detach(&sb);
}

static int run_live(struct source *s, const struct command *cmd,
		    const char *item, struct fetch *out)
{
	const char *argv[9];
	struct run_result r;
	char *line = cmdline(cmd, item);
	char *where = xasprintf("live: %s", line);
	size_t n = 0;
	int err;

	for (; cmd->argv[n] && n < 8; n++)
		argv[n] = strcmp(cmd->argv[n], CATALOG_ITEM) ? cmd->argv[n] :
							       item;
	argv[n] = NULL;
	err = run_command(argv, source_timeout_ms(s), source_max_read(s, 0), &r);
	if (err) {
		source_fail(out, FETCH_ERROR, where, strerror(-err));
		free(where);
		free(line);
		return err;
	}
	memset(out, 0, sizeof(*out));
	out->where = where;
	out->data = r.out;
	out->len = r.len;
	out->exit_code = r.status == RUN_OK ? r.exit_code : -1;
	if (s->rec && r.status != RUN_NOT_FOUND)
		snapshot_note_command(s->rec, line, r.out, r.len,
				      r.status == RUN_OK ? r.exit_code : -1);
	free(line);
	switch (r.status) {
	case RUN_OK:
		out->status = r.truncated ? FETCH_TRUNCATED : FETCH_OK;
		if (r.exit_code)
			out->detail =
				xasprintf("exited with status %d", r.exit_code);
		break;
	case RUN_NOT_FOUND:
		out->status = FETCH_MISSING;
		out->detail = xasprintf("'%s' is not installed (not in PATH)",
					cmd->argv[0]);
		break;
	case RUN_TIMEOUT:
		out->status = FETCH_TIMEOUT;
		out->detail =
			xasprintf("killed after %.1f s (timeout)", r.seconds);
		break;
	default:
		out->status = FETCH_ERROR;
		out->detail =
			r.signal ? xasprintf("killed by signal %d", r.signal) :
				   xasprintf("could not run: %s",
					     strerror(-r.exit_code));
		break;
	}
	return 0;
}

/* The bundle file for a command line, from sos 4.x's manifest. */
static const struct manifest_cmd *manifest_find(const struct source *s,
						const char *line)
{
	for (size_t i = 0; i < s->nmanifest; i++)
		if (!strcmp(s->manifest[i].exec, line))
			return &s->manifest[i];
	return NULL;
}

static char *expand(const char *pattern, const char *item)
{
	const char *star = strchr(pattern, '*');
	char *m, *r;

	if (!star)
		return xstrdup(pattern);
	if (!item)
		return NULL;
	m = catalog_mangle(item);
	r = xasprintf("%.*s%s%s", (int)(star - pattern), pattern, m, star + 1);
	free(m);
	return r;
}

int source_command(struct source *s, const struct command *cmd,
		   const char *item, struct fetch *out)
{
	const struct manifest_cmd *mc;
	char *line;
	int err;

	if (s->kind == SOURCE_LIVE)
		return run_live(s, cmd, item, out);
	line = cmdline(cmd, item);
	mc = manifest_find(s, line);
	if (mc) {
		err = source_read(s, mc->file, 0, out);
		if (!err && mc->timeout) {
			out->exit_code = -1;
			out->status = FETCH_TIMEOUT;
			free(out->detail);
			out->detail = xstrdup(
				"killed at the timeout when it was collected");
		} else if (!err) {
			out->exit_code = mc->rc;
			if (mc->rc && out->status == FETCH_OK && !out->detail)
				out->detail = xasprintf("exited with status %d",
							mc->rc);
		}
		free(line);
		return err;
	}
	for (size_t i = 0; i < 8 && cmd->files[i]; i++) {
		char *path = expand(cmd->files[i], item);

		if (!path || (!strchr(cmd->files[i], '*') && item)) {
			free(path);
			continue;
		}
		if (source_exists(s, path)) {
			err = source_read(s, path, 0, out);
			free(path);
			free(line);
			return err;
		}
		free(path);
	}
	source_fail(out, FETCH_MISSING, line,
		    s->kind == SOURCE_ROOT ?
			    "not run: --root trees hold files only" :
			    "not in the bundle");
	free(line);
	return -ENOENT;
}

/* Items of a command from the manifest: the last word of each command line
 * that starts with the command's words before the item. */
static void manifest_items(const struct source *s, const struct command *cmd,
			   struct names *out)
{
	struct strbuf prefix = STRBUF_INIT;

	for (size_t i = 0; cmd->argv[i] && strcmp(cmd->argv[i], CATALOG_ITEM);
	     i++)
		sb_printf(&prefix, "%s ", cmd->argv[i]);
	for (size_t i = 0; i < s->nmanifest && prefix.len; i++) {
		const char *exec = s->manifest[i].exec;

		if (!strncmp(exec, prefix.buf, prefix.len) &&
		    !strchr(exec + prefix.len, ' ') && exec[prefix.len])
			names_add(out, exec + prefix.len);
	}
	sb_release(&prefix);
}

int source_command_items(struct source *s, const struct command *cmd,
			 struct names *out)
{
	memset(out, 0, sizeof(*out));
	if (s->kind == SOURCE_LIVE)
		return cmd->items_dir ? source_list(s, cmd->items_dir, out) : 0;
	manifest_items(s, cmd, out);
	if (out->n) {
		names_sort(out);
		return 0;
	}
	for (size_t i = 0; i < 8 && cmd->files[i]; i++) {
		const char *star = strchr(cmd->files[i], '*');
		const char *slash = strrchr(cmd->files[i], '/');
		char *dir;
		struct names ents;

		if (!star || (slash && slash > star))
			continue;
		dir = slash ? xstrndup(cmd->files[i],
				       (size_t)(slash - cmd->files[i])) :
			      xstrdup("");
		if (!source_list(s, dir, &ents)) {
			const char *pre = slash ? slash + 1 : cmd->files[i];
			size_t np = (size_t)(star - pre), ns = strlen(star + 1);

			for (size_t k = 0; k < ents.n; k++) {
				size_t n = strlen(ents.v[k]);
				char *it;

				if (n <= np + ns ||
				    strncmp(ents.v[k], pre, np) ||
				    strcmp(ents.v[k] + n - ns, star + 1))
					continue;
				it = xstrndup(ents.v[k] + np, n - np - ns);
				names_add(out, it);
				free(it);
			}
		}
		names_release(&ents);
		free(dir);
		if (out->n)
			break;
	}
	names_sort(out);
	return 0;
}

static void manifest_add(struct source *s, const char *exec, const char *file,
			 int rc, bool timeout)
{
	xgrow(&s->manifest, &s->capmanifest, s->nmanifest + 1,
	      sizeof(*s->manifest));
	s->manifest[s->nmanifest].exec = xstrdup(exec);
	s->manifest[s->nmanifest].file = xstrdup(file);
	s->manifest[s->nmanifest].rc = rc;
	s->manifest[s->nmanifest].timeout = timeout;
	s->nmanifest++;
}

static const char *next_key(struct jscan *j)
{
	size_t len;

	return jscan_key(j, &len);
}

/* The next string ("" when it is not one: the reader has failed). */
static const char *next_string(struct jscan *j)
{
	size_t len;
	const char *str = jscan_string(j, &len);

	return str ? str : "";
}

/* Enters the member key of the object that comes next, reading past the
 * others; false when it is not there. */
static bool scan_to(struct jscan *j, const char *key)
{
	const char *k;

	if (jscan_peek(j) != JSCAN_OBJECT || jscan_object(j))
		return false;
	while ((k = next_key(j))) {
		if (!strcmp(k, key))
			return true;
		if (jscan_skip(j))
			return false;
	}
	return false;
}

/* One commands[] item: {exec, filepath, return_code, rdmadoctor_status}. */
static void scan_command(struct source *s, struct jscan *j)
{
	char *exec = NULL, *file = NULL;
	int64_t rc = 0;
	bool timeout = false;
	const char *k;

	if (jscan_peek(j) != JSCAN_OBJECT) {
		jscan_skip(j);
		return;
	}
	jscan_object(j);
	while ((k = next_key(j))) {
		enum jscan_type t = jscan_peek(j);
		bool is_int;
		double dbl;

		if (!strcmp(k, "exec") && t == JSCAN_STRING) {
			free(exec);
			exec = xstrdup(next_string(j));
		} else if (!strcmp(k, "filepath") && t == JSCAN_STRING) {
			free(file);
			file = xstrdup(next_string(j));
		} else if (!strcmp(k, "return_code") && t == JSCAN_NUMBER) {
			jscan_number(j, &is_int, &rc, &dbl);
			if (!is_int)
				rc = (int64_t)dbl;
		} else if (!strcmp(k, "rdmadoctor_status") &&
			   t == JSCAN_STRING) {
			timeout = !strcmp(next_string(j), "timeout");
		} else if (jscan_skip(j)) {
			break;
		}
	}
	if (exec && file)
		manifest_add(s, exec, file,
			     rc < INT32_MIN || rc > INT32_MAX ? -1 : (int)rc,
			     timeout);
	free(exec);
	free(file);
}

/* One plugin: its commands[], the rest read past. */
static void scan_plugin(struct source *s, struct jscan *j)
{
	const char *k;

	if (jscan_peek(j) != JSCAN_OBJECT) {
		jscan_skip(j);
		return;
	}
	jscan_object(j);
	while ((k = next_key(j))) {
		if (!strcmp(k, "commands") && jscan_peek(j) == JSCAN_ARRAY) {
			jscan_array(j);
			while (jscan_item(j))
				scan_command(s, j);
		} else if (jscan_skip(j)) {
			return;
		}
	}
}

/* sos 4.x: components.report.plugins.<name>.commands[].{exec, filepath,
 * return_code}, read as a stream (engine/jscan): what is not a command is
 * read past, never built into a tree, so memory follows the commands
 * kept and not the document's size or shape. */
void source_load_manifest(struct source *s, struct diag *d)
{
	struct jscan j;
	struct fetch f;

	if (source_read(s, "sos_reports/manifest.json", SOURCE_MAX_MANIFEST,
		      &f)) {
		fetch_release(&f);
		return;
	}
	jscan_init(&j, f.data, f.len);
	if (jscan_peek(&j) != JSCAN_OBJECT) {
		diag_at(d, DIAG_WARNING, f.where, 0, 0, NULL,
			"cannot parse sos manifest (not a JSON object); finding outputs by file name");
		goto out;
	}
	if (scan_to(&j, "components") && scan_to(&j, "report") &&
	    scan_to(&j, "plugins") && jscan_peek(&j) == JSCAN_OBJECT &&
	    !jscan_object(&j))
		while (!jscan_failed(&j) && next_key(&j))
			scan_plugin(s, &j);
	if (jscan_failed(&j))
		diag_at(d, DIAG_WARNING, f.where, 0, 0, NULL,
			"cannot parse sos manifest (not JSON, or nested too deep, at byte %zu); finding outputs by file name",
			jscan_offset(&j, f.data));
out:
	jscan_release(&j);
	fetch_release(&f);
}
