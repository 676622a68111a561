/*
 * The composites: validate a job, find its row functions in the variant's table, and walk each
 * box row by row over the exact span of pixels whose samples can be non-zero.
 */
#include "spans.h"
#include <string.h>
#if LK_X86
#include <emmintrin.h>
#endif

/* pixman's fixed point holds coordinates below 32768. */
#define LK_MAX_DIMENSION 32767

static int valid(const lk_job *job) {
    if (!job || !job->dst || !job->src || (job->box_count > 0 && !job->boxes) || job->box_count < 0) return 0;
    if (job->dst_width < 1 || job->dst_height < 1 || job->dst_width > LK_MAX_DIMENSION ||
        job->dst_height > LK_MAX_DIMENSION || job->dst_stride % 4 != 0 || job->dst_stride / 4 < job->dst_width)
        return 0;
    if (job->origin_x < 0 || job->origin_y < 0 || job->origin_x > LK_MAX_DIMENSION - job->dst_width ||
        job->origin_y > LK_MAX_DIMENSION - job->dst_height)
        return 0;
    if ((int64_t)job->src_stride * job->src_height > INT32_MAX) return 0;
    if (job->src_width < 1 || job->src_height < 1 || job->src_width > LK_MAX_DIMENSION ||
        job->src_height > LK_MAX_DIMENSION)
        return 0;
    if (job->filter != LK_FILTER_NEAREST && job->filter != LK_FILTER_BILINEAR) return 0;
    if (job->pairs && job->format != LK_FORMAT_A8) return 0;
    if (job->texels && (job->texels->x1 < 0 || job->texels->y1 < 0 || job->texels->x1 > job->texels->x2 ||
                        job->texels->y1 > job->texels->y2 || job->texels->x2 > job->src_width ||
                        job->texels->y2 > job->src_height))
        return 0;
    switch (job->format) {
    case LK_FORMAT_ARGB32:
        return (job->op == LK_OP_OVER || job->op == LK_OP_SRC) && job->src_stride / 4 >= job->src_width &&
               job->src_stride % 4 == 0;
    case LK_FORMAT_A8:
        if (job->pairs && (job->src_width < 2 || job->src_height < 2 || job->pairs_stride / 2 < job->src_width + 2 ||
                           (int64_t)job->pairs_stride * (job->src_height + 1) > INT32_MAX))
            return 0;
        return job->op == LK_OP_OVER && job->src_stride >= job->src_width;
    default:
        return 0;
    }
}

static lk_context make_context(const lk_job *job) {
    lk_context c;
    memset(&c, 0, sizeof c);
    c.src = (const uint8_t *)job->src;
    c.src_width = job->src_width;
    c.src_height = job->src_height;
    c.src_stride = job->src_stride;
    c.op = job->op;
    c.opacity = job->opacity;
    c.color = lk_color_times_opacity(job->color, job->opacity);
    c.pairs = (const uint8_t *)job->pairs;
    c.pairs_stride = job->pairs_stride;
    return c;
}

/* Nothing can change: OVER of a clear source (SRC still clears its boxes). */
static int draws_nothing(const lk_context *c, const lk_job *job) {
    if (job->op != LK_OP_OVER) return 0;
    return job->format == LK_FORMAT_A8 ? c->color == 0 : c->opacity == 0;
}

/* The largest A8 coverage that OVER draws as nothing: pixman multiplies each channel c of the
 * color (times opacity) by the coverage t as (c·t + 128)·257 >> 16, which is 0 while c·t <= 127,
 * and OVER of a zero pixel leaves the destination as it was. 0 for other jobs. */
static uint32_t faint_coverage(const lk_context *c, const lk_job *job) {
    if (job->format != LK_FORMAT_A8 || job->op != LK_OP_OVER) return 0;
    return lk_faint_coverage(c->color);
}

uint32_t lk_faint_coverage(uint32_t color) {
    uint32_t most = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        const uint32_t channel = color >> shift & 0xff;
        if (channel > most) most = channel;
    }
    return most ? 127 / most : 0;
}

