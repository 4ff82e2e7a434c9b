/* answers: --answers files in their three forms, --answer words, the
 * later answer winning, and mistakes reported where they are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/answers.h"

/* Writes text to a temporary file; returns its path (free, unlink). */
static char *temp_file(const char *text)
{
	char *path = strdup("/tmp/rd-answers-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* Loads text as an answers file into as; returns the loader's result. */
static int load(struct answers *as, struct diag *d, const char *text)
{
	char *path = temp_file(text);
	int rc = answers_load_file(as, path, d);

	unlink(path);
	free(path);
	return rc;
}

static void test_yaml_mapping(void **state)
{
	struct answers as = { 0 };
	struct diag *d = diag_new();

	(void)state;
	assert_int_equal(load(&as, d,
			      "# the guide's case\n"
			      "symptom: low_bandwidth\n"
			      "expected_rate: 100\n"),
			 0);
	assert_int_equal(as.n, 2);
	assert_string_equal(answers_get(&as, "symptom"), "low_bandwidth");
	assert_string_equal(answers_get(&as, "expected_rate"), "100");
	assert_null(answers_get(&as, "symptom_x"));
	assert_string_equal(as.items[1], "expected_rate=100");
	assert_int_equal(as.at[1].line, 3);
	assert_int_equal(as.at[1].col, 1);
	assert_non_null(as.at[1].file);
	answers_release(&as);
	diag_free(d);
}

static void test_json_and_fact_file(void **state)
{
	struct answers as = { 0 };
	struct diag *d = diag_new();

	(void)state;
	assert_int_equal(
		load(&as, d,
		     "{\"symptom\": \"timeouts\", \"expected_rate\": 200}\n"),
		0);
	assert_string_equal(answers_get(&as, "symptom"), "timeouts");
	assert_string_equal(answers_get(&as, "expected_rate"), "200");
	/* a saved snapshot: its answer facts, nothing else */
	assert_int_equal(
		load(&as, d,
		     "{\"facts\": [\n"
		     " {\"kind\": \"hca\", \"fields\": {\"name\": \"mlx5_0\"}},\n"
		     " {\"kind\": \"answer\", \"fields\": {\"question\": \"symptom\", \"value\": \"low_bandwidth\"},\n"
		     "  \"source\": \"user\", \"line\": 0}\n"
		     "]}\n"),
		0);
	assert_int_equal(as.n, 2);
	assert_string_equal(answers_get(&as, "symptom"), "low_bandwidth");
	assert_int_equal(as.at[0].line, 3);
	answers_release(&as);
	diag_free(d);
}

static void test_later_wins(void **state)
{
	struct answers as = { 0 };
	struct diag *d = diag_new();

	(void)state;
	assert_int_equal(load(&as, d, "symptom: low_bandwidth\n"), 0);
	assert_int_equal(answers_add_word(&as, "symptom=none", d), 0);
	assert_int_equal(answers_add_word(&as, "environment=vm", d), 0);
	assert_int_equal(as.n, 2);
	assert_string_equal(answers_get(&as, "symptom"), "none");
	assert_null(as.at[0].file); /* now from the command line */
	assert_int_equal(answers_add_word(&as, "symptom", d), -EINVAL);
	assert_int_equal(answers_add_word(&as, "=x", d), -EINVAL);
	assert_int_equal(answers_add_word(&as, "symptom=", d), -EINVAL);
	assert_int_equal(diag_errors(d), 3);
	assert_non_null(strstr(diag_get(d, 0)->message,
			       "--answer takes question=value, not 'symptom'"));
	answers_release(&as);
	diag_free(d);
}

static void test_mistakes(void **state)
{
	struct answers as = { 0 };
	struct diag *d = diag_new();

	(void)state;
	assert_int_equal(load(&as, d, "- symptom\n"), -EINVAL);
	assert_int_equal(diag_get(d, 0)->line, 1);
	assert_non_null(strstr(diag_get(d, 0)->message,
			       "an answers file maps questions to answers"));
	diag_clear(d);
	assert_int_equal(load(&as, d,
			      "symptom: low_bandwidth\nenvironment: [vm]\n"),
			 -EINVAL);
	assert_int_equal(diag_get(d, 0)->line, 2);
	assert_int_equal(diag_get(d, 0)->col, 14);
	diag_clear(d);
	assert_int_equal(load(&as, d, "{\"facts\": {}}\n"), -EINVAL);
	assert_non_null(
		strstr(diag_get(d, 0)->message, "'facts' must be a list"));
	diag_clear(d);
	/* an empty file answers nothing, and that is fine */
	assert_int_equal(load(&as, d, ""), 0);
	assert_int_equal(diag_count(d), 0);
	answers_release(&as);
	diag_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yaml_mapping),
		cmocka_unit_test(test_json_and_fact_file),
		cmocka_unit_test(test_later_wins),
		cmocka_unit_test(test_mistakes),
	};

	return cmocka_run_group_tests_name("answers", tests, NULL, NULL);
}
