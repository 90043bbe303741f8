// SPDX-License-Identifier: GPL-2.0
/* ccctl's JSON writer, and its tables and records in JSON or plain text. */
#include <string.h>
#include "json.h"

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

static void jw_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
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

static void plain_cell(FILE *out, int width, const char *s, bool last)
{
	if (width < 0 && !last)
		fprintf(out, "%-*s", -width, s);
	else if (width > 0)
		fprintf(out, "%*s", width, s);
	else
		fputs(s, out);
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