lk_status lk_texels_not_clear_box(const void *src, int32_t width, int32_t height, int32_t src_stride, lk_format format,
                                  uint32_t faint, lk_box *box) {
    if (!box) return LK_INVALID;
    const lk_box whole = {0, 0, width, height};
    *box = whole;
    const int32_t bytes = format == LK_FORMAT_A8 ? 1 : 4;
    if (!src || (format != LK_FORMAT_A8 && format != LK_FORMAT_ARGB32) || width < 1 || height < 1 ||
        width > LK_MAX_DIMENSION || height > LK_MAX_DIMENSION || src_stride / bytes < width ||
        (int64_t)src_stride * height > INT32_MAX)
        return LK_INVALID;
    lk_job job;
    memset(&job, 0, sizeof job);
    job.src = src, job.src_width = width, job.src_height = height, job.src_stride = src_stride, job.format = format;
    /* A budget no source reaches: every row and both ends of every row. */
    *box = lk_texels_not_clear(&job, INT64_MAX / 4, faint);
    return LK_OK;
}

/* The entry for a job, from the variant's table or its fallbacks; `lanes` gets its step width. */
static const lk_kernel_entry *find_entry(const lk_kernel_table *table, lk_format format, lk_map map, lk_filter filter,
                                         int *lanes) {
    for (; table; table = table->fallback)
        for (int i = 0; i < table->count; i++) {
            const lk_kernel_entry *e = &table->entries[i];
            if (e->format == format && e->map == map && e->filter == filter) {
                *lanes = table->lanes;
                return e;
            }
        }
    return NULL;
}

/* The box cut to the destination; false when nothing is left. */
static int clip_box(const lk_job *job, const lk_box *b, lk_box *out) {
    const int64_t x0 = job->origin_x, y0 = job->origin_y;
    const int64_t x1 = x0 + job->dst_width, y1 = y0 + job->dst_height;
    out->x1 = (int32_t)(b->x1 < x0 ? x0 : b->x1);
    out->y1 = (int32_t)(b->y1 < y0 ? y0 : b->y1);
    out->x2 = (int32_t)(b->x2 > x1 ? x1 : b->x2);
    out->y2 = (int32_t)(b->y2 > y1 ? y1 : b->y2);
    return out->x1 < out->x2 && out->y1 < out->y2;
}

/* Destination pixel (x, y), in destination coordinates. */
static uint32_t *dst_pixel(const lk_job *job, int64_t x, int32_t y) {
    return (uint32_t *)((uint8_t *)job->dst + (ptrdiff_t)(y - job->origin_y) * job->dst_stride) + (x - job->origin_x);
}

/* SRC replaces every pixel of its boxes: those outside the span become transparent. */
static void clear_outside(const lk_job *job, int32_t y, const lk_box *box, int64_t lo, int64_t hi) {
    if (job->op != LK_OP_SRC) return;
    if (hi <= lo) {
        memset(dst_pixel(job, box->x1, y), 0, (size_t)(box->x2 - box->x1) * 4);
        return;
    }
    if (lo > box->x1) memset(dst_pixel(job, box->x1, y), 0, (size_t)(lo - box->x1) * 4);
    if (hi < box->x2) memset(dst_pixel(job, hi, y), 0, (size_t)(box->x2 - hi) * 4);
}

/* Asks for row y's pixels lo … hi, widened a little, ahead of use (see lk_prefetch_run): the
 * projective composite, which draws row by row, asks for the next row's as it begins a row. */
static void prefetch_row(const lk_job *job, int32_t y, int64_t lo, int64_t hi) {
    if (y >= job->origin_y + job->dst_height || hi <= lo) return;
    const int64_t margin = 16, x0 = job->origin_x, x1 = x0 + job->dst_width;
    lo = lo - margin < x0 ? x0 : lo - margin;
    hi = hi + margin > x1 ? x1 : hi + margin;
    const lk_run run = {dst_pixel(job, lo, y), 0, 0, (int32_t)(hi - lo)};
    lk_prefetch_run(&run);
}

/* ---- Affine (the spans walked row by row: spans.h) ---- */

/* Runs collected for one row function, drawn a block at a time (lk_runs_fn). */
#define LK_RUN_BLOCK 64
typedef struct lk_run_list {
    lk_row_fn fn;
    lk_runs_fn batch;
    int32_t n;
    lk_run runs[LK_RUN_BLOCK];
} lk_run_list;

