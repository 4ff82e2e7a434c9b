/* Atomic snapshot files. */
#include "cli/savefile.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static int write_file(const char *path, const char *text, struct diag *d)
{
	char *tmp = xasprintf("%s.tmpXXXXXX", path);
	mode_t mask = umask(0);
	int fd, err = 0;

	umask(mask);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		diag_error(d, "%s: cannot write: %s", path, strerror(-err));
		free(tmp);
		return err;
	}
	err = write_all(fd, text, strlen(text));
	if (!err && fchmod(fd, 0666 & ~mask))
		err = -errno;
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		unlink(tmp);
		diag_error(d, "%s: cannot write: %s", path, strerror(-err));
	}
	free(tmp);
	return err;
}

int savefile_write_text(const char *path, const char *text, struct diag *d)
{
	sigset_t hold, old;
	int err;

	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &hold, &old);
	err = write_file(path, text, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

int savefile_write(const struct analysis *a, const char *path, struct diag *d)
{
	struct json *j = report_snapshot_json(a->fb);
	char *text = json_dump(j, true);
	char *with_newline = xasprintf("%s\n", text);
	int err;

	json_free(j);
	free(text);
	err = savefile_write_text(path, with_newline, d);
	free(with_newline);
	return err;
}
