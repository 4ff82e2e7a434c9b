/* The archive backend of the source layer: a tar archive walked once into
 * an in-memory index of its members.  Small members, and those a
 * collector reads whole (catalog_wants), are kept in memory; the content
 * of another large member is read past unstored, as most of a large
 * sosreport is of no use here, and read again from the archive in the
 * rare case that it is asked for. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/sources/archive.h"
#include "collectors/sources/catalog.h"
#include "collectors/sources/source_tree.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define ARCHIVE_MEMBER_MAX (256u << 20) /* @@ bytes kept per member */
#define ARCHIVE_KEEP_ANY (1u << 20) /* @@ members kept whatever they are */
#define ARCHIVE_TOTAL_MAX (4ull << 30) /* @@ bytes read in all */
#define ARCHIVE_MAX_MEMBERS 1000000 /* @@ */

struct node {
	char *path; /* normalized, relative, no top directory */
	enum node_type type;
	char *link; /* symlink target as stored */
	char *data; /* file content (NUL-terminated) */
	size_t len;
	bool truncated;
	bool shared; /* data belongs to another node (hard link) */
	char *origin; /* content not kept: the member to read it from */
	uint32_t *children; /* directories: node indices */
	size_t nchildren, capchildren;
};

struct index {
	size_t member_max, keep_any;
	uint64_t total_max;
	struct node *nodes;
	size_t n, cap;
	uint32_t *slots; /* hash of path -> node index + 1 */
	size_t nslots;
	size_t skipped; /* members whose names escape the archive */
	char *first_skipped;
	char *top; /* the common top-level directory, or NULL */
};

static struct index *idx(const struct source *s)
{
	return s->tree;
}

static uint32_t hash(const char *p)
{
	return hash_bytes(p, strlen(p));
}

static size_t find_slot(const struct index *ix, const char *path)
{
	size_t i = hash(path) & (ix->nslots - 1);

	while (ix->slots[i] && strcmp(ix->nodes[ix->slots[i] - 1].path, path))
		i = (i + 1) & (ix->nslots - 1);
	return i;
}

static struct node *lookup(const struct index *ix, const char *path)
{
	size_t i;

	if (!ix->nslots)
		return NULL;
	i = find_slot(ix, path);
	return ix->slots[i] ? &ix->nodes[ix->slots[i] - 1] : NULL;
}

static void rehash(struct index *ix)
{
	size_t n = ix->nslots ? ix->nslots * 2 : 1024;

	free(ix->slots);
	ix->slots = xcalloc(n, sizeof(*ix->slots));
	ix->nslots = n;
	for (size_t k = 0; k < ix->n; k++)
		ix->slots[find_slot(ix, ix->nodes[k].path)] = (uint32_t)k + 1;
}

/* Adds a node (or returns the existing one of that path). */
static struct node *add(struct index *ix, const char *path, enum node_type type)
{
	struct node *n = lookup(ix, path);

	if (n)
		return n;
	if ((ix->n + 1) * 2 > ix->nslots)
		rehash(ix);
	xgrow(&ix->nodes, &ix->cap, ix->n + 1, sizeof(*ix->nodes));
	n = &ix->nodes[ix->n];
	memset(n, 0, sizeof(*n));
	n->path = xstrdup(path);
	n->type = type;
	ix->slots[find_slot(ix, path)] = (uint32_t)++ix->n;
	return n;
}

/* "./a//b/" -> "a/b"; NULL when a ".." component would leave the
 * archive.  Leading '/' is dropped, as tar does. */
static char *normalize(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = path;

	while (*p) {
		const char *end = strchrnul(p, '/');
		size_t n = (size_t)(end - p);

		if (n == 2 && !memcmp(p, "..", 2)) {
			sb_release(&sb);
			return NULL;
		}
		if (n && !(n == 1 && *p == '.')) {
			if (sb.len)
				sb_putc(&sb, '/');
			sb_add(&sb, p, n);
		}
		p = *end ? end + 1 : end;
	}
	return sb_detach(&sb);
}

struct walk {
	struct index *ix;
	size_t members;
};

/* Whether a collector reads the member (its path normalized, under the
 * report's top directory or not) whole. */