static void draw_runs(const lk_row *row, lk_run_list *l) {
    if (l->batch) {
        if (l->n > 0) l->batch(row, l->runs, l->n);
    } else {
        for (int32_t k = 0; k < l->n; k++) {
            const lk_run *run = &l->runs[k];
            if (k + 1 < l->n) lk_prefetch_run(run + 1);
            l->fn(row, run->fx, run->fy, run->dst, run->count);
        }
    }
    l->n = 0;
}

/* Pixels lo … hi − 1 of the row whose pixel x is `line` + x (`line` a pixel offset from
 * `dst`), from the row's X and Y at pixel 0. */
LK_INLINE void add_run(const lk_row *row, lk_run_list *l, uint32_t *dst, ptrdiff_t line, const int32_t m[6], int64_t bx,
                       int64_t by, int64_t lo, int64_t hi) {
    if (l->n == LK_RUN_BLOCK) draw_runs(row, l);
    /* Within the span every coordinate fits pixman's 32 bits. */
    lk_run *run = &l->runs[l->n++];
    run->dst = dst + (line + lo);
    run->fx = (int32_t)(m[0] * lo + bx);
    run->fy = (int32_t)(m[3] * lo + by);
    run->count = (int32_t)(hi - lo);
}

/* Collects pixels lo … hi − 1 of row y, those of in_lo … in_hi − 1 (the inner span, maybe
 * empty) for the entry's inner function, the rest for its edge function, and in whole steps
 * where it can: a left edge run grows to a multiple of the variant's lanes (`lanes`, a power of
 * two) and an inner run followed by an edge run keeps whole steps, the rest going to the edge run
 * (the edge code draws inner pixels too), so that short rows are not three part-filled steps.
 * An inner run left empty, or short (LK_SHORT_INNER), merges with its edge runs into one. */
/* Inner runs shorter than this many steps between edge runs are drawn by the edge function
 * with them: a call costs about a step, and an edge step little more than an inner one. */
#define LK_SHORT_INNER 8

LK_INLINE void collect_row(const lk_row *row, lk_run_list *inner, lk_run_list *edge, int64_t lanes, uint32_t *dst,
                           ptrdiff_t line, const int32_t m[6], int64_t bx, int64_t by, int64_t lo, int64_t hi,
                           int64_t in_lo, int64_t in_hi) {
    const int64_t part = lanes - 1;
    if (in_lo < lo) in_lo = lo;
    if (in_hi > hi) in_hi = hi;
    if (in_lo < in_hi) {
        if (in_lo > lo) {
            in_lo = lo + ((in_lo - lo + part) & ~part);
            if (in_lo > in_hi) in_lo = in_hi;
        }
        if (in_hi < hi) in_hi -= (in_hi - in_lo) & part;
    }
    if (in_lo >= in_hi || ((in_lo > lo || in_hi < hi) && in_hi - in_lo < LK_SHORT_INNER * lanes)) {
        add_run(row, edge, dst, line, m, bx, by, lo, hi);
        return;
    }
    if (in_lo > lo) add_run(row, edge, dst, line, m, bx, by, lo, in_lo);
    add_run(row, inner, dst, line, m, bx, by, in_lo, in_hi);
    if (hi > in_hi) add_run(row, edge, dst, line, m, bx, by, in_hi, hi);
}

