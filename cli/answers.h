/* Answers given before a session: --answers files and --answer words,
 * the later overriding the earlier, in the form analysis_opts takes. */
#ifndef RD_ANSWERS_H
#define RD_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "cli/options.h"
#include "engine/diag.h"

struct answers {
	char **items; /* "question=value", owned */
	struct answer_origin *at; /* parallel to items; files owned below */
	size_t n, cap;
	uint32_t *slots; /* hash of question -> index + 1 */
	size_t nslots;
	char **files; /* names the origins point to */
	size_t nfiles;
};

/* Reads an answers file: YAML or JSON, either a mapping of question to
 * answer ("symptom: low_bandwidth") or a fact file whose answer facts are
 * taken (what --save writes).  Returns 0, or -EINVAL after reporting to d
 * with file:line:col. */
int answers_load_file(struct answers *as, const char *path, struct diag *d);
/* Adds "question=value"; returns 0, or -EINVAL after reporting to d. */
int answers_add_word(struct answers *as, const char *word, struct diag *d);
/* Sets question to value, replacing an earlier answer to it. */
void answers_set(struct answers *as, const char *question, const char *value,
		 const struct answer_origin *at);
/* The answer to question, or NULL. */
const char *answers_get(const struct answers *as, const char *question);
/* Every --answers file, then every --answer word, of the options. */
int answers_from_options(struct answers *as, const struct options *o,
			 struct diag *d);
/* Points ao's answers at as (which must outlive ao). */
void answers_to_opts(const struct answers *as, struct analysis_opts *ao);
void answers_release(struct answers *as);

#endif
