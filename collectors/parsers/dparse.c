/* Declarative parsers: loading their YAML definitions and running them. */
#include "collectors/parsers/dparse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/regex.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/value.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"
#include "engine/ydoc.h"

#define DPARSE_LANGUAGE 1
#define DPARSE_SETS_MAX 8 /* constant fields of one pattern */
#define DPARSE_MAPS_MAX 16 /* fields with a value map */
#define DPARSE_MAP_ENTRIES 64 /* entries of one value map */
#define DPARSE_REQUIRE_MAX 16
#define DPARSE_VALUES_MAX 48 /* fields one record fills */

enum record_split {
	RECORD_LINE, /* every line is a record */
	RECORD_OUTPUT, /* the whole output is one record */
	RECORD_START, /* a record starts at each line the start regex matches */
};

struct const_field {
	char *field, *value;
};

struct pattern {
	struct regex *re;
	struct const_field set[DPARSE_SETS_MAX];
	size_t nset;
};

struct value_map {
	char *field;
	struct const_field entries[DPARSE_MAP_ENTRIES]; /* from, to */
	size_t n;
};

struct dparse {
	char *name, *what, *kind, *origin;
	char *argv[DPARSE_ARGV_MAX + 1];
	char *files[DPARSE_FILES_MAX + 1];
	unsigned timeout_ms;
	struct regex *markers[DPARSE_PATTERNS_MAX];
	size_t nmarkers;
	enum record_split split;
	struct regex *start;
	bool first_only; /* match: first */
	struct pattern patterns[DPARSE_PATTERNS_MAX];
	size_t npatterns;
	struct value_map maps[DPARSE_MAPS_MAX];
	size_t nmaps;
	char *require[DPARSE_REQUIRE_MAX];
	size_t nrequire;
};

struct dparse_set {
	struct dparse *v[DPARSE_MAX];
	size_t n;
};

struct dparse_set *dparse_set_new(void)
{
	return xcalloc(1, sizeof(struct dparse_set));
}

static void dparse_free(struct dparse *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->what);
	free(p->kind);
	free(p->origin);
	for (size_t i = 0; p->argv[i]; i++)
		free(p->argv[i]);
	for (size_t i = 0; p->files[i]; i++)
		free(p->files[i]);
	for (size_t i = 0; i < p->nmarkers; i++)
		regex_free(p->markers[i]);
	regex_free(p->start);
	for (size_t i = 0; i < p->npatterns; i++) {
		regex_free(p->patterns[i].re);
		for (size_t k = 0; k < p->patterns[i].nset; k++) {
			free(p->patterns[i].set[k].field);
			free(p->patterns[i].set[k].value);
		}
	}
	for (size_t i = 0; i < p->nmaps; i++) {
		free(p->maps[i].field);
		for (size_t k = 0; k < p->maps[i].n; k++) {
			free(p->maps[i].entries[k].field);
			free(p->maps[i].entries[k].value);
		}
	}
	/* every word read, also those past a field that failed its check */
	for (size_t i = 0; i < DPARSE_REQUIRE_MAX && p->require[i]; i++)
		free(p->require[i]);
	free(p);
}

void dparse_set_free(struct dparse_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		dparse_free(set->v[i]);
	free(set);
}

/* ---- loading ---- */

struct loader {
	const struct ydoc *doc;
	struct diag *d;
	bool failed;
};

static void err_at(struct loader *L, const struct ynode *n, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));

static void err_at(struct loader *L, const struct ynode *n, const char *fmt,
		   ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ydoc_report(L->doc, L->d, DIAG_ERROR, n, "%s", msg);
	L->failed = true;
}