static bool wanted(const char *path)
{
	const char *under = strchr(path, '/');

	return catalog_wants(path) || (under && catalog_wants(under + 1)) ||
	       !strcmp(path, "sos_reports/manifest.json") ||
	       (under && !strcmp(under + 1, "sos_reports/manifest.json"));
}

static size_t keep_member(void *ctx, const struct archive_member *m)
{
	struct walk *w = ctx;
	char *path;
	bool keep;

	if (m->size >= 0 && (uint64_t)m->size <= w->ix->keep_any)
		return w->ix->member_max;
	path = normalize(m->path);
	keep = path && wanted(path); /* a name that escapes is dropped */
	free(path);
	return keep ? w->ix->member_max : 0;
}

static int on_member(void *ctx, const struct archive_member *m, char *data,
		     size_t len, bool truncated)
{
	struct walk *w = ctx;
	struct index *ix = w->ix;
	char *path = normalize(m->path);
	struct node *n;

	if (++w->members > ARCHIVE_MAX_MEMBERS) {
		free(path);
		free(data);
		return -E2BIG;
	}
	if (!path || !*path) {
		if (!path) {
			if (!ix->skipped++)
				ix->first_skipped = xstrdup(m->path);
		}
		free(path);
		free(data);
		return 0;
	}
	n = add(ix, path,
		m->type == ARCHIVE_DIR	   ? NODE_DIR :
		m->type == ARCHIVE_SYMLINK ? NODE_LINK :
		m->type == ARCHIVE_OTHER   ? NODE_OTHER :
					     NODE_FILE);
	if (m->type == ARCHIVE_FILE && !n->data && !n->origin) {
		n->type = NODE_FILE;
		if (data) {
			n->data = data;
			n->len = len;
			n->truncated = truncated;
			data = NULL;
		} else if (m->size) { /* read past: it has content */
			n->origin = xstrdup(path);
		} else {
			n->data = xstrdup("");
		}
	} else if (m->type == ARCHIVE_SYMLINK || m->type == ARCHIVE_HARDLINK) {
		free(n->link);
		n->link = xstrdup(m->link ? m->link : "");
	}
	free(path);
	free(data);
	return 0;
}

/* Hard links share their target's content. */
static void resolve_hardlinks(struct index *ix)
{
	for (size_t i = 0; i < ix->n; i++) {
		struct node *n = &ix->nodes[i], *t;
		char *target;

		if (n->type != NODE_FILE || n->data || n->origin || !n->link)
			continue;
		target = normalize(n->link);
		t = target ? lookup(ix, target) : NULL;
		free(target);
		if (t && t->type == NODE_FILE && t->data) {
			n->data = t->data;
			n->len = t->len;
			n->truncated = t->truncated;
			n->shared = true;
		} else if (t && t->type == NODE_FILE && t->origin) {
			n->origin = xstrdup(t->origin);
		}
	}
}

/* The first path component every member shares, when it is a directory
 * (sosreport-host-date/, sysinfo-snapshot-.../). */
static char *common_top(const struct index *ix)
{
	const char *first = NULL;
	size_t len = 0;

	for (size_t i = 0; i < ix->n; i++) {
		const char *p = ix->nodes[i].path, *slash = strchr(p, '/');
		size_t k = slash ? (size_t)(slash - p) : strlen(p);

		if (!first) {
			first = p;
			len = k;
		} else if (k != len || memcmp(p, first, len)) {
			return NULL;
		}
		if (!slash && ix->nodes[i].type != NODE_DIR)
			return NULL;
	}
	return first ? xstrndup(first, len) : NULL;
}

/* Re-keys the index without the top directory and builds directories'
 * child lists (creating directories the archive left implicit). */
