/* libFuzzer target: the output writers.  savefile_commit writes the input
 * as text to a name drawn from it, in a directory of its own, over
 * whatever the input says is there (nothing, a file, a FIFO, a symlink, a
 * directory): a regular file or nothing must end up holding exactly the
 * input, anything else must be refused and left as it was, and no
 * temporary may be left behind.  archive_write_tgz writes the input's
 * members, which archive_walk must read back the same. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/savefile.h"
#include "collectors/sources/archive.h"
#include "engine/diag.h"
#include "engine/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/rd-fuzz-writersXXXXXX";

static void empty_dir(void)
{
	DIR *dp = opendir(dir);
	struct dirent *de;

	if (!dp)
		abort();
	while ((de = readdir(dp))) {
		char *p;

		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (unlink(p) && rmdir(p))
			abort();
		free(p);
	}
	closedir(dp);
}

static size_t count_entries(void)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	while (dp && (de = readdir(dp)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (dp)
		closedir(dp);
	return n;
}

static void check_savefile(const uint8_t *data, size_t size)
{
	char name[16], *path, *text, *back;
	size_t nlen = 0, len;
	uint8_t what = size ? data[0] % 6 : 0;
	struct diag *d = diag_new();
	struct stat st;
	FILE *f;
	int rc;

	name[nlen++] = 'n'; /* never "." or ".." */
	for (size_t i = 1; i < size && nlen < 8; i++)
		if (data[i] > ' ' && data[i] < 0x7f && data[i] != '/')
			name[nlen++] = (char)data[i];
	name[nlen] = '\0';
	path = xasprintf("%s/%s", dir, name);
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	len = strlen(text);
	switch (what) {
	case 1:
		f = fopen(path, "w");
		if (!f)
			abort();
		fputs("old", f);
		fclose(f);
		break;
	case 2:
		mkfifo(path, 0600);
		break;
	case 3:
		symlink("/dev/null", path);
		break;
	case 4:
		mkdir(path, 0700);
		break;
	default:
		break;
	}
	rc = savefile_write_text(path, text, d);
	if (lstat(path, &st))
		st.st_mode = 0;
	if (what >= 2 && what <= 4) {
		if (!rc || S_ISREG(st.st_mode))
			abort(); /* something not a file was replaced */
	} else if (!rc) {
		back = xcalloc(1, len + 2);
		f = fopen(path, "r");
		if (!f || fread(back, 1, len + 1, f) != len ||
		    memcmp(back, text, len))
			abort(); /* the file does not hold what was written */
		fclose(f);
		free(back);
	}
	if (count_entries() != 1)
		abort(); /* a temporary left behind, or the target gone */
	empty_dir();
	free(text);
	free(path);
	diag_free(d);
}

struct readback {
	size_t n;
};

static size_t keep_all(void *ctx, const struct archive_member *m)
{
	(void)ctx;
	(void)m;
	return 1u << 20;
}

static int count_member(void *ctx, const struct archive_member *m, char *data,
			size_t len, enum archive_cut cut)
{
	struct readback *r = ctx;

	(void)m;
	(void)len;
	(void)cut;
	free(data);
	r->n++;
	return 0;
}

static void check_archive(const uint8_t *data, size_t size)
{
	struct archive_out m[64];
	size_t n = 0, i = 0;
	char err[256], path[64];
	struct readback r = { 0 };
	int fd = memfd_create("fuzz-writers", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	while (i + 2 <= size && n < 64) {
		size_t nlen = data[i] % 32 + 1, dlen = data[i + 1];
		char *name;

		i += 2;
		if (i + nlen + dlen > size)
			break;
		name = xasprintf("top/%.*s", (int)nlen, (const char *)data + i);
		/* a NUL inside, a directory's name, or a name given before:
		 * collect writes none of these, and the reader keeps only the
		 * last of a name given twice (as tar extraction does) */
		bool dup = strlen(name) != nlen + 4 || name[nlen + 3] == '/';

		for (size_t k = 0; k < n && !dup; k++)
			dup = !strcmp(m[k].path, name);
		if (dup) {
			free(name);
			break;
		}
		m[n++] = (struct archive_out){ name, ARCHIVE_FILE,
					       (const char *)data + i + nlen,
					       dlen, NULL };
		i += nlen + dlen;
	}
	if (!archive_write_tgz(fd, m, n, err, sizeof(err))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (n && archive_walk(path, 1u << 30, keep_all, count_member,
				      &r, err, sizeof(err)) == 0 &&
		    r.n != n)
			abort(); /* members lost between writer and reader */
	}
	close(fd);
	for (size_t k = 0; k < n; k++)
		free((char *)m[k].path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;

	if (!ready) {
		if (!mkdtemp(dir))
			abort();
		ready = true;
	}
	check_savefile(data, size);
	check_archive(data, size);
	return 0;
}
