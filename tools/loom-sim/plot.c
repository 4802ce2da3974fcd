// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim --plot: figures drawn by gnuplot (Debian's gnuplot-nox), each
 * as PNG and SVG.  The data goes inline into the script on gnuplot's
 * standard input, so nothing but the figures is written.
 */
#include "sim.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLOT_WIDTH	900
#define PLOT_HEIGHT	700

static void plot_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* @s as the inside of a gnuplot double-quoted string. */
static void put_quoted(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

/* gnuplot's path from $PATH, or -1 with @err. */
static int find_gnuplot(char *path, size_t len, char *err, size_t errlen)
{
	const char *p = getenv("PATH");

	while (p && *p) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n && snprintf(path, len, "%.*s/gnuplot", (int)n, p) < (int)len &&
		    access(path, X_OK) == 0)
			return 0;
		p = end ? end + 1 : NULL;
	}
	plot_err(err, errlen, "--plot: gnuplot not found in PATH; install gnuplot-nox "
		 "(tools/deps/install-deps does)");
	return -1;
}

/* A prefix gnuplot can take in a quoted string. */
static int check_prefix(const char *prefix, char *err, size_t errlen)
{
	if (!*prefix || strpbrk(prefix, "'\n\r")) {
		plot_err(err, errlen, "--plot '%s': the prefix of the figures' files must be "
			 "non-empty, without quotes or line breaks", prefix);
		return -1;
	}
	return 0;
}

int sim_plot_ready(const char *prefix, char *err, size_t errlen)
{
	char path[4096];

	if (check_prefix(prefix, err, errlen))
		return -1;
	return find_gnuplot(path, sizeof(path), err, errlen);
}

/*
 * Start gnuplot with a pipe to its standard input, for figures named
 * @prefix-*; *pid; NULL with @err.
 */
static FILE *gnuplot_open(const char *prefix, pid_t *pid, char *err, size_t errlen)
{
	char path[4096];
	int fd[2];
	FILE *f;

	if (check_prefix(prefix, err, errlen) || find_gnuplot(path, sizeof(path), err, errlen))
		return NULL;
	if (pipe(fd)) {
		plot_err(err, errlen, "--plot: pipe to gnuplot: %s", strerror(errno));
		return NULL;
	}
	*pid = fork();
	if (*pid < 0) {
		plot_err(err, errlen, "--plot: cannot start gnuplot: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (*pid == 0) {
		char *argv[] = { path, NULL };

		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		execv(path, argv);
		_exit(127);
	}
	close(fd[0]);
	f = fdopen(fd[1], "w");
	if (!f) {
		plot_err(err, errlen, "--plot: %s", strerror(errno));
		close(fd[1]);
		kill(*pid, SIGTERM);
		waitpid(*pid, NULL, 0);
	}
	return f;
}

/* Close the script and wait for gnuplot: 0, or -1 with @err. */
static int gnuplot_close(FILE *f, pid_t pid, const char *what, char *err, size_t errlen)
{
	int status, wrote = fclose(f);

	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    wrote) {
		plot_err(err, errlen, "--plot: gnuplot failed drawing %s (its messages above)",
			 what);
		return -1;
	}
	return 0;
}

/* The figure's title: "@what: @title". */
static void set_title(FILE *f, const char *what, const char *title)
{
	fprintf(f, "set title \"%s: ", what);
	put_quoted(f, title);
	fprintf(f, "\" noenhanced\n");
}

/* Both terminals: the PNG, then the same plot again as SVG. */
static void terminals(FILE *f, const char *prefix, const char *name, const char *plot_cmd)
{
	fprintf(f, "set terminal png size %d,%d\nset output '%s-%s.png'\n%s\n", PLOT_WIDTH,
		PLOT_HEIGHT, prefix, name, plot_cmd);
	fprintf(f, "set terminal svg size %d,%d\nset output '%s-%s.svg'\n%s\nset output\n",
		PLOT_WIDTH, PLOT_HEIGHT, prefix, name, plot_cmd);
}

int sim_plot_channels(const struct sim *s, const char *prefix, const char *title, char *err,
		      size_t errlen)
{
	pid_t pid;
	FILE *f = gnuplot_open(prefix, &pid, err, errlen);

	if (!f)
		return -1;
	fprintf(f, "$util << EOD\n");
	for (int n = 0; n < s->nodes; n++) {
		for (int p = 0; p < s->ports; p++) {
			long c = (long)n * s->ports + p;

			if (s->lines[c].a < 0 || !s->window)
				fprintf(f, "%d %d NaN\n", p, n);
			else
				fprintf(f, "%d %d %.6f\n", p, n,
					(double)s->st.chan_flits[c] / (double)s->window);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "EOD\n");
	set_title(f, "channel utilisation", title);
	fprintf(f, "set xlabel 'output port'\nset ylabel 'router'\n"
		"set cblabel 'flits per cycle'\nset cbrange [0:1]\n"
		"set xrange [-0.5:%d.5]\nset yrange [-0.5:%d.5]\nset xtics 1\n"
		"set palette defined (0 'white', 0.5 'orange', 1 'dark-red')\n",
		s->ports - 1, s->nodes - 1);
	terminals(f, prefix, "channels", "plot $util using 1:2:3 with image notitle");
	return gnuplot_close(f, pid, "the channel utilisation", err, errlen);
}

int sim_plot_curve(const struct sim_curve_point *pt, int n, const char *prefix,
		   const char *title, char *err, size_t errlen)
{
	pid_t pid;
	FILE *f = gnuplot_open(prefix, &pid, err, errlen);

	if (!f)
		return -1;
	fprintf(f, "$curve << EOD\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "%.6f %.6f %.4f\n", pt[i].offered, pt[i].accepted, pt[i].latency);
	fprintf(f, "EOD\n");
	set_title(f, "latency and throughput", title);
	fprintf(f, "set xlabel 'offered load (flits per terminal per cycle)'\n"
		"set ylabel 'average latency (cycles)'\nset y2label 'accepted load'\n"
		"set ytics nomirror\nset y2tics\nset y2range [0:*]\nset yrange [0:*]\n"
		"set key top left\nset grid\n");
	terminals(f, prefix, "latency",
		  "plot $curve using 1:3 with linespoints pt 7 title 'latency', "
		  "$curve using 1:2 axes x1y2 with linespoints pt 5 title 'accepted'");
	return gnuplot_close(f, pid, "the latency-throughput curve", err, errlen);
}
