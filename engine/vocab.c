/* Expands engine/vocab.def into lookup tables. */
#include "engine/vocab.h"

#include <string.h>

#include "engine/rule.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* type, version kind, and whether the text is a PCRE2 pattern */
#define T_STRING VALUE_STRING, VERSION_GENERIC, false
#define T_REGEX VALUE_STRING, VERSION_GENERIC, true
#define T_INT VALUE_INT, VERSION_GENERIC, false
#define T_NUMBER VALUE_NUMBER, VERSION_GENERIC, false
#define T_BOOL VALUE_BOOL, VERSION_GENERIC, false
#define T_LIST VALUE_LIST, VERSION_GENERIC, false
#define T_V_FW VALUE_VERSION, VERSION_FW, false
#define T_V_OFED VALUE_VERSION, VERSION_OFED, false
#define T_V_KERNEL VALUE_VERSION, VERSION_KERNEL, false
#define T_V_GENERIC VALUE_VERSION, VERSION_GENERIC, false
#define KEY true

/* One array of fields per kind: each KIND closes the previous array and
 * opens its own, so vocab.def can list a kind's fields right under it. */
/* clang-format off */
static const struct vocab_field fields_none_[] __attribute__((unused)) = {
#define KIND(kind, source, doc) \
	}; static struct vocab_field fields_##kind[] = {
#define FIELD(kind, name, type, key, doc) \
	{ #name, T_##type, key, doc, NULL, 0 },
#define VALUES(kind, field, words)
#include "engine/vocab.def"
#undef KIND
#undef FIELD
#undef VALUES
};
/* clang-format on */

static struct vocab_kind kinds[] = {
#define KIND(kind, source, doc) \
	{ #kind, #source, doc, fields_##kind, ARRAY_SIZE(fields_##kind), 0 },
#define FIELD(kind, name, type, key, doc)
#define VALUES(kind, field, words)
#include "engine/vocab.def"
#undef KIND
#undef FIELD
#undef VALUES
};

/* The layer names, from the rule model's one list. */
#define LAYER_WORD(id, name, doc) name " "
#define VOCAB_LAYERS RULE_LAYERS(LAYER_WORD)

/* The closed value sets (VALUES lines), attached to their fields by
 * init(). */
static const struct {
	const char *kind, *field, *words;
} value_sets[] = {
#define KIND(kind, source, doc)
#define FIELD(kind, name, type, key, doc)
#define VALUES(kind, field, words) { #kind, #field, words },
#include "engine/vocab.def"
#undef KIND
#undef FIELD
#undef VALUES
};

/* Kind index by symbol id, built on first use. */
static int16_t *by_sym;
static size_t nby_sym;

static void init(void)
{
	uint32_t max = 0;

	if (by_sym)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		kinds[i].sym = sym_intern_cstr(kinds[i].name);
		if (kinds[i].sym > max)
			max = kinds[i].sym;
		for (size_t j = 0; j < kinds[i].nfields; j++) {
			struct vocab_field *f =
				(struct vocab_field *)&kinds[i].fields[j];

			f->sym = sym_intern_cstr(f->name);
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(value_sets); i++)
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++)
			for (size_t j = 0; j < kinds[k].nfields; j++) {
				struct vocab_field *f =
					(struct vocab_field *)&kinds[k]
						.fields[j];

				if (!strcmp(kinds[k].name, value_sets[i].kind) &&
				    !strcmp(f->name, value_sets[i].field))
					f->values = value_sets[i].words;
			}
	nby_sym = max + 1;
	by_sym = xmalloc(nby_sym * sizeof(*by_sym));
	for (size_t i = 0; i < nby_sym; i++)
		by_sym[i] = -1;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		by_sym[kinds[i].sym] = (int16_t)i;
}

const struct vocab_kind *vocab_kind(uint32_t kind)
{
	init();
	if (kind >= nby_sym || by_sym[kind] < 0)
		return NULL;
	return &kinds[by_sym[kind]];
}

const struct vocab_kind *vocab_kind_named(const char *name)
{
	uint32_t sym;

	init(); /* interns the vocabulary's names */
	sym = sym_find(name, strlen(name));
	return sym ? vocab_kind(sym) : NULL;
}

const struct vocab_field *vocab_field(const struct vocab_kind *k,
				      uint32_t field)
{
	for (size_t i = 0; i < k->nfields; i++)
		if (k->fields[i].sym == field)
			return &k->fields[i];
	return NULL;
}

size_t vocab_kind_count(void)
{
	return ARRAY_SIZE(kinds);
}

const struct vocab_kind *vocab_kind_at(size_t i)
{
	init();
	return i < ARRAY_SIZE(kinds) ? &kinds[i] : NULL;
}

bool vocab_value_known(const struct vocab_field *f, const char *s, size_t n)
{
	const char *p = f->values;

	if (!p)
		return true;
	while (*p) {
		size_t len = strcspn(p, " ");

		if (len && len == n && !memcmp(p, s, n))
			return true;
		p += len;
		p += *p == ' ';
	}
	return false;
}

size_t vocab_value_words(const struct vocab_field *f, const char **words,
			 size_t *lens, size_t max)
{
	const char *p = f->values;
	size_t n = 0;

	while (p && *p && n < max) {
		size_t len = strcspn(p, " ");

		if (len) {
			words[n] = p;
			lens[n++] = len;
		}
		p += len;
		p += *p == ' ';
	}
	return n;
}