static void finish(struct index *ix)
{
	struct index fresh = { 0 };
	size_t strip;

	ix->top = common_top(ix);
	strip = ix->top ? strlen(ix->top) + 1 : 0;
	add(&fresh, "", NODE_DIR);
	for (size_t i = 0; i < ix->n; i++) {
		struct node *o = &ix->nodes[i], *n;

		if (strlen(o->path) < strip) { /* the top directory itself */
			free(o->path);
			continue;
		}
		n = add(&fresh, o->path + strip, o->type);
		n->type = o->type;
		n->link = o->link;
		n->data = o->data;
		n->len = o->len;
		n->truncated = o->truncated;
		n->shared = o->shared;
		n->origin = o->origin;
		o->link = o->data = o->origin = NULL;
		free(o->path);
	}
	free(ix->nodes);
	free(ix->slots);
	/* Directories the archive left implicit. */
	for (size_t i = 0, n = fresh.n; i < n; i++) {
		char *p = xstrdup(fresh.nodes[i].path), *slash;

		while ((slash = strrchr(p, '/'))) {
			*slash = '\0';
			add(&fresh, p, NODE_DIR);
		}
		free(p);
	}
	for (size_t i = 1; i < fresh.n; i++) {
		const char *p = fresh.nodes[i].path, *slash = strrchr(p, '/');
		char *dir =
			slash ? xstrndup(p, (size_t)(slash - p)) : xstrdup("");
		struct node *parent = lookup(&fresh, dir);
		size_t cap = parent->capchildren;

		xgrow(&parent->children, &cap, parent->nchildren + 1,
		      sizeof(*parent->children));
		parent->capchildren = cap;
		parent->children[parent->nchildren++] = (uint32_t)i;
		free(dir);
	}
	ix->nodes = fresh.nodes;
	ix->n = fresh.n;
	ix->cap = fresh.cap;
	ix->slots = fresh.slots;
	ix->nslots = fresh.nslots;
}

/* ---- tree operations ---- */

static int arc_lstat(const struct source *s, const char *rel,
		     enum node_type *type)
{
	const struct node *n = lookup(idx(s), rel);

	if (!n)
		return -ENOENT;
	*type = n->type;
	return 0;
}

static int arc_readlink(const struct source *s, const char *rel, char *buf,
			size_t size)
{
	const struct node *n = lookup(idx(s), rel);

	if (!n || n->type != NODE_LINK || !n->link)
		return -EINVAL;
	if (strlen(n->link) >= size)
		return -ENAMETOOLONG;
	strcpy(buf, n->link);
	return 0;
}

/* The second pass for a member whose content was not kept. */
struct refetch {
	struct index *ix;
	const char *origin;
	struct node *n;
};

static size_t keep_origin(void *ctx, const struct archive_member *m)
{
	struct refetch *r = ctx;
	char *path = normalize(m->path);
	bool same = path && !strcmp(path, r->origin);

	free(path);
	return same ? r->ix->member_max : 0;
}

static int on_origin(void *ctx, const struct archive_member *m, char *data,
		     size_t len, bool truncated)
{
	struct refetch *r = ctx;

	(void)m;
	if (!data)
		return 0;
	r->n->data = data;
	r->n->len = len;
	r->n->truncated = truncated;
	return 1; /* found: stop */
}

/* Reads a member again from the archive, and keeps it. */
static int refetch(const struct source *s, struct node *n, char *err,
		   size_t errsize)
{
	struct refetch r = { idx(s), n->origin, n };
	int rc = archive_walk(s->path, r.ix->total_max, keep_origin, on_origin,
			      &r, err, errsize);

	if (rc < 0)
		return rc;
	if (!n->data) {
		snprintf(err, errsize, "no longer in the archive");
		return -ENOENT;
	}
	free(n->origin);
	n->origin = NULL;
	return 0;
}

static int arc_read(const struct source *s, const char *rel, const char *where,
		    size_t max, struct fetch *out)
{
	struct node *n = lookup(idx(s), rel);
	char err[256];
	size_t len;
	int rc;

	if (!n) {
		source_fail(out, FETCH_MISSING, where, "not in the archive");
		return -ENOENT;
	}
	if (n->type != NODE_FILE) {
		source_fail(out, FETCH_ERROR, where,
			    n->type == NODE_DIR ? "is a directory, not a file" :
						  "is not a regular file");
		return -EISDIR;
	}
	if (n->origin && (rc = refetch(s, n, err, sizeof(err)))) {
		source_fail(out, FETCH_ERROR, where, err);
		return rc;
	}
	memset(out, 0, sizeof(*out));
	out->exit_code = -1;
	out->where = xstrdup(where);
	len = n->len < max ? n->len : max;
	if (n->data && len == n->len) { /* whole: lent, not copied */
		out->data = n->data;
		out->borrowed = true;
	} else {
		out->data = xmalloc(len + 1);
		memcpy(out->data, n->data ? n->data : "", len);
		out->data[len] = '\0';
	}
	out->len = len;
	if (n->truncated || len < n->len) {
		out->status = FETCH_TRUNCATED;
		out->detail = xstrdup("the member was cut at the size cap");
	}
	return 0;
}

