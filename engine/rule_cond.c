/* Rule conditions: the 'when' list compiled into patterns, tests and
 * operands, with types from the fact vocabulary. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engine/regex.h"
#include "engine/rule_load.h"
#include "engine/rule_vars.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

/* ---- variables ---- */

static int var_slot(struct rule_ctx *c, const char *name, size_t len)
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
bool rule_cond_is_var(const struct ynode *n)
{
	return ynode_is_scalar(n) && n->str[0] == '$' && n->len > 1;
}

/* ---- operands and tests ---- */

#define VALUE_WORDS_MAX 16 /* @@ */

/* A constant outside the closed value set of its field (vocab.def's
 * VALUES) can never equal a fact's value: an error, with the value it
 * most likely meant. */
static int known_value(struct rule_ctx *c, const struct ynode *n,
		       const struct vocab_field *vf)
{
	const char *words[VALUE_WORDS_MAX];
	size_t lens[VALUE_WORDS_MAX];
	char names[VALUE_WORDS_MAX][32];
	const char *cands[VALUE_WORDS_MAX];
	size_t nw;
	struct strbuf list = STRBUF_INIT;
	const char *hint = "";
	char *same_case = NULL;

	if (vocab_value_known(vf, n->str, n->len))
		return 0;
	nw = vocab_value_words(vf, words, lens, VALUE_WORDS_MAX);
	for (size_t i = 0; i < nw; i++) {
		snprintf(names[i], sizeof(names[i]), "%.*s", (int)lens[i],
			 words[i]);
		cands[i] = names[i];
		sb_printf(&list, "%s%s", i ? (i + 1 == nw ? " or " : ", ") : "",
			  names[i]);
		if (!same_case && strlen(names[i]) == n->len &&
		    !strncasecmp(names[i], n->str, n->len))
			same_case = xasprintf("; did you mean '%s'?", names[i]);
	}
	hint = same_case ? same_case : rule_load_hint(n->str, cands, nw);
	rule_load_error(c->L, n,
			"'%s' is not a value of field '%s', which holds %s%s",
			n->str, vf->name, sb_str(&list), hint);
	free(same_case);
	sb_release(&list);
	return -EINVAL;
}

static int constant(struct rule_ctx *c, const struct ynode *n,
		    const struct vocab_field *vf, struct value *out)
{
	if (!ynode_is_scalar(n)) {
		rule_load_error(c->L, n, "expected a value, not %s",
				ynode_type_to_str(n));
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
		rule_load_error(c->L, n,
				"'%s' is not %s %s (field '%s' holds %ss)",
				n->str, vf->type == VALUE_INT ? "an" : "a",
				value_type_to_str(vf->type), vf->name,
				value_type_to_str(vf->type));
		return -EINVAL;
	}
	if (vf->values && out->type == VALUE_STRING)
		return known_value(c, n, vf);
	return 0;
}

/* "$name" or "$name * 0.9": a variable operand, with arithmetic when
 * allowed. */
int rule_cond_var_operand(struct rule_ctx *c, const struct ynode *n, bool arith,
			  struct operand *o)
{
	const char *s = n->str + 1, *p = s;
	char *end;

