// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>

#include "lat_stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* nearest-rank percentile of sorted samples */
static double percentile(const double *v, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);

	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

void lat_stats_compute(double *v, size_t n, struct lat_stats *st)
{
	double sum = 0, sq = 0;

	qsort(v, n, sizeof(*v), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	st->avg = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - st->avg) * (v[i] - st->avg);
	st->stdev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	st->min = v[0];
	st->max = v[n - 1];
	st->typical = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	st->p99 = percentile(v, n, 99.0);
	st->p999 = percentile(v, n, 99.9);
}