lk_status lk_composite_affine(const lk_job *job, const int32_t m[6]) {
    if (!valid(job) || !m) return LK_INVALID;
    lk_context c = make_context(job);
    if (draws_nothing(&c, job)) return LK_OK;
    int lanes = 1;
    const lk_kernel_entry *e = find_entry(lk_table(job->variant), job->format, LK_MAP_AFFINE, job->filter, &lanes);
    if (!e) return LK_INVALID;
    for (int n = 1; n <= LK_MAX_LANES; n++)
        for (int i = 0; i < LK_MAX_LANES; i++) {
            c.lane_dx[n - 1][i] = (int32_t)((uint32_t)(i < n ? i : n - 1) * (uint32_t)m[0]);
            c.lane_dy[n - 1][i] = (int32_t)((uint32_t)(i < n ? i : n - 1) * (uint32_t)m[3]);
        }
    /* Peeling the source's clear border may read up to an eighth of the pixels that may change. */
    int64_t area = 0;
    for (int32_t b = 0; b < job->box_count; b++) {
        lk_box box;
        if (clip_box(job, &job->boxes[b], &box)) area += (int64_t)(box.x2 - box.x1) * (box.y2 - box.y1);
    }
    if (area == 0) return LK_OK;
    const uint32_t faint = faint_coverage(&c, job);
    const lk_box texels =
        job->texels && job->texels_faint <= faint ? *job->texels : lk_texels_not_clear(job, area / 8, faint);
    if (texels.x1 == texels.x2 && job->op == LK_OP_OVER) return LK_OK;
    const int bilinear = job->filter == LK_FILTER_BILINEAR;
    const int64_t w = c.src_width, h = c.src_height;
    /* pixman maps the centre (x + ½, y + ½) with 48.16 products and rounds the half-pixel terms
     * once (pixman_transform_point_31_16_3d): X = m00·x + m01·y + m02 + kx, the same wherever a
     * scanline starts. Then x ± 1 steps by m00 exactly. */
    const int64_t kx = ((int64_t)m[0] * 0x8000 + (int64_t)m[1] * 0x8000 + 0x8000) >> 16;
    const int64_t ky = ((int64_t)m[3] * 0x8000 + (int64_t)m[4] * 0x8000 + 0x8000) >> 16;
    /* Bilinear: the texel left of/above the sample, (X − ½) >> 16, in x1 − 1 … x2 − 1 reaches
     * the texels not clear; in 0 … size − 2 all four texels are inside. Nearest: (X − ε) >> 16
     * in x1 … x2 − 1. (Nothing but clear texels: the limits cross, and every span is empty.) */
    lk_span_limits limits;
    if (texels.x1 == texels.x2) {
        limits.low_x = limits.low_y = 1;
        limits.high_x = limits.high_y = 0;
    } else if (bilinear) {
        limits.low_x = (int64_t)texels.x1 * 65536 - 0x8000;
        limits.high_x = (int64_t)texels.x2 * 65536 + 0x7fff;
        limits.low_y = (int64_t)texels.y1 * 65536 - 0x8000;
        limits.high_y = (int64_t)texels.y2 * 65536 + 0x7fff;
    } else {
        limits.low_x = (int64_t)texels.x1 * 65536 + 1;
        limits.high_x = (int64_t)texels.x2 * 65536;
        limits.low_y = (int64_t)texels.y1 * 65536 + 1;
        limits.high_y = (int64_t)texels.y2 * 65536;
    }
    /* Inner samples read their 2x2 texels without checks: the texel left of/above, (X − ½) >> 16,
     * in 0 … size − 2, or with the pairs' clear border in −1 … size − 1. */
    const int bordered = bilinear && job->pairs;
    limits.inner_low = bordered ? -0x8000 : 0x8000;
    limits.inner_high_x = (bordered ? w : w - 1) * 65536 + 0x7fff;
    limits.inner_high_y = (bordered ? h : h - 1) * 65536 + 0x7fff;
    lk_row row;
    memset(&row, 0, sizeof row);
    row.context = &c;
    row.dfx = m[0];
    row.dfy = m[3];
    lk_affine_spans spans;
    memset(&spans, 0, sizeof spans);
    /* A clear border a texel wide (a blurred shadow's) puts every sample of the span inside: its
     * texel left of/above, x1 − 1 … x2 − 1, lies in 0 … width − 2. So do the pairs' border (a
     * turned hand's coverage reaches its store's edges): −1 … width − 1 is inside them. The
     * inner span is then the span, and is not solved. */
    const int inner_is_span =
        bordered || (texels.x1 >= 1 && texels.y1 >= 1 && texels.x2 <= w - 1 && texels.y2 <= h - 1);
    spans.bilinear = bilinear && !inner_is_span;
    spans.row = INT64_MIN;
    lk_row_span rows[LK_SPAN_ROWS];
    /* Each block of rows' runs are drawn together, inner then edge: the pixels of different
     * runs are different, so the order is free. */
    lk_run_list inner, edge;
    inner.fn = e->inner, inner.batch = e->inner_runs, inner.n = 0;
    edge.fn = e->edge, edge.batch = NULL, edge.n = 0;
    /* What the rows read of the job, in locals (the compiler cannot tell that the lists' stores
     * leave the job as it was, and loaded each field again for every box of every row). */
    uint32_t *const dst = job->dst;
    const lk_box *const boxes = job->boxes;
    const int32_t origin_x = job->origin_x, origin_y = job->origin_y;
    const ptrdiff_t pixels_per_row = job->dst_stride / 4;
    const int source_op = job->op == LK_OP_SRC;
    const int64_t dst_y2 = (int64_t)job->origin_y + job->dst_height;
    /* Band by band: the boxes that follow one another with the same rows (a pixman region's
     * come so, left to right) share each row's span, solved once. */
    for (int32_t first = 0, end; first < job->box_count; first = end) {
        const lk_box *band = &job->boxes[first];
        int64_t band_x1 = INT64_MAX, band_x2 = INT64_MIN;
        for (end = first; end < job->box_count && job->boxes[end].y1 == band->y1 && job->boxes[end].y2 == band->y2;
             end++) {
            lk_box box;
            if (!clip_box(job, &job->boxes[end], &box)) continue;
            if (box.x1 < band_x1) band_x1 = box.x1;
            if (box.x2 > band_x2) band_x2 = box.x2;
        }
        if (band_x1 >= band_x2) continue;
        const int32_t y1 = band->y1 < job->origin_y ? job->origin_y : band->y1;
        const int32_t y2 = band->y2 > dst_y2 ? (int32_t)dst_y2 : band->y2;
        for (int32_t y0 = y1; y0 < y2; y0 += LK_SPAN_ROWS) {
            const int32_t n = y2 - y0 < LK_SPAN_ROWS ? y2 - y0 : LK_SPAN_ROWS;
            lk_spans_solve(&spans, &limits, m, kx, ky, y0, n, band_x1, band_x2, rows);
            /* The rows' X and Y at pixel 0, as the walk has them, and where their pixel 0 is. */
            int64_t bx = (int64_t)m[1] * y0 + m[2] + kx, by = (int64_t)m[4] * y0 + m[5] + ky;
            ptrdiff_t line = (ptrdiff_t)(y0 - origin_y) * pixels_per_row - origin_x;
            if (inner_is_span && !source_op) {
                /* Every pixel of the span is inner: each row's runs are its span cut by the
                 * boxes (the rows of the clock's hands and shadows). A loop of its own: in the
                 * general one below, these rows cost 40 K instructions more a clock tick. */
                for (int32_t i = 0; i < n; i++, bx += m[1], by += m[4], line += pixels_per_row) {
                    const int64_t lo = rows[i].lo, hi = rows[i].hi;
                    if (lo >= hi) continue;
                    for (int32_t k = first; k < end; k++) {
                        const int64_t run_lo = lo > boxes[k].x1 ? lo : boxes[k].x1;
                        const int64_t run_hi = hi < boxes[k].x2 ? hi : boxes[k].x2;
                        if (run_lo < run_hi) add_run(&row, &inner, dst, line, m, bx, by, run_lo, run_hi);
                    }
                }
                draw_runs(&row, &inner);
                continue;
            }
            for (int32_t i = 0; i < n; i++, bx += m[1], by += m[4], line += pixels_per_row) {
                const int32_t y = y0 + i;
                const int64_t lo = rows[i].lo, hi = rows[i].hi;
                if (lo >= hi && !source_op) continue;
                for (int32_t k = first; k < end; k++) {
                    /* The span lies within the band's boxes cut to the destination, so a run
                     * cut by the box as given is cut to the destination too. */
                    const lk_box *box = &boxes[k];
                    const int64_t run_lo = lo > box->x1 ? lo : box->x1, run_hi = hi < box->x2 ? hi : box->x2;
                    if (source_op) {
                        lk_box clipped;
                        if (!clip_box(job, box, &clipped)) continue;
                        clear_outside(job, y, &clipped, run_lo, run_hi);
                    }
                    if (run_lo < run_hi)
                        collect_row(&row, &inner, &edge, lanes, dst, line, m, bx, by, run_lo, run_hi, rows[i].in_lo,
                                    rows[i].in_hi);
                }
            }
            draw_runs(&row, &inner);
            draw_runs(&row, &edge);
        }
    }
    return LK_OK;
}

