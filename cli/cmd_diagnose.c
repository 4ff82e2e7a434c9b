/* check, analyze and facts: collect, run the rules, report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/answers.h"
#include "cli/commands.h"
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

/* savefile_fill_fn for a string. */
static int fill_text(int fd, void *ctx, char *err, size_t errsize)
{
	const char *p = ctx;
	size_t left = strlen(p);

	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errsize, "%s", strerror(errno));
			return -errno;
		}
		p += n;
		left -= (size_t)n;
	}
	return 0;
}

/* --html and --markdown: the report rendered from its JSON by render,
 * masked with --redact, written atomically. */
static int write_page(const struct analysis *a, const struct report_opts *ro,
		      void (*render)(FILE *, const struct json *),
		      const char *path, struct redactor *r, struct diag *d)
{
	struct json *j = report_json(a, ro);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err;

	if (!mem) {
		json_free(j);
		diag_error(d, "%s: cannot render the report", path);
		return -ENOMEM;
	}
	render(mem, j);
	fclose(mem);
	json_free(j);
	text = masked(r, text, len);
	err = savefile_write_text(path, text, d);
	free(text);
	return err;
}

/* --save with --redact: the snapshot masked, private as savefile_write
 * makes it. */
static int write_masked_snapshot(const struct analysis *a, const char *path,
				 struct redactor *r, struct diag *d)
{
	struct json *j = report_snapshot_json(a->fb);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err;

	if (!mem) {
		json_free(j);
		diag_error(d, "%s: cannot render the snapshot", path);
		return -ENOMEM;
	}
	report_print_json(mem, j);
	fclose(mem);
	json_free(j);
	text = masked(r, text, len);
	err = savefile_commit(path, SAVEFILE_MODE_PRIVATE, fill_text, text, d);
	free(text);
	return err;
}

/* --redact-map: the mapping, private: it undoes the masking. */
static int write_map(const struct redactor *r, const char *path,
		     struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err;

	if (!mem)
		return -ENOMEM;
	redact_write_map(r, mem);
	fclose(mem);
	err = savefile_commit(path, SAVEFILE_MODE_PRIVATE, fill_text,
			      text ? text : (char *)"", d);
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
	struct report_opts ro = { o->explain, command };
	struct redactor *r = NULL;
	bool save_failed = false;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	if (a && o->redact) {
		r = redact_new();
		redact_add(r, REDACT_HOST, a->hostname);
		redact_add_facts(r, a->fb);
	}
	if (a && o->save)
		save_failed = (r ? write_masked_snapshot(a, o->save, r, d) :
				   savefile_write(a, o->save, d)) != 0;
	if (a && o->html)
		save_failed |=
			write_page(a, &ro, report_html, o->html, r, d) != 0;
	if (a && o->markdown)
		save_failed |= write_page(a, &ro, report_markdown, o->markdown,
					  r, d) != 0;
	diag_print(d, stderr, "rdmadoctor");
	/* with --redact everything for standard output is rendered first,
	 * then masked */
	out = r ? open_memstream(&text, &len) : stdout;
	if (!out) {
		redact_free(r);
		analysis_free(a);
		return EXIT_USAGE;
	}
	if (o->nhc) {
		rc = finish_nhc(d, a, rc, save_failed, out);
		a = NULL;
	} else if (a && o->json) {
		struct json *j = report_json(a, &ro);

		report_print_json(out, j);
		json_free(j);
	} else if (a) {
		report_text(out, a, &ro);
	}
	if (r) {
		fclose(out);
		text = masked(r, text, len);
		fputs(text, stdout);
		free(text);
		if (o->redact_map && write_map(r, o->redact_map, d)) {
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
