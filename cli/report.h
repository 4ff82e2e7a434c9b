/* Rendering an analysis: the text report (layers, then ranked diagnoses
 * with evidence and remediation) and the JSON contract of DESIGN.md §6. */
#ifndef RD_REPORT_H
#define RD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "engine/json.h"

struct explain;
struct near_miss;

struct report_opts {
	bool explain; /* the chain of reasoning under each diagnosis */
	const char *command; /* "check", "analyze", ... for the heading */
	bool color; /* the text report in colour (term.h) */
	/* --why-not: the near misses (near_miss.h) the report lists,
	 * borrowed; why_not false: no such section */
	bool why_not;
	const struct near_miss *near;
	size_t nnear;
};

/* The report's document model: what every renderer of one host's
 * analysis (text, JSON, HTML, Markdown, the guided session, rules test)
 * reads.  report_doc_new is the one walk over the analysis; the
 * renderers read only the document.  Strings are borrowed from the
 * analysis, so a document lives no longer than the analysis it was made
 * from, and is made again after the analysis changes (a guided answer). */
struct report_evidence {
	const char *source; /* the source's name */
	unsigned line; /* 0: none */
	const char *text; /* NULL: none */
};

struct report_diagnosis {
	int rank; /* 1-based */
	const char *id, *title, *message;
	enum layer layer;
	enum severity severity;
	double cf, score; /* as computed; report_round for the JSON figure */
	char *const *remediation;
	size_t nremediation;
	struct report_evidence *evidence;
	size_t nevidence;
	/* indexes into the document's diagnoses */
	const size_t *explains, *explained_by;
	size_t nexplains, nexplained_by;
	/* with explain: the reasoning of each supporting firing, computed
	 * once here for every renderer */
	struct explain **why;
	size_t nwhy;
};

struct report_collector {
	const char *name, *status, *detail;
};

struct report_doc {
	bool explain;
	bool color; /* text renderers colour their words */
	const char *command;
	const char *verdict; /* report_verdict */
	bool insufficient; /* no layer could be judged */
	const char *kind, *path, *hostname; /* the source; never NULL */
	const char *const *paths; /* each path read (path joins them) */
	size_t npaths;
	const struct layer_view *layers; /* LAYER_COUNT of them */
	struct report_diagnosis *diagnoses; /* most likely root cause first */
	size_t ndiagnoses;
	const struct skipped *skipped;
	size_t nskipped;
	struct report_collector *collectors; /* the evidence read */
	size_t ncollectors;
	bool why_not; /* the near misses below are part of the report */
	const struct near_miss *near; /* borrowed from report_opts */
	size_t nnear;
};

/* Walks a once into its document (owned; report_doc_free). */
struct report_doc *report_doc_new(const struct analysis *a,
				  const struct report_opts *o);
void report_doc_free(struct report_doc *doc);
/* The collector facts of fb, in order (owned array, borrowed strings). */
struct report_collector *report_collectors(const struct fact_base *fb,
					   size_t *n);
/* Rounds to three decimals, as every figure of the JSON contract is. */
double report_round(double v);

/* The text report. */
void report_text(FILE *out, const struct report_doc *doc);
/* "diagnosed" (something at warning or above), "healthy", or
 * "insufficient_evidence" (no layer could be judged): the report's verdict. */
const char *report_verdict(const struct analysis *a);

/* The document as the JSON object of the contract (owned). */
struct json *report_json(const struct report_doc *doc);
void report_print_json(FILE *out, struct json *j);
/* [{name, status, detail}] for the collector facts. */
struct json *report_collectors_json(const struct fact_base *fb);

/* Diagnosis i of the document in text, with its reasoning when the
 * document has it: the guided session's detail view, rules test's
 * account of what fired. */
void report_text_diagnosis(FILE *out, const struct report_doc *doc, size_t i);

/* facts: one line per fact, or {facts: [...]}. */
void report_facts_text(FILE *out, const struct fact_base *fb);
struct json *report_facts_json(const struct fact_base *fb);
/* The host's facts (collected ones and answers, not the knowledge base or
 * what rules derived) as a fact file: 'analyze' of it reproduces the
 * diagnoses. */
struct json *report_snapshot_json(const struct fact_base *fb);

/* batch: a host's line as it is analysed (an entry of the fleet
 * summary's hosts), and the fleet summary that ends the run; in colour
 * when color. */
void report_fleet_host_text(FILE *out, const struct json *host, bool color);
void report_fleet_text(FILE *out, const struct json *summary, bool color);

/* --html: one self-contained page (inline CSS and SVG, nothing fetched)
 * for a host's report (the JSON of report_json) or for a fleet summary.
 * Every string from a bundle is escaped. */
void report_html(FILE *out, const struct json *report);
void report_html_fleet(FILE *out, const struct json *summary);

/* --markdown: the same documents as Markdown for a GitHub or Jira
 * ticket: a heading, a table of the layers, each diagnosis with its
 * remediation and its evidence in a code block (the fleet: a table of the
 * diagnoses and one of the hosts).  Every string from a bundle is escaped
 * or fenced. */
void report_markdown(FILE *out, const struct json *report);
void report_markdown_fleet(FILE *out, const struct json *summary);
/* The date a report is made, "YYYY-MM-DD HH:MM UTC": SOURCE_DATE_EPOCH
 * when set (reproducible output), else now. */
void report_date(char *buf, size_t size);

#endif
