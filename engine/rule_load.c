/* Rule files: YAML trees (engine/ydoc.h) checked and compiled into struct
 * rule.  Every mistake is reported with file:line:col.  The grammar:
 *
 *   file      := { language: 1, kinds: { KIND: [field...] },
 *                  questions: [question...], rules: [rule...] }
 *   rule      := { id, title, layer, severity, confidence, when: [cond...],
 *                  diagnose?, assert?, ask?, salience?, description?,
 *                  sources?, tags?, disabled? }
 *   cond      := { KIND: tests } | { not: { KIND: tests } }
 *              | { exists: { KIND: tests } }
 *   tests     := { FIELD: $var | constant | [constants] | { OP: operand... } }
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/regex.h"
#include "engine/rule.h"
#include "engine/rule_load.h"
#include "engine/rule_vars.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"
#include "engine/ydoc.h"

#define RULE_ID_MAX 64 /* @@ */
#define RULE_SALIENCE_MAX 10000 /* @@ */

void rule_load_error(struct rule_loader *L, const struct ynode *n,
		     const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	ydoc_report(L->doc, L->d, DIAG_ERROR, n, "%s", sb_str(&sb));
	sb_release(&sb);
	L->failed = true;
}

const char *rule_load_hint(const char *word, const char *const *cands, size_t n)
{
	return ydoc_hint(word, cands, n);
}

static bool check_keys(struct rule_loader *L, const struct ynode *map,
		       const char *what, const char *const *keys, size_t n)
{
	bool ok = true;

	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = ynode_key(map, i);
		bool known = false;

		if (!ynode_is_scalar(k)) {
			rule_load_error(L, k, "%s keys must be names", what);
			ok = false;
			continue;
		}
		for (size_t j = 0; j < n && !known; j++)
			known = !strcmp(k->str, keys[j]);
		for (size_t j = 0; j < i && known; j++) {
			const struct ynode *prev = ynode_key(map, j);

			/* An earlier key may be a list or a mapping. */
			if (ynode_is_scalar(prev) &&
			    !strcmp(prev->str, k->str)) {
				rule_load_error(L, k,
						"key '%s' given twice in %s",
						k->str, what);
				ok = false;
			}
		}
		if (!known) {
			rule_load_error(L, k, "unknown key '%s' in %s%s",
					k->str, what,
					rule_load_hint(k->str, keys, n));
			ok = false;
		}
	}
	return ok;
}

static const struct ynode *need(struct rule_loader *L, const struct ynode *map,
				const char *key, const char *what)
{
	const struct ynode *v = ynode_get(map, key);

	if (!v)
		rule_load_error(L, map, "%s has no '%s'", what, key);
	return v;
}

static char *scalar_dup(struct rule_loader *L, const struct ynode *n,
			const char *what)
{
	if (!ynode_is_scalar(n) || !n->len) {
		rule_load_error(L, n, "%s must be a non-empty text, not %s",
				what, ynode_type_to_str(n));
		return NULL;
	}
	return xstrndup(n->str, n->len);
}

/* A scalar or a list of scalars, as owned strings; the position of each
 * goes into *at (line, col pairs) when at is not NULL. */
static int string_list_at(struct rule_loader *L, const struct ynode *n,
			  const char *what, char ***out, size_t *count,
			  int **at)
{
	size_t cap = 0;

	*out = NULL;
	*count = 0;
	if (at) {
		size_t k = n->type == YNODE_SEQ ? n->n : 1;

		*at = xcalloc(2 * (k ? k : 1), sizeof(int));
		for (size_t i = 0; i < k; i++) {
			const struct ynode *it =
				n->type == YNODE_SEQ ? n->items[i] : n;

			(*at)[2 * i] = it->line;
			(*at)[2 * i + 1] = it->col;
		}
	}
	if (ynode_is_scalar(n)) {
		xgrow(out, &cap, 1, sizeof(**out));
		(*out)[(*count)++] = xstrndup(n->str, n->len);
		return 0;
	}
	if (n->type != YNODE_SEQ) {
		rule_load_error(L, n, "%s must be a list of texts", what);
		return -EINVAL;
	}
	for (size_t i = 0; i < n->n; i++) {
		char *s = scalar_dup(L, n->items[i], what);

		if (!s)
			return -EINVAL;
		xgrow(out, &cap, *count + 1, sizeof(**out));
		(*out)[(*count)++] = s;
	}
	return 0;
}

