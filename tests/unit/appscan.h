/* Helpers the application-message tests share: the shipped kb loaded
 * into a fact base, and text or a file scanned with its app_message
 * scanner, freed by done(). */
#ifndef RD_TEST_APPSCAN_H
#define RD_TEST_APPSCAN_H

#include "collectors/parsers/logscan.h"
#include "collectors/parsers/parse_app.h"
#include "engine/diag.h"
#include "engine/kb.h"
#include "parsed.h"

#define APP_FIXTURES "tests/fixtures/app_errors/"

static inline struct fact_base *kb_base(void)
{
	struct fact_base *fb = fact_base_new();
	struct diag *d = diag_new();

	if (kb_load_dir(fb, "kb", "kb", d) < 0) {
		diag_print(d, stderr, "test");
		fail_msg("kb/ does not load");
	}
	diag_free(d);
	return fb;
}

/* The application-message scanner of the current test's kb, freed by
 * done(). */
static struct logscan *scanner;

static inline void use_kb(struct parsed *p, struct emit *e,
			  const char *source)
{
	emit_init(e, p->fb, source);
	scanner = logscan_new_for(p->fb, "app_message", NULL);
	e->app_scan = scanner;
}

/* Scans text with the shipped kb; its facts cite name. */
static inline struct parsed scan_named(const char *name, const char *text,
				       size_t len)
{
	struct parsed p = { kb_base(), 0 };
	struct emit e;

	use_kb(&p, &e, name);
	p.facts = app_scan(&e, text, len);
	return p;
}

static inline struct parsed scan_file(const char *file)
{
	size_t len;
	char *text = slurp(file, &len);
	struct parsed p = scan_named(file, text, len);

	free(text);
	return p;
}

static inline void done(struct parsed *p)
{
	fact_base_free(p->fb);
	logscan_free(scanner);
	scanner = NULL;
}

#endif
