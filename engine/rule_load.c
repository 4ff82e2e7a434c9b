/* Rule files: YAML trees (engine/ydoc.h) checked and compiled into struct
 * rule.  Every mistake is reported with file:line:col.  The grammar:
 *
 *   file      := { language: 1, questions: [question...], rules: [rule...] }
 *   rule      := { id, title, layer, severity, confidence, when: [cond...],
 *                  diagnose?, assert?, ask?, salience?, description?,
 *                  sources?, tags?, disabled? }
 *   cond      := { KIND: tests } | { not: { KIND: tests } }
 *              | { exists: { KIND: tests } }
 *   tests     := { FIELD: $var | constant | [constants] | { OP: operand... } }
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/regex.h"
#include "engine/rule.h"
#include "engine/rule_vars.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"
#include "engine/ydoc.h"

#define RULE_ID_MAX 64 /* @@ */
#define RULE_SALIENCE_MAX 10000 /* @@ */

struct loader {
	struct ydoc *doc;
	struct diag *d;
	struct rule_set *rs;
	int level;
	bool failed;
};

/* Per-rule state while compiling. */
struct ctx {
	struct loader *L;
	struct rule *r;
	size_t capvars;
};

static void err(struct loader *L, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void err(struct loader *L, const struct ynode *n, const char *fmt, ...)
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

/* ", did you mean 'x'?" when a candidate is close, else "". */
static const char *hint(const char *word, const char *const *cands, size_t n)
{
	static char buf[128];
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
	if (!pick)
		return "";
	snprintf(buf, sizeof(buf), "; did you mean '%s'?", pick);
	return buf;
}

static bool check_keys(struct loader *L, const struct ynode *map,
		       const char *what, const char *const *keys, size_t n)
{
	bool ok = true;

	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = ynode_key(map, i);
		bool known = false;

		if (!ynode_is_scalar(k)) {
			err(L, k, "%s keys must be names", what);
			ok = false;
			continue;
		}
		for (size_t j = 0; j < n && !known; j++)
			known = !strcmp(k->str, keys[j]);
		for (size_t j = 0; j < i && known; j++) {
			if (!strcmp(ynode_key(map, j)->str, k->str)) {
				err(L, k, "key '%s' given twice in %s", k->str,
				    what);
				ok = false;
			}
		}
		if (!known) {
			err(L, k, "unknown key '%s' in %s%s", k->str, what,
			    hint(k->str, keys, n));
			ok = false;
		}
	}
	return ok;
}

static const struct ynode *need(struct loader *L, const struct ynode *map,
				const char *key, const char *what)
{
	const struct ynode *v = ynode_get(map, key);

	if (!v)
		err(L, map, "%s has no '%s'", what, key);
	return v;
}

static char *scalar_dup(struct loader *L, const struct ynode *n,
			const char *what)
{
	if (!ynode_is_scalar(n) || !n->len) {
		err(L, n, "%s must be a non-empty text, not %s", what,
		    ynode_type_to_str(n));
		return NULL;
	}
	return xstrndup(n->str, n->len);
}

/* A scalar or a list of scalars, as owned strings; the position of each
 * goes into *at (line, col pairs) when at is not NULL. */
static int string_list_at(struct loader *L, const struct ynode *n,
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
		err(L, n, "%s must be a list of texts", what);
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

static int string_list(struct loader *L, const struct ynode *n,
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

/* ---- variables ---- */

static int var_slot(struct ctx *c, const char *name, size_t len)
{
	struct rule *r = c->r;

	for (size_t i = 0; i < r->nvars; i++)
		if (strlen(r->vars[i]) == len &&
		    !strncmp(r->vars[i], name, len))
			return (int)i;
	xgrow(&r->vars, &c->capvars, r->nvars + 1, sizeof(*r->vars));
	r->vars[r->nvars] = xstrndup(name, len);
	return (int)r->nvars++;
}

static bool var_name_ok(const char *s, size_t len)
{
	if (!len || len > 64)
		return false;
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      ch == '_' || (i && ch >= '0' && ch <= '9')))
			return false;
	}
	return true;
}

