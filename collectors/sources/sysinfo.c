/* NVIDIA's sysinfo-snapshot as a host tree (cf. the tool's source,
 * Mellanox/linux-sysinfo-snapshot sysinfo-snapshot.py 3.7.9.9:
 * html_write_paragraph, add_txt_command_output, add_ext_file_handler
 * "other_system_files").  Tree operations wrap the bundle's own and add
 * virtual nodes: the report's internal files at their host paths, its
 * command sections as commands_txt_output files where the bundle has
 * none (fabric commands never get one), and /sys rebuilt from
 * other_system_files with the links find(1) did not list. */
#include "collectors/sources/sysinfo.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/sources/source_tree.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define SYSINFO_REPORT_MAX (256u << 20) /* @@ bytes of the HTML report */

/* ---- the report ---- */

static const char *find(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);

	return n <= (size_t)(end - p) ? memmem(p, (size_t)(end - p), needle, n) :
					NULL;
}

static int count_lines(const char *from, const char *to, int line)
{
	for (; from < to; from++)
		if (*from == '\n')
			line++;
	return line;
}

/* A section that does not end as the tool ends them: the first is named,
 * the others counted. */
static void unterminated(struct diag *d, const char *where, int line,
			 long number, const char *tag, size_t *bad)
{
	if (!(*bad)++)
		diag_at(d, DIAG_WARNING, where, line, 0, NULL,
			"section 'sec%ld': unterminated <%s>; read up to the next section",
			number, tag);
}

size_t sysinfo_html_sections(const char *html, size_t len, const char *where,
			     struct diag *d, sysinfo_section_fn fn, void *arg)
{
	static const char anchor[] = "<a name=\"sec";
	const char *end = html + len, *p = html, *counted = html;
	size_t n = 0, bad = 0;
	int line = 1;

	while ((p = find(p, end, anchor))) {
		struct sysinfo_section sec = { 0 };
		const char *q = p + sizeof(anchor) - 1, *next, *h2, *close;
		char *stop;

		line = count_lines(counted, p, line);
		counted = p;
		sec.line = line;
		sec.number = strtol(q, &stop, 10);
		if (stop == q || (size_t)(end - stop) < 2 ||
		    memcmp(stop, "\">", 2)) {
			p = q;
			continue;
		}
		next = find(stop, end, anchor);
		if (!next)
			next = end;
		p = next;
		h2 = find(stop, next, "<h2>");
		if (!h2)
			continue;
		if (n == SYSINFO_SECTIONS_MAX) {
			diag_at(d, DIAG_WARNING, where, line, 0, NULL,
				"more than %d sections; the rest is not read",
				SYSINFO_SECTIONS_MAX);
			break;
		}
		sec.name = h2 + 4;
		close = find(sec.name, next, "</h2>");
		if (!close) {
			unterminated(d, where, line, sec.number, "h2", &bad);
			continue;
		}
		sec.name_len = (size_t)(close - sec.name);
		if (sec.name_len > SYSINFO_NAME_MAX) {
			diag_at(d, DIAG_WARNING, where, line, 0, NULL,
				"section 'sec%ld': title over %d bytes; section skipped",
				sec.number, SYSINFO_NAME_MAX);
			continue;
		}
		sec.body = close + 5;
		if ((size_t)(next - sec.body) >= 3 && !memcmp(sec.body, "<p>", 3))
			sec.body += 3;
		close = find(sec.body, next, "</p>");
		if (!close) {
			unterminated(d, where, line, sec.number, "p", &bad);
			close = next;
		}
		sec.body_len = (size_t)(close - sec.body);
		fn(&sec, arg);
		n++;
	}
	if (bad > 1)
		diag_at(d, DIAG_WARNING, where, 0, 0, NULL,
			"%zu sections in all are unterminated", bad);
	return n;
}

struct entity {
	const char *name;
	char c;
};

static const struct entity entities[] = {
	{ "&nbsp;&nbsp;&nbsp;&nbsp;", '\t' }, /* the tool's tab */
	{ "&nbsp;", ' ' }, { "&lt;", '<' },   { "&gt;", '>' },
	{ "&amp;", '&' },  { "&quot;", '"' }, { "&#39;", '\'' },
};