static int string_list(struct rule_loader *L, const struct ynode *n,
		       const char *what, char ***out, size_t *count)
{
	return string_list_at(L, n, what, out, count, NULL);
}

static bool valid_id(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > RULE_ID_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9');

		if (!alnum && (i == 0 || !strchr("-_.", c)))
			return false;
	}
	return true;
}

static int parse_number(const struct ynode *n, double *out)
{
	char *end;

	if (!ynode_is_scalar(n) || !n->len)
		return -EINVAL;
	*out = strtod(n->str, &end);
	return *end ? -EINVAL : 0;
}

/* ---- actions ---- */

static int template_var(void *ctx, const char *name, size_t len)
{
	struct rule_ctx *c = ctx;

	for (size_t i = 0; i < c->r->nvars; i++)
		if (strlen(c->r->vars[i]) == len &&
		    !strncmp(c->r->vars[i], name, len) &&
		    rule_vars_bound(c->r, (int)i))
			return (int)i;
	snprintf(c->unbound, sizeof(c->unbound), "%.*s", (int)len, name);
	return -1;
}

/* "; did you mean '{dev}'?" for a template name close to a bound
 * variable. */
static const char *bound_hint(struct rule_ctx *c)
{
	static char buf[96];
	const char **names;
	const char *near;
	size_t n = 0;

	buf[0] = '\0';
	if (!c->unbound[0])
		return buf;
	names = xcalloc(c->r->nvars ? c->r->nvars : 1, sizeof(*names));
	for (size_t i = 0; i < c->r->nvars; i++)
		if (rule_vars_bound(c->r, (int)i))
			names[n++] = c->r->vars[i];
	near = ydoc_nearest(c->unbound, names, n);
	if (near)
		snprintf(buf, sizeof(buf), "; did you mean '{%s}'?", near);
	free(names);
	c->unbound[0] = '\0';
	return buf;
}

static int template(struct rule_ctx *c, const struct ynode *n,
		    struct template *t)
{
	char msg[256];
	size_t off = 0;

	if (!ynode_is_scalar(n)) {
		rule_load_error(c->L, n, "expected a text, not %s",
				ynode_type_to_str(n));
		return -EINVAL;
	}
	if (template_parse(t, n->str, template_var, c, msg, sizeof(msg),
			   &off)) {
		struct ynode at = *n;

		if (!memchr(n->str, '\n', off))
			at.col += (int)off + (n->plain ? 0 : 1);
		rule_load_error(c->L, &at, "%s%s", msg, bound_hint(c));
		return -EINVAL;
	}
	return 0;
}

static int diagnose(struct rule_ctx *c, const struct ynode *n)
{
	static const char *const keys[] = { "id", "message", "remediation",
					    "explains", "about" };
	const struct ynode *v;
	struct rule *r = c->r;

	if (n->type != YNODE_MAP) {
		rule_load_error(c->L, n,
				"'diagnose' must be a mapping with a message");
		return -EINVAL;
	}
	if (!check_keys(c->L, n, "diagnose", keys, ARRAY_SIZE(keys)))
		return -EINVAL;
	r->diagnoses = true;
	v = ynode_get(n, "id");
	if (v && !(r->diag_id = scalar_dup(c->L, v, "'id'")))
		return -EINVAL;
	if (v && !valid_id(r->diag_id)) {
		rule_load_error(
			c->L, v,
			"diagnosis id '%s' may hold only letters, digits, '-', '_' and '.'",
			r->diag_id);
		return -EINVAL;
	}
	if (!r->diag_id)
		r->diag_id = xstrdup(r->id);
	v = need(c->L, n, "message", "'diagnose'");
	if (!v || template(c, v, &r->message))
		return -EINVAL;
	v = ynode_get(n, "about");
	if (v && template(c, v, &r->about))
		return -EINVAL;
	v = ynode_get(n, "remediation");
	if (v) {
		const struct ynode *const *items = &v;
		size_t count = 1;

		if (v->type == YNODE_SEQ) {
			items = (const struct ynode *const *)v->items;
			count = v->n;
		}
		r->remediation = xcalloc(count, sizeof(*r->remediation));
		for (size_t i = 0; i < count; i++, r->nremediation++)
			if (template(c, items[i], &r->remediation[i]))
				return -EINVAL;
	}
	v = ynode_get(n, "explains");
	if (v && string_list_at(c->L, v, "'explains'", &r->explains,
				&r->nexplains, &r->explains_at))
		return -EINVAL;
	return 0;
}

