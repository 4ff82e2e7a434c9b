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
#include "cli/redact.h"
#include "cli/report.h"
#include "cli/savefile.h"
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

struct snapshot_out {
	struct snapshot *snap;
	const char *hostname;
};

static char *mask_member(void *ctx, const char *data, size_t len,
			 size_t *outlen)
{
	return redact_bytes(ctx, data, len, outlen);
}

/* --redact: every member of the snapshot and its host name masked, the
 * map written when --redact-map asks for it.  Returns the masked host
 * name (owned), or NULL when the map could not be written. */
static char *redact_snapshot(const struct options *o, struct snapshot *snap,
			     const struct analysis *a, struct diag *d)
{
	struct redactor *r = redact_new();
	char *host;
	int err = 0;

	redact_add(r, REDACT_HOST, a->hostname);
	redact_add_facts(r, a->fb);
	snapshot_mask(snap, mask_member, r);
	host = redact_text(r, a->hostname, strlen(a->hostname));
	if (o->redact_map)
		err = savefile_write_map(o->redact_map, r, d);
	redact_free(r);
	if (err) {
		free(host);
		return NULL;
	}
	return host;
}

static int fill_snapshot(int fd, void *ctx, char *err, size_t errsize)
{
	struct snapshot_out *so = ctx;

	return snapshot_write(so->snap, fd, so->hostname, err, errsize);
}

int cmd_collect(struct options *o)
{
	struct analysis_opts ao;
	struct answers as = { 0 };
	struct snapshot *snap;
	struct diag *d;
	struct analysis *a = NULL;
	char *path, *host = NULL;
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
	host = o->redact ? redact_snapshot(o, snap, a, d) :
			   xstrdup(a->hostname);
	if (!host) {
		diag_print(d, stderr, "rdmadoctor");
		rc = EXIT_USAGE;
		goto done;
	}
	path = o->output ? xstrdup(o->output) : default_name(host);
	/* The snapshot holds the host's logs: private, whatever the umask. */
	rc = savefile_commit(path, SAVEFILE_MODE_PRIVATE, fill_snapshot,
			     &(struct snapshot_out){ snap, host }, d) ?
		     EXIT_USAGE :
		     0;
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
done:
	free(host);
	analysis_free(a);
out:
	answers_release(&as);
	snapshot_free(snap);
	diag_free(d);
	return rc;
}