/* ---- Projective ---- */

/* Narrows [*lo, *hi) to the pixels x whose centres may satisfy alpha·(x + ½) + beta > 0, with a
 * pixel to spare (the kernels check each pixel exactly; this only skips the ones that cannot). */
static void keep_positive(double alpha, double beta, int64_t *lo, int64_t *hi) {
    if (alpha != alpha || beta != beta) return;
    if (alpha == 0) {
        if (!(beta > 0)) *hi = *lo;
        return;
    }
    double t = -beta / alpha - 0.5; /* the boundary as a pixel index */
    const double limit = 4e9;
    if (!(t > -limit)) t = -limit;
    if (!(t < limit)) t = limit;
    if (alpha > 0) {
        int64_t first = (int64_t)lk_floor(t);
        if (first > *lo) *lo = first;
    } else {
        int64_t end = (int64_t)-lk_floor(-t) + 1;
        if (end < *hi) *hi = end;
    }
    if (*hi < *lo) *hi = *lo;
}

lk_status lk_composite_projective(const lk_job *job, const double matrix[9], double epsilon) {
    if (!valid(job) || !matrix || !(epsilon >= 0)) return LK_INVALID;
    lk_context c = make_context(job);
    if (draws_nothing(&c, job)) return LK_OK;
    int lanes = 1;
    const lk_kernel_entry *e = find_entry(lk_table(job->variant), job->format, LK_MAP_PROJECTIVE, job->filter, &lanes);
    if (!e) return LK_INVALID;
    memcpy(c.m, matrix, sizeof c.m);
    c.epsilon = epsilon;
    const double *m = c.m;
    /* Spans are cut a quarter texel outside the source and at half of epsilon, where no sample
     * can reach: rounding in the boundaries' arithmetic stays far inside that slack. */
    const double slack = 0.75, sw = c.src_width + slack, sh = c.src_height + slack;
    lk_row row;
    memset(&row, 0, sizeof row);
    row.context = &c;
    for (int32_t b = 0; b < job->box_count; b++) {
        lk_box box;
        if (!clip_box(job, &job->boxes[b], &box)) continue;
        for (int32_t y = box.y1; y < box.y2; y++) {
            const double py = (double)y + 0.5;
            row.row_x = py * m[3] + m[6];
            row.row_y = py * m[4] + m[7];
            row.row_w = py * m[5] + m[8];
            int64_t lo = box.x1, hi = box.x2;
            keep_positive(m[2], row.row_w - 0.5 * epsilon, &lo, &hi);
            keep_positive(m[0] + slack * m[2], row.row_x + slack * row.row_w, &lo, &hi);
            keep_positive(sw * m[2] - m[0], sw * row.row_w - row.row_x, &lo, &hi);
            keep_positive(m[1] + slack * m[2], row.row_y + slack * row.row_w, &lo, &hi);
            keep_positive(sh * m[2] - m[1], sh * row.row_w - row.row_y, &lo, &hi);
            clear_outside(job, y, &box, lo, hi);
            if (lo >= hi) continue;
            if (y + 1 < box.y2) prefetch_row(job, y + 1, lo, hi);
            row.px = (double)lo + 0.5;
            e->edge(&row, 0, 0, dst_pixel(job, lo, y), (int32_t)(hi - lo));
        }
    }
    return LK_OK;
}