/* A scalar of at most DPARSE_WORD_MAX bytes, or NULL after reporting. */
static const char *word(struct loader *L, const struct ynode *n,
			const char *what)
{
	if (!ynode_is_scalar(n) || !n->len) {
		err_at(L, n, "%s must be a non-empty text", what);
		return NULL;
	}
	if (n->len > DPARSE_WORD_MAX) {
		err_at(L, n, "%s is longer than %d bytes", what,
		       DPARSE_WORD_MAX);
		return NULL;
	}
	if (memchr(n->str, '\0', n->len)) {
		err_at(L, n, "%s holds a NUL byte", what);
		return NULL;
	}
	return n->str;
}

static bool identifier(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return false;
	return true;
}

/* A sequence of at most max items (a lone scalar counts as one). */
static bool items(struct loader *L, const struct ynode *n, size_t max,
		  const char *what, const struct ynode *const **out,
		  size_t *count)
{
	if (ynode_is_scalar(n)) {
		static const struct ynode *one;

		one = n;
		*out = &one;
		*count = 1;
		return true;
	}
	if (n->type != YNODE_SEQ || !n->n) {
		err_at(L, n, "%s must be a non-empty list", what);
		return false;
	}
	if (n->n > max) {
		err_at(L, n, "%s has %zu items; at most %zu", what, n->n, max);
		return false;
	}
	*out = (const struct ynode *const *)n->items;
	*count = n->n;
	return true;
}

static struct regex *compile(struct loader *L, const struct ynode *n,
			     const char *what)
{
	char msg[256];
	size_t off = 0;
	struct regex *re;

	if (!ynode_is_scalar(n) || !n->len) {
		err_at(L, n, "%s must be a regex (PCRE2) in quotes", what);
		return NULL;
	}
	if (n->len > DPARSE_LINE_MAX) {
		err_at(L, n, "%s is longer than %d bytes", what,
		       DPARSE_LINE_MAX);
		return NULL;
	}
	re = regex_compile(n->str, 0, msg, sizeof(msg), &off);
	if (!re)
		err_at(L, n, "%s is not a valid PCRE2 pattern: %s at offset %zu",
		       what, msg, off);
	return re;
}

/* Whether facts of p's kind may carry field: any field of a declared or
 * new kind, only the vocabulary's fields of a vocabulary kind. */
static bool check_field(struct loader *L, const struct dparse *p,
			const struct ynode *at, const char *field)
{
	const struct vocab_kind *k = vocab_kind_named(p->kind);
	const char *names[VOCAB_FIELDS_MAX];
	size_t nn = 0;

	if (!identifier(field)) {
		err_at(L, at, "'%s' is not a field name (a-z, 0-9, _)", field);
		return false;
	}
	if (!k || vocab_field(k, sym_intern(field, strlen(field))))
		return true;
	for (; nn < k->nfields && nn < VOCAB_FIELDS_MAX; nn++)
		names[nn] = k->fields[nn].name;
	err_at(L, at, "kind '%s' has no field '%s'%s", p->kind, field,
	       ydoc_hint(field, names, nn));
	return false;
}

static int load_fact(struct loader *L, struct dparse *p, const struct ynode *n)
{
	const char *s = word(L, n, "'fact'");
	const struct vocab_kind *k;

	if (!s)
		return -EINVAL;
	if (!identifier(s)) {
		err_at(L, n, "'%s' is not a kind name (a-z, 0-9, _)", s);
		return -EINVAL;
	}
	k = vocab_kind_named(s);
	if (k && strcmp(k->source, "collected")) {
		err_at(L, n,
		       "kind '%s' is not collected (its source is %s), so no parser may emit it",
		       s, k->source);
		return -EINVAL;
	}
	p->kind = xstrdup(s);
	return 0;
}

static int load_words(struct loader *L, const struct ynode *n, char **out,
		      size_t max, const char *what)
{
	const struct ynode *const *it;
	size_t cnt;

	/* a key given twice replaces the words of the first */
	for (size_t i = 0; i < max && out[i]; i++) {
		free(out[i]);
		out[i] = NULL;
	}
	if (!items(L, n, max, what, &it, &cnt))
		return -EINVAL;
	for (size_t i = 0; i < cnt; i++) {
		const char *s = word(L, it[i], what);

		if (!s)
			return -EINVAL;
		out[i] = xstrdup(s);
	}
	return 0;
}

