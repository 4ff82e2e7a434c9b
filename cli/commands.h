/* The subcommands; main.c dispatches through its tables. */
#ifndef RD_COMMANDS_H
#define RD_COMMANDS_H

#include "cli/options.h"

/* Each takes the options and the arguments after the command's words. */
int cmd_check(struct options *o);
int cmd_analyze(struct options *o);
int cmd_facts(struct options *o);
int cmd_rules_list(struct options *o);
int cmd_rules_lint(struct options *o);
int cmd_rules_test(struct options *o);
int cmd_rules_reference(struct options *o);
int cmd_explain(struct options *o);
int cmd_collect(struct options *o);
int cmd_guide(struct options *o);
int cmd_batch(struct options *o);
/* No command: the guided session on a terminal, check otherwise. */
int cmd_default(struct options *o);

/* Diagnoses and reports as check (no paths) or analyze (paths) do: the
 * analysis entry point check, analyze and the guide without a terminal
 * share.  Returns the exit code. */
int diagnose(const struct options *o);

#endif
