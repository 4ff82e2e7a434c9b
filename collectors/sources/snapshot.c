/* Recording reads and writing them as a snapshot bundle. */
#include "collectors/sources/snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collectors/sources/archive.h"
#include "collectors/sources/catalog.h"
#include "engine/json.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

#define SNAPSHOT_DIR "sos_commands/rdmadoctor"

struct entry {
	char *path;
	enum archive_member_type type;
	char *data;
	size_t len;
	char *link;
};

struct command_note {
	char *exec;
	char *file;
	int rc;
};

struct snapshot {
	struct entry *entries;
	size_t n, cap;
	struct command_note *cmds;
	size_t ncmds, capcmds;
};

struct snapshot *snapshot_new(void)
{
	return xcalloc(1, sizeof(struct snapshot));
}

void snapshot_free(struct snapshot *snap)
{
	if (!snap)
		return;
	for (size_t i = 0; i < snap->n; i++) {
		free(snap->entries[i].path);
		free(snap->entries[i].data);
		free(snap->entries[i].link);
	}
	for (size_t i = 0; i < snap->ncmds; i++) {
		free(snap->cmds[i].exec);
		free(snap->cmds[i].file);
	}
	free(snap->entries);
	free(snap->cmds);
	free(snap);
}

static struct entry *find(struct snapshot *snap, const char *path)
{
	for (size_t i = snap->n; i-- > 0;)
		if (!strcmp(snap->entries[i].path, path))
			return &snap->entries[i];
	return NULL;
}

/* Adds or replaces an entry; a directory never replaces anything. */
static struct entry *put(struct snapshot *snap, const char *path,
			 enum archive_member_type type)
{
	struct entry *e = find(snap, path);

	if (e && type == ARCHIVE_DIR)
		return NULL;
	if (!e) {
		xgrow(&snap->entries, &snap->cap, snap->n + 1,
		      sizeof(*snap->entries));
		e = &snap->entries[snap->n++];
		memset(e, 0, sizeof(*e));
		e->path = xstrdup(path);
	}
	free(e->data);
	free(e->link);
	e->data = e->link = NULL;
	e->len = 0;
	e->type = type;
	return e;
}

void snapshot_note_dir(struct snapshot *snap, const char *rel)
{
	if (*rel)
		put(snap, rel, ARCHIVE_DIR);
}

void snapshot_note_link(struct snapshot *snap, const char *rel,
			const char *target)
{
	struct entry *e = put(snap, rel, ARCHIVE_SYMLINK);

	e->link = xstrdup(target);
}

void snapshot_note_file(struct snapshot *snap, const char *rel,
			const char *data, size_t len)
{
	struct entry *e = put(snap, rel, ARCHIVE_FILE);

	e->data = xmalloc(len + 1);
	memcpy(e->data, data, len);
	e->data[len] = '\0';
	e->len = len;
}

void snapshot_add(struct snapshot *snap, const char *name, const char *data,
		  size_t len)
{
	char *path = xasprintf(SNAPSHOT_DIR "/%s", name);

	snapshot_note_file(snap, path, data, len);
	free(path);
}

void snapshot_note_command(struct snapshot *snap, const char *cmdline,
			   const char *out, size_t len, int exit_code)
{
	char *name = catalog_mangle(cmdline);
	char *path = xasprintf(SNAPSHOT_DIR "/%s", name);
	struct command_note *c;

	snapshot_note_file(snap, path, out, len);
	xgrow(&snap->cmds, &snap->capcmds, snap->ncmds + 1,
	      sizeof(*snap->cmds));
	c = &snap->cmds[snap->ncmds++];
	c->exec = xstrdup(cmdline);
	c->file = path;
	c->rc = exit_code;
	free(name);
}

/* sos 4.x's manifest, with the commands collect ran (exit code -1: killed
 * at the timeout). */
