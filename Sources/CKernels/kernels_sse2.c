/*
 * The SSE2 kernels (x86-64's baseline): four pixels a step. SSE2 has no gathers, so texels are
 * loaded lane by lane; a pixel's two horizontal neighbours come in one 64-bit load.
 */
#include "kernels.h"

#if LK_X86
#include <emmintrin.h>
#include <string.h>

typedef __m128i vi;
#define LK_N 4
#define LK_SIMD static inline __attribute__((always_inline))

#define v_set1 _mm_set1_epi32
#define v_add _mm_add_epi32
#define v_sub _mm_sub_epi32
#define v_and _mm_and_si128
#define v_or _mm_or_si128
#define v_andnot _mm_andnot_si128
#define v_cmpgt _mm_cmpgt_epi32
#define v_srai _mm_srai_epi32
#define v_srli _mm_srli_epi32
#define v_slli _mm_slli_epi32
#define v_add16 _mm_add_epi16
#define v_mullo16 _mm_mullo_epi16
#define v_mulhi16 _mm_mulhi_epu16
#define v_srli16 _mm_srli_epi16
#define v_avg16 _mm_avg_epu16
#define v_adds8 _mm_adds_epu8
#define v_madd16 _mm_madd_epi16
#define v_unpacklo8 _mm_unpacklo_epi8
#define v_unpackhi8 _mm_unpackhi_epi8
#define v_unpacklo32 _mm_unpacklo_epi32
#define v_unpackhi32 _mm_unpackhi_epi32
#define v_packs32 _mm_packs_epi32

LK_SIMD vi v_from(const int32_t *a) { return _mm_load_si128((const __m128i *)a); }
/* Lanes built from values in registers (no store to forward to a wide load). */
LK_SIMD vi v_lanes(const int32_t *a) { return _mm_setr_epi32(a[0], a[1], a[2], a[3]); }
LK_SIMD int v_all(vi mask) { return _mm_movemask_epi8(mask) == 0xffff; }
/* Whether every bit of every lane is clear. */
LK_SIMD int v_none(vi v) { return lk_all_zero16(v); }
LK_SIMD void v_to(int32_t *a, vi v) { _mm_store_si128((__m128i *)a, v); }

/* The low 32 bits of a · b per lane (SSE2 multiplies only the even lanes, to 64 bits). */
LK_SIMD vi v_mullo32(vi a, vi b) {
    const vi even = _mm_mul_epu32(a, b), odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)), _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
}

/* mask ? a : b, per lane (masks are all ones or all zeros). */
LK_SIMD vi v_select(vi mask, vi a, vi b) { return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b)); }

/* v clamped to 0 … high (SSE2 has no 32-bit min and max). */
LK_SIMD vi v_clamp(vi v, int32_t high) {
    const vi low = _mm_setzero_si128(), top = _mm_set1_epi32(high);
    v = v_select(_mm_cmpgt_epi32(low, v), low, v);
    return v_select(_mm_cmpgt_epi32(v, top), top, v);
}

/* Four bytes, each widened to a lane. */
LK_SIMD vi v_bytes(const uint8_t *p) {
    int32_t word;
    memcpy(&word, p, 4);
    const vi zero = _mm_setzero_si128();
    return _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(word), zero), zero);
}

LK_SIMD vi v_load_n(const uint32_t *p, int n) {
    if (n == LK_N) return _mm_loadu_si128((const __m128i *)p);
    uint32_t t[LK_N] = {0};
    memcpy(t, p, (size_t)n * 4);
    return _mm_loadu_si128((const __m128i *)t);
}

LK_SIMD void v_store_n(uint32_t *p, vi v, int n) {
    if (n == LK_N) {
        _mm_storeu_si128((__m128i *)p, v);
        return;
    }
    uint32_t t[LK_N];
    _mm_storeu_si128((__m128i *)t, v);
    memcpy(p, t, (size_t)n * 4);
}

/* Top-left/top-right and bottom-left/bottom-right pairs, each one 64-bit load (inner pixels only:
 * both columns are inside the source), regrouped into four vectors. */