/* "$name", quoted or not, is a variable; so is "$name * 0.9". */
static bool is_var(const struct ynode *n)
{
	return ynode_is_scalar(n) && n->str[0] == '$' && n->len > 1;
}

/* ---- operands and tests ---- */

static int constant(struct ctx *c, const struct ynode *n,
		    const struct vocab_field *vf, struct value *out)
{
	if (!ynode_is_scalar(n)) {
		err(c->L, n, "expected a value, not %s", ynode_type_to_str(n));
		return -EINVAL;
	}
	if (!vf) {
		*out = n->plain ? value_guess(n->str, n->len) :
				  value_str(n->str, n->len);
		return 0;
	}
	if (vf->type == VALUE_LIST) {
		*out = value_guess(n->str, n->len);
		return 0;
	}
	if (value_parse(n->str, n->len, vf->type, vf->vkind, out)) {
		err(c->L, n, "'%s' is not %s %s (field '%s' holds %ss)", n->str,
		    vf->type == VALUE_INT ? "an" : "a",
		    value_type_to_str(vf->type), vf->name,
		    value_type_to_str(vf->type));
		return -EINVAL;
	}
	return 0;
}

/* "$name" or "$name * 0.9": a variable operand, with arithmetic when
 * allowed. */
static int var_operand(struct ctx *c, const struct ynode *n, bool arith,
		       struct operand *o)
{
	const char *s = n->str + 1, *p = s;
	char *end;

	while (*p && *p != ' ' && !strchr("*/+-", *p))
		p++;
	if (!var_name_ok(s, (size_t)(p - s))) {
		err(c->L, n,
		    "'%s' is not a variable name ($ followed by letters, digits and _)",
		    n->str);
		return -EINVAL;
	}
	o->type = OPERAND_VAR;
	o->var = var_slot(c, s, (size_t)(p - s));
	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	if (!arith || !strchr("*/+-", *p)) {
		err(c->L, n, "unexpected '%s' after the variable%s", p,
		    arith ? "" :
			    " (arithmetic works only with lt, le, gt and ge)");
		return -EINVAL;
	}
	o->arith = *p++;
	o->k = strtod(p, &end);
	while (*end == ' ')
		end++;
	if (end == p || *end || (o->arith == '/' && o->k == 0)) {
		err(c->L, n, "expected '$var %c number' in '%s'", o->arith,
		    n->str);
		return -EINVAL;
	}
	return 0;
}

static int operand(struct ctx *c, const struct ynode *n,
		   const struct vocab_field *vf, bool arith, struct operand *o)
{
	memset(o, 0, sizeof(*o));
	if (is_var(n))
		return var_operand(c, n, arith, o);
	o->type = OPERAND_CONST;
	return constant(c, n, vf, &o->v);
}

static int const_list(struct ctx *c, const struct ynode *n,
		      const struct vocab_field *vf, struct operand *o)
{
	struct value_list *l;

	if (n->type != YNODE_SEQ) {
		err(c->L, n, "expected a list of values, not %s",
		    ynode_type_to_str(n));
		return -EINVAL;
	}
	l = xmalloc(sizeof(*l) + n->n * sizeof(struct value));
	l->n = n->n;
	rule_vars_keep_list(c->r, l);
	for (size_t i = 0; i < n->n; i++)
		if (constant(c, n->items[i], vf, &l->items[i]))
			return -EINVAL;
	memset(o, 0, sizeof(*o));
	o->type = OPERAND_CONST;
	o->v = value_list(l);
	return 0;
}

static int regex_test(struct ctx *c, const struct ynode *n, struct test *t)
{
	char msg[256];
	size_t off = 0;
	int named;

	if (!ynode_is_scalar(n)) {
		err(c->L, n, "'%s' needs a regular expression",
		    rule_op_to_str(t->op));
		return -EINVAL;
	}
	t->re = regex_compile(n->str, 0, msg, sizeof(msg), &off);
	if (!t->re) {
		struct ynode at = *n;

		at.col += (int)off + (n->plain ? 0 : 1);
		err(c->L, &at, "regex does not compile: %s at offset %zu", msg,
		    off);
		return -EINVAL;
	}
	named = regex_name_count(t->re);
	if (t->op == OP_NOT_MATCH || !named)
		return 0;
	t->capture_group = xcalloc((size_t)named, sizeof(int));
	t->capture_var = xcalloc((size_t)named, sizeof(int));
	for (int i = 0; i < named; i++) {
		int group;
		const char *name = regex_name_at(t->re, i, &group);

		t->capture_group[i] = group;
		t->capture_var[i] = var_slot(c, name, strlen(name));
	}
	t->ncaptures = named;
	return 0;
}