static int load_command(struct loader *L, struct dparse *p,
			const struct ynode *n)
{
	if (ynode_is_scalar(n) && memchr(n->str, ' ', n->len)) {
		struct strbuf sb = STRBUF_INIT;
		const char *w = n->str;

		while (*w) {
			size_t k = strcspn(w, " \t");

			if (k)
				sb_printf(&sb, "%s%.*s", sb.len ? ", " : "",
					  (int)k, w);
			w += k;
			w += strspn(w, " \t");
		}
		err_at(L, n,
		       "'command' is run without a shell, so it is a list of words: [%s]",
		       sb_str(&sb));
		sb_release(&sb);
		return -EINVAL;
	}
	return load_words(L, n, p->argv, DPARSE_ARGV_MAX, "'command'");
}

static int load_files(struct loader *L, struct dparse *p, const struct ynode *n)
{
	if (load_words(L, n, p->files, DPARSE_FILES_MAX, "'files'"))
		return -EINVAL;
	for (size_t i = 0; p->files[i]; i++)
		if (p->files[i][0] == '/' || strstr(p->files[i], "..")) {
			err_at(L, n,
			       "'files' names paths inside a bundle: '%s' is absolute or climbs out",
			       p->files[i]);
			return -EINVAL;
		}
	return 0;
}

static int load_timeout(struct loader *L, struct dparse *p,
			const struct ynode *n)
{
	char *end;
	long v = ynode_is_scalar(n) ? strtol(n->str, &end, 10) : 0;

	if (!ynode_is_scalar(n) || *end || v < 1 || v > DPARSE_TIMEOUT_MAX) {
		err_at(L, n, "'timeout' is a whole number of seconds, 1 to %d",
		       DPARSE_TIMEOUT_MAX);
		return -EINVAL;
	}
	p->timeout_ms = (unsigned)v * 1000u;
	return 0;
}

static int load_markers(struct loader *L, struct dparse *p,
			const struct ynode *n)
{
	const struct ynode *const *it;
	size_t cnt;

	if (!items(L, n, DPARSE_PATTERNS_MAX, "'markers'", &it, &cnt))
		return -EINVAL;
	for (size_t i = 0; i < cnt; i++) {
		p->markers[i] = compile(L, it[i], "a marker");
		if (!p->markers[i])
			return -EINVAL;
		p->nmarkers++;
	}
	return 0;
}

static int load_records(struct loader *L, struct dparse *p,
			const struct ynode *n)
{
	const struct ynode *start;

	if (ynode_is_scalar(n) && !strcmp(n->str, "line"))
		p->split = RECORD_LINE;
	else if (ynode_is_scalar(n) && !strcmp(n->str, "output"))
		p->split = RECORD_OUTPUT;
	else if (n->type == YNODE_MAP && n->n == 1 &&
		 (start = ynode_get(n, "start"))) {
		p->split = RECORD_START;
		p->start = compile(L, start, "'start'");
		return p->start ? 0 : -EINVAL;
	} else {
		err_at(L, n,
		       "'records' is 'line', 'output' or {start: REGEX}");
		return -EINVAL;
	}
	return 0;
}

static int load_match(struct loader *L, struct dparse *p, const struct ynode *n)
{
	if (ynode_is_scalar(n) && !strcmp(n->str, "all"))
		p->first_only = false;
	else if (ynode_is_scalar(n) && !strcmp(n->str, "first"))
		p->first_only = true;
	else {
		err_at(L, n, "'match' is 'all' or 'first'");
		return -EINVAL;
	}
	return 0;
}