LK_SIMD void sse2_fetch_pairs(const lk_context *c, vi x0, vi y0, vi *tl, vi *tr, vi *bl, vi *br) {
    int32_t xs[LK_N] __attribute__((aligned(16))), ys[LK_N] __attribute__((aligned(16)));
    v_to(xs, x0);
    v_to(ys, y0);
    __m128i top[LK_N], bottom[LK_N];
    for (int k = 0; k < LK_N; k++) {
        const uint8_t *p = c->src + (ptrdiff_t)ys[k] * c->src_stride + (ptrdiff_t)xs[k] * 4;
        top[k] = _mm_loadl_epi64((const __m128i *)p);
        bottom[k] = _mm_loadl_epi64((const __m128i *)(p + c->src_stride));
    }
    __m128 t01 = _mm_castsi128_ps(_mm_unpacklo_epi64(top[0], top[1]));
    __m128 t23 = _mm_castsi128_ps(_mm_unpacklo_epi64(top[2], top[3]));
    __m128 b01 = _mm_castsi128_ps(_mm_unpacklo_epi64(bottom[0], bottom[1]));
    __m128 b23 = _mm_castsi128_ps(_mm_unpacklo_epi64(bottom[2], bottom[3]));
    *tl = _mm_castps_si128(_mm_shuffle_ps(t01, t23, _MM_SHUFFLE(2, 0, 2, 0)));
    *tr = _mm_castps_si128(_mm_shuffle_ps(t01, t23, _MM_SHUFFLE(3, 1, 3, 1)));
    *bl = _mm_castps_si128(_mm_shuffle_ps(b01, b23, _MM_SHUFFLE(2, 0, 2, 0)));
    *br = _mm_castps_si128(_mm_shuffle_ps(b01, b23, _MM_SHUFFLE(3, 1, 3, 1)));
}

#define LK_FETCH_PAIRS sse2_fetch_pairs
#define LK_FETCH4_CHECKED(c, x0, y0, tl, tr, bl, br) v_fetch4_scalar(c, x0, y0, 0, 1, tl, tr, bl, br)
#define LK_FETCH1(c, x0, y0) v_fetch1_scalar(c, x0, y0, 0)
#define LK_FETCH1_CHECKED(c, x0, y0) v_fetch1_scalar(c, x0, y0, 0)

/* floor for |v| < 2³¹ (SSE2 has no rounding instruction). */
LK_SIMD __m128d sse2_floor(__m128d v) {
    __m128d t = _mm_cvtepi32_pd(_mm_cvttpd_epi32(v));
    return _mm_sub_pd(t, _mm_and_pd(_mm_cmpgt_pd(t, v), _mm_set1_pd(1)));
}

/* Rounded to nearest with halves up, for 0 <= v < 2³¹ (Swift's `rounded()` there). */
LK_SIMD __m128d sse2_round_weight(__m128d v) {
    __m128d t = _mm_cvtepi32_pd(_mm_cvttpd_epi32(v));
    return _mm_add_pd(t, _mm_and_pd(_mm_cmpge_pd(_mm_sub_pd(v, t), _mm_set1_pd(0.5)), _mm_set1_pd(1)));
}

/* Two lanes' 32-bit integers from two doubles each. */
LK_SIMD vi sse2_join(__m128d lo, __m128d hi) {
    return _mm_unpacklo_epi64(_mm_cvttpd_epi32(lo), _mm_cvttpd_epi32(hi));
}

/* The perspective sample's texel (and bilinear weights) of four pixel centres px … px + 3, as
 * lk_projective_bilinear/nearest compute them; a pixel with no sample gets a texel outside
 * the source (−2, or −1 for nearest), so its fetched texels are transparent. */
