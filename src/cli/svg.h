/*
 * svg.h - line charts as SVG for `lanes sim --plot`: panels side by side,
 * one polyline per series and panel, axes with ticks and labels, and one
 * legend under the panels (series k has the same colour in every panel).
 */
#ifndef LANES_CLI_SVG_H
#define LANES_CLI_SVG_H

#include <stddef.h>
#include <stdio.h>

/* One line: n points (x[i], y[i]); a y that is NaN is left out. */
struct svg_series {
	const char *name;
	size_t n;
	const double *x;
	const double *y;
};

/* One chart. Every panel of a figure has the same series, in the same order. */
struct svg_panel {
	const char *title;
	const char *x_label;
	const char *y_label;
	const struct svg_series *series;
	size_t num_series;
};

/* Write the figure (a whole SVG document) to fp; 0, or -1 when fp reports an error. */
int svg_write(FILE *fp, const char *title, const struct svg_panel *panels, size_t num_panels);

#endif