static int load_sets(struct loader *L, struct dparse *p, struct pattern *pt,
		     const struct ynode *n)
{
	if (n->type != YNODE_MAP || !n->n || n->n > DPARSE_SETS_MAX) {
		err_at(L, n, "'set' is a mapping of 1 to %d field: value",
		       DPARSE_SETS_MAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < n->n; i++) {
		const char *f = word(L, ynode_key(n, i), "a field"),
			   *v = word(L, ynode_value(n, i), "a value");

		if (!f || !v || !check_field(L, p, ynode_key(n, i), f))
			return -EINVAL;
		pt->set[pt->nset].field = xstrdup(f);
		pt->set[pt->nset++].value = xstrdup(v);
	}
	return 0;
}

static int load_pattern(struct loader *L, struct dparse *p,
			const struct ynode *n)
{
	static const char *const keys[] = { "pattern", "set" };
	struct pattern *pt = &p->patterns[p->npatterns];
	const struct ynode *re_node = n, *set = NULL;
	int groups;

	if (n->type == YNODE_MAP) {
		for (size_t i = 0; i < n->n; i++) {
			const struct ynode *k = ynode_key(n, i);

			if (!ynode_is_scalar(k) ||
			    (strcmp(k->str, "pattern") && strcmp(k->str, "set"))) {
				err_at(L, k, "unknown key '%s' in a field pattern%s",
				       ynode_is_scalar(k) ? k->str : "?",
				       ynode_is_scalar(k) ?
					       ydoc_hint(k->str, keys, 2) :
					       "");
				return -EINVAL;
			}
		}
		re_node = ynode_get(n, "pattern");
		set = ynode_get(n, "set");
		if (!re_node) {
			err_at(L, n, "a field pattern needs 'pattern'");
			return -EINVAL;
		}
	}
	pt->re = compile(L, re_node, "a field pattern");
	if (!pt->re)
		return -EINVAL;
	p->npatterns++;
	groups = regex_group_count(pt->re);
	if (groups >= REGEX_MAX_GROUPS) {
		err_at(L, re_node, "a field pattern has %d groups; at most %d",
		       groups, REGEX_MAX_GROUPS - 1);
		return -EINVAL;
	}
	if (!regex_name_count(pt->re) && !set) {
		err_at(L, re_node,
		       "a field pattern needs a named capture, (?<field>...), or a 'set'");
		return -EINVAL;
	}
	for (int i = 0; i < regex_name_count(pt->re); i++) {
		int g;

		if (!check_field(L, p, re_node, regex_name_at(pt->re, i, &g)))
			return -EINVAL;
	}
	return set ? load_sets(L, p, pt, set) : 0;
}

static int load_fields(struct loader *L, struct dparse *p,
		       const struct ynode *n)
{
	const struct ynode *const *it;
	size_t cnt;

	if (!items(L, n, DPARSE_PATTERNS_MAX, "'fields'", &it, &cnt))
		return -EINVAL;
	for (size_t i = 0; i < cnt; i++)
		if (load_pattern(L, p, it[i]))
			return -EINVAL;
	return 0;
}

static int load_maps(struct loader *L, struct dparse *p, const struct ynode *n)
{
	if (n->type != YNODE_MAP || !n->n || n->n > DPARSE_MAPS_MAX) {
		err_at(L, n, "'map' is a mapping of 1 to %d field: {text: value}",
		       DPARSE_MAPS_MAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *key = ynode_key(n, i), *m = ynode_value(n, i);
		const char *f = word(L, key, "a field");
		struct value_map *vm;

		if (!f || !check_field(L, p, key, f))
			return -EINVAL;
		if (m->type != YNODE_MAP || !m->n || m->n > DPARSE_MAP_ENTRIES) {
			err_at(L, m, "the map of '%s' is a mapping of 1 to %d text: value",
			       f, DPARSE_MAP_ENTRIES);
			return -EINVAL;
		}
		vm = &p->maps[p->nmaps++];
		vm->field = xstrdup(f);
		for (size_t k = 0; k < m->n; k++) {
			const char *from = word(L, ynode_key(m, k), "a text"),
				   *to = word(L, ynode_value(m, k), "a value");

			if (!from || !to)
				return -EINVAL;
			vm->entries[vm->n].field = xstrdup(from);
			vm->entries[vm->n++].value = xstrdup(to);
		}
	}
	return 0;
}

static int load_require(struct loader *L, struct dparse *p,
			const struct ynode *n)
{
	p->nrequire = 0;
	if (load_words(L, n, p->require, DPARSE_REQUIRE_MAX, "'require'"))
		return -EINVAL;
	for (; p->nrequire < DPARSE_REQUIRE_MAX && p->require[p->nrequire];
	     p->nrequire++)
		if (!check_field(L, p, n, p->require[p->nrequire]))
			return -EINVAL;
	return 0;
}

static int load_text(struct loader *L, char **out, const struct ynode *n,
		     const char *what)
{
	const char *s = word(L, n, what);

	if (!s)
		return -EINVAL;
	*out = xstrdup(s);
	return 0;
}

typedef int (*key_fn)(struct loader *L, struct dparse *p,
		      const struct ynode *n);

static int key_what(struct loader *L, struct dparse *p, const struct ynode *n)
{
	return load_text(L, &p->what, n, "'what'");
}

static int key_sources(struct loader *L, struct dparse *p,
		       const struct ynode *n)
{
	const struct ynode *const *it;
	size_t cnt;

	(void)p;
	if (!items(L, n, 32, "'sources'", &it, &cnt))
		return -EINVAL;
	for (size_t i = 0; i < cnt; i++)
		if (!ynode_is_scalar(it[i]) || !it[i]->len) {
			err_at(L, it[i], "a source is a non-empty text");
			return -EINVAL;
		}
	return 0;
}

/* The keys of a parser, in the order a definition reads; 'name' and
 * 'fact' are read first (fields are checked against the kind). */
static const struct {
	const char *key;
	key_fn load;
} parser_keys[] = {
	{ "name", NULL },	     { "fact", NULL },
	{ "what", key_what },	     { "sources", key_sources },
	{ "command", load_command }, { "files", load_files },
	{ "timeout", load_timeout }, { "markers", load_markers },
	{ "records", load_records }, { "match", load_match },
	{ "fields", load_fields },   { "map", load_maps },
	{ "require", load_require },
};

static int load_parser(struct loader *L, struct dparse_set *set,
		       const struct ynode *n, size_t first_of_file)
{
	const char *names[ARRAY_SIZE(parser_keys)];
	bool seen[ARRAY_SIZE(parser_keys)] = { false };
	const struct ynode *name, *fact;
	struct dparse *p;
	const char *s;
	bool bad = false;

	for (size_t i = 0; i < ARRAY_SIZE(parser_keys); i++)
		names[i] = parser_keys[i].key;
	if (n->type != YNODE_MAP) {
		err_at(L, n, "a parser is a mapping with 'name', 'fact' and 'fields'");
		return -EINVAL;
	}
	name = ynode_get(n, "name");
	fact = ynode_get(n, "fact");
	if (!name || !fact || !ynode_get(n, "fields") ||
	    !ynode_get(n, "sources")) {
		err_at(L, n, "a parser needs %s",
		       !name ? "'name'" : !fact ? "'fact' (the kind it emits)" :
		       !ynode_get(n, "fields") ? "'fields' (its patterns)" :
		       "'sources' (where its format comes from)");
		return -EINVAL;
	}
	if (!(s = word(L, name, "'name'")))
		return -EINVAL;
	if (!identifier(s) || name->len > 64) {
		err_at(L, name,
		       "'%s' is not a parser name (a-z, 0-9, _; at most 64 bytes)",
		       s);
		return -EINVAL;
	}
	p = xcalloc(1, sizeof(*p));
	p->name = xstrdup(s);
	p->origin = xasprintf("%s:%d", ydoc_name(L->doc), n->line);
	if (load_fact(L, p, fact))
		goto fail;
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *k = ynode_key(n, i);
		size_t j = 0;

		while (j < ARRAY_SIZE(parser_keys) && ynode_is_scalar(k) &&
		       strcmp(k->str, parser_keys[j].key))
			j++;
		if (j < ARRAY_SIZE(parser_keys) && seen[j]) {
			err_at(L, k, "key '%s' is given twice in parser '%s'",
			       k->str, p->name);
			bad = true;
			continue;
		}
		if (j < ARRAY_SIZE(parser_keys))
			seen[j] = true;
		if (!ynode_is_scalar(k) || j == ARRAY_SIZE(parser_keys)) {
			err_at(L, k, "unknown key '%s' in parser '%s'%s",
			       ynode_is_scalar(k) ? k->str : "?", p->name,
			       ynode_is_scalar(k) ?
				       ydoc_hint(k->str, names,
						 ARRAY_SIZE(parser_keys)) :
				       "");
			bad = true;
			continue;
		}
		/* every key is checked, so that one lint run shows all */
		if (parser_keys[j].load &&
		    parser_keys[j].load(L, p, ynode_value(n, i)))
			bad = true;
	}
	if (bad)
		goto fail;
	if (!p->nmarkers && !p->argv[0] && !p->files[0]) {
		err_at(L, n,
		       "parser '%s' has no 'markers', 'command' or 'files': nothing would ever reach it",
		       p->name);
		goto fail;
	}
	if (!p->what)
		p->what = xasprintf("%s (a site parser)", p->name);
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(set->v[i]->name, p->name))
			continue;
		if (i >= first_of_file) {
			err_at(L, name, "parser '%s' is defined twice in this file",
			       p->name);
			goto fail;
		}
		dparse_free(set->v[i]);
		set->v[i] = p;
		return 0;
	}
	if (set->n == DPARSE_MAX) {
		err_at(L, n, "more than %d parsers", DPARSE_MAX);
		goto fail;
	}
	set->v[set->n++] = p;
	return 0;
