/* Declarative parsers (collectors/parsers/dparse.c): the loader's errors at
 * file:line:col, the site overlay's sminfo parser on a real output, and
 * two shipped C parsers (ofed_info, ibdev2netdev) written as definitions
 * (tests/fixtures/dparse/) that must give the same facts as the C on
 * every real sample. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <dirent.h>

#include "collectors/parsers/dparse.h"
#include "engine/xalloc.h"
#include "parsed.h"

#define DEFS "tests/fixtures/dparse/"
#define SITE_PARSERS "tests/fixtures/site-overlay/parsers/"

static struct dparse_set *load(const char *path)
{
	struct dparse_set *set = dparse_set_new();
	struct diag *d = diag_new();

	if (dparse_load_file(set, path, NULL, d) < 0) {
		const struct diag_entry *e = diag_get(d, 0);

		fail_msg("%s: %d:%d: %s", path, e ? e->line : 0,
			 e ? e->col : 0, e ? e->message : "?");
	}
	diag_free(d);
	return set;
}

/* The first error loading text gives, as "line:col: message". */
static char *load_error(const char *text)
{
	struct dparse_set *set = dparse_set_new();
	struct diag *d = diag_new();
	const struct diag_entry *e;
	char *msg;

	assert_true(dparse_load_string(set, "t.yaml", text, strlen(text), d) <
		    0);
	e = diag_get(d, 0);
	assert_non_null(e);
	msg = xasprintf("%d:%d: %s", e->line, e->col, e->message);
	diag_free(d);
	dparse_set_free(set);
	return msg;
}

static void assert_error(const char *text, const char *want)
{
	char *got = load_error(text);

	if (!strstr(got, want))
		fail_msg("got '%s', want '%s'", got, want);
	free(got);
}

static void test_load_errors(void **state)
{
	(void)state;
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: sm\n"
		     "    sources: [s]\n    markers: ['^a']\n"
		     "    fields: ['^lid (?<lidd>\\d+)']\n",
		     "7:14: kind 'sm' has no field 'lidd'; did you mean 'lid'?");
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: sm\n"
		     "    sources: [s]\n    markers: ['^a(']\n"
		     "    fields: ['^(?<lid>\\d+)']\n",
		     "6:15: a marker is not a valid PCRE2 pattern");
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: sm\n"
		     "    sources: [s]\n    command: \"sminfo -P 1\"\n"
		     "    fields: ['^(?<lid>\\d+)']\n",
		     "6:14: 'command' is run without a shell, so it is a list of words: [sminfo, -P, 1]");
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: adapter\n"
		     "    sources: [s]\n    markers: ['^a']\n"
		     "    fields: ['^(?<family>\\S+)']\n",
		     "4:11: kind 'adapter' is not collected");
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: sm\n"
		     "    sources: [s]\n    markers: ['^a']\n"
		     "    fields: ['^(?<lid>\\d+)']\n    requre: [lid]\n",
		     "8:5: unknown key 'requre' in parser 'x'; did you mean 'require'?");
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: sm\n"
		     "    markers: ['^a']\n    fields: ['^(?<lid>\\d+)']\n",
		     "3:5: a parser needs 'sources'");
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: sm\n"
		     "    sources: [s]\n    markers: ['^a']\n"
		     "    fields: ['^(\\d+)']\n",
		     "7:14: a field pattern needs a named capture");
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: sm\n"
		     "    sources: [s]\n    files: [../etc/passwd]\n"
		     "    fields: ['^(?<lid>\\d+)']\n",
		     "6:12: 'files' names paths inside a bundle");
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: sm\n"
		     "    sources: [s]\n    fields: ['^(?<lid>\\d+)']\n",
		     "3:5: parser 'x' has no 'markers', 'command' or 'files'");
	assert_error("language: 1\nparsers:\n  - name: x\n    fact: sm\n"
		     "    sources: [s]\n    markers: ['^a']\n    timeout: 9999\n"
		     "    fields: ['^(?<lid>\\d+)']\n",
		     "7:14: 'timeout' is a whole number of seconds, 1 to 600");
	assert_error("language: 2\nparsers: []\n",
		     "1:11: a parser file needs 'language: 1'");
	assert_error("language: 1\nparsers:\n"
		     "  - {name: x, fact: sm, sources: [s], markers: ['^a'], fields: ['^(?<lid>\\d+)']}\n"
		     "  - {name: x, fact: sm, sources: [s], markers: ['^a'], fields: ['^(?<lid>\\d+)']}\n",
		     "4:12: parser 'x' is defined twice in this file");
}