static struct test *new_test(struct pattern *p, size_t *cap,
			     const struct ynode *at, uint32_t field,
			     enum rule_op op)
{
	struct test *t;

	xgrow(&p->tests, cap, p->ntests + 1, sizeof(*p->tests));
	t = &p->tests[p->ntests++];
	memset(t, 0, sizeof(*t));
	t->op = op;
	t->field = field;
	t->line = at->line;
	t->col = at->col;
	return t;
}

static int op_test(struct ctx *c, struct pattern *p, size_t *cap,
		   const struct ynode *opkey, const struct ynode *val,
		   uint32_t field, const struct vocab_field *vf)
{
	int op = rule_op_from_str(opkey->str);
	static const char *op_words[] = {
#define X(id, name, operand, doc) name,
		RULE_OPS(X)
#undef X
	};
	struct test *t;

	if (op < 0) {
		err(c->L, opkey, "unknown operator '%s'%s", opkey->str,
		    hint(opkey->str, op_words, ARRAY_SIZE(op_words)));
		return -EINVAL;
	}
	if (vf && vf->type == VALUE_LIST && op != OP_CONTAINS &&
	    op != OP_EXISTS && op != OP_BIND) {
		err(c->L, opkey,
		    "field '%s' is a list; use 'contains' or 'exists'",
		    vf->name);
		return -EINVAL;
	}
	t = new_test(p, cap, opkey, field, (enum rule_op)op);
	switch (t->op) {
	case OP_EQ:
	case OP_NE:
	case OP_CONTAINS:
		return operand(c, val, vf, false, &t->rhs);
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		return operand(c, val, vf, true, &t->rhs);
	case OP_MATCH:
	case OP_NOT_MATCH:
		return regex_test(c, val, t);
	case OP_IN:
	case OP_NOT_IN:
		return const_list(c, val, vf, &t->rhs);
	case OP_EXISTS:
		t->rhs.type = OPERAND_CONST;
		if (!ynode_is_scalar(val) ||
		    value_parse(val->str, val->len, VALUE_BOOL, 0, &t->rhs.v)) {
			err(c->L, val, "'exists' takes true or false");
			return -EINVAL;
		}
		return 0;
	case OP_BIND:
		if (!is_var(val)) {
			err(c->L, val, "'bind' takes a variable such as $name");
			return -EINVAL;
		}
		return var_operand(c, val, false, &t->rhs);
	default:
		return -EINVAL;
	}
}

static int field_tests(struct ctx *c, struct pattern *p, size_t *cap,
		       const struct ynode *key, const struct ynode *spec)
{
	uint32_t field = sym_intern(key->str, key->len);
	const struct vocab_kind *k = vocab_kind(p->kind);
	const struct vocab_field *vf = k ? vocab_field(k, field) : NULL;
	struct test *t;

	if (k && !vf) {
		const char *names[64];
		size_t n = 0;

		for (size_t i = 0; i < k->nfields && n < 64; i++)
			names[n++] = k->fields[i].name;
		err(c->L, key, "kind '%s' has no field '%s'%s", k->name,
		    key->str, hint(key->str, names, n));
		return -EINVAL;
	}
	if (spec->type == YNODE_MAP) {
		if (!spec->n) {
			err(c->L, spec, "no test given for field '%s'",
			    key->str);
			return -EINVAL;
		}
		for (size_t i = 0; i < spec->n; i++) {
			const struct ynode *opkey = ynode_key(spec, i);

			if (!ynode_is_scalar(opkey)) {
				err(c->L, opkey,
				    "operator names are words such as 'lt'");
				return -EINVAL;
			}
			if (op_test(c, p, cap, opkey, ynode_value(spec, i),
				    field, vf))
				return -EINVAL;
		}
		return 0;
	}
	if (vf && vf->type == VALUE_LIST) {
		err(c->L, spec, "field '%s' is a list; use {contains: value}",
		    vf->name);
		return -EINVAL;
	}
	if (spec->type == YNODE_SEQ) {
		t = new_test(p, cap, spec, field, OP_IN);
		return const_list(c, spec, vf, &t->rhs);
	}
	t = new_test(p, cap, spec, field, OP_EQ);
	return operand(c, spec, vf, false, &t->rhs);
}

