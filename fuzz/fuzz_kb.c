/* libFuzzer target: the knowledge-base loader (YAML through libyaml into
 * kb facts). */
#include <stddef.h>
#include <stdint.h>

#include "engine/diag.h"
#include "engine/fact.h"
#include "engine/kb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fact_base *fb = fact_base_new();
	struct diag *d = diag_new();

	kb_load_string(fb, "fuzz.yaml", (const char *)data, size, d);
	diag_free(d);
	fact_base_free(fb);
	return 0;
}
