// SPDX-License-Identifier: GPL-2.0
/* ccctl's JSON writer, and its tables and records in JSON or plain text. */
#include <string.h>
#include "json.h"
#include "names.h"

void jw_init(struct json_writer *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->first[0] = true;
}

/* Before any value: the comma that separates it from the previous one. */
static void jw_value(struct json_writer *w)
{
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = false;
}

static void jw_open(struct json_writer *w, char c)
{
	jw_value(w);
	fputc(c, w->f);
	if (w->depth < JW_MAX_DEPTH - 1)
		w->depth++;
	w->first[w->depth] = true;
}

static void jw_close(struct json_writer *w, char c)
{
	fputc(c, w->f);
	if (w->depth > 0)
		w->depth--;
}

void jw_start_object(struct json_writer *w)
{
	jw_open(w, '{');
}

void jw_end_object(struct json_writer *w)
{
	jw_close(w, '}');
}

void jw_start_array(struct json_writer *w)
{
	jw_open(w, '[');
}

void jw_end_array(struct json_writer *w)
{
	jw_close(w, ']');
}

/*
 * The length of the UTF-8 sequence at s (1-4), or 0 where s starts none:
 * a stray continuation byte, an overlong form, a surrogate, a code point
 * past U+10FFFF, or a sequence cut short (RFC 3629's table).
 */
static int utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int i, n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* U+D800-DFFF */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* past U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * Names come from the kernel as bytes (a cgroup's may hold any but '/'),
 * and JSON text is UTF-8: valid UTF-8 is written as it is, '"', '\\' and
 * the control characters escaped; a byte that is not part of valid UTF-8
 * is written as the lone surrogate U+DC00 + byte ("\udce9" for 0xe9), the
 * escape Python's surrogateescape (PEP 383) reads back to the same byte.
 * So the output is always UTF-8 and grammatical JSON, and no two names
 * look alike; a reader that cannot keep a lone surrogate (jq shows U+FFFD,
 * RFC 8259 8.2) still sees where the byte was.
 */
static void jw_quoted(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	fputc('"', f);
	while (*s) {
		n = utf8_len(s);
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\u%04x", *s);
		else if (!n)
			fprintf(f, "\\udc%02x", *s);
		else
			fwrite(s, 1, n, f);
		s += n ?: 1;
	}
	fputc('"', f);
}

void jw_name(struct json_writer *w, const char *name)
{
	jw_value(w);
	jw_quoted(w->f, name);
	fputc(':', w->f);
	/* The value that follows takes no comma of its own. */
	w->first[w->depth] = true;
}

void jw_string(struct json_writer *w, const char *s)
{
	jw_value(w);
	jw_quoted(w->f, s);
}

void jw_uint(struct json_writer *w, unsigned long long v)
{
	jw_value(w);
	fprintf(w->f, "%llu", v);
}

void jw_bool(struct json_writer *w, bool v)
{
	jw_value(w);
	fputs(v ? "true" : "false", w->f);
}

static void jw_field(struct json_writer *w, const struct field *f, const struct value *v)
{
	int i;

	jw_name(w, f->key);
	switch (f->type) {
	case FIELD_STR:
		jw_string(w, v->s);
		break;
	case FIELD_UINT:
		jw_uint(w, v->u);
		break;
	case FIELD_BOOL:
		jw_bool(w, v->b);
		break;
	case FIELD_STRV:
		jw_start_array(w);
		for (i = 0; i < v->nv; i++)
			jw_string(w, v->v[i]);
		jw_end_array(w);
		break;
	}
}

/* A value as a person reads it: strings as they are, numbers in buf. */
static const char *plain_value(char *buf, size_t size, const struct value *v,
			       enum field_type type)
{
	switch (type) {
	case FIELD_STR:
		return v->s;
	case FIELD_UINT:
		snprintf(buf, size, "%llu", v->u);
		return buf;
	case FIELD_BOOL:
		return v->b ? "yes" : v->no_text ?: "no";
	case FIELD_STRV:
		break;
	}
	return "";
}

/*
 * A cell as a person reads it, on one line whatever the name holds: a
 * control character as \xNN and so '\\' as "\\\\"; other bytes as they are.
 */
static void plain_cell(FILE *out, int width, const char *s, bool last)
{
	int pad = width < 0 ? -width : width;
	int n = show_bytes(NULL, s, strlen(s), SHOW_CONTROLS_BS);
	char shown[4];

	if (last)
		pad = 0;
	if (width > 0)
		fprintf(out, "%*s", pad > n ? pad - n : 0, "");
	for (; *s; s++)
		fwrite(shown, 1, show_bytes(shown, s, 1, SHOW_CONTROLS_BS), out);
	if (width < 0)
		fprintf(out, "%*s", pad > n ? pad - n : 0, "");
	fputc(last ? '\n' : ' ', out);
}

/* The last field a plain table shows: it is not padded. */
static int last_shown(const struct field *f, int nf)
{
	int i, last = -1;

	for (i = 0; i < nf; i++)
		if (f[i].head)
			last = i;
	return last;
}

void table_begin(struct table *t, FILE *out, const struct field *f, int nf, bool json)
{
	int i, last = last_shown(f, nf);

	jw_init(&t->w, out);
	t->f = f;
	t->nf = nf;
	t->json = json;
	if (json) {
		jw_start_array(&t->w);
		return;
	}
	for (i = 0; i < nf; i++)
		if (f[i].head)
			plain_cell(out, f[i].width, f[i].head, i == last);
}

void table_row(struct table *t, const struct value *v)
{
	int i, last = last_shown(t->f, t->nf);
	char buf[32];

	if (t->json) {
		jw_start_object(&t->w);
		for (i = 0; i < t->nf; i++)
			jw_field(&t->w, &t->f[i], &v[i]);
		jw_end_object(&t->w);
		return;
	}
	for (i = 0; i < t->nf; i++) {
		if (!t->f[i].head)
			continue;
		plain_cell(t->w.f, t->f[i].width, plain_value(buf, sizeof(buf), &v[i], t->f[i].type),
			   i == last);
	}
}

void table_end(struct table *t)
{
	if (!t->json)
		return;
	jw_end_array(&t->w);
	fputc('\n', t->w.f);
}

void record_print(FILE *out, const struct field *f, const struct value *v, int nf, bool json)
{
	struct json_writer w;
	int i, width = 0;
	char buf[32];

	if (json) {
		jw_init(&w, out);
		jw_start_object(&w);
		for (i = 0; i < nf; i++)
			jw_field(&w, &f[i], &v[i]);
		jw_end_object(&w);
		fputc('\n', out);
		return;
	}
	for (i = 0; i < nf; i++)
		if (f[i].head && (int)strlen(f[i].head) > width)
			width = strlen(f[i].head);
	for (i = 0; i < nf; i++) {
		if (!f[i].head)
			continue;
		fprintf(out, "%s:%*s %s\n", f[i].head, width - (int)strlen(f[i].head), "",
			plain_value(buf, sizeof(buf), &v[i], f[i].type));
	}
}
