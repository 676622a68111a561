/*
 * Where an affine composite's samples can be non-zero, row by row: the span and inner span of
 * every destination row, walked from row to row without divisions, and the box of a source's
 * texels that are not clear, which the spans are solved from.
 */
#ifndef LAYERKIT_KERNELS_SPANS_H
#define LAYERKIT_KERNELS_SPANS_H

#include "kernels.h"
#include <assert.h>

/* A number divided by a > 0: n = q·a + r, 0 <= r < a. */
typedef struct lk_division {
    int64_t q, r;
} lk_division;

/* Where a composite's samples can be non-zero, in 16.16 source coordinates X and Y (each
 * between its low and high, inclusive), and where all four of a bilinear sample's texels are
 * inside the source (the inner limits). */
typedef struct lk_span_limits {
    int64_t low_x, high_x, low_y, high_y;
    int64_t inner_low, inner_high_x, inner_high_y;
} lk_span_limits;

/* One axis of a composite's spans, row by row: the pixels x whose coordinate a·x + b lies
 * between the span's limits, and the inner span's, where b grows by db a row.
 *
 * With A = |a| and t = b − low walked as a quotient of A (t = q·A + r, one division-free step
 * a row: q and r move by those of db / A, and a remainder that reaches A carries one), every
 * bound is q moved by constants divided once: ⌊(t − D) / A⌋ = q − Dq − (r < Dr) for
 * D = Dq·A + Dr, and ⌊(H − t) / A⌋ = Hq − q − (r > Hr). For a > 0 the span is
 * −⌊(b − low) / A⌋ … ⌊(high − b) / A⌋; for a < 0 its ends change places and sign. (Dividing
 * each bound anew cost two 64-bit divisions a bound a row, more than a small sprite's pixels;
 * walking each bound apart, eight quotient steps a row.) */
typedef struct lk_axis {
    int64_t a, b, db;
    int64_t low, high, inner_low, inner_high;
    int64_t A;
    lk_division t, dt;
    /* high − low, inner_low − low and inner_high − low, divided by A. */
    lk_division span_high, inner_low_d, inner_high_d;
} lk_axis;

/* A composite's spans, row by row: the pixels whose samples can be non-zero (the span) and, for
 * bilinear, those whose four texels are all inside (the inner span), at destination row `row`;
 * x.b and y.b are the row's X and Y at pixel 0. */
typedef struct lk_affine_spans {
    int bilinear;
    int64_t row;
    lk_axis x, y;
} lk_affine_spans;

/* Rows a walk steps through to reach the next one asked for; farther, it starts again (a
 * start costs ten 64-bit divisions an axis, a step a few additions). */
#define LK_MAX_STEPS 64

#ifdef DEBUG
/* Narrows [*lo, *hi) to the integers x with low <= a·x + b <= high: the bounds' definition, which
 * debug builds check the walked bounds against. */
void lk_keep_between(int64_t a, int64_t b, int64_t low, int64_t high, int64_t *lo, int64_t *hi);
#endif

/* Starts the spans at row y (the divisions). */
void lk_spans_start(lk_affine_spans *s, const lk_span_limits *l, const int32_t m[6], int64_t kx, int64_t ky, int64_t y);

/* A box of texels outside which the source is clear, A8 coverage at most `faint` counting as
 * clear (see spans.c). */
lk_box lk_texels_not_clear(const lk_job *job, int64_t budget, uint32_t faint);

LK_INLINE void axis_step(lk_axis *k) {
    k->b += k->db;
    k->t.q += k->dt.q;
    k->t.r += k->dt.r;
    if (k->t.r >= k->A) {
        k->t.r -= k->A;
        k->t.q++;
    }
}

/* Narrows [*lo, *hi) to the pixels between low and high + 1 exclusive, given ⌊(b − low) / A⌋
 * as `from_low` and ⌊(high − b) / A⌋ as `to_high`, for a > 0 (`positive`) or a < 0; *hi may
 * end below *lo (an empty span, which the caller clamps once for both axes). */
LK_INLINE void axis_keep(int positive, int64_t from_low, int64_t to_high, int64_t *lo, int64_t *hi) {
    const int64_t first = positive ? -from_low : -to_high, last = positive ? to_high : from_low;
    if (first > *lo) *lo = first;
    if (last + 1 < *hi) *hi = last + 1;
}

