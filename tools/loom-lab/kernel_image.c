// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: the guest kernel.  QEMU boots the uncompressed ELF vmlinux by
 * PVH, about twice as fast as the bzImage.  Debian's /boot/vmlinuz holds an
 * xz stream; we find its magic, decompress the first stream with
 * `xz -dc --single-stream` (which ignores whatever follows it) and cache the
 * result in TREE/.lab-cache/<kver>/vmlinux until the vmlinuz changes.
 * Another kernel (a debug build, say) comes as an ELF vmlinux or a bzImage
 * with its module tree and is used as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab.h"
#include "sys.h"

static const unsigned char xz_magic[6] = { 0xFD, '7', 'z', 'X', 'Z', 0x00 };

int lab_guest_kver(const char *tree, char *out, size_t len)
{
	char cmd[LAB_PATH_MAX + 64];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s/tools/deps/guest-kver'", tree);
	p = popen(cmd, "r");
	if (!p || !fgets(out, (int)len, p)) {
		if (p)
			pclose(p);
		lab_err("cannot learn the guest kernel release from %s/tools/deps/guest-kver "
			"(is --tree right? are linux-image-amd64 and its headers installed?)",
			tree);
		return -1;
	}
	out[strcspn(out, "\n")] = 0;
	if (pclose(p) != 0 || !*out) {
		lab_err("%s/tools/deps/guest-kver failed", tree);
		return -1;
	}
	return 0;
}

int lab_cache_dir(const char *tree, const char *kver, char *out)
{
	char top[LAB_PATH_MAX];

	if (lab_path(top, tree, ".lab-cache") < 0 ||
	    lab_path(out, top, "%s", kver) < 0) {
		lab_err("cache path under %s is too long", tree);
		return -1;
	}
	if ((mkdir(top, 0755) < 0 && errno != EEXIST) ||
	    (mkdir(out, 0755) < 0 && errno != EEXIST)) {
		lab_err("cannot create the lab cache %s: %s (is the tree writable?)",
			out, strerror(errno));
		return -1;
	}
	return 0;
}

/* Runs xz on the stream starting at offset into tmp; 0 if tmp is an ELF. */
static int try_stream(const char *vmlinuz, long offset, const char *tmp)
{
	int in = open(vmlinuz, O_RDONLY | O_CLOEXEC);
	int out, status;
	char elf[4] = { 0 };
	struct stat st;
	pid_t pid;

	if (in < 0)
		return -1;
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	if (lseek(in, offset, SEEK_SET) != offset) {
		close(in);
		close(out);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(in, 0);
		dup2(out, 1);
		if (null >= 0)
			dup2(null, 2);
		execlp("xz", "xz", "-dc", "--single-stream", (char *)NULL);
		_exit(127);
	}
	close(in);
	close(out);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -2;
	/* Whatever xz says about what follows the stream, the result counts
	 * when it is a complete-looking ELF image. */
	in = open(tmp, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	if (read(in, elf, 4) != 4 || memcmp(elf, "\177ELF", 4) ||
	    fstat(in, &st) < 0 || st.st_size < (1 << 20)) {
		close(in);
		return -1;
	}
	close(in);
	return 0;
}

int lab_prepare_vmlinux(const char *tree, const char *kver, char *out)
{
	char vmlinuz[LAB_PATH_MAX], dir[LAB_PATH_MAX], tmp[LAB_PATH_MAX];
	struct stat zst, vst;
	unsigned char *img;
	size_t len;
	int rc = -1;

	snprintf(vmlinuz, sizeof(vmlinuz), "/boot/vmlinuz-%s", kver);
	if (stat(vmlinuz, &zst) < 0) {
		lab_err("guest kernel %s: %s (install linux-image-amd64)", vmlinuz,
			strerror(errno));
		return -1;
	}
	if (lab_cache_dir(tree, kver, dir) < 0 || lab_path(out, dir, "vmlinux") < 0)
		return -1;
	if (stat(out, &vst) == 0 && vst.st_mtime >= zst.st_mtime)
		return 0;

	lab_info("extracting the guest kernel %s into %s", vmlinuz, out);
	img = (unsigned char *)read_text_file(vmlinuz, &len);
	if (!img) {
		lab_err("cannot read %s: %s", vmlinuz, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", out, (int)getpid());
	for (size_t off = 0; off + sizeof(xz_magic) <= len; off++) {
		if (memcmp(img + off, xz_magic, sizeof(xz_magic)))
			continue;
		rc = try_stream(vmlinuz, (long)off, tmp);
		if (rc == -2) {
			lab_err("cannot run xz (install xz-utils)");
			break;
		}
		if (rc == 0)
			break;
	}
	free(img);
	if (rc == 0 && rename(tmp, out) < 0) {
		lab_err("cannot rename %s to %s: %s", tmp, out, strerror(errno));
		rc = -1;
	}
	if (rc != 0) {
		unlink(tmp);
		if (rc == -1)
			lab_err("no xz-compressed ELF kernel found in %s: the lab boots "
				"Debian's xz-compressed kernels only", vmlinuz);
		return -1;
	}
	return 0;
}

/*
 * Whether the file at @fd is a kernel QEMU's -kernel boots: an ELF vmlinux
 * (by PVH) or a bzImage (the x86 boot protocol: "HdrS" at 0x202).
 */
static bool bootable_image(int fd)
{
	char head[0x206] = { 0 };
	ssize_t n = pread(fd, head, sizeof(head), 0);

	if (n >= 4 && !memcmp(head, "\177ELF", 4))
		return true;
	return n == (ssize_t)sizeof(head) && !memcmp(head + 0x202, "HdrS", 4);
}

int lab_use_kernel(const char *vmlinux, const char *modules, struct lab_config *cfg)
{
	const char *kver, *tail;
	struct stat st;
	int fd;

	fd = open(vmlinux, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !bootable_image(fd)) {
		lab_err("--kernel %s: %s", vmlinux, fd < 0 ? strerror(errno) :
			"neither an ELF vmlinux (booted by PVH) nor a bzImage");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	kver = strrchr(modules, '/');
	kver = kver ? kver + 1 : modules;
	tail = strstr(modules, "/lib/modules/");
	if (!*kver || !tail || tail + strlen("/lib/modules/") != kver) {
		lab_err("--modules %s: expected a module tree ROOT/lib/modules/RELEASE, as "
			"`make modules_install INSTALL_MOD_PATH=ROOT` leaves it", modules);
		return -1;
	}
	if (strlen(kver) >= sizeof(cfg->kver) || stat(modules, &st) < 0 ||
	    !S_ISDIR(st.st_mode)) {
		lab_err("--modules %s: %s", modules, strlen(kver) >= sizeof(cfg->kver) ?
			"release name too long" : "not a directory");
		return -1;
	}
	snprintf(cfg->vmlinux, sizeof(cfg->vmlinux), "%s", vmlinux);
	snprintf(cfg->modules, sizeof(cfg->modules), "%s", modules);
	snprintf(cfg->kver, sizeof(cfg->kver), "%s", kver);
	return 0;
}
