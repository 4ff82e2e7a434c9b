/* The subcommands; main.c dispatches through its table. */
#ifndef RD_COMMANDS_H
#define RD_COMMANDS_H

#include "cli/options.h"

int cmd_check(struct options *o);
int cmd_analyze(struct options *o);
int cmd_facts(struct options *o);
int cmd_rules(struct options *o);
int cmd_explain(struct options *o);
int cmd_collect(struct options *o);
int cmd_guide(struct options *o);
int cmd_batch(struct options *o);
/* No command: the guided session on a terminal, check otherwise. */
int cmd_default(struct options *o);

#endif
