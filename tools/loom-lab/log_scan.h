/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-lab: recognising kernel reports in a guest's console log.  Shared by
 * `check-log` and its unit test.
 */
#ifndef LOOM_LAB_LOG_SCAN_H
#define LOOM_LAB_LOG_SCAN_H

/*
 * The class of kernel report a console line belongs to ("KASAN", "lockdep",
 * "kmemleak", "hung task", ...), or NULL for an ordinary line.  A report
 * spans several lines; each line that names its class counts, so one report
 * usually yields two or three findings (its headline, the WARNING or BUG
 * line, the call trace).
 */
const char *log_scan_line(const char *line);

#endif
