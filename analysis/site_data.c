/* Loading an overlay's kb/ and parsers/ directories. */
#include "analysis/site_data.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "engine/kb.h"
#include "engine/xalloc.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int site_data_each_dir(const char *const *dirs, size_t ndirs, bool site,
		       int (*fn)(const char *dir, void *arg), void *arg)
{
	const char *home = getenv("HOME");
	int rc = 0;

	if (site && !getenv("RDMADOCTOR_NO_SITE_RULES")) {
		if (is_dir("/etc/rdmadoctor/rules.d"))
			rc = fn("/etc/rdmadoctor/rules.d", arg);
		if (!rc && home) {
			char *path =
				xasprintf("%s/.config/rdmadoctor/rules.d", home);

			if (is_dir(path))
				rc = fn(path, arg);
			free(path);
		}
	}
	for (size_t i = 0; i < ndirs && !rc; i++)
		if (is_dir(dirs[i]))
			rc = fn(dirs[i], arg);
	return rc;
}

struct loading {
	const struct rule_set *rs;
	struct fact_base *fb;
	struct dparse_set *parsers;
	struct diag *d;
	int entries;
	bool failed;
};

static bool declares(const void *arg, uint32_t kind, uint32_t field)
{
	return rule_set_declares(arg, kind, field);
}

static int load_one(const char *dir, void *arg)
{
	struct loading *l = arg;
	struct kb_declared decl = { declares, l->rs };
	char *kb = xasprintf("%s/kb", dir), *parsers;

	if (is_dir(kb)) {
		int n = kb_load_dir_declared(l->fb, kb, NULL, &decl, l->d);

		if (n < 0)
			l->failed = true;
		else
			l->entries += n;
	}
	free(kb);
	parsers = xasprintf("%s/parsers", dir);
	if (is_dir(parsers)) {
		if (!l->parsers)
			l->parsers = dparse_set_new();
		if (dparse_load_dir(l->parsers, parsers, NULL, l->d) < 0)
			l->failed = true;
	}
	free(parsers);
	return 0;
}

int site_data_load(const char *const *dirs, size_t ndirs, bool site,
		   const struct rule_set *rs, struct fact_base *fb,
		   struct dparse_set **parsers, struct diag *d)
{
	struct loading l = { rs, fb, NULL, d, 0, false };

	site_data_each_dir(dirs, ndirs, site, load_one, &l);
	if (l.failed) {
		dparse_set_free(l.parsers);
		l.parsers = NULL;
	}
	*parsers = l.parsers;
	return l.failed ? -EINVAL : l.entries;
}
