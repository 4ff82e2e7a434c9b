/* rules test: runs rule test files (NAME.test.yaml beside the rules). */
#ifndef RD_RULES_TEST_H
#define RD_RULES_TEST_H

#include <stddef.h>

#include "cli/options.h"

/* Runs the test files and directories given (none: the shipped rules'),
 * printing a line per case and "N passed, N failed".  A directory's tests
 * must also see each of its rules fire.  Returns 0 when every case
 * passed, 1 when one failed, 3 when a test file could not be read. */
int rules_test(const struct options *o, char **paths, size_t npaths);

struct strbuf;
struct rule;
struct pattern;
struct test;
/* "state eq DOWN": test t of rule r as a reader would say it, appended to
 * sb (a regex shown as /pattern/). */
void rules_test_text(struct strbuf *sb, const struct rule *r,
		     const struct test *t);
/* "port with hca = $dev, state = DOWN": condition p of rule r as a reader
 * would say it, appended to sb (regexes shown as /pattern/). */
void rules_condition_text(struct strbuf *sb, const struct rule *r,
			  const struct pattern *p);

#endif