uint32_t lk_color_times_opacity(uint32_t color, uint8_t opacity) {
    return opacity == 255 ? color : lk_mul_un8x4(color, opacity);
}

/* ---- Whole-pixel offsets of A8 coverage ---- */

/* A valid job's source placed at (x, y), through its format's offset rows (`map` LK_MAP_OFFSET)
 * or, A8 only, its rows over `base` (LK_MAP_ON_BASE), which write every pixel they cover, clear
 * coverage and clear colors too. */
static lk_status composite_offset(const lk_job *job, int32_t x, int32_t y, lk_map map, uint32_t base) {
    lk_context c = make_context(job);
    c.base = base;
    if (map == LK_MAP_OFFSET && draws_nothing(&c, job)) return LK_OK;
    int lanes = 1;
    const lk_kernel_entry *e = find_entry(lk_table(job->variant), job->format, map, LK_FILTER_NEAREST, &lanes);
    if (!e) return LK_INVALID;
    lk_row row;
    memset(&row, 0, sizeof row);
    row.context = &c;
    /* The mask's pixels in destination coordinates. */
    const int64_t mx0 = x, my0 = y, mx1 = (int64_t)x + job->src_width, my1 = (int64_t)y + job->src_height;
    for (int32_t b = 0; b < job->box_count; b++) {
        lk_box box;
        if (!clip_box(job, &job->boxes[b], &box)) continue;
        const int64_t x0 = box.x1 > mx0 ? box.x1 : mx0, x1 = box.x2 < mx1 ? box.x2 : mx1;
        const int64_t y0 = box.y1 > my0 ? box.y1 : my0, y1 = box.y2 < my1 ? box.y2 : my1;
        if (x0 >= x1 || y0 >= y1) continue;
        for (int64_t py = y0; py < y1; py++)
            e->inner(&row, (int32_t)(x0 - mx0), (int32_t)(py - my0), dst_pixel(job, x0, (int32_t)py), (int32_t)(x1 - x0));
    }
    return LK_OK;
}

