/*
 * What the kernels share: the prepared job, a row's starting coordinates, the dispatch table's
 * shape, and the scalar pixel arithmetic every variant must reproduce bit for bit.
 */
#ifndef LAYERKIT_KERNELS_PRIVATE_H
#define LAYERKIT_KERNELS_PRIVATE_H

#include "CKernels.h"
#include <stddef.h>
#include <stdint.h>

/* Exact IEEE arithmetic in the projective kernels: the sampler must not change its results with
 * the compiler's mood (a fused multiply-add rounds once where the reference rounds twice). */
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#define LK_X86 1
#else
#define LK_X86 0
#endif

#define LK_INLINE static inline __attribute__((always_inline))

/* A row's destination pixels, which nothing else the row reads overlaps: the vector stores into
 * them may alias anything, and without this the context's fields would be loaded again after
 * every store. */
#define LK_RESTRICT __restrict

/* The widest variant's pixels per step. */
#define LK_MAX_LANES 8

/* A job after validation: what every row function reads. */
typedef struct lk_context {
    const uint8_t *src;
    int32_t src_width, src_height;
    ptrdiff_t src_stride;
    lk_operator op;
    uint8_t opacity;
    /* A8 jobs: the color times the opacity (so their rows ignore `opacity`). */
    uint32_t color;
    /* LK_MAP_ON_BASE jobs: what every destination pixel they write holds before. */
    uint32_t base;
    /* A8 jobs: the source's vertical pairs (lk_job.pairs), or NULL. */
    const uint8_t *pairs;
    ptrdiff_t pairs_stride;
    /* Projective jobs: the map and the eye's epsilon. */
    double m[9];
    double epsilon;
    /* Affine jobs: lane i's step from a run's first pixel when n lanes are left, min(i, n − 1)
     * times the per-pixel step (a short run's spare lanes repeat its last pixel, so that every
     * lane reads inside the source), at [n − 1][i]. */
    int32_t lane_dx[LK_MAX_LANES][LK_MAX_LANES] __attribute__((aligned(32)));
    int32_t lane_dy[LK_MAX_LANES][LK_MAX_LANES] __attribute__((aligned(32)));
} lk_context;

/* What a row function reads besides its run: for affine maps the 16.16 step of the source
 * coordinates from pixel to pixel (exactly pixman's); for projective maps the first pixel
 * centre's x and the row's terms of (X, Y, W). */
typedef struct lk_row {
    const lk_context *context;
    int32_t dfx, dfy;
    double px, row_x, row_y, row_w;
} lk_row;

/* Composites `count` pixels of one row starting at `dst`; for affine maps (fx, fy) are the 16.16
 * source coordinates of the first pixel (pixman's 32-bit values), which projective rows ignore.
 * They come as arguments, in registers: written into the row just before a call, they were
 * loaded back as one wide pair, which a CPU cannot forward from two narrower stores (a stall
 * on every run). */
typedef void (*lk_row_fn)(const lk_row *row, int32_t fx, int32_t fy, uint32_t *dst, int32_t count);

/* A run of one row as the composites collect them: `count` pixels from `dst`, the first at the
 * source coordinates (fx, fy) as lk_row_fn takes them. */
typedef struct lk_run {
    uint32_t *dst;
    int32_t fx, fy, count;
} lk_run;

/* Composites `n` runs one after another, as many calls of a row function would: the runs'
 * pixels are disjoint, so their order does not matter. One call draws a block of rows, with the
 * row function's set-up (its constants, the source's fields) done once: the clock's turned
 * hands and shadows are rows about 25 pixels wide, where the set-up weighed as much as a step. */
typedef void (*lk_runs_fn)(const lk_row *row, const lk_run *runs, int32_t n);

/* Asks for a run's destination pixels ahead of use: a composite starts every row at a new cache
 * line, 4 × width bytes from the last, which the hardware's stream prefetchers do not follow;
 * without this, the first load of a row's destination dominates small sprites. */
LK_INLINE void lk_prefetch_run(const lk_run *run) {
    const char *p = (const char *)run->dst, *end = (const char *)(run->dst + run->count);
    for (; p < end; p += 64) __builtin_prefetch(p, 1);
    __builtin_prefetch(end - 1, 1);
}

