/* Collection: runs every collector that applies to a source, parses loose
 * files, and records what each collector could read as collector facts,
 * so that a rule needing missing evidence is reported as skipped rather
 * than silently not firing. */
#ifndef RD_COLLECT_H
#define RD_COLLECT_H

#include <stdbool.h>

#include "collectors/sources/source.h"
#include "engine/diag.h"
#include "engine/fact.h"
#include "engine/strbuf.h"

/* Called before each step with a short description ("reading
 * /sys/class/infiniband", "running ibstat"). */
typedef void (*collect_progress_fn)(void *arg, const char *step);

struct collect_run;
struct logscan;

/* A collection into fb.  scan is the kb's kernel-log scanner (borrowed,
 * built with the kb; NULL leaves logs without signature hits); d gets
 * what goes wrong, progress (may be NULL) each step. */
struct collect_run *collect_run_new(struct fact_base *fb, struct logscan *scan,
				    struct diag *d,
				    collect_progress_fn progress, void *arg);
/* Gives the run the site's declarative parsers (borrowed; NULL: none):
 * each reads its command's output from every source, and a loose file
 * is offered to them by name (KIND=FILE) and by their markers before the
 * shipped formats. */
struct dparse_set;
void collect_run_parsers(struct collect_run *run,
			 const struct dparse_set *parsers);
/* Runs the collectors that apply to the source. */
/* Opt-in collectors (they do more than read): check --perftest. */
#define COLLECT_PERFTEST 0x1u
void collect_run_allow(struct collect_run *run, unsigned opt_in);

void collect_source(struct collect_run *run, struct source *src);
/* The next collect_source reads the RDMA counters a second time, ms
 * after its first reading (0: once): each a second counter
 * fact with reading 2.  The wait comes before any test the run was
 * allowed that makes traffic of its own (COLLECT_PERFTEST), so that the
 * two readings count the host's traffic, not the test's.  A source
 * without RDMA devices is not waited for. */
void collect_run_sample_again(struct collect_run *run, unsigned ms);
/* Parses one loose file.  format is a format name (KIND of KIND=FILE) or
 * NULL to detect it from the content.  Returns 0, or -EINVAL after
 * reporting an unreadable or unrecognised file (the error lists the known
 * kinds). */
int collect_file(struct collect_run *run, const char *path, const char *format);
/* Records the collector facts.  The run is freed. */
void collect_finish(struct collect_run *run);
/* Fills what the knowledge base knows about collected facts (an adapter's
 * family from its PCI id or model); call once every fact is in. */
void collect_enrich(struct fact_base *fb);

/* Whether every collector that produces facts of kind reported its input
 * missing (or was not run); *inputs gets their inputs, for a 'skipped'
 * entry.  False when the kind is not collected at all. */
bool collect_kind_missing(const struct fact_base *fb, const char *kind,
			  struct strbuf *inputs);

/* The collector table, for --help and documentation. */
size_t collect_collector_count(void);
const char *collect_collector_at(size_t i, const char **inputs,
				 const char **kinds);

#endif
