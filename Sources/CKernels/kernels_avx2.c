/*
 * The AVX2 kernels: eight pixels a step, texels gathered. Compiled for AVX2 function by
 * function (the target's baseline stays SSE2) and only called once CPUID says AVX2 is there.
 */
#include "kernels.h"

#if LK_X86
#include <immintrin.h>
#include <string.h>

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)

typedef __m256i vi;
#define LK_N 8
#define LK_SIMD static inline __attribute__((always_inline))

#define v_set1 _mm256_set1_epi32
#define v_add _mm256_add_epi32
#define v_sub _mm256_sub_epi32
#define v_and _mm256_and_si256
#define v_or _mm256_or_si256
#define v_andnot _mm256_andnot_si256
#define v_cmpgt _mm256_cmpgt_epi32
#define v_srai _mm256_srai_epi32
#define v_srli _mm256_srli_epi32
#define v_slli _mm256_slli_epi32
#define v_mullo32 _mm256_mullo_epi32
#define v_add16 _mm256_add_epi16
#define v_mullo16 _mm256_mullo_epi16
#define v_mulhi16 _mm256_mulhi_epu16
#define v_srli16 _mm256_srli_epi16
#define v_avg16 _mm256_avg_epu16
#define v_adds8 _mm256_adds_epu8
#define v_madd16 _mm256_madd_epi16
#define v_unpacklo8 _mm256_unpacklo_epi8
#define v_unpackhi8 _mm256_unpackhi_epi8
#define v_unpacklo32 _mm256_unpacklo_epi32
#define v_unpackhi32 _mm256_unpackhi_epi32
#define v_packs32 _mm256_packs_epi32

LK_SIMD vi v_from(const int32_t *a) { return _mm256_load_si256((const __m256i *)a); }
/* Lanes built from values in registers (no store to forward to a wide load). */
LK_SIMD vi v_lanes(const int32_t *a) { return _mm256_setr_epi32(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); }
LK_SIMD int v_all(vi mask) { return _mm256_movemask_epi8(mask) == -1; }
/* Whether every bit of every lane is clear. */
LK_SIMD int v_none(vi v) { return _mm256_testz_si256(v, v); }
LK_SIMD void v_to(int32_t *a, vi v) { _mm256_store_si256((__m256i *)a, v); }

/* mask ? a : b, per lane (masks are all ones or all zeros). */
LK_SIMD vi v_select(vi mask, vi a, vi b) { return _mm256_blendv_epi8(b, a, mask); }

LK_SIMD vi v_clamp(vi v, int32_t high) {
    return _mm256_min_epi32(_mm256_max_epi32(v, _mm256_setzero_si256()), _mm256_set1_epi32(high));
}

LK_SIMD vi avx2_lanes_below(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/* Eight bytes, each widened to a lane. */
LK_SIMD vi v_bytes(const uint8_t *p) { return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)); }

LK_SIMD vi v_load_n(const uint32_t *p, int n) {
    if (n == LK_N) return _mm256_loadu_si256((const __m256i *)p);
    return _mm256_maskload_epi32((const int *)p, avx2_lanes_below(n));
}

LK_SIMD void v_store_n(uint32_t *p, vi v, int n) {
    if (n == LK_N) _mm256_storeu_si256((__m256i *)p, v);
    else _mm256_maskstore_epi32((int *)p, avx2_lanes_below(n), v);
}

LK_SIMD vi avx2_offsets(const lk_context *c, vi x0, vi y0) {
    return _mm256_add_epi32(_mm256_mullo_epi32(y0, _mm256_set1_epi32((int32_t)(c->src_stride / 4))), x0);
}

/* Whether 0 <= v < limit, per lane. */
LK_SIMD vi avx2_inside(vi v, int32_t limit) {
    return _mm256_and_si256(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(-1)),
                            _mm256_cmpgt_epi32(_mm256_set1_epi32(limit), v));
}

/* Eight texels at the given offsets, zero where `keep` is clear. (Loads one by one: on the
 * AMD Zen cores measured here they beat gathers.) */