/* LK_MAP_OFFSET: A8 coverage placed at a whole-pixel offset; its row functions get the first
 * mask pixel (fx, fy) in whole pixels, and ignore the filter. LK_MAP_ON_BASE: the same
 * placement over destination pixels that all hold the context's `base`, which its rows write
 * without reading them. */
typedef enum lk_map { LK_MAP_AFFINE = 0, LK_MAP_PROJECTIVE = 1, LK_MAP_OFFSET = 2, LK_MAP_ON_BASE = 3 } lk_map;

/* One entry of a variant's table, as pixman's fast paths: what it handles and its row functions.
 * `inner` may assume every texel it reads is inside the source (affine bilinear: the pixel's
 * 2x2 neighbourhood is; nearest: its texel is, which the span guarantees); `edge` checks. An
 * entry gives `inner` (called run by run) or `inner_runs` (a block at a time), which the
 * composite then calls instead; lk_composite_a8_offset, row by row, needs `inner`. */
typedef struct lk_kernel_entry {
    lk_format format;
    lk_map map;
    lk_filter filter;
    lk_row_fn inner;
    lk_row_fn edge;
    /* `inner` over a block of runs, or NULL. */
    lk_runs_fn inner_runs;
} lk_kernel_entry;

typedef struct lk_kernel_table {
    const lk_kernel_entry *entries;
    int count;
    /* Pixels per step of its row functions. */
    int lanes;
    /* Where entries missing here are found (pixman's delegate chain); NULL at the end. */
    const struct lk_kernel_table *fallback;
} lk_kernel_table;

extern const lk_kernel_table lk_scalar_table;
#if LK_X86
extern const lk_kernel_table lk_sse2_table;
extern const lk_kernel_table lk_avx2_table;
extern const lk_kernel_table lk_avx512_table;
#endif

/* The table AUTO or a forced variant stands for. */
const lk_kernel_table *lk_table(lk_variant variant);

/* ---- Pixel arithmetic (pixman's, in its scalar form) ---- */

/* x · a / 255 per channel, rounded (pixman's UN8x4_MUL_UN8). */
LK_INLINE uint32_t lk_mul_un8x4(uint32_t x, uint32_t a) {
    uint32_t rb = (x & 0xff00ff) * a + 0x800080;
    rb = ((rb + ((rb >> 8) & 0xff00ff)) >> 8) & 0xff00ff;
    uint32_t ag = ((x >> 8) & 0xff00ff) * a + 0x800080;
    ag = (ag + ((ag >> 8) & 0xff00ff)) & 0xff00ff00;
    return rb | ag;
}

/* Per-channel sum, saturating (pixman's UN8x4_ADD_UN8x4). */
LK_INLINE uint32_t lk_add_un8x4(uint32_t x, uint32_t y) {
    uint32_t rb = (x & 0xff00ff) + (y & 0xff00ff);
    rb |= 0x1000100 - ((rb >> 8) & 0xff00ff);
    rb &= 0xff00ff;
    uint32_t ag = ((x >> 8) & 0xff00ff) + ((y >> 8) & 0xff00ff);
    ag |= 0x1000100 - ((ag >> 8) & 0xff00ff);
    ag &= 0xff00ff;
    return rb | ag << 8;
}

/* Coverage g over coverage m, rounded as pixman multiplies: m + g − m·g/255 (source-over of
 * coverage; a glyph added into a line's mask, a path's row into its store's). */
LK_INLINE uint8_t lk_coverage_over(uint32_t m, uint32_t g) {
    const uint32_t t = m * g + 0x80;
    return (uint8_t)(m + g - ((t + (t >> 8)) >> 8));
}

#if LK_X86
#include <emmintrin.h>
/* Whether all 16 bytes are 0. */
LK_INLINE int lk_all_zero16(__m128i v) { return _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) == 0xffff; }

