/* --answers files and --answer words. */
#include "cli/answers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/symbol.h"
#include "engine/xalloc.h"
#include "engine/ydoc.h"

static bool is_question(const char *item, const char *question, size_t qlen)
{
	return !strncmp(item, question, qlen) && item[qlen] == '=';
}

/* The slot of question in the hash of items: an empty one when it has
 * none (a table, so that N answers cost N, not N squared). */
static size_t find_slot(const struct answers *as, const char *question,
			size_t qlen)
{
	size_t i = hash_bytes(question, qlen) & (as->nslots - 1);

	while (as->slots[i] &&
	       !is_question(as->items[as->slots[i] - 1], question, qlen))
		i = (i + 1) & (as->nslots - 1);
	return i;
}

static void rehash(struct answers *as)
{
	size_t n = as->nslots ? as->nslots * 2 : 64;

	free(as->slots);
	as->slots = xcalloc(n, sizeof(*as->slots));
	as->nslots = n;
	for (size_t k = 0; k < as->n; k++) {
		const char *eq = strchr(as->items[k], '=');
		size_t qlen = (size_t)(eq - as->items[k]);

		as->slots[find_slot(as, as->items[k], qlen)] = (uint32_t)k + 1;
	}
}

void answers_set(struct answers *as, const char *question, const char *value,
		 const struct answer_origin *at)
{
	static const struct answer_origin command_line = { NULL, 0, 0 };
	char *item = xasprintf("%s=%s", question, value);
	size_t qlen = strlen(question), slot, i;

	if ((as->n + 1) * 2 > as->nslots)
		rehash(as);
	slot = find_slot(as, question, qlen);
	if (!as->slots[slot]) {
		size_t cap = as->cap;

		xgrow(&as->items, &cap, as->n + 1, sizeof(*as->items));
		xgrow(&as->at, &as->cap, as->n + 1, sizeof(*as->at));
		i = as->n++;
		as->slots[slot] = (uint32_t)as->n;
	} else {
		i = as->slots[slot] - 1;
		free(as->items[i]);
	}
	as->items[i] = item;
	as->at[i] = at ? *at : command_line;
}

const char *answers_get(const struct answers *as, const char *question)
{
	size_t qlen = strlen(question), slot;

	if (!as->nslots)
		return NULL;
	slot = find_slot(as, question, qlen);
	return as->slots[slot] ? as->items[as->slots[slot] - 1] + qlen + 1 :
				 NULL;
}

int answers_add_word(struct answers *as, const char *word, struct diag *d)
{
	const char *eq = strchr(word, '=');
	char *question;

	if (!eq || eq == word || !eq[1]) {
		diag_error(d, "--answer takes question=value, not '%s'", word);
		return -EINVAL;
	}
	question = xstrndup(word, (size_t)(eq - word));
	answers_set(as, question, eq + 1, NULL);
	free(question);
	return 0;
}

static const char *file_name(struct answers *as, const char *name)
{
	size_t cap = as->nfiles;

	xgrow(&as->files, &cap, as->nfiles + 1, sizeof(*as->files));
	as->files[as->nfiles] = xstrdup(name);
	return as->files[as->nfiles++];
}

static bool scalar(const struct ynode *n)
{
	return n && ynode_is_scalar(n) && n->len;
}

/* The answer facts of a fact file. */
static int from_facts(struct answers *as, const struct ydoc *doc,
		      const struct ynode *facts, const char *file,
		      struct diag *d)
{
	if (facts->type != YNODE_SEQ) {
		ydoc_report(doc, d, DIAG_ERROR, facts,
			    "'facts' must be a list");
		return -EINVAL;
	}
	for (size_t i = 0; i < facts->n; i++) {
		const struct ynode *f = facts->items[i], *kind, *fields, *q, *v;
		struct answer_origin at;

		if (f->type != YNODE_MAP)
			continue;
		kind = ynode_get(f, "kind");
		if (!scalar(kind) || strcmp(kind->str, "answer"))
			continue;
		fields = ynode_get(f, "fields");
		q = fields && fields->type == YNODE_MAP ?
			    ynode_get(fields, "question") :
			    NULL;
		v = fields && fields->type == YNODE_MAP ?
			    ynode_get(fields, "value") :
			    NULL;
		if (!scalar(q) || !scalar(v)) {
			ydoc_report(
				doc, d, DIAG_ERROR, f,
				"an answer fact needs a question and a value");
			return -EINVAL;
		}
		at = (struct answer_origin){ file, q->line, q->col };
		answers_set(as, q->str, v->str, &at);
	}
	return 0;
}

int answers_load_file(struct answers *as, const char *path, struct diag *d)
{
	struct ydoc *doc = ydoc_load_file(path, NULL, d);
	const struct ynode *root;
	const char *file;
	int err = 0;

	if (!doc)
		return -EINVAL;
	root = ydoc_root(doc);
	file = file_name(as, ydoc_name(doc));
	if (!root) {
		ydoc_free(doc);
		return 0;
	}
	if (root->type != YNODE_MAP) {
		ydoc_report(
			doc, d, DIAG_ERROR, root,
			"an answers file maps questions to answers, as in 'symptom: low_bandwidth'");
		ydoc_free(doc);
		return -EINVAL;
	}
	if (ynode_get(root, "facts")) {
		err = from_facts(as, doc, ynode_get(root, "facts"), file, d);
		ydoc_free(doc);
		return err;
	}
	for (size_t i = 0; i < root->n && !err; i++) {
		const struct ynode *k = ynode_key(root, i),
				   *v = ynode_value(root, i);
		struct answer_origin at;

		if (!scalar(k) || !scalar(v)) {
			ydoc_report(
				doc, d, DIAG_ERROR, scalar(k) ? v : k,
				"an answer is a question id and one value, as in 'symptom: low_bandwidth'");
			err = -EINVAL;
			break;
		}
		at = (struct answer_origin){ file, k->line, k->col };
		answers_set(as, k->str, v->str, &at);
	}
	ydoc_free(doc);
	return err;
}

int answers_from_options(struct answers *as, const struct options *o,
			 struct diag *d)
{
	for (size_t i = 0; i < o->nanswer_files; i++)
		if (answers_load_file(as, o->answer_files[i], d))
			return -EINVAL;
	for (size_t i = 0; i < o->nanswers; i++)
		if (answers_add_word(as, o->answers[i], d))
			return -EINVAL;
	return 0;
}

void answers_to_opts(const struct answers *as, struct analysis_opts *ao)
{
	ao->answers = (const char **)as->items;
	ao->answer_at = as->at;
	ao->nanswers = as->n;
}

void answers_release(struct answers *as)
{
	for (size_t i = 0; i < as->n; i++)
		free(as->items[i]);
	free(as->items);
	free(as->at);
	free(as->slots);
	for (size_t i = 0; i < as->nfiles; i++)
		free(as->files[i]);
	free(as->files);
	memset(as, 0, sizeof(*as));
}
