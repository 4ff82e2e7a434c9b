/* hostlist: names folded into pdsh/Slurm ranges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "cli/hostlist.h"

static void fold_is(const char *const *names, size_t n, const char *want)
{
	char *got = hostlist_fold(names, n);

	assert_string_equal(got, want);
	free(got);
}

static void test_ranges(void **state)
{
	const char *const padded[] = { "node003", "node001", "node002",
				       "node007", "node010", "node001" };
	const char *const natural[] = { "n9", "n10", "n11", "n2" };
	const char *const suffix[] = { "r1-ib", "r2-ib", "r3-ib", "r3-eth" };
	const char *const mixed[] = { "node01", "node02", "node10", "login",
				      "gpu7" };

	(void)state;
	fold_is(padded, 6, "node[001-003,007,010]");
	fold_is(natural, 4, "n[2,9-11]");
	fold_is(suffix, 4, "r3-eth,r[1-3]-ib");
	fold_is(mixed, 5, "gpu7,login,node[01-02,10]");
	fold_is(NULL, 0, "");
}

static void test_odd_names(void **state)
{
	const char *const odd[] = { "", "12345678901234567890123", "a<b>1",
				    "a<b>2", "x" };

	(void)state;
	fold_is(odd, 5, ",12345678901234567890123,a<b>[1-2],x");
}

/* 100,000 plain names and 100,000 padded ones of another frame fold in
 * O(n log n) (the widths were once matched pairwise: 16 s a fold). */
static void test_many(void **state)
{
	enum { N = 100000 };
	const char **names = calloc(2 * N, sizeof(*names));
	char *buf = malloc((size_t)2 * N * 16);

	(void)state;
	assert_non_null(names);
	assert_non_null(buf);
	for (int i = 0; i < N; i++) {
		snprintf(buf + (size_t)i * 16, 16, "cn%d", N - i);
		names[i] = buf + (size_t)i * 16;
		snprintf(buf + (size_t)(N + i) * 16, 16, "gpu%06d", i);
		names[N + i] = buf + (size_t)(N + i) * 16;
	}
	fold_is(names, 2 * N, "cn[1-100000],gpu[000000-099999]");
	/* gpu100000 is as wide as the padded gpu names: it joins them. */
	names[0] = "gpu100000";
	fold_is(names, 2 * N, "cn[1-99999],gpu[000000-100000]");
	free(buf);
	free(names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_odd_names),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
