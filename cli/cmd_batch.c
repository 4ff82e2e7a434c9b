/* rdmadoctor batch: many hosts, one bundle each.  The rules and the
 * knowledge base are loaded once; then worker processes forked from here
 * (cli/pool.c) analyse bundle after bundle on that base, rolled back to
 * the kb after each, and send back each report as one JSON object.
 * Results are written in input order, as JSON lines or a line per host,
 * and the run ends with the fleet summary. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/answers.h"
#include "cli/batch_input.h"
#include "cli/commands.h"
#include "cli/fleet.h"
#include "cli/pool.h"
#include "cli/redact.h"
#include "cli/report.h"
#include "cli/savefile.h"
#include "cli/term.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define BUNDLE_TIMEOUT_S 300 /* per bundle, unless --timeout says */
#define BAR_WIDTH 30
#define BAR_REDRAW_S 0.1

struct batch {
	const struct options *o;
	struct batch_inputs in;
	size_t *bundle; /* pool task -> input index */
	size_t nbundles;
	size_t emitted; /* inputs written so far, in order */
	struct analysis_opts ao;
	struct analysis_base base;
	struct fleet *fleet;
	unsigned timeout_ms; /* per bundle */
	bool bar; /* a progress bar on stderr */
	bool bar_shown;
	bool stdout_tty; /* host lines would cross the bar */
	double started, drawn;
	/* --redact: one redactor for the whole fleet, so that a value gets
	 * the same token on every host.  A name is known only once its
	 * host's report arrives, and may appear in lines written before, so
	 * the lines are held (out is a memory stream then) and masked when
	 * the run ends. */
	struct redactor *redact;
	FILE *out; /* where host lines go: stdout, or held */
	char *held;
	size_t nheld;
};



static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- in the worker process ---- */

/* The adapters a host has, for the firmware view. */
static struct json *adapters_json(const struct analysis *a)
{
	struct json *arr = json_new_array();
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(a->fb, sym_intern_cstr("hca"), &n);
	static const char *const fields[] = { "name", "family", "model",
					      "fw_ver" };

	for (size_t i = 0; i < n; i++) {
		const struct fact *f = fact_base_get(a->fb, ids[i]);
		const char *vf = fact_text(f, "virtual_function");
		struct json *o;

		if (vf && !strcmp(vf, "true"))
			continue; /* a VF runs its physical function's FW */
		o = json_new_object();
		for (size_t k = 0; k < ARRAY_SIZE(fields); k++) {
			const char *t = fact_text(f, fields[k]);

			json_set(o, fields[k], json_new_string(t ? t : ""));
		}
		json_push(arr, o);
	}
	return arr;
}

/* Why the analysis of the bundle at path failed: its errors, "file:
 * message; ..." (the file left out when it is the bundle itself). */
static char *reason_of(const struct diag *d, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < diag_count(d); i++) {
		const struct diag_entry *e = diag_get(d, i);

		if (e->level != DIAG_ERROR)
			continue;
		if (sb.len)
			sb_puts(&sb, "; ");
		if (e->file && strcmp(e->file, path))
			sb_printf(&sb, "%s: ", e->file);
		sb_puts(&sb, e->message);
	}
	if (!sb.len)
		sb_puts(&sb, "the bundle could not be read");
	return sb_detach(&sb);
}

/* The messages the analysis left (warnings about the bundle), as the
 * other commands print them. */
static char *messages_of(const struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	diag_print(d, mem, "rdmadoctor");
	fclose(mem);
	return text;
}

static int work(void *arg, size_t task, int fd)
{
	struct batch *b = arg;
	const char *path = b->in.v[b->bundle[task]].path;
	struct analysis_opts ao = b->ao;
	struct report_opts ro = { b->o->explain, "batch", false, false, NULL,
				  0 };
	struct diag *d = diag_new();
	struct analysis *a = NULL;
	struct json *env = json_new_object();
	char *text;
	int rc, err;

	ao.paths = &path;
	ao.npaths = 1;
	ao.base = &b->base;
	rc = analysis_run(&ao, d, &a);
	if (a && !strcmp(a->source_kind, "files")) {
		diag_error(d,
			   "not a bundle: compressed data, not a tar archive");
		analysis_free(a);
		a = NULL;
	}
	if (a) {
		struct report_doc *doc = report_doc_new(a, &ro);

		json_set(env, "exit",
			 json_new_int(rc ? rc : analysis_exit_code(a)));
		json_set(env, "report", report_json(doc));
		report_doc_free(doc);
		json_set(env, "adapters", adapters_json(a));
	} else {
		text = reason_of(d, path);
		json_set(env, "error", json_new_string(text));
		free(text);
		diag_clear(d);
	}
	text = messages_of(d);
	json_set(env, "messages", json_new_string(text));
	free(text);
	text = json_dump(env, false);
	err = pool_write(fd, text, strlen(text));
	/* rolls the base back to the kb, for the worker's next bundle */
	analysis_free(a);
	free(text);
	json_free(env);
	diag_free(d);
	return err ? 1 : 0;
}

