/* Building explanation records by re-running a firing's tests. */
#include "engine/explain.h"

#include <stdlib.h>
#include <string.h>

#include "engine/match.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

#define EXPLAIN_DEPTH 8 /* @@ derived-fact chains shown this deep */

static const char *const op_symbols[] = {
	[OP_EQ] = "=",
	[OP_NE] = "!=",
	[OP_LT] = "<",
	[OP_LE] = "<=",
	[OP_GT] = ">",
	[OP_GE] = ">=",
	[OP_MATCH] = "matches",
	[OP_NOT_MATCH] = "does not match",
	[OP_IN] = "in",
	[OP_NOT_IN] = "not in",
	[OP_CONTAINS] = "contains",
	[OP_ADMITS] = "admits",
	[OP_EXISTS] = "exists",
	[OP_BIND] = "=",
};

struct collect {
	struct explain_step *step;
	size_t cap;
	const struct rule *rule;
};

static void add_comparison(struct explain_step *s, size_t *cap, char *text)
{
	xgrow(&s->comparisons, cap, s->ncomparisons + 1,
	      sizeof(*s->comparisons));
	s->comparisons[s->ncomparisons++] = text;
}

/* "fw_min 16.27.2000 > 16.26.1040 ($fw, fw version)", or for a test
 * that bound a variable, "fw_ver 16.26.1040 -> $fw". */
static void describe_test(struct strbuf *sb, const struct rule *r,
			  const struct test *t, const struct value *field,
			  const struct value *rhs, bool held, int vkind)
{
	bool var = t->rhs.type == OPERAND_VAR;

	sb_printf(sb, "%s ", sym_str(t->field));
	if (t->op == OP_EXISTS) {
		sb_puts(sb, field ? "is present" : "is absent");
		return;
	}
	if (field)
		value_show(field, sb);
	else
		sb_puts(sb, "(absent)");
	if (!rhs && var && t->op != OP_MATCH) {
		sb_printf(sb, " -> $%s", r->vars[t->rhs.var]);
		return;
	}
	sb_printf(sb, " %s ", op_symbols[t->op]);
	if (t->op == OP_MATCH || t->op == OP_NOT_MATCH)
		sb_puts(sb, "the rule's pattern");
	else if (rhs)
		value_show(rhs, sb);
	if (var || vkind >= 0) {
		sb_puts(sb, " (");
		if (var)
			sb_printf(sb, "$%s%s", r->vars[t->rhs.var],
				  vkind >= 0 ? ", " : "");
		if (vkind >= 0)
			sb_printf(sb, "%s version", version_kind_to_str(vkind));
		sb_putc(sb, ')');
	}
	if (!held)
		sb_puts(sb, " [does not hold]");
}

static void on_test(void *ctx, const struct test *t, const struct value *field,
		    const struct value *rhs, bool held, int vkind)
{
	struct collect *c = ctx;
	struct strbuf sb = STRBUF_INIT;

	describe_test(&sb, c->rule, t, field, rhs, held, vkind);
	add_comparison(c->step, &c->cap, sb_detach(&sb));
}

char *explain_fact_label(const struct fact *f)
{
	const struct vocab_kind *k = vocab_kind(f->kind);
	struct strbuf sb = STRBUF_INIT;
	bool any = false;

	sb_puts(&sb, sym_str(f->kind));
	for (size_t i = 0; k && i < k->nfields; i++) {
		const struct value *v;

		if (!k->fields[i].key || !(v = fact_get(f, k->fields[i].sym)))
			continue;
		sb_putc(&sb, ' ');
		value_format(v, &sb);
		any = true;
	}
	for (uint32_t i = 0; !any && i < f->nfields && i < 3; i++) {
		sb_printf(&sb, " %s=", sym_str(f->fields[i].name));
		value_format(&f->fields[i].v, &sb);
	}
	return sb_detach(&sb);
}

/* "no port with hca = mlx5_0 and state = ACTIVE" */
static char *describe_absent(const struct pattern *p, const struct bindings *b)
{
	struct strbuf sb = STRBUF_INIT;

	sb_printf(&sb, "%s %s", p->type == PATTERN_NOT ? "no" : "some",
		  sym_str(p->kind));
	for (size_t i = 0; i < p->ntests; i++) {
		const struct test *t = &p->tests[i];
		struct value v;

		sb_puts(&sb, i ? " and " : " with ");
		sb_printf(&sb, "%s %s ", sym_str(t->field), op_symbols[t->op]);
		if (t->op == OP_MATCH || t->op == OP_NOT_MATCH)
			sb_puts(&sb, "the rule's pattern");
		else if (t->op == OP_EXISTS)
			sb_puts(&sb, t->rhs.v.b ? "(present)" : "(absent)");
		else if (match_operand(&t->rhs, b, &v))
			value_format(&v, &sb);
		else
			sb_puts(&sb, "anything");
	}
	return sb_detach(&sb);
}

