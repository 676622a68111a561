/*
 * The composites: validate a job, find its row functions in the variant's table, and walk each
 * box row by row over the exact span of pixels whose samples can be non-zero.
 */
#include "kernels.h"
#include <assert.h>
#include <string.h>

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
    switch (job->format) {
    case LK_FORMAT_ARGB32:
        return (job->op == LK_OP_OVER || job->op == LK_OP_SRC) && job->src_stride / 4 >= job->src_width &&
               job->src_stride % 4 == 0;
    case LK_FORMAT_A8:
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
    return c;
}

/* Nothing can change: OVER of a clear source (SRC still clears its boxes). */
static int draws_nothing(const lk_context *c, const lk_job *job) {
    if (job->op != LK_OP_OVER) return 0;
    return job->format == LK_FORMAT_A8 ? c->color == 0 : c->opacity == 0;
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

/* Asks for row y's pixels lo … hi (widened a little) ahead of use: a composite starts every row
 * at a new cache line, 4 × width bytes from the last, which the hardware's stream prefetchers do
 * not follow; without this, the first load of a row's destination dominates small sprites. */
static void prefetch_row(const lk_job *job, int32_t y, int64_t lo, int64_t hi) {
    if (y >= job->origin_y + job->dst_height || hi <= lo) return;
    const int64_t margin = 16, x0 = job->origin_x, x1 = x0 + job->dst_width;
    lo = lo - margin < x0 ? x0 : lo - margin;
    hi = hi + margin > x1 ? x1 : hi + margin;
    const char *p = (const char *)dst_pixel(job, lo, y), *end = (const char *)dst_pixel(job, hi, y);
    for (; p < end; p += 64) __builtin_prefetch(p, 1);
}

/* ---- Affine ---- */

static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b, r = a % b;
    return (r != 0 && (r < 0) != (b < 0)) ? q - 1 : q;
}

#ifdef DEBUG
/* Narrows [*lo, *hi) to the integers x with low <= a·x + b <= high: the bounds' definition, which
 * debug builds check the walked bounds against. */
static void keep_between(int64_t a, int64_t b, int64_t low, int64_t high, int64_t *lo, int64_t *hi) {
    int64_t first, last;
    if (a == 0) {
        if (b < low || b > high) *hi = *lo;
        return;
    }
    if (a > 0) {
        first = -floor_div(b - low, a); /* ⌈(low − b) / a⌉ */
        last = floor_div(high - b, a);
    } else {
        first = -floor_div(b - high, a);
        last = floor_div(low - b, a);
    }
    if (first > *lo) *lo = first;
    if (last + 1 < *hi) *hi = last + 1;
    if (*hi < *lo) *hi = *lo;
}
#endif

/* ⌊(n + k·d) / a⌋ for k = 0, 1, 2, … (a > 0), exactly, with divisions only at the start: from
 * one k to the next the quotient and remainder move by those of d / a, and a remainder that
 * reaches a carries one. (Two 64-bit divisions a bound a row cost more than small sprites'
 * pixels.) */
typedef struct lk_quotient {
    int64_t q, r, a, dq, dr;
} lk_quotient;

static lk_quotient quotient_start(int64_t n, int64_t d, int64_t a) {
    lk_quotient s = {floor_div(n, a), 0, a, floor_div(d, a), 0};
    s.r = n - s.q * a;
    s.dr = d - s.dq * a;
    return s;
}

LK_INLINE void quotient_step(lk_quotient *s) {
    s->q += s->dq;
    s->r += s->dr;
    if (s->r >= s->a) {
        s->r -= s->a;
        s->q++;
    }
}

/* keep_between(a, b, low, high) for rows y, y + 1, … where b grows by db a row: the first and
 * last x are −⌊(b − low) / a⌋ and ⌊(high − b) / a⌋ for a > 0 (low and high change places for
 * a < 0, dividing by |a|), each walked as a quotient. */
typedef struct lk_bound {
    int64_t a, b, db, low, high;
    lk_quotient first, last;
} lk_bound;

static lk_bound bound_start(int64_t a, int64_t b, int64_t db, int64_t low, int64_t high) {
    lk_bound k;
    memset(&k, 0, sizeof k);
    k.a = a, k.b = b, k.db = db, k.low = low, k.high = high;
    if (a > 0) {
        k.first = quotient_start(b - low, db, a);
        k.last = quotient_start(high - b, -db, a);
    } else if (a < 0) {
        k.first = quotient_start(high - b, -db, -a);
        k.last = quotient_start(b - low, db, -a);
    }
    return k;
}

LK_INLINE void bound_apply(const lk_bound *k, int64_t *lo, int64_t *hi) {
#ifdef DEBUG
    int64_t check_lo = *lo, check_hi = *hi;
    keep_between(k->a, k->b, k->low, k->high, &check_lo, &check_hi);
#endif
    if (k->a == 0) {
        if (k->b < k->low || k->b > k->high) *hi = *lo;
    } else {
        if (-k->first.q > *lo) *lo = -k->first.q;
        if (k->last.q + 1 < *hi) *hi = k->last.q + 1;
        if (*hi < *lo) *hi = *lo;
    }
#ifdef DEBUG
    /* Debug builds (the tests') check every row's walked bounds against the divisions. */
    assert(*lo == check_lo && *hi == check_hi);
#endif
}