/* The first `n` (0 ... 16) byte lanes set: a glyph row's last step, its lanes past the glyph clear. */
LK_INLINE __m128i lk_first_lanes16(int n) {
    static const uint8_t lanes[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    return _mm_cmplt_epi8(_mm_loadu_si128((const __m128i *)lanes), _mm_set1_epi8((char)n));
}

/* lk_coverage_over of sixteen bytes `m` and `g` in 16-bit lanes (SSE2, the x86-64 baseline): a
 * lane of `g` that is 0 leaves its byte of `m` as it was. */
LK_INLINE __m128i lk_coverage_over16(__m128i m, __m128i g) {
    const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(0x80), k = _mm_set1_epi16(0x0101);
    const __m128i m_lo = _mm_unpacklo_epi8(m, zero), m_hi = _mm_unpackhi_epi8(m, zero);
    const __m128i g_lo = _mm_unpacklo_epi8(g, zero), g_hi = _mm_unpackhi_epi8(g, zero);
    /* (t · 257) >> 16 equals (t + (t >> 8)) >> 8 for every t = m·g + 128 (t < 65,153). */
    const __m128i p_lo = _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(m_lo, g_lo), half), k);
    const __m128i p_hi = _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(m_hi, g_hi), half), k);
    const __m128i lo = _mm_sub_epi16(_mm_add_epi16(m_lo, g_lo), p_lo), hi = _mm_sub_epi16(_mm_add_epi16(m_hi, g_hi), p_hi);
    return _mm_packus_epi16(lo, hi);
}
#endif

/* lk_a8_add_glyphs' glyphs after the arguments were checked, each glyph's part inside the mask
 * handed to `rows`: `rows` rows of `n` glyph bytes (n > 0) from `src` over the mask's at `dst`,
 * with `steps` whole 16-byte steps a row that both rows have room for (0 when they have not;
 * the row function adds what its steps leave); the last step's lanes past `n` must leave their
 * mask bytes as they are. Inlined into each variant's function with its row function, so that
 * a glyph costs no call. */
typedef void (*lk_glyph_rows_fn)(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride, int32_t rows,
                                 int32_t n, int32_t steps);

/* One glyph's part inside the mask handed to `rows_fn`, its box in mask pixels into `box`; 0
 * when no part of it is inside. */
LK_INLINE int lk_add_glyph_with(uint8_t *mask, int32_t mask_x, int32_t mask_y, int32_t width, int32_t height, int32_t stride,
                                const lk_glyph_blit *g, lk_box *box, lk_glyph_rows_fn rows_fn) {
    /* The glyph's pixels inside the mask, in mask pixels. */
    const int64_t gx = (int64_t)g->x - mask_x, gy = (int64_t)g->y - mask_y;
    const int64_t x0 = gx > 0 ? gx : 0, y0 = gy > 0 ? gy : 0;
    const int64_t x1 = gx + g->width < width ? gx + g->width : width;
    const int64_t y1 = gy + g->height < height ? gy + g->height : height;
    if (x0 >= x1 || y0 >= y1) return 0;
    *box = (lk_box){(int32_t)x0, (int32_t)y0, (int32_t)x1, (int32_t)y1};
    const int32_t n = (int32_t)(x1 - x0);
    const ptrdiff_t src_stride = g->stride;
    /* Whole 16-byte steps while both rows have room for them (the same in every row). */
    const int64_t room = src_stride - (x0 - gx) < stride - x0 ? src_stride - (x0 - gx) : stride - x0;
    const int32_t steps = (int32_t)((n + 15) / 16 * 16 <= room ? (n + 15) / 16 : room / 16);
    rows_fn(mask + (ptrdiff_t)y0 * stride + x0, stride, g->coverage + (ptrdiff_t)(y0 - gy) * src_stride + (x0 - gx), src_stride,
            (int32_t)(y1 - y0), n, steps);
    return 1;
}

/* The union of `box` and `other` (`box` empty when x1 >= x2). */
LK_INLINE void lk_box_add(lk_box *box, lk_box other) {
    if (box->x1 >= box->x2) {
        *box = other;
        return;
    }
    if (other.x1 < box->x1) box->x1 = other.x1;
    if (other.y1 < box->y1) box->y1 = other.y1;
    if (other.x2 > box->x2) box->x2 = other.x2;
    if (other.y2 > box->y2) box->y2 = other.y2;
}

LK_INLINE void lk_add_glyphs_with(uint8_t *mask, int32_t mask_x, int32_t mask_y, int32_t width, int32_t height, int32_t stride,
                                  const lk_glyph_blit *glyphs, int32_t count, lk_box *inked, lk_glyph_rows_fn rows_fn) {
    lk_box all = {0, 0, 0, 0}, box;
    for (int32_t i = 0; i < count; i++) {
        if (glyphs[i].coverage && lk_add_glyph_with(mask, mask_x, mask_y, width, height, stride, &glyphs[i], &box, rows_fn))
            lk_box_add(&all, box);
    }
    if (inked) *inked = all;
}

