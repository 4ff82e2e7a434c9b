/* Variable analysis and evaluation planning for rules. */
#include "engine/rule_vars.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "engine/symbol.h"
#include "engine/ydoc.h"
#include "engine/xalloc.h"

static bool binds(const struct test *t)
{
	return (t->op == OP_EQ || t->op == OP_BIND) &&
	       t->rhs.type == OPERAND_VAR && !t->rhs.arith;
}

static bool uses(const struct test *t)
{
	return !binds(t) && t->rhs.type == OPERAND_VAR;
}

/* The first variable pattern p compares before it is bound, given the
 * variables already bound; -1 when p is ready. */
static int unready(const struct rule *r, const struct pattern *p,
		   const bool *bound, const struct test **at)
{
	bool *local = xcalloc(r->nvars ? r->nvars : 1, sizeof(bool));
	int missing = -1;

	memcpy(local, bound, r->nvars * sizeof(bool));
	for (size_t i = 0; i < p->ntests && missing < 0; i++) {
		const struct test *t = &p->tests[i];

		if (uses(t) && !local[t->rhs.var]) {
			missing = t->rhs.var;
			*at = t;
		}
		if (binds(t))
			local[t->rhs.var] = true;
		for (int j = 0; j < t->ncaptures; j++)
			local[t->capture_var[j]] = true;
	}
	free(local);
	return missing;
}

static void bind_all(const struct pattern *p, bool *bound)
{
	for (size_t i = 0; i < p->ntests; i++) {
		const struct test *t = &p->tests[i];

		if (binds(t))
			bound[t->rhs.var] = true;
		for (int j = 0; j < t->ncaptures; j++)
			bound[t->capture_var[j]] = true;
	}
}

/* Whether the fact base index can find p's candidates. */
static bool indexable(const struct pattern *p, const bool *bound)
{
	for (size_t i = 0; i < p->ntests; i++) {
		const struct test *t = &p->tests[i];

		if (t->op != OP_EQ && t->op != OP_BIND)
			continue;
		if (t->rhs.type == OPERAND_CONST ||
		    (t->rhs.type == OPERAND_VAR && bound[t->rhs.var]))
			return true;
	}
	return false;
}

static void report(const struct rule *r, const struct ydoc *doc, struct diag *d,
		   const struct test *at, int var, const char *where)
{
	struct ynode n = { 0 };
	const char **others = xcalloc(r->nvars ? r->nvars : 1, sizeof(*others));
	size_t nothers = 0;
	const char *near;
	char hint[96] = "";

	for (size_t i = 0; i < r->nvars; i++)
		if ((int)i != var)
			others[nothers++] = r->vars[i];
	near = ydoc_nearest(r->vars[var], others, nothers);
	if (near)
		snprintf(hint, sizeof(hint), "; did you mean $%s?", near);
	free(others);
	n.line = at->line;
	n.col = at->col;
	ydoc_report(doc, d, DIAG_ERROR, &n,
		    "variable $%s is compared before any condition binds it%s%s",
		    r->vars[var], where, hint);
}

int rule_vars_analyse(struct rule *r, const struct ydoc *doc, struct diag *d)
{
	size_t nv = r->nvars ? r->nvars : 1, np = 0;
	bool *bound = xcalloc(nv, sizeof(bool));
	bool *done = xcalloc(r->npatterns, sizeof(bool));
	const struct test *at = NULL;
	int err = 0;

	r->plan = xcalloc(r->npositive, sizeof(int));
	while (np < r->npositive) {
		int pick = -1, first_unready = -1;
		bool pick_indexed = false;

		for (size_t i = 0; i < r->npatterns; i++) {
			const struct pattern *p = &r->patterns[i];
			bool ix;

			if (p->type != PATTERN_MATCH || done[i])
				continue;
			if (unready(r, p, bound, &at) >= 0) {
				if (first_unready < 0)
					first_unready = (int)i;
				continue;
			}
			ix = indexable(p, bound);
			if (pick < 0 || (ix && !pick_indexed)) {
				pick = (int)i;
				pick_indexed = ix;
			}
		}
		if (pick < 0) {
			const struct pattern *p = &r->patterns[first_unready];
			int var = unready(r, p, bound, &at);

			report(r, doc, d, at, var, "");
			err = -EINVAL;
			goto out;
		}
		done[pick] = true;
		r->plan[np++] = pick;
		bind_all(&r->patterns[pick], bound);
	}
	for (size_t i = 0; i < r->npatterns; i++) {
		const struct pattern *p = &r->patterns[i];
		int var;

		if (p->type == PATTERN_MATCH)
			continue;
		var = unready(r, p, bound, &at);
		if (var >= 0) {
			report(r, doc, d, at, var,
			       p->type == PATTERN_NOT ? " (inside 'not')" :
							" (inside 'exists')");
			err = -EINVAL;
		}
	}
out:
	r->var_bound = bound;
	r->nvar_bound = r->nvars;
	free(done);
	return err;
}

bool rule_vars_bound(const struct rule *r, int slot)
{
	return r->var_bound && slot >= 0 && (size_t)slot < r->nvar_bound &&
	       r->var_bound[slot];
}