/* ---- in the batch process ---- */

static void bar_clear(struct batch *b)
{
	if (b->bar_shown)
		fputs("\r\033[K", stderr);
	b->bar_shown = false;
}

/* The bar counts every input: those that are no bundle are done from
 * the start.  analysed of bundles is what the pool has finished. */
static void tick(void *arg, size_t analysed, size_t bundles)
{
	struct batch *b = arg;
	double t = now(), elapsed = t - b->started;
	size_t total = b->in.n, done = analysed + (total - bundles);
	double rate = elapsed > 0 ? (double)analysed / elapsed : 0;
	int filled = total ? (int)(BAR_WIDTH * done / total) : BAR_WIDTH;
	char eta[32] = "";

	if (!b->bar ||
	    (b->bar_shown && t - b->drawn < BAR_REDRAW_S && done < total))
		return;
	b->drawn = t;
	if (rate > 0 && done < total) {
		long s = (long)((double)(bundles - analysed) / rate + 0.5);

		snprintf(eta, sizeof(eta), "  ETA %ld:%02ld", s / 60, s % 60);
	}
	fprintf(stderr, "\r\033[K[%.*s%*s] %zu/%zu  %.1f/s%s", filled,
		"##############################", BAR_WIDTH - filled, "", done,
		total, rate, eta);
	fflush(stderr);
	b->bar_shown = true;
}

static void emit_line(FILE *out, const struct json *line)
{
	char *s = json_dump(line, false);

	fputs(s, out);
	fputc('\n', out);
	free(s);
}

/* A failed input: into the summary, and out as a line. */
static void emit_failure(struct batch *b, const char *path,
			 const char *reason)
{
	fleet_add_failure(b->fleet, path, reason);
	if (b->o->json) {
		struct json *line = json_new_object(), *src = json_new_object();
		struct json *paths = json_new_array();

		json_set(line, "schema_version", json_new_int(RD_SCHEMA_VERSION));
		json_set(line, "version", json_new_string(RD_VERSION));
		json_set(src, "kind", json_new_string("unknown"));
		json_set(src, "path", json_new_string(path));
		json_push(paths, json_new_string(path));
		json_set(src, "paths", paths);
		json_set(src, "hostname", json_new_string(""));
		json_set(line, "source", src);
		json_set(line, "error", json_new_string(reason));
		emit_line(b->out, line);
		json_free(line);
	} else {
		struct json *h = fleet_last_host(b->fleet);

		report_fleet_host_text(b->out, h, b->o->colored);
		json_free(h);
	}
}

/* --redact: the host's name, from its report, is masked wherever it
 * appears, once the run ends. */
static void learn_host(struct batch *b, const struct json *env)
{
	const struct json *src = json_get(json_get(env, "report"), "source");

	if (b->redact)
		redact_add(b->redact, REDACT_HOST,
			   json_text(json_get(src, "hostname")));
}

static void emit_host(struct batch *b, const char *path,
		      const struct json *env)
{
	const struct json *report = json_get(env, "report");

	fleet_add_host(b->fleet, path, report, json_get(env, "adapters"),
		       (int)json_as_int(json_get(env, "exit")));
	if (b->o->json) {
		emit_line(b->out, report);
	} else {
		struct json *h = fleet_last_host(b->fleet);

		report_fleet_host_text(b->out, h, b->o->colored);
		json_free(h);
	}
}

/* --redact: the held host lines, masked now that every host's name is
 * known; a JSON line string by string, so no value breaks its syntax. */
static void release_held(struct batch *b)
{
	const char *p;

	if (!b->redact)
		return;
	fclose(b->out);
	b->out = stdout;
	if (!b->o->json) {
		char *text = redact_text(b->redact, b->held ? b->held : "",
					 b->nheld);

		fputs(text, stdout);
		free(text);
		return;
	}
	for (p = b->held; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char err[160];
		struct json *j = json_parse(p, n, err, sizeof(err));

		if (j) {
			struct json *m = redact_json(b->redact, j);

			emit_line(stdout, m);
			json_free(m);
			json_free(j);
		}
		p += n + (nl != NULL);
	}
}

/* Inputs before index that were never bundles go out in their place. */
static void emit_until(struct batch *b, size_t index)
{
	for (; b->emitted < index; b->emitted++)
		if (b->in.v[b->emitted].problem)
			emit_failure(b, b->in.v[b->emitted].path,
				     b->in.v[b->emitted].problem);
}

