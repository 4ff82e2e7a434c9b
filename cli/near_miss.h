/* --why-not: the rules that did not fire, and how near each came: the
 * conditions that held, the first one no fact met, and the facts nearest
 * to meeting it. */
#ifndef RD_NEAR_MISS_H
#define RD_NEAR_MISS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"

/* Rules listed when --why-not names none: the nearest this many. */
#define NEAR_MISS_MAX 10 /* @@ */

enum near_miss_status {
	NEAR_MISS_FIRED, /* a named rule that fired */
	NEAR_MISS_HOLDS, /* every condition holds; it waits on an answer */
	NEAR_MISS_BLOCKED, /* a 'not' condition is contradicted by a fact */
	NEAR_MISS_MISSING, /* a condition no fact meets */
};

/* One fact near the condition that failed: how many of its tests it
 * passes, and the ones it fails. */
struct near_fact {
	char *label; /* "port mlx5_0/1" */
	char *fields; /* "state=DOWN rate_gbps=100" */
	size_t held, tests;
	char **fails; /* "phys_state eq LINKUP" */
	size_t nfails;
	const char *source; /* borrowed from the fact base; NULL: none */
	unsigned line;
};

struct near_miss {
	const struct rule *rule; /* borrowed */
	enum near_miss_status status;
	size_t matched, conditions; /* positive conditions held, of all */
	/* the same counted over conditions on the host's evidence (and on
	 * what rules derive from it), not on the knowledge base, whose facts
	 * are always there */
	size_t evidence_matched, evidence_conditions;
	double closeness; /* 0..1: what orders the list */
	char *condition; /* the condition that failed, as text; NULL: none */
	int condition_line;
	const char *kind; /* its fact kind */
	bool kind_is_knowledge; /* a kind the evidence does not give */
	size_t nfacts; /* facts of that kind */
	struct near_fact *nearest;
	size_t nnearest;
};

/* The near misses of analysis a: with ids (rule ids or diagnosis ids), the
 * rules they name in rule order; with none, the rules at warning or above
 * that did not fire and met at least one condition on the host's evidence,
 * nearest first, at most
 * NEAR_MISS_MAX.  Returns the owned array (near_miss_free) and its length
 * in *n, or NULL after reporting an id that names no rule to d. */
struct near_miss *near_miss_list(const struct analysis *a,
				 const char *const *ids, size_t nids,
				 size_t *n, struct diag *d);
void near_miss_free(struct near_miss *v, size_t n);
const char *near_miss_status_to_str(enum near_miss_status s);

#endif
