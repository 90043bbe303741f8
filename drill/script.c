// SPDX-License-Identifier: GPL-2.0
/*
 * The script format, one statement per line, '#' starts a comment:
 *
 *   set mss N | sack on|off | ts on|off | ecn on|off | wscale N | app N
 *   deliver N [every K]	deliver the next N queued segments, ACK every K
 *   rounds N [every K]		N round trips: deliver all that was queued
 *   until cwnd N [every K]	rounds until cwnd >= N after an ACK
 *   drop [N|all]		the next N (1, all) queued segments are lost
 *   drop retx			the first queued retransmission is lost
 *   hold [N|all]		... are held back, as if delayed
 *   release [N]		deliver the first N held segments (all), one ACK each
 *   wait rto | wait gate	let the retransmission timer fire / HZ/32 pass
 *   app N			the application keeps at most N segments
 *				unacknowledged (0: always more to send)
 *   mark [N]			the next N (1) queued segments arrive CE-marked
 *				(set ecn on; only ECN-capable ones, i.e. new data)
 *
 * "Queued" means transmitted by the sender and not yet seen by the
 * receiver, in the order the sender transmitted them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drill.h"

static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long n;

	if (!s || !*s)
		return -1;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n > UINT32_MAX || s[0] == '-')
		return -1;
	*v = n;
	return 0;
}

static int parse_onoff(const char *s, bool *v)
{
	if (s && !strcmp(s, "on"))
		*v = true;
	else if (s && !strcmp(s, "off"))
		*v = false;
	else
		return -1;
	return 0;
}

/* Optional "every K" at tok[i]. */
static int parse_every(char **tok, int ntok, int i, uint32_t *k)
{
	*k = 1;
	if (i == ntok)
		return 0;
	if (i + 2 != ntok || strcmp(tok[i], "every") || parse_u32(tok[i + 1], k) || !*k)
		return -1;
	return 0;
}

static int parse_line(struct script *sc, char **tok, int ntok, int line)
{
	struct op *op = &sc->ops[sc->nops];
	const char *w = tok[0];

	op->line = line;
	op->n = 1;
	op->k = 1;

	if (!strcmp(w, "set")) {
		if (ntok != 3)
			return -1;
		if (!strcmp(tok[1], "mss"))
			return parse_u32(tok[2], &sc->mss) || sc->mss < 64 || sc->mss > 1400 ? -1 : 0;
		if (!strcmp(tok[1], "sack"))
			return parse_onoff(tok[2], &sc->sack);
		if (!strcmp(tok[1], "ts"))
			return parse_onoff(tok[2], &sc->ts);
		if (!strcmp(tok[1], "ecn"))
			return parse_onoff(tok[2], &sc->ecn);
		if (!strcmp(tok[1], "wscale"))
			return parse_u32(tok[2], &sc->wscale) || sc->wscale > 14 ? -1 : 0;
		if (!strcmp(tok[1], "app"))
			return parse_u32(tok[2], &sc->app) || sc->app > APP_LIMIT_MAX ? -1 : 0;
		return -1;
	}

	if (sc->nops == DRILL_MAX_OPS)
		return -1;

	if (!strcmp(w, "deliver") || !strcmp(w, "rounds")) {
		op->kind = w[0] == 'd' ? OP_DELIVER : OP_ROUNDS;
		if (ntok < 2 || parse_u32(tok[1], &op->n) || !op->n)
			return -1;
		if (parse_every(tok, ntok, 2, &op->k))
			return -1;
	} else if (!strcmp(w, "until")) {
		op->kind = OP_UNTIL;
		if (ntok < 3 || strcmp(tok[1], "cwnd") || parse_u32(tok[2], &op->n))
			return -1;
		if (parse_every(tok, ntok, 3, &op->k))
			return -1;
	} else if (!strcmp(w, "drop") || !strcmp(w, "hold")) {
		op->kind = w[0] == 'd' ? OP_DROP : OP_HOLD;
		if (ntok == 2 && !strcmp(tok[1], "retx") && op->kind == OP_DROP)
			op->kind = OP_DROP_RETX;
		else if (ntok == 2 && !strcmp(tok[1], "all"))
			op->n = 0;
		else if (ntok > 2 || (ntok == 2 && (parse_u32(tok[1], &op->n) || !op->n)))
			return -1;
	} else if (!strcmp(w, "mark")) {
		op->kind = OP_MARK;
		if (ntok > 2 || (ntok == 2 && (parse_u32(tok[1], &op->n) || !op->n)))
			return -1;
	} else if (!strcmp(w, "release")) {
		op->kind = OP_RELEASE;
		op->n = 0;	/* all */
		if (ntok > 2 || (ntok == 2 && (parse_u32(tok[1], &op->n) || !op->n)))
			return -1;
	} else if (!strcmp(w, "wait")) {
		if (ntok != 2)
			return -1;
		if (!strcmp(tok[1], "rto"))
			op->kind = OP_WAIT_RTO;
		else if (!strcmp(tok[1], "gate"))
			op->kind = OP_WAIT_GATE;
		else
			return -1;
	} else if (!strcmp(w, "app")) {
		op->kind = OP_APP;
		if (ntok != 2 || parse_u32(tok[1], &op->n) || op->n > APP_LIMIT_MAX)
			return -1;
	} else {
		return -1;
	}
	sc->nops++;
	return 0;
}

int script_load(struct script *sc, const char *path)
{
	char buf[512];
	int line = 0, i;
	FILE *f;

	memset(sc, 0, sizeof(*sc));
	sc->name = path;
	sc->mss = 1000;
	sc->sack = true;
	sc->wscale = 7;

	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "ackdrill: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *tok[8], *p, *save = NULL;
		int ntok = 0;

		line++;
		p = strchr(buf, '#');
		if (p)
			*p = '\0';
		for (p = strtok_r(buf, " \t\r\n", &save); p; p = strtok_r(NULL, " \t\r\n", &save)) {
			if (ntok == 8)
				break;
			tok[ntok++] = p;
		}
		if (!ntok)
			continue;
		if (ntok == 8 || parse_line(sc, tok, ntok, line)) {
			fprintf(stderr, "ackdrill: %s:%d: not a statement (see drill/script.c)\n",
				path, line);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!sc->nops) {
		fprintf(stderr, "ackdrill: %s: no statements\n", path);
		return -1;
	}
	for (i = 0; i < sc->nops; i++)
		if (sc->ops[i].kind == OP_MARK && !sc->ecn) {
			fprintf(stderr, "ackdrill: %s:%d: mark needs set ecn on\n", path,
				sc->ops[i].line);
			return -1;
		}
	return 0;
}

int drill_args(int argc, char **argv, const char *tool, bool *ipv6, const char **out,
	       const char **script, const char **algo)
{
	int opt;

	*out = NULL;
	if (ipv6)
		*ipv6 = false;
	while ((opt = getopt(argc, argv, ipv6 ? "6o:" : "o:")) != -1) {
		if (opt == '6')
			*ipv6 = true;
		else if (opt == 'o')
			*out = optarg;
		else
			goto usage;
	}
	if (argc - optind != 2)
		goto usage;
	*script = argv[optind];
	*algo = argv[optind + 1];
	return 0;
usage:
	fprintf(stderr, "usage: %s %s[-o CSV] SCRIPT ALGO\n", tool, ipv6 ? "[-6] " : "");
	return -1;
}
