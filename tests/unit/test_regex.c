/* regex: a deferred pattern answers as a compiled one, a broken one
 * deferred matches nothing, and a busy one keeps its answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "engine/regex.h"

/* A kb signature's shape (kb/signatures_mlx5.yaml, mlx5_cmd_check's
 * format string in drivers/net/ethernet/mellanox/mlx5/core/cmd.c), with
 * a named group, against a line of its output. */
#define PATTERN "mlx5_cmd_check:\\d+:\\(pid \\d+\\): (?<cmd>[A-Z_]+)\\("
#define LINE                                                              \
	"mlx5_core 0000:3b:00.0: mlx5_cmd_check:775:(pid 1): CREATE_MKEY(0x200) " \
	"op_mod(0x0) failed, status bad parameter(0x3), syndrome (0x1234)"

static void same_answers(struct regex *re)
{
	struct regex_match m;
	int group = -1;

	assert_int_equal(regex_match(re, LINE, strlen(LINE), &m), 1);
	assert_int_equal(regex_name_count(re), 1);
	assert_string_equal(regex_name_at(re, 0, &group), "cmd");
	assert_int_equal(group, 1);
	assert_int_equal(regex_group_count(re), 1);
	assert_int_equal(m.end[1] - m.start[1], (long)strlen("CREATE_MKEY"));
	assert_int_equal(regex_match(re, "mlx5_core: healthy", 18, NULL), 0);
}

static void test_compiled(void **state)
{
	char err[256];
	size_t off;
	struct regex *re = regex_compile(PATTERN, 0, err, sizeof(err), &off);

	(void)state;
	assert_non_null(re);
	same_answers(re);
	regex_free(re);
}

static void test_deferred(void **state)
{
	struct regex *re = regex_defer(PATTERN, 0);

	(void)state;
	same_answers(re);
	/* a second round runs on the code the first one compiled */
	same_answers(re);
	regex_free(re);
}

/* Groups asked before any match compile the pattern too. */
static void test_deferred_groups_first(void **state)
{
	struct regex *re = regex_defer(PATTERN, 0);
	int group = -1;

	(void)state;
	assert_int_equal(regex_name_count(re), 1);
	assert_string_equal(regex_name_at(re, 0, &group), "cmd");
	assert_int_equal(regex_match(re, LINE, strlen(LINE), NULL), 1);
	regex_free(re);
}

static void test_deferred_broken(void **state)
{
	char err[256];
	size_t off = 0;
	struct regex *re = regex_defer("(unclosed", 0);

	(void)state;
	assert_null(regex_compile("(unclosed", 0, err, sizeof(err), &off));
	assert_int_equal(regex_match(re, "(unclosed", 9, NULL), 0);
	assert_int_equal(regex_name_count(re), 0);
	assert_int_equal(regex_group_count(re), 0);
	regex_free(re);
	regex_free(NULL);
}

/* A busy pattern runs on the code (JIT, where PCRE2 has it) its first
 * match compiled: the answers stay the same. */
static void test_busy_pattern(void **state)
{
	struct regex *re = regex_defer(PATTERN, 0);

	(void)state;
	for (int i = 0; i < 300; i++)
		same_answers(re);
	regex_free(re);
}

/* regex_check says what regex_compile says, message and offset included,
 * on errors of each of PCRE2's phases: parsing, group names, lookbehind
 * lengths (checked after parsing), code points and UTF-8. */
static void test_check_agrees(void **state)
{
	static const char *const patterns[] = {
		PATTERN, "(unclosed", "a{2,1}", "[z-a]", "\\", "a**",
		"(?<n>a)(?<n>b)", "(?<=a+)b", "\\x{110000}", "bad \xff utf",
		"(?:a|b)+c", "^mlx5_core \\S+: (a|a?)+(a|aa)+$",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(patterns) / sizeof(*patterns); i++) {
		char err1[256] = "", err2[256] = "";
		size_t off1 = 0, off2 = 0;
		struct regex *re = regex_compile(patterns[i], 0, err1,
						 sizeof(err1), &off1);
		int rc = regex_check(patterns[i], 0, err2, sizeof(err2), &off2);

		assert_int_equal(rc, re ? 0 : -EINVAL);
		assert_string_equal(err1, err2);
		assert_int_equal(off1, off2);
		regex_free(re);
	}
}

static void test_caseless(void **state)
{
	struct regex *re = regex_defer("link down", REGEX_CASELESS);

	(void)state;
	assert_int_equal(regex_match(re, "Link Down", 9, NULL), 1);
	regex_free(re);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compiled),
		cmocka_unit_test(test_deferred),
		cmocka_unit_test(test_deferred_groups_first),
		cmocka_unit_test(test_deferred_broken),
		cmocka_unit_test(test_busy_pattern),
		cmocka_unit_test(test_check_agrees),
		cmocka_unit_test(test_caseless),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