lk_status lk_composite_a8_offset(const lk_job *job, int32_t x, int32_t y) {
    if (!valid(job) || job->format != LK_FORMAT_A8) return LK_INVALID;
    return composite_offset(job, x, y, LK_MAP_OFFSET, 0);
}

lk_status lk_composite_a8_on_base(const lk_job *job, int32_t x, int32_t y, uint32_t base) {
    if (!valid(job) || job->format != LK_FORMAT_A8) return LK_INVALID;
    return composite_offset(job, x, y, LK_MAP_ON_BASE, base);
}

/* ---- Whole-pixel offsets of a8r8g8b8 pixels ---- */

lk_status lk_composite_argb_offset(const lk_job *job, int32_t x, int32_t y) {
    if (!valid(job) || job->format != LK_FORMAT_ARGB32 || (job->op != LK_OP_OVER && job->op != LK_OP_SRC))
        return LK_INVALID;
    return composite_offset(job, x, y, LK_MAP_OFFSET, 0);
}

/* ---- Vertical pairs of A8 sources ---- */

lk_status lk_a8_pairs(const void *src, int32_t width, int32_t height, int32_t src_stride, void *pairs,
                      int32_t pairs_stride) {
    if (!src || !pairs || width < 2 || height < 2 || width > LK_MAX_DIMENSION || height > LK_MAX_DIMENSION ||
        src_stride < width || pairs_stride / 2 < width + 2 || (int64_t)src_stride * height > INT32_MAX ||
        (int64_t)pairs_stride * (height + 1) > INT32_MAX)
        return LK_INVALID;
    /* Row r pairs source rows r − 1 and r, a clear row standing for those outside; column c is
     * texel x = c − 1, with a clear pair on either side. */
    static const uint8_t clear[16];
    for (int32_t r = 0; r <= height; r++) {
        const uint8_t *top = r > 0 ? (const uint8_t *)src + (ptrdiff_t)(r - 1) * src_stride : clear;
        const uint8_t *bottom = r < height ? (const uint8_t *)src + (ptrdiff_t)r * src_stride : clear;
        const ptrdiff_t top_step = r > 0 ? 1 : 0, bottom_step = r < height ? 1 : 0;
        uint8_t *out = (uint8_t *)pairs + (ptrdiff_t)r * pairs_stride;
        out[0] = out[1] = 0;
        out += 2;
        int32_t x = 0;
#if LK_X86
        /* Sixteen texels of each row a step, interleaved byte by byte (SSE2, the x86-64 baseline). */
        for (; x + 16 <= width; x += 16) {
            const __m128i t = _mm_loadu_si128((const __m128i *)(top + x * top_step));
            const __m128i b = _mm_loadu_si128((const __m128i *)(bottom + x * bottom_step));
            _mm_storeu_si128((__m128i *)(out + 2 * x), _mm_unpacklo_epi8(t, b));
            _mm_storeu_si128((__m128i *)(out + 2 * x + 16), _mm_unpackhi_epi8(t, b));
        }
#endif
        for (; x < width; x++) {
            out[2 * x] = top[x * top_step];
            out[2 * x + 1] = bottom[x * bottom_step];
        }
        out[2 * width] = out[2 * width + 1] = 0;
    }
    return LK_OK;
}

