/*
 * Which variant runs: chosen once, from the CPU's features and LAYERKIT_KERNELS, and kept in
 * one atomic so that any thread may composite (or a test switch variants) at any time.
 */
#include "kernels.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if LK_X86
#include <cpuid.h>

/* AVX2 needs the instructions (CPUID.7.0:EBX bit 5) and the OS saving YMM state (XGETBV). */
static int cpu_has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned osxsave = 1u << 27, avx = 1u << 28;
    if ((c & osxsave) == 0 || (c & avx) == 0) return 0;
    unsigned xcr0_lo, xcr0_hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    (void)xcr0_hi;
    if ((xcr0_lo & 6) != 6) return 0;
    if (__get_cpuid_max(0, NULL) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b >> 5) & 1;
}

/* The AVX-512 variant needs AVX2 (its fallback), the instructions F, BW and VL (CPUID.7.0:EBX
 * bits 16, 30, 31) and VBMI (ECX bit 1), and the OS saving the opmask and ZMM state (XCR0 bits
 * 5, 6 and 7, besides SSE's and AVX's 1 and 2). */
static int cpu_has_avx512(void) {
    if (!cpu_has_avx2()) return 0;
    unsigned xcr0_lo, xcr0_hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    (void)xcr0_hi;
    if ((xcr0_lo & 0xe6) != 0xe6) return 0;
    unsigned a, b, c, d;
    __cpuid_count(7, 0, a, b, c, d);
    const unsigned f = 1u << 16, bw = 1u << 30, vl = 1u << 31, vbmi = 1u << 1;
    return (b & (f | bw | vl)) == (f | bw | vl) && (c & vbmi) != 0;
}

/* Whether `has` says yes, asked once: 0 unknown, 1 no, 2 yes in `known`. */
static int cpu_has_cached(atomic_int *known, int (*has)(void)) {
    int k = atomic_load_explicit(known, memory_order_relaxed);
    if (k == 0) {
        k = has() ? 2 : 1;
        atomic_store_explicit(known, k, memory_order_relaxed);
    }
    return k == 2;
}
#endif

int lk_kernels_variant_is_available(lk_variant variant) {
    switch (variant) {
    case LK_VARIANT_AUTO:
    case LK_VARIANT_SCALAR:
        return 1;
#if LK_X86
    case LK_VARIANT_SSE2:
        return 1; /* x86-64's baseline */
    case LK_VARIANT_AVX2: {
        static atomic_int known = 0;
        return cpu_has_cached(&known, cpu_has_avx2);
    }
    case LK_VARIANT_AVX512: {
        static atomic_int known = 0;
        return cpu_has_cached(&known, cpu_has_avx512);
    }
#endif
    default:
        return 0;
    }
}

static lk_variant best_available(void) {
#ifdef __OPTIMIZE__
    if (lk_kernels_variant_is_available(LK_VARIANT_AVX512)) return LK_VARIANT_AVX512;
    if (lk_kernels_variant_is_available(LK_VARIANT_AVX2)) return LK_VARIANT_AVX2;
#endif
    /* Unoptimized (SwiftPM's debug builds): every intrinsic's result goes through the stack, and
     * the AVX2 code, with more shuffles, then runs several times slower than the SSE2 code. */
    if (lk_kernels_variant_is_available(LK_VARIANT_SSE2)) return LK_VARIANT_SSE2;
    return LK_VARIANT_SCALAR;
}

/* The process's default: LAYERKIT_KERNELS when it names an available variant, else the best. */
static lk_variant default_variant(void) {
    const char *forced = getenv("LAYERKIT_KERNELS");
    if (forced) {
        lk_variant v = LK_VARIANT_AUTO;
        if (strcmp(forced, "scalar") == 0) v = LK_VARIANT_SCALAR;
        else if (strcmp(forced, "sse2") == 0) v = LK_VARIANT_SSE2;
        else if (strcmp(forced, "avx2") == 0) v = LK_VARIANT_AVX2;
        else if (strcmp(forced, "avx512") == 0) v = LK_VARIANT_AVX512;
        if (v != LK_VARIANT_AUTO && lk_kernels_variant_is_available(v)) return v;
    }
    return best_available();
}

/* LK_VARIANT_AUTO until first use. */
static atomic_int active = LK_VARIANT_AUTO;

lk_variant lk_kernels_variant(void) {
    int v = atomic_load_explicit(&active, memory_order_relaxed);
    if (v == LK_VARIANT_AUTO) {
        v = default_variant();
        int expected = LK_VARIANT_AUTO;
        /* Whoever comes first decides; a concurrent lk_kernels_set_variant wins over the default. */
        if (!atomic_compare_exchange_strong(&active, &expected, v)) v = expected;
    }
    return (lk_variant)v;
}

int lk_kernels_set_variant(lk_variant variant) {
    if (!lk_kernels_variant_is_available(variant)) return 0;
    atomic_store_explicit(&active, variant == LK_VARIANT_AUTO ? default_variant() : variant, memory_order_relaxed);
    return 1;
}

const lk_kernel_table *lk_table(lk_variant variant) {
    if (variant == LK_VARIANT_AUTO || !lk_kernels_variant_is_available(variant)) variant = lk_kernels_variant();
    switch (variant) {
#if LK_X86
    case LK_VARIANT_AVX512:
        return &lk_avx512_table;
    case LK_VARIANT_AVX2:
        return &lk_avx2_table;
    case LK_VARIANT_SSE2:
        return &lk_sse2_table;
#endif
    default:
        return &lk_scalar_table;
    }
}