fail:
	dparse_free(p);
	return -EINVAL;
}

static int load_doc(struct dparse_set *set, const struct ydoc *doc,
		    struct diag *d)
{
	static const char *const keys[] = { "language", "parsers" };
	struct loader L = { doc, d, false };
	const struct ynode *root = ydoc_root(doc), *lang, *list;
	size_t before = set->n, loaded = 0;

	if (!root || root->type != YNODE_MAP) {
		err_at(&L, root, "a parser file is a mapping with 'language' and 'parsers'");
		return -EINVAL;
	}
	for (size_t i = 0; i < root->n; i++) {
		const struct ynode *k = ynode_key(root, i);

		if (!ynode_is_scalar(k) ||
		    (strcmp(k->str, "language") && strcmp(k->str, "parsers")))
			err_at(&L, k, "unknown key '%s' in a parser file%s",
			       ynode_is_scalar(k) ? k->str : "?",
			       ynode_is_scalar(k) ? ydoc_hint(k->str, keys, 2) :
						    "");
	}
	lang = ynode_get(root, "language");
	if (!lang || !ynode_is_scalar(lang) || strcmp(lang->str, "1"))
		err_at(&L, lang ? lang : root,
		       "a parser file needs 'language: %d'", DPARSE_LANGUAGE);
	list = ynode_get(root, "parsers");
	if (!list || list->type != YNODE_SEQ)
		err_at(&L, list ? list : root,
		       "'parsers' must be a list of parsers");
	else
		for (size_t i = 0; i < list->n; i++)
			if (!load_parser(&L, set, list->items[i], before))
				loaded++;
	return L.failed ? -EINVAL : (int)loaded;
}

