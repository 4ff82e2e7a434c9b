/* check, analyze and facts: collect, run the rules, report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/answers.h"
#include "cli/commands.h"
#include "cli/near_miss.h"
#include "cli/nhc.h"
#include "cli/redact.h"
#include "cli/report.h"
#include "cli/savefile.h"
#include "cli/term.h"

/* What --redact makes of rendered text (owned; freed here): the text with
 * its identifiers masked, or the text itself without --redact. */
static char *masked(struct redactor *r, char *text, size_t len)
{
	char *out;

	if (!r)
		return text;
	out = redact_text(r, text ? text : "", text ? len : 0);
	free(text);
	return out;
}

/* What one output is rendered from: the report's document or its JSON. */
struct page {
	const struct report_doc *doc;
	const struct json *json;
};

static void render_html(FILE *out, const struct page *p)
{
	report_html(out, p->json);
}

static void render_markdown(FILE *out, const struct page *p)
{
	report_markdown(out, p->json);
}

/* Renders one page (--html, --markdown) into memory and writes it to
 * path atomically (with --redact, from the masked JSON). */
static int write_page(const struct page *p,
		      void (*render)(FILE *, const struct page *),
		      const char *path, struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err;

	if (!mem) {
		diag_error(d, "%s: cannot render the output", path);
		return -ENOMEM;
	}
	render(mem, p);
	fclose(mem);
	err = savefile_write_text(path, text ? text : "", d);
	free(text);
	return err;
}

/* --nhc: NHC's verdict on stdout instead of the report. */
static int finish_nhc(struct diag *d, struct analysis *a, int rc,
		      bool write_failed, FILE *out)
{
	if (!a || rc)
		rc = nhc_report_error(out, d, rc ? rc : EXIT_USAGE);
	else
		rc = nhc_report(out, a);
	analysis_free(a);
	return !rc && write_failed ? EXIT_USAGE : rc;
}

static int finish(const struct options *o, struct diag *d, struct analysis *a,
		  int rc, const char *command)
{
	struct report_opts ro = { o->explain, command, o->colored, o->why_not,
				  NULL, 0 };
	struct near_miss *near = NULL;
	struct page p = { NULL, NULL };
	struct report_doc *doc = NULL;
	struct json *json = NULL;
	struct redactor *r = NULL;
	bool save_failed = false, text_out;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	if (a && o->redact) {
		r = redact_new();
		redact_add(r, REDACT_HOST, a->hostname);
		redact_add_facts(r, a->fb);
	}
	if (a && o->why_not) {
		near = near_miss_list(a, (const char *const *)o->why_not_ids,
				      o->nwhy_not_ids, &ro.nnear, d);
		if (!near) {
			diag_print(d, stderr, "rdmadoctor");
			redact_free(r);
			analysis_free(a);
			return EXIT_USAGE;
		}
		ro.near = near;
	}
	/* the one walk over the analysis, and its JSON for the outputs that
	 * render from it */
	if (a)
		doc = report_doc_new(a, &ro);
	if (doc && (o->json || o->html || o->markdown))
		json = report_json(doc);
	if (json && r) {
		/* each string masked, so no value can break the syntax */
		struct json *m = redact_json(r, json);

		json_free(json);
		json = m;
	}
	p.doc = doc;
	p.json = json;
	if (a && o->save)
		save_failed = savefile_write(a, o->save, r, d) != 0;
	if (json && o->html)
		save_failed |= write_page(&p, render_html, o->html, d) != 0;
	if (json && o->markdown)
		save_failed |= write_page(&p, render_markdown, o->markdown,
					  d) != 0;
	diag_print(d, stderr, "rdmadoctor");
	/* with --redact, text for standard output is rendered first, then
	 * masked (JSON is masked already) */
	text_out = o->nhc || !(json && o->json);
	out = r && text_out ? open_memstream(&text, &len) : stdout;
	if (!out) {
		json_free(json);
		report_doc_free(doc);
		near_miss_free(near, ro.nnear);
		redact_free(r);
		analysis_free(a);
		return EXIT_USAGE;
	}
	if (o->nhc) {
		rc = finish_nhc(d, a, rc, save_failed, out);
		a = NULL;
	} else if (json && o->json) {
		report_print_json(out, json);
	} else if (doc) {
		report_text(out, doc);
	}
	json_free(json);
	report_doc_free(doc);
	near_miss_free(near, ro.nnear);
	if (r) {
		if (text_out) {
			fclose(out);
			text = masked(r, text, len);
			fputs(text, stdout);
			free(text);
		}
		if (o->redact_map &&
		    savefile_write_map(o->redact_map, r, d)) {
			diag_print(d, stderr, "rdmadoctor");
			save_failed = true;
			if (!rc)
				rc = EXIT_USAGE;
		}
		redact_free(r);
	}
	if (!a)
		return rc;
	if (!rc)
		rc = save_failed ? EXIT_USAGE : analysis_exit_code(a);
	analysis_free(a);
	return rc;
}

int diagnose(const struct options *o)
{
	struct analysis_opts ao;
	struct diag *d = diag_new();
	struct analysis *a = NULL;
	struct answers as = { 0 };
	int rc = EXIT_USAGE;

	if (!options_analysis(o, &ao, &as, d)) {
		if (o->nhc)
			ao.progress = false;
		/* A live check reads the counters twice; a health check
		 * (--nhc) judges faults, which one reading shows. */
		if (ao.live && !o->sample_interval_set && !o->nhc)
			ao.sample_interval_ms = SAMPLE_INTERVAL_DEFAULT_MS;
		rc = analysis_run(&ao, d, &a);
	}
	rc = finish(o, d, a, rc, o->nargs ? "analyze" : "check");
	answers_release(&as);
	diag_free(d);
	return rc;
}

int cmd_check(struct options *o)
{
	if (o->nargs) {
		fprintf(stderr,
			"rdmadoctor: error: check takes no paths (did you mean 'analyze %s'?)\n",
			o->args[0]);
		return EXIT_USAGE;
	}
	if (o->nhc && o->json) {
		fprintf(stderr,
			"rdmadoctor: error: --nhc prints NHC's one-line format; it does not go with --json\n");
		return EXIT_USAGE;
	}
	return diagnose(o);
}

int cmd_analyze(struct options *o)
{
	if (!o->nargs) {
		fprintf(stderr,
			"rdmadoctor: error: analyze needs at least one path (a sosreport, snapshot or command output)\n");
		return EXIT_USAGE;
	}
	return diagnose(o);
}

int cmd_facts(struct options *o)
{
	struct analysis_opts ao;
	struct diag *d = diag_new();
	struct analysis *a = NULL;
	struct answers as = { 0 };
	int rc = EXIT_USAGE;

	if (!options_analysis(o, &ao, &as, d)) {
		ao.no_engine = true;
		rc = analysis_run(&ao, d, &a);
	}
	answers_release(&as);
	diag_print(d, stderr, "rdmadoctor");
	diag_free(d);
	if (!a)
		return rc;
	if (o->json) {
		struct json *j = report_facts_json(a->fb);

		report_print_json(stdout, j);
		json_free(j);
	} else {
		report_facts_text(stdout, a->fb);
	}
	analysis_free(a);
	return rc;
}
