/* factors, litset and the log sieve: the literals a pattern requires, the
 * compact automaton that finds them, and the one-pass line sieve. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "collectors/parsers/logscan.h"
#include "engine/factors.h"
#include "engine/kb.h"
#include "engine/litset.h"
#include "engine/regex.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* A pattern and its factors in order, joined by '|', or NULL for none. */
static const struct {
	const char *pattern, *want;
} cases[] = {
	{ "link down", "link down" },
	{ "abc|defg", "abc|defg" },
	{ "(?:abc|xyz)def", "def" }, /* a tie: fewer strings win */
	{ "(?:ab|xy)defgh", "defgh" },
	{ "ab+cdef", "cdef" }, /* b+ ends the run after "ab" */
	{ "abcd+ef", "abcd" },
	{ "abcd?efgh", "efgh" }, /* the optional d ends "abc" before */
	{ "ab*", NULL }, /* "a" is shorter than FACTOR_LEN_MIN */
	{ "port \\d+ (?:down|up)", "port " },
	{ "\\bmlx5_\\w+: (?<what>cmd) failed", " failed" },
	{ "(?:^|kernel: )<?mlx5_core>?", "mlx5_core" },
	{ "fw status = 0x[0-9a-f]+", "fw status = 0x" },
	{ "a\\.b\\(c", "a.b(c" },
	{ "(?:foo|)barbaz", "barbaz" }, /* the empty branch gives none */
	{ "(?:foo|bar)?", NULL },
	{ "\\d+\\s+\\S*", NULL },
	{ "(?i)link down", NULL }, /* options: not read */
	{ "abc\\x41def", NULL }, /* a byte by its code: not read */
	{ "x{2,}y", NULL }, /* too short */
	{ "abc{,3}", NULL }, /* a '{' that is no quantifier */
	/* the subject holds a lookahead's match; a negative one gives none */
	{ "(?=abcd)efg", "abcd" },
	{ "^(?=.*?(?:abc|xyz))(?=(?:.*?defgh)?)", "abc|xyz" },
	{ "(?!abcd)efg", "efg" },
	{ "(?<=abcd)efg", "efg" },
	/* caseless groups: folded, 's' and 'k' end a run (U+017F, U+212A) */
	{ "(?i:Link Down)", " down" },
	{ "(?i:\\bSyndrome\\b|wc)", "yndrome|wc" },
	{ "(?i:ab)Cdef", "Cdef" },
	/* ...and so does a multibyte character (UTF caseless: É is é) */
	{ "(?i:temp\xc3\xa9rature)", "rature" },
	{ "(?i:\xc3\xa9" "chec de connexion)", "chec de connexion" },
	{ "(?J)(?<a>one)|(?<a>two)", "one|two" },
	{ "[abc]def\\]ghi", "def]ghi" },
	/* "[[:]x" is a class of '[' and ':' then x, not a POSIX class:
	 * PCRE2 matches ":x" by the first branch, so no factor is safe */
	{ "[[:]x|y] abc:]de]fgh", NULL },
	{ "[[:space:]]+port down", NULL },
	{ "(unclosed", NULL },
	{ "", NULL },
	{ "(?:abcdefghijklmnopqrstuvwxyz0123456789)",
	  "abcdefghijklmnopqrstuvwxyz012345" },
};

static void test_factors_of_patterns(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct factors f;
		struct strbuf got = STRBUF_INIT;
		bool ok = factors_of(cases[i].pattern, &f);

		for (size_t k = 0; k < f.n; k++)
			sb_printf(&got, "%s%s", k ? "|" : "", f.s[k]);
		if (!cases[i].want) {
			if (ok)
				fail_msg("'%s': want none, got '%s'",
					 cases[i].pattern, sb_str(&got));
		} else if (!ok || strcmp(sb_str(&got), cases[i].want)) {
			fail_msg("'%s': want '%s', got %s'%s'", cases[i].pattern,
				 cases[i].want, ok ? "" : "none ",
				 sb_str(&got));
		}
		sb_release(&got);
		factors_release(&f);
	}
}

/* Every kb pattern with an example: if the example matches, one of the
 * pattern's factors occurs in it. */
