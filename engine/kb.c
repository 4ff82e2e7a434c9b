/* Loading the YAML files of kb/ into the fact base. */
#include "engine/kb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/regex.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"
#include "engine/ydoc.h"

static int list_value(struct fact_base *fb, const struct ynode *n,
		      struct value *out)
{
	struct value_list *l = fact_base_list(fb, n->n);

	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *it = n->items[i];

		if (!ynode_is_scalar(it))
			return -EINVAL;
		l->items[i] = it->plain ? value_guess(it->str, it->len) :
					  value_str(it->str, it->len);
	}
	*out = value_list(l);
	return 0;
}

/* A pattern field is compiled here, when the kb loads, so that a broken
 * pattern fails the load at its position instead of the log scan that
 * would use it.  Returns 0 or -EINVAL after reporting at val. */
static int check_pattern(const struct ydoc *doc, const struct ynode *val,
			 const struct vocab_kind *k,
			 const struct vocab_field *vf, struct diag *d)
{
	char msg[256];
	size_t off = 0;

	if (!regex_check(val->str, 0, msg, sizeof(msg), &off))
		return 0;
	ydoc_report(
		doc, d, DIAG_ERROR, val,
		"field '%s' of '%s' is not a valid PCRE2 pattern: %s at offset %zu",
		vf->name, k->name, msg, off);
	return -EINVAL;
}

int kb_fact_from_node(struct fact_base *fb, const struct ydoc *doc,
		      const struct vocab_kind *k, uint32_t src,
		      const struct ynode *n, const char *skip, struct diag *d)
{
	struct fact *f;
	bool added;

	if (n->type != YNODE_MAP) {
		ydoc_report(doc, d, DIAG_ERROR, n,
			    "a fact must be a mapping of field: value");
		return -EINVAL;
	}
	f = fact_base_begin(fb, k->sym, src, (uint32_t)n->line, NULL, 0);
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *key = ynode_key(n, i),
				   *val = ynode_value(n, i);
		const struct vocab_field *vf;
		struct value v;

		if (skip && ynode_is_scalar(key) && !strcmp(key->str, skip))
			continue;
		vf = ynode_is_scalar(key) ?
			     vocab_field(k, sym_intern(key->str, key->len)) :
			     NULL;
		if (!vf) {
			const char *names[VOCAB_FIELDS_MAX];
			size_t nn = 0;

			for (; nn < k->nfields && nn < VOCAB_FIELDS_MAX; nn++)
				names[nn] = k->fields[nn].name;
			ydoc_report(doc, d, DIAG_ERROR, key,
				    "kind '%s' has no field '%s'%s", k->name,
				    ynode_is_scalar(key) ? key->str : "?",
				    ynode_is_scalar(key) ?
					    ydoc_hint(key->str, names, nn) :
					    "");
			goto fail;
		}
		if (val->type == YNODE_SEQ && vf->type == VALUE_LIST) {
			if (list_value(fb, val, &v))
				goto bad;
		} else if (!ynode_is_scalar(val)) {
			goto bad;
		} else if (value_parse(val->str, val->len, vf->type, vf->vkind,
				       &v)) {
			goto bad;
		} else if (vf->pattern && check_pattern(doc, val, k, vf, d)) {
			goto fail;
		}
		fact_put(fb, f, vf->sym, v, (uint32_t)val->line, NULL, 0);
		continue;
	bad:
		ydoc_report(doc, d, DIAG_ERROR, val,
			    "field '%s' of '%s' takes %s %s", vf->name, k->name,
			    vf->type == VALUE_INT ? "an" : "a",
			    value_type_to_str(vf->type));
		goto fail;
	}
	fact_base_commit(fb, f, &added);
	if (!added) {
		ydoc_report(
			doc, d, DIAG_ERROR, n,
			"duplicate '%s' entry: another entry has the same key",
			k->name);
		return -EINVAL;
	}
	return 0;
fail:
	fact_base_abandon(fb, f);
	return -EINVAL;
}

static int entry(struct fact_base *fb, const struct ydoc *doc,
		 const struct vocab_kind *k, uint32_t src,
		 const struct ynode *n, struct diag *d)
{
	const struct ynode *source = ynode_get(n, "source");

	if (n->type != YNODE_MAP) {
		ydoc_report(doc, d, DIAG_ERROR, n,
			    "a kb entry must be a mapping of field: value");
		return -EINVAL;
	}
	if (!ynode_is_scalar(source) || !source->len) {
		ydoc_report(
			doc, d, DIAG_ERROR, n,
			"kb entry has no 'source': say where this knowledge comes from");
		return -EINVAL;
	}
	return kb_fact_from_node(fb, doc, k, src, n, NULL, d);
}

/* An entry of a kind a rule file declares: its fields must be declared
 * (or be its 'source'), and take the type their text suggests, as a fact
 * file's do. */
