/* PCRE2 behind a small interface, with JIT and match limits.  Work is
 * done when a pattern is first run, not when it is loaded: most of the
 * kb's patterns are never run by one command (a paste, a sysfs tree), and
 * a JIT compile costs about as much as a hundred interpreted matches. */
#include "engine/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

/* Bounds on the work one match may do: catastrophic backtracking stops
 * with an error instead of hanging. */
#define REGEX_MATCH_LIMIT 1000000 /* @@ */
#define REGEX_DEPTH_LIMIT 10000 /* @@ */

struct regex {
	pcre2_code *code; /* NULL until first use (regex_defer) */
	pcre2_match_context *mctx;
	char *pattern; /* regex_defer's, until compiled */
	uint32_t opts;
	bool failed; /* a deferred pattern that did not compile */
	bool jit_tried;
	bool jit;
	int nnames;
	int name_size;
	PCRE2_SPTR names;
};

/* Match data is per call site and reused; the tool is single-threaded. */
static pcre2_match_data *scratch;

static uint32_t options_of(unsigned flags)
{
	uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

	if (flags & REGEX_CASELESS)
		opts |= PCRE2_CASELESS;
	return opts;
}

/* Fills in what the code tells of its named groups. */
static void take_code(struct regex *re, pcre2_code *code)
{
	uint32_t n, size;

	re->code = code;
	pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &n);
	pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &size);
	pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &re->names);
	re->nnames = (int)n;
	re->name_size = (int)size;
}

static struct regex *regex_alloc(uint32_t opts)
{
	struct regex *re = xcalloc(1, sizeof(*re));

	re->opts = opts;
	re->mctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(re->mctx, REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(re->mctx, REGEX_DEPTH_LIMIT);
	return re;
}

/* pcre2_compile of pattern with opts; on failure NULL, with PCRE2's
 * message in err and the 0-based offset of the problem in erroff. */
static pcre2_code *compile_code(const char *pattern, uint32_t opts, char *err,
				size_t errsize, size_t *erroff)
{
	PCRE2_SIZE off;
	pcre2_code *code;
	int ec;

	code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, opts,
			     &ec, &off, NULL);
	if (!code) {
		PCRE2_UCHAR buf[256];

		pcre2_get_error_message(ec, buf, sizeof(buf));
		snprintf(err, errsize, "%s", (const char *)buf);
		*erroff = off;
	}
	return code;
}

struct regex *regex_compile(const char *pattern, unsigned flags, char *err,
			    size_t errsize, size_t *erroff)
{
	uint32_t opts = options_of(flags);
	pcre2_code *code = compile_code(pattern, opts, err, errsize, erroff);
	struct regex *re;

	if (!code)
		return NULL;
	re = regex_alloc(opts);
	take_code(re, code);
	return re;
}

int regex_check(const char *pattern, unsigned flags, char *err,
		size_t errsize, size_t *erroff)
{
	/* the passes these options skip only speed matches up, and report
	 * nothing: a pattern fails here exactly when regex_compile fails */
	uint32_t opts = options_of(flags) | PCRE2_NO_AUTO_POSSESS |
			PCRE2_NO_START_OPTIMIZE | PCRE2_NO_DOTSTAR_ANCHOR;
	pcre2_code *code = compile_code(pattern, opts, err, errsize, erroff);

	if (!code)
		return -EINVAL;
	pcre2_code_free(code);
	return 0;
}

struct regex *regex_defer(const char *pattern, unsigned flags)
{
	struct regex *re = regex_alloc(options_of(flags));

	re->pattern = xstrdup(pattern);
	return re;
}

/* The compiled code of re, compiling a deferred pattern now; NULL when it
 * does not compile.  The struct is a cache of its pattern: filling it in
 * changes no answer it gives, so a const regex may be completed here. */
static struct regex *ready(const struct regex *cre)
{
	struct regex *re = (struct regex *)cre;
	PCRE2_SIZE off;
	int ec;

	if (!re->code && !re->failed) {
		pcre2_code *code = pcre2_compile((PCRE2_SPTR)re->pattern,
						 PCRE2_ZERO_TERMINATED,
						 re->opts, &ec, &off, NULL);

		if (code)
			take_code(re, code);
		re->failed = !code;
		free(re->pattern);
		re->pattern = NULL;
	}
	return re->code ? re : NULL;
}

/* JIT-compiles re on its first match, so that a pattern never run costs
 * no JIT.  Not later (after some interpreted matches): the interpreter
 * takes about a second to reach the match limit on a catastrophic
 * pattern (tests/hostile.sh, regex-backtracking) that JIT code stops in
 * milliseconds, so a file of such lines would cost minutes.  RDMADOCTOR_NO_JIT: the interpreter only.  valgrind cannot
 * follow JIT-compiled code (Debian's PCRE2 is built without its valgrind
 * support) and reports its reads as uninitialised. */
static void jit(struct regex *re)
{
	if (re->jit_tried)
		return;
	re->jit_tried = true;
	re->jit = !getenv("RDMADOCTOR_NO_JIT") &&
		  pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE) == 0;
}

void regex_free(struct regex *re)
{
	if (!re)
		return;
	pcre2_match_context_free(re->mctx);
	pcre2_code_free(re->code);
	free(re->pattern);
	free(re);
}

int regex_match(const struct regex *cre, const char *subject, size_t len,
		struct regex_match *m)
{
	struct regex *re = ready(cre);
	PCRE2_SIZE *ov;
	int rc;

	if (!re)
		return 0;
	jit(re);
	if (!scratch)
		scratch = pcre2_match_data_create(REGEX_MAX_GROUPS, NULL);
	if (re->jit)
		rc = pcre2_jit_match(re->code, (PCRE2_SPTR)subject, len, 0, 0,
				     scratch, re->mctx);
	else
		rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, 0,
				 scratch, re->mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_JIT_STACKLIMIT || rc == PCRE2_ERROR_HEAPLIMIT)
		return -E2BIG;
	if (rc < 0)
		return 0;
	if (!m)
		return 1;
	ov = pcre2_get_ovector_pointer(scratch);
	m->ngroups = rc == 0 ? REGEX_MAX_GROUPS : rc;
	for (int i = 0; i < REGEX_MAX_GROUPS; i++) {
		bool set = i < m->ngroups && ov[2 * i] != PCRE2_UNSET;

		m->start[i] = set ? (long)ov[2 * i] : -1;
		m->end[i] = set ? (long)ov[2 * i + 1] : -1;
	}
	return 1;
}

int regex_name_count(const struct regex *re)
{
	return ready(re) ? re->nnames : 0;
}

const char *regex_name_at(const struct regex *re, int i, int *group)
{
	PCRE2_SPTR entry = re->names + (size_t)i * (size_t)re->name_size;

	*group = (entry[0] << 8) | entry[1];
	return (const char *)(entry + 2);
}

int regex_group_count(const struct regex *re)
{
	uint32_t n;

	if (!ready(re))
		return 0;
	pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &n);
	return (int)n;
}
