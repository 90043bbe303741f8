/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one writer of ccctl's output: JSON written compactly (no blanks, as
 * scripts have parsed it), and the plain tables and records of the same
 * data, so that the two views cannot drift apart.
 */
#ifndef __CCCTL_JSON_H
#define __CCCTL_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define JW_MAX_DEPTH	8

struct json_writer {
	FILE *f;
	int depth;
	bool first[JW_MAX_DEPTH];	/* nothing written yet at this depth */
};

void jw_init(struct json_writer *w, FILE *f);
void jw_start_object(struct json_writer *w);
void jw_end_object(struct json_writer *w);
void jw_start_array(struct json_writer *w);
void jw_end_array(struct json_writer *w);
/* The key of the next value in an object. */
void jw_name(struct json_writer *w, const char *name);
/* A string, escaped as JSON must be; a byte that is not UTF-8 as \udcXX (json.c). */
void jw_string(struct json_writer *w, const char *s);
void jw_uint(struct json_writer *w, unsigned long long v);
void jw_bool(struct json_writer *w, bool v);

/* One field of a record: how JSON names it and how a person reads it. */
enum field_type { FIELD_STR, FIELD_UINT, FIELD_BOOL, FIELD_STRV };

struct field {
	const char *key;	/* JSON key */
	const char *head;	/* table heading or record label; NULL: JSON only */
	int width;		/* table column: < 0 left-aligned, 0 unpadded (last) */
	enum field_type type;
};

struct value {
	const char *s;			/* FIELD_STR */
	unsigned long long u;		/* FIELD_UINT */
	bool b;				/* FIELD_BOOL: "yes" or no_text (default "no") */
	const char *no_text;
	const char *const *v;		/* FIELD_STRV */
	int nv;
};

/*
 * A table: its heading (plain) or '[' (JSON), then one row or object per
 * table_row(), then table_end().
 */
struct table {
	struct json_writer w;
	const struct field *f;
	int nf;
	bool json;
};

void table_begin(struct table *t, FILE *out, const struct field *f, int nf, bool json);
void table_row(struct table *t, const struct value *v);
void table_end(struct table *t);

/* One record: "LABEL: value" lines (plain) or one object (JSON). */
void record_print(FILE *out, const struct field *f, const struct value *v, int nf, bool json);

#endif /* __CCCTL_JSON_H */