int kb_declared_fact_from_node(struct fact_base *fb, const struct ydoc *doc,
			       uint32_t kind, uint32_t src,
			       const struct ynode *n, const char *skip,
			       const struct kb_declared *decl, struct diag *d)
{
	struct fact *f;
	bool added;

	if (n->type != YNODE_MAP) {
		ydoc_report(doc, d, DIAG_ERROR, n,
			    "a fact must be a mapping of field: value");
		return -EINVAL;
	}
	f = fact_base_begin(fb, kind, src, (uint32_t)n->line, NULL, 0);
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *key = ynode_key(n, i),
				   *val = ynode_value(n, i);
		uint32_t field;

		if (skip && ynode_is_scalar(key) && !strcmp(key->str, skip))
			continue;
		if (!ynode_is_scalar(key) || !ynode_is_scalar(val)) {
			ydoc_report(doc, d, DIAG_ERROR, key,
				    "an entry of a declared kind is a mapping of field: text");
			goto fail;
		}
		field = sym_intern(key->str, key->len);
		if (strcmp(key->str, "source") &&
		    !decl->declares(decl->arg, kind, field)) {
			ydoc_report(doc, d, DIAG_ERROR, key,
				    "kind '%s' is declared without a '%s' field",
				    sym_str(kind), key->str);
			goto fail;
		}
		fact_put(fb, f, field,
			 val->plain ? value_guess(val->str, val->len) :
				      value_str(val->str, val->len),
			 (uint32_t)val->line, NULL, 0);
	}
	fact_base_commit(fb, f, &added);
	return 0;
fail:
	fact_base_abandon(fb, f);
	return -EINVAL;
}

/* Loads the entries of a parsed kb document, which it frees. */
static int load_doc(struct fact_base *fb, struct ydoc *doc,
		    const struct kb_declared *decl, struct diag *d)
{
	const struct ynode *root, *kind, *entries;
	const struct vocab_kind *k;
	int loaded = 0, err = 0;
	uint32_t src;

	if (!doc)
		return -EINVAL;
	root = ydoc_root(doc);
	kind = ynode_get(root, "kind");
	entries = ynode_get(root, "entries");
	if (!root || root->type != YNODE_MAP || !ynode_is_scalar(kind) ||
	    !entries || entries->type != YNODE_SEQ) {
		ydoc_report(
			doc, d, DIAG_ERROR, root,
			"a kb file is a mapping with 'kind' and a list of 'entries'");
		err = -EINVAL;
		goto out;
	}
	k = vocab_kind_named(kind->str);
	if (!k && decl &&
	    decl->declares(decl->arg, sym_intern(kind->str, kind->len), 0)) {
		uint32_t sym = sym_intern(kind->str, kind->len);

		src = fact_base_source(fb, ydoc_name(doc));
		for (size_t i = 0; i < entries->n; i++) {
			const struct ynode *n = entries->items[i],
					   *source = ynode_get(n, "source");

			if (n->type != YNODE_MAP || !ynode_is_scalar(source) ||
			    !source->len) {
				ydoc_report(
					doc, d, DIAG_ERROR, n,
					"kb entry has no 'source': say where this knowledge comes from");
				err = -EINVAL;
			} else if (kb_declared_fact_from_node(fb, doc, sym, src,
							      n, NULL, decl,
							      d)) {
				err = -EINVAL;
			} else {
				loaded++;
			}
		}
		goto out;
	}
	if (!k || strcmp(k->source, "kb")) {
		ydoc_report(doc, d, DIAG_ERROR, kind,
			    "'%s' is not a knowledge-base kind", kind->str);
		err = -EINVAL;
		goto out;
	}
	src = fact_base_source(fb, ydoc_name(doc));
	for (size_t i = 0; i < entries->n; i++) {
		if (entry(fb, doc, k, src, entries->items[i], d))
			err = -EINVAL;
		else
			loaded++;
	}
out:
	ydoc_free(doc);
	return err ? err : loaded;
}

int kb_load_file(struct fact_base *fb, const char *path, const char *name,
		 struct diag *d)
{
	return load_doc(fb, ydoc_load_file(path, name, d), NULL, d);
}

int kb_load_string(struct fact_base *fb, const char *name, const char *text,
		   size_t len, struct diag *d)
{
	return load_doc(fb, ydoc_load_string(name, text, len, d), NULL, d);
}

int kb_load_dir(struct fact_base *fb, const char *dir, const char *prefix,
		struct diag *d)
{
	return kb_load_dir_declared(fb, dir, prefix, NULL, d);
}

int kb_load_dir_declared(struct fact_base *fb, const char *dir,
			 const char *prefix, const struct kb_declared *decl,
			 struct diag *d)
{
	struct ydoc_file *files;
	int n = ydoc_dir(dir, prefix, NULL, &files), total = 0, err = 0;

	if (n < 0) {
		diag_at(d, DIAG_ERROR, dir, 0, 0, NULL,
			"cannot read kb directory: %s", strerror(-n));
		return n;
	}
	for (int i = 0; i < n; i++) {
		int rc = load_doc(fb,
				  ydoc_load_file(files[i].path, files[i].name,
						 d),
				  decl, d);

		if (rc < 0)
			err = rc;
		else
			total += rc;
	}
	ydoc_files_free(files, n);
	return err ? err : total;
}
