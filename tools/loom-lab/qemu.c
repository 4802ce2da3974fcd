// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: one QEMU per host.  TCG, PVH boot of the uncompressed vmlinux,
 * guest RAM in a shared /dev/shm file the card emulator maps too, the host
 * root shared read-only by virtio-9p (the tree by a virtio-9p device of its
 * own), console on the first serial port
 * (into DIR/hN.console.log), the agent channel on the second one, and the
 * card as an ivshmem-doorbell device served by the emulator, and (unless
 * --no-net) a virtio-net NIC on the lab's vde_switch with the lab's files
 * for the guests shared read-only by a second virtio-9p device.  The vCPU
 * has RDRAND, so that no guest kernel waits for entropy.  The TCG
 * translation cache is capped (LAB_TCG_TB_MIB): left alone it grows to
 * 1 GiB per guest.
 *
 * The card sits alone behind a PCI-to-PCI bridge of its own.  Its
 * 256-byte register BAR0 holds the Doorbell register, and the page around
 * it is the kick page loom.ko maps into every process that opens
 * /dev/loomN.  On the root bus the firmware (or the guest kernel, on a
 * rescan) packs small BARs of other devices next to each other, so another
 * device's registers could land in that page; a bridge's memory window is
 * aligned to 1 MiB and holds only the BARs behind it (the card's BAR1,
 * its MSI-X table, is a page of its own), so nothing else ever shares the
 * kick page, whatever devices a guest has.
 */
#include <stdio.h>

#include "lab.h"

void lab_qemu_argv(const struct lab_config *cfg, int i, struct lab_argv *a)
{
	char ram[LAB_PATH_MAX], dir[LAB_PATH_MAX], addr[32], name[32], mac[32], ip[64] = "";

	lab_ram_path(cfg, i, ram);
	lab_mgmt_addr(i, addr, sizeof(addr));
	lab_mgmt_name(i, name, sizeof(name));
	lab_argv_add(a, "/usr/bin/qemu-system-x86_64");
	lab_argv_add(a, "-name");
	lab_argv_add(a, "loom-lab-h%d", i);
	lab_argv_add(a, "-no-user-config");
	lab_argv_add(a, "-nodefaults");
	lab_argv_add(a, "-accel");
	lab_argv_add(a, "tcg,tb-size=%d", LAB_TCG_TB_MIB);
	lab_argv_add(a, "-machine");
	lab_argv_add(a, "pc,memory-backend=ram");
	/*
	 * QEMU's default TCG CPU, qemu64, plus RDRAND (TCG implements it): a
	 * guest kernel without a virtio-rng driver (the debug kernel of
	 * tools/debug-kernel has none) has a ready crng at once from the
	 * CPU's random numbers instead of waiting minutes for jitter entropy.
	 */
	lab_argv_add(a, "-cpu");
	lab_argv_add(a, "qemu64,+rdrand");
	lab_argv_add(a, "-m");
	lab_argv_add(a, "%d", cfg->mem_mib);
	lab_argv_add(a, "-smp");
	lab_argv_add(a, "%d", cfg->cpus > 1 ? cfg->cpus : 1);
	lab_argv_add(a, "-object");
	lab_argv_add(a, "memory-backend-file,id=ram,size=%dM,mem-path=%s,share=on",
		     cfg->mem_mib, ram);
	lab_argv_add(a, "-kernel");
	lab_argv_add(a, "%s", cfg->vmlinux);
	lab_argv_add(a, "-initrd");
	lab_argv_add(a, "%s", cfg->initramfs);
	lab_argv_add(a, "-append");
	if (!cfg->no_net)
		snprintf(ip, sizeof(ip), " loom_lab.ip=%s/%d", addr, LAB_MGMT_PREFIX_LEN);
	/* acpi=noirq: every device of the lab interrupts by MSI-X, and
	 * interpreting the ACPI interrupt links of each PCI device took a
	 * second or more of every TCG boot; cryptomgr.notests: the kernel's
	 * self-tests of its crypto algorithms, which no lab test is about,
	 * took about a tenth of a guest's boot CPU */
	lab_argv_add(a, "console=ttyS0 panic=-1 no_timer_check acpi=noirq cryptomgr.notests%s "
		     "loom_lab.host=%d "
		     "loom_lab.tree=%s loom_lab.agent=%s loom_lab.name=%s%s%s%s",
		     cfg->hosts > LAB_BIG_HOSTS ? " " LAB_BIG_LAB_KERNEL_ARGS : "", i,
		     cfg->tree, cfg->agent, name, ip, cfg->append[0] ? " " : "", cfg->append);
	lab_argv_add(a, "-display");
	lab_argv_add(a, "none");
	lab_argv_add(a, "-no-reboot");
	lab_argv_add(a, "-serial");
	lab_argv_add(a, "file:%s/h%d.console.log", cfg->dir, i);
	lab_argv_add(a, "-chardev");
	lab_argv_add(a, "socket,id=agent,path=%s/h%d.agent.sock", cfg->dir, i);
	lab_argv_add(a, "-serial");
	lab_argv_add(a, "chardev:agent");
	/* entropy from the host's /dev/urandom, so boot does not wait for it */
	lab_argv_add(a, "-device");
	lab_argv_add(a, "virtio-rng-pci");
	lab_argv_add(a, "-virtfs");
	lab_argv_add(a, "local,path=/,mount_tag=hostroot,security_model=none,"
		     "readonly=on,multidevs=remap");
	lab_argv_add(a, "-virtfs");
	lab_argv_add(a, "local,path=%s,mount_tag=loomtree,security_model=none,"
		     "readonly=on,multidevs=remap", cfg->tree);
	if (!cfg->no_net) {
		lab_switch_dir(cfg, dir);
		lab_mgmt_mac(i, mac, sizeof(mac));
		lab_argv_add(a, "-netdev");
		lab_argv_add(a, "vde,id=mgmt,sock=%s", dir);
		lab_argv_add(a, "-device");
		lab_argv_add(a, "virtio-net-pci,netdev=mgmt,mac=%s,romfile=", mac);
		lab_guest_dir(cfg, dir);
		lab_argv_add(a, "-virtfs");
		lab_argv_add(a, "local,path=%s,mount_tag=loomlab,security_model=none,"
			     "readonly=on", dir);
	}
	if (!cfg->no_card) {
		lab_argv_add(a, "-chardev");
		lab_argv_add(a, "socket,id=ivs,path=%s/card%d.ivshmem.sock", cfg->dir, i);
		lab_argv_add(a, "-device");
		lab_argv_add(a, "pci-bridge,id=cardbr,chassis_nr=1");
		lab_argv_add(a, "-device");
		lab_argv_add(a, "ivshmem-doorbell,chardev=ivs,vectors=4,bus=cardbr,addr=0");
	}
}
