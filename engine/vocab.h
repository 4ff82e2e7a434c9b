/* The documented fact vocabulary (engine/vocab.def): kinds, fields, their
 * types and keys. */
#ifndef RD_VOCAB_H
#define RD_VOCAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/value.h"

struct vocab_field {
	const char *name;
	enum value_type type;
	enum version_kind vkind;
	bool pattern; /* a PCRE2 pattern: the kb compiles it when it loads */
	bool key;
	const char *doc;
	const char *values; /* closed value set, words split by spaces, or NULL */
	uint32_t sym;
};

/* Most fields a kind has. */
#define VOCAB_FIELDS_MAX 64 /* @@ */

struct vocab_kind {
	const char *name;
	const char *source; /* collected, kb or user */
	const char *doc;
	const struct vocab_field *fields;
	size_t nfields;
	uint32_t sym;
};

/* The kind whose name is the symbol kind, or NULL for kinds outside the
 * vocabulary (facts that rules derive). */
const struct vocab_kind *vocab_kind(uint32_t kind);
const struct vocab_kind *vocab_kind_named(const char *name);
/* The field named by symbol field of kind k, or NULL. */
const struct vocab_field *vocab_field(const struct vocab_kind *k,
				      uint32_t field);
/* Whether s (n bytes) is one of the values field f takes; true for a
 * field without a closed set (VALUES in vocab.def). */
bool vocab_value_known(const struct vocab_field *f, const char *s, size_t n);
/* The words of f's value set (pointers into it, not terminated: lens gives
 * each length), at most max; returns how many. */
size_t vocab_value_words(const struct vocab_field *f, const char **words,
			 size_t *lens, size_t max);
size_t vocab_kind_count(void);
const struct vocab_kind *vocab_kind_at(size_t i);

#endif
