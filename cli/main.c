/* rdmadoctor: the command table and the top-level help. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/analysis.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "collectors/formats.h"

struct command_entry {
	const char *name;
	int (*run)(struct options *o);
	const char *usage;
	const char *help;
};

static const struct command_entry commands[] = {
	{ "guide", cmd_guide,
	  "guide [--root DIR] [PATH...] [--answers FILE] [--save FILE]",
	  "A guided session on a terminal: gathers the evidence, walks the five\n"
	  "  layers bottom-up (what was found, each check, the layer's verdict), asks\n"
	  "  only what the machine cannot tell (the symptom, the expected link rate, a\n"
	  "  recent change, containers), then ranks the causes with what to do.  Pick\n"
	  "  a cause to see its evidence and reasoning; 'r' re-checks after a fix and\n"
	  "  shows what changed.  --answers FILE (YAML or JSON, 'question: answer')\n"
	  "  and --answer Q=V answer questions beforehand; --save FILE writes the\n"
	  "  evidence and the answers for a ticket ('analyze FILE' reproduces the\n"
	  "  diagnosis).  Without a terminal (or with --json) it runs as 'check', or\n"
	  "  as 'analyze' when paths are given.  'rdmadoctor' alone on a terminal\n"
	  "  starts it.\n"
	  "  Example: rdmadoctor guide\n"
	  "           rdmadoctor guide --root tests/fixtures/cx5-fw-mismatch/root" },
	{ "check", cmd_check, "check [--root DIR] [--timeout SEC] [--perftest]",
	  "Diagnose this host, or the directory snapshot given with --root.\n"
	  "  Reads /sys, /proc and the kernel config, asks libibverbs for devices and\n"
	  "  runs read-only tools (ibstat, ethtool -i, ...) with a timeout (default\n"
	  "  10 s); a tool that hangs is killed and reported as such.  It only reads,\n"
	  "  except that --perftest also runs a 2-second loopback ib_write_bw on the\n"
	  "  first active port (server and client on this host).\n"
	  "  Example: rdmadoctor check\n"
	  "           rdmadoctor check --root tests/fixtures/healthy-cx5/root --json" },
	{ "analyze", cmd_analyze, "analyze PATH... (a path may be KIND=FILE)",
	  "Diagnose one host from its evidence, offline: a sosreport (a directory, or\n"
	  "  a .tar.xz, .tar.gz or .tar.bz2 read in place), a sysinfo-snapshot, a\n"
	  "  snapshot from 'collect', a directory snapshot, and loose command outputs\n"
	  "  pasted into a ticket.  The kind of a loose file is detected from its\n"
	  "  content; KIND=FILE names it (the kinds are listed below).\n"
	  "  Example: rdmadoctor analyze sosreport-node07.tar.xz ib_write_bw.txt\n"
	  "           rdmadoctor analyze ibstat=paste.txt" },
	{ "collect", cmd_collect,
	  "collect [-o FILE] [--root DIR] [--timeout SEC] [--perftest]",
	  "Record what 'check' reads on this host -- the sysfs RDMA tree, /proc,\n"
	  "  module versions, kernel config and log, the output of each tool it runs,\n"
	  "  and the libibverbs results -- into a .tar.gz in sosreport layout, for a\n"
	  "  support engineer to diagnose offline.  It only reads the system; every\n"
	  "  command runs with the timeout.  FILE defaults to\n"
	  "  rdmadoctor-<host>-<UTC time>.tar.gz in the current directory.\n"
	  "  Example: rdmadoctor collect -o /tmp/node07.tar.gz\n"
	  "           rdmadoctor analyze /tmp/node07.tar.gz" },
	{ "facts", cmd_facts, "facts [--root DIR] [PATH...]",
	  "Print the fact base the rules would see: collected facts with the file and\n"
	  "  line they came from, and the knowledge base.  No path means this host.\n"
	  "  Example: rdmadoctor facts --json sosreport-node07/" },
	{ "rules", cmd_rules,
	  "rules list [--origin] | lint [PATH...] | test [PATH...] | reference",
	  "For rule authors.  'list' shows the effective rule set (--origin: the file\n"
	  "  each rule comes from, and overlays that disabled rules); 'lint' checks the\n"
	  "  shipped rules plus the given files or directories and reports each problem\n"
	  "  as file:line:col with the offending line; 'test' runs the rule tests\n"
	  "  (NAME.test.yaml beside the rules; none given: the shipped ones), one line\n"
	  "  per case, then 'N passed, N failed' (exit 1 on a failure); a directory's\n"
	  "  tests must also see each of its rules fire; 'reference' prints the\n"
	  "  operators and the fact vocabulary rules can use.  rules/README.md is the\n"
	  "  guide, with a tutorial.\n"
	  "  Example: rdmadoctor rules lint /etc/rdmadoctor/rules.d\n"
	  "           rdmadoctor rules test /etc/rdmadoctor/rules.d" },
	{ "explain", cmd_explain, "explain RULE-ID",
	  "Say what a rule looks at, why it matters, its remediation and its sources.\n"
	  "  Example: rdmadoctor explain fw-below-driver-minimum" },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rdmadoctor COMMAND [OPTIONS] [ARGS]\n"
		"\n"
		"rdmadoctor diagnoses the RDMA stack of a Linux host (InfiniBand, RoCE) layer\n"
		"by layer -- hardware, firmware, driver, kernel modules, verbs -- and ranks\n"
		"the likely root causes with their evidence and remediation.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		fprintf(out, "  %s\n", commands[i].usage);
	fprintf(out,
		"\n"
		"Options (all commands):\n"
		"  -j, --json        print JSON instead of text\n"
		"  -e, --explain     show the chain of reasoning under each diagnosis,\n"
		"                    and the rules that lacked evidence\n"
		"      --rules DIR   add a rule overlay (repeatable; a file works too)\n"
		"      --answer Q=V  answer a question a rule asks (repeatable)\n"
		"      --answers FILE  answers from a YAML or JSON file\n"
		"      --save FILE   also write the evidence and answers as a fact file\n"
		"      --no-color    no colour (also when NO_COLOR is set or not a TTY)\n"
		"  -q, --quiet       no progress lines on stderr\n"
		"  -o, --output FILE where collect writes its snapshot\n"
		"      --perftest    check, collect: also run a loopback ib_write_bw\n"
		"  -h, --help        help; 'rdmadoctor COMMAND --help' for a command\n"
		"  -V, --version     print the version\n"
		"\n"
		"Exit codes:\n"
		"  0  no diagnosis at warning or above\n"
		"  1  at least one diagnosis at warning or above\n"
		"  2  usage, input or system error\n"
		"  3  rules or knowledge base failed to load or to run\n"
		"\n"
		"Rules and kb come from %s (RDMADOCTOR_DATADIR overrides);\n"
		"site overlays from /etc/rdmadoctor/rules.d and ~/.config/rdmadoctor/rules.d.\n"
		"With no command, rdmadoctor runs 'guide' on a terminal and 'check'\n"
		"otherwise.\n",
		analysis_datadir());
}

/* The kinds of loose files, for analyze --help. */
static void print_kinds(FILE *out)
{
	fputs("\nKinds of loose files:\n", out);
	for (size_t i = 0; i < format_count(); i++)
		fprintf(out, "  %-14s %s\n", format_at(i)->name,
			format_at(i)->what);
}

