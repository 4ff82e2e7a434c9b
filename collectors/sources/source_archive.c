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
/* Small members no collector asked for are kept only up to this many
 * bytes in all; the rest are read past like large ones. */
#define ARCHIVE_KEEP_ANY_BUDGET (64u << 20) /* @@ */
/* A member's name: longer, or deeper, is skipped with a warning (Linux's
 * PATH_MAX; no sysfs or sosreport path comes near 128 components). */
#define ARCHIVE_PATH_MAX 4096 /* @@ bytes */
#define ARCHIVE_DEPTH_MAX 128 /* @@ components */
/* Passes over the archive for members read past and then asked for; the
 * first fetches every one a link leads to at once. */
#define ARCHIVE_REFETCH_MAX 4 /* @@ */

struct node {
	char *path; /* normalized, relative, no top directory */
	enum node_type type;
	char *link; /* symlink target as stored */
	char *data; /* file content (NUL-terminated) */
	size_t len;
	bool truncated;
	bool damaged; /* cut short where the archive ends or is corrupt */
	bool dangling; /* a hard link to a member not in the archive */
	bool link_target; /* a symlink leads here: fetched in one pass */
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
	size_t too_long; /* members whose names are too long or deep */
	size_t duplicates; /* members named again: the last copy kept */
	char *first_duplicate;
	size_t outside; /* members beside the report's top directory */
	char *first_outside;
	size_t dangling; /* hard links to members not in the archive */
	size_t refetches; /* passes made for members read past */
	uint64_t kept_any; /* bytes of unasked-for members kept */
	char *top; /* the report's top-level directory, or NULL */
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

/* "a/b/../c" -> "a/c"; NULL when ".." climbs above the start. */
static char *resolve_dots(const char *path)
{
	char *norm = xstrdup(path), *out = xmalloc(strlen(path) + 1);
	size_t len = 0;

	for (char *p = norm, *end; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		if (end == p || (end - p == 1 && *p == '.'))
			continue;
		if (end - p == 2 && !memcmp(p, "..", 2)) {
			char *up;

			if (!len) {
				free(norm);
				free(out);
				return NULL;
			}
			out[len] = '\0';
			up = strrchr(out, '/');
			len = up ? (size_t)(up - out) : 0;
			continue;
		}
		if (len)
			out[len++] = '/';
		memcpy(out + len, p, (size_t)(end - p));
		len += (size_t)(end - p);
	}
	out[len] = '\0';
	free(norm);
	return out;
}

struct walk {
	struct index *ix;
	size_t members;
};

/* Whether a member's name is within the length and depth bounds. */
static bool name_in_bounds(const char *path)
{
	size_t depth = 0, len = 0;

	for (const char *p = path; *p; p++, len++) {
		if (len >= ARCHIVE_PATH_MAX)
			return false;
		if (*p == '/' && ++depth >= ARCHIVE_DEPTH_MAX)
			return false;
	}
	return true;
}

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

	if (!name_in_bounds(m->path))
		return 0;
	path = normalize(m->path);
	keep = path && wanted(path); /* a name that escapes is dropped */
	free(path);
	if (keep)
		return w->ix->member_max;
	if (m->size >= 0 && (uint64_t)m->size <= w->ix->keep_any &&
	    w->ix->kept_any + (uint64_t)m->size <= ARCHIVE_KEEP_ANY_BUDGET) {
		w->ix->kept_any += (uint64_t)m->size;
		return w->ix->member_max;
	}
	return 0;
}

static void note_first(size_t *count, char **first, const char *path)
{
	if (!(*count)++)
		*first = xstrdup(path);
}

