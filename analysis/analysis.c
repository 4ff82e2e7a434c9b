/* The analysis pipeline shared by check, analyze, facts and guide. */
#include "analysis/analysis.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/layers.h"
#include "analysis/site_data.h"
#include "collectors/collect.h"
#include "collectors/parsers/formats.h"
#include "collectors/parsers/logscan.h"
#include "collectors/sources/source.h"
#include "engine/kb.h"
#include "engine/rule_load.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

#ifndef RD_DATADIR
#define RD_DATADIR "/usr/local/share/rdmadoctor"
#endif

const char *layer_status_to_str(enum layer_status s)
{
	static const char *const names[] = { "ok", "warning", "fault",
					     "unknown" };

	return names[s];
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

const char *analysis_datadir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("RDMADOCTOR_DATADIR");
	char exe[PATH_MAX], probe[PATH_MAX + 16];
	ssize_t n;

	if (env && *env)
		return env;
	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(probe, sizeof(probe), "%s/rules", exe);
		if (is_dir(probe)) {
			snprintf(probe, sizeof(probe), "%s/kb", exe);
			if (is_dir(probe)) {
				snprintf(dir, sizeof(dir), "%s", exe);
				return dir;
			}
		}
	}
	snprintf(dir, sizeof(dir), "%s", RD_DATADIR);
	return dir;
}

static int load_overlay(struct rule_set *rs, const char *path, int level,
			bool optional, struct diag *d)
{
	if (!is_dir(path) && !access(path, R_OK))
		return rule_set_load_file(rs, path, NULL, level, d);
	return rule_set_load_dir(rs, path, NULL, level, optional, d);
}

struct rule_set *analysis_load_rules(const char *const *dirs, size_t ndirs,
				     bool site, struct diag *d)
{
	struct rule_set *rs = rule_set_new();
	const char *home = getenv("HOME");
	char *path = xasprintf("%s/rules", analysis_datadir());
	int err = rule_set_load_dir(rs, path, "rules", 0, false, d);

	free(path);
	if (site && !getenv("RDMADOCTOR_NO_SITE_RULES")) {
		err |= load_overlay(rs, "/etc/rdmadoctor/rules.d", 1, true, d);
		if (home) {
			path = xasprintf("%s/.config/rdmadoctor/rules.d", home);
			err |= load_overlay(rs, path, 2, true, d);
			free(path);
		}
	}
	for (size_t i = 0; i < ndirs; i++)
		err |= load_overlay(rs, dirs[i], 3 + (int)i, false, d);
	if (!err)
		err = rule_set_check(rs, d);
	if (err) {
		rule_set_free(rs);
		return NULL;
	}
	return rs;
}

static void progress(void *arg, const char *step)
{
	(void)arg;
	fprintf(stderr, "\r\033[K  %s ...", step);
	fflush(stderr);
}

/* "KIND=FILE" when KIND names a format. */
static const char *split_kind(const char *arg, char *kind, size_t size)
{
	const char *eq = strchr(arg, '=');

	if (!eq || (size_t)(eq - arg) >= size)
		return NULL;
	memcpy(kind, arg, (size_t)(eq - arg));
	kind[eq - arg] = '\0';
	if (!format_find(kind) && access(arg, F_OK) == 0)
		return NULL; /* a file whose name holds '=' */
	return eq + 1;
}

int analysis_answer(struct analysis *a, const char *question, const char *value,
		    const struct answer_origin *where)
{
	const struct question *q = rule_set_question(a->rs, question);
	char *text;
	struct fact *f;
	bool ok = false, added;

	for (size_t k = 0; q && k < q->nchoices; k++)
		ok |= !strcmp(q->choices[k].value, value);
	if (!q || !ok) {
		struct strbuf sb = STRBUF_INIT;

		if (!q)
			sb_printf(&sb, "unknown question '%s'", question);
		else
			sb_printf(&sb, "'%s' is not an answer to question '%s'",
				  value, question);
		for (size_t k = 0; q && k < q->nchoices; k++)
			sb_printf(&sb, "%s%s", k ? ", " : " (choices: ",
				  q->choices[k].value);
		if (q)
			sb_putc(&sb, ')');
		diag_at(a->d, DIAG_ERROR, where ? where->file : NULL,
			where ? where->line : 0, where ? where->col : 0, NULL,
			"%s", sb_str(&sb));
		sb_release(&sb);
		return -EINVAL;
	}
	text = xasprintf("%s=%s", question, value);
	f = fact_base_begin(a->fb, sym_intern_cstr("answer"),
			    fact_base_source(a->fb, "user"), 0, text,
			    strlen(text));
	free(text);
	fact_put(a->fb, f, sym_intern_cstr("question"), value_cstr(question), 0,
		 NULL, 0);
	fact_put(a->fb, f, sym_intern_cstr("value"), value_cstr(value), 0, NULL,
		 0);
	if (!a->engine) {
		fact_base_commit(a->fb, f, &added);
		return 0;
	}
	engine_add_fact(a->engine, f);
	return engine_run(a->engine);
}

