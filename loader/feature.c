// SPDX-License-Identifier: GPL-2.0
/* ccctl features: what this kernel can do with struct_ops congestion control. */
#include <stdio.h>
#include "ccctl.h"
#include "common.h"
#include "json.h"

int do_features(const struct cmd_args *a)
{
	static const struct field f[] = {
		{ "struct_ops_link", "struct_ops links", 0, FIELD_BOOL },
		{ "struct_ops_update", "swap (link update)", 0, FIELD_BOOL },
	};
	const struct value v[] = {
		{ .b = a->kf.struct_ops_link,
		  .no_text = "no (registered through the map, Linux < " STRUCT_OPS_LINK_SINCE ")" },
		{ .b = a->kf.struct_ops_update, .no_text = "no (Linux < " STRUCT_OPS_LINK_SINCE ")" },
	};

	record_print(stdout, f, v, ARRAY_SIZE(f), a->json);
	return 0;
}
