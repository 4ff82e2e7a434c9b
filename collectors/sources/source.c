/* Sources: the running host, and directory trees (--root, sosreport,
 * snapshot, sysinfo-snapshot) whose symbolic links resolve inside the
 * tree, never outside it. */
#include "collectors/sources/source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/sources/archive.h"
#include "collectors/sources/run.h"
#include "collectors/sources/snapshot.h"
#include "collectors/sources/source_tree.h"
#include "engine/jscan.h"
#include "engine/json.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

#define SOURCE_MAX_READ (256u << 20) /* @@ largest file read whole */
#define SOURCE_MAX_LINKS 40 /* @@ symlink hops per path */
#define SOURCE_MAX_MANIFEST (64u << 20) /* @@ */

static const char *const kind_names[] = {
#define X(id, name, doc) name,
	SOURCE_KINDS(X)
#undef X
};

const char *source_kind_to_str(enum source_kind kind)
{
	return kind_names[kind];
}

const char *fetch_status_to_str(enum fetch_status s)
{
	static const char *const names[] = { "ok", "missing", "error",
					     "timeout", "truncated" };

	return names[s];
}

void fetch_release(struct fetch *f)
{
	if (!f->borrowed)
		free(f->data);
	free(f->where);
	free(f->detail);
	memset(f, 0, sizeof(*f));
}

void fetch_replace(struct fetch *f, char *data, size_t len)
{
	if (!f->borrowed)
		free(f->data);
	f->data = data;
	f->len = len;
	f->borrowed = false;
}

void names_add(struct names *l, const char *s)
{
	xgrow(&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = xstrdup(s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void names_sort(struct names *l)
{
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_str);
}

void names_release(struct names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

enum source_kind source_kind(const struct source *s)
{
	return s->kind;
}

const char *source_path(const struct source *s)
{
	return s->path;
}

bool source_is_live(const struct source *s)
{
	return s->kind == SOURCE_LIVE;
}

void source_fail(struct fetch *out, enum fetch_status st, const char *where,
		 const char *detail)
{
	memset(out, 0, sizeof(*out));
	out->status = st;
	out->where = xstrdup(where);
	out->detail = detail ? xstrdup(detail) : NULL;
	out->data = xstrdup("");
	out->exit_code = -1;
}

/* ---- trees: paths below s->path, links resolved inside ---- */

/* The real path of rel below root; the live host's root is "". */
static char *join(const char *root, const char *rel)
{
	return xasprintf("%s/%s", root, rel);
}

/* Resolves a host path to a path relative to the tree root, following
 * links (the last one only when follow_last) as the host would, but with
 * the tree as '/': ".." stops at the root and absolute targets restart
 * there.  Returns 0, -ENOENT (with *out set to the path as far as it
 * resolved, plus the unresolved rest) or -ELOOP. */
static int resolve(const struct source *s, const char *path, bool follow_last,
		   char **out)
{
	struct strbuf done = STRBUF_INIT;
	char *rest = xstrdup(path), *p = rest;
	int hops = 0, err = 0;

	while (*p) {
		char comp[NAME_MAX + 1], *end;
		enum node_type type;
		size_t n;
		bool last;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		if (n > NAME_MAX) {
			err = -ENAMETOOLONG;
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p = end;
		last = !p[strspn(p, "/")];
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *slash = memrchr(done.buf ? done.buf : "", '/',
					      done.len);

			done.len = slash ? (size_t)(slash - done.buf) : 0;
			if (done.buf)
				done.buf[done.len] = '\0';
			continue;
		}
		if (done.len)
			sb_putc(&done, '/');
		sb_puts(&done, comp);
		err = s->ops->lstat(s, sb_str(&done), &type);
		if (err) {
			/* Keep what is left, so that a dangling link still
			 * names its target. */
			while (*p == '/')
				p++;
			if (*p) {
				sb_putc(&done, '/');
				sb_puts(&done, p);
			}
			while (done.len && done.buf[done.len - 1] == '/')
				done.buf[--done.len] = '\0';
			break;
		}
		if (type == NODE_LINK && (!last || follow_last)) {
			char target[PATH_MAX];
			char *next;

			err = s->ops->readlink(s, sb_str(&done), target,
					       sizeof(target));
			if (!err && ++hops > SOURCE_MAX_LINKS)
				err = -ELOOP;
			if (err)
				break;
			/* Drop the link itself; go on from its target. */
			{
				char *slash = memrchr(done.buf, '/', done.len);

				done.len =
					slash ? (size_t)(slash - done.buf) : 0;
				done.buf[done.len] = '\0';
			}
			if (target[0] == '/')
				sb_reset(&done);
			next = xasprintf("%s/%s", target, p);
			free(rest);
			rest = p = next;
			continue;
		}
	}
	free(rest);
	*out = sb_detach(&done);
	return err;
}

static int read_fd(int fd, size_t max, struct fetch *out)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			sb_release(&sb);
			return -e;
		}
		if (n == 0)
			break;
		if (sb.len + (size_t)n > max) {
			sb_add(&sb, buf, max - sb.len);
			out->status = FETCH_TRUNCATED;
			out->detail = xasprintf(
				"only the first %zu bytes were read", max);
			break;
		}
		sb_add(&sb, buf, (size_t)n);
	}
	out->len = sb.len;
	out->data = sb_detach(&sb);
	return 0;
}