int dparse_load_file(struct dparse_set *set, const char *path,
		     const char *name, struct diag *d)
{
	struct ydoc *doc = ydoc_load_file(path, name, d);
	int rc;

	if (!doc)
		return -EINVAL;
	rc = load_doc(set, doc, d);
	ydoc_free(doc);
	return rc;
}

int dparse_load_string(struct dparse_set *set, const char *name,
		       const char *text, size_t len, struct diag *d)
{
	struct ydoc *doc = ydoc_load_string(name, text, len, d);
	int rc;

	if (!doc)
		return -EINVAL;
	rc = load_doc(set, doc, d);
	ydoc_free(doc);
	return rc;
}

int dparse_load_dir(struct dparse_set *set, const char *dir,
		    const char *prefix, struct diag *d)
{
	struct ydoc_file *files;
	int n = ydoc_dir(dir, prefix, NULL, &files), total = 0;
	bool failed = false;

	if (n == -ENOENT || n == -ENOTDIR)
		return 0;
	if (n < 0) {
		diag_at(d, DIAG_ERROR, dir, 0, 0, NULL,
			"cannot read the parser directory: %s", strerror(-n));
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		int rc = dparse_load_file(set, files[i].path, files[i].name, d);

		if (rc < 0)
			failed = true;
		else
			total += rc;
	}
	ydoc_files_free(files, n);
	return failed ? -EINVAL : total;
}