/* ---- Glyph coverage added into an A8 mask ---- */

#if LK_X86
/* A glyph's rows in SSE2 (lk_glyph_rows_fn). Where the mask is still clear (most of a line:
 * glyphs rarely overlap, and later glyphs sit to the right), over(0, g) = g is stored as it is. */
static inline __attribute__((always_inline)) void add_glyph_rows_sse2(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                                                                      ptrdiff_t src_stride, int32_t rows, int32_t n, int32_t steps) {
    if (steps > 0) {
        const __m128i last = lk_first_lanes16(n - (steps - 1) * 16 < 16 ? n - (steps - 1) * 16 : 16);
        const uint8_t *s = src;
        uint8_t *d = dst;
        for (int32_t r = 0; r < rows; r++, s += src_stride, d += dst_stride) {
            for (int32_t j = 0; j + 1 < steps; j++) {
                const __m128i m = _mm_loadu_si128((const __m128i *)(d + 16 * j));
                const __m128i c = _mm_loadu_si128((const __m128i *)(s + 16 * j));
                _mm_storeu_si128((__m128i *)(d + 16 * j), lk_all_zero16(m) ? c : lk_coverage_over16(m, c));
            }
            const int32_t j = steps - 1;
            const __m128i m = _mm_loadu_si128((const __m128i *)(d + 16 * j));
            const __m128i c = _mm_and_si128(_mm_loadu_si128((const __m128i *)(s + 16 * j)), last);
            _mm_storeu_si128((__m128i *)(d + 16 * j), lk_all_zero16(m) ? c : lk_coverage_over16(m, c));
        }
    }
    if (steps * 16 < n) lk_add_glyph_bytes(dst, dst_stride, src, src_stride, rows, steps * 16, n);
}
#endif

/* A glyph's rows a byte at a time (lk_glyph_rows_fn). */
static inline __attribute__((always_inline)) void add_glyph_rows_scalar(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                                                                        ptrdiff_t src_stride, int32_t rows, int32_t n, int32_t steps) {
    (void)steps;
    lk_add_glyph_bytes(dst, dst_stride, src, src_stride, rows, 0, n);
}

lk_status lk_a8_add_glyphs(uint8_t *mask, int32_t mask_x, int32_t mask_y, int32_t width, int32_t height, int32_t stride,
                           int32_t clear_x, const lk_glyph_blit *glyphs, int32_t count, lk_box *inked, lk_variant variant) {
    if (!mask || width < 0 || height < 0 || stride < width || count < 0 || (count > 0 && !glyphs) ||
        (int64_t)stride * height > INT32_MAX)
        return LK_INVALID;
    for (int32_t i = 0; i < count; i++) {
        const lk_glyph_blit *g = &glyphs[i];
        if (g->coverage && (g->width < 0 || g->height < 0 || g->stride < g->width)) return LK_INVALID;
    }
    if (variant == LK_VARIANT_AUTO || !lk_kernels_variant_is_available(variant)) variant = lk_kernels_variant();
    switch (variant) {
#if LK_X86
    case LK_VARIANT_AVX512: /* AVX2's glyphs */
    case LK_VARIANT_AVX2:
        lk_a8_add_glyphs_avx2(mask, mask_x, mask_y, width, height, stride, clear_x, glyphs, count, inked);
        break;
    /* SSE2 tests each step for a clear mask itself; bytes go one at a time. Neither needs clear_x. */
    case LK_VARIANT_SSE2:
        lk_add_glyphs_with(mask, mask_x, mask_y, width, height, stride, glyphs, count, inked, add_glyph_rows_sse2);
        break;
#endif
    default:
        lk_add_glyphs_with(mask, mask_x, mask_y, width, height, stride, glyphs, count, inked, add_glyph_rows_scalar);
    }
    return LK_OK;
}
