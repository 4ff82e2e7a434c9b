/* Coverage of the applications' and libraries' own messages: every error
 * and warning format string of tests/appmsg/<group>.tsv (extracted from
 * their sources by tools/appmsg-extract) is rendered as the program prints
 * it (its logger's prefix, plausible values for the conversions) and run
 * through the app_message scanner built from kb/app_messages.yaml.
 *
 * A string counts as matched when an entry with a meaning, a layer and a
 * remediation takes it.  Fails when a group falls below its floor (the
 * share reached when the table was last extended: the floor keeps an entry
 * from being lost or narrowed unnoticed), or when the scanner takes a
 * string that no entry should (the made-up one below).  Formats with
 * almost no constant text ("%s") are counted apart.  The table per group,
 * source file and version is written to build/appmsg-coverage.tsv;
 * APPMSG_VERBOSE=1 prints the strings that miss, APPMSG_HITS=1 the
 * entries each string hits. */
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "collectors/parsers/logscan.h"
#include "engine/kb.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"
#include "factored.h"
#include "parsed.h"

#define APPMSG_DIR "tests/appmsg"
#define TABLE_OUT "build/appmsg-coverage.tsv"
#define LINE_MAX_LEN 4096
#define HITS_MAX 16

/* How a group's lines look: the prefix its logger adds to an error and to
 * a warning (%F the source file's base name, %f the function), the word a
 * %s becomes, and the floor (percent matched) the group must keep. */
struct group {
	const char *name, *err_prefix, *warn_prefix, *word;
	int floor;
};

static const struct group groups[] = {
	/* src/debug.cc ncclDebugLog(): "host:pid:tid [dev] file:line NCCL WARN ". */
	/* 22: "Got CQE with error" left NCCL-IB-DEVICE-FAILED (any error
	 * completion prints it; its status judges it); 50: misc/socket.cc
	 * (kb/app_messages_nccl.yaml), whose "pass NULL socket" checks stay
	 * level-only */
	{ "nccl", "node1:4021:4077 [0] %F:123 NCCL WARN ",
	  "node1:4021:4077 [0] %F:123 NCCL WARN ", "mlx5_0", 50 },
	/* src/ucs/debug/log.c ucs_log_default_handler(). */
	{ "ucx", "[1700000000.123456] [node1:4021 :0]     %F:123  UCX  ERROR ",
	  "[1700000000.123456] [node1:4021 :0]     %F:123  UCX  WARN  ",
	  "mlx5_0", 28 },
	/* src/log.c fi_log_default(): "libfabric:pid:time:prefix:prov:subsys:func():line<level> ". */
	{ "libfabric_verbs", "libfabric:4021:1700000000::verbs:core:%f():123<warn> ",
	  "libfabric:4021:1700000000::verbs:core:%f():123<warn> ", "mlx5_0", 18 },
	{ "libfabric_efa", "libfabric:4021:1700000000::efa:ep_ctrl:%f():123<warn> ",
	  "libfabric:4021:1700000000::efa:ep_ctrl:%f():123<warn> ", "efa_0", 0 },
	/* fprintf(stderr, ...) prints bare; verbs_err() adds "dev: func:line: ". */
	{ "perftest", "", "", "mlx5_0", 21 },
	{ "libibverbs", "", "", "mlx5_0", 36 },
	{ "librdmacm", "", "", "mlx5_0", 13 },
	{ "providers", "", "", "mlx5_0", 0 },
	/* BTL_ERROR: "[host][[job,vpid],rank][file:line:func] "; PML_UCX_ERROR:
	 * "file:line  Error: ". */
	{ "ompi", "[node1][[4021,1],0][%F:123:%f] ", "[node1][[4021,1],0][%F:123:%f] ",
	  "mlx5_0", 16 },
	/* opal_show_help() prints a help file's topic bare, between two
	 * lines of dashes (tests/appmsg/ompi_help.tsv: each topic's first
	 * line). */
	{ "ompi_help", "", "", "mlx5_0", 95 },
	/* include/spdk/log.h: "[time] file: line:func: *ERROR*: ". */
	{ "spdk", "[2024-01-01 10:00:00.123456] %F: 123:%f: *ERROR*: ",
	  "[2024-01-01 10:00:00.123456] %F: 123:%f: *WARNING*: ", "mlx5_0", 3 },
	/* NVIDIA/nvshmem src/include/non_abi/nvshmemx_error.h: the
	 * *_ERROR_JMP macros' "FILE:LINE: non-zero status: N ", and
	 * NVSHMEMI_WARN_PRINT's "WARN: ".  FILE is left at its base name (the
	 * library prints the whole build path): the prefix fallback
	 * NVSHMEM-ERROR, which takes any line under NVSHMEM's source tree,
	 * then does not count, and the share is that of the entries that know
	 * the message. */
	{ "nvshmem", "%F:123: non-zero status: 7 ", "WARN: ", "mlx5_0", 28 },
	/* libcfs: "LNetError: pid:0:(file:line:func()) ". */
	{ "lustre", "LNetError: 4021:0:(%F:123:%f()) ",
	  "LNet: 4021:0:(%F:123:%f()) ", "o2ib", 8 },
};

