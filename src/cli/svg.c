/*
 * svg.c - line charts as SVG (svg.h). Axes start at 0 (or below, for data
 * below 0) and end at the data's maximum rounded up to a "nice" tick step
 * of 1, 2 or 5 times a power of ten, about five steps per axis; the tick
 * labels carry as many decimals as the step needs. Text is XML-escaped.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg.h"

#define PANEL_W 460.0   /* one panel, axes and labels included */
#define PANEL_H 340.0
#define PLOT_LEFT 80.0  /* the plot area inside a panel */
#define PLOT_RIGHT 20.0
#define PLOT_TOP 40.0
#define PLOT_BOTTOM 55.0
#define TITLE_H 30.0    /* the figure's title above the panels */
#define LEGEND_ROW 20.0
#define LEGEND_PER_ROW 4

/* Colours that stay apart in print and for most colour-blind readers (Okabe and Ito). */
static const char *const palette[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7",
				       "#E69F00", "#56B4E9", "#000000", "#F0E442" };
#define PALETTE_SIZE (sizeof(palette) / sizeof(palette[0]))

/* An axis: from lo to lo + steps x step. */
struct axis {
	double lo, step;
	int steps, decimals;
};

static void put_escaped(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: fputc(*s, fp);
		}
	}
}

/* 1, 2 or 5 x 10^k, the smallest at least raw. */
static double nice_step(double raw)
{
	double p = pow(10.0, floor(log10(raw)));

	if (raw <= p * 1.000001)
		return p;
	if (raw <= 2 * p * 1.000001)
		return 2 * p;
	if (raw <= 5 * p * 1.000001)
		return 5 * p;
	return 10 * p;
}

/* An axis over [min(0, lo), hi] with about five steps. */
static struct axis make_axis(double lo, double hi)
{
	struct axis a;

	lo = lo < 0 ? lo : 0;
	if (!(hi > lo))
		hi = lo + 1;
	a.step = nice_step((hi - lo) / 5.0);
	a.lo = floor(lo / a.step + 1e-9) * a.step;
	a.steps = (int)ceil((hi - a.lo) / a.step - 1e-9);
	if (a.steps < 1)
		a.steps = 1;
	a.decimals = a.step >= 1 ? 0 : (int)ceil(-log10(a.step) - 1e-9);
	return a;
}

static double axis_hi(const struct axis *a)
{
	return a->lo + a->steps * a->step;
}

/* The range of the finite values of every series (x or y). */
static void data_range(const struct svg_panel *p, int want_y, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t s = 0; s < p->num_series; s++)
		for (size_t i = 0; i < p->series[s].n; i++) {
			double v = want_y ? p->series[s].y[i] : p->series[s].x[i];

			if (isfinite(v) && isfinite(p->series[s].y[i])) {
				*lo = v < *lo ? v : *lo;
				*hi = v > *hi ? v : *hi;
			}
		}
	if (!isfinite(*lo))
		*lo = *hi = 0;
}

/* Where the plot area lies: left, top, width, height. */
struct frame {
	double x0, y0, w, h;
	struct axis ax, ay;
};

static double px(const struct frame *fr, double v)
{
	return fr->x0 + (v - fr->ax.lo) / (axis_hi(&fr->ax) - fr->ax.lo) * fr->w;
}

static double py(const struct frame *fr, double v)
{
	return fr->y0 + fr->h - (v - fr->ay.lo) / (axis_hi(&fr->ay) - fr->ay.lo) * fr->h;
}

static void draw_ticks(FILE *fp, const struct frame *fr)
{
	for (int i = 0; i <= fr->ax.steps; i++) {
		double v = fr->ax.lo + i * fr->ax.step, x = px(fr, v);

		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			x, fr->y0, x, fr->y0 + fr->h);
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f</text>\n", x,
			fr->y0 + fr->h + 16, fr->ax.decimals, v);
	}
	for (int i = 0; i <= fr->ay.steps; i++) {
		double v = fr->ay.lo + i * fr->ay.step, y = py(fr, v);

		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			fr->x0, y, fr->x0 + fr->w, y);
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.*f</text>\n",
			fr->x0 - 6, y + 4, fr->ay.decimals, v);
	}
}

