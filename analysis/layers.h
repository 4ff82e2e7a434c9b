/* The five layers of the guide's checklist: each layer's status, and a
 * line saying what was checked there. */
#ifndef RD_LAYERS_H
#define RD_LAYERS_H

#include "analysis/analysis.h"

/* Fills a->layers from the diagnoses and the facts. */
void layers_judge(struct analysis *a);

/* What the facts show in layer l ("mlx5_0 FW 16.26.1040 (MT_0000000008)"),
 * whatever the verdict; NULL when there was nothing to check.  Owned. */
char *layers_evidence(const struct analysis *a, enum layer l);

#endif
