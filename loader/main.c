// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl: register BIC as a TCP congestion control, swap the implementation
 * behind a registered name, move live connections between algorithms, and
 * choose one per cgroup.
 *
 * This file only dispatches: it parses the command line against one table
 * of options and one of commands, checks what the command needs of the
 * system, takes the lock for commands that change state, and runs
 * the command from the file that owns it (ccctl.h).
 */
#define _GNU_SOURCE
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include "ccctl.h"
#include "common.h"
#include "kfeatures.h"
#include "names.h"
#include "object.h"
#include "pins.h"

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"

/* Options, by the bit a command's table entry allows them with. */
enum {
	OPT_VARIANT	= 1 << 0,
	OPT_NAME	= 1 << 1,
	OPT_OBJECT	= 1 << 2,
	OPT_TRACE	= 1 << 3,
	OPT_CGROUP	= 1 << 4,
	OPT_FROM	= 1 << 5,
	OPT_JSON	= 1 << 6,
	OPT_VERBOSE	= 1 << 7,	/* every command takes it */
	OPT_OPS		= 1 << 8,
	OPT_ALL		= 1 << 9,
};

/*
 * Every option, once: argp's table, the check that a command takes what it
 * is given, and the usage lines are all made from this.  Long-only options
 * get keys outside the character range.
 */
static const struct option_def {
	const char *name;
	const char *arg;	/* its argument as usage shows it; NULL: none */
	const char *doc;
	int key;
	unsigned int bit;
} options[] = {
	{ "variant", NULL /* the variants' names */, NULL /* and the default's */, 0x100,
	  OPT_VARIANT },
	{ "name", "NAME", "Load the algorithm under NAME instead of its own", 0x101, OPT_NAME },
	{ "object", "FILE", "Load tcp_congestion_ops from a BPF object FILE", 0x102, OPT_OBJECT },
	{ "ops", "OPS", "register/swap: which tcp_congestion_ops of an object holding several",
	  0x106, OPT_OPS },
	{ "trace", NULL, "register/swap: record BIC events for bictrace (default: off)", 0x103,
	  OPT_TRACE },
	{ "cgroup", "PATH", "assign/unassign: the cgroup v2 directory", 0x104, OPT_CGROUP },
	{ "from", "OLD", "set-default: in every network namespace whose default is OLD", 0x105,
	  OPT_FROM },
	{ "all", NULL, "unassign: every cgroup ccctl assigned, whatever its path", 0x107,
	  OPT_ALL },
	{ "json", NULL, "list/status/features: print JSON (errors too)", 'j', OPT_JSON },
	{ "verbose", NULL, "Let libbpf print its log, and the verifier's of a program it rejects",
	  'v', OPT_VERBOSE },
};

enum {
	NEED_BTF	= 1 << 0,	/* loads BPF that is checked against vmlinux BTF */
	NEED_BPFFS	= 1 << 1,	/* reads or writes pins */
	NEED_FEATURES	= 1 << 2,	/* depends on what the kernel supports */
	NEED_LOCK	= 1 << 3,	/* changes state: one ccctl at a time */
	NEED_UPDATE	= 1 << 4,	/* and whether links can be updated (reads BTF) */
};

static const struct command {
	const char *name;
	const char *operands;	/* for usage */
	int min_args, max_args;
	unsigned int opts;	/* OPT_* it takes */
	unsigned int required;	/* OPT_* it cannot go without */
	unsigned int one_of;	/* OPT_* of which it takes exactly one */
	unsigned int needs;	/* NEED_* */
	const char *doc;
	int (*run)(const struct cmd_args *a);
} commands[] = {
	{ "register", "", 0, 0, OPT_VARIANT | OPT_NAME | OPT_OBJECT | OPT_OPS | OPT_TRACE, 0, 0,
	  NEED_BTF | NEED_BPFFS | NEED_FEATURES | NEED_LOCK,
	  "load, register and pin under " PIN_ROOT, do_register },
	{ "unregister", " NAME", 1, 1, 0, 0, 0, NEED_BPFFS | NEED_LOCK,
	  "unregister; connections using NAME keep running", do_unregister },
	{ "list", "", 0, 0, OPT_JSON, 0, 0, NEED_BPFFS,
	  "registered algorithms and the sockets using them", do_list },
	{ "status", " [NAME]", 0, 1, OPT_JSON, 0, 0, NEED_BPFFS,
	  "the same, of one algorithm", do_list },
	{ "set-default", " NAME", 1, 1, OPT_FROM, 0, 0, NEED_LOCK,
	  "default algorithm of this network namespace, or of every one whose default is OLD",
	  do_set_default },
	{ "swap", " NAME", 1, 1, OPT_VARIANT | OPT_NAME | OPT_OBJECT | OPT_OPS | OPT_TRACE, 0, 0,
	  NEED_BTF | NEED_BPFFS | NEED_FEATURES | NEED_UPDATE | NEED_LOCK,
	  "replace the implementation behind NAME; running connections keep the one they have",
	  do_swap },
	{ "migrate", " FROM TO", 2, 2, 0, 0, 0, NEED_BTF | NEED_LOCK,
	  "switch connections (in every network namespace) from algorithm FROM to TO",
	  do_migrate },
	{ "assign", " NAME", 1, 1, OPT_CGROUP, OPT_CGROUP, 0, NEED_BTF | NEED_BPFFS | NEED_LOCK,
	  "new connections of the cgroup's processes get NAME (already so: nothing to do)",
	  do_assign },
	{ "unassign", "", 0, 0, OPT_CGROUP | OPT_ALL, 0, OPT_CGROUP | OPT_ALL,
	  NEED_BPFFS | NEED_LOCK,
	  "new connections of the cgroup, or of every cgroup ccctl assigned, get the default again",
	  do_unassign },
	{ "features", "", 0, 0, OPT_JSON, 0, 0, NEED_BTF | NEED_FEATURES | NEED_UPDATE,
	  "what this kernel supports (struct_ops links, swap)", do_features },
};

