// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: COUNT copies of Reno, registered under names of 15 bytes
 * (many_0000000000 and on), then, if TAIL is 1 to 15, one more under a
 * name of TAIL bytes (a prefix of many_tail_zzzzz), as a host with many
 * algorithms has them.  The kernel lists every congestion control in one
 * buffer of TCP_CA_BUF_MAX bytes (tcp_available_congestion_control): t_84
 * fills it this way, to the byte, at the cost of one insmod.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <net/tcp.h>

static unsigned int count;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "how many algorithms to register");

static unsigned int tail;
module_param(tail, uint, 0444);
MODULE_PARM_DESC(tail, "the length of one more name, 1 to 15 (0: none)");

static struct tcp_congestion_ops *ops;
static unsigned int registered;

static void many_unregister(void)
{
	while (registered)
		tcp_unregister_congestion_control(&ops[--registered]);
	kfree(ops);
}

static int __init many_init(void)
{
	struct tcp_congestion_ops *ca;
	int err;

	if (tail >= TCP_CA_NAME_MAX)
		return -EINVAL;
	ops = kcalloc(count + 1, sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	for (registered = 0; registered < count + !!tail; registered++) {
		ca = &ops[registered];
		ca->ssthresh = tcp_reno_ssthresh;
		ca->cong_avoid = tcp_reno_cong_avoid;
		ca->undo_cwnd = tcp_reno_undo_cwnd;
		ca->owner = THIS_MODULE;
		if (registered < count)
			snprintf(ca->name, TCP_CA_NAME_MAX, "many_%010u", registered);
		else
			snprintf(ca->name, tail + 1, "many_tail_zzzzz");
		err = tcp_register_congestion_control(ca);
		if (err) {
			many_unregister();
			return err;
		}
	}
	return 0;
}

static void __exit many_exit(void)
{
	many_unregister();
}

module_init(many_init);
module_exit(many_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("COUNT copies of Reno, to fill the kernel's list of algorithms");