static int add_answers(struct analysis *a, const struct analysis_opts *o,
		       struct diag *d)
{
	for (size_t i = 0; i < o->nanswers; i++) {
		const struct answer_origin *at =
			o->answer_at && o->answer_at[i].file ?
				&o->answer_at[i] :
				NULL;
		const char *eq = strchr(o->answers[i], '=');
		char *qid;
		int err;

		if (!eq) {
			diag_error(d, "--answer takes question=value, not '%s'",
				   o->answers[i]);
			return -EINVAL;
		}
		qid = xstrndup(o->answers[i], (size_t)(eq - o->answers[i]));
		err = analysis_answer(a, qid, eq + 1, at);
		free(qid);
		if (err)
			return err;
	}
	return 0;
}

static void add_source_path(struct analysis *a, const char *path)
{
	a->source_paths = xrealloc(a->source_paths,
				   (a->nsource_paths + 1) *
					   sizeof(*a->source_paths));
	a->source_paths[a->nsource_paths++] = xstrdup(path);
}

/* Collects from --root, the live host, or the analyze paths. */
static int collect_all(struct analysis *a, const struct analysis_opts *o,
		       struct diag *d)
{
	struct source_opts so = { .timeout_ms = o->timeout_ms };
	struct collect_run *run;
	struct strbuf where = STRBUF_INIT;
	bool files = false;
	int err = 0;

	if (o->progress_fn)
		run = collect_run_new(a->fb, a->scan, d, o->progress_fn,
				      o->progress_arg);
	else
		run = collect_run_new(a->fb, a->scan, d,
				      o->progress ? progress : NULL, NULL);
	if (o->perftest)
		collect_run_allow(run, COLLECT_PERFTEST);
	collect_run_parsers(run, a->parsers);
	if (o->live || o->root) {
		struct source *s =
			o->root ? source_dir_new(o->root, true, &so, d) :
				  source_live_new(&so);

		if (!s) {
			collect_finish(run);
			return -EINVAL;
		}
		if (o->record)
			source_record(s, o->record);
		collect_run_sample_again(run, o->sample_interval_ms);
		collect_source(run, s);
		a->source_kind = source_kind_to_str(source_kind(s));
		sb_puts(&where, o->root ? o->root : "/");
		add_source_path(a, o->root ? o->root : "/");
		source_free(s);
	}
	for (size_t i = 0; i < o->npaths && !err; i++) {
		char kind[64];
		const char *file = split_kind(o->paths[i], kind, sizeof(kind));
		struct source *s;

		sb_printf(&where, "%s%s", where.len ? " " : "", o->paths[i]);
		add_source_path(a, o->paths[i]);
		s = file ? NULL : source_open(o->paths[i], &so, d, &err);
		if (err)
			break;
		if (!s) {
			err = collect_file(run, file ? file : o->paths[i],
					   file ? kind : NULL);
			files = true;
			continue;
		}
		collect_source(run, s);
		if (!a->source_kind || !strcmp(a->source_kind, "files"))
			a->source_kind = source_kind_to_str(source_kind(s));
		source_free(s);
	}
	if (!a->source_kind)
		a->source_kind = files ? "files" : "live";
	a->source_path = sb_detach(&where);
	if (o->progress)
		fputs("\r\033[K", stderr);
	collect_finish(run);
	return err;
}

static void add_word(char ***list, size_t *n, const char *what)
{
	size_t cap = *n;

	xgrow(list, &cap, *n + 1, sizeof(**list));
	(*list)[(*n)++] = xstrdup(what);
}