static struct cmd_args args;
static unsigned int given;	/* OPT_* on the command line */

static const char *option_arg(const struct option_def *o)
{
	static char variants[64];

	if (o->bit != OPT_VARIANT)
		return o->arg;
	if (!variants[0])
		snprintf(variants, sizeof(variants), "%s", variant_names("|", "|"));
	return variants;
}

static const char *option_doc(const struct option_def *o)
{
	static char doc[64];

	if (o->bit != OPT_VARIANT)
		return o->doc;
	if (!doc[0])
		snprintf(doc, sizeof(doc), "BIC implementation to load (default: %s)",
			 variant_default());
	return doc;
}

/*
 * "NAME OPERANDS [--opt ARG]... --required ARG (--this ARG | --that)":
 * options in the table's order, those of which one is to be given grouped.
 */
static const char *usage(const struct command *c)
{
	static char buf[256];
	const struct option_def *o;
	unsigned int left = c->one_of;	/* one_of options not shown yet */
	size_t i, n;

	n = snprintf(buf, sizeof(buf), "%s%s", c->name, c->operands);
	for (i = 0; i < ARRAY_SIZE(options) && n < sizeof(buf); i++) {
		o = &options[i];
		if (!(c->opts & o->bit))
			continue;
		if (c->one_of & o->bit) {
			left &= ~o->bit;
			n += snprintf(buf + n, sizeof(buf) - n, "%s--%s%s%s%s",
				      (left | o->bit) == c->one_of ? " (" : " | ", o->name,
				      option_arg(o) ? " " : "", option_arg(o) ?: "", left ? "" : ")");
			continue;
		}
		n += snprintf(buf + n, sizeof(buf) - n, c->required & o->bit ? " --%s%s%s" :
			      " [--%s%s%s]", o->name, option_arg(o) ? " " : "",
			      option_arg(o) ?: "");
	}
	return buf;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	const struct option_def *o = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		if (options[i].key == key)
			o = &options[i];
	if (o) {
		given |= o->bit;
		switch (o->bit) {
		case OPT_VARIANT: args.variant = arg; break;
		case OPT_NAME: args.name = arg; break;
		case OPT_OBJECT: args.object = arg; break;
		case OPT_TRACE: args.trace = true; break;
		case OPT_CGROUP: args.cgroup = arg; break;
		case OPT_FROM: args.from = arg; break;
		case OPT_JSON: args.json = json_output = true; break;
		case OPT_VERBOSE: args.verbose = true; break;
		case OPT_OPS: args.ops = arg; break;
		case OPT_ALL: args.all = true; break;
		}
		return 0;
	}
	switch (key) {
	case ARGP_KEY_INIT:
		/*
		 * getopt has printed the one line that matters about a bad
		 * option; argp's "Try --help" line would be a second.
		 */
		state->err_stream = NULL;
		return 0;
	case ARGP_KEY_ARG:
		if (args.nargs < (int)ARRAY_SIZE(args.args))
			args.args[args.nargs] = arg;
		args.nargs++;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/*
 * Append text to doc indented by indent, its words wrapped before column 78
 * onto lines indented by more (argp would wrap them at the margin, flush).
 */
static size_t wrap(char *doc, size_t n, size_t size, const char *text, int indent, int more)
{
	const char *w = text + strspn(text, " ");
	int col = indent, len;
	bool bol = true;	/* at the beginning of a line */

	n += snprintf(doc + n, n < size ? size - n : 0, "%*s", indent, "");
	while (*w && n < size) {
		len = strcspn(w, " ");
		if (!bol && col + 1 + len > 78) {
			n += snprintf(doc + n, size - n, "\n%*s", more, "");
			col = more;
		} else if (!bol) {
			n += snprintf(doc + n, size - n, " ");
			col++;
		}
		n += snprintf(doc + n, n < size ? size - n : 0, "%.*s", len, w);
		col += len;
		bol = false;
		w += len;
		w += strspn(w, " ");
	}
	n += snprintf(doc + n, n < size ? size - n : 0, "\n");
	return n;
}

/* argp's options and the help's list of commands, made from the tables. */
static void make_argp(struct argp *argp, struct argp_option *opts, char *doc, size_t size)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		opts[i] = (struct argp_option){
			.name = options[i].name,
			.key = options[i].key,
			.arg = option_arg(&options[i]),
			.doc = option_doc(&options[i]),
		};
	n = snprintf(doc, size, "Manage BIC TCP congestion control as BPF struct_ops.\v"
		     "Commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands) && n < size; i++) {
		n = wrap(doc, n, size, usage(&commands[i]), 2, 4);
		n = wrap(doc, n, size, commands[i].doc, 6, 6);
	}
	*argp = (struct argp){
		.options = opts,
		.parser = parse_arg,
		.args_doc = "COMMAND [ARG...]",
		.doc = doc,
	};
}

/* An argument with a control character is refused before anything parses it. */
static int check_args(int argc, char **argv)
{
	int i, c;

	for (i = 1; i < argc; i++) {
		c = control_char(argv[i]);
		if (c)
			return fail(0, "argument %d has a control character (0x%02x): "
				    "arguments must be printable", i, c);
	}
	return 0;
}

/* An algorithm's name given as an operand, or to an option (given_to). */
static int check_name(const char *name, const char *given_to)
{
	const char *why = name ? name_problem(name) : NULL;

	if (!why)
		return 0;
	if (given_to)
		return fail(0, "invalid name '%s' given to %s: %s (%s)", name_shown(name),
			    given_to, why, NAME_RULE);
	return fail(0, "invalid algorithm name '%s': %s (%s)", name_shown(name), why, NAME_RULE);
}

/* Everything argp cannot know: which command, its operands, its options. */
static const struct command *parse_command(void)
{
	const struct command *cmd = NULL;
	size_t i;
	int n;

	if (!args.nargs) {
		fail(0, "no command given (see ccctl --help)");
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, args.args[0]))
			cmd = &commands[i];
	if (!cmd) {
		fail(0, "unknown command '%s' (see ccctl --help)", args.args[0]);
		return NULL;
	}

	n = args.nargs - 1;
	if (n < cmd->min_args || n > cmd->max_args || (cmd->required & ~given) ||
	    (cmd->one_of && __builtin_popcount(given & cmd->one_of) != 1)) {
		fail(0, "usage: ccctl %s", usage(cmd));
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(options); i++) {
		if (given & ~(cmd->opts | OPT_VERBOSE) & options[i].bit) {
			fail(0, "%s takes no --%s option", cmd->name, options[i].name);
			return NULL;
		}
	}
	if (args.variant && !variant_known(args.variant)) {
		fail(0, "unknown variant '%s' (%s)", name_shown(args.variant),
		     variant_names(", ", " or "));
		return NULL;
	}
	if (args.variant && args.object) {
		fail(0, "--variant and --object both choose what to load; give one");
		return NULL;
	}
	if (check_name(args.name, "--name") || check_name(args.from, "--from"))
		return NULL;
	for (i = 1; i < (size_t)args.nargs && i < ARRAY_SIZE(args.args); i++)
		if (check_name(args.args[i], NULL))
			return NULL;
	return cmd;
}