LK_SIMD vi avx2_load8(const int32_t *p, vi offsets, vi keep) {
    int32_t o[LK_N] __attribute__((aligned(32)));
    v_to(o, offsets);
    return _mm256_and_si256(_mm256_setr_epi32(p[o[0]], p[o[1]], p[o[2]], p[o[3]], p[o[4]], p[o[5]], p[o[6]], p[o[7]]), keep);
}

/* Any pixel: texels outside the source count as transparent (read at a clamped position, which
 * is inside, and dropped). */
LK_SIMD void avx2_fetch4_checked(const lk_context *c, vi x0, vi y0, vi *tl, vi *tr, vi *bl, vi *br) {
    const vi one = _mm256_set1_epi32(1), stride = _mm256_set1_epi32((int32_t)(c->src_stride / 4));
    vi x1 = _mm256_add_epi32(x0, one), y1 = _mm256_add_epi32(y0, one);
    vi inx0 = avx2_inside(x0, c->src_width), inx1 = avx2_inside(x1, c->src_width);
    vi iny0 = avx2_inside(y0, c->src_height), iny1 = avx2_inside(y1, c->src_height);
    vi cx0 = v_clamp(x0, c->src_width - 1), cx1 = v_clamp(x1, c->src_width - 1);
    vi row0 = _mm256_mullo_epi32(v_clamp(y0, c->src_height - 1), stride);
    vi row1 = _mm256_mullo_epi32(v_clamp(y1, c->src_height - 1), stride);
    const int32_t *p = (const int32_t *)c->src;
    *tl = avx2_load8(p, _mm256_add_epi32(row0, cx0), _mm256_and_si256(inx0, iny0));
    *tr = avx2_load8(p, _mm256_add_epi32(row0, cx1), _mm256_and_si256(inx1, iny0));
    *bl = avx2_load8(p, _mm256_add_epi32(row1, cx0), _mm256_and_si256(inx0, iny1));
    *br = avx2_load8(p, _mm256_add_epi32(row1, cx1), _mm256_and_si256(inx1, iny1));
}

LK_SIMD vi avx2_fetch1(const lk_context *c, vi x0, vi y0) {
    return avx2_load8((const int32_t *)c->src, avx2_offsets(c, x0, y0), _mm256_set1_epi32(-1));
}

LK_SIMD vi avx2_fetch1_checked(const lk_context *c, vi x0, vi y0) {
    vi inside = _mm256_and_si256(avx2_inside(x0, c->src_width), avx2_inside(y0, c->src_height));
    vi offsets = avx2_offsets(c, v_clamp(x0, c->src_width - 1), v_clamp(y0, c->src_height - 1));
    return avx2_load8((const int32_t *)c->src, offsets, inside);
}

/* The pairs of eight inner pixels as loaded: top and bottom rows, pixels {0, 1 | 4, 5} and
 * {2, 3 | 6, 7} (two 64-bit pairs per 128-bit lane). */
LK_SIMD void avx2_load_pairs(const lk_context *c, vi x0, vi y0, __m256i *t01, __m256i *t23, __m256i *b01, __m256i *b23) {
    int32_t offsets[LK_N] __attribute__((aligned(32)));
    v_to(offsets, avx2_offsets(c, x0, y0));
    const uint32_t *top = (const uint32_t *)c->src, *bottom = (const uint32_t *)(c->src + c->src_stride);
    __m128i t[4], b[4];
    for (int k = 0; k < 4; k++) {
        const int32_t i = offsets[2 * k], j = offsets[2 * k + 1];
        t[k] = _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(top + i))),
                                             (const double *)(top + j)));
        b[k] = _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(bottom + i))),
                                             (const double *)(bottom + j)));
    }
    *t01 = _mm256_set_m128i(t[2], t[0]);
    *t23 = _mm256_set_m128i(t[3], t[1]);
    *b01 = _mm256_set_m128i(b[2], b[0]);
    *b23 = _mm256_set_m128i(b[3], b[1]);
}