/* A "&#NNN;" of a byte; its length, or 0. */
static size_t numeric_entity(const char *s, const char *end, char *c)
{
	unsigned v = 0;
	size_t i = 2;

	if (end - s < 4 || s[1] != '#')
		return 0;
	for (; s + i < end && i < 6 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	if (i == 2 || s + i >= end || s[i] != ';' || !v || v > 255)
		return 0;
	*c = (char)v;
	return i + 1;
}

char *sysinfo_html_text(const char *s, size_t len, size_t *out_len)
{
	struct strbuf sb = STRBUF_INIT;
	const char *end = s + len;
	bool no_gt = false; /* no '>' is left in the text */

	while (s < end) {
		bool done = false;
		char c;
		size_t k;

		if (*s == '<' && end - s > 1 &&
		    (s[1] == '/' || (s[1] >= 'a' && s[1] <= 'z') ||
		     (s[1] >= 'A' && s[1] <= 'Z'))) {
			const char *gt = no_gt ? NULL :
					     memchr(s, '>', (size_t)(end - s));

			if (!gt) { /* not a tag: kept as it is */
				/* and no later '<' closes either: each
				 * is not searched for again */
				no_gt = true;
				sb_putc(&sb, *s++);
				continue;
			}
			if ((gt - s == 4 && !memcmp(s, "<br/", 4)) ||
			    (gt - s == 3 && !memcmp(s, "<br", 3)) ||
			    (gt - s == 5 && !memcmp(s, "<br /", 5)))
				sb_putc(&sb, '\n');
			s = gt + 1;
			continue;
		}
		if (*s != '&') {
			sb_putc(&sb, *s++);
			continue;
		}
		for (size_t i = 0; i < ARRAY_SIZE(entities) && !done; i++) {
			k = strlen(entities[i].name);
			if ((size_t)(end - s) >= k &&
			    !memcmp(s, entities[i].name, k)) {
				sb_putc(&sb, entities[i].c);
				s += k;
				done = true;
			}
		}
		if (done)
			continue;
		k = numeric_entity(s, end, &c);
		if (k) {
			sb_putc(&sb, c);
			s += k;
		} else {
			sb_putc(&sb, *s++);
		}
	}
	*out_len = sb.len;
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

char *sysinfo_file_name(const char *cmd, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < len; i++) {
		char c = cmd[i];

		if (strchr("/:*?\"<|-\\", c) || !c)
			continue;
		sb_putc(&sb, c == ' ' ? '_' : c);
	}
	if (!sb.buf)
		return xstrdup("");
	/* One pass of "__" -> "_", as Python's str.replace does. */
	{
		char *w = sb.buf;

		for (char *r = sb.buf; *r; r++) {
			*w++ = *r;
			if (r[0] == '_' && r[1] == '_')
				r++;
		}
		*w = '\0';
		sb.len = (size_t)(w - sb.buf);
	}
	return sb_detach(&sb);
}

/* ---- other_system_files ---- */

static bool starts_entry(const char *p, const char *end)
{
	return end - p >= 11 && !memcmp(p, "File: /sys/", 11);
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl + 1 : end;
}

size_t sysinfo_system_files(const char *text, size_t len, const char *where,
			    struct diag *d, sysinfo_file_fn fn, void *arg)
{
	static const char cannot[] = "Cannot open the following files:";
	const char *end = text + len, *p = text, *stop;
	size_t n = 0;
	int line = 1;

	/* The tool's tail: "\n ---...--- \nCannot open the following
	 * files: \n" and those files' paths. */
	stop = find(text, end, cannot);
	if (stop) {
		while (stop > text && stop[-1] == '\n')
			stop--;
		while (stop > text && stop[-1] != '\n')
			stop--;
		if (stop > text)
			stop--; /* the tool's own newline above its line */
		end = stop;
	}
	while (p < end && !starts_entry(p, end)) {
		p = line_end(p, end);
		line++;
	}
	while (p < end) {
		struct sysinfo_file f = { 0 };
		const char *sep, *q;

		f.line = line;
		f.path = p + 6;
		sep = find(f.path, line_end(f.path, end), ": ");
		if (!sep) { /* a path with no content: the next line */
			q = line_end(p, end);
			line++;
			p = q;
			while (p < end && !starts_entry(p, end)) {
				p = line_end(p, end);
				line++;
			}
			continue;
		}
		f.path_len = (size_t)(sep - f.path);
		if (f.path_len > SYSINFO_PATH_MAX) {
			diag_at(d, DIAG_WARNING, where, line, 0, NULL,
				"path over %d bytes; the rest is not read",
				SYSINFO_PATH_MAX);
			break;
		}
		if (n == SYSINFO_FILES_MAX) {
			diag_at(d, DIAG_WARNING, where, line, 0, NULL,
				"more than %d files; the rest is not read",
				SYSINFO_FILES_MAX);
			break;
		}
		f.data = sep + 2;
		/* An empty file: the next entry follows on the same line. */
		if (starts_entry(f.data, end)) {
			fn(&f, arg);
			n++;
			p = f.data;
			continue;
		}
		q = line_end(f.data, end);
		line++;
		while (q < end && !starts_entry(q, end)) {
			q = line_end(q, end);
			line++;
		}
		f.data_len = (size_t)(q - f.data);
		fn(&f, arg);
		n++;
		p = q;
	}
	return n;
}

/* ---- the overlay ---- */

struct vnode {
	char *rel; /* below the bundle's top, no leading '/' */
	enum node_type type;
	char *data; /* a file's content, a link's target */
	size_t len;
	char *where; /* a file's provenance */
	uint32_t *kids; /* a directory's entries: node indexes */
	size_t nkids, capkids;
};

/* The virtual nodes, found by name through an open-addressing index, so
 * that a path (and each directory above it) is added once however many
 * entries name it: memory follows the bundle's size, not its depth. */
struct overlay {
	const struct tree_ops *under;
	struct vnode *v;
	size_t n, cap;
	uint32_t *slots; /* node index + 1; 0 is free */
	size_t nslots;
	struct vnode top; /* the bundle's top: its kids only */
};

static struct overlay *ov(const struct source *s)
{
	return s->overlay;
}

static size_t slot_of(const struct overlay *o, const char *rel, size_t len)
{
	size_t i = hash_bytes(rel, len) & (o->nslots - 1);

	while (o->slots[i] && (strncmp(o->v[o->slots[i] - 1].rel, rel, len) ||
			       o->v[o->slots[i] - 1].rel[len]))
		i = (i + 1) & (o->nslots - 1);
	return i;
}

/* The node named by the first len bytes of rel, or NULL. */
static const struct vnode *lookup_n(const struct overlay *o, const char *rel,
				    size_t len)
{
	size_t i;

	if (!o->nslots)
		return NULL;
	i = slot_of(o, rel, len);
	return o->slots[i] ? &o->v[o->slots[i] - 1] : NULL;
}

static const struct vnode *lookup(const struct overlay *o, const char *rel)
{
	return lookup_n(o, rel, strlen(rel));
}

/* Adds a node (owning what it is given) unless one has its name: the
 * first added wins. */
static void add(struct overlay *o, char *rel, enum node_type type, char *data,
		size_t len, char *where)
{
	if (lookup(o, rel)) {
		free(rel);
		free(data);
		free(where);
		return;
	}
	if ((o->n + 1) * 2 > o->nslots) {
		free(o->slots);
		o->nslots = o->nslots ? o->nslots * 2 : 1024;
		o->slots = xcalloc(o->nslots, sizeof(*o->slots));
		for (size_t k = 0; k < o->n; k++)
			o->slots[slot_of(o, o->v[k].rel, strlen(o->v[k].rel))] =
				(uint32_t)k + 1;
	}
	xgrow(&o->v, &o->cap, o->n + 1, sizeof(*o->v));
	o->v[o->n] = (struct vnode){ .rel = rel,
				     .type = type,
				     .data = data,
				     .len = len,
				     .where = where };
	o->slots[slot_of(o, rel, strlen(rel))] = (uint32_t)++o->n;
}

static bool under_exists(const struct source *s, const char *rel)
{
	enum node_type type;

	return !ov(s)->under->lstat(s, rel, &type);
}

/* The directories above rel, as virtual directories: from the nearest
 * up, stopping at one already there (those above it are too). */
static void add_parents(struct overlay *o, const char *rel)
{
	const char *p = strrchr(rel, '/');

	while (p && p > rel && !lookup_n(o, rel, (size_t)(p - rel))) {
		add(o, xstrndup(rel, (size_t)(p - rel)), NODE_DIR, NULL, 0,
		    NULL);
		p = memrchr(rel, '/', (size_t)(p - rel));
	}
}

/* Adds a virtual file unless the bundle has one there; whether it did. */
static bool add_file(struct source *s, const char *rel, char *data,
		     size_t len, char *where)
{
	struct overlay *o = ov(s);

	if (under_exists(s, rel)) {
		free(data);
		free(where);
		return false;
	}
	add_parents(o, rel);
	add(o, xstrdup(rel), NODE_FILE, data, len, where);
	return true;
}

struct report_ctx {
	struct source *s;
	const char *name; /* the report's file name */
	size_t commands, files, alone, other; /* sections of each use */
};

/* A section: an internal file at its path, a command as the tool would
 * have named its output. */
static void on_section(const struct sysinfo_section *sec, void *arg)
{
	struct report_ctx *r = arg;
	size_t nlen, blen;
	char *name = sysinfo_html_text(sec->name, sec->name_len, &nlen);
	char *body = sysinfo_html_text(sec->body, sec->body_len, &blen);
	char *where = xasprintf("%s: section '%s'", r->name, name);
	char *rel = NULL;

	if (sec->number >= 3000 && sec->number < 4000 && name[0] == '/' &&
	    !strstr(name, "/../") && strlen(name) > 1) {
		rel = xstrdup(name + 1);
		add_file(r->s, rel, body, blen, where);
		r->files++;
	} else if (sec->number >= 1000 && sec->number < 3000 && nlen) {
		char *file = sysinfo_file_name(name, nlen);
		char *data = xasprintf("Invoked Command: %s\n%s", name, body);

		rel = xasprintf("commands_txt_output/%s.txt", file);
		r->commands++;
		if (*file && add_file(r->s, rel, data, strlen(data), where))
			r->alone++;
		else if (!*file) {
			free(data);
			free(where);
		}
		free(file);
		free(body);
	} else {
		r->other++;
		free(body);
		free(where);
	}
	free(rel);
	free(name);
}

static bool is_report(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".html") &&
	       strcmp(name, "performance_tuning_analyze.html") &&
	       strcmp(name, "sr_iov.html");
}

