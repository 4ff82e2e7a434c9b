/* libyaml events -> struct ynode trees, with bounded depth and size. */
#include "engine/ydoc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"

#define YDOC_MAX_DEPTH 64 /* @@ nesting a rule file never needs */
#define YDOC_MAX_NODES 1000000 /* @@ */
#define YDOC_MAX_BYTES (64u << 20) /* @@ largest rule or kb file */

struct ydoc {
	char *name;
	char *text;
	size_t len;
	struct ynode *root;
	size_t nodes;
	size_t *line_at; /* offsets of line starts, made at the first report */
	size_t nlines;
};

struct builder {
	struct ydoc *doc;
	yaml_parser_t parser;
	struct diag *d;
	int depth;
	bool failed;
};

static void free_node(struct ynode *n)
{
	if (!n)
		return;
	if (n->type == YNODE_MAP)
		for (size_t i = 0; i < 2 * n->n; i++)
			free_node(n->items[i]);
	else
		for (size_t i = 0; i < n->n; i++)
			free_node(n->items[i]);
	free(n->items);
	free(n->str);
	free(n);
}

void ydoc_free(struct ydoc *doc)
{
	if (!doc)
		return;
	free_node(doc->root);
	free(doc->name);
	free(doc->text);
	free(doc->line_at);
	free(doc);
}

const struct ynode *ydoc_root(const struct ydoc *doc)
{
	return doc->root;
}

const char *ydoc_name(const struct ydoc *doc)
{
	return doc->name;
}

/* The offsets of the document's line starts: one pass over the text, so
 * that a report per line costs the same on line 100000 as on line 1. */
static void index_lines(struct ydoc *doc)
{
	size_t cap = 0;

	xgrow(&doc->line_at, &cap, 1, sizeof(*doc->line_at));
	doc->line_at[doc->nlines++] = 0;
	for (size_t i = 0; i < doc->len; i++)
		if (doc->text[i] == '\n') {
			xgrow(&doc->line_at, &cap, doc->nlines + 1,
			      sizeof(*doc->line_at));
			doc->line_at[doc->nlines++] = i + 1;
		}
}

/* The text of a 1-based line, copied into an owned string. */
static char *line_text(const struct ydoc *doc, int line)
{
	const char *p, *end = doc->text + doc->len, *nl;

	if (line < 1 || !doc->text)
		return NULL;
	if (!doc->line_at) /* a cache: the document itself is unchanged */
		index_lines((struct ydoc *)doc);
	if ((size_t)line > doc->nlines)
		return NULL;
	p = doc->text + doc->line_at[line - 1];
	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		nl = end;
	if (nl > p && nl[-1] == '\r')
		nl--;
	return xstrndup(p, (size_t)(nl - p) > 200 ? 200 : (size_t)(nl - p));
}

static void vreport(const struct ydoc *doc, struct diag *d, enum diag_level lvl,
		    int line, int col, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	char *snippet = line_text(doc, line);

	sb_vprintf(&sb, fmt, ap);
	diag_at(d, lvl, doc->name, line, col, snippet, "%s", sb_str(&sb));
	free(snippet);
	sb_release(&sb);
}

void ydoc_report(const struct ydoc *doc, struct diag *d, enum diag_level lvl,
		 const struct ynode *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(doc, d, lvl, n ? n->line : 0, n ? n->col : 0, fmt, ap);
	va_end(ap);
}

