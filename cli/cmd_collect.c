/* collect: record what check reads on this host into a sosreport-layout
 * .tar.gz that analyze reads back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/answers.h"
#include "cli/commands.h"
#include "cli/report.h"
#include "collectors/sources/snapshot.h"
#include "engine/json.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* rdmadoctor-<host>-<UTC time>.tar.gz in the current directory. */
static char *default_name(const char *host)
{
	char stamp[32], *name;
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&now));
	name = xasprintf("rdmadoctor-%s-%s.tar.gz",
			 host && *host ? host : "host", stamp);
	for (char *p = name; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	return name;
}

/* One line per collector: what went into the snapshot, and what not. */
static void print_collectors(FILE *out, const struct fact_base *fb)
{
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(fb, sym_intern_cstr("collector"), &n);

	for (size_t i = 0; i < n; i++) {
		const struct fact *f = fact_base_get(fb, ids[i]);

		fprintf(out, "  %-17s %-9s %s\n", fact_text(f, "name"),
			fact_text(f, "status"), fact_text(f, "detail"));
	}
}

int cmd_collect(struct options *o)
{
	struct analysis_opts ao;
	struct answers as = { 0 };
	struct snapshot *snap;
	struct diag *d;
	struct analysis *a = NULL;
	char *path;
	int rc;

	if (o->nargs) {
		fprintf(stderr,
			"rdmadoctor: error: collect takes no paths; name the output with -o FILE\n");
		return EXIT_USAGE;
	}
	d = diag_new();
	snap = snapshot_new();
	rc = options_analysis(o, &ao, &as, d) ? EXIT_USAGE : 0;
	ao.no_engine = true;
	ao.record = snap;
	if (!rc)
		rc = analysis_run(&ao, d, &a);
	if (!a) {
		diag_print(d, stderr, "rdmadoctor");
		goto out;
	}
	path = o->output ? xstrdup(o->output) : default_name(a->hostname);
	rc = snapshot_write(snap, path, a->hostname, d) ? EXIT_USAGE : 0;
	diag_print(d, stderr, "rdmadoctor");
	if (o->json) {
		struct json *j = json_new_object();

		json_set(j, "snapshot",
			 rc ? json_new_null() : json_new_string(path));
		json_set(j, "files",
			 json_new_int((int64_t)snapshot_count(snap)));
		json_set(j, "collectors", report_collectors_json(a->fb));
		report_print_json(stdout, j);
		json_free(j);
	} else if (!rc) {
		if (!o->quiet)
			print_collectors(stderr, a->fb);
		printf("wrote %s (%zu files); diagnose it with: rdmadoctor analyze %s\n",
		       path, snapshot_count(snap), path);
	}
	free(path);
	analysis_free(a);
out:
	answers_release(&as);
	snapshot_free(snap);
	diag_free(d);
	return rc;
}
