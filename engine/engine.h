/* The forward-chaining engine: indexed matching of rules against the fact
 * base, an agenda ordered by salience, refraction, chaining through
 * asserted facts, and a firing cap. */
#ifndef RD_ENGINE_H
#define RD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/diag.h"
#include "engine/fact.h"
#include "engine/rule.h"

/* One rule firing: the rule, the fact matched by each condition (0 for
 * not/exists conditions), the variable values, and the certainty.  facts,
 * values and bound are one allocation, owned by the engine. */
struct firing {
	uint32_t id; /* 1-based */
	const struct rule *rule;
	uint32_t *facts; /* rule->npatterns entries */
	struct value *values; /* rule->nvars entries */
	bool *bound;
	double cf;
};

struct engine;

#define ENGINE_DEFAULT_MAX_FIRINGS 100000 /* @@ */
/* Matches one rule may make, asserting or diagnose-only: a rule whose
 * conditions share no variable matches a cross product. */
#define ENGINE_DEFAULT_MAX_MATCHES ENGINE_DEFAULT_MAX_FIRINGS
/* Longest text an assertion may build from its template. */
#define ENGINE_VALUE_MAX 4096 /* @@ */

/* The engine borrows the rule set and the fact base; facts the rules
 * assert are added to fb. */
struct engine *engine_new(const struct rule_set *rs, struct fact_base *fb,
			  struct diag *d);
void engine_free(struct engine *e);
void engine_set_max_firings(struct engine *e, size_t max);
void engine_set_max_matches(struct engine *e, size_t max);

/* Matches and fires until no activation is left.  Returns 0, or -ELOOP
 * after reporting a chain that passed the firing cap, which counts the
 * firings of rules that assert facts (only those can make a chain run
 * forever), or -E2BIG after reporting an assertion whose value grew past
 * ENGINE_VALUE_MAX or a rule that matched more than the match cap.  A regex that hit its
 * match limit is reported to d and counts as a failed test. */
int engine_run(struct engine *e);

/* Adds a fact during a run (answers in a guided session) and matches the
 * rules it concerns; call engine_run() again to fire them.  Returns the
 * fact that holds the data. */
const struct fact *engine_add_fact(struct engine *e, struct fact *f);

size_t engine_firing_count(const struct engine *e);
const struct firing *engine_firing(const struct engine *e, uint32_t id);
/* The firing that asserted the fact, or NULL for collected facts. */
const struct firing *engine_asserted_by(const struct engine *e,
					const struct fact *f);
bool engine_rule_fired(const struct engine *e, const struct rule *r);

/* Whether rule r would match if the conditions on answer facts for
 * unanswered questions held; used to find rules waiting for a question.
 * The ids of those questions go into *questions (owned by the caller,
 * free()). */
bool engine_waits_for_answers(struct engine *e, const struct rule *r,
			      char ***questions, size_t *n);

/* Work counters, for benchmarks and --stats. */
struct engine_stats {
	uint64_t activations;
	uint64_t candidates; /* facts tested against a condition */
	uint64_t index_lookups;
	uint64_t regex_limit_hits;
};
void engine_stats(const struct engine *e, struct engine_stats *out);

#endif
