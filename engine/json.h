/* JSON values (the only user of json-c): build and print reports, parse
 * manifests, answer files and fact files. */
#ifndef RD_JSON_H
#define RD_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json;

/* The version of the JSON documents rdmadoctor prints (their schemas are
 * schema/NAME.schema.json); every document carries it as schema_version.
 * Raise it when a field changes meaning or goes away. */
#define RD_SCHEMA_VERSION 1

enum json_kind {
	JSON_NULL,
	JSON_BOOL,
	JSON_INT,
	JSON_DOUBLE,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

/* Constructors return owned values; json_set/json_push take ownership of
 * the value they are given. */
struct json *json_new_object(void);
struct json *json_new_array(void);
struct json *json_new_string(const char *s);
struct json *json_new_string_len(const char *s, size_t len);
struct json *json_new_int(int64_t i);
struct json *json_new_double(double d);
struct json *json_new_bool(bool b);
struct json *json_new_null(void);
void json_set(struct json *obj, const char *key, struct json *val);
void json_push(struct json *arr, struct json *val);
void json_free(struct json *j);

/* A copy of j in which every string value (not the keys) is what fn
 * makes of it: an owned, NUL-terminated replacement (--redact masks a
 * document this way, so a value can never break its syntax).  Owned
 * result. */
struct json *json_map_strings(const struct json *j,
			      char *(*fn)(void *ctx, const char *s, size_t len),
			      void *ctx);

/* Serialises j; pretty selects two-space indentation.  Owned result. */
char *json_dump(const struct json *j, bool pretty);

/* Parses text; NULL with a message in err on failure. */
struct json *json_parse(const char *text, size_t len, char *err,
			size_t errsize);

enum json_kind json_kind_of(const struct json *j);
/* Borrowed member of an object, or NULL. */
const struct json *json_get(const struct json *obj, const char *key);
size_t json_len(const struct json *j); /* array or object size */
const struct json *json_at(const struct json *arr, size_t i);
/* Object iteration by position: key and value of member i. */
const char *json_key_at(const struct json *obj, size_t i,
			const struct json **val);
/* Scalars as text (numbers and booleans formatted), or NULL. */
const char *json_text(const struct json *j);
int64_t json_as_int(const struct json *j);
double json_as_double(const struct json *j);
bool json_as_bool(const struct json *j);

#endif