static void read_report(struct source *s, struct diag *d)
{
	struct names ls = { 0 };
	struct report_ctx r = { .s = s };
	struct fetch f;

	if (ov(s)->under->list(s, "", &ls))
		goto out_names;
	names_sort(&ls);
	for (size_t i = 0; i < ls.n && !r.name; i++)
		if (is_report(ls.v[i]))
			r.name = ls.v[i];
	if (!r.name)
		goto out_names;
	memset(&f, 0, sizeof(f));
	if (ov(s)->under->read(s, r.name, r.name, SYSINFO_REPORT_MAX, &f)) {
		diag_at(d, DIAG_WARNING, r.name, 0, 0, NULL,
			"cannot read the report: %s",
			f.detail ? f.detail : "unreadable");
		fetch_release(&f);
		goto out_names;
	}
	if (f.status == FETCH_TRUNCATED && f.len >= SYSINFO_REPORT_MAX)
		diag_at(d, DIAG_WARNING, r.name, 0, 0, NULL,
			"report over %u bytes; only its start is read",
			SYSINFO_REPORT_MAX);
	else if (f.status == FETCH_TRUNCATED)
		diag_at(d, DIAG_WARNING, r.name, 0, 0, NULL,
			"report cut short after %zu bytes%s%s; only that much is read",
			f.len, f.detail ? ": " : "", f.detail ? f.detail : "");
	sysinfo_html_sections(f.data, f.len, r.name, d, on_section, &r);
	diag_at(d, DIAG_NOTE, r.name, 0, 0, NULL,
		"sysinfo-snapshot report: %zu command sections (%zu with no other copy in the bundle), %zu internal files, %zu other sections not read",
		r.commands, r.alone, r.files, r.other);
	fetch_release(&f);
out_names:
	names_release(&ls);
}

