/* Testing one fact against one condition under variable bindings; shared
 * by the engine (to match) and by explanations (to show the comparisons). */
#ifndef RD_MATCH_H
#define RD_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/fact.h"
#include "engine/rule.h"

/* Variable values of one partial match, with an undo trail. */
struct bindings {
	struct value *values;
	bool *bound;
	int *trail;
	size_t ntrail, captrail;
	size_t nvars;
};

void bindings_init(struct bindings *b, size_t nvars);
void bindings_release(struct bindings *b);
/* Unbinds everything bound since the trail held mark entries. */
void bindings_undo(struct bindings *b, size_t mark);
void bindings_copy_out(const struct bindings *b, struct value *values,
		       bool *bound);

/* Called for each test evaluated: the field's value, the operand's value
 * (NULL for exists/match, and when the test bound a variable rather than
 * compared), whether it held, and the version kind used (-1 when not a
 * version comparison). */
typedef void (*match_report_fn)(void *ctx, const struct test *t,
				const struct value *field,
				const struct value *operand, bool held,
				int vkind);

/* Tests fact f against every test of p, binding unbound variables it meets
 * (undo with bindings_undo()).  Returns 1 when all tests hold, 0 when one
 * fails, and -E2BIG when a regex hit its match limit (the test fails).
 * report, when not NULL, sees every comparison up to the first failure. */
int match_pattern(const struct pattern *p, const struct fact *f,
		  struct bindings *b, match_report_fn report, void *ctx);

/* The operand's value under the bindings; false when a variable is unbound
 * or arithmetic meets a non-number. */
bool match_operand(const struct operand *o, const struct bindings *b,
		   struct value *out);

#endif
