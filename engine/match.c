/* Test evaluation: one fact against one condition. */
#include "engine/match.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/regex.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

void bindings_init(struct bindings *b, size_t nvars)
{
	memset(b, 0, sizeof(*b));
	b->nvars = nvars;
	b->values = xcalloc(nvars ? nvars : 1, sizeof(*b->values));
	b->bound = xcalloc(nvars ? nvars : 1, sizeof(*b->bound));
}

void bindings_release(struct bindings *b)
{
	free(b->values);
	free(b->bound);
	free(b->trail);
	memset(b, 0, sizeof(*b));
}

static void bind(struct bindings *b, int var, const struct value *v)
{
	b->values[var] = *v;
	b->bound[var] = true;
	xgrow(&b->trail, &b->captrail, b->ntrail + 1, sizeof(*b->trail));
	b->trail[b->ntrail++] = var;
}

void bindings_undo(struct bindings *b, size_t mark)
{
	while (b->ntrail > mark)
		b->bound[b->trail[--b->ntrail]] = false;
}

void bindings_copy_out(const struct bindings *b, struct value *values,
		       bool *bound)
{
	memcpy(values, b->values, b->nvars * sizeof(*values));
	memcpy(bound, b->bound, b->nvars * sizeof(*bound));
}

bool match_operand(const struct operand *o, const struct bindings *b,
		   struct value *out)
{
	const struct value *v;
	double x;

	if (o->type == OPERAND_CONST) {
		*out = o->v;
		return true;
	}
	if (o->type != OPERAND_VAR || !b->bound[o->var])
		return false;
	v = &b->values[o->var];
	if (!o->arith) {
		*out = *v;
		return true;
	}
	if (v->type == VALUE_INT)
		x = (double)v->i;
	else if (v->type == VALUE_NUMBER)
		x = v->n;
	else
		return false;
	switch (o->arith) {
	case '*':
		x *= o->k;
		break;
	case '/':
		x /= o->k;
		break;
	case '+':
		x += o->k;
		break;
	default:
		x -= o->k;
		break;
	}
	*out = value_num(x);
	return true;
}

static bool in_list(const struct value *list, const struct value *v)
{
	for (size_t i = 0; i < list->list->n; i++)
		if (value_equal(&list->list->items[i], v))
			return true;
	return false;
}

static bool contains(const struct value *field, const struct value *v)
{
	const char *hay, *needle;

	if (field->type == VALUE_LIST)
		return in_list(field, v);
	hay = value_text(field);
	needle = value_text(v);
	return hay && needle && strstr(hay, needle);
}

/* Whether the filter pattern in field (a listing's) matches v's text.  A
 * filter that does not compile admits nothing, so no absence is read
 * from it. */
static bool admits(const struct value *field, const struct value *v)
{
	const char *pattern = value_text(field), *subject = value_text(v);
	struct regex *re;
	char err[128];
	size_t off;
	int rc;

	if (!pattern || !subject)
		return false;
	if (!*pattern)
		return true;
	re = regex_compile(pattern, 0, err, sizeof(err), &off);
	if (!re)
		return false;
	rc = regex_match(re, subject, strlen(subject), NULL);
	regex_free(re);
	return rc == 1;
}

static bool ordered(enum rule_op op, int cmp)
{
	switch (op) {
	case OP_LT:
		return cmp < 0;
	case OP_LE:
		return cmp <= 0;
	case OP_GT:
		return cmp > 0;
	default:
		return cmp >= 0;
	}
}

/* Runs a regex test; binds or joins the named groups. */
static int regex_test(const struct test *t, const struct value *field,
		      struct bindings *b)
{
	struct strbuf sb = STRBUF_INIT;
	struct regex_match m;
	int rc;

	value_format(field, &sb);
	rc = regex_match(t->re, sb_str(&sb), sb.len, &m);
	if (rc == 1 && t->op == OP_MATCH) {
		for (int i = 0; i < t->ncaptures && rc == 1; i++) {
			int g = t->capture_group[i], var = t->capture_var[i];
			struct value v;

			if (g >= REGEX_MAX_GROUPS || m.start[g] < 0) {
				v = value_str("", 0);
			} else {
				v = value_str(sb.buf + m.start[g],
					      (size_t)(m.end[g] - m.start[g]));
			}
			if (!b->bound[var])
				bind(b, var, &v);
			else if (!value_equal(&b->values[var], &v))
				rc = 0;
		}
	}
	sb_release(&sb);
	if (rc < 0)
		return rc;
	return t->op == OP_MATCH ? rc : !rc;
}

/* One test; returns 1, 0 or -E2BIG. */
static int test(const struct test *t, const struct fact *f, struct bindings *b,
		match_report_fn report, void *ctx)
{
	const struct value *field = fact_get(f, t->field);
	struct value rhs;
	int cmp, vkind = -1, rc;

	if (t->op == OP_EXISTS) {
		rc = (field != NULL) == t->rhs.v.b;
		if (report)
			report(ctx, t, field, &t->rhs.v, rc, -1);
		return rc;
	}
	if (!field) {
		if (report)
			report(ctx, t, NULL, NULL, false, -1);
		return 0;
	}
	switch (t->op) {
	case OP_EQ:
	case OP_BIND:
		if (t->rhs.type == OPERAND_VAR && !b->bound[t->rhs.var]) {
			bind(b, t->rhs.var, field);
			if (report)
				report(ctx, t, field, NULL, true, -1);
			return 1;
		}
		match_operand(&t->rhs, b, &rhs);
		rc = value_equal(field, &rhs);
		break;
	case OP_NE:
		if (!match_operand(&t->rhs, b, &rhs))
			return 0;
		rc = !value_equal(field, &rhs);
		break;
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		if (!match_operand(&t->rhs, b, &rhs))
			return 0;
		rc = !value_compare(field, &rhs, &cmp, &vkind) &&
		     ordered(t->op, cmp);
		break;
	case OP_MATCH:
	case OP_NOT_MATCH:
		rc = regex_test(t, field, b);
		if (rc < 0)
			return rc;
		if (report)
			report(ctx, t, field, NULL, rc, -1);
		return rc;
	case OP_IN:
		rhs = t->rhs.v;
		rc = in_list(&rhs, field);
		break;
	case OP_NOT_IN:
		rhs = t->rhs.v;
		rc = !in_list(&rhs, field);
		break;
	case OP_CONTAINS:
		if (!match_operand(&t->rhs, b, &rhs))
			return 0;
		rc = contains(field, &rhs);
		break;
	case OP_ADMITS:
		if (!match_operand(&t->rhs, b, &rhs))
			return 0;
		rc = admits(field, &rhs);
		break;
	default:
		return 0;
	}
	if (report)
		report(ctx, t, field, &rhs, rc, vkind);
	return rc;
}

int match_pattern(const struct pattern *p, const struct fact *f,
		  struct bindings *b, match_report_fn report, void *ctx)
{
	if (f->kind != p->kind)
		return 0;
	for (size_t i = 0; i < p->ntests; i++) {
		int rc = test(&p->tests[i], f, b, report, ctx);

		if (rc != 1)
			return rc;
	}
	return 1;
}
