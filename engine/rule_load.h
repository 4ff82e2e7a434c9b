/* The rule loader: YAML rule files into a rule set (rule.h).  It calls
 * the set's functions, and the set knows nothing of loading, so that the
 * two depend one way.  Below the loading functions, the state shared by
 * rule_load.c (files, rules, actions) and rule_cond.c (conditions). */
#ifndef RD_RULE_LOAD_H
#define RD_RULE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/diag.h"
#include "engine/rule.h"
#include "engine/ydoc.h"

/* Loads one rule file.  Rules with an id already loaded at a lower
 * origin_level replace it; "disabled: true" removes it.  The same id twice
 * at one level is an error.  Every mistake is reported to d with
 * file:line:col, naming the file name (NULL: path); returns 0 or -EINVAL. */
int rule_set_load_file(struct rule_set *rs, const char *path, const char *name,
		       int origin_level, struct diag *d);
/* Loads rules from text in memory (tests, rule test cases). */
int rule_set_load_string(struct rule_set *rs, const char *name,
			 const char *text, size_t len, int origin_level,
			 struct diag *d);
/* Loads every .yaml file of a directory, in name order (test files,
 * .test.yaml, are skipped), naming them prefix/file (NULL prefix: dir).
 * A missing directory is not an error when optional is true. */
int rule_set_load_dir(struct rule_set *rs, const char *dir, const char *prefix,
		      int origin_level, bool optional, struct diag *d);
/* ---- internal to the loader ---- */

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
	char unbound[65]; /* the last name a template used that nothing binds */
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
