/* A streaming JSON reader: walks a document in place and hands out one
 * value at a time, without building a tree.  For inputs too large for
 * engine/json.c's DOM: fact files of a few hundred thousand facts.  Strict
 * RFC 8259 JSON; nesting is bounded. */
#ifndef RD_JSCAN_H
#define RD_JSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/strbuf.h"

enum jscan_type {
	JSCAN_INVALID, /* not a value here: an error, or a closing bracket */
	JSCAN_NULL,
	JSCAN_BOOL,
	JSCAN_NUMBER,
	JSCAN_STRING,
	JSCAN_ARRAY,
	JSCAN_OBJECT,
};

/* The reader borrows the text. */
struct jscan {
	const char *p, *end;
	int depth;
	bool fresh; /* just after '{' or '[' */
	bool failed;
	struct strbuf str; /* the last string or key read, unescaped */
};

/* A saved position: seeking back to it reads the same values again. */
struct jscan_mark {
	const char *p;
	int depth;
	bool fresh;
};

void jscan_init(struct jscan *s, const char *text, size_t len);
void jscan_release(struct jscan *s);
struct jscan_mark jscan_tell(const struct jscan *s);
void jscan_seek(struct jscan *s, struct jscan_mark m);

/* The type of the next value, without reading it. */
enum jscan_type jscan_peek(struct jscan *s);
/* Each reads the next value, which must be of its type; a mismatch or a
 * syntax error fails the reader (jscan_failed), after which every read
 * fails.  Strings are NUL-terminated, may hold NULs (see *len), and stay
 * valid until the next string or key is read. */
const char *jscan_string(struct jscan *s, size_t *len);
/* A number without fraction or exponent that fits 64 bits is an integer
 * (*is_int); others are doubles. */
int jscan_number(struct jscan *s, bool *is_int, int64_t *i, double *d);
int jscan_bool(struct jscan *s, bool *b);
/* Reads past the next value, whatever its type. */
int jscan_skip(struct jscan *s);

/* Enters the object (or array) that comes next. */
int jscan_object(struct jscan *s);
int jscan_array(struct jscan *s);
/* The key of the object's next member, whose value comes next; NULL
 * after the closing brace (or on error). */
const char *jscan_key(struct jscan *s, size_t *len);
/* Whether the array has another item, which comes next; false after the
 * closing bracket (or on error). */
bool jscan_item(struct jscan *s);

/* Whether only white space is left. */
bool jscan_at_end(struct jscan *s);
bool jscan_failed(const struct jscan *s);
/* Byte offset of the reader, for messages. */
size_t jscan_offset(const struct jscan *s, const char *text);

#endif