/* The axis's span and inner span, narrowing [*lo, *hi) and [*in_lo, *in_hi) (`inner`: the
 * inner span is wanted); `sign` is a's when the caller knows it (1 or −1), 0 when not (a
 * may be 0). */
LK_INLINE void axis_apply(const lk_axis *k, int sign, int inner, int64_t *lo, int64_t *hi, int64_t *in_lo,
                          int64_t *in_hi) {
    if (sign == 0 && k->a == 0) {
        if (k->b < k->low || k->b > k->high) *hi = *lo;
        if (inner && (k->b < k->inner_low || k->b > k->inner_high)) *in_hi = *in_lo;
        return;
    }
    const int positive = sign ? sign > 0 : k->a > 0;
    const int64_t q = k->t.q, r = k->t.r;
    axis_keep(positive, q, k->span_high.q - q - (r > k->span_high.r), lo, hi);
    if (inner)
        axis_keep(positive, q - k->inner_low_d.q - (r < k->inner_low_d.r),
                  k->inner_high_d.q - q - (r > k->inner_high_d.r), in_lo, in_hi);
}

/* A row's span [lo, hi) and inner span [in_lo, in_hi). */
typedef struct lk_row_span {
    int64_t lo, hi, in_lo, in_hi;
} lk_row_span;

/* The row's span and inner span (the span again for nearest) where the axes are, narrowed from
 * [lo, hi); `sx` and `sy` as axis_apply's `sign`. */
LK_INLINE void row_solve(const lk_axis *x, const lk_axis *y, int sx, int sy, int bilinear, int64_t lo, int64_t hi,
                         lk_row_span *out) {
#ifdef DEBUG
    /* Debug builds (the tests') check every row's walked bounds against the divisions. */
    int64_t check_lo = lo, check_hi = hi, check_in_lo = lo, check_in_hi = hi;
    lk_keep_between(x->a, x->b, x->low, x->high, &check_lo, &check_hi);
    lk_keep_between(y->a, y->b, y->low, y->high, &check_lo, &check_hi);
    if (bilinear) {
        lk_keep_between(x->a, x->b, x->inner_low, x->inner_high, &check_in_lo, &check_in_hi);
        lk_keep_between(y->a, y->b, y->inner_low, y->inner_high, &check_in_lo, &check_in_hi);
    }
#endif
    int64_t in_lo = lo, in_hi = hi;
    axis_apply(x, sx, bilinear, &lo, &hi, &in_lo, &in_hi);
    axis_apply(y, sy, bilinear, &lo, &hi, &in_lo, &in_hi);
    if (hi < lo) hi = lo;
    if (in_hi < in_lo) in_hi = in_lo;
    out->lo = lo, out->hi = hi;
    out->in_lo = bilinear ? in_lo : lo, out->in_hi = bilinear ? in_hi : hi;
#ifdef DEBUG
    assert(lo == check_lo && hi == check_hi);
    assert(!bilinear || (in_lo == check_in_lo && in_hi == check_in_hi));
#endif
}

/* Moves the spans to row y: stepped from the row they are at when it is a little below it,
 * started afresh otherwise. */
LK_INLINE void spans_move(lk_affine_spans *s, const lk_span_limits *l, const int32_t m[6], int64_t kx, int64_t ky,
                          int64_t y) {
    if (y < s->row || y > s->row + LK_MAX_STEPS) {
        lk_spans_start(s, l, m, kx, ky, y);
        return;
    }
    for (; s->row < y; s->row++) {
        axis_step(&s->x);
        axis_step(&s->y);
    }
}

/* Rows whose spans are solved together, before any of them is drawn. */
#define LK_SPAN_ROWS 32

/* The spans of rows y … y + n − 1 (1 <= n <= LK_SPAN_ROWS), each narrowed from [lo, hi), into
 * out[0 … n − 1]; the walk is left at row y + n − 1 (spans.c). */
void lk_spans_solve(lk_affine_spans *s, const lk_span_limits *l, const int32_t m[6], int64_t kx, int64_t ky, int64_t y,
                    int32_t n, int64_t lo, int64_t hi, lk_row_span *out);

#endif