/* { KIND: { FIELD: spec, ... } } */
static int pattern(struct ctx *c, const struct ynode *item,
		   enum pattern_type type, size_t *cap)
{
	const struct ynode *kind, *tests;
	struct pattern *p;
	size_t tcap = 0;

	if (item->type != YNODE_MAP || item->n != 1) {
		err(c->L, item,
		    "a condition is one 'kind: {field: test}' entry");
		return -EINVAL;
	}
	kind = ynode_key(item, 0);
	tests = ynode_value(item, 0);
	if (!ynode_is_scalar(kind) || !kind->len) {
		err(c->L, kind, "expected a fact kind");
		return -EINVAL;
	}
	if (type == PATTERN_MATCH &&
	    (!strcmp(kind->str, "not") || !strcmp(kind->str, "exists")))
		return pattern(c, tests,
			       kind->str[0] == 'n' ? PATTERN_NOT :
						     PATTERN_EXISTS,
			       cap);
	xgrow(&c->r->patterns, cap, c->r->npatterns + 1,
	      sizeof(*c->r->patterns));
	p = &c->r->patterns[c->r->npatterns++];
	memset(p, 0, sizeof(*p));
	p->type = type;
	p->kind = sym_intern(kind->str, kind->len);
	p->line = kind->line;
	p->col = kind->col;
	if (ynode_is_scalar(tests) && !tests->len)
		return 0; /* "- hca:" matches any fact of the kind */
	if (tests->type != YNODE_MAP) {
		err(c->L, tests,
		    "the tests of '%s' must be a mapping of field: test",
		    kind->str);
		return -EINVAL;
	}
	for (size_t i = 0; i < tests->n; i++) {
		const struct ynode *key = ynode_key(tests, i);

		if (!ynode_is_scalar(key)) {
			err(c->L, key, "expected a field name");
			return -EINVAL;
		}
		if (field_tests(c, p, &tcap, key, ynode_value(tests, i)))
			return -EINVAL;
	}
	return 0;
}

static int when(struct ctx *c, const struct ynode *n)
{
	size_t cap = 0;

	if (n->type != YNODE_SEQ || !n->n) {
		err(c->L, n, "'when' must be a non-empty list of conditions");
		return -EINVAL;
	}
	for (size_t i = 0; i < n->n; i++)
		if (pattern(c, n->items[i], PATTERN_MATCH, &cap))
			return -EINVAL;
	for (size_t i = 0; i < c->r->npatterns; i++)
		c->r->npositive += c->r->patterns[i].type == PATTERN_MATCH;
	if (!c->r->npositive) {
		err(c->L, n,
		    "a rule needs at least one condition that is not 'not'");
		return -EINVAL;
	}
	return 0;
}

/* ---- actions ---- */

static int template_var(void *ctx, const char *name, size_t len)
{
	struct ctx *c = ctx;

	for (size_t i = 0; i < c->r->nvars; i++)
		if (strlen(c->r->vars[i]) == len &&
		    !strncmp(c->r->vars[i], name, len) &&
		    rule_vars_bound(c->r, (int)i))
			return (int)i;
	return -1;
}

static int template(struct ctx *c, const struct ynode *n, struct template *t)
{
	char msg[256];
	size_t off = 0;

	if (!ynode_is_scalar(n)) {
		err(c->L, n, "expected a text, not %s", ynode_type_to_str(n));
		return -EINVAL;
	}
	if (template_parse(t, n->str, template_var, c, msg, sizeof(msg),
			   &off)) {
		struct ynode at = *n;

		if (!memchr(n->str, '\n', off))
			at.col += (int)off + (n->plain ? 0 : 1);
		err(c->L, &at, "%s", msg);
		return -EINVAL;
	}
	return 0;
}