	while (*p && *p != ' ' && !strchr("*/+-", *p))
		p++;
	if (!var_name_ok(s, (size_t)(p - s))) {
		rule_load_error(
			c->L, n,
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
		rule_load_error(
			c->L, n, "unexpected '%s' after the variable%s", p,
			arith ? "" :
				" (arithmetic works only with lt, le, gt and ge)");
		return -EINVAL;
	}
	o->arith = *p++;
	o->k = strtod(p, &end);
	while (*end == ' ')
		end++;
	if (end == p || *end || (o->arith == '/' && o->k == 0)) {
		rule_load_error(c->L, n, "expected '$var %c number' in '%s'",
				o->arith, n->str);
		return -EINVAL;
	}
	return 0;
}

static int operand(struct rule_ctx *c, const struct ynode *n,
		   const struct vocab_field *vf, bool arith, struct operand *o)
{
	memset(o, 0, sizeof(*o));
	if (rule_cond_is_var(n))
		return rule_cond_var_operand(c, n, arith, o);
	o->type = OPERAND_CONST;
	return constant(c, n, vf, &o->v);
}

static int const_list(struct rule_ctx *c, const struct ynode *n,
		      const struct vocab_field *vf, struct operand *o)
{
	struct value_list *l;

	if (n->type != YNODE_SEQ) {
		rule_load_error(c->L, n, "expected a list of values, not %s",
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

static int regex_test(struct rule_ctx *c, const struct ynode *n, struct test *t)
{
	char msg[256];
	size_t off = 0;
	int named;

	if (!ynode_is_scalar(n)) {
		rule_load_error(c->L, n, "'%s' needs a regular expression",
				rule_op_to_str(t->op));
		return -EINVAL;
	}
	t->re = regex_compile(n->str, 0, msg, sizeof(msg), &off);
	t->pattern = xstrndup(n->str, n->len);
	if (!t->re) {
		struct ynode at = *n;

		at.col += (int)off + (n->plain ? 0 : 1);
		rule_load_error(c->L, &at,
				"regex does not compile: %s at offset %zu", msg,
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

static int op_test(struct rule_ctx *c, struct pattern *p, size_t *cap,
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
		rule_load_error(c->L, opkey, "unknown operator '%s'%s",
				opkey->str,
				rule_load_hint(opkey->str, op_words,
					       ARRAY_SIZE(op_words)));
		return -EINVAL;
	}
	if (vf && vf->type == VALUE_LIST && op != OP_CONTAINS &&
	    op != OP_EXISTS && op != OP_BIND) {
		rule_load_error(
			c->L, opkey,
			"field '%s' is a list; use 'contains' or 'exists'",
			vf->name);
		return -EINVAL;
	}
	t = new_test(p, cap, opkey, field, (enum rule_op)op);
	switch (t->op) {
	case OP_EQ:
	case OP_NE:
	case OP_CONTAINS:
	case OP_ADMITS:
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
			rule_load_error(c->L, val,
					"'exists' takes true or false");
			return -EINVAL;
		}
		return 0;
	case OP_BIND:
		if (!rule_cond_is_var(val)) {
			rule_load_error(
				c->L, val,
				"'bind' takes a variable such as $name");
			return -EINVAL;
		}
		return rule_cond_var_operand(c, val, false, &t->rhs);
	default:
		return -EINVAL;
	}
}

static int field_tests(struct rule_ctx *c, struct pattern *p, size_t *cap,
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
		rule_load_error(c->L, key, "kind '%s' has no field '%s'%s",
				k->name, key->str,
				rule_load_hint(key->str, names, n));
		return -EINVAL;
	}
	if (spec->type == YNODE_MAP) {
		if (!spec->n) {
			rule_load_error(c->L, spec,
					"no test given for field '%s'",
					key->str);
			return -EINVAL;
		}
		for (size_t i = 0; i < spec->n; i++) {
			const struct ynode *opkey = ynode_key(spec, i);

			if (!ynode_is_scalar(opkey)) {
				rule_load_error(
					c->L, opkey,
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
		rule_load_error(c->L, spec,
				"field '%s' is a list; use {contains: value}",
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
static int pattern(struct rule_ctx *c, const struct ynode *item,
		   enum pattern_type type, size_t *cap)
{
	const struct ynode *kind, *tests;
	struct pattern *p;
	size_t tcap = 0;

	if (item->type != YNODE_MAP || item->n != 1) {
		rule_load_error(
			c->L, item,
			"a condition is one 'kind: {field: test}' entry");
		return -EINVAL;
	}
	kind = ynode_key(item, 0);
	tests = ynode_value(item, 0);
	if (!ynode_is_scalar(kind) || !kind->len) {
		rule_load_error(c->L, kind, "expected a fact kind");
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
		rule_load_error(
			c->L, tests,
			"the tests of '%s' must be a mapping of field: test",
			kind->str);
		return -EINVAL;
	}
	for (size_t i = 0; i < tests->n; i++) {
		const struct ynode *key = ynode_key(tests, i);

		if (!ynode_is_scalar(key)) {
			rule_load_error(c->L, key, "expected a field name");
			return -EINVAL;
		}
		if (field_tests(c, p, &tcap, key, ynode_value(tests, i)))
			return -EINVAL;
	}
	return 0;
}

int rule_cond_when(struct rule_ctx *c, const struct ynode *n)
{
	size_t cap = 0;

	if (n->type != YNODE_SEQ || !n->n) {
		rule_load_error(
			c->L, n,
			"'when' must be a non-empty list of conditions");
		return -EINVAL;
	}
	for (size_t i = 0; i < n->n; i++)
		if (pattern(c, n->items[i], PATTERN_MATCH, &cap))
			return -EINVAL;
	for (size_t i = 0; i < c->r->npatterns; i++)
		c->r->npositive += c->r->patterns[i].type == PATTERN_MATCH;
	if (!c->r->npositive) {
		rule_load_error(
			c->L, n,
			"a rule needs at least one condition that is not 'not'");
		return -EINVAL;
	}
	return 0;
}