/* The template's v_edge_pairs (included below, after the sample that needs it): the lanes whose
 * pairs start before the source or end after it, and their positions moved inside. */
LK_SIMD void avx2_edge_pairs(vi *x0, int32_t size, vi *before, vi *after) {
    *before = _mm256_cmpgt_epi32(_mm256_setzero_si256(), *x0);
    *after = _mm256_cmpgt_epi32(*x0, _mm256_set1_epi32(size - 2));
    *x0 = v_clamp(*x0, size - 2);
}

/* The texel left of and above each sample (x0, y0) and pixman's bilinear weights as signed bytes
 * and words for pmaddubsw and pmaddwd, shared by the a8r8g8b8 and A8 samplers: wh holds the bytes
 * dx − 128 (low) and −dx (high), making the word 128 − 255 · dx, in both halves of each lane; wv
 * the words dy − 128 (low) and −dy (high). Edge lanes (a source of `width` x `height`, at
 * least 2x2) read their pairs moved inside and move the weights with them (as
 * v_affine_sample): a byte along the pair's weight word, a word along the rows'. */
LK_SIMD void avx2_bilinear_weights(vi fx, vi fy, int32_t width, int32_t height, int edge,
                                   vi *x0_out, vi *y0_out, vi *wh_out, vi *wv_out) {
    const vi half = v_set1(0x8000), bits = v_set1(0x7f);
    vi xs = v_sub(fx, half), ys = v_sub(fy, half);
    vi x0 = v_srai(xs, 16), y0 = v_srai(ys, 16);
    vi dx = v_and(v_srli(xs, 9), bits), dy = v_and(v_srli(ys, 9), bits);
    vi wh = v_add(v_sub(v_set1(128), v_slli(dx, 8)), dx);
    wh = v_or(v_and(wh, v_set1(0xffff)), v_slli(wh, 16));
    vi wv = v_sub(v_add(dy, v_set1(0xff80)), v_slli(dy, 16));
    if (edge) {
        vi before, after;
        avx2_edge_pairs(&x0, width, &before, &after);
        wh = v_select(before, _mm256_srli_epi16(wh, 8), v_select(after, _mm256_slli_epi16(wh, 8), wh));
        avx2_edge_pairs(&y0, height, &before, &after);
        wv = v_select(before, v_srli(wv, 16), v_select(after, v_slli(wv, 16), wv));
    }
    *x0_out = x0; *y0_out = y0; *wh_out = wh; *wv_out = wv;
}

/* pixman's bilinear sample of eight a8r8g8b8 pixels with byte multiplies: inner pixels, or
 * `edge` pixels of a source at least 2x2. Each pair's channels are interleaved (left, right),
 * and pmaddubsw multiplies those unsigned bytes by signed weight bytes −(128 − dx) and −dx
 * (a signed byte holds −128, not 128), giving minus each row's l·(128 − dx) + r·dx (at most
 * 255 · 128: no saturation); pmaddwd then takes the rows with the words −(128 − dy) and −dy,
 * top·(128 − dy) + bottom·dy in 32 bits, and >> 14 truncates as pixman does. Edge lanes read
 * their pairs moved inside and move the weights with them (as v_affine_sample): a byte along
 * the pair's weight word, a word along the rows'. */
