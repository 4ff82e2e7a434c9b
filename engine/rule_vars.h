/* Variable analysis of a compiled rule: which condition binds each
 * variable, the order the matching conditions are evaluated in, and the
 * mistakes a variable can carry. */
#ifndef RD_RULE_VARS_H
#define RD_RULE_VARS_H

#include <stdbool.h>

#include "engine/diag.h"
#include "engine/rule.h"
#include "engine/ydoc.h"

/* Computes r->plan and r->var_bound.  Reports, at the offending test, a
 * variable compared before any condition binds it.  Returns 0 or -EINVAL. */
int rule_vars_analyse(struct rule *r, const struct ydoc *doc, struct diag *d);
/* Whether a PATTERN_MATCH condition binds the variable in slot. */
bool rule_vars_bound(const struct rule *r, int slot);
/* Warns about variables that are bound once and never used again (names
 * starting with '_' are exempt). */
/* Warns (into d) about each condition that matches the same kind of fact
 * as an earlier one, neither picking facts by a constant, and shares no
 * variable with it, directly or through other conditions: the rule then
 * matches their cross product. */
void rule_vars_warn_cross(const struct rule *r, const struct ydoc *doc,
			  struct diag *d);
void rule_vars_warn_unused(const struct rule *r, const struct ydoc *doc,
			   struct diag *d);
/* The rule takes ownership of a constant list. */
void rule_vars_keep_list(struct rule *r, struct value_list *l);

#endif
