/*
 * The AVX-512 kernels (F, BW, VL and VBMI): A8 coverage over a known base through a palette.
 * Everything else is the AVX2 table's (this table's fallback). Compiled for AVX-512 function by
 * function (the target's baseline stays SSE2) and only called once CPUID says it is there.
 *
 * Over pixels that all hold one base, with one color, every pixel a row writes is a function of
 * its coverage m alone: P[m], the color times m over the base as lk_store_a8 computes it (the
 * scalar reference, so the palette cannot drift from the other variants). P is kept as four
 * byte planes (blue, green, red, alpha) of 256 entries, each two 128-byte halves; vpermt2b
 * looks 64 coverage bytes up in a half at once, the top bit of m picks the half, and byte and
 * word unpacks interleave the planes into pixels: about 27 instructions per 64 pixels, where
 * the AVX2 arithmetic takes some 25 per 8.
 */
#include "kernels.h"

#if LK_X86
#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi"))), apply_to = function)

#define LK_SIMD static inline __attribute__((always_inline))

/* P[m] of one (color, base) pair as byte planes: plane[k][m] = byte k of P[m]. */
typedef struct lk_palette {
    uint8_t plane[4][256];
} __attribute__((aligned(64))) lk_palette;

/* The palettes a thread used last, round robin: a frame's lines come in one or two colors over
 * one background, so a frame builds each once (usually none: the last frame's are kept). */
#define LK_PALETTES 4
typedef struct lk_palette_cache {
    lk_palette palettes[LK_PALETTES];
    uint32_t color[LK_PALETTES], base[LK_PALETTES];
    /* Bit i: palettes[i] is built for (color[i], base[i]). */
    uint32_t valid;
    uint32_t next;
} lk_palette_cache;

static _Thread_local lk_palette_cache lk_thread_palettes;

/* The palette for `color` over `base`, built from the scalar arithmetic where the thread has none. */
static const lk_palette *lk_palette_for(uint32_t color, uint32_t base) {
    lk_palette_cache *cache = &lk_thread_palettes;
    for (int i = 0; i < LK_PALETTES; i++)
        if ((cache->valid >> i & 1) && cache->color[i] == color && cache->base[i] == base) return &cache->palettes[i];
    const uint32_t i = cache->next;
    cache->next = (i + 1) % LK_PALETTES;
    lk_palette *p = &cache->palettes[i];
    for (uint32_t m = 0; m < 256; m++) {
        uint32_t pixel = base;
        lk_store_a8(&pixel, m << 24, color);
        for (int k = 0; k < 4; k++) p->plane[k][m] = (uint8_t)(pixel >> 8 * k);
    }
    cache->color[i] = color;
    cache->base[i] = base;
    cache->valid |= 1u << i;
    return p;
}

/* The coverage bytes' order before the lookups, so that the in-lane unpacks come out in pixel
 * order: the unpacks put byte 16L + 4q + j (128-bit lane L) into pixel j of lane L of output q,
 * which must be pixel 16q + 4L + j of the 64; so that byte takes coverage byte 16q + 4L + j
 * (4x4 blocks of four bytes transposed). */
static const uint8_t lk_palette_order[64] __attribute__((aligned(64))) = {
    0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48, 49, 50, 51,
    4, 5, 6, 7, 20, 21, 22, 23, 36, 37, 38, 39, 52, 53, 54, 55,
    8, 9, 10, 11, 24, 25, 26, 27, 40, 41, 42, 43, 56, 57, 58, 59,
    12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 60, 61, 62, 63,
};

/* One plane's 64 bytes for the coverage `m`: the half the top bit picks, looked up by the low
 * seven bits. */
LK_SIMD __m512i lk_plane_lookup(const __m512i *t, __m512i m, __mmask64 high) {
    const __m512i lo = _mm512_permutex2var_epi8(t[0], m, t[1]), hi = _mm512_permutex2var_epi8(t[2], m, t[3]);
    return _mm512_mask_blend_epi8(high, lo, hi);
}