static int on_member(void *ctx, const struct archive_member *m, char *data,
		     size_t len, enum archive_cut cut)
{
	struct walk *w = ctx;
	struct index *ix = w->ix;
	char *path;
	struct node *n;

	if (++w->members > ARCHIVE_MAX_MEMBERS) {
		free(data);
		return -E2BIG;
	}
	if (!name_in_bounds(m->path)) {
		ix->too_long++;
		free(data);
		return 0;
	}
	path = normalize(m->path);
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
	if (m->type == ARCHIVE_FILE) {
		/* Named again: the last copy wins, as tar extraction has it. */
		if (n->type == NODE_FILE && (n->data || n->origin)) {
			note_first(&ix->duplicates, &ix->first_duplicate, path);
			free(n->data);
			free(n->origin);
			n->data = n->origin = NULL;
			n->truncated = n->damaged = false;
		}
		n->type = NODE_FILE;
		if (data) {
			n->data = data;
			n->len = len;
			n->truncated = cut != ARCHIVE_WHOLE;
			n->damaged = cut == ARCHIVE_CUT_SHORT;
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

static bool under_top(const struct index *ix, const char *path)
{
	size_t n = ix->top ? strlen(ix->top) : 0;

	return !n || (!strncmp(path, ix->top, n) && path[n] == '/');
}

/* Hard links share their target's content (a copy, when the target lies
 * beside the report's top directory and is dropped with it). */
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
			n->shared = under_top(ix, t->path);
			if (n->shared) {
				n->data = t->data;
			} else {
				n->data = xmalloc(t->len + 1);
				memcpy(n->data, t->data, t->len + 1);
			}
			n->len = t->len;
			n->truncated = t->truncated;
			n->damaged = t->damaged;
		} else if (t && t->type == NODE_FILE && t->origin) {
			n->origin = xstrdup(t->origin);
		} else {
			n->dangling = true;
			ix->dangling++;
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

/* What marks a report's top directory among others beside it (a README,
 * an absolute member): the names detect_kind looks for. */
static const char *const report_markers[] = {
	"sos_commands",
	"sos_reports",
	"commands_txt_output",
};

static bool is_marker(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(report_markers) / sizeof(*report_markers);
	     i++)
		if (strlen(report_markers[i]) == len &&
		    !memcmp(report_markers[i], name, len))
			return true;
	return false;
}

/* The one top-level directory that holds a report's markers, when the
 * members share none; NULL when none or several do. */
static char *marked_top(const struct index *ix)
{
	const char *found = NULL;
	size_t flen = 0;

	for (size_t i = 0; i < ix->n; i++) {
		const char *p = ix->nodes[i].path, *slash = strchr(p, '/');
		const char *second, *end;

		if (!slash)
			continue;
		second = slash + 1;
		end = strchrnul(second, '/');
		if (!is_marker(second, (size_t)(end - second)))
			continue;
		if (found && ((size_t)(slash - p) != flen ||
			      memcmp(found, p, flen)))
			return NULL; /* two reports: neither is the one */
		found = p;
		flen = (size_t)(slash - p);
	}
	return found ? xstrndup(found, flen) : NULL;
}

/* The report's top directory: the one all members share, or else the
 * one that holds a report's markers. */
static void choose_top(struct index *ix)
{
	ix->top = common_top(ix);
	if (!ix->top)
		ix->top = marked_top(ix);
}

/* Re-keys the index without the top directory and builds directories'
 * child lists (creating directories the archive left implicit). */
static void finish(struct index *ix)
{
	struct index fresh = { 0 };
	size_t strip;

	strip = ix->top ? strlen(ix->top) + 1 : 0;
	add(&fresh, "", NODE_DIR);
	for (size_t i = 0; i < ix->n; i++) {
		struct node *o = &ix->nodes[i], *n;

		if (strip && (strncmp(o->path, ix->top, strip - 1) ||
			      o->path[strip - 1] != '/')) {
			if (strcmp(o->path, ix->top)) /* not the top itself */
				note_first(&ix->outside, &ix->first_outside,
					   o->path);
			free(o->path);
			free(o->link);
			if (!o->shared)
				free(o->data);
			free(o->origin);
			continue;
		}
		n = add(&fresh, o->path + strip, o->type);
		n->type = o->type;
		n->link = o->link;
		n->data = o->data;
		n->len = o->len;
		n->truncated = o->truncated;
		n->damaged = o->damaged;
		n->dangling = o->dangling;
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

		/* Up to the first that exists: its own ancestors are there
		 * already, or come with its own turn (linear in depth). */
		while ((slash = strrchr(p, '/'))) {
			*slash = '\0';
			if (lookup(&fresh, p))
				break;
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

/* The nodes a pass fetches, by the member path they come from: the one
 * asked for, and on the first pass every one a symlink leads to. */
static struct node *origin_node(const struct refetch *r, const char *path)
{
	size_t strip = r->ix->top ? strlen(r->ix->top) + 1 : 0;
	struct node *n;

	if (!strcmp(path, r->origin))
		return r->n;
	if (r->ix->refetches != 1 || (strip && !under_top(r->ix, path)))
		return NULL;
	n = lookup(r->ix, path + strip);
	return n && n->link_target && n->origin && !strcmp(n->origin, path) ?
		       n :
		       NULL;
}

static size_t keep_origin(void *ctx, const struct archive_member *m)
{
	struct refetch *r = ctx;
	char *path = normalize(m->path);
	bool keep = path && origin_node(r, path);

	free(path);
	return keep ? r->ix->member_max : 0;
}

static int on_origin(void *ctx, const struct archive_member *m, char *data,
		     size_t len, enum archive_cut cut)
{
	struct refetch *r = ctx;
	char *path = normalize(m->path);
	struct node *n = path && data ? origin_node(r, path) : NULL;

	free(path);
	if (!n) {
		free(data);
		return 0;
	}
	free(n->data); /* a later copy of the same name wins */
	n->data = data;
	n->len = len;
	n->truncated = cut != ARCHIVE_WHOLE;
	n->damaged = cut == ARCHIVE_CUT_SHORT;
	return 0;
}

/* Marks the members that symlinks lead to, one hop, so that the first
 * pass for one of them fetches them all. */
static void mark_link_targets(struct index *ix)
{
	for (size_t i = 0; i < ix->n; i++) {
		const struct node *l = &ix->nodes[i];
		const char *slash;
		char *joined, *target;
		struct node *t;

		if (l->type != NODE_LINK || !l->link || l->link[0] == '/')
			continue;
		slash = strrchr(l->path, '/');
		joined = slash ? xasprintf("%.*s/%s", (int)(slash - l->path),
					   l->path, l->link) :
				 xstrdup(l->link);
		target = resolve_dots(joined);
		t = target ? lookup(ix, target) : NULL;
		if (t && t->type == NODE_FILE && t->origin)
			t->link_target = true;
		free(target);
		free(joined);
	}
}

/* Reads members again from the archive, and keeps them; a bounded number
 * of passes in all. */
static int refetch(const struct source *s, struct node *n, char *err,
		   size_t errsize)
{
	struct refetch r = { idx(s), n->origin, n };
	int rc;

	if (r.ix->refetches >= ARCHIVE_REFETCH_MAX) {
		snprintf(err, errsize,
			 "read past, and the archive was already read again %d times",
			 ARCHIVE_REFETCH_MAX);
		return -E2BIG;
	}
	r.ix->refetches++;
	rc = archive_walk(s->path, r.ix->total_max, keep_origin, on_origin, &r,
			  err, errsize);
	for (size_t i = 0; i < r.ix->n; i++) {
		struct node *o = &r.ix->nodes[i];

		if (o->origin && o->data) {
			free(o->origin);
			o->origin = NULL;
		}
	}
	if (rc < 0 && !n->data)
		return rc;
	if (!n->data) {
		snprintf(err, errsize, "no longer in the archive");
		return -ENOENT;
	}
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
	if (n->dangling) {
		snprintf(err, sizeof(err),
			 "a hard link to '%s', which is not in the archive",
			 n->link ? n->link : "");
		source_fail(out, FETCH_ERROR, where, err);
		return -ENOENT;
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
		out->detail = xstrdup(
			n->damaged ?
				"the member is cut short: the archive ends or breaks inside it" :
				"the member was cut at the size cap");
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
	free(ix->first_duplicate);
	free(ix->first_outside);
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
	if (ix->duplicates) {
		diag_at(d, DIAG_WARNING, path, 0, 0, NULL,
			"%zu members are named twice or more; the last copy of each is read, as tar extraction keeps it (the first: '%s')",
			ix->duplicates, ix->first_duplicate);
		sb_printf(&detail,
			  "%s%zu duplicate members (the last copy read)",
			  detail.len ? "; " : "", ix->duplicates);
	}
	if (ix->too_long) {
		diag_at(d, DIAG_WARNING, path, 0, 0, NULL,
			"%zu members with names longer than %d bytes or deeper than %d components were skipped",
			ix->too_long, ARCHIVE_PATH_MAX, ARCHIVE_DEPTH_MAX);
		sb_printf(&detail, "%s%zu members with too long names skipped",
			  detail.len ? "; " : "", ix->too_long);
	}
	if (ix->dangling)
		sb_printf(&detail, "%s%zu hard links to missing members",
			  detail.len ? "; " : "", ix->dangling);
	if (ix->skipped) {
		diag_at(d, DIAG_WARNING, path, 0, 0, NULL,
			"%zu members with names that leave the archive were skipped (the first: '%s')",
			ix->skipped, ix->first_skipped);
		sb_printf(&detail, "%s%zu members escaping the archive skipped",
			  detail.len ? "; " : "", ix->skipped);
	}
	choose_top(ix);
	resolve_hardlinks(ix);
	finish(ix);
	mark_link_targets(ix);
	if (ix->outside) {
		diag_at(d, DIAG_WARNING, path, 0, 0, NULL,
			"the report is '%s/'; %zu members beside it were left out (the first: '%s')",
			ix->top, ix->outside, ix->first_outside);
		sb_printf(&detail, "%s%zu members beside the report left out",
			  detail.len ? "; " : "", ix->outside);
	}
	s->detail = detail.len ? sb_detach(&detail) : NULL;
	sb_release(&detail);
	source_tree_ready(s, false, d);
	return s;
}