/* "kind{field=value@line,...}" of every fact of kind, fields sorted,
 * the facts sorted: two parses compare as text. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *canon(struct fact_base *fb, const char *kind)
{
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(fb, sym_intern_cstr(kind), &n);
	char **facts = xcalloc(n + 1, sizeof(*facts));
	struct strbuf out = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct fact *f = fact_base_get(fb, ids[i]);
		char **fields = xcalloc(f->nfields + 1, sizeof(*fields));
		struct strbuf sb = STRBUF_INIT;

		for (uint32_t k = 0; k < f->nfields; k++) {
			struct strbuf v = STRBUF_INIT;

			value_format(&f->fields[k].v, &v);
			fields[k] = xasprintf("%s=%s@%u",
					      sym_str(f->fields[k].name),
					      sb_str(&v),
					      f->fields[k].prov.line);
			sb_release(&v);
		}
		qsort(fields, f->nfields, sizeof(*fields), cmp_str);
		sb_printf(&sb, "%s@%u{", kind, f->prov.line);
		for (uint32_t k = 0; k < f->nfields; k++) {
			sb_printf(&sb, "%s%s", k ? "," : "", fields[k]);
			free(fields[k]);
		}
		sb_puts(&sb, "}");
		free(fields);
		facts[i] = sb_detach(&sb);
	}
	qsort(facts, n, sizeof(*facts), cmp_str);
	for (size_t i = 0; i < n; i++) {
		sb_printf(&out, "%s\n", facts[i]);
		free(facts[i]);
	}
	free(facts);
	return sb_detach(&out);
}

/* Runs the C parser format and the parsers of set on text, and wants the
 * same facts of each kind in kinds (space separated). */
static void assert_same(const char *format, const struct dparse_set *set,
			const char *text, size_t len, const char *kinds,
			const char *what)
{
	struct parsed c = parse_text(format, text, len, "t.txt", NULL);
	struct fact_base *fb = fact_base_new();
	struct emit e;
	char buf[256], *save = NULL;
	int facts = 0;

	emit_init(&e, fb, "t.txt");
	for (size_t i = 0; i < dparse_count(set); i++)
		facts += dparse_run(dparse_at(set, i), &e, text, len);
	snprintf(buf, sizeof(buf), "%s", kinds);
	for (char *k = strtok_r(buf, " ", &save); k;
	     k = strtok_r(NULL, " ", &save)) {
		char *want = canon(c.fb, k), *got = canon(fb, k);

		if (strcmp(want, got))
			fail_msg("%s, %s: the C parser gives\n%sthe declarative one\n%s",
				 what, k, want, got);
		free(want);
		free(got);
	}
	assert_true(facts > 0 || !c.facts);
	fact_base_free(fb);
	fact_base_free(c.fb);
}

/* Every sample of tests/fixtures/samples/<dir>/; returns how many. */
static int each_sample(const char *dir, const char *format,
		       const struct dparse_set *set, const char *kinds)
{
	char *path = xasprintf(SAMPLES "%s", dir);
	DIR *dp = opendir(path);
	struct dirent *de;
	int n = 0;

	assert_non_null(dp);
	while ((de = readdir(dp))) {
		char *file;
		size_t len;
		char *text;

		if (de->d_name[0] == '.')
			continue;
		file = xasprintf("%s/%s", path, de->d_name);
		text = slurp(file, &len);
		assert_same(format, set, text, len, kinds, file);
		free(text);
		free(file);
		n++;
	}
	closedir(dp);
	free(path);
	return n;
}

static void test_site_sminfo(void **state)
{
	static const char fail[] = "sminfo: iberror: failed: query\n";
	struct dparse_set *set = load(SITE_PARSERS "sminfo.yaml");
	const struct dparse *p = dparse_find(set, "sminfo");
	struct fact_base *fb = fact_base_new();
	struct parsed got = { fb, 0 };
	const struct fact *f;
	struct emit e;
	size_t len;
	char *out = slurp(SAMPLES "sminfo/magnate3-k8s-rdma-sriov-ibstat-init-sminfo-master.txt",
			   &len);

	(void)state;
	assert_non_null(p);
	assert_string_equal(dparse_kind(p), "sm");
	assert_string_equal(dparse_argv(p)[0], "sminfo");
	assert_null(dparse_argv(p)[1]);
	assert_int_equal(dparse_timeout_ms(p), 5000);
	assert_true(dparse_markers_match(p, out, len));
	emit_init(&e, fb, "t.txt");
	assert_int_equal(dparse_run(p, &e, out, len), 1);
	f = nth(&got, "sm", 0);
	assert_int_equal(num(f, "lid"), 4);
	assert_string_equal(text(f, "guid"), "0x8c0eb0300f6fc26");
	assert_int_equal(num(f, "activity"), 5568705);
	assert_int_equal(num(f, "priority"), 15);
	assert_string_equal(text(f, "state"), "SMINFO_MASTER");
	assert_int_equal(line_of(f, "guid"), 25);
	/* and the same facts as the shipped C parser */
	assert_same("sminfo", set, out, len, "sm", "sminfo sample");
	/* sminfo's failure prints no SMInfo: no fact */
	assert_false(dparse_markers_match(p, fail, sizeof(fail) - 1));
	assert_int_equal(dparse_run(p, &e, fail, sizeof(fail) - 1), 0);
	free(out);
	fact_base_free(fb);
	dparse_set_free(set);
}

