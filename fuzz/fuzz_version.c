/* libFuzzer target: version comparison.  The first byte picks the kind;
 * the rest is two versions separated by a newline.  Besides not
 * crashing, the comparison must be an order: antisymmetric and
 * reflexive. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/version.h"
#include "engine/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum version_kind kind;
	char *a, *b, *nl;
	int ab, ba;

	if (!size)
		return 0;
	kind = (enum version_kind)(data[0] % VERSION_KIND_COUNT);
	a = xstrndup((const char *)data + 1, size - 1);
	nl = strchr(a, '\n');
	b = nl ? nl + 1 : a + strlen(a);
	if (nl)
		*nl = '\0';
	ab = version_compare(a, b, kind);
	ba = version_compare(b, a, kind);
	if (ab < -1 || ab > 1 || ab != -ba)
		abort();
	if (version_compare(a, a, kind) || version_segcmp(b, b))
		abort();
	if (version_segcmp(a, b) != -version_segcmp(b, a))
		abort();
	version_plausible(a);
	free(a);
	return 0;
}
