/* fact base: typed fields, key merging, indexes, dedup, provenance. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <stdio.h>

#include "engine/fact.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "helpers.h"

static uint32_t S(const char *s)
{
	return sym_intern_cstr(s);
}

static void test_types_follow_vocabulary(void **state)
{
	struct fact_base *fb = fact_base_new();
	const struct fact *f;
	const struct value *v;

	(void)state;
	f = add_fact(fb, "port", "hca=mlx5_0", "port=1", "rate_gbps=100",
		     "lid=12", "state=ACTIVE", NULL);
	v = fact_get(f, S("port"));
	assert_int_equal(v->type, VALUE_INT);
	assert_int_equal(v->i, 1);
	v = fact_get(f, S("rate_gbps"));
	assert_int_equal(v->type, VALUE_NUMBER);
	assert_true(v->n == 100.0);
	f = add_fact(fb, "hca", "name=mlx5_0", "fw_ver=16.26.1040", NULL);
	v = fact_get(f, S("fw_ver"));
	assert_int_equal(v->type, VALUE_VERSION);
	assert_int_equal(v->vkind, VERSION_FW);
	assert_string_equal(fact_text(f, "fw_ver"), "16.26.1040");
	fact_base_free(fb);
}

/* Loaders list a kind's fields in fixed arrays (did-you-mean hints). */
static void test_vocabulary_bounds(void **state)
{
	(void)state;
	for (size_t i = 0; i < vocab_kind_count(); i++)
		assert_true(vocab_kind_at(i)->nfields <= VOCAB_FIELDS_MAX);
	assert_non_null(vocab_kind_named("hca"));
	assert_null(vocab_kind_named("no_such_kind"));
}

static void test_bad_value_is_dropped(void **state)
{
	struct fact_base *fb = fact_base_new();
	struct fact *f = fact_base_begin(fb, S("port"), 0, 0, NULL, 0);
	bool added;

	(void)state;
	assert_int_equal(fact_put(fb, f, S("lid"), value_cstr("..."), 0, NULL,
				  0),
			 -EINVAL);
	assert_null(fact_get(f, S("lid")));
	assert_int_equal(
		fact_put(fb, f, S("lid"), value_cstr("0x1c"), 0, NULL, 0), 0);
	assert_int_equal(fact_get(f, S("lid"))->i, 28);
	fact_base_commit(fb, f, &added);
	assert_true(added);
	fact_base_free(fb);
}

static void test_keys_merge(void **state)
{
	struct fact_base *fb = fact_base_new();
	const struct fact *a, *b;

	(void)state;
	a = add_fact(fb, "hca", "name=mlx5_0", "fw_ver=16.26.1040", NULL);
	b = add_fact(fb, "hca", "name=mlx5_0", "fw_ver=16.99.9999",
		     "psid=MT_0000000008", NULL);
	assert_ptr_equal(a, b);
	assert_int_equal(fact_base_count(fb), 2 - 1);
	assert_string_equal(fact_text(a, "fw_ver"), "16.26.1040");
	assert_string_equal(fact_text(a, "psid"), "MT_0000000008");
	/* Two keys: port 1 and port 2 of one device stay apart. */
	add_fact(fb, "port", "hca=mlx5_0", "port=1", NULL);
	add_fact(fb, "port", "hca=mlx5_0", "port=2", NULL);
	add_fact(fb, "port", "hca=mlx5_0", "port=1", "state=DOWN", NULL);
	assert_int_equal(fact_base_count(fb), 3);
	fact_base_free(fb);
}

/* Enrichment adds a field to a committed fact, indexed and with its own
 * provenance, and never replaces a value a source set. */