/* Opens and reads a real file; the caller has resolved the path. */
static int read_real(const char *full, const char *where, size_t max,
		     struct fetch *out)
{
	int fd = open(full, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	int err;

	if (fd < 0) {
		err = errno;
		source_fail(out,
			    err == ENOENT || err == ENOTDIR ? FETCH_MISSING :
							      FETCH_ERROR,
			    where, strerror(err));
		return -err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		source_fail(out, FETCH_ERROR, where,
			    S_ISDIR(st.st_mode) ? "is a directory, not a file" :
						  "is not a regular file");
		return -EISDIR;
	}
	memset(out, 0, sizeof(*out));
	out->exit_code = -1;
	err = read_fd(fd, max, out);
	close(fd);
	if (err) {
		source_fail(out, FETCH_ERROR, where, strerror(-err));
		return err;
	}
	out->where = xstrdup(where);
	return 0;
}

char *source_name_of(const struct source *s, const char *path)
{
	if (s->kind == SOURCE_LIVE)
		return xstrdup(path);
	while (*path == '/')
		path++;
	return xstrdup(path);
}

static size_t max_of(const struct source *s, size_t max)
{
	if (!max)
		max = s->o.max_read ? s->o.max_read : SOURCE_MAX_READ;
	return max;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int tree_read(struct source *s, const char *path, size_t max,
		     struct fetch *out)
{
	char *rel = NULL, *where;
	int err = resolve(s, path, true, &rel);

	if (err) {
		source_fail(out,
			    err == -ENOENT || err == -ENOTDIR ? FETCH_MISSING :
								FETCH_ERROR,
			    path[0] == '/' ? path + 1 : path, strerror(-err));
		free(rel);
		return err;
	}
	where = s->kind == SOURCE_LIVE ? xasprintf("/%s", rel) : xstrdup(rel);
	err = s->ops->read(s, rel, where, max_of(s, max), out);
	free(where);
	if (!err && ends_with(rel, ".tailed")) {
		out->status = FETCH_TRUNCATED;
		free(out->detail);
		out->detail = xstrdup(
			"sos kept only the tail of this output (.tailed)");
	}
	free(rel);
	return err;
}

int source_read(struct source *s, const char *path, size_t max,
		struct fetch *out)
{
	return tree_read(s, path, max, out);
}

static int list_real(const char *dir, struct names *out)
{
	DIR *dp = opendir(dir);
	struct dirent *de;

	memset(out, 0, sizeof(*out));
	if (!dp)
		return -errno;
	while ((de = readdir(dp)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			names_add(out, de->d_name);
	closedir(dp);
	return 0;
}

int source_list(struct source *s, const char *dir, struct names *out)
{
	char *rel = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	err = resolve(s, dir, true, &rel);
	if (!err)
		err = s->ops->list(s, rel, out);
	free(rel);
	names_sort(out);
	return err;
}

int source_realpath(struct source *s, const char *path, char **out)
{
	char *rel = NULL;
	int err;

	*out = NULL;
	/* A dangling link still names its target: ENOENT comes with the
	 * path resolved so far, ending at the missing component. */
	err = resolve(s, path, true, &rel);
	if (err && err != -ENOENT) {
		free(rel);
		return err;
	}
	*out = xasprintf("/%s", rel);
	free(rel);
	return err;
}

/* Size of a file whose existence a snapshot records: its content goes
 * along, since what exists is usually read back too (initstate). */
#define EXISTS_RECORD_MAX 4096 /* @@ */

bool source_exists(struct source *s, const char *path)
{
	char *rel = NULL;
	bool ok = !resolve(s, path, true, &rel);
	enum node_type type;

	if (ok && s->rec && !s->ops->lstat(s, rel, &type) &&
	    type == NODE_FILE) {
		struct fetch f;

		source_read(s, path, EXISTS_RECORD_MAX, &f);
		fetch_release(&f);
	}
	free(rel);
	return ok;
}

bool source_lexists(struct source *s, const char *path)
{
	char *rel = NULL;
	bool ok = !resolve(s, path, false, &rel);

	free(rel);
	return ok;
}

/* ---- the directory backend ---- */

static int dir_lstat(const struct source *s, const char *rel,
		     enum node_type *type)
{
	char *full = join(s->path, rel);
	struct stat st;
	int err = lstat(full, &st) ? -errno : 0;

	free(full);
	if (!err)
		*type = S_ISREG(st.st_mode) ? NODE_FILE :
			S_ISDIR(st.st_mode) ? NODE_DIR :
			S_ISLNK(st.st_mode) ? NODE_LINK :
					      NODE_OTHER;
	return err;
}

static int dir_readlink(const struct source *s, const char *rel, char *buf,
			size_t size)
{
	char *full = join(s->path, rel);
	ssize_t k = readlink(full, buf, size - 1);

	free(full);
	if (k < 0)
		return -errno;
	buf[k] = '\0';
	return 0;
}

static int dir_read(const struct source *s, const char *rel, const char *where,
		    size_t max, struct fetch *out)
{
	char *full = join(s->path, rel);
	int err = read_real(full, where, max, out);

	free(full);
	return err;
}

static int dir_list(const struct source *s, const char *rel, struct names *out)
{
	char *full = join(s->path, rel);
	int err = list_real(full, out);

	free(full);
	return err;
}

static void dir_free(struct source *s)
{
	(void)s;
}

static const struct tree_ops dir_ops = {
	.lstat = dir_lstat,
	.readlink = dir_readlink,
	.read = dir_read,
	.list = dir_list,
	.free = dir_free,
};

/* ---- commands ---- */

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
		    const char *item, unsigned timeout_ms, struct fetch *out)
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
	if (!timeout_ms || timeout_ms > source_timeout_ms(s))
		timeout_ms = source_timeout_ms(s);
	err = run_command(argv, timeout_ms, max_of(s, 0), &r);
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
	return source_command_timed(s, cmd, item, 0, out);
}

int source_command_timed(struct source *s, const struct command *cmd,
			 const char *item, unsigned timeout_ms,
			 struct fetch *out)
{
	const struct manifest_cmd *mc;
	char *line;
	int err;

	if (s->kind == SOURCE_LIVE)
		return run_live(s, cmd, item, timeout_ms, out);
	line = cmdline(cmd, item);
	mc = manifest_find(s, line);
	if (mc) {
		err = tree_read(s, mc->file, 0, out);
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
			err = tree_read(s, path, 0, out);
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

/* ---- construction ---- */

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
static void load_manifest(struct source *s, struct diag *d)
{
	struct jscan j;
	struct fetch f;

	if (tree_read(s, "sos_reports/manifest.json", SOURCE_MAX_MANIFEST,
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

static enum source_kind detect_kind(struct source *s)
{
	enum source_kind kind = s->kind;

	s->kind = SOURCE_ROOT;
	if (source_exists(s, "sos_commands/rdmadoctor"))
		kind = SOURCE_SNAPSHOT;
	else if (source_exists(s, "sos_commands") ||
		 source_exists(s, "sos_reports"))
		kind = SOURCE_SOSREPORT;
	else if (source_exists(s, "commands_txt_output"))
		kind = SOURCE_SYSINFO;
	else
		kind = SOURCE_ROOT;
	s->kind = kind;
	return kind;
}

void source_tree_ready(struct source *s, bool root_only, struct diag *d)
{
	s->kind = SOURCE_ROOT;
	if (!root_only)
		detect_kind(s);
	if (s->kind == SOURCE_SOSREPORT || s->kind == SOURCE_SNAPSHOT)
		load_manifest(s, d);
}

struct source *source_live_new(const struct source_opts *o)
{
	struct source *s = xcalloc(1, sizeof(*s));

	s->kind = SOURCE_LIVE;
	s->path = xstrdup("");
	s->ops = &dir_ops;
	if (o)
		s->o = *o;
	return s;
}

bool source_dir_is_bundle(const char *dir)
{
	static const char *const markers[] = {
		"sos_commands", "sos_reports", "commands_txt_output",
		"sys",		"proc",
	};
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(markers); i++) {
		char *p = xasprintf("%s/%s", dir, markers[i]);
		bool found = !stat(p, &st) && S_ISDIR(st.st_mode);

		free(p);
		if (found)
			return true;
	}
	return false;
}

struct source *source_dir_new(const char *dir, bool root_only,
			      const struct source_opts *o, struct diag *d)
{
	struct source *s;
	struct stat st;
	size_t n = strlen(dir);

	if (stat(dir, &st)) {
		diag_at(d, DIAG_ERROR, dir, 0, 0, NULL, "cannot read: %s",
			strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		diag_at(d, DIAG_ERROR, dir, 0, 0, NULL, "not a directory");
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	while (n > 1 && dir[n - 1] == '/')
		n--;
	s->path = xstrndup(dir, n);
	s->ops = &dir_ops;
	if (o)
		s->o = *o;
	source_tree_ready(s, root_only, d);
	return s;
}

int source_path_what(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return source_dir_is_bundle(path) ? SOURCE_PATH_BUNDLE_DIR :
						    SOURCE_PATH_OTHER_DIR;
	if (!S_ISREG(st.st_mode))
		return SOURCE_PATH_SPECIAL;
	return archive_looks_like(path) ? SOURCE_PATH_ARCHIVE :
					  SOURCE_PATH_FILE;
}

struct source *source_open(const char *path, const struct source_opts *o,
			   struct diag *d, int *err)
{
	struct source *s = NULL;
	bool notar = false;

	*err = 0;
	switch (source_path_what(path)) {
	case SOURCE_PATH_BUNDLE_DIR:
	case SOURCE_PATH_OTHER_DIR:
		s = source_dir_new(path, false, o, d);
		break;
	case SOURCE_PATH_ARCHIVE:
		s = source_archive_new(path, &notar, o, d);
		break;
	default:
		return NULL;
	}
	if (!s && !notar)
		*err = -EINVAL;
	return s;
}

void source_record(struct source *s, struct snapshot *rec)
{
	source_tree_record(s, rec);
}

struct snapshot *source_recorder(const struct source *s)
{
	return s->rec;
}

unsigned source_timeout_ms(const struct source *s)
{
	return s->o.timeout_ms ? s->o.timeout_ms : SOURCE_TIMEOUT_MS;
}

const char *source_detail(const struct source *s)
{
	return s->detail;
}

void source_free(struct source *s)
{
	if (!s)
		return;
	if (s->ops)
		s->ops->free(s);
	free(s->detail);
	for (size_t i = 0; i < s->nmanifest; i++) {
		free(s->manifest[i].exec);
		free(s->manifest[i].file);
	}
	free(s->manifest);
	free(s->path);
	free(s);
}
