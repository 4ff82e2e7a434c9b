/* libFuzzer target: declarative parsers.  An input starting with 'D' is a
 * parser file for the loader; any other is a command output, run through
 * the definitions of tests/fixtures/ (the site overlay's sminfo, and
 * ofed_info and ibdev2netdev as data), loaded once. */
#include <stddef.h>
#include <stdint.h>

#include "collectors/parsers/dparse.h"
#include "engine/diag.h"
#include "engine/fact.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct dparse_set *defs(void)
{
	static struct dparse_set *set;
	static const char *const files[] = {
		"tests/fixtures/site-overlay/parsers/sminfo.yaml",
		"tests/fixtures/dparse/ofed_info.yaml",
		"tests/fixtures/dparse/ibdev2netdev.yaml",
	};

	if (!set) {
		struct diag *d = diag_new();

		set = dparse_set_new();
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			dparse_load_file(set, files[i], NULL, d);
		diag_free(d);
	}
	return set;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fact_base *fb = fact_base_new();
	struct diag *d = diag_new();

	if (size && data[0] == 'D') {
		struct dparse_set *set = dparse_set_new();
		struct emit e;

		dparse_load_string(set, "fuzz.yaml", (const char *)data + 1,
				   size - 1, d);
		/* what loaded runs on its own text */
		emit_init(&e, fb, "fuzz");
		for (size_t i = 0; i < dparse_count(set); i++)
			dparse_run(dparse_at(set, i), &e, (const char *)data,
				   size);
		dparse_set_free(set);
	} else {
		const struct dparse_set *set = defs();
		struct emit e;

		emit_init(&e, fb, "fuzz");
		for (size_t i = 0; i < dparse_count(set); i++) {
			dparse_markers_match(dparse_at(set, i),
					     (const char *)data, size);
			dparse_run(dparse_at(set, i), &e, (const char *)data,
				   size);
		}
	}
	diag_free(d);
	fact_base_free(fb);
	return 0;
}