LK_SIMD vi avx2_affine_sample(const lk_context *c, vi fx, vi fy, int edge) {
    vi x0, y0, wh, wv;
    avx2_bilinear_weights(fx, fy, c->src_width, c->src_height, edge, &x0, &y0, &wh, &wv);
    __m256i t01, t23, b01, b23;
    avx2_load_pairs(c, x0, y0, &t01, &t23, &b01, &b23);
    const __m256i interleave = _mm256_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15,
                                                0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    t01 = _mm256_shuffle_epi8(t01, interleave);
    t23 = _mm256_shuffle_epi8(t23, interleave);
    b01 = _mm256_shuffle_epi8(b01, interleave);
    b23 = _mm256_shuffle_epi8(b23, interleave);
    /* Each pixel's weight word for its eight bytes, laid out as its pairs are. */
    const __m256i w01 = _mm256_permutevar8x32_epi32(wh, _mm256_setr_epi32(0, 0, 1, 1, 4, 4, 5, 5));
    const __m256i w23 = _mm256_permutevar8x32_epi32(wh, _mm256_setr_epi32(2, 2, 3, 3, 6, 6, 7, 7));
    __m256i ht01 = _mm256_maddubs_epi16(t01, w01), ht23 = _mm256_maddubs_epi16(t23, w23);
    __m256i hb01 = _mm256_maddubs_epi16(b01, w01), hb23 = _mm256_maddubs_epi16(b23, w23);
    /* Rows' weights, one pixel per 128-bit lane: pixels 0|4, 1|5, 2|6, 3|7. */
    __m256i r0 = _mm256_madd_epi16(_mm256_unpacklo_epi16(ht01, hb01),
                                   _mm256_permutevar8x32_epi32(wv, _mm256_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4)));
    __m256i r1 = _mm256_madd_epi16(_mm256_unpackhi_epi16(ht01, hb01),
                                   _mm256_permutevar8x32_epi32(wv, _mm256_setr_epi32(1, 1, 1, 1, 5, 5, 5, 5)));
    __m256i r2 = _mm256_madd_epi16(_mm256_unpacklo_epi16(ht23, hb23),
                                   _mm256_permutevar8x32_epi32(wv, _mm256_setr_epi32(2, 2, 2, 2, 6, 6, 6, 6)));
    __m256i r3 = _mm256_madd_epi16(_mm256_unpackhi_epi16(ht23, hb23),
                                   _mm256_permutevar8x32_epi32(wv, _mm256_setr_epi32(3, 3, 3, 3, 7, 7, 7, 7)));
    __m256i p01 = _mm256_packs_epi32(_mm256_srli_epi32(r0, 14), _mm256_srli_epi32(r1, 14));
    __m256i p23 = _mm256_packs_epi32(_mm256_srli_epi32(r2, 14), _mm256_srli_epi32(r3, 14));
    return _mm256_packus_epi16(p01, p23);
}

/* Inner pixels' four texels in pixel order (as the template's other users want them). */
LK_SIMD void avx2_fetch_pairs(const lk_context *c, vi x0, vi y0, vi *tl, vi *tr, vi *bl, vi *br) {
    __m256i t01, t23, b01, b23;
    avx2_load_pairs(c, x0, y0, &t01, &t23, &b01, &b23);
    __m256 t0 = _mm256_castsi256_ps(t01), t1 = _mm256_castsi256_ps(t23);
    __m256 b0 = _mm256_castsi256_ps(b01), b1 = _mm256_castsi256_ps(b23);
    *tl = _mm256_castps_si256(_mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(2, 0, 2, 0)));
    *tr = _mm256_castps_si256(_mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 1, 3, 1)));
    *bl = _mm256_castps_si256(_mm256_shuffle_ps(b0, b1, _MM_SHUFFLE(2, 0, 2, 0)));
    *br = _mm256_castps_si256(_mm256_shuffle_ps(b0, b1, _MM_SHUFFLE(3, 1, 3, 1)));
}

#define LK_AFFINE_SAMPLE avx2_affine_sample
/* Defined after the template, whose A8 source and quads it uses. */
typedef struct lk_a8_source lk_a8_source;
LK_SIMD vi avx2_a8_affine_sample(const lk_a8_source *s, vi fx, vi fy, int edge, int pairs);
#define LK_A8_AFFINE_SAMPLE avx2_a8_affine_sample
#define LK_FETCH_PAIRS avx2_fetch_pairs
#define LK_FETCH4_CHECKED avx2_fetch4_checked
#define LK_FETCH1 avx2_fetch1
#define LK_FETCH1_CHECKED avx2_fetch1_checked