static int assert_value(struct rule_ctx *c, const struct ynode *n,
			struct assert_field *af)
{
	if (!ynode_is_scalar(n)) {
		rule_load_error(
			c->L, n,
			"an asserted field takes a value, $var or text");
		return -EINVAL;
	}
	if (rule_cond_is_var(n)) {
		if (rule_cond_var_operand(c, n, false, &af->value))
			return -EINVAL;
		if (!rule_vars_bound(c->r, af->value.var)) {
			rule_load_error(c->L, n, "no condition binds %s",
					n->str);
			return -EINVAL;
		}
		return 0;
	}
	if (memchr(n->str, '{', n->len)) {
		af->is_template = true;
		return template(c, n, &af->tmpl);
	}
	af->value.type = OPERAND_CONST;
	af->value.v = n->plain ? value_guess(n->str, n->len) :
				 value_str(n->str, n->len);
	return 0;
}

static int assertions(struct rule_ctx *c, const struct ynode *n)
{
	struct rule *r = c->r;

	if (n->type != YNODE_SEQ || !n->n) {
		rule_load_error(
			c->L, n,
			"'assert' must be a list of 'kind: {field: value}' entries");
		return -EINVAL;
	}
	r->asserts = xcalloc(n->n, sizeof(*r->asserts));
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *item = n->items[i], *fields;
		struct assertion *a = &r->asserts[r->nasserts++];

		if (item->type != YNODE_MAP || item->n != 1 ||
		    !ynode_is_scalar(ynode_key(item, 0)) ||
		    ynode_value(item, 0)->type != YNODE_MAP) {
			rule_load_error(
				c->L, item,
				"an assertion is one 'kind: {field: value}' entry");
			return -EINVAL;
		}
		a->kind = sym_intern_cstr(ynode_key(item, 0)->str);
		a->line = item->line;
		a->col = item->col;
		if (vocab_kind(a->kind) &&
		    strcmp(vocab_kind(a->kind)->source, "collected")) {
			rule_load_error(
				c->L, ynode_key(item, 0),
				"rules may not assert '%s' facts; they come from %s",
				ynode_key(item, 0)->str,
				vocab_kind(a->kind)->source);
			return -EINVAL;
		}
		fields = ynode_value(item, 0);
		a->fields =
			xcalloc(fields->n ? fields->n : 1, sizeof(*a->fields));
		for (size_t j = 0; j < fields->n; j++) {
			const struct ynode *key = ynode_key(fields, j);
			struct assert_field *af = &a->fields[a->nfields++];

			if (!ynode_is_scalar(key)) {
				rule_load_error(c->L, key,
						"expected a field name");
				return -EINVAL;
			}
			af->field = sym_intern(key->str, key->len);
			if (assert_value(c, ynode_value(fields, j), af))
				return -EINVAL;
		}
	}
	return 0;
}

/* ---- rules and questions ---- */

static const char *const rule_keys[] = {
	"id",	      "title",	  "description", "layer",    "severity",
	"confidence", "salience", "sources",	 "tags",     "when",
	"diagnose",   "assert",	  "ask",	 "disabled",
};