static void test_enrich(void **state)
{
	struct fact_base *fb = fact_base_new();
	const struct fact *h;
	struct prov p = { 0, 2, "firmware-version: 16.26.1040 (MT_0000000008)" };
	struct value v;
	size_t n;

	(void)state;
	p.src = fact_base_source(fb, "ethtool_-i_ib0");
	h = add_fact(fb, "hca", "name=mlx5_0", "psid=MT_0000000008", NULL);
	assert_int_equal(fact_base_enrich(fb, h->id, S("fw_ver"),
					  value_cstr("16.26.1040"), &p),
			 0);
	assert_string_equal(fact_text(h, "fw_ver"), "16.26.1040");
	assert_int_equal(fact_field(h, S("fw_ver"))->prov.line, 2);
	assert_string_equal(fact_field(h, S("fw_ver"))->prov.text, p.text);
	v = value_version("16.26.1040", 10, VERSION_FW);
	fact_base_lookup(fb, S("hca"), S("fw_ver"), &v, &n);
	assert_int_equal(n, 1);
	assert_int_equal(fact_base_enrich(fb, h->id, S("psid"),
					  value_cstr("DEL0000000027"), NULL),
			 -EEXIST);
	assert_string_equal(fact_text(h, "psid"), "MT_0000000008");
	assert_int_equal(fact_base_enrich(fb, h->id, S("ports"),
					  value_cstr("two"), NULL),
			 -EINVAL);
	assert_int_equal(fact_base_enrich(fb, 999, S("ports"), value_int(1),
					  NULL),
			 -ENOENT);
	fact_base_free(fb);
}

static void test_replace(void **state)
{
	struct fact_base *fb = fact_base_new();
	const struct fact *a, *b, *c;
	struct prov p = { 0, 38, "FW Version:          12.17.2010" };
	struct value v;
	const uint32_t *ids;
	size_t n;

	(void)state;
	a = add_fact(fb, "hca", "name=mlx5_0", "fw_ver=12.17.2010", NULL);
	b = add_fact(fb, "hca", "name=mlx5_1", "fw_ver=12.16.1006", NULL);
	c = add_fact(fb, "hca", "name=mlx5_2", "fw_ver=12.17.2010", NULL);
	assert_int_equal(fact_base_replace(fb, b->id, S("fw_ver"),
					   value_cstr("12.17.2010"), &p),
			 0);
	assert_string_equal(fact_text(b, "fw_ver"), "12.17.2010");
	assert_int_equal(fact_field(b, S("fw_ver"))->prov.line, 38);
	assert_string_equal(fact_field(b, S("fw_ver"))->prov.text, p.text);
	/* the index moved, its ids still in the order of addition */
	v = value_version("12.16.1006", 10, VERSION_FW);
	fact_base_lookup(fb, S("hca"), S("fw_ver"), &v, &n);
	assert_int_equal(n, 0);
	v = value_version("12.17.2010", 10, VERSION_FW);
	ids = fact_base_lookup(fb, S("hca"), S("fw_ver"), &v, &n);
	assert_int_equal(n, 3);
	assert_int_equal(ids[0], a->id);
	assert_int_equal(ids[1], b->id);
	assert_int_equal(ids[2], c->id);
	/* a key is what the fact is, a value must take its type */
	assert_int_equal(fact_base_replace(fb, b->id, S("name"),
					   value_cstr("mlx5_9"), NULL),
			 -EINVAL);
	assert_int_equal(fact_base_replace(fb, b->id, S("psid"),
					   value_cstr("MT_0000000008"), NULL),
			 -ENOENT);
	assert_int_equal(fact_base_replace(fb, 999, S("fw_ver"),
					   value_cstr("1.2.3"), NULL),
			 -ENOENT);
	fact_base_free(fb);
}

static void test_index(void **state)
{
	struct fact_base *fb = fact_base_new();
	struct value v;
	size_t n;
	const uint32_t *ids;

	(void)state;
	add_fact(fb, "module", "name=ib_core", "refcount=8", NULL);
	add_fact(fb, "module", "name=mlx5_ib", "refcount=0", NULL);
	add_fact(fb, "module", "name=xfs", "refcount=0", NULL);
	fact_base_of_kind(fb, S("module"), &n);
	assert_int_equal(n, 3);
	v = value_int(0);
	ids = fact_base_lookup(fb, S("module"), S("refcount"), &v, &n);
	assert_int_equal(n, 2);
	assert_string_equal(fact_text(fact_base_get(fb, ids[0]), "name"),
			    "mlx5_ib");
	/* An integer and an equal number hash and compare alike. */
	v = value_num(8.0);
	fact_base_lookup(fb, S("module"), S("refcount"), &v, &n);
	assert_int_equal(n, 1);
	v = value_cstr("nope");
	assert_null(fact_base_lookup(fb, S("module"), S("name"), &v, &n));
	assert_int_equal(n, 0);
	fact_base_free(fb);
}