/* The 64 pixels of the coverage bytes `m` (in order), as four registers of 16 in order. */
LK_SIMD void lk_palette_pixels(const __m512i t[16], __m512i order, __m512i m, __m512i out[4]) {
    m = _mm512_permutexvar_epi8(order, m);
    const __mmask64 high = _mm512_movepi8_mask(m);
    const __m512i b = lk_plane_lookup(t, m, high), g = lk_plane_lookup(t + 4, m, high);
    const __m512i r = lk_plane_lookup(t + 8, m, high), a = lk_plane_lookup(t + 12, m, high);
    const __m512i bg_lo = _mm512_unpacklo_epi8(b, g), bg_hi = _mm512_unpackhi_epi8(b, g);
    const __m512i ra_lo = _mm512_unpacklo_epi8(r, a), ra_hi = _mm512_unpackhi_epi8(r, a);
    out[0] = _mm512_unpacklo_epi16(bg_lo, ra_lo);
    out[1] = _mm512_unpackhi_epi16(bg_lo, ra_lo);
    out[2] = _mm512_unpacklo_epi16(bg_hi, ra_hi);
    out[3] = _mm512_unpackhi_epi16(bg_hi, ra_hi);
}

/* The AVX2 a8_on_base's pixels (every one written, nothing at dst read) from the palette: 64
 * pixels a step, a step of clear coverage stored as the base without the lookups, and the last
 * pixels with masked loads and stores. */
static void a8_on_base(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    const lk_context *c = r->context;
    const uint8_t *mask = c->src + (ptrdiff_t)fy * c->src_stride + fx;
    const lk_palette *p = lk_palette_for(c->color, c->base);
    __m512i t[16];
    for (int k = 0; k < 16; k++) t[k] = _mm512_load_si512((const void *)(p->plane[k / 4] + 64 * (k % 4)));
    const __m512i order = _mm512_load_si512((const void *)lk_palette_order), base = _mm512_set1_epi32((int32_t)c->base);
    __m512i out[4];
    int32_t i = 0;
    /* The pixels before dst's first 64-byte boundary (fewer than 16), alone: from there each
     * 64-byte store fills one cache line, where a store across two costs two. */
    int32_t head = (int32_t)(((64 - ((uintptr_t)dst & 63)) & 63) / 4);
    if (head > count) head = count;
    if (head > 0) {
        const __mmask64 lanes = ((__mmask64)1 << head) - 1;
        lk_palette_pixels(t, order, _mm512_maskz_loadu_epi8(lanes, mask), out);
        _mm512_mask_storeu_epi32(dst, (__mmask16)lanes, out[0]);
        i = head;
    }
    for (; i + 64 <= count; i += 64) {
        const __m512i m = _mm512_loadu_si512((const void *)(mask + i));
        if (_mm512_test_epi8_mask(m, m) == 0) {
            for (int q = 0; q < 4; q++) _mm512_storeu_si512((void *)(dst + i + 16 * q), base);
            continue;
        }
        lk_palette_pixels(t, order, m, out);
        for (int q = 0; q < 4; q++) _mm512_storeu_si512((void *)(dst + i + 16 * q), out[q]);
    }
    if (i < count) {
        const __mmask64 lanes = ((__mmask64)1 << (count - i)) - 1;
        lk_palette_pixels(t, order, _mm512_maskz_loadu_epi8(lanes, mask + i), out);
        for (int q = 0; q < 4; q++) _mm512_mask_storeu_epi32(dst + i + 16 * q, (__mmask16)(lanes >> 16 * q), out[q]);
    }
}

#pragma clang attribute pop

static const lk_kernel_entry entries[] = {
    {LK_FORMAT_A8, LK_MAP_ON_BASE, LK_FILTER_NEAREST, a8_on_base, a8_on_base},
};

const lk_kernel_table lk_avx512_table = {entries, (int)(sizeof entries / sizeof entries[0]), 64, &lk_avx2_table};

#endif