static int rule_meta(struct rule_ctx *c, const struct ynode *n)
{
	static const char *layers[] = {
#define X(id, name, doc) name,
		RULE_LAYERS(X)
#undef X
	};
	static const char *severities[] = {
#define X(id, name, weight, tone) name,
		RULE_SEVERITIES(X)
#undef X
	};
	struct rule *r = c->r;
	const struct ynode *v;
	int i;

	if (!(v = need(c->L, n, "title", "rule")) ||
	    !(r->title = scalar_dup(c->L, v, "'title'")))
		return -EINVAL;
	if (!(v = need(c->L, n, "layer", "rule")))
		return -EINVAL;
	if (!ynode_is_scalar(v) || (i = layer_from_str(v->str)) < 0) {
		rule_load_error(
			c->L, v,
			"unknown layer '%s'; layers are hardware, firmware, driver, kernel_module and verbs%s",
			ynode_is_scalar(v) ? v->str : "",
			ynode_is_scalar(v) ?
				rule_load_hint(v->str, layers, LAYER_COUNT) :
				"");
		return -EINVAL;
	}
	r->layer = (enum layer)i;
	if (!(v = need(c->L, n, "severity", "rule")))
		return -EINVAL;
	if (!ynode_is_scalar(v) || (i = severity_from_str(v->str)) < 0) {
		rule_load_error(
			c->L, v,
			"unknown severity '%s'; severities are critical, error, warning and info%s",
			ynode_is_scalar(v) ? v->str : "",
			ynode_is_scalar(v) ? rule_load_hint(v->str, severities,
							    SEVERITY_COUNT) :
					     "");
		return -EINVAL;
	}
	r->severity = (enum severity)i;
	if (!(v = need(c->L, n, "confidence", "rule")))
		return -EINVAL;
	if (parse_number(v, &r->confidence) || r->confidence < -1 ||
	    r->confidence > 1 || r->confidence == 0) {
		rule_load_error(
			c->L, v,
			"confidence must be a number in [-1, 1] other than 0");
		return -EINVAL;
	}
	if ((v = ynode_get(n, "salience"))) {
		double s;

		/* The range first: casting a huge double to int is undefined. */
		if (parse_number(v, &s) || !(s >= -RULE_SALIENCE_MAX) ||
		    s > RULE_SALIENCE_MAX || s != (int)s) {
			rule_load_error(
				c->L, v,
				"salience must be a whole number from %d to %d",
				-RULE_SALIENCE_MAX, RULE_SALIENCE_MAX);
			return -EINVAL;
		}
		r->salience = (int)s;
	}
	if ((v = ynode_get(n, "description")) &&
	    !(r->description = scalar_dup(c->L, v, "'description'")))
		return -EINVAL;
	if ((v = ynode_get(n, "sources")) &&
	    string_list(c->L, v, "'sources'", &r->sources, &r->nsources))
		return -EINVAL;
	if ((v = ynode_get(n, "tags")) &&
	    string_list(c->L, v, "'tags'", &r->tags, &r->ntags))
		return -EINVAL;
	if ((v = ynode_get(n, "ask")) &&
	    string_list_at(c->L, v, "'ask'", &r->asks, &r->nasks, &r->asks_at))
		return -EINVAL;
	return 0;
}

static struct rule *parse_rule(struct rule_loader *L, const struct ynode *n)
{
	struct rule_ctx c = { L, NULL, 0, "" };
	const struct ynode *v, *dis;
	struct rule *r;

	if (n->type != YNODE_MAP) {
		rule_load_error(L, n, "a rule must be a mapping, not %s",
				ynode_type_to_str(n));
		return NULL;
	}
	if (!check_keys(L, n, "rule", rule_keys, ARRAY_SIZE(rule_keys)))
		return NULL;
	r = xcalloc(1, sizeof(*r));
	c.r = r;
	r->file = xstrdup(ydoc_name(L->doc));
	r->line = n->line;
	r->col = n->col;
	r->origin_level = L->level;
	if (!(v = need(L, n, "id", "rule")) ||
	    !(r->id = scalar_dup(L, v, "'id'")))
		goto fail;
	if (!valid_id(r->id)) {
		rule_load_error(
			L, v,
			"rule id '%s' may hold only letters, digits, '-', '_' and '.' (at most %d)",
			r->id, RULE_ID_MAX);
		goto fail;
	}
	dis = ynode_get(n, "disabled");
	if (dis) {
		struct value b;

		if (!ynode_is_scalar(dis) ||
		    value_parse(dis->str, dis->len, VALUE_BOOL, 0, &b)) {
			rule_load_error(L, dis,
					"'disabled' takes true or false");
			goto fail;
		}
		if (b.b) {
			char *where = xasprintf("%s:%d", r->file, r->line);

			rule_set_disable(L->rs, r->id, L->level, where);
			free(where);
			rule_free(r);
			return NULL;
		}
	}
	if (rule_meta(&c, n))
		goto fail;
	if (!(v = need(L, n, "when", "rule")) || rule_cond_when(&c, v))
		goto fail;
	if (rule_vars_analyse(r, L->doc, L->d))
		goto fail;
	if ((v = ynode_get(n, "diagnose")) && diagnose(&c, v))
		goto fail;
	if ((v = ynode_get(n, "assert")) && assertions(&c, v))
		goto fail;
	if (r->confidence < 0 && (r->nasserts || !ynode_get(n, "diagnose"))) {
		rule_load_error(
			L, n,
			"rule '%s' has negative confidence: it may only lower a diagnosis, not assert facts",
			r->id);
		goto fail;
	}
	if (!r->diagnoses && !r->nasserts) {
		rule_load_error(
			L, n,
			"rule '%s' neither diagnoses nor asserts anything",
			r->id);
		goto fail;
	}
	rule_vars_warn_unused(r, L->doc, L->d);
	rule_vars_warn_cross(r, L->doc, L->d);
	return r;
fail:
	L->failed = true;
	rule_free(r);
	return NULL;
}