/* A glyph's rows from byte `k` on, one byte at a time (scalar code, and what 16-byte steps left). */
LK_INLINE void lk_add_glyph_bytes(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride, int32_t rows,
                                  int32_t k, int32_t n) {
    for (int32_t r = 0; r < rows; r++, src += src_stride, dst += dst_stride)
        for (int32_t c = k; c < n; c++) dst[c] = lk_coverage_over(dst[c], src[c]);
}

#if LK_X86
/* lk_a8_add_glyphs in AVX2 (kernels_avx2.c), its arguments checked. */
void lk_a8_add_glyphs_avx2(uint8_t *mask, int32_t mask_x, int32_t mask_y, int32_t width, int32_t height, int32_t stride,
                           int32_t clear_x, const lk_glyph_blit *glyphs, int32_t count, lk_box *inked);
#endif


/* Source over destination. */
LK_INLINE uint32_t lk_over(uint32_t s, uint32_t d) {
    return lk_add_un8x4(s, lk_mul_un8x4(d, 255 - (s >> 24)));
}

/* Stores one sampled pixel as the operator and opacity say. */
LK_INLINE void lk_store(uint32_t *dst, uint32_t s, lk_operator op, uint32_t opacity) {
    if (opacity != 255) s = lk_mul_un8x4(s, opacity);
    *dst = op == LK_OP_OVER ? lk_over(s, *dst) : s;
}

/* pixman's bilinear interpolation with 7-bit weights (BILINEAR_INTERPOLATION_BITS = 7):
 * per channel Σ texel · wx · wy over the four texels, weights summing to 128 each way,
 * truncated (pixman scales the weights to 8 bits and shifts by 16: the same number). */
LK_INLINE uint32_t lk_bilinear7(uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br, int32_t dx, int32_t dy) {
    uint32_t result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t top = ((tl >> shift) & 255) * (uint32_t)(128 - dx) + ((tr >> shift) & 255) * (uint32_t)dx;
        uint32_t bottom = ((bl >> shift) & 255) * (uint32_t)(128 - dx) + ((br >> shift) & 255) * (uint32_t)dx;
        result |= ((top * (uint32_t)(128 - dy) + bottom * (uint32_t)dy) >> 14) << shift;
    }
    return result;
}

/* Bilinear interpolation with 8-bit weights (0…256), rounded: LayerKit's perspective sampler. */
LK_INLINE uint32_t lk_bilinear8(uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br, uint32_t wx, uint32_t wy) {
    uint32_t w00 = (256 - wx) * (256 - wy), w10 = wx * (256 - wy), w01 = (256 - wx) * wy, w11 = wx * wy;
    uint32_t result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t sum = ((tl >> shift) & 255) * w00 + ((tr >> shift) & 255) * w10 + ((bl >> shift) & 255) * w01 +
                       ((br >> shift) & 255) * w11 + 0x8000;
        result |= (sum >> 16) << shift;
    }
    return result;
}

/* The source texel at (x, y), transparent outside. */
LK_INLINE uint32_t lk_texel(const lk_context *c, int32_t x, int32_t y) {
    if (x < 0 || y < 0 || x >= c->src_width || y >= c->src_height) return 0;
    const uint8_t *row = c->src + (ptrdiff_t)y * c->src_stride;
    return ((const uint32_t *)row)[x];
}

/* An A8 texel as pixman widens it: coverage in the alpha byte. */
LK_INLINE uint32_t lk_texel_a8(const lk_context *c, int32_t x, int32_t y) {
    if (x < 0 || y < 0 || x >= c->src_width || y >= c->src_height) return 0;
    return (uint32_t)c->src[(ptrdiff_t)y * c->src_stride + x] << 24;
}

/* Double helpers without libm: the arguments are clamped to a few thousand by the callers. */
LK_INLINE double lk_floor(double v) {
    double t = (double)(int64_t)v;
    return t > v ? t - 1 : t;
}

