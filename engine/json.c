/* json-c behind a small interface. */
#include "engine/json.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/xalloc.h"

#define JSON_MAX_DEPTH 64 /* @@ */

#define J(p) ((struct json_object *)(p))
#define W(p) ((struct json *)(p))

struct json *json_new_object(void)
{
	return W(json_object_new_object());
}

struct json *json_new_array(void)
{
	return W(json_object_new_array());
}

struct json *json_new_string(const char *s)
{
	return W(json_object_new_string(s ? s : ""));
}

struct json *json_new_string_len(const char *s, size_t len)
{
	return W(json_object_new_string_len(s, (int)len));
}

struct json *json_new_int(int64_t i)
{
	return W(json_object_new_int64(i));
}

/* Doubles print with ten significant digits ("0.9", "40.12"), not
 * json-c's seventeen ("0.90000000000000002"). */
struct json *json_new_double(double d)
{
	char buf[32];

	if (!isfinite(d))
		return NULL;
	snprintf(buf, sizeof(buf), "%.10g", d);
	if (!strpbrk(buf, ".eEn"))
		strcat(buf, ".0");
	return W(json_object_new_double_s(d, buf));
}

struct json *json_new_bool(bool b)
{
	return W(json_object_new_boolean(b));
}

struct json *json_new_null(void)
{
	return NULL;
}

void json_set(struct json *obj, const char *key, struct json *val)
{
	json_object_object_add(J(obj), key, J(val));
}

void json_push(struct json *arr, struct json *val)
{
	json_object_array_add(J(arr), J(val));
}

void json_free(struct json *j)
{
	json_object_put(J(j));
}

char *json_dump(const struct json *j, bool pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE;

	flags |= pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			  JSON_C_TO_STRING_PLAIN;
	return xstrdup(json_object_to_json_string_ext(J(j), flags));
}

struct json *json_parse(const char *text, size_t len, char *err, size_t errsize)
{
	struct json_tokener *tok = json_tokener_new_ex(JSON_MAX_DEPTH);
	struct json_object *obj;
	enum json_tokener_error je;

	if (len > (size_t)1 << 30) {
		snprintf(err, errsize, "JSON text larger than 1 GiB");
		json_tokener_free(tok);
		return NULL;
	}
	obj = json_tokener_parse_ex(tok, text, (int)len);
	je = json_tokener_get_error(tok);
	if (je != json_tokener_success) {
		snprintf(err, errsize, "%s at byte %zu",
			 json_tokener_error_desc(je),
			 json_tokener_get_parse_end(tok));
		json_object_put(obj);
		obj = NULL;
	} else if (json_tokener_get_parse_end(tok) < len) {
		size_t end = json_tokener_get_parse_end(tok);

		while (end < len && strchr(" \t\r\n", text[end]))
			end++;
		if (end < len) {
			snprintf(err, errsize, "trailing data at byte %zu",
				 end);
			json_object_put(obj);
			obj = NULL;
		}
	}
	json_tokener_free(tok);
	return W(obj);
}

struct json *json_map_strings(const struct json *j,
			      char *(*fn)(void *ctx, const char *s, size_t len),
			      void *ctx)
{
	struct json_object *o = J(j), *copy;

	switch (json_object_get_type(o)) {
	case json_type_string: {
		char *m = fn(ctx, json_object_get_string(o),
			     (size_t)json_object_get_string_len(o));

		copy = json_object_new_string(m);
		free(m);
		return W(copy);
	}
	case json_type_array:
		copy = json_object_new_array();
		for (size_t i = 0; i < json_object_array_length(o); i++)
			json_object_array_add(
				copy, J(json_map_strings(
					      W(json_object_array_get_idx(o, i)),
					      fn, ctx)));
		return W(copy);
	case json_type_object:
		copy = json_object_new_object();
		json_object_object_foreach(o, key, val)
			json_object_object_add(
				copy, key, J(json_map_strings(W(val), fn, ctx)));
		return W(copy);
	default:
		return W(json_object_get(o)); /* a scalar: shared */
	}
}

enum json_kind json_kind_of(const struct json *j)
{
	switch (json_object_get_type(J(j))) {
	case json_type_boolean:
		return JSON_BOOL;
	case json_type_int:
		return JSON_INT;
	case json_type_double:
		return JSON_DOUBLE;
	case json_type_string:
		return JSON_STRING;
	case json_type_array:
		return JSON_ARRAY;
	case json_type_object:
		return JSON_OBJECT;
	default:
		return JSON_NULL;
	}
}

const struct json *json_get(const struct json *obj, const char *key)
{
	struct json_object *v = NULL;

	if (json_kind_of(obj) != JSON_OBJECT)
		return NULL;
	if (!json_object_object_get_ex(J(obj), key, &v))
		return NULL;
	return W(v);
}

size_t json_len(const struct json *j)
{
	if (json_kind_of(j) == JSON_ARRAY)
		return json_object_array_length(J(j));
	if (json_kind_of(j) == JSON_OBJECT)
		return (size_t)json_object_object_length(J(j));
	return 0;
}

const struct json *json_at(const struct json *arr, size_t i)
{
	if (json_kind_of(arr) != JSON_ARRAY)
		return NULL;
	return W(json_object_array_get_idx(J(arr), i));
}

const char *json_key_at(const struct json *obj, size_t i,
			const struct json **val)
{
	size_t k = 0;

	if (json_kind_of(obj) != JSON_OBJECT)
		return NULL;
	json_object_object_foreach(J(obj), key, v)
	{
		if (k++ == i) {
			*val = W(v);
			return key;
		}
	}
	return NULL;
}

const char *json_text(const struct json *j)
{
	switch (json_kind_of(j)) {
	case JSON_STRING:
	case JSON_INT:
	case JSON_DOUBLE:
	case JSON_BOOL:
		return json_object_get_string(J(j));
	default:
		return NULL;
	}
}

int64_t json_as_int(const struct json *j)
{
	return json_object_get_int64(J(j));
}

double json_as_double(const struct json *j)
{
	return json_object_get_double(J(j));
}

bool json_as_bool(const struct json *j)
{
	return json_object_get_boolean(J(j));
}
