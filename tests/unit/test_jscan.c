/* jscan: the streaming JSON reader reads what RFC 8259 allows, refuses
 * the rest, and can go back to a saved position. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "engine/jscan.h"

static bool well_formed(const char *text)
{
	struct jscan s;
	bool ok;

	jscan_init(&s, text, strlen(text));
	ok = !jscan_skip(&s) && jscan_at_end(&s);
	jscan_release(&s);
	return ok;
}

static void test_accepts_and_refuses(void **state)
{
	static const char *const good[] = {
		"{}",
		"[]",
		" {\"a\": [1, -2.5e3, true, false, null, \"x\"]} \n",
		"\"\\u00e9\\ud83d\\ude00\\n\\\"\"",
		"[[[[]]]]",
		"0",
		"-0.0E+1",
	};
	static const char *const bad[] = {
		"",
		"{",
		"[1,]",
		"[1 2]",
		"{\"a\" 1}",
		"{\"a\": 1,}",
		"{,\"a\": 1}",
		"{1: 2}",
		"[01]",
		"[1.]",
		"[.5]",
		"[1e]",
		"[tru]",
		"\"tab\there\"",
		"\"\\x\"",
		"\"\\ud83d\"",
		"\"\\ude00\"",
		"\"open",
		"{} {}",
		"[1] x",
		"// comment\n{}",
		"NaN",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
		if (!well_formed(good[i]))
			fail_msg("refused: %s", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (well_formed(bad[i]))
			fail_msg("accepted: %s", bad[i]);
}

/* 64 levels are read; the 65th is refused rather than recursed into. */
static void test_depth_bound(void **state)
{
	char text[201];

	(void)state;
	for (int depth = 64; depth <= 65; depth++) {
		memset(text, '[', (size_t)depth);
		memset(text + depth, ']', (size_t)depth);
		text[2 * depth] = '\0';
		assert_int_equal(well_formed(text), depth == 64);
	}
}

static void test_values(void **state)
{
	const char *text = "{\"s\": \"a\\tb\\u00e9\", \"i\": -42, "
			   "\"big\": 123456789012345678901, \"d\": 0.5, "
			   "\"b\": true, \"l\": [1, \"x\"], \"n\": null}";
	struct jscan s;
	const char *key, *str;
	size_t len;
	bool is_int, b;
	int64_t i;
	double d;

	(void)state;
	jscan_init(&s, text, strlen(text));
	assert_int_equal(jscan_peek(&s), JSCAN_OBJECT);
	assert_int_equal(jscan_object(&s), 0);

	key = jscan_key(&s, &len);
	assert_string_equal(key, "s");
	str = jscan_string(&s, &len);
	assert_string_equal(str, "a\tb\xc3\xa9");
	assert_int_equal(len, 5);

	assert_string_equal(jscan_key(&s, &len), "i");
	assert_int_equal(jscan_number(&s, &is_int, &i, &d), 0);
	assert_true(is_int);
	assert_int_equal(i, -42);

	/* Too big for 64 bits: a double. */
	assert_string_equal(jscan_key(&s, &len), "big");
	assert_int_equal(jscan_number(&s, &is_int, &i, &d), 0);
	assert_false(is_int);
	assert_true(d > 1.2e20 && d < 1.3e20);

	assert_string_equal(jscan_key(&s, &len), "d");
	assert_int_equal(jscan_number(&s, &is_int, &i, &d), 0);
	assert_false(is_int);
	assert_true(d == 0.5);

	assert_string_equal(jscan_key(&s, &len), "b");
	assert_int_equal(jscan_bool(&s, &b), 0);
	assert_true(b);

	assert_string_equal(jscan_key(&s, &len), "l");
	assert_int_equal(jscan_array(&s), 0);
	assert_true(jscan_item(&s));
	assert_int_equal(jscan_peek(&s), JSCAN_NUMBER);
	assert_int_equal(jscan_skip(&s), 0);
	assert_true(jscan_item(&s));
	assert_string_equal(jscan_string(&s, &len), "x");
	assert_false(jscan_item(&s));

	assert_string_equal(jscan_key(&s, &len), "n");
	assert_int_equal(jscan_peek(&s), JSCAN_NULL);
	assert_int_equal(jscan_skip(&s), 0);
	assert_null(jscan_key(&s, &len));
	assert_false(jscan_failed(&s));
	assert_true(jscan_at_end(&s));
	jscan_release(&s);
}

static void test_type_mismatch_fails(void **state)
{
	struct jscan s;
	size_t len;
	bool b;

	(void)state;
	jscan_init(&s, "[\"x\", 1]", 8);
	jscan_array(&s);
	assert_true(jscan_item(&s));
	assert_int_equal(jscan_bool(&s, &b), -EINVAL);
	assert_true(jscan_failed(&s));
	/* Every later read fails too. */
	assert_null(jscan_string(&s, &len));
	assert_false(jscan_item(&s));
	jscan_release(&s);
}

static void test_seek(void **state)
{
	const char *text = "{\"a\": {\"x\": 1}, \"b\": \"two\"}";
	struct jscan s;
	struct jscan_mark at_a, after;
	size_t len;
	bool is_int;
	int64_t i;
	double d;

	(void)state;
	jscan_init(&s, text, strlen(text));
	jscan_object(&s);
	assert_string_equal(jscan_key(&s, &len), "a");
	at_a = jscan_tell(&s);
	assert_int_equal(jscan_skip(&s), 0);
	assert_string_equal(jscan_key(&s, &len), "b");
	assert_string_equal(jscan_string(&s, &len), "two");
	after = jscan_tell(&s);

	/* Back into the skipped object, then on from where we were. */
	jscan_seek(&s, at_a);
	assert_int_equal(jscan_object(&s), 0);
	assert_string_equal(jscan_key(&s, &len), "x");
	assert_int_equal(jscan_number(&s, &is_int, &i, &d), 0);
	assert_int_equal(i, 1);
	assert_null(jscan_key(&s, &len));
	jscan_seek(&s, after);
	assert_null(jscan_key(&s, &len));
	assert_false(jscan_failed(&s));
	assert_true(jscan_at_end(&s));
	jscan_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepts_and_refuses),
		cmocka_unit_test(test_depth_bound),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_type_mismatch_fails),
		cmocka_unit_test(test_seek),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