static char *manifest(const struct snapshot *snap)
{
	struct json *root = json_new_object(), *comp = json_new_object();
	struct json *report = json_new_object(), *plugins = json_new_object();
	struct json *plugin = json_new_object(), *cmds = json_new_array();
	char *text;

	for (size_t i = 0; i < snap->ncmds; i++) {
		struct json *c = json_new_object();

		json_set(c, "exec", json_new_string(snap->cmds[i].exec));
		json_set(c, "filepath", json_new_string(snap->cmds[i].file));
		json_set(c, "return_code", json_new_int(snap->cmds[i].rc));
		json_set(c, "truncated", json_new_bool(false));
		if (snap->cmds[i].rc < 0)
			json_set(c, "rdmadoctor_status",
				 json_new_string("timeout"));
		json_push(cmds, c);
	}
	json_set(plugin, "name", json_new_string("rdmadoctor"));
	json_set(plugin, "commands", cmds);
	json_set(plugins, "rdmadoctor", plugin);
	json_set(report, "name", json_new_string("report"));
	json_set(report, "plugins", plugins);
	json_set(comp, "report", report);
	json_set(root, "version", json_new_string("rdmadoctor " RD_VERSION));
	json_set(root, "cmdline", json_new_string("rdmadoctor collect"));
	json_set(root, "components", comp);
	text = json_dump(root, true);
	json_free(root);
	return text;
}

size_t snapshot_count(const struct snapshot *snap)
{
	size_t n = 0;

	for (size_t i = 0; i < snap->n; i++)
		n += snap->entries[i].type == ARCHIVE_FILE;
	return n;
}

static int cmp_entries(const void *a, const void *b)
{
	return strcmp(((const struct archive_out *)a)->path,
		      ((const struct archive_out *)b)->path);
}

static void mask_string(char **s, snapshot_mask_fn mask, void *ctx)
{
	size_t len;
	char *out;

	if (!*s)
		return;
	out = mask(ctx, *s, strlen(*s), &len);
	free(*s);
	*s = out;
}

void snapshot_mask(struct snapshot *snap, snapshot_mask_fn mask, void *ctx)
{
	for (size_t i = 0; i < snap->n; i++) {
		struct entry *e = &snap->entries[i];

		if (e->data) {
			char *out = mask(ctx, e->data, e->len, &e->len);

			free(e->data);
			e->data = out;
		}
		mask_string(&e->link, mask, ctx);
	}
	for (size_t i = 0; i < snap->ncmds; i++)
		mask_string(&snap->cmds[i].exec, mask, ctx);
}

int snapshot_write(struct snapshot *snap, int fd, const char *hostname,
		   char *err, size_t errsize)
{
	char stamp[32], *top, *man = manifest(snap);
	char *version = xasprintf("rdmadoctor snapshot %s\n", RD_VERSION);
	struct archive_out *out = xcalloc(snap->n + 4, sizeof(*out));
	time_t now = time(NULL);
	size_t n = 0;
	int rc;

	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&now));
	top = xasprintf("rdmadoctor-%s-%s",
			hostname && *hostname ? hostname : "host", stamp);
	for (char *p = top; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	out[n++] = (struct archive_out){ xstrdup(top), ARCHIVE_DIR, NULL, 0,
					 NULL };
	out[n++] = (struct archive_out){ xasprintf("%s/version.txt", top),
					 ARCHIVE_FILE, version, strlen(version),
					 NULL };
	out[n++] =
		(struct archive_out){ xasprintf("%s/sos_reports/manifest.json",
						top),
				      ARCHIVE_FILE, man, strlen(man), NULL };
	out[n++] = (struct archive_out){ xasprintf("%s/" SNAPSHOT_DIR, top),
					 ARCHIVE_DIR, NULL, 0, NULL };
	for (size_t i = 0; i < snap->n; i++) {
		const struct entry *e = &snap->entries[i];

		out[n++] =
			(struct archive_out){ xasprintf("%s/%s", top, e->path),
					      e->type, e->data, e->len,
					      e->link };
	}
	if (n)
		qsort(out, n, sizeof(*out), cmp_entries);
	rc = archive_write_tgz(fd, out, n, err, errsize);
	for (size_t i = 0; i < n; i++)
		free((char *)out[i].path);
	free(out);
	free(top);
	free(man);
	free(version);
	return rc;
}