LK_SIMD void v_project(const lk_context *c, const lk_row *r, double px, int bilinear, vi *x0, vi *y0, vi *wx,
                       vi *wy) {
    const __m128d m0 = _mm_set1_pd(c->m[0]), m1 = _mm_set1_pd(c->m[1]), m2 = _mm_set1_pd(c->m[2]);
    const __m128d rx = _mm_set1_pd(r->row_x), ry = _mm_set1_pd(r->row_y), rw = _mm_set1_pd(r->row_w);
    const __m128d w_max = _mm_set1_pd(c->src_width), h_max = _mm_set1_pd(c->src_height);
    const __m128d one = _mm_set1_pd(1), half = _mm_set1_pd(0.5), scale = _mm_set1_pd(256);
    __m128d xs[2], ys[2], wxs[2], wys[2], ok[2];
    for (int h = 0; h < 2; h++) {
        __m128d p = _mm_add_pd(_mm_set1_pd(px + 2 * h), _mm_setr_pd(0, 1));
        __m128d w = _mm_add_pd(_mm_mul_pd(p, m2), rw);
        __m128d valid = _mm_cmpgt_pd(w, _mm_set1_pd(c->epsilon));
        __m128d sx = _mm_div_pd(_mm_add_pd(_mm_mul_pd(p, m0), rx), w);
        __m128d sy = _mm_div_pd(_mm_add_pd(_mm_mul_pd(p, m1), ry), w);
        if (bilinear) {
            __m128d u = _mm_sub_pd(sx, half), v = _mm_sub_pd(sy, half);
            const __m128d minus1 = _mm_set1_pd(-1);
            valid = _mm_and_pd(valid, _mm_and_pd(_mm_cmpgt_pd(u, minus1), _mm_cmpgt_pd(v, minus1)));
            valid = _mm_and_pd(valid, _mm_and_pd(_mm_cmplt_pd(u, w_max), _mm_cmplt_pd(v, h_max)));
            /* Clamped (NaN to −1: max returns its second operand) so that conversions stay exact. */
            u = _mm_min_pd(_mm_max_pd(u, minus1), w_max);
            v = _mm_min_pd(_mm_max_pd(v, minus1), h_max);
            __m128d fu = sse2_floor(u), fv = sse2_floor(v);
            xs[h] = fu;
            ys[h] = fv;
            wxs[h] = sse2_round_weight(_mm_mul_pd(_mm_sub_pd(u, fu), scale));
            wys[h] = sse2_round_weight(_mm_mul_pd(_mm_sub_pd(v, fv), scale));
        } else {
            const __m128d zero = _mm_setzero_pd();
            valid = _mm_and_pd(valid, _mm_and_pd(_mm_cmpge_pd(sx, zero), _mm_cmpge_pd(sy, zero)));
            valid = _mm_and_pd(valid, _mm_and_pd(_mm_cmplt_pd(sx, w_max), _mm_cmplt_pd(sy, h_max)));
            xs[h] = _mm_min_pd(_mm_max_pd(sx, zero), w_max);
            ys[h] = _mm_min_pd(_mm_max_pd(sy, zero), h_max);
            wxs[h] = wys[h] = zero;
        }
        ok[h] = _mm_and_pd(valid, one);
    }
    const vi valid = _mm_cmpeq_epi32(sse2_join(ok[0], ok[1]), _mm_set1_epi32(1));
    const vi outside = _mm_set1_epi32(bilinear ? -2 : -1);
    *x0 = _mm_or_si128(_mm_and_si128(valid, sse2_join(xs[0], xs[1])), _mm_andnot_si128(valid, outside));
    *y0 = _mm_or_si128(_mm_and_si128(valid, sse2_join(ys[0], ys[1])), _mm_andnot_si128(valid, outside));
    vi a = sse2_join(wxs[0], wxs[1]), b = sse2_join(wys[0], wys[1]);
    *wx = _mm_or_si128(a, _mm_slli_epi32(a, 16));
    *wy = _mm_or_si128(b, _mm_slli_epi32(b, 16));
}

#include "kernels_simd.h"

const lk_kernel_table lk_sse2_table = {lk_simd_entries, (int)(sizeof lk_simd_entries / sizeof lk_simd_entries[0]), LK_N,
                                       &lk_scalar_table};

#endif