static struct explain *build(const struct engine *e, const struct fact_base *fb,
			     const struct firing *fi, int depth);

/* Fills the step of condition i. */
static void step(const struct engine *e, const struct fact_base *fb,
		 const struct firing *fi, struct explain *x, int i,
		 struct bindings *b, int depth)
{
	const struct rule *r = fi->rule;
	const struct pattern *p = &r->patterns[i];
	struct explain_step *s = &x->steps[i];
	const struct fact *f = fact_base_get(fb, fi->facts[i]);
	const struct firing *by;
	struct collect c = { s, 0, r };

	s->type = p->type;
	if (p->type != PATTERN_MATCH || !f) {
		s->label = describe_absent(p, b);
		return;
	}
	s->fact = f;
	s->label = explain_fact_label(f);
	if (f->prov.src)
		s->where =
			f->prov.line ?
				xasprintf("%s:%u",
					  fact_base_source_name(fb,
								f->prov.src),
					  f->prov.line) :
				xstrdup(fact_base_source_name(fb, f->prov.src));
	match_pattern(p, f, b, on_test, &c);
	by = engine_asserted_by(e, f);
	if (by && depth < EXPLAIN_DEPTH)
		s->because = build(e, fb, by, depth + 1);
}

static struct explain *build(const struct engine *e, const struct fact_base *fb,
			     const struct firing *fi, int depth)
{
	const struct rule *r = fi->rule;
	struct explain *x = xcalloc(1, sizeof(*x));
	struct bindings b;

	x->rule = r;
	x->firing = fi;
	x->steps = xcalloc(r->npatterns ? r->npatterns : 1, sizeof(*x->steps));
	x->nsteps = r->npatterns;
	/* Matching conditions in plan order with fresh bindings shows which
	 * test bound each variable; not/exists then see them all. */
	bindings_init(&b, r->nvars);
	for (size_t k = 0; k < r->npositive; k++)
		step(e, fb, fi, x, r->plan[k], &b, depth);
	for (size_t i = 0; i < r->npatterns; i++)
		if (r->patterns[i].type != PATTERN_MATCH)
			step(e, fb, fi, x, (int)i, &b, depth);
	bindings_release(&b);
	return x;
}
/* ---- why a rule did not fire ---- */

#define MISS_STEPS_MAX 200000 /* @@ candidate facts tried */

struct miss_search {
	const struct rule *r;
	const struct fact_base *fb;
	struct bindings b;
	size_t steps;
	size_t deepest; /* plan positions matched by the best partial match */
	struct value *best_values; /* its bindings, when it was reached */
	bool *best_bound;
	int blocker; /* a 'not' pattern that some fact matched, or -1 */
	const struct fact *blocking;
	bool complete;
};

/* The negated and exists conditions once every positive one matched:
 * the first that fails, or -1. */
static int failing_negation(struct miss_search *s, const struct fact **by)
{
	for (size_t i = 0; i < s->r->npatterns; i++) {
		const struct pattern *p = &s->r->patterns[i];
		size_t n;
		const uint32_t *ids;
		bool any = false;

		if (p->type == PATTERN_MATCH)
			continue;
		ids = fact_base_of_kind(s->fb, p->kind, &n);
		for (size_t k = 0; k < n && !any; k++) {
			size_t mark = s->b.ntrail;
			const struct fact *f = fact_base_get(s->fb, ids[k]);

			any = match_pattern(p, f, &s->b, NULL, NULL) == 1;
			bindings_undo(&s->b, mark);
			if (any)
				*by = f;
		}
		if (any != (p->type == PATTERN_EXISTS))
			return (int)i;
	}
	return -1;
}

static void miss_walk(struct miss_search *s, size_t depth)
{
	const struct pattern *p;
	const uint32_t *ids;
	size_t n;

	if (s->complete)
		return;
	if (depth > s->deepest) {
		s->deepest = depth;
		bindings_copy_out(&s->b, s->best_values, s->best_bound);
	}
	if (depth == s->r->npositive) {
		const struct fact *by = NULL;
		int neg = failing_negation(s, &by);

		if (neg < 0) {
			s->complete = true;
		} else if (s->blocker < 0) {
			s->blocker = neg;
			s->blocking = by;
		}
		return;
	}
	p = &s->r->patterns[s->r->plan[depth]];
	ids = fact_base_of_kind(s->fb, p->kind, &n);
	for (size_t k = 0; k < n && !s->complete; k++) {
		size_t mark = s->b.ntrail;

		if (++s->steps > MISS_STEPS_MAX)
			return;
		if (match_pattern(p, fact_base_get(s->fb, ids[k]), &s->b, NULL,
				  NULL) == 1)
			miss_walk(s, depth + 1);
		bindings_undo(&s->b, mark);
	}
}