static void fail_at(struct builder *b, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fail_at(struct builder *b, int line, int col, const char *fmt, ...)
{
	va_list ap;

	if (b->failed)
		return;
	b->failed = true;
	va_start(ap, fmt);
	vreport(b->doc, b->d, DIAG_ERROR, line, col, fmt, ap);
	va_end(ap);
}

/* A line's indentation, whether it is a list item ("- "), and whether it
 * holds anything but a comment. */
struct indent {
	int col; /* 0-based column of the first character */
	int key_col; /* of the first key: after "- " for a list item */
	bool item, content, opens; /* opens: ends with ':', a block follows */
};

static struct indent indent_of(const char *s)
{
	struct indent in = { 0, 0, false, false, false };
	size_t n;

	while (s[in.col] == ' ')
		in.col++;
	in.key_col = in.col;
	in.content = s[in.col] && s[in.col] != '#';
	in.item = s[in.col] == '-' && s[in.col + 1] == ' ';
	if (in.item)
		for (in.key_col = in.col + 1; s[in.key_col] == ' ';)
			in.key_col++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	in.opens = n && s[n - 1] == ':';
	return in;
}

/* The errors libyaml gives for a block out of line. */
static bool indentation_problem(const char *problem)
{
	static const char *const problems[] = {
		"mapping values are not allowed in this context",
		"did not find expected key",
		"did not find expected '-' indicator",
	};

	for (size_t i = 0; problem && i < ARRAY_SIZE(problems); i++)
		if (!strcmp(problem, problems[i]))
			return true;
	return false;
}

/* For an error that indentation explains, what line `line` does against
 * the line above it, as a hint to append ("" when it does nothing odd). */
static void indentation_hint(const struct ydoc *doc, int line, char *buf,
			     size_t size)
{
	char *text = line_text(doc, line), *above = NULL;
	struct indent here, prev = { 0, 0, false, false, false };
	int at = line - 1;

	buf[0] = '\0';
	if (!text)
		return;
	here = indent_of(text);
	for (; at >= 1; at--) {
		free(above);
		above = line_text(doc, at);
		if (above && (prev = indent_of(above)).content)
			break;
	}
	if (at < 1 || !here.content || prev.opens) {
		/* nothing above to line up with, or a block opens there */
	} else if (here.item && prev.item && here.col == prev.key_col) {
		snprintf(buf, size,
			 "; line %d's '-' lines up with the keys of the list item at line %d: the items of one list line up their '-' (column %d)",
			 line, at, prev.col + 1);
	} else if (here.col != prev.col && here.col != prev.key_col) {
		snprintf(buf, size,
			 "; line %d starts at column %d, but line %d above it starts its keys at column %d: the keys of one mapping line up",
			 line, here.col + 1, at, prev.key_col + 1);
	}
	free(above);
	free(text);
}

static int next(struct builder *b, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&b->parser, ev)) {
		const yaml_mark_t *m = &b->parser.problem_mark;
		const yaml_mark_t *cm = &b->parser.context_mark;
		char hint[256] = "";

		if (indentation_problem(b->parser.problem))
			indentation_hint(b->doc, (int)m->line + 1, hint,
					 sizeof(hint));
		if (b->parser.context)
			fail_at(b, (int)m->line + 1, (int)m->column + 1,
				"invalid YAML: %s (%s at %d:%d)%s",
				b->parser.problem ? b->parser.problem :
						    "parse error",
				b->parser.context, (int)cm->line + 1,
				(int)cm->column + 1, hint);
		else
			fail_at(b, (int)m->line + 1, (int)m->column + 1,
				"invalid YAML: %s%s",
				b->parser.problem ? b->parser.problem :
						    "parse error",
				hint);
		return -EINVAL;
	}
	return 0;
}

static struct ynode *new_node(struct builder *b, enum ynode_type type,
			      const yaml_event_t *ev)
{
	struct ynode *n;

	if (++b->doc->nodes > YDOC_MAX_NODES) {
		fail_at(b, (int)ev->start_mark.line + 1,
			(int)ev->start_mark.column + 1,
			"document has more than %d nodes", YDOC_MAX_NODES);
		return NULL;
	}
	n = xcalloc(1, sizeof(*n));
	n->type = type;
	n->line = (int)ev->start_mark.line + 1;
	n->col = (int)ev->start_mark.column + 1;
	return n;
}

static struct ynode *build(struct builder *b, yaml_event_t *ev);

static struct ynode *build_collection(struct builder *b, yaml_event_t *ev,
				      enum ynode_type type)
{
	yaml_event_type_t end = type == YNODE_MAP ? YAML_MAPPING_END_EVENT :
						    YAML_SEQUENCE_END_EVENT;
	struct ynode *n = new_node(b, type, ev);
	size_t cap = 0, count = 0;

