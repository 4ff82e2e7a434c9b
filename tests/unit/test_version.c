/* version: rpm segment comparison and the per-kind splits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "engine/version.h"

/* rpm's own vectors (rpm-software-management/rpm tests/rpmvercmp.at). */
static const struct {
	const char *a, *b;
	int want;
} rpm_vectors[] = {
	{ "1.0", "1.0", 0 },
	{ "1.0", "2.0", -1 },
	{ "2.0", "1.0", 1 },
	{ "2.0.1", "2.0.1", 0 },
	{ "2.0", "2.0.1", -1 },
	{ "2.0.1", "2.0", 1 },
	{ "2.0.1a", "2.0.1a", 0 },
	{ "2.0.1a", "2.0.1", 1 },
	{ "2.0.1", "2.0.1a", -1 },
	{ "5.5p1", "5.5p1", 0 },
	{ "5.5p1", "5.5p2", -1 },
	{ "5.5p2", "5.5p1", 1 },
	{ "5.5p10", "5.5p10", 0 },
	{ "5.5p1", "5.5p10", -1 },
	{ "5.5p10", "5.5p1", 1 },
	{ "10xyz", "10.1xyz", -1 },
	{ "10.1xyz", "10xyz", 1 },
	{ "xyz10", "xyz10", 0 },
	{ "xyz10", "xyz10.1", -1 },
	{ "xyz10.1", "xyz10", 1 },
	{ "xyz.4", "xyz.4", 0 },
	{ "xyz.4", "8", -1 },
	{ "8", "xyz.4", 1 },
	{ "xyz.4", "2", -1 },
	{ "2", "xyz.4", 1 },
	{ "5.5p2", "5.6p1", -1 },
	{ "5.6p1", "5.5p2", 1 },
	{ "5.6p1", "6.5p1", -1 },
	{ "6.5p1", "5.6p1", 1 },
	{ "6.0.rc1", "6.0", 1 },
	{ "6.0", "6.0.rc1", -1 },
	{ "10b2", "10a1", 1 },
	{ "10a2", "10b2", -1 },
	{ "1.0aa", "1.0aa", 0 },
	{ "1.0a", "1.0aa", -1 },
	{ "1.0aa", "1.0a", 1 },
	{ "10.0001", "10.0001", 0 },
	{ "10.0001", "10.1", 0 },
	{ "10.1", "10.0001", 0 },
	{ "10.0001", "10.0039", -1 },
	{ "10.0039", "10.0001", 1 },
	{ "4.999.9", "5.0", -1 },
	{ "5.0", "4.999.9", 1 },
	{ "20101121", "20101121", 0 },
	{ "20101121", "20101122", -1 },
	{ "20101122", "20101121", 1 },
	{ "2_0", "2_0", 0 },
	{ "2.0", "2_0", 0 },
	{ "2_0", "2.0", 0 },
	{ "a", "a", 0 },
	{ "a+", "a+", 0 },
	{ "a+", "a_", 0 },
	{ "a_", "a+", 0 },
	{ "+a", "+a", 0 },
	{ "+a", "_a", 0 },
	{ "_a", "+a", 0 },
	{ "+_", "+_", 0 },
	{ "_+", "+_", 0 },
	{ "_+", "_+", 0 },
	{ "+", "_", 0 },
	{ "_", "+", 0 },
	{ "1.0~rc1", "1.0~rc1", 0 },
	{ "1.0~rc1", "1.0", -1 },
	{ "1.0", "1.0~rc1", 1 },
	{ "1.0~rc1", "1.0~rc2", -1 },
	{ "1.0~rc2", "1.0~rc1", 1 },
	{ "1.0~rc1~git123", "1.0~rc1~git123", 0 },
	{ "1.0~rc1~git123", "1.0~rc1", -1 },
	{ "1.0~rc1", "1.0~rc1~git123", 1 },
	{ "1.0^", "1.0^", 0 },
	{ "1.0^", "1.0", 1 },
	{ "1.0", "1.0^", -1 },
	{ "1.0^git1", "1.0^git1", 0 },
	{ "1.0^git1", "1.0", 1 },
	{ "1.0", "1.0^git1", -1 },
	{ "1.0^git1", "1.0^git2", -1 },
	{ "1.0^git2", "1.0^git1", 1 },
	{ "1.0^git1", "1.01", -1 },
	{ "1.01", "1.0^git1", 1 },
	{ "1.0^20160101", "1.0^20160101", 0 },
	{ "1.0^20160101", "1.0.1", -1 },
	{ "1.0.1", "1.0^20160101", 1 },
	{ "1.0^20160101^git1", "1.0^20160101^git1", 0 },
	{ "1.0^20160102", "1.0^20160101^git1", 1 },
	{ "1.0^20160101^git1", "1.0^20160102", -1 },
	{ "1.0~rc1^git1", "1.0~rc1^git1", 0 },
	{ "1.0~rc1^git1", "1.0~rc1", 1 },
	{ "1.0~rc1", "1.0~rc1^git1", -1 },
	{ "1.0^git1~pre", "1.0^git1~pre", 0 },
	{ "1.0^git1", "1.0^git1~pre", 1 },
	{ "1.0^git1~pre", "1.0^git1", -1 },
};

