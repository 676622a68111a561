/*
 * The span walk's divisions and the peeling of a source's clear border (spans.h).
 */
#include "spans.h"
#include <string.h>

static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b, r = a % b;
    return (r != 0 && (r < 0) != (b < 0)) ? q - 1 : q;
}

#ifdef DEBUG
void lk_keep_between(int64_t a, int64_t b, int64_t low, int64_t high, int64_t *lo, int64_t *hi) {
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

static lk_division divide(int64_t n, int64_t a) {
    lk_division d = {floor_div(n, a), 0};
    d.r = n - d.q * a;
    return d;
}

static lk_axis axis_start(int64_t a, int64_t b, int64_t db, int64_t low, int64_t high, int64_t inner_low,
                          int64_t inner_high) {
    lk_axis k;
    memset(&k, 0, sizeof k);
    k.a = a, k.b = b, k.db = db;
    k.low = low, k.high = high, k.inner_low = inner_low, k.inner_high = inner_high;
    if (a == 0) return k;
    k.A = a > 0 ? a : -a;
    k.t = divide(b - low, k.A);
    k.dt = divide(db, k.A);
    k.span_high = divide(high - low, k.A);
    k.inner_low_d = divide(inner_low - low, k.A);
    k.inner_high_d = divide(inner_high - low, k.A);
    return k;
}

void lk_spans_start(lk_affine_spans *s, const lk_span_limits *l, const int32_t m[6], int64_t kx, int64_t ky,
                    int64_t y) {
    const int64_t bx = (int64_t)m[1] * y + m[2] + kx, by = (int64_t)m[4] * y + m[5] + ky;
    s->row = y;
    s->x = axis_start(m[0], bx, m[1], l->low_x, l->high_x, l->inner_low, l->inner_high_x);
    s->y = axis_start(m[3], by, m[4], l->low_y, l->high_y, l->inner_low, l->inner_high_y);
}

/* Rows' spans one after another, the axes stepped between them, with no calls: the walk stays
 * in registers (solved between a row's kernel calls, which clobber them, it was stored and
 * reloaded every row). */
LK_INLINE void spans_walk(lk_axis *x, lk_axis *y, int sx, int sy, int bilinear, int32_t n, int64_t lo, int64_t hi,
                          lk_row_span *out) {
    for (int32_t i = 0;; i++) {
        row_solve(x, y, sx, sy, bilinear, lo, hi, &out[i]);
        if (i + 1 >= n) break;
        axis_step(x);
        axis_step(y);
    }
}

void lk_spans_solve(lk_affine_spans *s, const lk_span_limits *l, const int32_t m[6], int64_t kx, int64_t ky, int64_t y,
                    int32_t n, int64_t lo, int64_t hi, lk_row_span *out) {
    spans_move(s, l, m, kx, ky, y);
    lk_axis ax = s->x, ay = s->y;
    /* A walk made for each sign of the axes' a and each filter, so that no row chooses between
     * them; an axis with a = 0 (a quarter turn, a mirror) takes the walk that checks. */
    const int b = s->bilinear;
    if (ax.a == 0 || ay.a == 0)
        spans_walk(&ax, &ay, 0, 0, b, n, lo, hi, out);
    else if (ax.a > 0 && ay.a > 0)
        b ? spans_walk(&ax, &ay, 1, 1, 1, n, lo, hi, out) : spans_walk(&ax, &ay, 1, 1, 0, n, lo, hi, out);
    else if (ax.a > 0)
        b ? spans_walk(&ax, &ay, 1, -1, 1, n, lo, hi, out) : spans_walk(&ax, &ay, 1, -1, 0, n, lo, hi, out);
    else if (ay.a > 0)
        b ? spans_walk(&ax, &ay, -1, 1, 1, n, lo, hi, out) : spans_walk(&ax, &ay, -1, 1, 0, n, lo, hi, out);
    else
        b ? spans_walk(&ax, &ay, -1, -1, 1, n, lo, hi, out) : spans_walk(&ax, &ay, -1, -1, 0, n, lo, hi, out);
    s->x = ax, s->y = ay;
    s->row = y + n - 1;
}

/* ---- Clear borders ---- */

/* One in each byte: multiplying a byte by it repeats the byte eight times. */
#define LK_BYTES 0x0101010101010101ull

/* The bytes of v above `faint` (0 … 127), each as its high bit: (v & 0x7f) + 127 − faint
 * carries into the high bit exactly when the low seven bits exceed faint, and never out of the
 * byte; a byte whose own high bit is set is above faint anyway. */
static uint64_t bytes_above(uint64_t v, uint32_t faint) {
    const uint64_t high = 0x80 * LK_BYTES;
    return (((v & ~high) + (127 - faint) * LK_BYTES) | v) & high;
}

/* Whether `bytes` bytes from p are all at most `faint`, eight at a time. A texel is clear when
 * its bytes are: coverage too faint to draw (see lk_texels_not_clear), or a pixel whose every
 * channel is zero (a clear sample leaves OVER's destination as it was, and SRC writes the zero
 * that the pixels outside the span get anyway). */
static int bytes_clear(const uint8_t *p, ptrdiff_t bytes, uint32_t faint) {
    uint64_t any = 0;
    ptrdiff_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        any |= faint ? bytes_above(v, faint) : v;
        if ((i & 63) == 56 && any) return 0;
    }
    for (; i < bytes; i++) any |= p[i] > faint;
    return any == 0;
}

