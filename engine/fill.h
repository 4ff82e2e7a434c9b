/* Placeholders in remediation text ("mstflint -d <PCI address>") filled
 * from the facts a firing matched, so that a suggested command carries
 * the values the evidence already knows. */
#ifndef RD_FILL_H
#define RD_FILL_H

#include "engine/engine.h"
#include "engine/fact.h"

/* Returns text with each known placeholder replaced by the one value the
 * facts matched by fi give for it (kind hca field pci for "<PCI
 * address>", ...); a placeholder with no value, or with two different
 * values among those facts, stays as it is.  The result is malloc'ed;
 * text is not changed. */
char *fill_placeholders(const char *text, const struct firing *fi,
			const struct fact_base *fb);

/* The same for text not tied to a firing (a command to run to collect
 * missing evidence): a placeholder takes the one value the facts of its
 * kind in fb give (the PCI address of the only adapter, ...). */
char *fill_from_facts(const char *text, const struct fact_base *fb);

#endif