static void test_rpm_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rpm_vectors) / sizeof(*rpm_vectors);
	     i++) {
		int got = version_segcmp(rpm_vectors[i].a, rpm_vectors[i].b);

		if (got != rpm_vectors[i].want)
			fail_msg("segcmp(%s, %s) = %d, want %d",
				 rpm_vectors[i].a, rpm_vectors[i].b, got,
				 rpm_vectors[i].want);
	}
}

/* The table of engine-anchors.md §4.3, by kind: OFED needs the
 * version-release split that raw rpmvercmp lacks. */
static void test_kinds(void **state)
{
	(void)state;
	assert_int_equal(
		version_compare("16.27.2000", "16.26.4012", VERSION_FW), 1);
	assert_int_equal(
		version_compare("16.26.1040", "16.27.2000", VERSION_FW), -1);
	assert_int_equal(
		version_compare("16.27.2000", "16.27.2000", VERSION_FW), 0);
	assert_int_equal(version_compare("5.7-1.0.2.0", "5.7.1", VERSION_OFED),
			 -1);
	assert_int_equal(version_segcmp("5.7-1.0.2.0", "5.7.1"), 1);
	assert_int_equal(
		version_compare("5.7-1.0.2.0", "5.7-1.0.2", VERSION_OFED), 1);
	assert_int_equal(
		version_compare("5.7-1.0.2", "5.8-1.0.1", VERSION_OFED), -1);
	assert_int_equal(
		version_compare("24.07-0.6.1", "5.8-1.0.1", VERSION_OFED), 1);
	assert_int_equal(version_compare("4.18.0-372.9.1.el8.x86_64",
					 "4.18.0-372.19.1.el8_6.x86_64",
					 VERSION_KERNEL),
			 -1);
	assert_int_equal(version_compare("6.1.0-18-amd64", "6.1.0-9-amd64",
					 VERSION_KERNEL),
			 1);
	assert_int_equal(version_compare("5.15.0-91-generic", "5.15.0-91",
					 VERSION_KERNEL),
			 0);
	assert_int_equal(version_compare("2.0", "2_0", VERSION_GENERIC), 0);
	assert_int_equal(version_compare("1.0~rc1", "1.0", VERSION_GENERIC),
			 -1);
	assert_int_equal(version_compare("1:1.0", "2.0", VERSION_GENERIC), 1);
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(version_kind_from_str("fw"), VERSION_FW);
	assert_int_equal(version_kind_from_str("ofed"), VERSION_OFED);
	assert_int_equal(version_kind_from_str("nope"), -1);
	assert_string_equal(version_kind_to_str(VERSION_KERNEL), "kernel");
	assert_true(version_plausible("16.27.2000"));
	assert_true(version_plausible("1:2.0"));
	assert_false(version_plausible("..."));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rpm_vectors),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("version", tests, NULL, NULL);
}