static int diagnose(struct ctx *c, const struct ynode *n)
{
	static const char *const keys[] = { "id", "message", "remediation",
					    "explains", "about" };
	const struct ynode *v;
	struct rule *r = c->r;

	if (n->type != YNODE_MAP) {
		err(c->L, n, "'diagnose' must be a mapping with a message");
		return -EINVAL;
	}
	if (!check_keys(c->L, n, "diagnose", keys, ARRAY_SIZE(keys)))
		return -EINVAL;
	r->diagnoses = true;
	v = ynode_get(n, "id");
	if (v && !(r->diag_id = scalar_dup(c->L, v, "'id'")))
		return -EINVAL;
	if (v && !valid_id(r->diag_id)) {
		err(c->L, v,
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

static int assert_value(struct ctx *c, const struct ynode *n,
			struct assert_field *af)
{
	if (!ynode_is_scalar(n)) {
		err(c->L, n, "an asserted field takes a value, $var or text");
		return -EINVAL;
	}
	if (is_var(n)) {
		if (var_operand(c, n, false, &af->value))
			return -EINVAL;
		if (!rule_vars_bound(c->r, af->value.var)) {
			err(c->L, n, "no condition binds %s", n->str);
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

static int assertions(struct ctx *c, const struct ynode *n)
{
	struct rule *r = c->r;

	if (n->type != YNODE_SEQ || !n->n) {
		err(c->L, n,
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
			err(c->L, item,
			    "an assertion is one 'kind: {field: value}' entry");
			return -EINVAL;
		}
		a->kind = sym_intern_cstr(ynode_key(item, 0)->str);
		a->line = item->line;
		a->col = item->col;
		if (vocab_kind(a->kind) &&
		    strcmp(vocab_kind(a->kind)->source, "collected")) {
			err(c->L, ynode_key(item, 0),
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
				err(c->L, key, "expected a field name");
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

static int rule_meta(struct ctx *c, const struct ynode *n)
{
	static const char *layers[] = {
#define X(id, name, doc) name,
		RULE_LAYERS(X)
#undef X
	};
	static const char *severities[] = {
#define X(id, name, weight) name,
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
		err(c->L, v,
		    "unknown layer '%s'; layers are hardware, firmware, driver, kernel_module and verbs%s",
		    ynode_is_scalar(v) ? v->str : "",
		    ynode_is_scalar(v) ? hint(v->str, layers, LAYER_COUNT) :
					 "");
		return -EINVAL;
	}
	r->layer = (enum layer)i;
	if (!(v = need(c->L, n, "severity", "rule")))
		return -EINVAL;
	if (!ynode_is_scalar(v) || (i = severity_from_str(v->str)) < 0) {
		err(c->L, v,
		    "unknown severity '%s'; severities are critical, error, warning and info%s",
		    ynode_is_scalar(v) ? v->str : "",
		    ynode_is_scalar(v) ?
			    hint(v->str, severities, SEVERITY_COUNT) :
			    "");
		return -EINVAL;
	}
	r->severity = (enum severity)i;
	if (!(v = need(c->L, n, "confidence", "rule")))
		return -EINVAL;
	if (parse_number(v, &r->confidence) || r->confidence < -1 ||
	    r->confidence > 1 || r->confidence == 0) {
		err(c->L, v,
		    "confidence must be a number in [-1, 1] other than 0");
		return -EINVAL;
	}
	if ((v = ynode_get(n, "salience"))) {
		double s;

		if (parse_number(v, &s) || s != (int)s ||
		    s < -RULE_SALIENCE_MAX || s > RULE_SALIENCE_MAX) {
			err(c->L, v,
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

static struct rule *parse_rule(struct loader *L, const struct ynode *n)
{
	struct ctx c = { L, NULL, 0 };
	const struct ynode *v, *dis;
	struct rule *r;

	if (n->type != YNODE_MAP) {
		err(L, n, "a rule must be a mapping, not %s",
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
		err(L, v,
		    "rule id '%s' may hold only letters, digits, '-', '_' and '.' (at most %d)",
		    r->id, RULE_ID_MAX);
		goto fail;
	}
	dis = ynode_get(n, "disabled");
	if (dis) {
		struct value b;

		if (!ynode_is_scalar(dis) ||
		    value_parse(dis->str, dis->len, VALUE_BOOL, 0, &b)) {
			err(L, dis, "'disabled' takes true or false");
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
	if (!(v = need(L, n, "when", "rule")) || when(&c, v))
		goto fail;
	if (rule_vars_analyse(r, L->doc, L->d))
		goto fail;
	if ((v = ynode_get(n, "diagnose")) && diagnose(&c, v))
		goto fail;
	if ((v = ynode_get(n, "assert")) && assertions(&c, v))
		goto fail;
	if (r->confidence < 0 && (r->nasserts || !ynode_get(n, "diagnose"))) {
		err(L, n,
		    "rule '%s' has negative confidence: it may only lower a diagnosis, not assert facts",
		    r->id);
		goto fail;
	}
	if (!r->diagnoses && !r->nasserts) {
		err(L, n, "rule '%s' neither diagnoses nor asserts anything",
		    r->id);
		goto fail;
	}
	rule_vars_warn_unused(r, L->doc, L->d);
	return r;
fail:
	L->failed = true;
	rule_free(r);
	return NULL;
}

static struct question *parse_question(struct loader *L, const struct ynode *n)
{
	static const char *const keys[] = { "id", "prompt", "choices",
					    "default", "why" };
	struct question *q;
	const struct ynode *v;

	if (n->type != YNODE_MAP) {
		err(L, n, "a question must be a mapping");
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
		err(L, v,
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
		err(L, v, "'choices' must list at least two answers");
		goto fail;
	}
	q->choices = xcalloc(v->n, sizeof(*q->choices));
	for (size_t i = 0; i < v->n; i++, q->nchoices++) {
		const struct ynode *ch = v->items[i];
		struct choice *c = &q->choices[i];

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
			err(L, ch,
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
			err(L, v, "default '%s' is not one of the choices",
			    q->def);
			goto fail;
		}
	}
	if ((v = ynode_get(n, "why")) && !(q->why = scalar_dup(L, v, "'why'")))
		goto fail;
	return q;
fail:
	question_free(q);
	return NULL;
}

static int language(struct loader *L, const struct ynode *root)
{
	const struct ynode *v = ynode_get(root, "language");
	double version;

	if (!v) {
		err(L, root,
		    "rule file does not say which rule language it needs; add 'language: %d'",
		    RULE_LANGUAGE_VERSION);
		return -EINVAL;
	}
	if (parse_number(v, &version) || version != (int)version ||
	    version < 1) {
		err(L, v, "'language' must be a whole number such as %d",
		    RULE_LANGUAGE_VERSION);
		return -EINVAL;
	}
	if (version > RULE_LANGUAGE_VERSION) {
		err(L, v,
		    "file needs rule language %d, but this rdmadoctor understands %d; upgrade rdmadoctor",
		    (int)version, RULE_LANGUAGE_VERSION);
		return -EINVAL;
	}
	return 0;
}

static int load_doc(struct rule_set *rs, struct ydoc *doc, int origin_level,
		    struct diag *d)
{
	static const char *const keys[] = { "language", "questions", "rules" };
	struct loader L = { doc, d, rs, origin_level, false };
	const struct ynode *root, *v;

	if (!doc)
		return -EINVAL;
	root = ydoc_root(L.doc);
	if (!root || root->type != YNODE_MAP) {
		err(&L, root,
		    "a rule file is a mapping with 'language' and 'rules'");
		goto out;
	}
	if (!check_keys(&L, root, "rule file", keys, ARRAY_SIZE(keys)) ||
	    language(&L, root))
		goto out;
	if ((v = ynode_get(root, "questions"))) {
		if (v->type != YNODE_SEQ) {
			err(&L, v, "'questions' must be a list");
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
			err(&L, v, "'rules' must be a list");
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
