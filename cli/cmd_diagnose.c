/* check, analyze and facts: collect, run the rules, report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/answers.h"
#include "cli/commands.h"
#include "cli/nhc.h"
#include "cli/report.h"
#include "cli/savefile.h"
#include "cli/term.h"

/* --html: the report as one page, written atomically. */
static int write_html(const struct analysis *a, const struct report_opts *ro,
		      const char *path, struct diag *d)
{
	struct json *j = report_json(a, ro);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err;

	report_html(mem, j);
	fclose(mem);
	json_free(j);
	err = savefile_write_text(path, text, d);
	free(text);
	return err;
}

/* --nhc: NHC's verdict on stdout instead of the report. */
static int finish_nhc(struct diag *d, struct analysis *a, int rc,
		      bool write_failed)
{
	if (!a || rc)
		rc = nhc_report_error(stdout, d, rc ? rc : EXIT_USAGE);
	else
		rc = nhc_report(stdout, a);
	analysis_free(a);
	return !rc && write_failed ? EXIT_USAGE : rc;
}

static int finish(const struct options *o, struct diag *d, struct analysis *a,
		  int rc, const char *command)
{
	struct report_opts ro = { o->explain, command };
	bool save_failed = false;

	if (a && o->save)
		save_failed = savefile_write(a, o->save, d) != 0;
	if (a && o->html)
		save_failed |= write_html(a, &ro, o->html, d) != 0;
	diag_print(d, stderr, "rdmadoctor");
	if (o->nhc)
		return finish_nhc(d, a, rc, save_failed);
	if (!a)
		return rc;
	if (o->json) {
		struct json *j = report_json(a, &ro);

		report_print_json(stdout, j);
		json_free(j);
	} else {
		report_text(stdout, a, &ro);
	}
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
