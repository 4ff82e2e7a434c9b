/* Typed fact values: string, integer, number, version, boolean, list. */
#ifndef RD_VALUE_H
#define RD_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/strbuf.h"
#include "engine/version.h"

#define VALUE_TYPES(X)        \
	X(NONE, "none")       \
	X(STRING, "string")   \
	X(INT, "integer")     \
	X(NUMBER, "number")   \
	X(VERSION, "version") \
	X(BOOL, "boolean")    \
	X(LIST, "list")

enum value_type {
#define X(id, name) VALUE_##id,
	VALUE_TYPES(X)
#undef X
		VALUE_TYPE_COUNT
};

struct value_list;

/* Strings and versions are interned symbols (engine/symbol.h), so a value
 * is a plain 16-byte record that copies by assignment. */
struct value {
	uint8_t type; /* enum value_type */
	uint8_t vkind; /* enum version_kind, for VALUE_VERSION */
	union {
		int64_t i;
		double n;
		uint32_t sym;
		bool b;
		const struct value_list *list;
	};
};

struct value_list {
	size_t n;
	struct value items[];
};

const char *value_type_to_str(enum value_type type);
int value_type_from_str(const char *name);

struct value value_none(void);
struct value value_str(const char *s, size_t len);
struct value value_cstr(const char *s);
struct value value_int(int64_t i);
struct value value_num(double n);
struct value value_version(const char *s, size_t len, enum version_kind kind);
struct value value_bool(bool b);
/* The list borrows items; the caller keeps it alive as long as the value
 * (the fact base and rule set allocate lists that live as long as they). */
struct value value_list(const struct value_list *list);

/* Converts text to a value of the given type (and version kind).
 * Returns 0, or -EINVAL when the text is not of that type.  Integers accept
 * decimal and 0x hex; booleans accept true/false/yes/no/on/off/1/0. */
int value_parse(const char *s, size_t len, enum value_type type,
		enum version_kind kind, struct value *out);
/* Types an untyped YAML/JSON scalar: integer, number, boolean or string. */
struct value value_guess(const char *s, size_t len);

/* Converts v to the given type; 0 or -EINVAL. */
int value_coerce(const struct value *v, enum value_type type,
		 enum version_kind kind, struct value *out);

/* Equality as rules see it: numbers compare numerically across int and
 * number; a version equals a string when the texts are equal. */
bool value_equal(const struct value *a, const struct value *b);

/* Orders a against b.  Versions compare by the version's kind (a's when
 * both are versions); strings compare as versions when the other side is
 * a version, as numbers when both parse as numbers, else bytewise.
 * Stores -1/0/1 in *cmp and the kind used (or -1 when not a version
 * comparison) in *vkind.  Returns 0 or -EINVAL when not comparable. */
int value_compare(const struct value *a, const struct value *b, int *cmp,
		  int *vkind);

/* Appends the value as text ("16.27.2000", "true", "[a, b]"). */
void value_format(const struct value *v, struct strbuf *sb);
/* value_format for people reading a comparison: an empty string shows as
 * "". */
void value_show(const struct value *v, struct strbuf *sb);
/* The string of a STRING or VERSION value, else NULL. */
const char *value_text(const struct value *v);

/* A hash consistent with value_equal for scalars. */
uint64_t value_hash(const struct value *v);

#endif
