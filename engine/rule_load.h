/* Internal to the rule loader: state shared by rule_load.c (files,
 * rules, actions) and rule_cond.c (conditions). */
#ifndef RD_RULE_LOAD_H
#define RD_RULE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/rule.h"
#include "engine/ydoc.h"

struct rule_loader {
	struct ydoc *doc;
	struct diag *d;
	struct rule_set *rs;
	int level;
	bool failed;
};

/* Per-rule state while compiling. */
struct rule_ctx {
	struct rule_loader *L;
	struct rule *r;
	size_t capvars;
};

/* Reports an error at node n and marks the load failed. */
void rule_load_error(struct rule_loader *L, const struct ynode *n,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "; did you mean 'x'?" when a candidate is close to word, else "".  The
 * result lives until the next call. */
const char *rule_load_hint(const char *word, const char *const *cands,
			   size_t n);

/* when: a non-empty list of conditions, compiled into r->patterns. */
int rule_cond_when(struct rule_ctx *c, const struct ynode *n);
/* Whether n is written as a variable ("$name", "$name * 0.9"). */
bool rule_cond_is_var(const struct ynode *n);
/* Compiles "$name" (and, when arith, "$name * k") into an operand. */
int rule_cond_var_operand(struct rule_ctx *c, const struct ynode *n, bool arith,
			  struct operand *o);

#endif