static void draw_labels(FILE *fp, const struct svg_panel *p, const struct frame *fr)
{
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">",
		fr->x0 + fr->w / 2, fr->y0 - 14);
	put_escaped(fp, p->title);
	fprintf(fp, "</text>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		fr->x0 + fr->w / 2, fr->y0 + fr->h + 38);
	put_escaped(fp, p->x_label);
	fprintf(fp, "</text>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		    "transform=\"rotate(-90 %.1f %.1f)\">",
		fr->x0 - 60, fr->y0 + fr->h / 2, fr->x0 - 60, fr->y0 + fr->h / 2);
	put_escaped(fp, p->y_label);
	fputs("</text>\n", fp);
	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		    "stroke=\"#000\"/>\n", fr->x0, fr->y0, fr->w, fr->h);
}

/* One polyline per series (empty when it has no finite point), and a dot per point. */
static void draw_series(FILE *fp, const struct svg_panel *p, const struct frame *fr)
{
	for (size_t s = 0; s < p->num_series; s++) {
		const struct svg_series *l = &p->series[s];
		const char *colour = palette[s % PALETTE_SIZE];

		fprintf(fp, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			    "points=\"", colour);
		for (size_t i = 0, first = 1; i < l->n; i++)
			if (isfinite(l->x[i]) && isfinite(l->y[i])) {
				fprintf(fp, "%s%.1f,%.1f", first ? "" : " ", px(fr, l->x[i]), py(fr, l->y[i]));
				first = 0;
			}
		fputs("\"/>\n", fp);
		for (size_t i = 0; i < l->n; i++)
			if (isfinite(l->x[i]) && isfinite(l->y[i]))
				fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
					px(fr, l->x[i]), py(fr, l->y[i]), colour);
	}
}

static void draw_panel(FILE *fp, const struct svg_panel *p, double left, double top)
{
	struct frame fr;
	double lo, hi;

	fr.x0 = left + PLOT_LEFT;
	fr.y0 = top + PLOT_TOP;
	fr.w = PANEL_W - PLOT_LEFT - PLOT_RIGHT;
	fr.h = PANEL_H - PLOT_TOP - PLOT_BOTTOM;
	data_range(p, 0, &lo, &hi);
	fr.ax = make_axis(lo, hi);
	data_range(p, 1, &lo, &hi);
	fr.ay = make_axis(lo, hi);
	draw_ticks(fp, &fr);
	draw_labels(fp, p, &fr);
	draw_series(fp, p, &fr);
}

static void draw_legend(FILE *fp, const struct svg_panel *p, double top)
{
	for (size_t s = 0; s < p->num_series; s++) {
		double x = PLOT_LEFT + (double)(s % LEGEND_PER_ROW) * 200.0;
		double y = top + (double)(s / LEGEND_PER_ROW) * LEGEND_ROW + 12;

		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"3\"/>\n<text x=\"%.1f\" y=\"%.1f\">",
			x, y - 4, x + 24, y - 4, palette[s % PALETTE_SIZE], x + 30, y);
		put_escaped(fp, p->series[s].name);
		fputs("</text>\n", fp);
	}
}

int svg_write(FILE *fp, const char *title, const struct svg_panel *panels, size_t num_panels)
{
	size_t series = num_panels ? panels[0].num_series : 0;
	size_t rows = (series + LEGEND_PER_ROW - 1) / LEGEND_PER_ROW;
	double width = PANEL_W * (double)(num_panels ? num_panels : 1);
	double height = TITLE_H + PANEL_H + (double)rows * LEGEND_ROW + 10;

	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
		    "<text x=\"%.1f\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">",
		width, height, width, height, width / 2);
	put_escaped(fp, title);
	fputs("</text>\n", fp);
	for (size_t k = 0; k < num_panels; k++)
		draw_panel(fp, &panels[k], PANEL_W * (double)k, TITLE_H);
	if (num_panels)
		draw_legend(fp, &panels[0], TITLE_H + PANEL_H);
	fputs("</svg>\n", fp);
	return ferror(fp) ? -1 : 0;
}