static void test_derived_dedup(void **state)
{
	struct fact_base *fb = fact_base_new();
	bool added;

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct fact *f =
			fact_base_begin(fb, S("symptom"), 0, 0, NULL, 0);

		f->firing = 1;
		fact_put(fb, f, S("name"), value_cstr("slow"), 0, NULL, 0);
		fact_base_commit(fb, f, &added);
		assert_int_equal(added, i == 0);
	}
	/* Collected facts without keys are all kept: two log lines alike. */
	add_fact(fb, "log", "text=same", NULL);
	add_fact(fb, "log", "text=same", NULL);
	assert_int_equal(fact_base_count(fb), 3);
	fact_base_free(fb);
}

static void test_provenance(void **state)
{
	struct fact_base *fb = fact_base_new();
	uint32_t src = fact_base_source(fb, "sos_commands/infiniband/ibstat");
	struct fact *f =
		fact_base_begin(fb, S("hca"), src, 1, "CA 'mlx5_0'\n", 12);
	const struct field *fl;
	bool added;

	(void)state;
	fact_put(fb, f, S("name"), value_cstr("mlx5_0"), 1, "CA 'mlx5_0'", 11);
	fact_put(fb, f, S("fw_ver"), value_cstr("16.26.1040"), 4,
		 "Firmware version: 16.26.1040", 28);
	f = fact_base_commit(fb, f, &added);
	assert_string_equal(f->prov.text, "CA 'mlx5_0'");
	fl = fact_field(f, S("fw_ver"));
	assert_int_equal(fl->prov.line, 4);
	assert_int_equal(fl->prov.src, src);
	assert_string_equal(fl->prov.text, "Firmware version: 16.26.1040");
	assert_string_equal(fact_base_source_name(fb, src),
			    "sos_commands/infiniband/ibstat");
	assert_int_equal(fact_base_source(fb, "sos_commands/infiniband/ibstat"),
			 src);
	fact_base_free(fb);
}

/* Thousands of sources (a host with hundreds of HCAs): each name keeps
 * its id through the index's growth, and names that share a hash bucket
 * stay apart. */
static void test_many_sources(void **state)
{
	struct fact_base *fb = fact_base_new();
	char name[64];

	(void)state;
	for (uint32_t i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name),
			 "sys/class/infiniband/mlx5_%u/fw_ver", i);
		assert_int_equal(fact_base_source(fb, name), i + 1);
	}
	for (uint32_t i = 0; i < 5000; i += 7) {
		snprintf(name, sizeof(name),
			 "sys/class/infiniband/mlx5_%u/fw_ver", i);
		assert_int_equal(fact_base_source(fb, name), i + 1);
		assert_string_equal(fact_base_source_name(fb, i + 1), name);
	}
	assert_int_equal(fact_base_source(fb, ""), 0);
	assert_int_equal(fact_base_source(fb, "new"), 5001);
	fact_base_free(fb);
}

/* A derived "symptom name=slow" fact, as a rule asserts it. */
static bool assert_symptom(struct fact_base *fb)
{
	struct fact *f = fact_base_begin(fb, S("symptom"), 0, 0, NULL, 0);
	bool added;

	f->firing = 1;
	fact_put(fb, f, S("name"), value_cstr("slow"), 0, NULL, 0);
	fact_base_commit(fb, f, &added);
	return added;
}