/* ---- lookup ---- */

size_t dparse_count(const struct dparse_set *set)
{
	return set ? set->n : 0;
}

const struct dparse *dparse_at(const struct dparse_set *set, size_t i)
{
	return set && i < set->n ? set->v[i] : NULL;
}

const struct dparse *dparse_find(const struct dparse_set *set,
				 const char *name)
{
	for (size_t i = 0; set && i < set->n; i++)
		if (!strcmp(set->v[i]->name, name))
			return set->v[i];
	return NULL;
}

static bool line_matches(const struct regex *re, const struct line *ln,
			 struct regex_match *m)
{
	size_t n = ln->len < DPARSE_LINE_MAX ? ln->len : DPARSE_LINE_MAX;

	/* a pattern the match limit stops counts as no match */
	return regex_match(re, ln->p, n, m) == 1;
}

bool dparse_markers_match(const struct dparse *p, const char *text,
			  size_t len)
{
	struct lines it;
	struct line ln;

	lines_init(&it, text, len);
	while (p->nmarkers && it.no < DPARSE_SCAN_LINES &&
	       lines_next(&it, &ln))
		for (size_t k = 0; k < p->nmarkers; k++)
			if (line_matches(p->markers[k], &ln, NULL))
				return true;
	return false;
}

const char *dparse_name(const struct dparse *p)
{
	return p->name;
}

const char *dparse_what(const struct dparse *p)
{
	return p->what;
}

const char *dparse_kind(const struct dparse *p)
{
	return p->kind;
}

const char *dparse_origin(const struct dparse *p)
{
	return p->origin;
}

const char *const *dparse_argv(const struct dparse *p)
{
	return (const char *const *)p->argv;
}

const char *const *dparse_files(const struct dparse *p)
{
	return (const char *const *)p->files;
}

unsigned dparse_timeout_ms(const struct dparse *p)
{
	return p->timeout_ms;
}

/* ---- running ---- */

/* One field's value found in a record: text in the input (p) or a
 * constant of the definition (s), and the line it came from. */
struct found {
	const char *field;
	const char *p;
	size_t n;
	struct line ln;
};

struct record {
	struct found v[DPARSE_VALUES_MAX];
	size_t n;
};

static void put(struct record *r, const char *field, const char *s, size_t n,
		const struct line *ln)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].field, field))
			return; /* the first pattern to fill a field wins */
	if (r->n < DPARSE_VALUES_MAX)
		r->v[r->n++] = (struct found){ field, s, n, *ln };
}

/* The name of capture group g, or NULL when it has none. */
static const char *group_name(const struct regex *re, int g)
{
	for (int i = 0; i < regex_name_count(re); i++) {
		int n;
		const char *name = regex_name_at(re, i, &n);

		if (n == g)
			return name;
	}
	return NULL;
}

