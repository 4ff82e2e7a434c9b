/* modinfo: "key: value" pairs, one block per module, each starting with
 * "filename:" (or "name:" in grep'ed pastes).  The keys are a closed set
 * (below), so a paste a mail client re-flowed into paragraphs, several
 * pairs to a line and a value wrapped onto the next, reads the same. */
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"

#define MODINFO_VALUE 512 /* @@ bytes of one value kept */
#define MODINFO_VERSION 64 /* @@ bytes of a module version kept */

/* The keys modinfo prints: the .modinfo tags of include/linux/module.h
 * and moduleparam.h (MODULE_LICENSE, _AUTHOR, _DESCRIPTION, _VERSION,
 * _ALIAS, _FIRMWARE, _SOFTDEP, _IMPORT_NS, MODULE_PARM_DESC), those
 * modpost adds (srcversion, depends, retpoline, intree, name, vermagic,
 * staging; RHEL kernels add rhelversion), and kmod's own (filename,
 * sig_id, signer, sig_key, sig_hashalgo, signature): kmod
 * tools/modinfo.c, modinfo_do(). */
static const char *const modinfo_keys[] = {
	"filename",  "name",	     "version",	  "license",  "description",
	"author",    "srcversion",   "alias",	  "depends",  "retpoline",
	"intree",    "vermagic",     "sig_id",	  "signer",   "sig_key",
	"sig_hashalgo", "signature", "parm",	  "firmware", "softdep",
	"import_ns", "staging",	     "livepatch", "scmversion", "rhelversion",
};

struct block {
	struct fact *f;
	unsigned modules; /* blocks read */
	bool released; /* the kernel release told */
	bool intree, out_of_tree;
	struct line origin_line; /* what told the origin */
	char version[MODINFO_VERSION];
};

/* The pair being read: its key, where the key stands, its value so far
 * (its words joined by one space). */
struct pair {
	const char *key; /* NULL before the first key */
	struct line at;
	char val[MODINFO_VALUE];
	size_t len;
};

/* intree: Y says inbox; a versioned module under extra/ or updates/ is an
 * out-of-tree (OFED) build; else the version's shape decides. */
static void close_block(struct emit *e, struct block *b)
{
	const char *o = NULL;

	if (!b->f)
		return;
	if (b->intree)
		o = "inbox";
	else if (b->out_of_tree && b->version[0])
		o = "mlnx_ofed";
	else if (b->version[0])
		o = driver_origin_of(b->version, strlen(b->version));
	if (o && strcmp(o, "unknown"))
		emit_str(e, b->f, "origin", o, strlen(o), &b->origin_line);
	emit_end(e, b->f);
	b->modules++;
	b->f = NULL;
	b->intree = b->out_of_tree = false;
	b->version[0] = '\0';
}

/* "/lib/modules/.../mlx5_core.ko.xz" -> "mlx5_core" */
static struct line base_name(struct line path)
{
	const char *slash = memrchr(path.p, '/', path.len);
	const char *dot;

	if (slash) {
		path.len -= (size_t)(slash + 1 - path.p);
		path.p = slash + 1;
	}
	dot = memchr(path.p, '.', path.len);
	if (dot)
		path.len = (size_t)(dot - path.p);
	return path;
}

/* The running kernel from a module's path: modinfo NAME looks NAME up
 * under /lib/modules/$(uname -r) (kmod, unless -k or -b says otherwise),
 * so "/lib/modules/REL/..." names the release.  True when told. */
static bool emit_release(struct emit *e, const struct line *path,
			 const struct line *at)
{
	static const char dir[] = "/lib/modules/";
	const char *p = path->len > sizeof(dir) ?
				memmem(path->p, path->len, dir, sizeof(dir) - 1) :
				NULL;
	const char *end, *slash;
	struct fact *f;

	if (!p)
		return false;
	p += sizeof(dir) - 1;
	end = path->p + path->len;
	slash = memchr(p, '/', (size_t)(end - p));
	if (!slash || slash == p)
		return false;
	f = emit_begin(e, "host", at);
	emit_str(e, f, "kernel", p, (size_t)(slash - p), at);
	return emit_end(e, f) != NULL;
}

