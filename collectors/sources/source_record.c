/* Recording for collect: tree operations that wrap a backend's and note
 * into a snapshot every directory, link and file they serve, so that the
 * generic source code never asks whether it is recording. */
#include <stdlib.h>

#include "collectors/sources/snapshot.h"
#include "collectors/sources/source_tree.h"
#include "engine/xalloc.h"

static int rec_lstat(const struct source *s, const char *rel,
		     enum node_type *type)
{
	int err = s->recorded->lstat(s, rel, type);

	if (!err && *type == NODE_DIR)
		snapshot_note_dir(s->rec, rel);
	return err;
}

static int rec_readlink(const struct source *s, const char *rel, char *buf,
			size_t size)
{
	int err = s->recorded->readlink(s, rel, buf, size);

	if (!err)
		snapshot_note_link(s->rec, rel, buf);
	return err;
}

static int rec_read(const struct source *s, const char *rel, const char *where,
		    size_t max, struct fetch *out)
{
	int err = s->recorded->read(s, rel, where, max, out);

	if (!err)
		snapshot_note_file(s->rec, rel, out->data, out->len);
	return err;
}

/* A listed directory: its subdirectories and links are noted too (by the
 * lstat and readlink above), so that listing it in the snapshot finds
 * them.  A device node (/dev/infiniband/uverbs0) is never read, only
 * listed: an empty file stands for it. */
static int rec_list(const struct source *s, const char *rel, struct names *out)
{
	int err = s->recorded->list(s, rel, out);

	if (err)
		return err;
	snapshot_note_dir(s->rec, rel);
	for (size_t i = 0; i < out->n; i++) {
		char *child = *rel ? xasprintf("%s/%s", rel, out->v[i]) :
				     xstrdup(out->v[i]);
		char target[4096];
		enum node_type type;

		if (!rec_lstat(s, child, &type)) {
			if (type == NODE_OTHER)
				snapshot_note_file(s->rec, child, "", 0);
			else if (type == NODE_LINK)
				rec_readlink(s, child, target, sizeof(target));
		}
		free(child);
	}
	return 0;
}

static void rec_free(struct source *s)
{
	s->recorded->free(s);
}

static const struct tree_ops record_ops = {
	rec_lstat, rec_readlink, rec_read, rec_list, rec_free,
};

void source_tree_record(struct source *s, struct snapshot *rec)
{
	if (s->rec || !s->ops)
		return;
	s->rec = rec;
	s->recorded = s->ops;
	s->ops = &record_ops;
}