/* The prefix verbs_log() (libibverbs/driver.h) adds. */
#define VERBS_LOG_PREFIX "mlx5_0: %f:123: "
/* The one PML_UCX_ERROR and PML_UCX_WARN add (ompi/mca/pml/ucx/pml_ucx.h). */
#define PML_UCX_PREFIX "%F:123  Error: "

struct tally {
	char group[32], file[160], version[24];
	unsigned strings, matched, errors, bare;
};

struct coverage {
	struct fact_base *kb;
	struct logscan *ls;
	struct tally *rows;
	size_t n, cap;
	struct strbuf misses;
	size_t factor_misses; /* lines the factor test changed */
};

static void put_prefix(struct strbuf *sb, const char *prefix,
		       const char *file, const char *function)
{
	const char *base = strrchr(file, '/');

	base = base ? base + 1 : file;
	for (const char *p = prefix; *p; p++) {
		if (p[0] == '%' && p[1] == 'F') {
			sb_add(sb, base, strlen(base));
			p++;
		} else if (p[0] == '%' && p[1] == 'f') {
			sb_add(sb, function[0] ? function : "main",
			       strlen(function[0] ? function : "main"));
			p++;
		} else {
			sb_putc(sb, *p);
		}
	}
}

/* Renders format into sb with plausible values: decimals 12, hex 1f (as
 * wide as a zero-padded width asks), floats 1.5, strings the group's word,
 * pointers an address, %m an errno text; a printf escape becomes its
 * character. */
static void render(struct strbuf *sb, const struct group *g, const char *fmt)
{
	for (const char *p = fmt; *p; p++) {
		const char *spec;
		bool zero = false;
		int width = 0;

		if (*p == '\\' && p[1]) {
			p++;
			sb_putc(sb, *p == 't' || *p == 'n' ? ' ' : *p);
			continue;
		}
		if (*p != '%') {
			sb_putc(sb, *p);
			continue;
		}
		spec = ++p;
		if (*p == '%') {
			sb_putc(sb, '%');
			continue;
		}
		while (*p && strchr("-+ #0'", *p))
			zero |= *p++ == '0';
		if (*p == '*')
			p++;
		while (isdigit((unsigned char)*p))
			width = width * 10 + (*p++ - '0');
		if (*p == '.') {
			p++;
			if (*p == '*')
				p++;
			while (isdigit((unsigned char)*p))
				p++;
		}
		while (*p && strchr("hlLqjzt", *p))
			p++;
		switch (*p) {
		case 'd':
		case 'i':
		case 'u':
			sb_add(sb, "12", 2);
			break;
		case 'x':
		case 'X':
		case 'o':
			if (zero && width > 2)
				for (int i = 0; i < width - 2 && i < 16; i++)
					sb_putc(sb, '0');
			sb_add(sb, *p == 'X' ? "1F" : "1f", 2);
			break;
		case 'f':
		case 'g':
		case 'e':
			sb_add(sb, "1.5", 3);
			break;
		case 'c':
			sb_putc(sb, 'x');
			break;
		case 's':
			sb_add(sb, g->word, strlen(g->word));
			break;
		case 'p':
			sb_add(sb, "0x7f3a5c000000", 14);
			break;
		case 'm':
			/* glibc's strerror(errno), as perror() adds it. */
			sb_add(sb, "Connection timed out", 20);
			break;
		case '\0':
			p--;
			break;
		default:
			/* Not a conversion: keep it as written. */
			sb_putc(sb, '%');
			p = spec - 1;
		}
	}
}