static struct question *parse_question(struct rule_loader *L,
				       const struct ynode *n)
{
	static const char *const keys[] = { "id",      "prompt", "choices",
					    "default", "why",    "first" };
	struct question *q;
	const struct ynode *v;

	if (n->type != YNODE_MAP) {
		rule_load_error(L, n, "a question must be a mapping");
		return NULL;
	}
	if (!check_keys(L, n, "question", keys, ARRAY_SIZE(keys)))
		return NULL;
	q = xcalloc(1, sizeof(*q));
	q->file = xstrdup(ydoc_name(L->doc));
	q->line = n->line;
	if (!(v = need(L, n, "id", "question")) ||
	    !(q->id = scalar_dup(L, v, "'id'")))
		goto fail;
	if (!valid_id(q->id)) {
		rule_load_error(
			L, v,
			"question id '%s' may hold only letters, digits, '-', '_' and '.'",
			q->id);
		goto fail;
	}
	if (!(v = need(L, n, "prompt", "question")) ||
	    !(q->prompt = scalar_dup(L, v, "'prompt'")))
		goto fail;
	if (!(v = need(L, n, "choices", "question")))
		goto fail;
	if (v->type != YNODE_SEQ || v->n < 2) {
		rule_load_error(L, v,
				"'choices' must list at least two answers");
		goto fail;
	}
	q->choices = xcalloc(v->n, sizeof(*q->choices));
	for (size_t i = 0; i < v->n; i++) {
		const struct ynode *ch = v->items[i];
		/* Counted before it is filled, so that a failure frees it. */
		struct choice *c = &q->choices[q->nchoices++];

		if (ch->type == YNODE_MAP && ch->n == 1 &&
		    ynode_is_scalar(ynode_key(ch, 0))) {
			c->value = scalar_dup(L, ynode_key(ch, 0), "a choice");
			c->label = scalar_dup(L, ynode_value(ch, 0),
					      "a choice label");
		} else {
			c->value = scalar_dup(L, ch, "a choice");
			c->label = c->value ? xstrdup(c->value) : NULL;
		}
		if (!c->value || !c->label)
			goto fail;
		if (!valid_id(c->value)) {
			rule_load_error(
				L, ch,
				"choice '%s' may hold only letters, digits, '-', '_' and '.'",
				c->value);
			goto fail;
		}
	}
	if ((v = ynode_get(n, "default"))) {
		bool found = false;

		if (!(q->def = scalar_dup(L, v, "'default'")))
			goto fail;
		for (size_t i = 0; i < q->nchoices; i++)
			found |= !strcmp(q->choices[i].value, q->def);
		if (!found) {
			rule_load_error(
				L, v, "default '%s' is not one of the choices",
				q->def);
			goto fail;
		}
	}
	if ((v = ynode_get(n, "why")) && !(q->why = scalar_dup(L, v, "'why'")))
		goto fail;
	if ((v = ynode_get(n, "first"))) {
		struct value b;

		if (!ynode_is_scalar(v) ||
		    value_parse(v->str, v->len, VALUE_BOOL, 0, &b)) {
			rule_load_error(L, v, "'first' takes true or false");
			goto fail;
		}
		q->first = b.b;
	}
	return q;
fail:
	question_free(q);
	return NULL;
}

static int language(struct rule_loader *L, const struct ynode *root)
{
	const struct ynode *v = ynode_get(root, "language");
	double version;

	if (!v) {
		rule_load_error(
			L, root,
			"rule file does not say which rule language it needs; add 'language: %d'",
			RULE_LANGUAGE_VERSION);
		return -EINVAL;
	}
	if (parse_number(v, &version) || !(version >= 1) || version > INT_MAX ||
	    version != (int)version) {
		rule_load_error(L, v,
				"'language' must be a whole number such as %d",
				RULE_LANGUAGE_VERSION);
		return -EINVAL;
	}
	if (version > RULE_LANGUAGE_VERSION) {
		rule_load_error(
			L, v,
			"file needs rule language %d, but this rdmadoctor understands %d; upgrade rdmadoctor",
			(int)version, RULE_LANGUAGE_VERSION);
		return -EINVAL;
	}
	return 0;
}