static char *failure_of(const struct batch *b, const struct pool_result *r)
{
	if (r->outcome == POOL_TIMED_OUT)
		return xasprintf(
			"the analysis took longer than %g s and was stopped (--timeout)",
			b->timeout_ms / 1000.0);
	if (r->outcome == POOL_INTERRUPTED)
		return xstrdup("not analysed: the batch was interrupted");
	if (!r->started)
		return xasprintf("cannot start a worker process: %s",
				 strerror(r->status));
	if (WIFSIGNALED(r->status))
		return xasprintf("the analysis crashed (signal %d, %s)",
				 WTERMSIG(r->status),
				 strsignal(WTERMSIG(r->status)));
	return xasprintf("the analysis process exited with status %d",
			 WEXITSTATUS(r->status));
}

static void done(void *arg, const struct pool_result *r)
{
	struct batch *b = arg;
	size_t idx = b->bundle[r->index];
	const char *path = b->in.v[idx].path;
	struct json *env = NULL;
	const char *msgs;
	char err[160];

	if (b->stdout_tty)
		bar_clear(b);
	emit_until(b, idx);
	if (r->outcome == POOL_DONE)
		env = json_parse(r->output, r->len, err, sizeof(err));
	learn_host(b, env);
	msgs = env ? json_text(json_get(env, "messages")) : NULL;
	if (msgs && *msgs) {
		bar_clear(b);
		fputs(msgs, stderr);
	}
	if (env && json_get(env, "report")) {
		emit_host(b, path, env);
	} else if (env && json_get(env, "error")) {
		emit_failure(b, path, json_text(json_get(env, "error")));
	} else {
		char *why =
			r->outcome == POOL_DONE ?
				xasprintf(
					"unreadable result from the analysis (%s)",
					err) :
				failure_of(b, r);

		emit_failure(b, path, why);
		free(why);
	}
	json_free(env);
	b->emitted = idx + 1;
	fflush(stdout);
}

/* --html and --markdown: the fleet summary rendered by render, written
 * atomically to path. */
static int write_page(const struct json *summary,
		      void (*render)(FILE *, const struct json *),
		      const char *path)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct diag *d;
	int err;

	if (!mem)
		return -ENOMEM;
	d = diag_new();
	render(mem, summary);
	fclose(mem);
	err = savefile_write_text(path, text, d);
	diag_print(d, stderr, "rdmadoctor");
	diag_free(d);
	free(text);
	return err;
}

/* --redact-map: the tokens of the whole run. */
static int write_map(const struct batch *b)
{
	struct diag *d = diag_new();
	int err = savefile_write_map(b->o->redact_map, b->redact, d);

	diag_print(d, stderr, "rdmadoctor");
	diag_free(d);
	return err;
}

static int finish(struct batch *b, int signo)
{
	struct json *doc = json_new_object();
	const struct json *summary;
	int rc;

	bar_clear(b);
	emit_until(b, b->in.n);
	release_held(b);
	rc = fleet_exit_code(b->fleet);
	json_set(doc, "schema_version", json_new_int(RD_SCHEMA_VERSION));
	json_set(doc, "fleet", fleet_summary(b->fleet));
	if (b->redact) {
		struct json *m = redact_json(b->redact, doc);

		json_free(doc);
		doc = m;
	}
	summary = json_get(doc, "fleet");
	if (b->o->json)
		emit_line(stdout, doc);
	else
		report_fleet_text(stdout, summary, b->o->colored);
	fflush(stdout);
	if (b->o->html && write_page(summary, report_html_fleet, b->o->html) &&
	    rc < EXIT_USAGE)
		rc = EXIT_USAGE;
	if (b->o->markdown &&
	    write_page(summary, report_markdown_fleet, b->o->markdown) &&
	    rc < EXIT_USAGE)
		rc = EXIT_USAGE;
	json_free(doc);
	if (b->redact && b->o->redact_map && write_map(b) && rc < EXIT_USAGE)
		rc = EXIT_USAGE;
	return signo ? 128 + signo : rc;
}

/* How a summary line starts, as emit_line writes it (and as rdmadoctor
 * before schema_version wrote it); host lines start otherwise. */
static const char *const fleet_line[] = { "{\"schema_version\":1,\"fleet\":",
					  "{\"fleet\":" };

static bool is_fleet_line(const char *line)
{
	for (size_t i = 0; i < sizeof(fleet_line) / sizeof(*fleet_line); i++)
		if (!strncmp(line, fleet_line[i], strlen(fleet_line[i])))
			return true;
	return false;
}

/* Adds the fleet summaries in the JSON lines of path (batch --json
 * output).  Returns 0, or -EINVAL after reporting to d. */