/* Rounded to nearest, halves away from zero (Swift's `rounded()`), for v >= 0. */
LK_INLINE uint32_t lk_round_weight(double v) {
    double t = (double)(int64_t)v;
    return (uint32_t)t + (v - t >= 0.5 ? 1u : 0u);
}

/* ---- Samples (the scalar definitions every variant reproduces) ---- */

/* pixman's bilinear sample at 16.16 source coordinates (fx, fy) of a pixel centre. */
LK_INLINE uint32_t lk_affine_bilinear(const lk_context *c, int64_t fx, int64_t fy, int a8) {
    int32_t x = (int32_t)(fx - 0x8000), y = (int32_t)(fy - 0x8000);
    int32_t dx = (x >> 9) & 0x7f, dy = (y >> 9) & 0x7f;
    int32_t x0 = x >> 16, y0 = y >> 16;
    if (a8)
        return lk_bilinear7(lk_texel_a8(c, x0, y0), lk_texel_a8(c, x0 + 1, y0), lk_texel_a8(c, x0, y0 + 1),
                            lk_texel_a8(c, x0 + 1, y0 + 1), dx, dy);
    return lk_bilinear7(lk_texel(c, x0, y0), lk_texel(c, x0 + 1, y0), lk_texel(c, x0, y0 + 1),
                        lk_texel(c, x0 + 1, y0 + 1), dx, dy);
}

/* pixman's nearest sample: the texel holding (fx − ε, fy − ε), so that a centre exactly on a
 * texel edge takes the texel before it. */
LK_INLINE uint32_t lk_affine_nearest(const lk_context *c, int64_t fx, int64_t fy, int a8) {
    int32_t x0 = (int32_t)(fx - 1) >> 16, y0 = (int32_t)(fy - 1) >> 16;
    return a8 ? lk_texel_a8(c, x0, y0) : lk_texel(c, x0, y0);
}

/* The perspective sample at pixel centre `px` of a row: the centre mapped in double precision,
 * then the four texels around (sx − ½, sy − ½) with weights rounded to 8 bits; transparent
 * outside the source and where w <= epsilon. */
LK_INLINE uint32_t lk_projective_bilinear(const lk_context *c, const lk_row *r, double px, int a8) {
    double w = px * c->m[2] + r->row_w;
    if (!(w > c->epsilon)) return 0;
    double sx = (px * c->m[0] + r->row_x) / w, sy = (px * c->m[1] + r->row_y) / w;
    double u = sx - 0.5, v = sy - 0.5;
    if (!(u > -1 && v > -1 && u < c->src_width && v < c->src_height)) return 0;
    double fu = lk_floor(u), fv = lk_floor(v);
    int32_t x0 = (int32_t)fu, y0 = (int32_t)fv;
    uint32_t wx = lk_round_weight((u - fu) * 256), wy = lk_round_weight((v - fv) * 256);
    if (a8)
        return lk_bilinear8(lk_texel_a8(c, x0, y0), lk_texel_a8(c, x0 + 1, y0), lk_texel_a8(c, x0, y0 + 1),
                            lk_texel_a8(c, x0 + 1, y0 + 1), wx, wy);
    return lk_bilinear8(lk_texel(c, x0, y0), lk_texel(c, x0 + 1, y0), lk_texel(c, x0, y0 + 1),
                        lk_texel(c, x0 + 1, y0 + 1), wx, wy);
}

/* The perspective nearest sample: the texel holding the mapped centre. */
LK_INLINE uint32_t lk_projective_nearest(const lk_context *c, const lk_row *r, double px, int a8) {
    double w = px * c->m[2] + r->row_w;
    if (!(w > c->epsilon)) return 0;
    double sx = (px * c->m[0] + r->row_x) / w, sy = (px * c->m[1] + r->row_y) / w;
    if (!(sx >= 0 && sy >= 0 && sx < c->src_width && sy < c->src_height)) return 0;
    int32_t x0 = (int32_t)sx, y0 = (int32_t)sy;
    return a8 ? lk_texel_a8(c, x0, y0) : lk_texel(c, x0, y0);
}

/* Stores an A8 sample: the color times the coverage, over the destination. */
LK_INLINE void lk_store_a8(uint32_t *dst, uint32_t coverage, uint32_t color) {
    uint32_t m = coverage >> 24;
    if (m) *dst = lk_over(lk_mul_un8x4(color, m), *dst);
}

#endif