	if (!n)
		return NULL;
	if (++b->depth > YDOC_MAX_DEPTH) {
		fail_at(b, n->line, n->col, "nesting deeper than %d levels",
			YDOC_MAX_DEPTH);
		free_node(n);
		return NULL;
	}
	for (;;) {
		yaml_event_t child;
		struct ynode *c;

		if (next(b, &child))
			goto fail;
		if (child.type == end) {
			yaml_event_delete(&child);
			break;
		}
		c = build(b, &child);
		yaml_event_delete(&child);
		if (!c)
			goto fail;
		xgrow(&n->items, &cap, count + 1, sizeof(*n->items));
		n->items[count++] = c;
		n->n = type == YNODE_MAP ? count / 2 : count;
	}
	b->depth--;
	return n;
fail:
	/* A mapping may hold a key without its value yet: free by count. */
	for (size_t i = 0; i < count; i++)
		free_node(n->items[i]);
	n->n = 0;
	free_node(n);
	return NULL;
}

static struct ynode *build(struct builder *b, yaml_event_t *ev)
{
	struct ynode *n;

	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		fail_at(b, (int)ev->start_mark.line + 1,
			(int)ev->start_mark.column + 1,
			"YAML aliases ('*name') are not supported");
		return NULL;
	case YAML_SCALAR_EVENT:
		if (ev->data.scalar.anchor) {
			fail_at(b, (int)ev->start_mark.line + 1,
				(int)ev->start_mark.column + 1,
				"YAML anchors ('&name') are not supported");
			return NULL;
		}
		n = new_node(b, YNODE_SCALAR, ev);
		if (!n)
			return NULL;
		n->len = ev->data.scalar.length;
		n->str = xstrndup((const char *)ev->data.scalar.value, n->len);
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		return n;
	case YAML_SEQUENCE_START_EVENT:
		if (ev->data.sequence_start.anchor)
			goto anchor;
		return build_collection(b, ev, YNODE_SEQ);
	case YAML_MAPPING_START_EVENT:
		if (ev->data.mapping_start.anchor)
			goto anchor;
		return build_collection(b, ev, YNODE_MAP);
	default:
		fail_at(b, (int)ev->start_mark.line + 1,
			(int)ev->start_mark.column + 1,
			"unexpected YAML event");
		return NULL;
	}
anchor:
	fail_at(b, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
		"YAML anchors ('&name') are not supported");
	return NULL;
}

/* Reads the stream: one document at most. */
static void parse_stream(struct builder *b)
{
	yaml_event_t ev;
	int docs = 0;

	for (;;) {
		if (next(b, &ev))
			return;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			return;
		}
		if (ev.type == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
			fail_at(b, (int)ev.start_mark.line + 1,
				(int)ev.start_mark.column + 1,
				"a file holds one YAML document; found a second '---'");
			yaml_event_delete(&ev);
			return;
		}
		if (ev.type == YAML_SCALAR_EVENT ||
		    ev.type == YAML_SEQUENCE_START_EVENT ||
		    ev.type == YAML_MAPPING_START_EVENT ||
		    ev.type == YAML_ALIAS_EVENT) {
			b->doc->root = build(b, &ev);
			if (!b->doc->root) {
				yaml_event_delete(&ev);
				return;
			}
		}
		yaml_event_delete(&ev);
	}
}

struct ydoc *ydoc_load_string(const char *name, const char *text, size_t len,
			      struct diag *d)
{
	struct builder b = { 0 };

	b.doc = xcalloc(1, sizeof(*b.doc));
	b.doc->name = xstrdup(name);
	b.doc->text = xstrndup(text, len);
	b.doc->len = len;
	b.d = d;
	if (len > YDOC_MAX_BYTES) {
		fail_at(&b, 0, 0, "file is larger than %u MiB",
			YDOC_MAX_BYTES >> 20);
		goto fail;
	}
	if (!yaml_parser_initialize(&b.parser)) {
		fail_at(&b, 0, 0, "cannot initialise the YAML parser");
		goto fail;
	}
	yaml_parser_set_input_string(&b.parser,
				     (const unsigned char *)b.doc->text, len);
	parse_stream(&b);
	yaml_parser_delete(&b.parser);
	if (b.failed)
		goto fail;
	return b.doc;
fail:
	ydoc_free(b.doc);
	return NULL;
}

