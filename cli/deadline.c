/* --deadline: SIGALRM ends the run, and everything it started. */
#include "cli/deadline.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli/pool.h"
#include "collectors/sources/run.h"

static const char message[] =
	"\nrdmadoctor: error: the --deadline passed; stopped, with every tool and worker it had started\n";

static void on_alarm(int sig)
{
	(void)sig;
	run_kill_all();
	pool_kill_all();
	if (write(STDERR_FILENO, message, sizeof(message) - 1) < 0)
		_exit(DEADLINE_EXIT);
	_exit(DEADLINE_EXIT);
}

void deadline_arm(unsigned seconds)
{
	struct sigaction sa;

	if (!seconds)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}
