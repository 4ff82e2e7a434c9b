/* What changed between two checks of one host, for the guided session's
 * re-check: the evidence, the layer verdicts and the diagnoses. */
#ifndef RD_RECHECK_H
#define RD_RECHECK_H

#include <stddef.h>

#include "analysis/analysis.h"
#include "engine/strbuf.h"

/* Appends to out, one change a line: collected facts that appeared,
 * disappeared or changed a field ("hca mlx5_0: fw_ver 16.26.1040 ->
 * 16.27.4000"; at most max_evidence lines, then a count), layers whose
 * status changed, and each diagnosis as fixed, new or still there.
 * Returns the number of changes (facts, layers, diagnoses fixed or new);
 * 0 means the two checks agree. */
size_t recheck_diff(const struct analysis *before, const struct analysis *after,
		    size_t max_evidence, struct strbuf *out);

#endif
