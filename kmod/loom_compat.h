/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences, decided by feature probes in Kbuild (never by
 * LINUX_VERSION_CODE): each LOOM_HAVE_* macro says that the kernel the
 * module is built against offers that interface.
 */
#ifndef LOOM_COMPAT_H
#define LOOM_COMPAT_H

#include <linux/device.h>
#include <linux/mm.h>

static inline struct class *loom_class_create(const char *name)
{
#ifdef LOOM_HAVE_CLASS_CREATE_OWNER
	return class_create(THIS_MODULE, name);
#else
	return class_create(name);
#endif
}

static inline void loom_vma_set_flags(struct vm_area_struct *vma,
				      unsigned long flags)
{
#ifdef LOOM_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

static inline void loom_vma_clear_flags(struct vm_area_struct *vma,
					unsigned long flags)
{
#ifdef LOOM_HAVE_VM_FLAGS_SET
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

#endif /* LOOM_COMPAT_H */
