/*
 * Solid fills: one 32-bit word stored into every pixel of a list of boxes (a painter's
 * background, a clear). pixman_fill's SSE2 loop does the same; these are its stores, wider
 * (AVX2), aligned after an unaligned head, with short rows stored as two overlapping halves.
 */
#include "kernels.h"
#if LK_X86
#include <immintrin.h>
#endif

/* One row of `n` words, one at a time. */
static void fill_row_scalar(uint32_t *p, int32_t n, uint32_t pixel) {
    for (int32_t i = 0; i < n; i++) p[i] = pixel;
}

#if LK_X86
/* Rows shorter than a vector: two stores that overlap (or meet) in the middle. */
LK_INLINE void fill_short(uint32_t *p, int32_t n, __m128i v) {
    if (n >= 4) {
        _mm_storeu_si128((__m128i *)p, v);
        _mm_storeu_si128((__m128i *)(p + n - 4), v);
    } else if (n >= 2) {
        _mm_storel_epi64((__m128i *)p, v);
        _mm_storel_epi64((__m128i *)(p + n - 2), v);
    } else if (n == 1) {
        *p = (uint32_t)_mm_cvtsi128_si32(v);
    }
}

/* One row of `n` words, four a step: an unaligned first step, aligned steps from the next
 * 16-byte boundary, and a last unaligned step ending at the row's end (each overlapping what is
 * already stored rather than storing a ragged edge word by word). */
LK_INLINE void fill_row_sse2(uint32_t *p, int32_t n, __m128i v) {
    if (n < 4) {
        fill_short(p, n, v);
        return;
    }
    _mm_storeu_si128((__m128i *)p, v);
    /* Words from p to the first 16-byte boundary after it: 1 to 4. */
    int32_t i = (int32_t)(4 - ((uintptr_t)p / 4 & 3));
    for (; i + 4 <= n; i += 4) _mm_store_si128((__m128i *)(p + i), v);
    _mm_storeu_si128((__m128i *)(p + n - 4), v);
}

/* fill_row_sse2 eight words a step. */
__attribute__((target("avx2"))) LK_INLINE void fill_row_avx2(uint32_t *p, int32_t n, __m256i v) {
    if (n < 8) {
        fill_short(p, n, _mm256_castsi256_si128(v));
        return;
    }
    _mm256_storeu_si256((__m256i *)p, v);
    /* Words from p to the first 32-byte boundary after it: 1 to 8. */
    int32_t i = (int32_t)(8 - ((uintptr_t)p / 4 & 7));
    for (; i + 16 <= n; i += 16) {
        _mm256_store_si256((__m256i *)(p + i), v);
        _mm256_store_si256((__m256i *)(p + i + 8), v);
    }
    if (i + 8 <= n) _mm256_store_si256((__m256i *)(p + i), v);
    _mm256_storeu_si256((__m256i *)(p + n - 8), v);
}

__attribute__((target("avx2"))) static void fill_box_avx2(uint8_t *row, ptrdiff_t stride, int32_t rows, int32_t n,
                                                          uint32_t pixel) {
    const __m256i v = _mm256_set1_epi32((int32_t)pixel);
    for (int32_t y = 0; y < rows; y++, row += stride) fill_row_avx2((uint32_t *)row, n, v);
}

static void fill_box_sse2(uint8_t *row, ptrdiff_t stride, int32_t rows, int32_t n, uint32_t pixel) {
    const __m128i v = _mm_set1_epi32((int32_t)pixel);
    for (int32_t y = 0; y < rows; y++, row += stride) fill_row_sse2((uint32_t *)row, n, v);
}
#endif

static void fill_box_scalar(uint8_t *row, ptrdiff_t stride, int32_t rows, int32_t n, uint32_t pixel) {
    for (int32_t y = 0; y < rows; y++, row += stride) fill_row_scalar((uint32_t *)row, n, pixel);
}

lk_status lk_fill(uint32_t *dst, int32_t width, int32_t height, int32_t stride, uint32_t pixel, const lk_box *boxes,
                  int32_t count, lk_variant variant) {
    if (!dst || (uintptr_t)dst % 4 != 0 || width < 0 || height < 0 || stride % 4 != 0 || stride / 4 < width ||
        (int64_t)stride * height > INT32_MAX || count < 0 || (count > 0 && !boxes))
        return LK_INVALID;
    if (variant == LK_VARIANT_AUTO || !lk_kernels_variant_is_available(variant)) variant = lk_kernels_variant();
    void (*fill_box)(uint8_t *, ptrdiff_t, int32_t, int32_t, uint32_t) = fill_box_scalar;
#if LK_X86
    if (variant == LK_VARIANT_AVX2 || variant == LK_VARIANT_AVX512) fill_box = fill_box_avx2; /* AVX-512's: AVX2's */
    else if (variant == LK_VARIANT_SSE2) fill_box = fill_box_sse2;
#endif
    for (int32_t i = 0; i < count; i++) {
        /* The box cut to the destination. */
        const lk_box b = boxes[i];
        const int32_t x1 = b.x1 > 0 ? b.x1 : 0, y1 = b.y1 > 0 ? b.y1 : 0;
        const int32_t x2 = b.x2 < width ? b.x2 : width, y2 = b.y2 < height ? b.y2 : height;
        if (x1 >= x2 || y1 >= y2) continue;
        fill_box((uint8_t *)dst + (ptrdiff_t)y1 * stride + (ptrdiff_t)x1 * 4, stride, y2 - y1, x2 - x1, pixel);
    }
    return LK_OK;
}
