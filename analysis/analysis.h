/* One analysis: load rules and kb, collect from the sources, run the
 * engine, rank the diagnoses, and judge each layer.  check, analyze,
 * facts and the guided session all go through here. */
#ifndef RD_ANALYSIS_H
#define RD_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "collectors/collect.h"
#include "engine/diag.h"
#include "engine/diagnosis.h"
#include "engine/engine.h"
#include "engine/fact.h"
#include "engine/rule.h"

struct snapshot;
struct analysis_base;
struct logscan;

/* Exit codes (README "Exit codes"). */
enum exit_code {
	EXIT_HEALTHY = 0, /* no diagnosis at warning or above */
	EXIT_DIAGNOSED = 1, /* at least one */
	EXIT_USAGE = 2, /* usage, input or system error */
	EXIT_RULES = 3, /* rules or kb failed to load or to run */
	EXIT_NO_EVIDENCE = 4, /* no layer could be judged: never a green 0 */
};

/* Where an answer was written: an --answers file position (file NULL:
 * the command line). */
struct answer_origin {
	const char *file;
	int line, col;
};

struct analysis_opts {
	const char *root; /* check --root */
	const char **paths; /* analyze PATH... (KIND=FILE allowed) */
	size_t npaths;
	bool live; /* check without --root */
	const char **rule_dirs; /* --rules overlays, in order */
	size_t nrule_dirs;
	unsigned timeout_ms;
	bool progress; /* progress lines on stderr */
	collect_progress_fn progress_fn; /* instead of the stderr lines */
	void *progress_arg;
	bool no_engine; /* facts only */
	const char **answers; /* "question=value" */
	const struct answer_origin *answer_at; /* where each came from, or NULL */
	size_t nanswers;
	struct snapshot *record; /* collect: record what the host source serves */
	bool no_site_rules; /* leave out /etc and ~/.config overlays */
	bool perftest; /* run the loopback bandwidth test (live) */
	/* Live or --root: read the RDMA counters again this long after the
	 * first reading (0: once). */
	unsigned sample_interval_ms;
	/* Called after collection, before the engine runs: facts of its own
	 * (rules test's inline facts, which may be of kinds the rule set rs
	 * declares).  Nonzero fails the analysis. */
	int (*seed)(struct fact_base *fb, const struct rule_set *rs, void *arg,
		    struct diag *d);
	void *seed_arg;
	/* Rules and knowledge base loaded beforehand (analysis_base_load),
	 * or NULL to load them.  The analysis borrows them: its facts go
	 * into the base's fact base, and analysis_free rolls that back to
	 * the knowledge base alone, so that one base serves analysis after
	 * analysis (rules test's cases, a batch worker's bundles), one at a
	 * time. */
	const struct analysis_base *base;
};

enum layer_status {
	LAYER_OK,
	LAYER_WARNING,
	LAYER_FAULT,
	LAYER_UNKNOWN,
};

const char *layer_status_to_str(enum layer_status s);

struct layer_view {
	enum layer_status status;
	char *summary;
};

/* A rule that did not fire because evidence or an answer is missing:
 * what it needs in words, and the same as data (the fact kinds no
 * collector could give, the questions not answered).  missing holds the
 * questions' words first, then the kinds', one to each, so that
 * missing[nquestions + k] speaks of kinds[k]. */
struct skipped {
	char *id;
	char **missing;
	size_t nmissing;
	char **kinds;
	size_t nkinds;
	char **questions;
	size_t nquestions;
};

struct dparse_set;

struct analysis {
	struct rule_set *rs;
	struct fact_base *fb;
	struct dparse_set *parsers; /* the overlays' parsers, or NULL */
	struct logscan *scan; /* the kb's kernel-log scanner */
	struct engine *engine;
	struct diagnosis_list *dl;
	struct diag *d;
	const char *source_kind;
	char *source_path; /* the paths read, joined by spaces */
	char **source_paths; /* each of them: --root or "/", then the paths */
	size_t nsource_paths;
	char *hostname;
	struct layer_view layers[LAYER_COUNT];
	struct skipped *skipped;
	size_t nskipped;
	int engine_rc;
	bool borrowed; /* rs, fb, scan and parsers are an analysis_base's */
};

/* Where the shipped rules/ and kb/ are: $RDMADOCTOR_DATADIR, else beside
 * the executable (a build tree), else the install prefix. */
const char *analysis_datadir(void);

/* Loads the shipped rules, the system and user overlays (when site) and
 * the --rules directories.  Returns NULL after reporting to d. */
struct rule_set *analysis_load_rules(const char *const *dirs, size_t ndirs,
				     bool site, struct diag *d);

/* The rules (shipped, site overlays unless no_site_rules, the --rules
 * directories of o), a fact base holding the knowledge base, and the
 * kernel-log scanner built from the kb's signatures. */
struct analysis_base {
	struct rule_set *rs;
	struct fact_base *fb;
	struct logscan *scan;
	struct dparse_set *parsers; /* the overlays' parsers/, or NULL */
};

/* Loads the knowledge base (kb/ of the data directory) into a new fact
 * base and makes its log scanner (whose automaton is built when a log is
 * first scanned: logscan_new), reporting each mistake (a signature
 * pattern that does not compile among them) to d at file:line:col.
 * Returns 0 with *fb and *scan owned by the caller, or EXIT_RULES. */
int analysis_kb_load(struct diag *d, struct fact_base **fb,
		     struct logscan **scan);

/* Loads o's rules, the knowledge base and the overlays' kb/ and
 * parsers/ (analysis/site_data.h) into b, builds its log scanner's
 * automaton now (once, before any worker forks), and marks its fact base
 * (fact_base_mark) for the analyses that borrow it.  Returns 0, or
 * EXIT_RULES after reporting to d (b is then empty). */
int analysis_base_load(const struct analysis_opts *o, struct diag *d,
		       struct analysis_base *b);
/* Frees what b holds and empties it. */
void analysis_base_release(struct analysis_base *b);

/* Runs the whole analysis, on o->base when given (which must have no
 * other analysis on it).  Returns 0 with *out set, or an exit code
 * (EXIT_USAGE, EXIT_RULES) after reporting to d; the analysis is still
 * returned for EXIT_RULES at run time so that what was found can be
 * shown. */
int analysis_run(const struct analysis_opts *o, struct diag *d,
		 struct analysis **out);
/* Frees a; an analysis on a borrowed base rolls its fact base back to
 * the base's mark instead.  NULL does nothing. */
void analysis_free(struct analysis *a);

/* Re-ranks and re-judges after facts were added (guided answers). */
void analysis_refresh(struct analysis *a);

/* Adds the answer fact question=value (provenance "user") after checking
 * that the question exists and value is one of its choices; with the
 * engine running, the rules it enables fire.  Returns 0, -EINVAL after
 * reporting to a->d (at where, when not NULL), or the engine's error. */
int analysis_answer(struct analysis *a, const char *question, const char *value,
		    const struct answer_origin *where);

/* Whether the evidence let no layer be judged and nothing at warning or
 * above was found: the verdict is "insufficient evidence", not healthy. */
bool analysis_insufficient(const struct analysis *a);

/* The exit code for a finished analysis. */
int analysis_exit_code(const struct analysis *a);

#endif