static void test_factors_hold_for_kb_examples(void **state)
{
	static const char *const kinds[] = { "signature", "app_message" };
	struct fact_base *kb = fact_base_new();
	struct diag *d = diag_new();
	size_t checked = 0;

	(void)state;
	assert_true(kb_load_dir(kb, "kb", "kb", d) >= 0);
	for (size_t k = 0; k < 2; k++) {
		size_t n;
		const uint32_t *ids =
			fact_base_of_kind(kb, sym_intern_cstr(kinds[k]), &n);

		for (size_t i = 0; i < n; i++) {
			const struct fact *f = fact_base_get(kb, ids[i]);
			const char *pat = fact_text(f, "pattern");
			const char *ex = fact_text(f, "example");
			char msg[256];
			size_t off;
			struct regex *re;
			struct factors fs;
			bool held = false;

			if (!pat || !ex || !factors_of(pat, &fs))
				continue;
			re = regex_compile(pat, 0, msg, sizeof(msg), &off);
			assert_non_null(re);
			/* a whole line or any tail of it, as the scanner may
			 * see only the message after the prefix */
			for (const char *t = ex; *t; t++) {
				if (regex_match(re, t, strlen(t), NULL) != 1)
					continue;
				checked++;
				held = false;
				for (size_t j = 0; j < fs.n && !held; j++)
					held = (fs.fold[j] ?
							strcasestr(t, fs.s[j]) :
							strstr(t, fs.s[j])) !=
					       NULL;
				if (!held)
					fail_msg("%s: '%s' matches, holds no "
						 "factor",
						 fact_text(f, "id"), t);
			}
			regex_free(re);
			factors_release(&fs);
		}
	}
	assert_true(checked > 200);
	diag_free(d);
	fact_base_free(kb);
}

struct tally {
	size_t count[8];
};

static void count_tag(void *ctx, uint32_t tag)
{
	((struct tally *)ctx)->count[tag]++;
}

/* litset finds every occurrence, overlapping ones too, as a naive count. */
static void test_litset_counts_every_occurrence(void **state)
{
	static const char *const lits[] = { "he", "she", "his", "hers",
					    "aaa", "a", "ab", "bab" };
	struct litset *ls = litset_new();
	char text[512];
	unsigned seed = 7;

	(void)state;
	for (uint32_t i = 0; i < 8; i++)
		litset_add(ls, lits[i], strlen(lits[i]), i);
	for (int round = 0; round < 200; round++) {
		struct tally got = { { 0 } }, want = { { 0 } };
		size_t len = (size_t)(rand_r(&seed) % (sizeof(text) - 1));

		for (size_t i = 0; i < len; i++)
			text[i] = "abehirs "[rand_r(&seed) % 8];
		for (uint32_t k = 0; k < 8; k++)
			for (size_t i = 0; i + strlen(lits[k]) <= len; i++)
				want.count[k] += !memcmp(text + i, lits[k],
							 strlen(lits[k]));
		litset_scan(ls, text, len, count_tag, &got);
		assert_memory_equal(got.count, want.count, sizeof(want.count));
	}
	litset_free(ls);
}

/* A folded set counts occurrences in any case, as strncasecmp does;
 * the texts mix cases. */
static void test_litset_folded_counts_any_case(void **state)
{
	static const char *const lits[] = { "he",  "she", "his", "hers",
					    "aaa", "a",	  "ab",	 "bab" };
	struct litset *ls = litset_new_folded();
	char text[512];
	unsigned seed = 11;

	(void)state;
	for (uint32_t i = 0; i < 8; i++)
		litset_add(ls, lits[i], strlen(lits[i]), i);
	for (int round = 0; round < 200; round++) {
		struct tally got = { { 0 } }, want = { { 0 } };
		size_t len = (size_t)(rand_r(&seed) % (sizeof(text) - 1));

		for (size_t i = 0; i < len; i++)
			text[i] = "abehirsABEHIRS "[rand_r(&seed) % 15];
		for (uint32_t k = 0; k < 8; k++)
			for (size_t i = 0; i + strlen(lits[k]) <= len; i++)
				want.count[k] += !strncasecmp(text + i, lits[k],
							      strlen(lits[k]));
		litset_scan(ls, text, len, count_tag, &got);
		assert_memory_equal(got.count, want.count, sizeof(want.count));
	}
	litset_free(ls);
}