/* Rounded to nearest with halves up, for 0 <= v < 2³¹ (Swift's `rounded()` there). */
LK_SIMD __m256d avx2_round_weight(__m256d v) {
    __m256d t = _mm256_floor_pd(v);
    return _mm256_add_pd(t, _mm256_and_pd(_mm256_cmp_pd(_mm256_sub_pd(v, t), _mm256_set1_pd(0.5), _CMP_GE_OQ),
                                          _mm256_set1_pd(1)));
}

LK_SIMD vi avx2_join(__m256d lo, __m256d hi) {
    return _mm256_set_m128i(_mm256_cvttpd_epi32(hi), _mm256_cvttpd_epi32(lo));
}

/* As the SSE2 v_project, eight pixel centres px … px + 7. */
LK_SIMD void v_project(const lk_context *c, const lk_row *r, double px, int bilinear, vi *x0, vi *y0, vi *wx,
                       vi *wy) {
    const __m256d m0 = _mm256_set1_pd(c->m[0]), m1 = _mm256_set1_pd(c->m[1]), m2 = _mm256_set1_pd(c->m[2]);
    const __m256d rx = _mm256_set1_pd(r->row_x), ry = _mm256_set1_pd(r->row_y), rw = _mm256_set1_pd(r->row_w);
    const __m256d w_max = _mm256_set1_pd(c->src_width), h_max = _mm256_set1_pd(c->src_height);
    const __m256d one = _mm256_set1_pd(1), half = _mm256_set1_pd(0.5), scale = _mm256_set1_pd(256);
    __m256d xs[2], ys[2], wxs[2], wys[2], ok[2];
    for (int h = 0; h < 2; h++) {
        __m256d p = _mm256_add_pd(_mm256_set1_pd(px + 4 * h), _mm256_setr_pd(0, 1, 2, 3));
        __m256d w = _mm256_add_pd(_mm256_mul_pd(p, m2), rw);
        __m256d valid = _mm256_cmp_pd(w, _mm256_set1_pd(c->epsilon), _CMP_GT_OQ);
        __m256d sx = _mm256_div_pd(_mm256_add_pd(_mm256_mul_pd(p, m0), rx), w);
        __m256d sy = _mm256_div_pd(_mm256_add_pd(_mm256_mul_pd(p, m1), ry), w);
        if (bilinear) {
            __m256d u = _mm256_sub_pd(sx, half), v = _mm256_sub_pd(sy, half);
            const __m256d minus1 = _mm256_set1_pd(-1);
            valid = _mm256_and_pd(valid, _mm256_and_pd(_mm256_cmp_pd(u, minus1, _CMP_GT_OQ),
                                                       _mm256_cmp_pd(v, minus1, _CMP_GT_OQ)));
            valid = _mm256_and_pd(valid, _mm256_and_pd(_mm256_cmp_pd(u, w_max, _CMP_LT_OQ),
                                                       _mm256_cmp_pd(v, h_max, _CMP_LT_OQ)));
            u = _mm256_min_pd(_mm256_max_pd(u, minus1), w_max);
            v = _mm256_min_pd(_mm256_max_pd(v, minus1), h_max);
            __m256d fu = _mm256_floor_pd(u), fv = _mm256_floor_pd(v);
            xs[h] = fu;
            ys[h] = fv;
            wxs[h] = avx2_round_weight(_mm256_mul_pd(_mm256_sub_pd(u, fu), scale));
            wys[h] = avx2_round_weight(_mm256_mul_pd(_mm256_sub_pd(v, fv), scale));
        } else {
            const __m256d zero = _mm256_setzero_pd();
            valid = _mm256_and_pd(valid, _mm256_and_pd(_mm256_cmp_pd(sx, zero, _CMP_GE_OQ),
                                                       _mm256_cmp_pd(sy, zero, _CMP_GE_OQ)));
            valid = _mm256_and_pd(valid, _mm256_and_pd(_mm256_cmp_pd(sx, w_max, _CMP_LT_OQ),
                                                       _mm256_cmp_pd(sy, h_max, _CMP_LT_OQ)));
            xs[h] = _mm256_min_pd(_mm256_max_pd(sx, zero), w_max);
            ys[h] = _mm256_min_pd(_mm256_max_pd(sy, zero), h_max);
            wxs[h] = wys[h] = zero;
        }
        ok[h] = _mm256_and_pd(valid, one);
    }
    const vi valid = _mm256_cmpeq_epi32(avx2_join(ok[0], ok[1]), _mm256_set1_epi32(1));
    const vi outside = _mm256_set1_epi32(bilinear ? -2 : -1);
    *x0 = _mm256_blendv_epi8(outside, avx2_join(xs[0], xs[1]), valid);
    *y0 = _mm256_blendv_epi8(outside, avx2_join(ys[0], ys[1]), valid);
    vi a = avx2_join(wxs[0], wxs[1]), b = avx2_join(wys[0], wys[1]);
    *wx = _mm256_or_si256(a, _mm256_slli_epi32(a, 16));
    *wy = _mm256_or_si256(b, _mm256_slli_epi32(b, 16));
}