static const struct command_entry *find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command_entry *cmd = NULL;
	struct options o;
	static char default_word[] = "rdmadoctor";
	char *default_argv[] = { default_word, NULL };
	int rc;

	if (argc > 1 && argv[1][0] != '-') {
		cmd = find(argv[1]);
		if (!cmd && strcmp(argv[1], "help")) {
			fprintf(stderr,
				"rdmadoctor: error: unknown command '%s'\n\n",
				argv[1]);
			usage(stderr);
			return EXIT_USAGE;
		}
		if (!cmd) {
			usage(stdout);
			return EXIT_HEALTHY;
		}
		argc--;
		argv++;
	} else if (argc == 1) {
		argc = 1;
		argv = default_argv;
	}
	if (options_parse(argc, argv, &o))
		return EXIT_USAGE;
	if (o.version) {
		printf("rdmadoctor %s\n", RD_VERSION);
		rc = EXIT_HEALTHY;
	} else if (o.help) {
		if (cmd)
			printf("usage: rdmadoctor %s\n\n%s\n", cmd->usage,
			       cmd->help);
		if (cmd && cmd->run == cmd_analyze)
			print_kinds(stdout);
		else if (!cmd)
			usage(stdout);
		rc = EXIT_HEALTHY;
	} else {
		rc = cmd ? cmd->run(&o) : cmd_default(&o);
	}
	options_release(&o);
	return rc;
}
