/* The alpha network: for each fact kind, the rule conditions that test it,
 * indexed by one constant equality test each, so that a fact asserted
 * during a run meets only the conditions whose constant it holds, however
 * many rules there are. */
#ifndef RD_ALPHA_H
#define RD_ALPHA_H

#include <stddef.h>
#include <stdint.h>

#include "engine/fact.h"
#include "engine/rule.h"

/* A condition: pattern index within rule index. */
struct alpha_ref {
	uint32_t rule;
	uint32_t pattern;
};

struct alpha_net;

/* Indexes the conditions of every rule except 'not' ones (those are
 * checked when a match completes, they never start one).  Borrows rs. */
struct alpha_net *alpha_net_new(const struct rule_set *rs);
void alpha_net_free(struct alpha_net *an);

/* The conditions that fact f may match, in rule order: those on its kind
 * whose indexed constant (if they have one) f holds.  Other tests are
 * left to the caller.  The array belongs to the net and is valid until
 * the next call. */
const struct alpha_ref *alpha_net_match(struct alpha_net *an,
					const struct fact *f, size_t *n);

#endif
