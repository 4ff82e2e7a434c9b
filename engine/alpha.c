/* The alpha network: conditions by kind, and within a kind by the value
 * of one constant equality test, in an open-addressing table. */
#include "engine/alpha.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/symbol.h"
#include "engine/xalloc.h"

/* The conditions of one kind whose indexed test is field == v. */
struct alpha_key {
	uint64_t hash;
	uint32_t field;
	struct value v;
	uint32_t *refs; /* indexes into alpha->refs, ascending; NULL = empty */
	size_t n, cap;
};

struct alpha {
	uint32_t kind;
	struct alpha_ref *refs; /* in rule order */
	size_t n, cap;
	uint32_t *unkeyed; /* refs without an indexable constant */
	size_t nunkeyed, capunkeyed;
	uint32_t *fields; /* the fields indexed tests look at */
	size_t nfields, capfields;
	struct alpha_key *keys;
	size_t nkeys, used;
};

struct alpha_net {
	struct alpha *kinds;
	size_t n, cap;
	uint32_t *found; /* alpha_net_match's result, as ref indexes */
	struct alpha_ref *out;
	size_t capfound, capout;
};

static struct alpha *alpha_of(struct alpha_net *an, uint32_t kind, bool create)
{
	for (size_t i = 0; i < an->n; i++)
		if (an->kinds[i].kind == kind)
			return &an->kinds[i];
	if (!create)
		return NULL;
	xgrow(&an->kinds, &an->cap, an->n + 1, sizeof(*an->kinds));
	memset(&an->kinds[an->n], 0, sizeof(*an->kinds));
	an->kinds[an->n].kind = kind;
	return &an->kinds[an->n++];
}

/* Whether value_hash agrees with value_equal between v and any value
 * equal to it: strings, versions and booleans, and numbers small enough
 * that value_hash hashes ints and whole doubles alike. */
#define HASH_EXACT 9.0e15

static bool indexable(const struct value *v)
{
	switch (v->type) {
	case VALUE_STRING:
	case VALUE_VERSION:
	case VALUE_BOOL:
		return true;
	case VALUE_INT:
		return v->i > -(int64_t)HASH_EXACT &&
		       v->i < (int64_t)HASH_EXACT;
	case VALUE_NUMBER:
		return fabs(v->n) < HASH_EXACT;
	default:
		return false;
	}
}

/* The test a condition is indexed by: its first equality with an
 * indexable constant, or NULL. */
static const struct test *key_test(const struct pattern *p)
{
	for (size_t i = 0; i < p->ntests; i++) {
		const struct test *t = &p->tests[i];

		if (t->op == OP_EQ && t->rhs.type == OPERAND_CONST &&
		    indexable(&t->rhs.v))
			return t;
	}
	return NULL;
}

static uint64_t key_hash(uint32_t field, const struct value *v)
{
	return hash_mix64(field ^ value_hash(v));
}

static size_t key_slot(const struct alpha *a, uint64_t h, uint32_t field,
		       const struct value *v)
{
	size_t i = h & (a->nkeys - 1);

	while (a->keys[i].refs &&
	       (a->keys[i].hash != h || a->keys[i].field != field ||
		!value_equal(&a->keys[i].v, v)))
		i = (i + 1) & (a->nkeys - 1);
	return i;
}

static void grow_keys(struct alpha *a)
{
	struct alpha_key *old = a->keys;
	size_t nold = a->nkeys;

	if ((a->used + 1) * 2 <= a->nkeys)
		return;
	a->nkeys = a->nkeys ? a->nkeys * 2 : 16;
	a->keys = xcalloc(a->nkeys, sizeof(*a->keys));
	for (size_t i = 0; i < nold; i++)
		if (old[i].refs)
			a->keys[key_slot(a, old[i].hash, old[i].field,
					 &old[i].v)] = old[i];
	free(old);
}

static void push_u32(uint32_t **items, size_t *n, size_t *cap, uint32_t v)
{
	xgrow(items, cap, *n + 1, sizeof(**items));
	(*items)[(*n)++] = v;
}

static void add_ref(struct alpha *a, uint32_t rule, uint32_t pattern,
		    const struct pattern *p)
{
	const struct test *t = key_test(p);
	uint32_t idx = (uint32_t)a->n;
	struct alpha_key *k;
	uint64_t h;
	bool seen = false;

	xgrow(&a->refs, &a->cap, a->n + 1, sizeof(*a->refs));
	a->refs[a->n].rule = rule;
	a->refs[a->n++].pattern = pattern;
	if (!t) {
		push_u32(&a->unkeyed, &a->nunkeyed, &a->capunkeyed, idx);
		return;
	}
	for (size_t i = 0; i < a->nfields; i++)
		seen |= a->fields[i] == t->field;
	if (!seen)
		push_u32(&a->fields, &a->nfields, &a->capfields, t->field);
	grow_keys(a);
	h = key_hash(t->field, &t->rhs.v);
	k = &a->keys[key_slot(a, h, t->field, &t->rhs.v)];
	if (!k->refs) {
		k->hash = h;
		k->field = t->field;
		k->v = t->rhs.v;
		a->used++;
	}
	push_u32(&k->refs, &k->n, &k->cap, idx);
}

struct alpha_net *alpha_net_new(const struct rule_set *rs)
{
	struct alpha_net *an = xcalloc(1, sizeof(*an));

	for (uint32_t i = 0; i < rule_set_count(rs); i++) {
		const struct rule *r = rule_set_at(rs, i);

		for (uint32_t j = 0; j < r->npatterns; j++)
			if (r->patterns[j].type != PATTERN_NOT)
				add_ref(alpha_of(an, r->patterns[j].kind, true),
					i, j, &r->patterns[j]);
	}
	return an;
}

void alpha_net_free(struct alpha_net *an)
{
	if (!an)
		return;
	for (size_t i = 0; i < an->n; i++) {
		struct alpha *a = &an->kinds[i];

		for (size_t k = 0; k < a->nkeys; k++)
			free(a->keys[k].refs);
		free(a->keys);
		free(a->refs);
		free(a->unkeyed);
		free(a->fields);
	}
	free(an->kinds);
	free(an->found);
	free(an->out);
	free(an);
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

static void add_found(struct alpha_net *an, size_t *n, const uint32_t *refs,
		      size_t k)
{
	if (!k)
		return;
	xgrow(&an->found, &an->capfound, *n + k, sizeof(*an->found));
	memcpy(an->found + *n, refs, k * sizeof(*refs));
	*n += k;
}

const struct alpha_ref *alpha_net_match(struct alpha_net *an,
					const struct fact *f, size_t *n)
{
	struct alpha *a = alpha_of(an, f->kind, false);
	size_t nfound = 0;

	*n = 0;
	if (!a)
		return NULL;
	add_found(an, &nfound, a->unkeyed, a->nunkeyed);
	for (size_t i = 0; i < a->nfields && a->nkeys; i++) {
		const struct value *v = fact_get(f, a->fields[i]);
		const struct alpha_key *k;

		if (!v || !indexable(v))
			continue;
		k = &a->keys[key_slot(a, key_hash(a->fields[i], v),
				      a->fields[i], v)];
		if (k->refs)
			add_found(an, &nfound, k->refs, k->n);
	}
	/* Each ref sits in one list; rule order is the order they arose. */
	if (nfound > 1)
		qsort(an->found, nfound, sizeof(*an->found), cmp_u32);
	xgrow(&an->out, &an->capout, nfound, sizeof(*an->out));
	for (size_t i = 0; i < nfound; i++)
		an->out[i] = a->refs[an->found[i]];
	*n = nfound;
	return an->out;
}
