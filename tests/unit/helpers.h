/* Shared helpers of the unit tests: facts from "field=value" words, rule
 * sets from inline YAML. */
#ifndef RD_TEST_HELPERS_H
#define RD_TEST_HELPERS_H

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "engine/diag.h"
#include "engine/fact.h"
#include "engine/rule.h"
#include "engine/rule_load.h"
#include "engine/symbol.h"

/* Adds a fact of kind with fields given as "name=value" words (values
 * typed by the vocabulary; other kinds keep strings), ending with NULL.  Returns the
 * committed fact. */
static inline const struct fact *add_fact(struct fact_base *fb,
					  const char *kind, ...)
{
	struct fact *f = fact_base_begin(fb, sym_intern_cstr(kind),
					 fact_base_source(fb, "test"), 1,
					 "test line", 9);
	const char *w;
	va_list ap;
	bool added;

	va_start(ap, kind);
	while ((w = va_arg(ap, const char *))) {
		const char *eq = strchr(w, '=');

		fact_put(fb, f, sym_intern(w, (size_t)(eq - w)),
			 value_str(eq + 1, strlen(eq + 1)), 1, w, strlen(w));
	}
	va_end(ap);
	return fact_base_commit(fb, f, &added);
}

/* Loads rules from YAML text; returns 0 or -EINVAL. */
static inline int load_rules(struct rule_set *rs, const char *yaml,
			     struct diag *d)
{
	int rc = rule_set_load_string(rs, "t.yaml", yaml, strlen(yaml), 0, d);

	if (!rc)
		rc = rule_set_check(rs, d);
	return rc;
}

#endif
