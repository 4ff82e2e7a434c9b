/* Explanation records: for one rule firing, the facts each condition
 * matched (with provenance), the comparisons made, what 'not' conditions
 * ruled out, and, for derived facts, the firing that asserted them. */
#ifndef RD_EXPLAIN_H
#define RD_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/fact.h"

struct explain;

struct explain_step {
	enum pattern_type type;
	const struct fact *fact; /* NULL for not/exists conditions */
	char *label; /* "hca mlx5_0", "no port with state = ACTIVE" */
	char *where; /* "sos_commands/infiniband/ibstat:1", or NULL */
	char **comparisons; /* "fw_min 16.27.2000 > 16.26.1040 (fw version)" */
	size_t ncomparisons;
	struct explain *because; /* the firing that asserted fact */
};

struct explain {
	const struct rule *rule;
	const struct firing *firing;
	struct explain_step *steps;
	size_t nsteps;
};

/* Builds the record of a firing, following derived facts back through
 * the firings that asserted them.  Owned; free with explain_free(). */
struct explain *explain_firing(const struct engine *e,
			       const struct fact_base *fb,
			       const struct firing *fi);
void explain_free(struct explain *x);

/* Most facts explain_miss() offers as the nearest to a condition. */
#define EXPLAIN_NEAREST_MAX 3 /* @@ */

/* Why a rule did not fire: the first condition (in the order the engine
 * evaluates them) that no fact matched under the variables the conditions
 * before it bound, and the facts of its kind that come nearest. */
struct explain_miss {
	const struct pattern *pattern; /* NULL: the rule matches (it may
					  wait on an answer or be refracted) */
	bool blocked; /* pattern is a 'not' condition some fact matched */
	const struct fact *nearest[EXPLAIN_NEAREST_MAX];
	size_t held[EXPLAIN_NEAREST_MAX]; /* tests of pattern each holds */
	uint64_t failed[EXPLAIN_NEAREST_MAX]; /* bit i: test i (< 64) fails */
	size_t nnearest;
	size_t nfacts; /* facts of the pattern's kind */
	size_t matched; /* positive conditions the best partial match met */
	/* the variables that partial match bound, by slot (owned: release
	 * with explain_miss_release); the nearest facts were tested under
	 * them */
	struct value *values;
	bool *bound;
};

/* Fills *out for rule r over fact base fb; the search stops after a
 * bounded number of candidate facts, and then reports the deepest
 * condition it reached.  Borrows r and fb; out holds pointers into fb. */
void explain_miss(const struct rule *r, const struct fact_base *fb,
		  struct explain_miss *out);
/* Frees what explain_miss() allocated in m (not m itself). */
void explain_miss_release(struct explain_miss *m);

/* "hca mlx5_0": the kind and the fact's key fields (or name). */
char *explain_fact_label(const struct fact *f);

#endif
