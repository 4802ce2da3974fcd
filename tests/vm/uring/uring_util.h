/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the io_uring guest programs of test_uring.sh share: TAP checks, a
 * clock, and building, submitting and reaping LOOM_URING_* commands.
 */
#ifndef LOOM_TESTS_URING_UTIL_H
#define LOOM_TESTS_URING_UTIL_H

#include <stdint.h>

#include <liburing.h>

/* TAP: checks printed so far and how many failed */
extern int test_n, test_failed;

/* Print "ok N - ..." or "not ok N - ..." and count a failure. */
void check(int ok, const char *what, ...) __attribute__((format(printf, 2, 3)));
/* CLOCK_MONOTONIC in seconds */
double now_s(void);

/* A zeroed SQE for IORING_OP_URING_CMD @op on @fd; exits when the SQ is full. */
struct io_uring_sqe *uring_cmd_prep(struct io_uring *ring, int fd, uint32_t op,
				    uint64_t user_data);
/* Queue a LOOM_URING_CANCEL of the waits tagged @user_id. */
void uring_prep_cancel(struct io_uring *ring, int fd, uint64_t user_id, uint64_t user_data);
/* Wait up to @timeout_s for one CQE: 0 and its res/user_data, or -errno. */
int uring_reap(struct io_uring *ring, double timeout_s, int *res, uint64_t *data);
/* Submit what is queued and reap one CQE: its res, or -999. */
int uring_submit_one(struct io_uring *ring, double timeout_s);
/* Reap @n CQEs within @timeout_s each; how many had result @want. */
int uring_reap_n(struct io_uring *ring, int n, int want, double timeout_s);

#endif
