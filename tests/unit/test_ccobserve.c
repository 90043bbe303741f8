// SPDX-License-Identifier: GPL-2.0
/*
 * ccobserve's reader of `ccctl list --json` (tests/tools/ccobserve.c), on
 * the host: the canonical list= field t_58 compares as a string, from
 * ccctl's own compact form and from the same data laid out otherwise
 * (another order of entries, keys and cgroups, blanks, escapes, a key it
 * does not know), cgroup names read back to their bytes from ccctl's
 * escapes (loader/json.c), and a "?" for whatever is not that list.  Nothing else
 * of ccobserve runs here: no bpf(), no sock_diag.
 */
#define main ccobserve_main
#include "ccobserve.c"
#undef main
#include "unit.h"


static void check(const char *what, const char *json, const char *want)
{
	char path[] = "/tmp/test_ccobserve.XXXXXX";
	char *got;
	int fd;

	fd = mkstemp(path);
	if (fd < 0 || (json && write(fd, json, strlen(json)) != (ssize_t)strlen(json)))
		die("cannot write %s", path);
	close(fd);
	if (!json)
		unlink(path);
	got = ccctl_list(path);
	unit_check(!strcmp(got, want), "%s: got '%s', want '%s'", what, got, want);
	free(got);
	unlink(path);
}

int main(void)
{
	check("ccctl's compact form, entries and cgroups sorted",
	      "[{\"name\":\"rnd_a\",\"map_id\":41,\"link_id\":8,\"sockets\":0,\"default\":false,"
	      "\"pinned\":\"/sys/fs/bpf/ccctl/rnd_a/link\",\"cgroups\":[]},"
	      "{\"name\":\"bpf_bic\",\"map_id\":40,\"link_id\":7,\"sockets\":3,\"default\":true,"
	      "\"pinned\":\"/sys/fs/bpf/ccctl/bpf_bic/link\","
	      "\"cgroups\":[\"/sys/fs/cgroup/t58-c2\",\"/sys/fs/cgroup/t58-c1/sub\"]}]\n",
	      "bpf_bic:40:7:3:true:/sys/fs/cgroup/t58-c1/sub+/sys/fs/cgroup/t58-c2,"
	      "rnd_a:41:8:0:false:");
	check("keys in another order, blanks, escapes, an unknown key",
	      " [ {\n \"cgroups\" : [ \"/a\\/b\" ] , \"default\" : false, \"extra\": {\"x\": [1, null]},"
	      " \"sockets\": 12, \"link_id\": 0, \"map_id\": 5, \"name\": \"r\\u006eo\" } ]\n",
	      "rno:5:0:12:false:/a/b");
	check("cgroup names as bytes: UTF-8 as it is, \\u as UTF-8, \\udcXX as byte XX",
	      "[{\"name\":\"r\",\"map_id\":1,\"link_id\":2,\"sockets\":0,\"default\":false,"
	      "\"cgroups\":[\"/h\xc3\xa9\\u00e9\\udce9\\\"\\\\\\ud83d\\ude00\\udcff\"]}]",
	      "r:1:2:0:false:/h\xc3\xa9\xc3\xa9\xe9\"\\\xf0\x9f\x98\x80\xff");
	check("a lone high surrogate", "[{\"name\":\"\\ud83dx\"}]", "?not-ccctl-list-json");
	check("no registration", "[]\n", "");
	check("an error instead of a list", "{\"error\":\"ccctl: cannot list\"}\n",
	      "?not-ccctl-list-json");
	check("a message instead of JSON", "ccctl: cannot list /sys/fs/bpf/ccctl\n",
	      "?not-ccctl-list-json");
	check("a list cut short", "[{\"name\":\"bpf_bic\",\"map_id\":40", "?not-ccctl-list-json");
	check("something after the list", "[] []", "?not-ccctl-list-json");
	check("an empty file", "", "?empty");
	check("no file", NULL, "?unreadable");
	return unit_done();
}
