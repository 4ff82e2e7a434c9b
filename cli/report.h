/* Rendering an analysis: the text report (layers, then ranked diagnoses
 * with evidence and remediation) and the JSON contract of DESIGN.md §6. */
#ifndef RD_REPORT_H
#define RD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "engine/json.h"

struct report_opts {
	bool explain; /* the chain of reasoning under each diagnosis */
	const char *command; /* "check", "analyze", ... for the heading */
};

void report_text(FILE *out, const struct analysis *a,
		 const struct report_opts *o);
/* "diagnosed" (something at warning or above), "healthy", or
 * "insufficient_evidence" (no layer could be judged): the report's verdict. */
const char *report_verdict(const struct analysis *a);

/* The analysis as the JSON object of the contract (owned). */
struct json *report_json(const struct analysis *a, const struct report_opts *o);
void report_print_json(FILE *out, struct json *j);
/* [{name, status, detail}] for the collector facts. */
struct json *report_collectors_json(const struct fact_base *fb);

/* One diagnosis in text, for the guided session's detail view. */
void report_text_diagnosis(FILE *out, const struct analysis *a,
			   const struct diagnosis *dg, bool explain);

/* facts: one line per fact, or {facts: [...]}. */
void report_facts_text(FILE *out, const struct fact_base *fb);
struct json *report_facts_json(const struct fact_base *fb);
/* The host's facts (collected ones and answers, not the knowledge base or
 * what rules derived) as a fact file: 'analyze' of it reproduces the
 * diagnoses. */
struct json *report_snapshot_json(const struct fact_base *fb);

/* batch: a host's line as it is analysed (an entry of the fleet
 * summary's hosts), and the fleet summary that ends the run. */
void report_fleet_host_text(FILE *out, const struct json *host);
void report_fleet_text(FILE *out, const struct json *summary);

/* --html: one self-contained page (inline CSS and SVG, nothing fetched)
 * for a host's report (the JSON of report_json) or for a fleet summary.
 * Every string from a bundle is escaped. */
void report_html(FILE *out, const struct json *report);
void report_html_fleet(FILE *out, const struct json *summary);

#endif