struct sys_ctx {
	struct source *s;
	const char *where;
};

/* Whether the last component of the first len bytes of rel is a PCI
 * address (0000:0b:00.0), the parent a device link would name. */
static bool pci_parent(const char *rel, size_t len)
{
	static const char shape[] = "xxxx:xx:xx.x";
	const char *slash = memrchr(rel, '/', len);
	const char *b = slash ? slash + 1 : rel;

	if ((size_t)(rel + len - b) != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'x' ? !strchr("0123456789abcdef", b[i]) || !b[i] :
				      b[i] != shape[i])
			return false;
	return true;
}

/* ".../infiniband/NAME/...": the device directory, and the class link
 * and device link (when the parent is a PCI function) that find(1) lists
 * but the tool does not read. */
static void add_ib_links(struct sys_ctx *c, const char *rel)
{
	struct overlay *o = ov(c->s);
	const char *ib = strstr(rel, "/infiniband/");
	const char *name, *slash;
	char *dev, *cls, *pci, *devlink;

	if (!ib || strncmp(rel, "sys/devices/", 12))
		return;
	name = ib + 12;
	slash = strchr(name, '/');
	if (!slash || slash == name)
		return;
	dev = xstrndup(rel, (size_t)(slash - rel));
	cls = xasprintf("sys/class/infiniband/%.*s", (int)(slash - name),
			name);
	pci = xstrndup(rel, (size_t)(ib - rel));
	devlink = xasprintf("%s/device", dev);
	if (!under_exists(c->s, cls)) {
		add_parents(o, cls);
		add(o, cls, NODE_LINK, xasprintf("/%s", dev), 0, NULL);
		cls = NULL;
	}
	if (pci_parent(rel, (size_t)(ib - rel)) &&
	    !under_exists(c->s, devlink)) {
		add(o, devlink, NODE_LINK, xasprintf("/%s", pci), 0, NULL);
		devlink = NULL;
	}
	free(cls);
	free(devlink);
	free(pci);
	free(dev);
}