/* A set larger than its rows (the deeper states look up their
 * children), and litset_scan2 of an exact and a folded set: every
 * occurrence, as naive counts, with literals planted so that the walk
 * goes deep. */
#define BIG_LITS 3000

struct big_tally {
	size_t count[2 * BIG_LITS];
};

static void count_big(void *ctx, uint32_t tag)
{
	((struct big_tally *)ctx)->count[tag]++;
}

static void test_litset_large_sets(void **state)
{
	static char lits[BIG_LITS][16];
	static struct big_tally got, want;
	struct litset *exact = litset_new(), *folded = litset_new_folded();
	struct litset *alone = litset_new();
	char text[2048];
	unsigned seed = 5;

	(void)state;
	for (uint32_t i = 0; i < BIG_LITS; i++) {
		size_t n = 6 + (size_t)(rand_r(&seed) % 9);

		for (size_t k = 0; k < n; k++)
			lits[i][k] = "abcdef"[rand_r(&seed) % 6];
		lits[i][n] = '\0';
		litset_add(exact, lits[i], n, i);
		litset_add(alone, lits[i], n, i);
		litset_add(folded, lits[i], n, BIG_LITS + i);
	}
	for (int round = 0; round < 4; round++) {
		size_t len = 0;

		while (len + 16 < sizeof(text)) {
			if (rand_r(&seed) % 3) {
				const char *l = lits[rand_r(&seed) % BIG_LITS];

				for (size_t k = 0; l[k]; k++)
					text[len++] = rand_r(&seed) % 4 ?
							      l[k] :
							      (char)(l[k] - 32);
			} else {
				text[len++] = "abcdefAB x"[rand_r(&seed) % 10];
			}
		}
		memset(&want, 0, sizeof(want));
		for (uint32_t k = 0; k < BIG_LITS; k++) {
			size_t n = strlen(lits[k]);

			for (size_t i = 0; i + n <= len; i++) {
				want.count[k] += !memcmp(text + i, lits[k], n);
				want.count[BIG_LITS + k] +=
					!strncasecmp(text + i, lits[k], n);
			}
		}
		memset(&got, 0, sizeof(got));
		litset_scan2(exact, folded, text, len, count_big, &got);
		assert_memory_equal(got.count, want.count, sizeof(want.count));
		memset(&got, 0, sizeof(got));
		litset_scan(alone, text, len, count_big, &got);
		assert_memory_equal(got.count, want.count,
				    BIG_LITS * sizeof(*want.count));
	}
	litset_free(exact);
	litset_free(folded);
	litset_free(alone);
}

/* The sieve over a whole text names every line logscan_relevant takes,
 * however the text falls into lanes: short texts, no final newline,
 * carriage returns, empty lines. */
static void test_sieve_keeps_every_relevant_line(void **state)
{
	static const char *const texts[] = {
		"",
		"x",
		"mlx5_core 0000:3b:00.0: cmd failed",
		"a\nb\nc\nmlx5_core 0000:3b:00.0: x\n",
		"[  1.0] mlx5_core 0000:3b:00.0: x\r\n\r\nnoise\r\n"
		"infiniband mlx5_0: y\r\n",
		"noise line one\nnoise line two\nnoise line three\n"
		"noise four\nib0: Lost carrier\n\n\nlast ib_core line",
	};
	struct fact_base *kb = fact_base_new();
	struct diag *d = diag_new();
	struct logscan *ls;
	struct logscan_sieve sv = { 0 };
	size_t relevant = 0;

	(void)state;
	assert_true(kb_load_dir(kb, "kb", "kb", d) >= 0);
	ls = logscan_new(kb, d);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		const char *t = texts[i];
		size_t len = strlen(t), at = 0;

		/* each prefix too, so that lanes split everywhere */
		for (size_t cut = 0; cut <= len; cut++) {
			logscan_sieve(ls, t, cut, &sv);
			for (at = 0; at < cut;) {
				const char *nl = memchr(t + at, '\n', cut - at);
				size_t end = nl ? (size_t)(nl - t) : cut;
				size_t n = end - at;

				if (n && t[end - 1] == '\r')
					n--;
				if (logscan_relevant(ls, t + at, n)) {
					relevant++;
					assert_true(logscan_sieve_any(&sv, at,
								      at + n));
				}
				at = end + 1;
			}
		}
	}
	assert_true(relevant > 20);
	logscan_sieve_release(&sv);
	logscan_free(ls);
	diag_free(d);
	fact_base_free(kb);
}