#include "kernels_simd.h"

/* A8 bilinear coverage with byte multiplies: pmaddubsw multiplies each pixel's quad (tl tr bl
 * br) by the signed bytes −(128 − dx) and −dx, giving minus each row's l·(128 − dx) + r·dx (at
 * most 255 · 128: no saturation); pmaddwd takes the rows with the words −(128 − dy) and −dy,
 * top·(128 − dy) + bottom·dy, and >> 14 truncates as pixman does. Edge lanes move their
 * weights as in avx2_affine_sample. */
LK_SIMD vi avx2_a8_affine_sample(const lk_a8_source *s, vi fx, vi fy, int edge, int pairs) {
    vi x0, y0, wh, wv;
    if (pairs) {
        /* Quads with rows and columns exchanged: the weights with the axes exchanged, the
         * vertical ones as bytes for the pairs, the horizontal ones as words. */
        avx2_bilinear_weights(fy, fx, s->height, s->width, edge, &y0, &x0, &wh, &wv);
        return v_srli(_mm256_madd_epi16(_mm256_maddubs_epi16(v_a8_pair_quads(s, x0, y0), wh), wv), 14);
    }
    avx2_bilinear_weights(fx, fy, s->width, s->height, edge, &x0, &y0, &wh, &wv);
    return v_srli(_mm256_madd_epi16(_mm256_maddubs_epi16(v_a8_quads(s, x0, y0), wh), wv), 14);
}

/* Coverage g over m for sixteen bytes, each widened to a 16-bit lane of one register (AVX2
 * multiplies all sixteen at once, where SSE2 needs two registers' worth): m + g − (t · 257) >> 16,
 * t = m·g + 128, which is lk_coverage_over's rounding (see lk_coverage_over16). No test for a clear
 * mask: over(0, g) = g and over(m, 0) = m come out of the same arithmetic, in fewer instructions
 * than testing and branching took. */
static inline __attribute__((always_inline)) __m128i avx2_coverage_over16(__m128i m, __m128i g) {
    const __m256i m16 = _mm256_cvtepu8_epi16(m), g16 = _mm256_cvtepu8_epi16(g);
    const __m256i p = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(m16, g16), _mm256_set1_epi16(0x80)),
                                         _mm256_set1_epi16(0x0101));
    const __m256i r = _mm256_sub_epi16(_mm256_add_epi16(m16, g16), p);
    return _mm_packus_epi16(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
}

/* A glyph's rows in AVX2 (lk_glyph_rows_fn). A glyph of one step a row (text's usual: up to 16
 * pixels across) goes two rows a turn. */
