/* Diagnoses: rule firings grouped by diagnosis, certainty factors
 * combined, evidence gathered, and the list ranked so that a cause sits
 * above the symptoms it explains. */
#ifndef RD_DIAGNOSIS_H
#define RD_DIAGNOSIS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/fact.h"
#include "engine/rule.h"

struct diagnosis {
	int rank; /* 1-based */
	const char *id; /* the rules' diagnosis id, owned by the rule set */
	const struct rule *rule; /* the rule with the strongest support */
	enum layer layer;
	enum severity severity;
	double cf; /* combined certainty */
	double score; /* ranking score */
	char *message; /* may be the same string as about */
	char *about; /* merge key */
	char **remediation;
	size_t nremediation;
	struct prov *evidence; /* host evidence, in the order of conditions */
	size_t nevidence;
	uint32_t *firings; /* supporting firings */
	size_t nfirings;
	size_t *explains; /* indexes (in the ranked list) it explains */
	size_t nexplains;
	size_t *explained_by;
	size_t nexplained_by;
};

struct diagnosis_list {
	struct diagnosis **items;
	size_t n;
};

/* Builds the ranked list from the engine's firings.  Diagnoses whose
 * combined certainty is not positive are left out. */
struct diagnosis_list *diagnosis_collect(const struct engine *e,
					 const struct fact_base *fb);
void diagnosis_list_free(struct diagnosis_list *l);

/* MYCIN's combination of two certainty factors. */
double diagnosis_cf_combine(double a, double b);

/* Whether any diagnosis has at least the given severity. */
bool diagnosis_any_at_least(const struct diagnosis_list *l, enum severity s);

#endif
