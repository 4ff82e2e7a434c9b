/* The knowledge base: the entries of the YAML files in kb/, loaded as facts (adapter,
 * fw_requirement, signature, ...), each carrying its source. */
#ifndef RD_KB_H
#define RD_KB_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/diag.h"
#include "engine/fact.h"
#include "engine/vocab.h"
#include "engine/ydoc.h"

/* Loads one kb file: a mapping with 'kind' (a vocabulary kind whose source
 * is kb) and 'entries', a list of field mappings.  Every entry needs a
 * non-empty 'source'.  Mistakes are reported with file:line:col; returns
 * the number of entries loaded or -EINVAL. */
int kb_load_file(struct fact_base *fb, const char *path, const char *name,
		 struct diag *d);
/* The same for kb text in memory, named name in messages (fuzzing). */
int kb_load_string(struct fact_base *fb, const char *name, const char *text,
		   size_t len, struct diag *d);
/* Adds the fact of kind k that a mapping of field: value describes (the
 * key skip, when not NULL, is left out), with the node's line as its
 * provenance.  Mistakes are reported at their node; -EINVAL. */
int kb_fact_from_node(struct fact_base *fb, const struct ydoc *doc,
		      const struct vocab_kind *k, uint32_t src,
		      const struct ynode *n, const char *skip, struct diag *d);
/* Loads every .yaml file of a directory in name order, naming them
 * prefix/file (NULL prefix: dir). */
int kb_load_dir(struct fact_base *fb, const char *dir, const char *prefix,
		struct diag *d);

/* Which kinds outside the vocabulary a rule file declares (field 0: the
 * kind itself), for a site's kb (an overlay's kb/). */
struct kb_declared {
	bool (*declares)(const void *arg, uint32_t kind, uint32_t field);
	const void *arg;
};
/* A fact of a kind decl declares from the mapping n (skipping the key
 * skip, e.g. "kind"): only declared fields, and 'source', each taking the
 * type its text suggests.  Returns 0, or -EINVAL after reporting. */
int kb_declared_fact_from_node(struct fact_base *fb, const struct ydoc *doc,
			       uint32_t kind, uint32_t src,
			       const struct ynode *n, const char *skip,
			       const struct kb_declared *decl, struct diag *d);
/* kb_load_dir, also taking files of the kinds decl declares (NULL: none):
 * their entries need a 'source' and only declared fields, which take the
 * type their text suggests. */
int kb_load_dir_declared(struct fact_base *fb, const char *dir,
			 const char *prefix, const struct kb_declared *decl,
			 struct diag *d);

#endif