static void on_system_file(const struct sysinfo_file *f, void *arg)
{
	struct sys_ctx *c = arg;
	char *rel = xstrndup(f->path + 1, f->path_len - 1);

	if (strstr(rel, "/../") || strstr(rel, "//")) {
		free(rel);
		return;
	}
	add_ib_links(c, rel);
	add_file(c->s, rel, xstrndup(f->data, f->data_len), f->data_len,
		 xasprintf("%s:%d", c->where, f->line));
	free(rel);
}

static void read_system_files(struct source *s, struct diag *d)
{
	static const char path[] = "commands_txt_output/other_system_files";
	struct sys_ctx c = { s, path };
	struct fetch f;
	size_t n;

	memset(&f, 0, sizeof(f));
	if (ov(s)->under->read(s, path, path, source_max_read(s, 0), &f)) {
		fetch_release(&f);
		return;
	}
	n = sysinfo_system_files(f.data, f.len, path, d, on_system_file, &c);
	diag_at(d, DIAG_NOTE, path, 0, 0, NULL,
		"%zu /sys files, served below /sys", n);
	fetch_release(&f);
}

/* ethtool_all_interfaces: "ethtool OPT IFACE" above each output and a
 * line of '_' below it (ethtool_all_interfaces_handler).  Each "ethtool
 * -i IFACE" output becomes the file the tool would give that command
 * alone. */
static void split_ethtool(struct source *s)
{
	static const char path[] = "commands_txt_output/ethtool_all_interfaces.txt";
	static const char head[] = "ethtool -i ";
	const struct vnode *v = lookup(ov(s), path);
	struct fetch f;
	const char *p, *end, *where;
	int line = 1;

	memset(&f, 0, sizeof(f));
	if (!ov(s)->under->read(s, path, path, source_max_read(s, 0), &f)) {
		p = f.data;
		end = f.data + f.len;
		where = path;
	} else if (v) {
		p = v->data;
		end = v->data + v->len;
		where = v->where;
	} else {
		fetch_release(&f);
		return;
	}
	while (p < end) {
		const char *nl = line_end(p, end), *q, *stop;
		size_t n = (size_t)(nl - p);
		char *iface, *file, *rel, *data;

		if (n <= sizeof(head) || memcmp(p, head, sizeof(head) - 1)) {
			p = nl;
			line++;
			continue;
		}
		iface = xstrndup(p + sizeof(head) - 1,
				 n - (sizeof(head) - 1) - (nl[-1] == '\n'));
		/* a report zipped on Windows ends its lines in CRLF */
		iface[strcspn(iface, "\r")] = '\0';
		stop = q = nl;
		while (stop < end && !(end - stop >= 4 && !memcmp(stop, "____", 4)))
			stop = line_end(stop, end);
		file = sysinfo_file_name(iface, strlen(iface));
		if (*file && !strchr(iface, ' ') && !strchr(iface, '/')) {
			rel = xasprintf("commands_txt_output/ethtool_i_%s.txt",
					file);
			data = xasprintf("Invoked Command: ethtool -i %s\n%.*s",
					 iface, (int)(stop - q), q);
			add_file(s, rel, data, strlen(data),
				 xasprintf("%s, 'ethtool -i %s' at line %d",
					   where, iface, line));
			free(rel);
		}
		free(file);
		free(iface);
		for (; p < stop; p = line_end(p, end))
			line++;
	}
	fetch_release(&f);
}

/* Host files the tool copies to a file of its own (its
 * external_files_collection). */