static void test_ofed_info_as_data(void **state)
{
	static const char *const texts[] = {
		"MLNX_OFED_LINUX-5.8-1.0.1.1 (OFED-5.8-1.0.1):\n\nclusterkit:\n"
		"mlnx_ofed_clusterkit/clusterkit-1.8.428-1.58101.src.rpm\n",
		"$ ofed_info -n\n23.10-0.5.5.0\n",
		"23.10-0.5.5.0\nMLNX_OFED_LINUX-23.10-0.5.5.0:\n",
		"no version here\n5.4\n",
	};
	struct dparse_set *set = load(DEFS "ofed_info.yaml");

	(void)state;
	assert_int_equal(each_sample("ofed_info", "ofed_info", set, "ofed"),
			 2);
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		assert_same("ofed_info", set, texts[i], strlen(texts[i]),
			    "ofed", texts[i]);
	dparse_set_free(set);
}

static void test_ibdev2netdev_as_data(void **state)
{
	static const char *const texts[] = {
		"0000:02:00.0 mlx5_0 (MT4115 - MCX456A-ECAT) CX456A - ConnectX-4 QSFP28 fw 12.23.1020 port 1 (ACTIVE) ==> ib0 (Up)\n",
		"mlx4_0 port 1 <===> ib0 (Up)\nmlx4_0 port 2 <===> eth1 (Down)\n",
		"mlx5_2 port 1 ==> N/A (Down)\n",
	};
	struct dparse_set *set = load(DEFS "ibdev2netdev.yaml");

	(void)state;
	assert_int_equal(each_sample("ibdev2netdev", "ibdev2netdev", set,
				     "port netdev hca"),
			 2);
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		assert_same("ibdev2netdev", set, texts[i], strlen(texts[i]),
			    "port netdev hca", texts[i]);
	dparse_set_free(set);
}

static void test_records_and_bounds(void **state)
{
	static const char def[] =
		"language: 1\nparsers:\n"
		"  - name: vendor\n    fact: vendor_port\n    sources: [s]\n"
		"    markers: ['^Port \\d+:']\n"
		"    records: {start: '^Port \\d+:'}\n"
		"    fields:\n"
		"      - '^Port (?<port>\\d+):'\n"
		"      - pattern: '^\\s+State:\\s+(?<state>\\w+)'\n"
		"        set: {checked: yes}\n"
		"      - '^\\s+(?<slow>(a+)+)$'\n"
		"    require: [state]\n";
	static const char out[] = "header\nPort 1:\n  State: up\n"
				  "Port 2:\n  nothing\nPort 3:\n  State: down\n";
	struct dparse_set *set = dparse_set_new();
	struct diag *d = diag_new();
	struct fact_base *fb = fact_base_new();
	struct parsed got = { fb, 0 };
	struct strbuf big = STRBUF_INIT;
	const struct dparse *p;
	struct emit e;

	(void)state;
	assert_int_equal(dparse_load_string(set, "t.yaml", def, sizeof(def) - 1,
					    d),
			 1);
	p = dparse_find(set, "vendor");
	emit_init(&e, fb, "t.txt");
	/* Port 2 has no state: required, so no fact */
	assert_int_equal(dparse_run(p, &e, out, sizeof(out) - 1), 2);
	assert_int_equal(num(nth(&got, "vendor_port", 0), "port"), 1);
	assert_string_equal(text(nth(&got, "vendor_port", 1), "state"),
			    "down");
	assert_int_equal(line_of(nth(&got, "vendor_port", 1), "state"), 7);
	/* a long line of a's and a catastrophic pattern: the match limit
	 * stops it, the record still gives its other fields */
	sb_puts(&big, "Port 9:\n  State: up\n  ");
	for (int i = 0; i < 100000; i++)
		sb_putc(&big, 'a');
	sb_puts(&big, "!\n");
	assert_int_equal(dparse_run(p, &e, big.buf, big.len), 1);
	sb_release(&big);
	fact_base_free(fb);
	diag_free(d);
	dparse_set_free(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_site_sminfo),
		cmocka_unit_test(test_ofed_info_as_data),
		cmocka_unit_test(test_ibdev2netdev_as_data),
		cmocka_unit_test(test_records_and_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
