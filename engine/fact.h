/* Facts and the fact base: typed, provenance-carrying records indexed by
 * kind and by field value. */
#ifndef RD_FACT_H
#define RD_FACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/value.h"

/* Where a fact or field came from: a source file (or command output, or
 * kb file, or rule) and a 1-based line, with the line's text. */
struct prov {
	uint32_t src; /* fact_base source id; 0 = unknown */
	uint32_t line; /* 0 = unknown */
	const char *text; /* the line, owned by the fact base, or NULL */
};

struct field {
	uint32_t name; /* symbol */
	struct value v;
	struct prov prov;
};

/* Read-only to everyone but the fact base. */
struct fact {
	uint32_t id; /* 1-based, in order of addition */
	uint32_t kind; /* symbol */
	uint32_t nfields;
	uint32_t cap;
	struct field *fields;
	struct prov prov;
	double cf; /* certainty, 1 for collected facts */
	uint32_t firing; /* 0 = collected, else the firing that asserted it */
	bool committed;
};

struct fact_base;

struct fact_base *fact_base_new(void);
void fact_base_free(struct fact_base *fb);

/* Remembers the base as it is now (a knowledge base just loaded), for
 * fact_base_rollback; a second mark replaces the first.  The mark holds
 * a copy of the indexes, so it costs about what they do. */
void fact_base_mark(struct fact_base *fb);
/* Returns the base to its mark: the facts, sources, fields, index
 * entries and copied text added since are dropped, and what they owned
 * freed, so that the next analysis on the base sees what the first saw.
 * Facts, values and text taken from the base since the mark must no
 * longer be used.  Without a mark, does nothing. */
void fact_base_rollback(struct fact_base *fb);

/* Registers a source (a path, "live:/sys/...", "kb/adapters.yaml") and
 * returns its id; equal names share one id. */
uint32_t fact_base_source(struct fact_base *fb, const char *name);
const char *fact_base_source_name(const struct fact_base *fb, uint32_t src);

/* Starts a new fact of the given kind; it joins the base at
 * fact_base_commit().  text is copied (bounded) when not NULL. */
struct fact *fact_base_begin(struct fact_base *fb, uint32_t kind, uint32_t src,
			     uint32_t line, const char *text, size_t textlen);
/* Makes room for n fields, for a caller that knows how many it will set
 * (a base may hold hundreds of thousands of facts). */
void fact_reserve(struct fact *f, size_t n);
/* Sets a field, converting the value to the field's vocabulary type.
 * Setting a field twice keeps the first value.  Returns 0, or -EINVAL when
 * the value cannot take the declared type (the field stays unset). */
int fact_put(struct fact_base *fb, struct fact *f, uint32_t name,
	     struct value v, uint32_t line, const char *text, size_t textlen);
/* Like fact_put, with the field citing its own source (a sysfs file). */
int fact_put_at(struct fact_base *fb, struct fact *f, uint32_t name,
		struct value v, uint32_t src, uint32_t line, const char *text,
		size_t textlen);
/* Adds f to the base.  A fact whose key fields (vocabulary KEY) equal an
 * existing fact's is merged into it: missing fields are added, and the
 * existing values win.  A fact without a complete key, or of a kind
 * without keys, is added as is unless an identical fact exists
 * (dedup).  Returns the fact that holds the data, and sets *added when a
 * new fact joined the base. */
struct fact *fact_base_commit(struct fact_base *fb, struct fact *f,
			      bool *added);
/* Adds a field to a fact already in the base (a knowledge-base
 * enrichment, or a value another source supplies), with its own
 * provenance, and indexes it.  The fact's other fields are not touched.
 * Returns 0 when the field was added, -EEXIST when the fact already has
 * it (nothing changes: the caller decides whether two values disagree),
 * -ENOENT for an unknown id, or -EINVAL when the value cannot take the
 * field's vocabulary type. */
int fact_base_enrich(struct fact_base *fb, uint32_t id, uint32_t name,
		     struct value v, const struct prov *prov);
/* Gives a field of a fact already in the base a later value (the same
 * tool's later output), with that value's provenance, and moves the
 * fact in the index.  The caller keeps the earlier value where rules see
 * it (a change fact).  Returns 0, -ENOENT for an unknown id or a field
 * the fact lacks, -EPERM for a fact from before the base's mark (a
 * rollback restores no value changed in place), or -EINVAL for a key
 * field or a value that cannot take the field's vocabulary type. */
int fact_base_replace(struct fact_base *fb, uint32_t id, uint32_t name,
		      struct value v, const struct prov *prov);
/* Drops a fact that was begun but not committed. */
void fact_base_abandon(struct fact_base *fb, struct fact *f);

/* Allocates a list value that lives as long as the base. */
struct value_list *fact_base_list(struct fact_base *fb, size_t n);
/* Copies text into the base; it lives as long as the base. */
const char *fact_base_strdup(struct fact_base *fb, const char *s, size_t n);

size_t fact_base_count(const struct fact_base *fb);
/* The fact with the given id (1-based), or NULL. */
const struct fact *fact_base_get(const struct fact_base *fb, uint32_t id);
/* Ids of the facts of a kind, in order of addition. */
const uint32_t *fact_base_of_kind(const struct fact_base *fb, uint32_t kind,
				  size_t *n);
/* Ids of the facts of a kind whose field equals v. */
const uint32_t *fact_base_lookup(const struct fact_base *fb, uint32_t kind,
				 uint32_t field, const struct value *v,
				 size_t *n);

/* The field of f named name, or NULL. */
const struct field *fact_field(const struct fact *f, uint32_t name);
const struct value *fact_get(const struct fact *f, uint32_t name);
/* The string or version text of a field, or NULL. */
const char *fact_text(const struct fact *f, const char *name);

#endif