static struct tally *tally_for(struct coverage *c, const char *group,
			       const char *file, const char *version)
{
	for (size_t i = c->n; i-- > 0;)
		if (!strcmp(c->rows[i].file, file) &&
		    !strcmp(c->rows[i].version, version) &&
		    !strcmp(c->rows[i].group, group))
			return &c->rows[i];
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->rows = xrealloc(c->rows, c->cap * sizeof(*c->rows));
	}
	memset(&c->rows[c->n], 0, sizeof(*c->rows));
	snprintf(c->rows[c->n].group, sizeof(c->rows[0].group), "%s", group);
	snprintf(c->rows[c->n].file, sizeof(c->rows[0].file), "%s", file);
	snprintf(c->rows[c->n].version, sizeof(c->rows[0].version), "%s",
		 version);
	return &c->rows[c->n++];
}

static const struct fact *entry(const struct coverage *c, size_t msg)
{
	const char *id = logscan_id(c->ls, msg);
	struct value v = value_str(id, strlen(id));
	const uint32_t *ids;
	size_t n;

	ids = fact_base_lookup(c->kb, sym_intern_cstr("app_message"),
			       sym_intern_cstr("id"), &v, &n);
	return n ? fact_base_get(c->kb, ids[0]) : NULL;
}

static bool nonempty(const struct fact *f, const char *field)
{
	const char *s = fact_text(f, field);

	return s && *s;
}

/* Scans one rendered line as parse_app.c does; returns whether an entry
 * with a meaning, a layer and a remediation takes it, and appends the ids
 * of the entries hit to ids (when not NULL). */
static bool is_true(const struct fact *m, const char *field)
{
	const struct value *v = fact_get(m, sym_intern_cstr(field));

	return v && v->type == VALUE_BOOL && v->b;
}

static bool scan(struct coverage *c, const char *line, struct strbuf *ids)
{
	struct logscan_hit hits[HITS_MAX];
	size_t limit = 0, n;
	bool matched = false;

	if (!logscan_relevant(c->ls, line, strlen(line)))
		return false;
	n = logscan_match(c->ls, line, strlen(line), hits, HITS_MAX, &limit);
	if (!factored_same(c->ls, line, strlen(line), hits, n))
		c->factor_misses++;
	if (n > HITS_MAX)
		n = HITS_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct fact *m = entry(c, hits[i].sig);

		/* an entry that knows only the logger's level knows no
		 * message (kb/app_messages.yaml 'by_level') */
		if (!m || is_true(m, "by_level"))
			continue;
		if (ids)
			sb_printf(ids, " %s", fact_text(m, "id"));
		if (nonempty(m, "meaning") && nonempty(m, "layer") &&
		    nonempty(m, "remediation"))
			matched = true;
	}
	return matched;
}

/* Splits a TSV line in place into at most max fields; returns how many. */
static size_t fields(char *line, char **f, size_t max)
{
	size_t n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

static const struct group *group_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(groups); i++)
		if (!strcmp(groups[i].name, name))
			return &groups[i];
	return NULL;
}

/* A format with fewer letters of constant text than this ("%s", "%s: %s")
 * names nothing an entry could know it by: counted apart. */
#define WORDS_MIN 6

static bool content_free(const char *fmt)
{
	unsigned letters = 0;

	for (const char *p = fmt; *p; p++) {
		if (*p == '%') {
			p++;
			while (*p && !isalpha((unsigned char)*p))
				p++;
			while (*p && strchr("hlLqjzt", *p))
				p++;
			if (!*p)
				break;
			continue;
		}
		letters += isalpha((unsigned char)*p) != 0;
	}
	return letters < WORDS_MIN;
}

