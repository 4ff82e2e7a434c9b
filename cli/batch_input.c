/* Expanding batch's arguments into bundles. */
#include "cli/batch_input.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collectors/sources/source.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

#define LIST_MAX_BYTES (64u << 20) /* a list file larger than this is no list */

static void add(struct batch_inputs *in, const char *path, const char *problem)
{
	xgrow(&in->v, &in->cap, in->n + 1, sizeof(*in->v));
	in->v[in->n].path = xstrdup(path);
	in->v[in->n].problem = problem ? xstrdup(problem) : NULL;
	in->n++;
}

static void add_errno(struct batch_inputs *in, const char *path, int err)
{
	char *why = xasprintf("cannot read: %s", strerror(err));

	add(in, path, why);
	free(why);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* Files sos (and people) keep beside a bundle: not bundles, not news. */
static bool companion(const char *name)
{
	static const char *const suffixes[] = { ".sha256", ".md5" };

	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends_with(name, suffixes[i]))
			return true;
	return false;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One entry of a directory of bundles. */
static void add_entry(struct batch_inputs *in, const char *path)
{
	int what = source_path_what(path);

	if (what < 0)
		add_errno(in, path, -what);
	else if (what == SOURCE_PATH_OTHER_DIR)
		add(in, path,
		    "not a bundle: a directory without a sosreport, snapshot, sysinfo-snapshot or sys/ and proc/ layout");
	else if (what == SOURCE_PATH_FILE || what == SOURCE_PATH_SPECIAL)
		add(in, path,
		    "not a bundle: neither a bundle directory nor a tar archive");
	else
		add(in, path, NULL);
}

static void add_dir_of_bundles(struct batch_inputs *in, const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, before = in->n;
	size_t len = strlen(dir);

	if (!dp) {
		add_errno(in, dir, errno);
		return;
	}
	while (len > 1 && dir[len - 1] == '/')
		len--;
	while ((e = readdir(dp))) {
		if (e->d_name[0] == '.' || companion(e->d_name))
			continue;
		xgrow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = xasprintf("%.*s/%s", (int)len, dir, e->d_name);
	}
	closedir(dp);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		add_entry(in, names[i]);
		free(names[i]);
	}
	free(names);
	if (in->n == before)
		add(in, dir, "holds no bundles");
}

/* A path named on the command line or in a list. */
static void add_path(struct batch_inputs *in, const char *path)
{
	if (source_path_what(path) == SOURCE_PATH_OTHER_DIR)
		add_dir_of_bundles(in, path);
	else
		add_entry(in, path);
}

static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\r' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}

/* The paths of a list: NULL when text is no list (NUL bytes, or no line
 * names anything that exists), else the count of paths in *n. */
static char **list_paths(char *text, size_t len, size_t *n)
{
	char **paths = NULL, *line, *save = NULL;
	size_t cap = 0;
	bool any_exists = false;
	struct stat st;

	*n = 0;
	if (memchr(text, '\0', len))
		return NULL;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = trim(line);

		if (!*p || *p == '#')
			continue;
		any_exists |= strlen(p) < PATH_MAX && !stat(p, &st);
		xgrow(&paths, &cap, *n + 1, sizeof(*paths));
		paths[(*n)++] = p;
	}
	if (*n && !any_exists) {
		free(paths);
		return NULL;
	}
	return paths;
}

static int slurp(FILE *f, struct strbuf *sb)
{
	char buf[8192];
	size_t got;

	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		sb_add(sb, buf, got);
		if (sb->len > LIST_MAX_BYTES)
			return -EFBIG;
	}
	return ferror(f) ? -EIO : 0;
}

static void add_list(struct batch_inputs *in, const char *name, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	char **paths;
	size_t n;
	int err = slurp(f, &sb);

	if (err) {
		add(in, name,
		    err == -EFBIG ?
			    "not a bundle: neither a tar archive nor a list of bundle paths" :
			    "cannot read the list");
		sb_release(&sb);
		return;
	}
	sb_putc(&sb, '\0');
	paths = list_paths(sb.buf, sb.len - 1, &n);
	if (!paths && n)
		add(in, name,
		    "not a bundle: neither a tar archive nor a list of bundle paths (none of its lines names a file)");
	else if (!paths)
		add(in, name,
		    memchr(sb.buf, '\0', sb.len - 1) ?
			    "not a bundle: neither a tar archive nor a list of bundle paths" :
			    "a list of bundle paths with no path in it");
	for (size_t i = 0; paths && i < n; i++)
		add_path(in, paths[i]);
	free(paths);
	sb_release(&sb);
}

void batch_inputs_add(struct batch_inputs *in, const char *arg, FILE *in_list)
{
	FILE *f;

	if (!strcmp(arg, "-")) {
		add_list(in, "standard input", in_list);
		return;
	}
	if (source_path_what(arg) != SOURCE_PATH_FILE) {
		add_path(in, arg);
		return;
	}
	f = fopen(arg, "r");
	if (!f) {
		add_errno(in, arg, errno);
		return;
	}
	add_list(in, arg, f);
	fclose(f);
}

size_t batch_inputs_bundles(const struct batch_inputs *in)
{
	size_t n = 0;

	for (size_t i = 0; i < in->n; i++)
		n += !in->v[i].problem;
	return n;
}

void batch_inputs_release(struct batch_inputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		free(in->v[i].path);
		free(in->v[i].problem);
	}
	free(in->v);
	memset(in, 0, sizeof(*in));
}