static int arc_list(const struct source *s, const char *rel, struct names *out)
{
	const struct index *ix = idx(s);
	const struct node *n = lookup(ix, rel);

	if (!n)
		return -ENOENT;
	if (n->type != NODE_DIR)
		return -ENOTDIR;
	for (size_t i = 0; i < n->nchildren; i++) {
		const char *p = ix->nodes[n->children[i]].path;
		const char *slash = strrchr(p, '/');

		names_add(out, slash ? slash + 1 : p);
	}
	return 0;
}

static void arc_free(struct source *s)
{
	struct index *ix = idx(s);

	if (!ix)
		return;
	for (size_t i = 0; i < ix->n; i++) {
		struct node *n = &ix->nodes[i];

		free(n->path);
		free(n->link);
		free(n->origin);
		if (!n->shared)
			free(n->data);
		free(n->children);
	}
	free(ix->nodes);
	free(ix->slots);
	free(ix->first_skipped);
	free(ix->top);
	free(ix);
}

static const struct tree_ops archive_ops = {
	.lstat = arc_lstat,
	.readlink = arc_readlink,
	.read = arc_read,
	.list = arc_list,
	.free = arc_free,
};

struct source *source_archive_new(const char *path, bool *notar,
				  const struct source_opts *o, struct diag *d)
{
	struct source *s = xcalloc(1, sizeof(*s));
	struct index *ix = xcalloc(1, sizeof(*ix));
	struct walk w = { ix, 0 };
	struct strbuf detail = STRBUF_INIT;
	char err[256] = "";
	int rc;

	*notar = false;
	if (o)
		s->o = *o;
	ix->member_max = s->o.max_read ? s->o.max_read : ARCHIVE_MEMBER_MAX;
	ix->total_max = s->o.max_total ? s->o.max_total : ARCHIVE_TOTAL_MAX;
	ix->keep_any = s->o.keep_any ? s->o.keep_any : ARCHIVE_KEEP_ANY;
	s->path = xstrdup(path);
	s->ops = &archive_ops;
	s->tree = ix;
	rc = archive_walk(path, ix->total_max, keep_member, on_member, &w, err,
			  sizeof(err));
	/* Before anything else: a bomb may stop in its first member. */
	if (rc == -E2BIG) {
		diag_at(d, DIAG_ERROR, path, 0, 0, NULL,
			"refusing the archive: %s",
			err[0] ? err : "too many members");
		source_free(s);
		return NULL;
	}
	if (rc == -EINVAL || (rc && !w.members)) {
		*notar = rc == -EINVAL || strstr(err, "Unrecognized archive") ||
			 strstr(err, "format");
		if (!*notar)
			diag_at(d, DIAG_ERROR, path, 0, 0, NULL,
				"cannot read the archive: %s", err);
		source_free(s);
		return NULL;
	}
	if (rc) {
		diag_at(d, DIAG_WARNING, path, 0, 0, NULL,
			"archive is damaged (%s); using the %zu members read before the damage",
			err, w.members);
		sb_printf(&detail, "damaged archive: %s after %zu members", err,
			  w.members);
	}
	if (ix->skipped) {
		diag_at(d, DIAG_WARNING, path, 0, 0, NULL,
			"%zu members with names that leave the archive were skipped (the first: '%s')",
			ix->skipped, ix->first_skipped);
		sb_printf(&detail, "%s%zu members escaping the archive skipped",
			  detail.len ? "; " : "", ix->skipped);
	}
	resolve_hardlinks(ix);
	finish(ix);
	s->detail = detail.len ? sb_detach(&detail) : NULL;
	sb_release(&detail);
	source_tree_ready(s, false, d);
	return s;
}
