/* Output files written atomically and never over anything but a regular
 * file. */
#include "cli/savefile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/redact.h"
#include "cli/report.h"
#include "engine/xalloc.h"

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static const char *kind_of(mode_t m)
{
	static const struct {
		mode_t type;
		const char *name;
	} kinds[] = {
		{ S_IFLNK, "a symbolic link" },	  { S_IFCHR, "a character device" },
		{ S_IFBLK, "a block device" },	  { S_IFIFO, "a FIFO" },
		{ S_IFSOCK, "a socket" },	  { S_IFDIR, "a directory" },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((m & S_IFMT) == kinds[i].type)
			return kinds[i].name;
	return "not a regular file";
}

/* 0 when path is absent or a regular file; -EEXIST after reporting what
 * else is there. */
static int check_target(const char *path, struct diag *d)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		diag_error(d, "%s: cannot write: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISREG(st.st_mode))
		return 0;
	diag_error(d,
		   "%s: refusing to replace it: it is %s, not a regular file",
		   path, kind_of(st.st_mode));
	return -EEXIST;
}

/* "dir/.name.XXXXXX" beside path. */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xasprintf(".%s.XXXXXX", path);
	return xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path,
			 slash + 1);
}

static int commit(const char *path, mode_t mode, savefile_fill_fn fill,
		  void *ctx, struct diag *d)
{
	char err[256] = "", *tmp;
	mode_t mask = umask(0);
	int fd, rc;

	umask(mask);
	rc = check_target(path, d);
	if (rc)
		return rc;
	tmp = temp_name(path);
	fd = mkostemp(tmp, O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		rc = -errno;
		diag_error(d, "%s: cannot write: %s", path, strerror(-rc));
		free(tmp);
		return rc;
	}
	if (fchmod(fd, mode & ~mask))
		rc = -errno;
	if (!rc)
		rc = fill(fd, ctx, err, sizeof(err));
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	/* Again just before the rename: something put there meanwhile
	 * is not replaced either. */
	if (!rc && (rc = check_target(path, d))) {
		unlink(tmp);
		free(tmp);
		return rc;
	}
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		diag_error(d, "%s: cannot write: %s", path,
			   err[0] ? err : strerror(-rc));
	}
	free(tmp);
	return rc;
}

int savefile_commit(const char *path, mode_t mode, savefile_fill_fn fill,
		    void *ctx, struct diag *d)
{
	sigset_t hold, old;
	int rc;

	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &hold, &old);
	rc = commit(path, mode, fill, ctx, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int fill_text(int fd, void *ctx, char *err, size_t errsize)
{
	const char *text = ctx;
	int rc = write_all(fd, text, strlen(text));

	if (rc)
		snprintf(err, errsize, "%s", strerror(-rc));
	return rc;
}

int savefile_write_text(const char *path, const char *text, struct diag *d)
{
	return savefile_commit(path, SAVEFILE_MODE_REPORT, fill_text,
			       (void *)text, d);
}

int savefile_write_private(const char *path, const char *text, struct diag *d)
{
	return savefile_commit(path, SAVEFILE_MODE_PRIVATE, fill_text,
			       (void *)text, d);
}

int savefile_write(const struct analysis *a, const char *path,
		   struct redactor *r, struct diag *d)
{
	struct json *j = report_snapshot_json(a->fb);
	char *text, *with_newline;
	int err;

	if (r) {
		/* each string masked, so no value can break the syntax */
		struct json *m = redact_json(r, j);

		json_free(j);
		j = m;
	}
	text = json_dump(j, true);
	with_newline = xasprintf("%s\n", text);
	json_free(j);
	free(text);
	/* A fact file holds what the host's logs said: private. */
	err = savefile_write_private(path, with_newline, d);
	free(with_newline);
	return err;
}

int savefile_write_map(const char *path, const struct redactor *r,
		       struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err;

	if (!mem) {
		diag_error(d, "%s: cannot render the map", path);
		return -ENOMEM;
	}
	redact_write_map(r, mem);
	fclose(mem);
	err = savefile_write_private(path, text ? text : "", d);
	free(text);
	return err;
}