static void count_template(const struct template *t, int *uses_of)
{
	for (size_t i = 0; i < t->nparts; i++)
		if (!t->parts[i].text)
			uses_of[t->parts[i].var]++;
}

void rule_vars_warn_unused(const struct rule *r, const struct ydoc *doc,
			   struct diag *d)
{
	int *uses_of = xcalloc(r->nvars ? r->nvars : 1, sizeof(int));
	const struct test **first =
		xcalloc(r->nvars ? r->nvars : 1, sizeof(*first));

	for (size_t i = 0; i < r->npatterns; i++) {
		for (size_t j = 0; j < r->patterns[i].ntests; j++) {
			const struct test *t = &r->patterns[i].tests[j];

			if (t->rhs.type == OPERAND_VAR) {
				uses_of[t->rhs.var]++;
				if (!first[t->rhs.var])
					first[t->rhs.var] = t;
			}
			for (int k = 0; k < t->ncaptures; k++) {
				uses_of[t->capture_var[k]]++;
				if (!first[t->capture_var[k]])
					first[t->capture_var[k]] = t;
			}
		}
	}
	count_template(&r->message, uses_of);
	count_template(&r->about, uses_of);
	for (size_t i = 0; i < r->nremediation; i++)
		count_template(&r->remediation[i], uses_of);
	for (size_t i = 0; i < r->nasserts; i++) {
		for (size_t j = 0; j < r->asserts[i].nfields; j++) {
			const struct assert_field *af =
				&r->asserts[i].fields[j];

			if (af->is_template)
				count_template(&af->tmpl, uses_of);
			else if (af->value.type == OPERAND_VAR)
				uses_of[af->value.var]++;
		}
	}
	for (size_t v = 0; v < r->nvars; v++) {
		struct ynode n = { 0 };

		if (uses_of[v] != 1 || r->vars[v][0] == '_' || !first[v])
			continue;
		n.line = first[v]->line;
		n.col = first[v]->col;
		ydoc_report(
			doc, d, DIAG_WARNING, &n,
			"variable $%s is bound but never used (name it $_%s to keep it)",
			r->vars[v], r->vars[v]);
	}
	free(uses_of);
	free((void *)first);
}

/* Whether a condition picks facts by a constant (name: X): it then
 * matches a few facts of its kind, not all of them. */
static bool picks_by_constant(const struct pattern *p)
{
	for (size_t j = 0; j < p->ntests; j++)
		if (p->tests[j].op == OP_EQ &&
		    p->tests[j].rhs.type == OPERAND_CONST)
			return true;
	return false;
}

static size_t find_root(size_t *parent, size_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

/* Joins pattern i's set with the pattern that first used each of its
 * variables. */
static void join_vars(const struct pattern *p, size_t i, size_t *parent,
		      size_t *owner)
{
	for (size_t j = 0; j < p->ntests; j++) {
		const struct test *t = &p->tests[j];
		int nv = (t->rhs.type == OPERAND_VAR) + t->ncaptures;

		for (int k = 0; k < nv; k++) {
			int v = k < t->ncaptures ? t->capture_var[k] : t->rhs.var;

			if (owner[v] == SIZE_MAX)
				owner[v] = i;
			else
				parent[find_root(parent, i)] =
					find_root(parent, owner[v]);
		}
	}
}

void rule_vars_warn_cross(const struct rule *r, const struct ydoc *doc,
			  struct diag *d)
{
	size_t *parent = xcalloc(r->npatterns ? r->npatterns : 1,
				 sizeof(*parent));
	size_t *owner = xcalloc(r->nvars ? r->nvars : 1, sizeof(*owner));

	for (size_t v = 0; v < r->nvars; v++)
		owner[v] = SIZE_MAX;
	for (size_t i = 0; i < r->npatterns; i++)
		parent[i] = i;
	for (size_t i = 0; i < r->npatterns; i++)
		if (r->patterns[i].type == PATTERN_MATCH)
			join_vars(&r->patterns[i], i, parent, owner);
	/* Two conditions on one kind, neither picking by a constant, that no
	 * variable links: N facts of that kind give N x N matches (N^k for k
	 * such conditions). */
	for (size_t i = 0; i < r->npatterns; i++) {
		const struct pattern *p = &r->patterns[i];

		if (p->type != PATTERN_MATCH || picks_by_constant(p))
			continue;
		for (size_t k = 0; k < i; k++) {
			const struct pattern *q = &r->patterns[k];
			struct ynode n = { 0 };

			if (q->type != PATTERN_MATCH || q->kind != p->kind ||
			    picks_by_constant(q) ||
			    find_root(parent, k) == find_root(parent, i))
				continue;
			n.line = p->line;
			n.col = p->col;
			ydoc_report(
				doc, d, DIAG_WARNING, &n,
				"rule '%s': this condition and the one at line %d both match '%s' facts and share no variable, so the rule matches every pair of them (a cross product; the engine stops it at its firing cap)",
				r->id, q->line, sym_str(p->kind));
			break;
		}
	}
	free(parent);
	free(owner);
}

void rule_vars_keep_list(struct rule *r, struct value_list *l)
{
	size_t cap = r->nlists;

	xgrow(&r->lists, &cap, r->nlists + 1, sizeof(*r->lists));
	r->lists[r->nlists++] = l;
}
