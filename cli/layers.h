/* The five layers of the guide's checklist: each layer's status, and a
 * line saying what was checked there. */
#ifndef RD_LAYERS_H
#define RD_LAYERS_H

#include "cli/analysis.h"

/* Fills a->layers from the diagnoses and the facts. */
void layers_judge(struct analysis *a);

#endif