static void take_pair(struct emit *e, struct block *b, const struct pair *pr,
		      const char *arg)
{
	struct line val = { pr->val, pr->len, pr->at.no };
	const struct line *ln = &pr->at;
	const char *space = memchr(val.p, ' ', val.len);

	/* the values read are one word each; what follows on a re-flowed
	 * line is another key's */
	if (space && strcmp(pr->key, "description"))
		val.len = (size_t)(space - val.p);

	if (!strcmp(pr->key, "filename")) {
		struct line name = base_name(val);

		close_block(e, b);
		if (!val.len)
			return;
		b->f = emit_begin(e, "driver", ln);
		emit_line(e, b->f, "name", &name, ln);
		emit_line(e, b->f, "filename", &val, ln);
		emit_str(e, b->f, "evidence", "modinfo", 7, ln);
		b->out_of_tree = line_contains(&val, "/extra/") ||
				 line_contains(&val, "/updates/");
		b->origin_line = *ln;
		if (!b->released)
			b->released = emit_release(e, &val, ln);
		return;
	}
	if (!b->f && (!strcmp(pr->key, "version") || !strcmp(pr->key, "name"))) {
		/* A grep'ed paste without filename: one module, named by the
		 * caller or by a name: line. */
		b->f = emit_begin(e, "driver", ln);
		emit_str(e, b->f, "evidence", "modinfo", 7, ln);
		if (arg)
			emit_str(e, b->f, "name", arg, strlen(arg), ln);
	}
	if (!b->f || !val.len)
		return;
	if (!strcmp(pr->key, "name")) {
		emit_line(e, b->f, "name", &val, ln);
	} else if (!strcmp(pr->key, "version")) {
		emit_line(e, b->f, "version", &val, ln);
		snprintf(b->version, sizeof(b->version), "%.*s", (int)val.len,
			 val.p);
		if (!b->intree && !b->out_of_tree)
			b->origin_line = *ln;
	} else if (!strcmp(pr->key, "srcversion")) {
		emit_line(e, b->f, "srcversion", &val, ln);
	} else if (!strcmp(pr->key, "intree") && line_eq(&val, "Y")) {
		b->intree = true;
		b->origin_line = *ln;
	}
}

/* The key a word "key:" names, or NULL. */
static const char *key_word(const char *p, size_t len)
{
	if (len < 2 || p[len - 1] != ':')
		return NULL;
	for (size_t i = 0; i < sizeof(modinfo_keys) / sizeof(*modinfo_keys);
	     i++)
		if (strlen(modinfo_keys[i]) == len - 1 &&
		    !memcmp(modinfo_keys[i], p, len - 1))
			return modinfo_keys[i];
	return NULL;
}

/* Calls fn on each word of ln (blank-separated) until it returns
 * false. */
static void each_word(const struct line *ln,
		      bool (*fn)(void *ctx, const char *p, size_t n), void *ctx)
{
	size_t i = 0;

	while (i < ln->len) {
		size_t start;

		while (i < ln->len && (ln->p[i] == ' ' || ln->p[i] == '\t'))
			i++;
		start = i;
		while (i < ln->len && ln->p[i] != ' ' && ln->p[i] != '\t')
			i++;
		if (i == start || !fn(ctx, ln->p + start, i - start))
			return;
	}
}

static bool count_key(void *ctx, const char *p, size_t n)
{
	*(unsigned *)ctx += key_word(p, n) != NULL;
	return true;
}

bool modinfo_pairs_line(const struct line *ln)
{
	unsigned keys = 0;

	each_word(ln, count_key, &keys);
	return keys >= 2;
}

static void add_word(struct pair *pr, const char *p, size_t len)
{
	if (pr->len && pr->len + 1 < sizeof(pr->val))
		pr->val[pr->len++] = ' ';
	if (len > sizeof(pr->val) - 1 - pr->len)
		len = sizeof(pr->val) - 1 - pr->len;
	memcpy(pr->val + pr->len, p, len);
	pr->len += len;
}

/* The words of the lines being read, and the block and pair they fill. */
struct reader {
	struct emit *e;
	struct block b;
	struct pair pr;
	struct line ln;
	const char *arg;
};

static bool read_word(void *ctx, const char *p, size_t n)
{
	struct reader *r = ctx;
	const char *key = key_word(p, n);

	if (key) {
		if (r->pr.key)
			take_pair(r->e, &r->b, &r->pr, r->arg);
		r->pr.key = key;
		r->pr.at = r->ln;
		r->pr.len = 0;
	} else if (r->pr.key && strspn(p, ">|") < n) {
		/* a quote mark left by a caller that did not strip it */
		add_word(&r->pr, p, n);
	}
	return true;
}

/* Reads modinfo output; returns the modules read. */
int parse_modinfo(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct reader r = { .e = e, .arg = arg };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		r.ln = line_trim(raw);
		each_word(&r.ln, read_word, &r);
		/* a value ends with its line, unless the line ended at
		 * its key (a wrapped "filename:" has its path below) */
		if (r.pr.key && r.pr.len) {
			take_pair(e, &r.b, &r.pr, arg);
			r.pr.key = NULL;
		}
	}
	if (r.pr.key)
		take_pair(e, &r.b, &r.pr, arg);
	close_block(e, &r.b);
	/* the modules read (the collector counts them), or an error */
	return e->nfacts > before ? (int)r.b.modules : 0;
}
