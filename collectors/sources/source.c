/* Sources: the running host, and directory trees (--root, sosreport,
 * snapshot, sysinfo-snapshot) whose symbolic links resolve inside the
 * tree, never outside it. */
#include "collectors/sources/source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/sources/archive.h"
#include "collectors/sources/snapshot.h"
#include "collectors/sources/source_tree.h"
#include "collectors/sources/sysinfo.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define SOURCE_MAX_READ (256u << 20) /* @@ largest file read whole */
#define SOURCE_MAX_LINKS 40 /* @@ symlink hops per path */

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

size_t source_max_read(const struct source *s, size_t max)
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
	err = s->ops->read(s, rel, where, source_max_read(s, max), out);
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

/* What lstat and readlink said of each path below a directory tree,
 * kept while it is read: a tree given by --root, or an unpacked bundle,
 * is not changed by reading it, and every file read resolves each
 * directory above it (ten for a sysfs counter), so most of these are
 * asked again and again.  The live host's tree is asked afresh. */
struct memo_entry {
	char *rel;
	int err; /* lstat's */
	enum node_type type;
	bool has_target;
	int target_err; /* readlink's, once asked */
	char *target;
};

struct memo {
	struct memo_entry *e;
	size_t n, cap;
	uint32_t *slots; /* entry index + 1; 0 is free */
	size_t nslots;
};

#define MEMO_MAX (1u << 20) /* @@ paths remembered per tree */

/* A path's hash, eight bytes a step: every file read looks up each of
 * the directories above it (sysfs paths of 80 to 120 bytes, 20,000 files
 * for 512 HCAs), and hash_bytes' byte a step was a tenth of such a run. */
static uint64_t path_hash(const char *rel, size_t len)
{
	uint64_t h = len, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, rel + i, 8);
		h = hash_mix64(h ^ w);
	}
	w = 0;
	memcpy(&w, rel + i, len - i);
	return hash_mix64(h ^ w);
}

static size_t memo_slot(const struct memo *m, const char *rel)
{
	size_t i = path_hash(rel, strlen(rel)) & (m->nslots - 1);

	while (m->slots[i] && strcmp(m->e[m->slots[i] - 1].rel, rel))
		i = (i + 1) & (m->nslots - 1);
	return i;
}

/* rel's entry; a new one (err < 0 and no type yet: fill it) when rel was
 * not asked before; NULL when the tree is not remembered or the memo is
 * full. */
static struct memo_entry *memo_get(const struct source *s, const char *rel,
				   bool *fresh)
{
	struct memo *m = s->tree;
	size_t i;

	*fresh = false;
	if (!m)
		return NULL;
	if ((m->n + 1) * 2 > m->nslots) {
		if (m->n >= MEMO_MAX)
			return NULL;
		free(m->slots);
		m->nslots = m->nslots ? m->nslots * 2 : 4096;
		m->slots = xcalloc(m->nslots, sizeof(*m->slots));
		for (size_t k = 0; k < m->n; k++)
			m->slots[memo_slot(m, m->e[k].rel)] = (uint32_t)k + 1;
	}
	i = memo_slot(m, rel);
	if (m->slots[i])
		return &m->e[m->slots[i] - 1];
	xgrow(&m->e, &m->cap, m->n + 1, sizeof(*m->e));
	memset(&m->e[m->n], 0, sizeof(m->e[m->n]));
	m->e[m->n].rel = xstrdup(rel);
	m->slots[i] = (uint32_t)++m->n;
	*fresh = true;
	return &m->e[m->n - 1];
}

static void memo_free(struct memo *m)
{
	if (!m)
		return;
	for (size_t k = 0; k < m->n; k++) {
		free(m->e[k].rel);
		free(m->e[k].target);
	}
	free(m->e);
	free(m->slots);
	free(m);
}

static int dir_lstat(const struct source *s, const char *rel,
		     enum node_type *type)
{
	bool fresh;
	struct memo_entry *e = memo_get(s, rel, &fresh);
	char *full;
	struct stat st;
	int err;

	if (e && !fresh) {
		if (!e->err)
			*type = e->type;
		return e->err;
	}
	full = join(s->path, rel);
	err = lstat(full, &st) ? -errno : 0;
	free(full); /* keeps errno */
	if (!err)
		*type = S_ISREG(st.st_mode) ? NODE_FILE :
			S_ISDIR(st.st_mode) ? NODE_DIR :
			S_ISLNK(st.st_mode) ? NODE_LINK :
					      NODE_OTHER;
	if (e) {
		e->err = err;
		e->type = err ? NODE_OTHER : *type;
	}
	return err;
}

static int dir_readlink(const struct source *s, const char *rel, char *buf,
			size_t size)
{
	bool fresh;
	struct memo_entry *e;
	enum node_type type;
	char target[PATH_MAX];
	char *full;
	ssize_t k;
	int err;

	(void)dir_lstat(s, rel, &type); /* so that rel has its entry */
	e = memo_get(s, rel, &fresh);
	if (e && e->has_target) {
		if (e->target_err)
			return e->target_err;
		snprintf(buf, size, "%s", e->target);
		return 0;
	}
	full = join(s->path, rel);
	k = readlink(full, target, sizeof(target) - 1);
	err = k < 0 ? -errno : 0;
	free(full);
	if (e) {
		e->has_target = true;
		e->target_err = err;
	}
	if (k < 0)
		return err;
	target[k] = '\0';
	if (e)
		e->target = xstrdup(target);
	snprintf(buf, size, "%s", target);
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
	memo_free(s->tree);
	s->tree = NULL;
}

static const struct tree_ops dir_ops = {
	.lstat = dir_lstat,
	.readlink = dir_readlink,
	.read = dir_read,
	.list = dir_list,
	.free = dir_free,
};

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
		source_load_manifest(s, d);
	if (s->kind == SOURCE_SYSINFO)
		sysinfo_overlay(s, d);
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
	s->tree = xcalloc(1, sizeof(struct memo));
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