static const struct {
	const char *bundle, *host;
} copies[] = {
	{ "config.gz", "proc/config.gz" },
	{ "commands_txt_output/interrupts", "proc/interrupts" },
};

static void add_copies(struct source *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(copies); i++)
		if (under_exists(s, copies[i].bundle) &&
		    !under_exists(s, copies[i].host)) {
			add_parents(ov(s), copies[i].host);
			add(ov(s), xstrdup(copies[i].host), NODE_LINK,
			    xasprintf("/%s", copies[i].bundle), 0, NULL);
		}
}

/* ---- tree operations ---- */

static int ov_lstat(const struct source *s, const char *rel,
		    enum node_type *type)
{
	const struct vnode *v = lookup(ov(s), rel);

	if (v) {
		*type = v->type;
		return 0;
	}
	return ov(s)->under->lstat(s, rel, type);
}

static int ov_readlink(const struct source *s, const char *rel, char *buf,
		       size_t size)
{
	const struct vnode *v = lookup(ov(s), rel);

	if (!v)
		return ov(s)->under->readlink(s, rel, buf, size);
	if (v->type != NODE_LINK)
		return -EINVAL;
	if (strlen(v->data) >= size)
		return -ENAMETOOLONG;
	strcpy(buf, v->data);
	return 0;
}

static int ov_read(const struct source *s, const char *rel, const char *where,
		   size_t max, struct fetch *out)
{
	const struct vnode *v = lookup(ov(s), rel);

	if (!v)
		return ov(s)->under->read(s, rel, where, max, out);
	if (v->type != NODE_FILE) {
		source_fail(out, FETCH_ERROR, where,
			    "is a directory, not a file");
		return -EISDIR;
	}
	memset(out, 0, sizeof(*out));
	out->exit_code = -1;
	out->len = v->len < max ? v->len : max;
	out->data = xstrndup(v->data, out->len);
	out->where = xstrdup(v->where);
	if (out->len < v->len) {
		out->status = FETCH_TRUNCATED;
		out->detail =
			xasprintf("only the first %zu bytes were read", max);
	}
	return 0;
}

static bool listed(const struct names *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return true;
	return false;
}

static int ov_list(const struct source *s, const char *rel, struct names *out)
{
	const struct overlay *o = ov(s);
	const struct vnode *v = *rel ? lookup(o, rel) : &o->top;
	int err = o->under->list(s, rel, out);
	bool both = !err;

	if (err && !(v && (v == &o->top || v->type == NODE_DIR)))
		return err;
	if (err)
		memset(out, 0, sizeof(*out));
	for (size_t i = 0; v && i < v->nkids; i++) {
		const char *r = o->v[v->kids[i]].rel, *slash = strrchr(r, '/');
		const char *child = slash ? slash + 1 : r;

		if (!both || !listed(out, child))
			names_add(out, child);
	}
	return 0;
}

/* Each node in its directory's entries. */
static void link_kids(struct overlay *o)
{
	for (size_t i = 0; i < o->n; i++) {
		const char *slash = strrchr(o->v[i].rel, '/');
		struct vnode *dir =
			slash ? (struct vnode *)lookup_n(
					o, o->v[i].rel,
					(size_t)(slash - o->v[i].rel)) :
				&o->top;

		if (!dir || (dir != &o->top && dir->type != NODE_DIR))
			continue;
		xgrow(&dir->kids, &dir->capkids, dir->nkids + 1,
		      sizeof(*dir->kids));
		dir->kids[dir->nkids++] = (uint32_t)i;
	}
}

static void ov_free(struct source *s)
{
	struct overlay *o = ov(s);

	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i].rel);
		free(o->v[i].data);
		free(o->v[i].where);
		free(o->v[i].kids);
	}
	free(o->top.kids);
	free(o->v);
	free(o->slots);
	s->ops = o->under;
	s->overlay = NULL;
	free(o);
	s->ops->free(s);
}

static const struct tree_ops overlay_ops = {
	ov_lstat, ov_readlink, ov_read, ov_list, ov_free,
};

void sysinfo_overlay(struct source *s, struct diag *d)
{
	struct overlay *o;

	if (s->overlay || !s->ops)
		return;
	o = xcalloc(1, sizeof(*o));
	o->under = s->ops;
	s->overlay = o;
	read_report(s, d);
	read_system_files(s, d);
	split_ethtool(s);
	add_copies(s);
	link_kids(o);
	s->ops = &overlay_ops;
}