LK_INLINE void bound_step(lk_bound *k) {
    k->b += k->db;
    if (k->a == 0) return;
    quotient_step(&k->first);
    quotient_step(&k->last);
}

/* A composite's spans in one box, row by row: the pixels whose samples can be non-zero (the
 * span) and, for bilinear, those whose four texels are all inside (the inner span). */
typedef struct lk_affine_spans {
    int bilinear;
    lk_bound x, y, inner_x, inner_y;
} lk_affine_spans;

LK_INLINE void spans_step(lk_affine_spans *s) {
    bound_step(&s->x);
    bound_step(&s->y);
    if (s->bilinear) {
        bound_step(&s->inner_x);
        bound_step(&s->inner_y);
    }
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
    const int bilinear = job->filter == LK_FILTER_BILINEAR;
    const int64_t w = c.src_width, h = c.src_height;
    /* pixman maps the centre (x + ½, y + ½) with 48.16 products and rounds the half-pixel terms
     * once (pixman_transform_point_31_16_3d): X = m00·x + m01·y + m02 + kx, the same wherever a
     * scanline starts. Then x ± 1 steps by m00 exactly. */
    const int64_t kx = ((int64_t)m[0] * 0x8000 + (int64_t)m[1] * 0x8000 + 0x8000) >> 16;
    const int64_t ky = ((int64_t)m[3] * 0x8000 + (int64_t)m[4] * 0x8000 + 0x8000) >> 16;
    /* Bilinear: the texel left of/above the sample, (X − ½) >> 16, in −1 … size − 1 touches the
     * source; in 0 … size − 2 all four texels are inside. Nearest: (X − ε) >> 16 in 0 … size − 1. */
    const int64_t span_low = bilinear ? -0x8000 : 1;
    const int64_t span_high_x = bilinear ? w * 65536 + 0x7fff : w * 65536;
    const int64_t span_high_y = bilinear ? h * 65536 + 0x7fff : h * 65536;
    lk_row row;
    memset(&row, 0, sizeof row);
    row.context = &c;
    row.dfx = m[0];
    row.dfy = m[3];
    for (int32_t b = 0; b < job->box_count; b++) {
        lk_box box;
        if (!clip_box(job, &job->boxes[b], &box)) continue;
        int64_t bx = (int64_t)m[1] * box.y1 + m[2] + kx, by = (int64_t)m[4] * box.y1 + m[5] + ky;
        lk_affine_spans spans;
        memset(&spans, 0, sizeof spans);
        spans.bilinear = bilinear;
        spans.x = bound_start(m[0], bx, m[1], span_low, span_high_x);
        spans.y = bound_start(m[3], by, m[4], span_low, span_high_y);
        if (bilinear) {
            spans.inner_x = bound_start(m[0], bx, m[1], 0x8000, (w - 1) * 65536 + 0x7fff);
            spans.inner_y = bound_start(m[3], by, m[4], 0x8000, (h - 1) * 65536 + 0x7fff);
        }
        for (int32_t y = box.y1; y < box.y2; y++, bx += m[1], by += m[4], spans_step(&spans)) {
            int64_t lo = box.x1, hi = box.x2;
            bound_apply(&spans.x, &lo, &hi);
            bound_apply(&spans.y, &lo, &hi);
            clear_outside(job, y, &box, lo, hi);
            if (lo >= hi) continue;
            if (y + 1 < box.y2) prefetch_row(job, y + 1, lo, hi);
            int64_t in_lo = lo, in_hi = hi;
            if (bilinear) {
                bound_apply(&spans.inner_x, &in_lo, &in_hi);
                bound_apply(&spans.inner_y, &in_lo, &in_hi);
                if (in_hi <= in_lo) in_lo = in_hi = hi; /* no inner run: all edge */
                /* Whole steps only: the left edge run grows to a multiple of the variant's lanes
                 * and the inner run keeps whole steps, the rest going to the right edge run (the
                 * edge code draws inner pixels too), so that short rows are not three part-filled
                 * steps. */
                int64_t grow = (lanes - (in_lo - lo) % lanes) % lanes;
                if (grow > in_hi - in_lo) grow = in_hi - in_lo;
                in_lo += grow;
                in_hi -= (in_hi - in_lo) % lanes;
            }
            /* Within the span every coordinate fits pixman's 32 bits. */
            const int64_t runs[3][2] = {{lo, in_lo}, {in_lo, in_hi}, {in_hi, hi}};
            for (int k = 0; k < 3; k++) {
                if (runs[k][1] <= runs[k][0]) continue;
                const int64_t x = runs[k][0];
                (k == 1 ? e->inner : e->edge)(&row, (int32_t)(m[0] * x + bx), (int32_t)(m[3] * x + by),
                                              dst_pixel(job, x, y), (int32_t)(runs[k][1] - x));
            }
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