static void free_words(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static void add_missing(struct skipped *s, const char *what)
{
	add_word(&s->missing, &s->nmissing, what);
}

/* Rules that did not fire because evidence or an answer is missing. */
/* A rule on kb facts the kb lacks (a site profile no overlay gives) does
 * not apply here: it is not waiting on evidence. */
static bool needs_absent_kb(const struct analysis *a, const struct rule *r)
{
	for (size_t p = 0; p < r->npatterns; p++) {
		const struct vocab_kind *k = vocab_kind(r->patterns[p].kind);
		size_t n;

		if (r->patterns[p].type != PATTERN_MATCH || !k ||
		    strcmp(k->source, "kb"))
			continue;
		fact_base_of_kind(a->fb, r->patterns[p].kind, &n);
		if (!n)
			return true;
	}
	return false;
}

static void find_skipped(struct analysis *a)
{
	size_t cap = 0;

	for (size_t i = 0; i < rule_set_count(a->rs); i++) {
		const struct rule *r = rule_set_at(a->rs, i);
		struct skipped s = { 0 };
		char **qs;
		size_t nq;

		if (engine_rule_fired(a->engine, r))
			continue;
		if (engine_waits_for_answers(a->engine, r, &qs, &nq)) {
			for (size_t k = 0; k < nq; k++) {
				char *m = xasprintf("answer to question '%s'",
						    qs[k]);

				add_missing(&s, m);
				add_word(&s.questions, &s.nquestions, qs[k]);
				free(m);
				free(qs[k]);
			}
		}
		free(qs);
		if (needs_absent_kb(a, r))
			continue;
		for (size_t p = 0; p < r->npatterns; p++) {
			const char *kind = sym_str(r->patterns[p].kind);
			struct strbuf in = STRBUF_INIT;
			size_t n;

			if (r->patterns[p].type != PATTERN_MATCH)
				continue;
			fact_base_of_kind(a->fb, r->patterns[p].kind, &n);
			if (!n && collect_kind_missing(a->fb, kind, &in)) {
				char *m = xasprintf("%s facts (from %s)", kind,
						    sb_str(&in));
				bool dup = false;

				for (size_t k = 0; k < s.nmissing; k++)
					dup |= !strcmp(s.missing[k], m);
				if (!dup) {
					add_missing(&s, m);
					add_word(&s.kinds, &s.nkinds, kind);
				}
				free(m);
			}
			sb_release(&in);
		}
		if (!s.nmissing)
			continue;
		s.id = xstrdup(r->id);
		xgrow(&a->skipped, &cap, a->nskipped + 1, sizeof(*a->skipped));
		a->skipped[a->nskipped++] = s;
	}
}

static void host_name(struct analysis *a)
{
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(a->fb, sym_intern_cstr("host"), &n);
	const char *h =
		n ? fact_text(fact_base_get(a->fb, ids[0]), "hostname") : NULL;

	a->hostname = xstrdup(h ? h : "");
}

static void free_derived(struct analysis *a)
{
	diagnosis_list_free(a->dl);
	a->dl = NULL;
	for (size_t i = 0; i < a->nskipped; i++) {
		struct skipped *sk = &a->skipped[i];

		free_words(sk->missing, sk->nmissing);
		free_words(sk->kinds, sk->nkinds);
		free_words(sk->questions, sk->nquestions);
		free(sk->id);
	}
	free(a->skipped);
	a->skipped = NULL;
	a->nskipped = 0;
	for (int i = 0; i < LAYER_COUNT; i++) {
		free(a->layers[i].summary);
		a->layers[i].summary = NULL;
	}
}

void analysis_refresh(struct analysis *a)
{
	free_derived(a);
	a->dl = diagnosis_collect(a->engine, a->fb);
	find_skipped(a);
	layers_judge(a);
}

int analysis_kb_load(struct diag *d, struct fact_base **fb,
		     struct logscan **scan)
{
	char *kbdir = xasprintf("%s/kb", analysis_datadir());
	size_t errors = diag_errors(d);
	int rc;

	*fb = fact_base_new();
	*scan = NULL;
	rc = kb_load_dir(*fb, kbdir, "kb", d);
	free(kbdir);
	if (rc >= 0)
		*scan = logscan_new(*fb, d);
	if (rc < 0 || diag_errors(d) > errors) {
		logscan_free(*scan);
		fact_base_free(*fb);
		*fb = NULL;
		*scan = NULL;
		return EXIT_RULES;
	}
	return 0;
}

/* analysis_base_load without the mark: for an analysis that owns what
 * it loads, and never rolls back. */
static int base_load(const struct analysis_opts *o, struct diag *d,
		     struct analysis_base *b)
{
	int site;

	b->fb = NULL;
	b->scan = NULL;
	b->parsers = NULL;
	b->rs = analysis_load_rules(o->rule_dirs, o->nrule_dirs,
				    !o->no_site_rules, d);
	if (!b->rs)
		return EXIT_RULES;
	if (analysis_kb_load(d, &b->fb, &b->scan)) {
		analysis_base_release(b);
		return EXIT_RULES;
	}
	site = site_data_load(o->rule_dirs, o->nrule_dirs, !o->no_site_rules,
			      b->rs, b->fb, &b->parsers, d);
	if (site < 0) {
		analysis_base_release(b);
		return EXIT_RULES;
	}
	if (site > 0) {
		/* a site's kb may add signatures: the scanner covers them */
		logscan_free(b->scan);
		b->scan = logscan_new(b->fb, d);
	}
	return 0;
}

int analysis_base_load(const struct analysis_opts *o, struct diag *d,
		       struct analysis_base *b)
{
	int rc = base_load(o, d, b);

	/* A shared base serves many analyses, each perhaps in a forked
	 * worker: build the scanner once here, before any fork, rather than
	 * in every worker that reads a log. */
	if (!rc) {
		logscan_prepare(b->scan);
		fact_base_mark(b->fb);
	}
	return rc;
}

void analysis_base_release(struct analysis_base *b)
{
	logscan_free(b->scan);
	fact_base_free(b->fb);
	rule_set_free(b->rs);
	dparse_set_free(b->parsers);
	b->fb = NULL;
	b->rs = NULL;
	b->scan = NULL;
	b->parsers = NULL;
}

int analysis_run(const struct analysis_opts *o, struct diag *d,
		 struct analysis **out)
{
	struct analysis *a = xcalloc(1, sizeof(*a));
	struct analysis_base base;
	struct engine_stats stats;

	*out = NULL;
	a->d = d;
	if (o->base) {
		base = *o->base;
		a->borrowed = true;
	} else if (base_load(o, d, &base)) {
		analysis_free(a);
		return EXIT_RULES;
	}
	a->rs = base.rs;
	a->fb = base.fb;
	a->scan = base.scan;
	a->parsers = base.parsers;
	if (collect_all(a, o, d) || add_answers(a, o, d) ||
	    (o->seed && o->seed(a->fb, a->rs, o->seed_arg, d))) {
		analysis_free(a);
		return EXIT_USAGE;
	}
	collect_enrich(a->fb);
	host_name(a);
	*out = a;
	if (o->no_engine)
		return 0;
	a->engine = engine_new(a->rs, a->fb, d);
	a->engine_rc = engine_run(a->engine);
	engine_stats(a->engine, &stats);
	if (stats.regex_limit_hits && !a->engine_rc)
		a->engine_rc = -E2BIG;
	analysis_refresh(a);
	return a->engine_rc ? EXIT_RULES : 0;
}

void analysis_free(struct analysis *a)
{
	if (!a)
		return;
	free_derived(a);
	engine_free(a->engine);
	if (a->borrowed) {
		fact_base_rollback(a->fb);
	} else {
		logscan_free(a->scan);
		fact_base_free(a->fb);
		rule_set_free(a->rs);
		dparse_set_free(a->parsers);
	}
	free(a->source_path);
	for (size_t i = 0; i < a->nsource_paths; i++)
		free(a->source_paths[i]);
	free(a->source_paths);
	free(a->hostname);
	free(a);
}

bool analysis_insufficient(const struct analysis *a)
{
	if (a->dl && diagnosis_any_at_least(a->dl, SEVERITY_WARNING))
		return false;
	for (int l = 0; l < LAYER_COUNT; l++)
		if (a->layers[l].status != LAYER_UNKNOWN)
			return false;
	return true;
}

int analysis_exit_code(const struct analysis *a)
{
	if (a->engine_rc)
		return EXIT_RULES;
	if (a->dl && diagnosis_any_at_least(a->dl, SEVERITY_WARNING))
		return EXIT_DIAGNOSED;
	return analysis_insufficient(a) ? EXIT_NO_EVIDENCE : EXIT_HEALTHY;
}