/* How many of p's tests f passes, in the pattern's order, under the
 * bindings of the best partial match (a variable it left unbound binds
 * to anything) and those the tests before it bound on f: "cap_speed_gts:
 * $cap" binds $cap for "sta_speed_gts lt $cap".  A test that fails binds
 * nothing. */
static size_t tests_held(const struct pattern *p, const struct fact *f,
			 const struct explain_miss *m, size_t nvars,
			 uint64_t *failed)
{
	struct bindings b;
	size_t held = 0;

	*failed = 0;
	bindings_init(&b, nvars);
	for (size_t v = 0; v < nvars; v++)
		if (m->bound[v]) {
			b.values[v] = m->values[v];
			b.bound[v] = true;
		}
	for (size_t i = 0; i < p->ntests; i++) {
		struct pattern one = *p;
		size_t mark = b.ntrail;

		one.tests = &p->tests[i];
		one.ntests = 1;
		if (match_pattern(&one, f, &b, NULL, NULL) == 1) {
			held++;
		} else {
			bindings_undo(&b, mark);
			if (i < 64)
				*failed |= (uint64_t)1 << i;
		}
	}
	bindings_release(&b);
	return held;
}

static void nearest(const struct rule *r, const struct fact_base *fb,
		    struct explain_miss *out)
{
	const uint32_t *ids = fact_base_of_kind(fb, out->pattern->kind,
						&out->nfacts);

	for (size_t k = 0; k < out->nfacts; k++) {
		const struct fact *f = fact_base_get(fb, ids[k]);
		uint64_t failed;
		size_t held = tests_held(out->pattern, f, out, r->nvars,
					 &failed),
		       at;

		/* kept best first; an equal score keeps the earlier fact */
		for (at = out->nnearest; at > 0 && out->held[at - 1] < held;
		     at--)
			;
		if (at >= EXPLAIN_NEAREST_MAX)
			continue;
		if (out->nnearest < EXPLAIN_NEAREST_MAX)
			out->nnearest++;
		for (size_t j = out->nnearest - 1; j > at; j--) {
			out->nearest[j] = out->nearest[j - 1];
			out->held[j] = out->held[j - 1];
			out->failed[j] = out->failed[j - 1];
		}
		out->nearest[at] = f;
		out->held[at] = held;
		out->failed[at] = failed;
	}
}

void explain_miss(const struct rule *r, const struct fact_base *fb,
		  struct explain_miss *out)
{
	struct miss_search s = { r, fb, { 0 }, 0, 0, NULL, NULL, -1, NULL,
				 false };

	memset(out, 0, sizeof(*out));
	out->values = xcalloc(r->nvars ? r->nvars : 1, sizeof(*out->values));
	out->bound = xcalloc(r->nvars ? r->nvars : 1, sizeof(*out->bound));
	s.best_values = out->values;
	s.best_bound = out->bound;
	bindings_init(&s.b, r->nvars);
	miss_walk(&s, 0);
	bindings_release(&s.b);
	out->matched = s.complete ? r->npositive : s.deepest;
	if (s.complete)
		return;
	if (s.deepest == r->npositive && s.blocker >= 0) {
		out->pattern = &r->patterns[s.blocker];
		out->blocked = r->patterns[s.blocker].type == PATTERN_NOT;
		if (s.blocking) {
			out->nearest[0] = s.blocking;
			out->held[0] = out->pattern->ntests;
			out->nnearest = 1;
		}
		out->nfacts = 0;
		fact_base_of_kind(fb, out->pattern->kind, &out->nfacts);
		return;
	}
	out->pattern = &r->patterns[r->plan[s.deepest < r->npositive ?
						    s.deepest :
						    r->npositive - 1]];
	nearest(r, fb, out);
}

void explain_miss_release(struct explain_miss *m)
{
	free(m->values);
	free(m->bound);
	m->values = NULL;
	m->bound = NULL;
}

struct explain *explain_firing(const struct engine *e,
			       const struct fact_base *fb,
			       const struct firing *fi)
{
	return build(e, fb, fi, 0);
}

void explain_free(struct explain *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nsteps; i++) {
		struct explain_step *s = &x->steps[i];

		for (size_t k = 0; k < s->ncomparisons; k++)
			free(s->comparisons[k]);
		free(s->comparisons);
		free(s->label);
		free(s->where);
		explain_free(s->because);
	}
	free(x->steps);
	free(x);
}
