/* What batch is asked to read, one bundle per host: bundles named on the
 * command line, the bundles in a directory, and the paths in a list (a
 * file, or standard input as '-').  Every path met is kept, a bundle to
 * analyse or the reason it cannot be one, so nothing is dropped unsaid. */
#ifndef RD_BATCH_INPUT_H
#define RD_BATCH_INPUT_H

#include <stddef.h>
#include <stdio.h>

struct batch_input {
	char *path;
	char *problem; /* NULL: a bundle to analyse; else why it is not */
};

struct batch_inputs {
	struct batch_input *v;
	size_t n, cap;
};

/* Adds what arg names: a bundle (a directory with a bundle's layout, or a
 * tar archive); each entry of a directory of bundles (checksum files
 * beside sosreports, *.sha256 and *.md5, and hidden entries excepted); or
 * each line of a list file, or of in when arg is "-" (blank lines and
 * '#' comments skipped; relative paths from the current directory).  A
 * path in a list is added as a bundle or a directory of bundles, never
 * as another list. */
void batch_inputs_add(struct batch_inputs *in, const char *arg, FILE *in_list);
/* How many inputs are bundles to analyse. */
size_t batch_inputs_bundles(const struct batch_inputs *in);
void batch_inputs_release(struct batch_inputs *in);

#endif