static int check_system(unsigned int needs)
{
	int err;

	if (!has_cap(CAP_SYS_ADMIN) || !has_cap(CAP_NET_ADMIN))
		return fail(0, "must run as root (needs CAP_SYS_ADMIN and CAP_NET_ADMIN)");
	/* libbpf would fall back to files in /boot that describe no running kernel. */
	if ((needs & NEED_BTF) && access(VMLINUX_BTF, R_OK))
		return fail(0, "kernel has no BTF (no %s): struct_ops needs CONFIG_DEBUG_INFO_BTF",
			    VMLINUX_BTF);
	if (needs & NEED_BPFFS) {
		err = pins_check_fs();
		if (err)
			return err;
	}
	if (needs & NEED_FEATURES) {
		err = probe_features(&args.kf, needs & NEED_UPDATE);
		if (err)
			return fail(err, "cannot probe the kernel's struct_ops support");
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct argp_option opts[ARRAY_SIZE(options) + 1] = {};
	const struct command *cmd;
	struct argp argp;
	char doc[4096];

	if (check_args(argc, argv))
		return 1;
	make_argp(&argp, opts, doc, sizeof(doc));
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return 1;
	cmd = parse_command();
	if (!cmd)
		return 1;

	libbpf_print_setup(given & OPT_VERBOSE);
	if (check_system(cmd->needs))
		return 1;
	if (cmd->needs & NEED_LOCK) {
		if (pins_lock())
			return 1;
		if (cmd->needs & NEED_BPFFS)
			pins_clear_stale();
	}
	return cmd->run(&args) ? 1 : 0;
}