/* kinds: { KIND: [field, ...] }: kinds outside the vocabulary that fact
 * files supply. */
static int kinds(struct rule_loader *L, const struct ynode *n)
{
	if (n->type != YNODE_MAP) {
		rule_load_error(
			L, n,
			"'kinds' maps each kind to the list of its fields");
		return -EINVAL;
	}
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *k = ynode_key(n, i), *v = ynode_value(n, i);
		uint32_t kind;

		if (!ynode_is_scalar(k) || !valid_id(k->str)) {
			rule_load_error(L, k,
					"a kind is a name such as 'kmod'");
			return -EINVAL;
		}
		if (vocab_kind_named(k->str)) {
			rule_load_error(
				L, k,
				"kind '%s' is in the vocabulary; declare only kinds outside it",
				k->str);
			return -EINVAL;
		}
		if (v->type != YNODE_SEQ || !v->n) {
			rule_load_error(
				L, v, "the fields of kind '%s' must be a list",
				k->str);
			return -EINVAL;
		}
		kind = sym_intern(k->str, k->len);
		for (size_t j = 0; j < v->n; j++) {
			const struct ynode *f = v->items[j];

			if (!ynode_is_scalar(f) || !valid_id(f->str)) {
				rule_load_error(
					L, f,
					"a field is a name such as 'host'");
				return -EINVAL;
			}
			rule_set_declare_kind(L->rs, kind,
					      sym_intern(f->str, f->len));
		}
	}
	return 0;
}

static int load_doc(struct rule_set *rs, struct ydoc *doc, int origin_level,
		    struct diag *d)
{
	static const char *const keys[] = { "language", "kinds", "questions",
					    "rules" };
	struct rule_loader L = { doc, d, rs, origin_level, false };
	const struct ynode *root, *v;

	if (!doc)
		return -EINVAL;
	root = ydoc_root(L.doc);
	if (!root || root->type != YNODE_MAP) {
		rule_load_error(
			&L, root,
			"a rule file is a mapping with 'language' and 'rules'");
		goto out;
	}
	if (!check_keys(&L, root, "rule file", keys, ARRAY_SIZE(keys)) ||
	    language(&L, root))
		goto out;
	if ((v = ynode_get(root, "kinds")) && kinds(&L, v))
		goto out;
	if ((v = ynode_get(root, "questions"))) {
		if (v->type != YNODE_SEQ) {
			rule_load_error(&L, v, "'questions' must be a list");
			goto out;
		}
		for (size_t i = 0; i < v->n; i++) {
			struct question *q = parse_question(&L, v->items[i]);

			if (!q || rule_set_add_question(rs, q, d))
				L.failed = true;
		}
	}
	if ((v = ynode_get(root, "rules"))) {
		if (v->type != YNODE_SEQ) {
			rule_load_error(&L, v, "'rules' must be a list");
			goto out;
		}
		for (size_t i = 0; i < v->n; i++) {
			struct rule *r = parse_rule(&L, v->items[i]);

			if (r && rule_set_add(rs, r, d))
				L.failed = true;
		}
	}
out:
	ydoc_free(L.doc);
	return L.failed ? -EINVAL : 0;
}

int rule_set_load_file(struct rule_set *rs, const char *path, const char *name,
		       int origin_level, struct diag *d)
{
	return load_doc(rs, ydoc_load_file(path, name, d), origin_level, d);
}

int rule_set_load_string(struct rule_set *rs, const char *name,
			 const char *text, size_t len, int origin_level,
			 struct diag *d)
{
	return load_doc(rs, ydoc_load_string(name, text, len, d), origin_level,
			d);
}

int rule_set_load_dir(struct rule_set *rs, const char *dir, const char *prefix,
		      int origin_level, bool optional, struct diag *d)
{
	struct ydoc_file *files;
	int n = ydoc_dir(dir, prefix, ".test.yaml", &files), err = 0;

	if (n < 0) {
		if (optional && n == -ENOENT)
			return 0;
		diag_at(d, DIAG_ERROR, dir, 0, 0, NULL,
			"cannot read rule directory: %s", strerror(-n));
		return n;
	}
	for (int i = 0; i < n; i++)
		if (rule_set_load_file(rs, files[i].path, files[i].name,
				       origin_level, d))
			err = -EINVAL;
	ydoc_files_free(files, n);
	return err;
}