static int merge_file(struct batch *b, const char *path, struct diag *d)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, found = 0;
	ssize_t n;
	int lineno = 0;

	if (!f) {
		diag_at(d, DIAG_ERROR, path, 0, 0, NULL, "cannot read: %s",
			strerror(errno));
		return -EINVAL;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		char err[160];

		lineno++;
		if (!is_fleet_line(line))
			continue;
		if (fleet_merge_line(b->fleet, line, (size_t)n, err,
				     sizeof(err))) {
			diag_at(d, DIAG_ERROR, path, lineno, 0, NULL,
				"not a fleet summary: %s", err);
			break;
		}
		found++;
	}
	free(line);
	fclose(f);
	if (!found && !diag_errors(d))
		diag_at(d, DIAG_ERROR, path, 0, 0, NULL,
			"no fleet summary in it (it should be the output of 'rdmadoctor batch --json')");
	return diag_errors(d) ? -EINVAL : 0;
}

/* --merge: one fleet out of the summaries of earlier runs. */
static int merge(struct batch *b, struct diag *d)
{
	for (size_t i = 0; i < b->o->nargs; i++)
		if (merge_file(b, b->o->args[i], d))
			break;
	diag_print(d, stderr, "rdmadoctor");
	if (diag_errors(d))
		return EXIT_USAGE;
	return finish(b, 0);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "rdmadoctor: error: %s\n", msg);
	return EXIT_USAGE;
}

static int run(struct batch *b, struct diag *d)
{
	struct pool_opts po = { 0 };
	int signo = 0, rc;

	for (size_t i = 0; i < b->o->nargs; i++)
		batch_inputs_add(&b->in, b->o->args[i], stdin);
	b->bundle = xcalloc(b->in.n + 1, sizeof(*b->bundle));
	for (size_t i = 0; i < b->in.n; i++)
		if (!b->in.v[i].problem)
			b->bundle[b->nbundles++] = i;
	/* Rules, kb and its log scanner are loaded once here; every worker
	 * forked from this process gets its own copy, and reuses it for each
	 * of its bundles. */
	rc = analysis_base_load(&b->ao, d, &b->base);
	diag_print(d, stderr, "rdmadoctor");
	if (rc)
		return rc;
	po.jobs = b->o->jobs ? b->o->jobs : pool_cpus();
	po.timeout_ms = b->timeout_ms;
	po.work = work;
	po.done = done;
	po.tick = tick;
	po.arg = b;
	b->started = now();
	if (b->nbundles && pool_run(b->nbundles, &po, &signo) == -EINTR) {
		bar_clear(b); /* escapes only where a bar was drawn */
		fprintf(stderr, "rdmadoctor: interrupted (%s)\n",
			strsignal(signo));
	}
	return finish(b, signo);
}

int cmd_batch(struct options *o)
{
	struct batch b = { .o = o };
	struct answers as = { 0 };
	struct diag *d = diag_new();
	int rc = EXIT_USAGE;

	if (!o->nargs)
		rc = usage_error(
			"batch needs at least one path (bundles, a directory of bundles, a list, or '-')");
	else if (o->merge && o->redact)
		/* each shard's tokens count from 1: merged, two hosts would
		 * share one */
		rc = usage_error(
			"batch --merge does not take --redact: run the shards without it and redact the merge's pages, or run one batch --redact over every bundle");
	else if (!options_analysis(o, &b.ao, &as, d)) {
		/* each worker sets its one bundle, and shows no progress */
		b.ao.paths = NULL;
		b.ao.npaths = 0;
		b.ao.progress = false;
		b.timeout_ms = o->timeout_set ? o->timeout_ms :
						BUNDLE_TIMEOUT_S * 1000;
		b.bar = !o->quiet && isatty(fileno(stderr)) &&
			!getenv("NO_PROGRESS");
		b.stdout_tty = isatty(fileno(stdout));
		b.fleet = fleet_new();
		b.out = stdout;
		if (o->redact) {
			b.redact = redact_new();
			b.out = open_memstream(&b.held, &b.nheld);
			if (!b.out) {
				redact_free(b.redact);
				b.redact = NULL;
				b.out = stdout;
				rc = usage_error("--redact: out of memory");
				goto done;
			}
		}
		rc = o->merge ? merge(&b, d) : run(&b, d);
	} else {
		diag_print(d, stderr, "rdmadoctor");
	}
done:
	if (b.out && b.out != stdout)
		fclose(b.out); /* a run that ended before its summary */
	free(b.held);
	analysis_base_release(&b.base);
	redact_free(b.redact);
	fleet_free(b.fleet);
	free(b.bundle);
	batch_inputs_release(&b.in);
	answers_release(&as);
	diag_free(d);
	return rc;
}