struct ydoc *ydoc_load_file(const char *path, const char *name, struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	struct ydoc *doc;
	struct stat st;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	FILE *fp;
	size_t n;

	if (fd < 0) {
		diag_at(d, DIAG_ERROR, name ? name : path, 0, 0, NULL,
			"cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		diag_at(d, DIAG_ERROR, name ? name : path, 0, 0, NULL,
			"not a regular file (%s); rule, kb and answer files must be regular files",
			S_ISFIFO(st.st_mode) ? "a FIFO" :
			S_ISDIR(st.st_mode)  ? "a directory" :
			S_ISCHR(st.st_mode)  ? "a character device" :
			S_ISSOCK(st.st_mode) ? "a socket" :
					       "a special file");
		close(fd);
		return NULL;
	}
	fp = fdopen(fd, "rb");
	if (!fp) {
		diag_at(d, DIAG_ERROR, name ? name : path, 0, 0, NULL,
			"cannot open: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0) {
		sb_add(&sb, buf, n);
		if (sb.len > YDOC_MAX_BYTES)
			break;
	}
	if (ferror(fp)) {
		diag_at(d, DIAG_ERROR, name ? name : path, 0, 0, NULL,
			"cannot read: %s", strerror(errno));
		fclose(fp);
		sb_release(&sb);
		return NULL;
	}
	fclose(fp);
	doc = ydoc_load_string(name ? name : path, sb_str(&sb), sb.len, d);
	sb_release(&sb);
	return doc;
}

const struct ynode *ynode_get(const struct ynode *map, const char *key)
{
	if (!map || map->type != YNODE_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = map->items[2 * i];

		if (k->type == YNODE_SCALAR && !strcmp(k->str, key))
			return map->items[2 * i + 1];
	}
	return NULL;
}

const struct ynode *ynode_key(const struct ynode *map, size_t i)
{
	return map->items[2 * i];
}

const struct ynode *ynode_value(const struct ynode *map, size_t i)
{
	return map->items[2 * i + 1];
}

bool ynode_is_scalar(const struct ynode *n)
{
	return n && n->type == YNODE_SCALAR;
}

const char *ynode_type_to_str(const struct ynode *n)
{
	static const char *const names[] = { "a scalar", "a list",
					     "a mapping" };

	return n ? names[n->type] : "nothing";
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int cmp_files(const void *a, const void *b)
{
	return strcmp(((const struct ydoc_file *)a)->path,
		      ((const struct ydoc_file *)b)->path);
}

int ydoc_dir(const char *dir, const char *prefix, const char *skip,
	     struct ydoc_file **out)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	size_t n = 0, cap = 0;

	*out = NULL;
	if (!dp)
		return -errno;
	while ((de = readdir(dp))) {
		struct ydoc_file *f;

		if (de->d_name[0] == '.' || !ends_with(de->d_name, ".yaml") ||
		    (skip && ends_with(de->d_name, skip)))
			continue;
		xgrow(out, &cap, n + 1, sizeof(**out));
		f = &(*out)[n++];
		f->path = xasprintf("%s/%s", dir, de->d_name);
		f->name = prefix ? xasprintf("%s/%s", prefix, de->d_name) :
				   xstrdup(f->path);
	}
	closedir(dp);
	if (n)
		qsort(*out, n, sizeof(**out), cmp_files);
	return (int)n;
}

void ydoc_files_free(struct ydoc_file *files, int n)
{
	for (int i = 0; i < n; i++) {
		free(files[i].path);
		free(files[i].name);
	}
	free(files);
}

/* Levenshtein distance, capped: used for "did you mean" hints. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[65], cur[65];

	if (la > 64 || lb > 64)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) :
					     (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(cur));
	}
	return prev[lb];
}

const char *ydoc_hint(const char *word, const char *const *cands, size_t n)
{
	static char buf[128];
	const char *pick = ydoc_nearest(word, cands, n);

	if (!pick)
		return "";
	snprintf(buf, sizeof(buf), "; did you mean '%s'?", pick);
	return buf;
}

const char *ydoc_nearest(const char *word, const char *const *cands, size_t n)
{
	size_t best = 3;
	const char *pick = NULL;

	for (size_t i = 0; i < n && strlen(word) >= 3; i++) {
		if (!strncmp(cands[i], word, strlen(word))) {
			pick = cands[i];
			break;
		}
	}
	for (size_t i = 0; i < n && !pick; i++) {
		size_t dist = distance(word, cands[i]);

		if (dist < best) {
			best = dist;
			pick = cands[i];
		}
	}
	return pick;
}