/* Rollback to a mark: the base is what it was at the mark, twice over,
 * whatever was added in between (facts, fields merged into a marked fact
 * or enriched onto it, their index entries, sources, derived facts). */
static void test_rollback(void **state)
{
	struct fact_base *fb = fact_base_new();
	const struct fact *kb;
	struct value fw = value_version("16.99.9999", 10, VERSION_FW);
	struct value psid = value_cstr("MT_0000000008");
	uint32_t src;
	size_t n;

	(void)state;
	kb = add_fact(fb, "hca", "name=mlx5_0", "model=MT4119", NULL);
	src = fact_base_source(fb, "kb/adapters.yaml");
	fact_base_mark(fb);
	for (int round = 0; round < 2; round++) {
		const struct fact *merged;
		struct prov p = { 0, 0, NULL };

		merged = add_fact(fb, "hca", "name=mlx5_0", "fw_ver=16.99.9999",
				  NULL);
		assert_ptr_equal(merged, kb);
		assert_int_equal(fact_base_enrich(fb, kb->id, S("psid"), psid,
						  &p),
				 0);
		add_fact(fb, "hca", "name=mlx5_1", NULL);
		add_fact(fb, "port", "hca=mlx5_0", "port=1", NULL);
		assert_true(assert_symptom(fb));
		assert_int_equal(fact_base_source(fb, "sos/ibstat"), src + 1);
		assert_int_equal(fact_base_count(fb), 4);
		fact_base_lookup(fb, S("hca"), S("fw_ver"), &fw, &n);
		assert_int_equal(n, 1);

		fact_base_rollback(fb);
		assert_int_equal(fact_base_count(fb), 1);
		assert_int_equal(kb->nfields, 2);
		assert_null(fact_get(kb, S("fw_ver")));
		assert_null(fact_get(kb, S("psid")));
		fact_base_lookup(fb, S("hca"), S("fw_ver"), &fw, &n);
		assert_int_equal(n, 0);
		fact_base_lookup(fb, S("hca"), S("psid"), &psid, &n);
		assert_int_equal(n, 0);
		fact_base_of_kind(fb, S("hca"), &n);
		assert_int_equal(n, 1);
		fact_base_of_kind(fb, S("port"), &n);
		assert_int_equal(n, 0);
		/* what the mark holds stays; what came after is gone */
		assert_int_equal(fact_base_source(fb, "kb/adapters.yaml"), src);
		assert_string_equal(fact_base_source_name(fb, src + 1), "");
		assert_string_equal(fact_text(kb, "model"), "MT4119");
	}
	/* the derived fact went too: asserting it again adds it */
	assert_true(assert_symptom(fb));
	fact_base_free(fb);
}

/* Enough facts and sources after the mark that the indexes rehash. */
static void test_rollback_after_growth(void **state)
{
	struct fact_base *fb = fact_base_new();
	char name[32];
	size_t n;

	(void)state;
	add_fact(fb, "hca", "name=kb0", NULL);
	fact_base_mark(fb);
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "name=mlx5_%d", i);
		add_fact(fb, "hca", name, NULL);
		fact_base_source(fb, name);
	}
	fact_base_rollback(fb);
	assert_int_equal(fact_base_count(fb), 1);
	fact_base_of_kind(fb, S("hca"), &n);
	assert_int_equal(n, 1);
	assert_int_equal(fact_base_source(fb, "name=mlx5_7"), 2);
	add_fact(fb, "hca", "name=mlx5_7", NULL);
	assert_int_equal(fact_base_count(fb), 2);
	fact_base_free(fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types_follow_vocabulary),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_vocabulary_bounds),
		cmocka_unit_test(test_bad_value_is_dropped),
		cmocka_unit_test(test_keys_merge),
		cmocka_unit_test(test_enrich),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_derived_dedup),
		cmocka_unit_test(test_provenance),
		cmocka_unit_test(test_many_sources),
		cmocka_unit_test(test_rollback),
		cmocka_unit_test(test_rollback_after_growth),
	};

	return cmocka_run_group_tests_name("fact", tests, NULL, NULL);
}
