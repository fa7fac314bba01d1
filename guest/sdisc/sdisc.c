// SPDX-License-Identifier: GPL-2.0
/*
 * sdisc: a block device with slow discards, for the swap discard benchmark
 * and tests. It stacks on another block device (zram in the guest): reads
 * and writes go straight through, while each discard waits
 *
 *	delay_us + size in MiB * us_per_mib
 *
 * before it goes down, with at most "depth" discards in service at once,
 * the way eMMC, UFS and cheap SSDs handle discard. The discards it gets
 * are counted in /sys/block/sdisc0/stat (discard I/Os, sectors, ticks).
 *
 *	insmod sdisc.ko lower=/dev/zram1 delay_us=5000 us_per_mib=500 depth=4
 *	-> /dev/sdisc0
 *
 * Other parameters: discard=0 (a device without discard), gran_kib
 * (discard granularity), max_discard_kib (largest discard; 0: no limit),
 * fail_discard=1 (writable: every discard ends with an I/O error after its
 * delay, and nothing is discarded).
 * This is test equipment for the harness, not part of the patch series.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

static char *lower;
module_param(lower, charp, 0444);
MODULE_PARM_DESC(lower, "block device to stack on (required)");
static unsigned int delay_us = 5000;
module_param(delay_us, uint, 0644);
MODULE_PARM_DESC(delay_us, "time every discard takes, in microseconds");
static unsigned int us_per_mib = 500;
module_param(us_per_mib, uint, 0644);
MODULE_PARM_DESC(us_per_mib, "time a discard takes per MiB, in microseconds");
static unsigned int depth = 4;
module_param(depth, uint, 0444);
MODULE_PARM_DESC(depth, "discards in service at once");
static bool discard = true;
module_param(discard, bool, 0444);
MODULE_PARM_DESC(discard, "support discard at all");
static unsigned int gran_kib = 4;
module_param(gran_kib, uint, 0444);
MODULE_PARM_DESC(gran_kib, "discard granularity in KiB");
static unsigned int max_discard_kib;
module_param(max_discard_kib, uint, 0444);
MODULE_PARM_DESC(max_discard_kib, "largest discard in KiB (0: no limit)");
static bool fail_discard;
module_param(fail_discard, bool, 0644);
MODULE_PARM_DESC(fail_discard, "end every discard with an I/O error after its delay, without discarding");
static struct workqueue_struct *sdisc_wq;
static struct file *sdisc_lower;
static struct gendisk *sdisc_disk;

struct sdisc_req {
	struct work_struct work;
	struct bio *bio;
	unsigned long start;
};

static void sdisc_pass(struct bio *bio)
{
	bio_set_dev(bio, file_bdev(sdisc_lower));
	submit_bio_noacct(bio);
}

static void sdisc_discard_work(struct work_struct *work)
{
	struct sdisc_req *req = container_of(work, struct sdisc_req, work);
	u64 us = delay_us + ((u64)bio_sectors(req->bio) * us_per_mib >> 11);

	fsleep(us);
	bio_end_io_acct(req->bio, req->start);
	if (READ_ONCE(fail_discard))
		bio_io_error(req->bio);
	else
		sdisc_pass(req->bio);
	kfree(req);
}

static void sdisc_submit_bio(struct bio *bio)
{
	struct sdisc_req *req;

	bio = bio_split_to_limits(bio);
	if (!bio)
		return;
	if (bio_op(bio) != REQ_OP_DISCARD) {
		sdisc_pass(bio);
		return;
	}

	req = kmalloc(sizeof(*req), GFP_NOIO | __GFP_NOWARN);
	if (!req) {
		sdisc_pass(bio);
		return;
	}
	req->bio = bio;
	req->start = bio_start_io_acct(bio);
	INIT_WORK(&req->work, sdisc_discard_work);
	queue_work(sdisc_wq, &req->work);
}

static const struct block_device_operations sdisc_fops = {
	.owner = THIS_MODULE,
	.submit_bio = sdisc_submit_bio,
};

static int __init sdisc_init(void)
{
	struct queue_limits lim = {};
	struct block_device *bdev;
	int err;

	if (!lower || !depth)
		return -EINVAL;
	sdisc_lower = bdev_file_open_by_path(lower, BLK_OPEN_READ | BLK_OPEN_WRITE,
					     &sdisc_lower, NULL);
	if (IS_ERR(sdisc_lower))
		return PTR_ERR(sdisc_lower);
	bdev = file_bdev(sdisc_lower);

	err = -ENOMEM;
	sdisc_wq = alloc_workqueue("sdisc", WQ_UNBOUND | WQ_MEM_RECLAIM, depth);
	if (!sdisc_wq)
		goto out_lower;

	lim.logical_block_size = bdev_logical_block_size(bdev);
	lim.physical_block_size = max(4096U, lim.logical_block_size);
	lim.max_hw_sectors = queue_max_hw_sectors(bdev_get_queue(bdev));
	/* discards are counted in /sys/block/sdisc0/stat */
	lim.features = BLK_FEAT_IO_STAT;
	if (discard) {
		lim.max_hw_discard_sectors = max_discard_kib ?
			max_discard_kib * 2 : UINT_MAX >> SECTOR_SHIFT;
		lim.discard_granularity = max(gran_kib * 1024,
					      lim.logical_block_size);
	}
	sdisc_disk = blk_alloc_disk(&lim, NUMA_NO_NODE);
	if (IS_ERR(sdisc_disk)) {
		err = PTR_ERR(sdisc_disk);
		goto out_wq;
	}
	strscpy(sdisc_disk->disk_name, "sdisc0", DISK_NAME_LEN);
	sdisc_disk->fops = &sdisc_fops;
	sdisc_disk->flags |= GENHD_FL_NO_PART;
	set_capacity(sdisc_disk, bdev_nr_sectors(bdev));
	err = add_disk(sdisc_disk);
	if (err)
		goto out_disk;
	pr_info("sdisc0 on %s: discard %s, %u us + %u us/MiB, depth %u, granularity %u KiB, max %u KiB\n",
		lower, discard ? "on" : "off", delay_us, us_per_mib, depth,
		gran_kib, max_discard_kib);
	return 0;

out_disk:
	put_disk(sdisc_disk);
out_wq:
	destroy_workqueue(sdisc_wq);
out_lower:
	fput(sdisc_lower);
	return err;
}

static void __exit sdisc_exit(void)
{
	del_gendisk(sdisc_disk);
	put_disk(sdisc_disk);
	destroy_workqueue(sdisc_wq);
	fput(sdisc_lower);
}

module_init(sdisc_init);
module_exit(sdisc_exit);
MODULE_DESCRIPTION("Block device with slow discards, for swap discard tests");
MODULE_LICENSE("GPL");