/* Fills r from the first line of text[0..len) that pattern pt matches;
 * false when none does. */
static bool apply(const struct pattern *pt, const char *text, size_t len,
		  uint32_t first_no, struct record *r)
{
	struct lines it;
	struct line ln;
	struct regex_match m;

	lines_init(&it, text, len);
	while (lines_next(&it, &ln)) {
		ln.no += first_no - 1;
		if (!line_matches(pt->re, &ln, &m))
			continue;
		/* in the order the groups stand in the pattern, so that a
		 * fact's fields read as the line does (PCRE2 lists names
		 * alphabetically) */
		for (int g = 1; g < m.ngroups; g++) {
			const char *field = group_name(pt->re, g);

			if (field && m.start[g] >= 0 && m.end[g] > m.start[g])
				put(r, field, ln.p + m.start[g],
				    (size_t)(m.end[g] - m.start[g]), &ln);
		}
		for (size_t k = 0; k < pt->nset; k++)
			put(r, pt->set[k].field, pt->set[k].value,
			    strlen(pt->set[k].value), &ln);
		return true;
	}
	return false;
}

static void mapped(const struct dparse *p, struct found *f)
{
	for (size_t i = 0; i < p->nmaps; i++) {
		if (strcmp(p->maps[i].field, f->field))
			continue;
		for (size_t k = 0; k < p->maps[i].n; k++) {
			const char *from = p->maps[i].entries[k].field;

			if (strlen(from) == f->n && !memcmp(from, f->p, f->n)) {
				f->p = p->maps[i].entries[k].value;
				f->n = strlen(f->p);
				return;
			}
		}
	}
}

static bool has(const struct record *r, const char *field)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].field, field))
			return true;
	return false;
}

/* Emits the fact of one record, text[0..len) starting at line first_no;
 * returns 1 when it emitted one. */
static int record(const struct dparse *p, struct emit *e, const char *text,
		  size_t len, uint32_t first_no)
{
	struct record r = { .n = 0 };
	bool vocab = vocab_kind_named(p->kind) != NULL;
	struct fact *f;

	for (size_t i = 0; i < p->npatterns; i++)
		if (apply(&p->patterns[i], text, len, first_no, &r) &&
		    p->first_only)
			break;
	if (!r.n)
		return 0;
	for (size_t i = 0; i < p->nrequire; i++)
		if (!has(&r, p->require[i]))
			return 0;
	f = emit_begin(e, p->kind, &r.v[0].ln);
	for (size_t i = 0; i < r.n; i++) {
		mapped(p, &r.v[i]);
		if (vocab) {
			emit_str(e, f, r.v[i].field, r.v[i].p, r.v[i].n,
				 &r.v[i].ln);
		} else {
			struct strbuf sb = STRBUF_INIT;

			text_sanitize(&sb, r.v[i].p, r.v[i].n, DPARSE_WORD_MAX);
			emit_value(e, f, r.v[i].field,
				   value_guess(sb_str(&sb), sb.len),
				   &r.v[i].ln);
			sb_release(&sb);
		}
	}
	return emit_end(e, f) ? 1 : 0;
}

int dparse_run(const struct dparse *p, struct emit *e, const char *text,
	       size_t len)
{
	struct lines it;
	struct line ln;
	const char *start = NULL;
	uint32_t start_no = 0;
	int facts = 0;

	if (p->split == RECORD_OUTPUT)
		return record(p, e, text, len, 1);
	lines_init(&it, text, len);
	while (lines_next(&it, &ln)) {
		if (p->split == RECORD_LINE) {
			facts += record(p, e, ln.p, ln.len, ln.no);
			continue;
		}
		if (!line_matches(p->start, &ln, NULL))
			continue;
		if (start)
			facts += record(p, e, start, (size_t)(ln.p - start),
					start_no);
		start = ln.p;
		start_no = ln.no;
	}
	if (start)
		facts += record(p, e, start, (size_t)(text + len - start),
				start_no);
	return facts;
}