/* The line one row (file version level call function format) renders to. */
static void render_row(struct strbuf *sb, const struct group *g, char **f)
{
	const char *prefix = !strcmp(f[2], "err") ? g->err_prefix :
						    g->warn_prefix;

	sb_reset(sb);
	put_prefix(sb, prefix, f[0], f[4]);
	if (!strncmp(f[3], "verbs_", 6))
		put_prefix(sb, VERBS_LOG_PREFIX, f[0], f[4]);
	else if (!strncmp(f[3], "PML_UCX_", 8))
		put_prefix(sb, PML_UCX_PREFIX, f[0], f[4]);
	render(sb, g, f[5]);
}

static void load_group(struct coverage *c, const char *path,
		       const struct group *g)
{
	FILE *fp = fopen(path, "r");
	char buf[LINE_MAX_LEN];
	struct strbuf line = STRBUF_INIT, ids = STRBUF_INIT;
	unsigned lineno = 0;

	if (!fp)
		fail_msg("%s: cannot open", path);
	while (fgets(buf, sizeof(buf), fp)) {
		char *f[8] = { NULL };
		size_t nf, len = strlen(buf);
		struct tally *t;
		bool matched;

		lineno++;
		if (len && buf[len - 1] == '\n')
			buf[--len] = '\0';
		nf = fields(buf, f, ARRAY_SIZE(f));
		if (lineno == 1) {
			if (nf < 6 || strcmp(f[0], "file") ||
			    strcmp(f[5], "format"))
				fail_msg("%s:1: header 'file version level "
					 "call function format' expected",
					 path);
			continue;
		}
		if (nf < 6 || (strcmp(f[2], "err") && strcmp(f[2], "warn")))
			fail_msg("%s:%u: six fields and level err or warn "
				 "expected",
				 path, lineno);
		render_row(&line, g, f);
		sb_reset(&ids);
		matched = scan(c, sb_str(&line), &ids);
		if (getenv("APPMSG_HITS") && ids.len)
			sb_printf(&c->misses, "hits%s: %s\n", sb_str(&ids),
				  sb_str(&line));
		t = tally_for(c, g->name, f[0], f[1]);
		if (content_free(f[5])) {
			t->bare++;
			continue;
		}
		t->strings++;
		t->matched += matched;
		t->errors += !strcmp(f[2], "err");
		if (!matched && getenv("APPMSG_VERBOSE"))
			sb_printf(&c->misses, "unmatched %s %s %s: %s\n",
				  g->name, f[1], f[2], sb_str(&line));
	}
	fclose(fp);
	sb_release(&line);
	sb_release(&ids);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_all(struct coverage *c)
{
	DIR *dir = opendir(APPMSG_DIR);
	struct dirent *de;
	char *names[64];
	size_t n = 0;

	if (!dir)
		fail_msg("%s: cannot open", APPMSG_DIR);
	while ((de = readdir(dir)) && n < ARRAY_SIZE(names)) {
		size_t len = strlen(de->d_name);

		if (len > 4 && !strcmp(de->d_name + len - 4, ".tsv"))
			names[n++] = xstrdup(de->d_name);
	}
	closedir(dir);
	qsort(names, n, sizeof(names[0]), by_name);
	for (size_t i = 0; i < n; i++) {
		char path[512], stem[64];
		const struct group *g;

		snprintf(stem, sizeof(stem), "%.*s",
			 (int)(strlen(names[i]) - 4), names[i]);
		g = group_named(stem);
		if (!g)
			fail_msg("%s/%s: no such group in the coverage test",
				 APPMSG_DIR, names[i]);
		snprintf(path, sizeof(path), "%s/%s", APPMSG_DIR, names[i]);
		load_group(c, path, g);
		free(names[i]);
	}
}

static unsigned pct(unsigned a, unsigned b)
{
	return b ? (unsigned)((100.0 * a) / b) : 100;
}

/* Writes the table, prints one line per group and version, and appends
 * the groups below their floor to problems. */
static void report(const struct coverage *c, struct strbuf *problems)
{
	FILE *out = fopen(TABLE_OUT, "w");

	if (out)
		fprintf(out, "group\tfile\tversion\tstrings\tmatched\tpercent\t"
			     "errors\tcontent_free\n");
	for (size_t gi = 0; gi < ARRAY_SIZE(groups); gi++) {
		const struct group *g = &groups[gi];
		unsigned strings = 0, matched = 0;

		for (size_t i = 0; i < c->n; i++) {
			const struct tally *t = &c->rows[i];

			if (strcmp(t->group, g->name))
				continue;
			if (out)
				fprintf(out, "%s\t%s\t%s\t%u\t%u\t%u\t%u\t%u\n",
					t->group, t->file, t->version,
					t->strings, t->matched,
					pct(t->matched, t->strings), t->errors,
					t->bare);
			strings += t->strings;
			matched += t->matched;
		}
		if (!strings)
			continue;
		printf("appmsg %-16s %5u strings, %4u matched (%3u%%), floor "
		       "%d%%\n",
		       g->name, strings, matched, pct(matched, strings),
		       g->floor);
		if (pct(matched, strings) < (unsigned)g->floor)
			sb_printf(problems, "%s: %u%% matched, below %d%%\n",
				  g->name, pct(matched, strings), g->floor);
	}
	if (out)
		fclose(out);
}

static void coverage_init(struct coverage *c)
{
	struct diag *d = diag_new();

	memset(c, 0, sizeof(*c));
	c->kb = fact_base_new();
	if (kb_load_dir(c->kb, "kb", "kb", d) < 0) {
		diag_print(d, stderr, "test");
		fail_msg("kb/ does not load");
	}
	c->ls = logscan_new_for(c->kb, "app_message", d);
	if (diag_count(d)) {
		diag_print(d, stderr, "test");
		fail_msg("an app_message pattern does not compile");
	}
	diag_free(d);
}

static void coverage_release(struct coverage *c)
{
	/* the factor test is conservative: no line scans otherwise */
	assert_int_equal(c->factor_misses, 0);
	free(c->rows);
	sb_release(&c->misses);
	logscan_free(c->ls);
	fact_base_free(c->kb);
}

static void test_app_strings_are_covered(void **state)
{
	struct coverage c;
	struct strbuf problems = STRBUF_INIT;

	(void)state;
	coverage_init(&c);
	load_all(&c);
	assert_true(c.n > 0);
	report(&c, &problems);
	if (getenv("APPMSG_VERBOSE") || getenv("APPMSG_HITS") || problems.len)
		fprintf(stderr, "%s", sb_str(&c.misses));
	if (problems.len) {
		fprintf(stderr, "%s", sb_str(&problems));
		fail_msg("application message coverage below its floors");
	}
	sb_release(&problems);
	coverage_release(&c);
}

/* The check can fail: a made-up string is rendered with its group's prefix
 * and no entry takes it, while a string of a known family is taken. */
static void test_rendering_and_scanning(void **state)
{
	struct coverage c;
	struct strbuf line = STRBUF_INIT;
	char unknown[] = "src/transport/net_ib/p2p.cc\tv0\twarn\tWARN\tf\t"
			 "qqq zzz %d";
	char known[] = "src/perftest_resources.c\tv0\terr\tfprintf\tf\t"
		       "Failed to modify QP %d to RTR";
	char *f[8];

	(void)state;
	coverage_init(&c);
	fields(unknown, f, ARRAY_SIZE(f));
	render_row(&line, group_named("nccl"), f);
	assert_string_equal(sb_str(&line),
			    "node1:4021:4077 [0] p2p.cc:123 NCCL WARN qqq zzz 12");
	assert_false(scan(&c, sb_str(&line), NULL));
	fields(known, f, ARRAY_SIZE(f));
	render_row(&line, group_named("perftest"), f);
	assert_string_equal(sb_str(&line), "Failed to modify QP 12 to RTR");
	assert_true(scan(&c, sb_str(&line), NULL));
	sb_release(&line);
	coverage_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rendering_and_scanning),
		cmocka_unit_test(test_app_strings_are_covered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