static inline __attribute__((always_inline)) void avx2_add_glyph_rows(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                                                                      ptrdiff_t src_stride, int32_t rows, int32_t n, int32_t steps) {
    if (steps == 0) {
        lk_add_glyph_bytes(dst, dst_stride, src, src_stride, rows, 0, n);
        return;
    }
    if (steps * 16 < n) lk_add_glyph_bytes(dst, dst_stride, src, src_stride, rows, steps * 16, n);
    const int32_t tail = n - (steps - 1) * 16 < 16 ? n - (steps - 1) * 16 : 16;
    const __m128i last = lk_first_lanes16(tail);
    if (steps == 1) {
        int32_t r = 0;
        for (; r + 2 <= rows; r += 2, src += 2 * src_stride, dst += 2 * dst_stride) {
            const __m128i m0 = _mm_loadu_si128((const __m128i *)dst), m1 = _mm_loadu_si128((const __m128i *)(dst + dst_stride));
            const __m128i g0 = _mm_and_si128(_mm_loadu_si128((const __m128i *)src), last);
            const __m128i g1 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(src + src_stride)), last);
            _mm_storeu_si128((__m128i *)dst, avx2_coverage_over16(m0, g0));
            _mm_storeu_si128((__m128i *)(dst + dst_stride), avx2_coverage_over16(m1, g1));
        }
        if (r < rows) {
            const __m128i g = _mm_and_si128(_mm_loadu_si128((const __m128i *)src), last);
            _mm_storeu_si128((__m128i *)dst, avx2_coverage_over16(_mm_loadu_si128((const __m128i *)dst), g));
        }
    } else {
        const int32_t j = steps - 1;
        for (int32_t r = 0; r < rows; r++, src += src_stride, dst += dst_stride) {
            for (int32_t i = 0; i < j; i++) {
                const __m128i m = _mm_loadu_si128((const __m128i *)(dst + 16 * i));
                _mm_storeu_si128((__m128i *)(dst + 16 * i),
                                 avx2_coverage_over16(m, _mm_loadu_si128((const __m128i *)(src + 16 * i))));
            }
            const __m128i m = _mm_loadu_si128((const __m128i *)(dst + 16 * j));
            const __m128i g = _mm_and_si128(_mm_loadu_si128((const __m128i *)(src + 16 * j)), last);
            _mm_storeu_si128((__m128i *)(dst + 16 * j), avx2_coverage_over16(m, g));
        }
    }
}

/* A glyph that may reach past the mask's edges, or is wider than one step. One inside the
 * mask that starts at or right of `clear` (see lk_a8_add_glyphs_avx2), its steps within the
 * mask's width and its rows' bytes, is stored as it is, step by step. */
static __attribute__((noinline)) int avx2_add_glyph_clipped(uint8_t *mask, int32_t mask_x, int32_t mask_y, int32_t width,
                                                            int32_t height, int32_t stride, const lk_glyph_blit *g, lk_box *box,
                                                            int64_t clear) {
    const int64_t gx = (int64_t)g->x - mask_x, gy = (int64_t)g->y - mask_y;
    const int32_t w = g->width, h = g->height;
    const int64_t steps = ((int64_t)w + 15) / 16;
    if (gx >= clear && gy >= 0 && gy + h <= height && w > 0 && h > 0 && g->stride >= 16 * steps &&
        width - gx >= 16 * steps) {
        *box = (lk_box){(int32_t)gx, (int32_t)gy, (int32_t)gx + w, (int32_t)gy + h};
        const __m128i last = lk_first_lanes16(w - 16 * (int32_t)(steps - 1));
        const uint8_t *src = g->coverage;
        uint8_t *dst = mask + (ptrdiff_t)gy * stride + gx;
        /* Two steps a row (a text line's widest glyphs: %, W, M), without the inner loop. */
        if (steps == 2) {
            for (int32_t r = 0; r < h; r++, src += g->stride, dst += stride) {
                _mm_storeu_si128((__m128i *)dst, _mm_loadu_si128((const __m128i *)src));
                _mm_storeu_si128((__m128i *)(dst + 16), _mm_and_si128(_mm_loadu_si128((const __m128i *)(src + 16)), last));
            }
            return 1;
        }
        for (int32_t r = 0; r < h; r++, src += g->stride, dst += stride) {
            for (int64_t j = 0; j + 1 < steps; j++)
                _mm_storeu_si128((__m128i *)(dst + 16 * j), _mm_loadu_si128((const __m128i *)(src + 16 * j)));
            _mm_storeu_si128((__m128i *)(dst + 16 * (steps - 1)),
                             _mm_and_si128(_mm_loadu_si128((const __m128i *)(src + 16 * (steps - 1))), last));
        }
        return 1;
    }
    return lk_add_glyph_with(mask, mask_x, mask_y, width, height, stride, g, box, avx2_add_glyph_rows);
}