/* logscan_sieve_relevant takes exactly the lines that logscan_sieve_any
 * and logscan_relevant take together, for both scanners: lines whose
 * sieve stop is a literal, a mark before a literal (the sieve stops at
 * the mark), a literal cut by the carriage return a line reader drops. */
static void test_sieve_relevant_is_any_and_relevant(void **state)
{
	static const char *const texts[] = {
		"mlx5_core 0000:3b:00.0: cmd failed\nnoise\n",
		"CPU: 3 PID: 1 Comm: ib_core Not tainted\n"
		"Linux version 6.1.0 mlx5_core 0000:3b:00.0: x\n",
		"noise\r\nib0: Lost carrier\r\nmlx5_cor\r\n"
		"slurmstepd: error: ibv_create_qp failed\n",
		"NCCL WARN NET/IB : Got completion with error 12\n"
		"[1] UCX  ERROR ibv_reg_mr failed: Cannot allocate memory\n",
		"ice 0000:3b:00.0 device ice Comm: x mlx5_core y\n"
		"pci 0000:3b:00.0: [15b3:1017] type 00 class 0x020000 mlx5_core\n",
	};
	struct fact_base *kb = fact_base_new();
	struct diag *d = diag_new();
	struct logscan *scan[2];
	size_t taken = 0;

	(void)state;
	assert_true(kb_load_dir(kb, "kb", "kb", d) >= 0);
	scan[0] = logscan_new(kb, d);
	scan[1] = logscan_new_for(kb, "app_message", d);
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
			const char *t = texts[i];
			size_t len = strlen(t);
			struct logscan_sieve a = { 0 }, b = { 0 };

			logscan_sieve(scan[k], t, len, &a);
			logscan_sieve(scan[k], t, len, &b);
			for (size_t at = 0; at < len;) {
				const char *nl = memchr(t + at, '\n', len - at);
				size_t end = nl ? (size_t)(nl - t) : len;
				size_t n = end - at;
				bool want, got;

				if (n && t[end - 1] == '\r')
					n--;
				want = logscan_sieve_any(&a, at, at + n) &&
				       logscan_relevant(scan[k], t + at, n);
				got = logscan_sieve_relevant(scan[k], &b, t, at,
							     at + n);
				assert_int_equal(want, got);
				taken += got;
				/* a line cut short (a reader's cap on its
				 * length) too, at every length */
				for (size_t cut = 0; cut <= n; cut++) {
					a.next = 0;
					want = logscan_sieve_any(&a, at, at + cut) &&
					       logscan_relevant(scan[k], t + at,
								cut);
					a.next = 0;
					got = logscan_sieve_relevant(
						scan[k], &a, t, at, at + cut);
					assert_int_equal(want, got);
				}
				at = end + 1;
			}
			logscan_sieve_release(&a);
			logscan_sieve_release(&b);
		}
	assert_true(taken >= 4);
	logscan_free(scan[0]);
	logscan_free(scan[1]);
	diag_free(d);
	fact_base_free(kb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_factors_of_patterns),
		cmocka_unit_test(test_factors_hold_for_kb_examples),
		cmocka_unit_test(test_litset_counts_every_occurrence),
		cmocka_unit_test(test_litset_folded_counts_any_case),
		cmocka_unit_test(test_litset_large_sets),
		cmocka_unit_test(test_sieve_keeps_every_relevant_line),
		cmocka_unit_test(test_sieve_relevant_is_any_and_relevant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