static int row_clear(const lk_job *job, int32_t y, int32_t x1, int32_t x2, int texel_bytes, uint32_t faint) {
    const uint8_t *p = (const uint8_t *)job->src + (ptrdiff_t)y * job->src_stride + (ptrdiff_t)x1 * texel_bytes;
    return bytes_clear(p, (ptrdiff_t)(x2 - x1) * texel_bytes, faint);
}

/* A box of texels outside which the source is clear, found by peeling clear rows off its top
 * and bottom, then up to eight bytes' worth of clear columns off its sides, within a budget
 * of reads (a texel of a row, or the two words of a row's ends: a large source behind a small
 * clip costs little; columns peeled part way are not used). Samples outside the box's reach are clear, so a span
 * solved from the box draws the same pixels; and with a clear border a texel wide (a blurred
 * shadow has several) every pixel of the span has its 2x2 texels inside the source, so that
 * no row has edge runs. Empty (x1 = x2) when every texel is clear.
 *
 * An A8 texel is clear when its coverage is at most `faint`: a bilinear or nearest sample of
 * texels no greater is no greater (the weights sum to one and the sum is truncated), and the
 * caller chooses faint so that the color times such a coverage is zero in every channel, which
 * OVER adds to nothing. A blurred shadow's tails are wide and mostly that faint. */
lk_box lk_texels_not_clear(const lk_job *job, int64_t budget, uint32_t faint) {
    const int bytes = job->format == LK_FORMAT_A8 ? 1 : 4;
    if (bytes != 1 || faint > 127) faint = 0;
    lk_box b = {0, 0, job->src_width, job->src_height};
    while (b.y1 < b.y2 && (budget -= b.x2 - b.x1) >= 0 && row_clear(job, b.y1, b.x1, b.x2, bytes, faint)) b.y1++;
    if (b.y1 == b.y2) {
        b.x2 = b.x1;
        return b;
    }
    while ((budget -= b.x2 - b.x1) >= 0 && row_clear(job, b.y2 - 1, b.x1, b.x2, bytes, faint)) b.y2--;
    /* Columns: each row's first and last eight bytes, one load each, say how many texels at
     * either end are clear (up to 8 / texel_bytes); rows y1 and y2 − 1 have a texel that is
     * not clear, so left + right < width. */
    const ptrdiff_t row_bytes = (ptrdiff_t)(b.x2 - b.x1) * bytes;
    if (row_bytes < 8) return b;
    int32_t left = 8 / bytes, right = left;
    for (int32_t y = b.y1; y < b.y2 && (left > 0 || right > 0); y++) {
        const uint8_t *row = (const uint8_t *)job->src + (ptrdiff_t)y * job->src_stride + (ptrdiff_t)b.x1 * bytes;
        uint64_t first, last;
        memcpy(&first, row, 8);
        memcpy(&last, row + row_bytes - 8, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        first = __builtin_bswap64(first);
        last = __builtin_bswap64(last);
#endif
        if (faint) first = bytes_above(first, faint), last = bytes_above(last, faint);
        /* As little-endian words: the first byte is the lowest, the last the highest. */
        const int32_t i = first ? __builtin_ctzll(first) / 8 / bytes : 8 / bytes;
        const int32_t j = last ? __builtin_clzll(last) / 8 / bytes : 8 / bytes;
        if (i < left) left = i;
        if (j < right) right = j;
        if ((budget -= 2) < 0) return b;
    }
    b.x1 += left;
    b.x2 -= right;
    return b;
}