/* A glyph of one step a row onto mask bytes known clear, two rows a turn: over(0, g) = g, so
 * its coverage is stored as it is, the lanes past its width as zero (which they hold). */
static inline __attribute__((always_inline)) void avx2_store_glyph_rows(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                                                                        ptrdiff_t src_stride, int32_t rows, int32_t n) {
    const __m128i last = lk_first_lanes16(n);
    int32_t r = 0;
    for (; r + 2 <= rows; r += 2, src += 2 * src_stride, dst += 2 * dst_stride) {
        _mm_storeu_si128((__m128i *)dst, _mm_and_si128(_mm_loadu_si128((const __m128i *)src), last));
        _mm_storeu_si128((__m128i *)(dst + dst_stride), _mm_and_si128(_mm_loadu_si128((const __m128i *)(src + src_stride)), last));
    }
    if (r < rows) _mm_storeu_si128((__m128i *)dst, _mm_and_si128(_mm_loadu_si128((const __m128i *)src), last));
}

/* A line's glyphs usually lie inside its mask and are at most 16 pixels across: those go
 * straight to one step a row, with nothing to clip. (Wider glyphs too made the loop keep
 * more on the stack, costing every glyph more than it saved the wide ones.) Left to right on
 * a cleared mask, as a line's store is drawn, most start right of every glyph before them
 * (`clear`: the columns from there on are still zero): their coverage is stored as it is,
 * without reading the mask or the arithmetic; the 16 bytes from the glyph's start must then
 * lie within the mask's width, since lanes past the glyph's are stored as zero. */
void lk_a8_add_glyphs_avx2(uint8_t *mask, int32_t mask_x, int32_t mask_y, int32_t width, int32_t height, int32_t stride,
                           int32_t clear_x, const lk_glyph_blit *glyphs, int32_t count, lk_box *inked) {
    lk_box all = {0, 0, 0, 0}, box;
    int64_t clear = clear_x > 0 ? clear_x : 0;
    for (int32_t i = 0; i < count; i++) {
        const lk_glyph_blit *g = &glyphs[i];
        if (!g->coverage) continue;
        const int64_t gx = (int64_t)g->x - mask_x, gy = (int64_t)g->y - mask_y;
        const int32_t w = g->width, h = g->height;
        if (gx >= 0 && gy >= 0 && gx + w <= width && gy + h <= height && w > 0 && w <= 16 && h > 0 && g->stride >= 16 &&
            stride - gx >= 16) {
            box = (lk_box){(int32_t)gx, (int32_t)gy, (int32_t)gx + w, (int32_t)gy + h};
            if (gx >= clear && width - gx >= 16)
                avx2_store_glyph_rows(mask + (ptrdiff_t)gy * stride + gx, stride, g->coverage, g->stride, h, w);
            else
                avx2_add_glyph_rows(mask + (ptrdiff_t)gy * stride + gx, stride, g->coverage, g->stride, h, w, 1);
        } else if (!avx2_add_glyph_clipped(mask, mask_x, mask_y, width, height, stride, g, &box, clear)) {
            continue;
        }
        if (box.x2 > clear) clear = box.x2;
        lk_box_add(&all, box);
    }
    if (inked) *inked = all;
}

#pragma clang attribute pop

const lk_kernel_table lk_avx2_table = {lk_simd_entries, (int)(sizeof lk_simd_entries / sizeof lk_simd_entries[0]), LK_N,
                                       &lk_sse2_table};

#endif
