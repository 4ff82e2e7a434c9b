/* --deadline SECONDS: an upper bound on a whole run (check, analyze,
 * batch, collect), whatever its bundles and tools do. */
#ifndef RD_DEADLINE_H
#define RD_DEADLINE_H

/* Exit code of a run stopped at its deadline (as for input that cannot
 * be read: no verdict was reached). */
#define DEADLINE_EXIT 2

/* Arms the deadline (0: none).  When it passes, every running tool and
 * batch worker is killed with its group, a message goes to stderr and
 * the process exits with DEADLINE_EXIT. */
void deadline_arm(unsigned seconds);

#endif
