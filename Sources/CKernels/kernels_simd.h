/*
 * The SIMD kernels, written once over a variant's primitives and included by each variant
 * (kernels_sse2.c: 4 pixels a step; kernels_avx2.c: 8). The including file defines:
 *
 *   LK_N, vi, LK_SIMD              lanes, the 32-bit integer vector, an always-inline qualifier
 *   v_set1 v_add v_sub v_and v_or v_andnot v_cmpgt v_srai v_srli v_slli        32-bit lanes
 *   v_mullo32                                                                   (low 32 bits)
 *   v_add16 v_mullo16 v_mulhi16 v_srli16 v_avg16 v_adds8 v_madd16              16/8-bit lanes
 *   v_unpacklo8 v_unpackhi8 v_unpacklo32 v_unpackhi32 v_packs32                 regrouping
 *   v_select v_clamp                                                            blends
 *   v_from v_lanes v_to v_load_n v_store_n v_all v_none                        memory, tests
 *   v_bytes                                                                     LK_N bytes as lanes
 *   LK_FETCH_PAIRS LK_FETCH4_CHECKED LK_FETCH1 LK_FETCH1_CHECKED               a8r8g8b8 texels
 *   v_project                                                                   perspective
 *   LK_AFFINE_SAMPLE, LK_A8_AFFINE_SAMPLE (optional)                            faster samples
 *   LK_TABLE                                                                    the table's name
 *
 * (The unpacks and packs may work within 128-bit halves, as AVX2's do: the code pairs them so
 * that pixels come back in order either way.) Every function computes exactly what the scalar
 * definitions in kernels.h compute.
 */

/* ---- Pixel arithmetic (pixman's SSE2 forms of the scalar code) ---- */

static const uint32_t lk_rb_mask = 0x00ff00ff;

/* x · a / 255 per channel, rounded; a16 holds the factor in both 16-bit halves of each lane.
 * (t · 257) >> 16 equals (t + (t >> 8)) >> 8 for every t = x · a + 128 here. */
LK_SIMD vi v_mul_un8(vi x, vi a16) {
    const vi m = v_set1((int32_t)lk_rb_mask), half = v_set1(0x00800080), k = v_set1(0x01010101);
    vi rb = v_mulhi16(v_add16(v_mullo16(v_and(x, m), a16), half), k);
    vi ag = v_mulhi16(v_add16(v_mullo16(v_and(v_srli(x, 8), m), a16), half), k);
    return v_or(rb, v_slli(ag, 8));
}

LK_SIMD vi v_over(vi s, vi d) {
    vi ia = v_sub(v_set1(255), v_srli(s, 24));
    return v_adds8(s, v_mul_un8(d, v_or(ia, v_slli(ia, 16))));
}

/* `n` sampled pixels as the job's operator and opacity make them of those at `dst`. */
LK_SIMD vi v_blend(const lk_context *c, const uint32_t *dst, vi s, int n) {
    if (c->opacity != 255) s = v_mul_un8(s, v_set1((int32_t)c->opacity * 0x10001));
    if (c->op == LK_OP_OVER) s = v_over(s, v_load_n(dst, n));
    return s;
}

/* Stores `n` sampled pixels as the job's operator and opacity say. */
LK_SIMD void v_put(const lk_context *c, uint32_t *dst, vi s, int n) { v_store_n(dst, v_blend(c, dst, s, n), n); }

/* A8 samples (coverage 0 … 255 in each lane) as pixels: the color times the coverage, over
 * the pixels `d`. */
LK_SIMD vi v_blend_a8_on(vi color, vi d, vi coverage) {
    return v_over(v_mul_un8(color, v_or(coverage, v_slli(coverage, 16))), d);
}

/* v_blend_a8_on over the `n` pixels at `dst`. */
LK_SIMD vi v_blend_a8(vi color, const uint32_t *dst, vi coverage, int n) {
    return v_blend_a8_on(color, v_load_n(dst, n), coverage);
}

/* v_blend_a8 for a color whose red, green and blue are 0 (a black shadow's), `alpha` its alpha
 * in each lane: the color times the coverage is its alpha times the coverage, alone. */
LK_SIMD vi v_blend_a8_alpha(vi alpha, const uint32_t *dst, vi coverage, int n) {
    const vi sa = v_mulhi16(v_add16(v_mullo16(coverage, alpha), v_set1(0x80)), v_set1(0x0101));
    const vi ia = v_sub(v_set1(255), sa);
    return v_adds8(v_slli(sa, 24), v_mul_un8(v_load_n(dst, n), v_or(ia, v_slli(ia, 16))));
}

LK_SIMD void v_put_a8(const lk_context *c, uint32_t *dst, vi coverage, int n) {
    v_store_n(dst, v_blend_a8(v_set1((int32_t)c->color), dst, coverage, n), n);
}

/* Bilinear interpolation of two channels per 32-bit lane (16 bits each), with weights of
 * `bits` bits for the left and right texels (wl, wr) and the top and bottom rows (wt, wb), each
 * in both halves of every lane and each pair summing to at most one = 1 << bits:
 * Σ texel · weights is formed without overflowing 16 bits by splitting the vertical sums V into
 * one · Vh + Vl, then truncated (bits 7: pixman's >> 14) or rounded (bits 8: + ½, >> 16). */
LK_SIMD vi v_lerp_halves(vi tl, vi tr, vi bl, vi br, vi wl, vi wr, vi wt, vi wb, int bits) {
    const vi low = v_set1(((1 << bits) - 1) * 0x10001);
    vi vl = v_add16(v_mullo16(tl, wt), v_mullo16(bl, wb));
    vi vr = v_add16(v_mullo16(tr, wt), v_mullo16(br, wb));
    vi ph = v_add16(v_mullo16(v_srli16(vl, bits), wl), v_mullo16(v_srli16(vr, bits), wr));
    vi pl = v_add16(v_mullo16(v_and(vl, low), wl), v_mullo16(v_and(vr, low), wr));
    if (bits == 7) return v_srli16(v_add16(ph, v_srli16(pl, 7)), 7);
    /* (ph + (pl >> 8) + 128) >> 8, where the sum may need 17 bits: avg adds 128 and halves. */
    return v_srli16(v_avg16(v_add16(ph, v_srli16(pl, 8)), v_set1(127 * 0x10001)), 7);
}

LK_SIMD vi v_bilinear_weighted(vi tl, vi tr, vi bl, vi br, vi wl, vi wr, vi wt, vi wb, int bits) {
    const vi m = v_set1((int32_t)lk_rb_mask);
    vi rb = v_lerp_halves(v_and(tl, m), v_and(tr, m), v_and(bl, m), v_and(br, m), wl, wr, wt, wb, bits);
    vi ag = v_lerp_halves(v_and(v_srli(tl, 8), m), v_and(v_srli(tr, 8), m), v_and(v_srli(bl, 8), m),
                          v_and(v_srli(br, 8), m), wl, wr, wt, wb, bits);
    return v_or(rb, v_slli(ag, 8));
}

/* Weights wx, wy (0 … one, in both halves of each lane) of the right texels and bottom row. */
LK_SIMD vi v_bilinear(vi tl, vi tr, vi bl, vi br, vi wx, vi wy, int bits) {
    const vi one = v_set1((1 << bits) * 0x10001);
    return v_bilinear_weighted(tl, tr, bl, br, v_sub(one, wx), wx, v_sub(one, wy), wy, bits);
}

/* ---- Texels fetched one lane at a time (checked, or from A8 sources) ---- */

LK_SIMD void v_fetch4_scalar(const lk_context *c, vi x0, vi y0, int a8, int checked, vi *tl, vi *tr, vi *bl, vi *br) {
    int32_t xs[LK_N] __attribute__((aligned(32))), ys[LK_N] __attribute__((aligned(32)));
    int32_t t[4][LK_N] __attribute__((aligned(32)));
    v_to(xs, x0);
    v_to(ys, y0);
    for (int k = 0; k < LK_N; k++) {
        if (checked) {
            t[0][k] = (int32_t)(a8 ? lk_texel_a8(c, xs[k], ys[k]) : lk_texel(c, xs[k], ys[k]));
            t[1][k] = (int32_t)(a8 ? lk_texel_a8(c, xs[k] + 1, ys[k]) : lk_texel(c, xs[k] + 1, ys[k]));
            t[2][k] = (int32_t)(a8 ? lk_texel_a8(c, xs[k], ys[k] + 1) : lk_texel(c, xs[k], ys[k] + 1));
            t[3][k] = (int32_t)(a8 ? lk_texel_a8(c, xs[k] + 1, ys[k] + 1) : lk_texel(c, xs[k] + 1, ys[k] + 1));
        } else if (a8) {
            const uint8_t *p = c->src + (ptrdiff_t)ys[k] * c->src_stride + xs[k];
            t[0][k] = (int32_t)((uint32_t)p[0] << 24);
            t[1][k] = (int32_t)((uint32_t)p[1] << 24);
            t[2][k] = (int32_t)((uint32_t)p[c->src_stride] << 24);
            t[3][k] = (int32_t)((uint32_t)p[c->src_stride + 1] << 24);
        } else {
            const uint32_t *p = (const uint32_t *)(c->src + (ptrdiff_t)ys[k] * c->src_stride) + xs[k];
            const uint32_t *q = (const uint32_t *)((const uint8_t *)p + c->src_stride);
            t[0][k] = (int32_t)p[0];
            t[1][k] = (int32_t)p[1];
            t[2][k] = (int32_t)q[0];
            t[3][k] = (int32_t)q[1];
        }
    }
    *tl = v_from(t[0]);
    *tr = v_from(t[1]);
    *bl = v_from(t[2]);
    *br = v_from(t[3]);
}

LK_SIMD vi v_fetch1_scalar(const lk_context *c, vi x0, vi y0, int a8) {
    int32_t xs[LK_N] __attribute__((aligned(32))), ys[LK_N] __attribute__((aligned(32)));
    int32_t t[LK_N] __attribute__((aligned(32)));
    v_to(xs, x0);
    v_to(ys, y0);
    for (int k = 0; k < LK_N; k++)
        t[k] = (int32_t)(a8 ? lk_texel_a8(c, xs[k], ys[k]) : lk_texel(c, xs[k], ys[k]));
    return v_from(t);
}

/* ---- Affine runs ---- */

/* pixman's texel and 7-bit weights of a bilinear sample at 16.16 (X, Y). */
LK_SIMD void v_affine_bilinear_coords(vi fx, vi fy, vi *x0, vi *y0, vi *wx, vi *wy) {
    const vi half = v_set1(0x8000), bits = v_set1(0x7f);
    vi xs = v_sub(fx, half), ys = v_sub(fy, half);
    *x0 = v_srai(xs, 16);
    *y0 = v_srai(ys, 16);
    vi dx = v_and(v_srli(xs, 9), bits), dy = v_and(v_srli(ys, 9), bits);
    *wx = v_or(dx, v_slli(dx, 16));
    *wy = v_or(dy, v_slli(dy, 16));
}

/* Edge samples: where a sample's 2x2 texels reach past a source at least 2x2 (within an affine
 * span the texel left of/above it, x0, is −1 … width − 1, so past one side at most), the lanes
 * whose pair starts at −1 (`before`: it is read from 0, and its first texel, outside, weighs
 * nothing) or at size − 1 (`after`: read from size − 2, and its second texel weighs nothing),
 * and the pair's position moved into 0 … size − 2, where both texels are inside. Moving the
 * weights instead of the texels is exact: the outside texel's term is zero either way. */
LK_SIMD void v_edge_pairs(vi *x0, int32_t size, vi *before, vi *after) {
    *before = v_cmpgt(v_set1(0), *x0);
    *after = v_cmpgt(*x0, v_set1(size - 2));
    *x0 = v_clamp(*x0, size - 2);
}

/* pixman's bilinear sample of a8r8g8b8 pixels at 16.16 (fx, fy), from the shared 16-bit form:
 * inner pixels (every texel inside), or `edge` pixels of a source at least 2x2. */
LK_SIMD vi v_affine_sample(const lk_context *c, vi fx, vi fy, int edge) {
    vi x0, y0, wx, wy, tl, tr, bl, br;
    v_affine_bilinear_coords(fx, fy, &x0, &y0, &wx, &wy);
    const vi one = v_set1(128 * 0x10001);
    vi wl = v_sub(one, wx), wr = wx, wt = v_sub(one, wy), wb = wy;
    if (edge) {
        vi before, after;
        v_edge_pairs(&x0, c->src_width, &before, &after);
        /* Read from one texel on (before), the pair's first texel takes the second's weight. */
        vi l = v_andnot(after, v_select(before, wr, wl)), r = v_andnot(before, v_select(after, wl, wr));
        wl = l, wr = r;
        v_edge_pairs(&y0, c->src_height, &before, &after);
        vi t = v_andnot(after, v_select(before, wb, wt)), b = v_andnot(before, v_select(after, wt, wb));
        wt = t, wb = b;
    }
    LK_FETCH_PAIRS(c, x0, y0, &tl, &tr, &bl, &br);
    return v_bilinear_weighted(tl, tr, bl, br, wl, wr, wt, wb, 7);
}

/* A8 sources: each lane holds a pixel's 2x2 coverage bytes, tl | tr << 8 | bl << 16 | br << 24
 * (a quad), and its weights as pairs of 16-bit halves: (128 − dx) | dx << 16 horizontally,
 * (128 − dy) | dy << 16 vertically.
 *
 * What an A8 row reads, in locals (the row's stores may alias the context), and the byte
 * offsets of its texels in 32 bits (the source holds fewer than 2³¹ bytes). */
typedef struct lk_a8_source {
    const uint8_t *texels;
    ptrdiff_t stride;
    vi strides;
    /* The texels in vertical pairs (lk_job.pairs) and their rows' stride, or NULL. */
    const uint8_t *pairs;
    vi pair_strides;
    int32_t width, height;
} lk_a8_source;

LK_SIMD lk_a8_source v_a8_source(const lk_context *c) {
    lk_a8_source s = {c->src, c->src_stride, v_set1((int32_t)c->src_stride), c->pairs, v_set1((int32_t)c->pairs_stride),
                      c->src_width, c->src_height};
    return s;
}

/* Quads of pixels whose texels are all inside: two 16-bit loads each, at y0 · stride + x0. */
LK_SIMD vi v_a8_quads(const lk_a8_source *s, vi x0, vi y0) {
    int32_t o[LK_N] __attribute__((aligned(32)));
    int32_t q[LK_N];
    v_to(o, v_add(v_mullo32(y0, s->strides), x0));
    for (int k = 0; k < LK_N; k++) {
        const uint8_t *p = s->texels + o[k];
        uint16_t top, bottom;
        memcpy(&top, p, 2);
        memcpy(&bottom, p + s->stride, 2);
        q[k] = (int32_t)((uint32_t)top | (uint32_t)bottom << 16);
    }
    return v_lanes(q);
}

/* The same quads from vertical pairs, one 32-bit load each, at y0 · pairs stride + 2 · x0: the
 * pairs (x0, y0), (x0, y0 + 1) and (x0 + 1, y0), (x0 + 1, y0 + 1), which is a quad with its
 * rows and columns exchanged (tl | bl << 8 | tr << 16 | br << 24). */
LK_SIMD vi v_a8_pair_quads(const lk_a8_source *s, vi x0, vi y0) {
    int32_t o[LK_N] __attribute__((aligned(32)));
    int32_t q[LK_N];
    v_to(o, v_add(v_mullo32(y0, s->pair_strides), v_add(x0, x0)));
    for (int k = 0; k < LK_N; k++) memcpy(&q[k], s->pairs + o[k], 4);
    return v_lanes(q);
}

/* Quads of any pixels: texels outside the source are transparent (sources 1 wide or tall). */
LK_SIMD vi v_a8_quads_checked(const lk_context *c, vi x0, vi y0) {
    int32_t xs[LK_N] __attribute__((aligned(32))), ys[LK_N] __attribute__((aligned(32)));
    int32_t q[LK_N];
    v_to(xs, x0);
    v_to(ys, y0);
    for (int k = 0; k < LK_N; k++) {
        const int32_t x = xs[k], y = ys[k];
        q[k] = (int32_t)(lk_texel_a8(c, x, y) >> 24 | lk_texel_a8(c, x + 1, y) >> 16 | lk_texel_a8(c, x, y + 1) >> 8 |
                         lk_texel_a8(c, x + 1, y + 1));
    }
    return v_lanes(q);
}

/* pixman's bilinear coverage from quads: pmaddwd forms each row's l·wl + r·wr (at most
 * 255 · 128, so the rows pack into 16 bits without saturating), then top·wt + bottom·wb, and
 * >> 14 truncates as pixman does. The coverage is in each lane's low byte. */
LK_SIMD vi v_a8_bilinear(vi quads, vi h, vi v) {
    const vi zero = v_set1(0);
    vi rows01 = v_madd16(v_unpacklo8(quads, zero), v_unpacklo32(h, h));
    vi rows23 = v_madd16(v_unpackhi8(quads, zero), v_unpackhi32(h, h));
    return v_srli(v_madd16(v_packs32(rows01, rows23), v), 14);
}

/* pixman's bilinear coverage of A8 pixels at 16.16 (fx, fy): inner, or edge (as
 * v_affine_sample) of a source at least 2x2. Edge lanes move their weight pairs by a half: a
 * pair read from one texel on gives its first texel the second's weight, and so on. With
 * `pairs` the quads come from the vertical pairs, rows and columns exchanged, so the vertical
 * weights take the first step and the horizontal the second: every term is an exact product
 * and only the final sum is truncated, so the order gives the same coverage. */
#ifndef LK_A8_AFFINE_SAMPLE
LK_SIMD vi v_a8_affine_sample(const lk_a8_source *s, vi fx, vi fy, int edge, int pairs) {
    const vi half = v_set1(0x8000), bits = v_set1(0x7f), one = v_set1(128);
    vi xs = v_sub(fx, half), ys = v_sub(fy, half);
    vi x0 = v_srai(xs, 16), y0 = v_srai(ys, 16);
    vi dx = v_and(v_srli(xs, 9), bits), dy = v_and(v_srli(ys, 9), bits);
    vi h = v_or(v_sub(one, dx), v_slli(dx, 16)), v = v_or(v_sub(one, dy), v_slli(dy, 16));
    if (edge) {
        vi before, after;
        v_edge_pairs(&x0, s->width, &before, &after);
        h = v_select(before, v_srli(h, 16), v_select(after, v_slli(h, 16), h));
        v_edge_pairs(&y0, s->height, &before, &after);
        v = v_select(before, v_srli(v, 16), v_select(after, v_slli(v, 16), v));
    }
    if (pairs) return v_a8_bilinear(v_a8_pair_quads(s, x0, y0), v, h);
    return v_a8_bilinear(v_a8_quads(s, x0, y0), h, v);
}
#else
#define v_a8_affine_sample LK_A8_AFFINE_SAMPLE
#endif

/* The same for sources 1 wide or tall. */
LK_SIMD vi v_a8_affine_sample_checked(const lk_context *c, vi fx, vi fy) {
    const vi half = v_set1(0x8000), bits = v_set1(0x7f), one = v_set1(128);
    vi xs = v_sub(fx, half), ys = v_sub(fy, half);
    vi dx = v_and(v_srli(xs, 9), bits), dy = v_and(v_srli(ys, 9), bits);
    vi h = v_or(v_sub(one, dx), v_slli(dx, 16)), v = v_or(v_sub(one, dy), v_slli(dy, 16));
    return v_a8_bilinear(v_a8_quads_checked(c, v_srai(xs, 16), v_srai(ys, 16)), h, v);
}

/* Walks a run of `count` pixels from 16.16 (fx, fy), `LK_N` at a time: RESULT is a step's
 * pixels as they are to be stored, from the lanes' coordinates vx, vy and the n pixels at
 * dst + i. A run longer than a step whose last step would be part-filled takes that step
 * whole, ending at the run's end: computed first (from the pixels as they were) and stored
 * last, it gives the pixels it shares with the step before the values that step gave them, and
 * needs no masked store (AMD's AVX2 masked stores take ~25 cycles). */
#define LK_AFFINE_STEPS(RESULT) LK_AFFINE_SETUP LK_AFFINE_RUN(RESULT)

/* What the steps of every run of a row function share. */
#define LK_AFFINE_SETUP                                                                                \
    const uint32_t stepx = (uint32_t)r->dfx * LK_N, stepy = (uint32_t)r->dfy * LK_N;                  \
    const vi lanes_x = v_from(r->context->lane_dx[LK_N - 1]);                                         \
    const vi lanes_y = v_from(r->context->lane_dy[LK_N - 1]);

/* One run's steps, after LK_AFFINE_SETUP, from fx, fy, dst and count. */
#define LK_AFFINE_RUN(RESULT)                                                                          \
    const int32_t whole = count - count % LK_N;                                                       \
    const int overlap = whole != count && count > LK_N;                                               \
    vi last = v_set1(0);                                                                              \
    if (overlap) {                                                                                    \
        const int32_t i = count - LK_N;                                                               \
        const int n = LK_N;                                                                           \
        const vi vx = v_add(v_set1((int32_t)((uint32_t)fx + (uint32_t)i * (uint32_t)r->dfx)), lanes_x); \
        const vi vy = v_add(v_set1((int32_t)((uint32_t)fy + (uint32_t)i * (uint32_t)r->dfy)), lanes_y); \
        last = (RESULT);                                                                              \
    }                                                                                                 \
    uint32_t px = (uint32_t)fx, py = (uint32_t)fy;                                                    \
    int32_t step = 0;                                                                                 \
    for (; step < whole; step += LK_N, px += stepx, py += stepy) {                                    \
        const int32_t i = step;                                                                       \
        const int n = LK_N;                                                                           \
        const vi vx = v_add(v_set1((int32_t)px), lanes_x), vy = v_add(v_set1((int32_t)py), lanes_y);  \
        v_store_n(dst + i, (RESULT), LK_N);                                                           \
    }                                                                                                 \
    if (overlap) {                                                                                    \
        v_store_n(dst + count - LK_N, last, LK_N);                                                    \
    } else if (step < count) {                                                                        \
        const int32_t i = step;                                                                       \
        const int n = count - step;                                                                   \
        const vi vx = v_add(v_set1((int32_t)px), v_from(r->context->lane_dx[n - 1]));                 \
        const vi vy = v_add(v_set1((int32_t)py), v_from(r->context->lane_dy[n - 1]));                 \
        v_store_n(dst + i, (RESULT), n);                                                              \
    }

/* BODY (LK_AFFINE_RUN) for each of `runs_n` runs, with fx, fy, dst and count set to the run's,
 * each run's successor asked for ahead (see lk_prefetch_run). */
#define LK_FOR_RUNS(BODY)                                                                              \
    for (int32_t k_ = 0; k_ < runs_n; k_++) {                                                         \
        if (k_ + 1 < runs_n) lk_prefetch_run(&runs[k_ + 1]);                                          \
        const int32_t fx = runs[k_].fx, fy = runs[k_].fy, count = runs[k_].count;                     \
        uint32_t *const dst = runs[k_].dst;                                                            \
        BODY                                                                                           \
    }

/* pixman's bilinear sample of a8r8g8b8 pixels: a variant may bring its own. */
#ifndef LK_AFFINE_SAMPLE
#define LK_AFFINE_SAMPLE v_affine_sample
#endif

/* The pixels of a bilinear sample through checked texels (sources 1 wide or tall). */
LK_SIMD vi v_affine_sample_checked(const lk_context *c, vi vx, vi vy) {
    vi x0, y0, wx, wy, tl, tr, bl, br;
    v_affine_bilinear_coords(vx, vy, &x0, &y0, &wx, &wy);
    LK_FETCH4_CHECKED(c, x0, y0, &tl, &tr, &bl, &br);
    return v_bilinear(tl, tr, bl, br, wx, wy, 7);
}

static void argb_affine_bilinear_inner_runs(const lk_row *r, const lk_run *runs, int32_t runs_n) {
    const lk_context *c = r->context;
    LK_AFFINE_SETUP
    LK_FOR_RUNS(LK_AFFINE_RUN(v_blend(c, dst + i, LK_AFFINE_SAMPLE(c, vx, vy, 0), n)))
}

static void argb_affine_bilinear_edge(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    const lk_context *c = r->context;
    if (c->src_width >= 2 && c->src_height >= 2) {
        LK_AFFINE_STEPS(v_blend(c, dst + i, LK_AFFINE_SAMPLE(c, vx, vy, 1), n))
        return;
    }
    LK_AFFINE_STEPS(v_blend(c, dst + i, v_affine_sample_checked(c, vx, vy), n))
}

static void argb_affine_nearest(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    const lk_context *c = r->context;
    const vi e = v_set1(1);
    LK_AFFINE_STEPS(v_blend(c, dst + i, LK_FETCH1(c, v_srai(v_sub(vx, e), 16), v_srai(v_sub(vy, e), 16)), n))
}

/* A8 bilinear runs: inner, or edge of a source at least 2x2, from the texels or their vertical
 * pairs. What they read is kept in locals. */
LK_SIMD void v_a8_affine_bilinear_steps(const lk_row *r, const lk_a8_source *s, const lk_run *runs, int32_t runs_n,
                                        int edge, int pairs) {
    const uint32_t c = r->context->color;
    LK_AFFINE_SETUP
    if ((c & 0xffffff) == 0) {
        const vi alpha = v_set1((int32_t)(c >> 24));
        LK_FOR_RUNS(LK_AFFINE_RUN(v_blend_a8_alpha(alpha, dst + i, v_a8_affine_sample(s, vx, vy, edge, pairs), n)))
        return;
    }
    const vi color = v_set1((int32_t)c);
    LK_FOR_RUNS(LK_AFFINE_RUN(v_blend_a8(color, dst + i, v_a8_affine_sample(s, vx, vy, edge, pairs), n)))
}

LK_SIMD void v_a8_affine_bilinear_runs(const lk_row *r, const lk_run *runs, int32_t runs_n, int edge) {
    const lk_a8_source s = v_a8_source(r->context);
    if (s.pairs) v_a8_affine_bilinear_steps(r, &s, runs, runs_n, edge, 1);
    else v_a8_affine_bilinear_steps(r, &s, runs, runs_n, edge, 0);
}

static void a8_affine_bilinear_inner_runs(const lk_row *r, const lk_run *runs, int32_t runs_n) {
    v_a8_affine_bilinear_runs(r, runs, runs_n, 0);
}

static void a8_affine_bilinear_edge(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    const lk_context *c = r->context;
    if (c->src_width >= 2 && c->src_height >= 2) {
        const lk_run run = {dst, fx, fy, count};
        v_a8_affine_bilinear_runs(r, &run, 1, 1);
        return;
    }
    const vi color = v_set1((int32_t)c->color);
    LK_AFFINE_STEPS(v_blend_a8(color, dst + i, v_a8_affine_sample_checked(c, vx, vy), n))
}

/* Nearest A8 texels, inside the source (the span sees to it): one byte load each. */
LK_SIMD vi v_a8_texels(const lk_a8_source *s, vi x0, vi y0) {
    int32_t o[LK_N] __attribute__((aligned(32)));
    int32_t t[LK_N];
    v_to(o, v_add(v_mullo32(y0, s->strides), x0));
    for (int k = 0; k < LK_N; k++) t[k] = s->texels[o[k]];
    return v_lanes(t);
}

static void a8_affine_nearest(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    const lk_a8_source s = v_a8_source(r->context);
    const vi color = v_set1((int32_t)r->context->color), e = v_set1(1);
    LK_AFFINE_STEPS(v_blend_a8(color, dst + i, v_a8_texels(&s, v_srai(v_sub(vx, e), 16), v_srai(v_sub(vy, e), 16)), n))
}

/* ---- Projective runs ---- */

#define LK_PROJECTIVE_RUN(...)                                                                         \
    const lk_context *c = r->context;                                                                 \
    for (int32_t i = 0; i < count; i += LK_N) {                                                       \
        const int n = count - i < LK_N ? count - i : LK_N;                                            \
        __VA_ARGS__                                                                                       \
    }

/* Whether every lane's 2x2 texels are inside the source (0 <= x0 < width − 1, and so for y). */
LK_SIMD int v_all_inner(const lk_context *c, vi x0, vi y0) {
    const vi minus1 = v_set1(-1);
    vi inside = v_and(v_and(v_cmpgt(x0, minus1), v_cmpgt(v_set1(c->src_width - 1), x0)),
                      v_and(v_cmpgt(y0, minus1), v_cmpgt(v_set1(c->src_height - 1), y0)));
    return v_all(inside);
}

static void argb_projective_bilinear(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    LK_PROJECTIVE_RUN({
        vi x0, y0, wx, wy, tl, tr, bl, br;
        v_project(c, r, r->px + i, 1, &x0, &y0, &wx, &wy);
        if (v_all_inner(c, x0, y0)) LK_FETCH_PAIRS(c, x0, y0, &tl, &tr, &bl, &br);
        else LK_FETCH4_CHECKED(c, x0, y0, &tl, &tr, &bl, &br);
        v_put(c, dst + i, v_bilinear(tl, tr, bl, br, wx, wy, 8), n);
    })
}

static void argb_projective_nearest(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    LK_PROJECTIVE_RUN({
        vi x0, y0, wx, wy;
        v_project(c, r, r->px + i, 0, &x0, &y0, &wx, &wy);
        v_put(c, dst + i, LK_FETCH1_CHECKED(c, x0, y0), n);
    })
}

static void a8_projective_bilinear(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    LK_PROJECTIVE_RUN({
        vi x0, y0, wx, wy, tl, tr, bl, br;
        v_project(c, r, r->px + i, 1, &x0, &y0, &wx, &wy);
        v_fetch4_scalar(c, x0, y0, 1, !v_all_inner(c, x0, y0), &tl, &tr, &bl, &br);
        v_put_a8(c, dst + i, v_srli(v_bilinear(tl, tr, bl, br, wx, wy, 8), 24), n);
    })
}

static void a8_projective_nearest(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    LK_PROJECTIVE_RUN({
        vi x0, y0, wx, wy;
        v_project(c, r, r->px + i, 0, &x0, &y0, &wx, &wy);
        v_put_a8(c, dst + i, v_srli(v_fetch1_scalar(c, x0, y0, 1), 24), n);
    })
}

/* ---- Whole-pixel offsets of A8 coverage ---- */

/* `count` mask bytes from (fx, fy), the color times each, over the pixels at dst (pixman's
 * over_n_8_8888). Steps of all-zero coverage (most of a line of text's box) leave their pixels
 * alone. A run longer than a step ends with a whole step over its last pixels, computed from
 * the pixels as they were before the loop and stored after it (as LK_AFFINE_STEPS), so that
 * no masked load or store is needed. */
static void a8_offset(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    const lk_context *c = r->context;
    const uint8_t *mask = c->src + (ptrdiff_t)fy * c->src_stride + fx;
    const vi color = v_set1((int32_t)c->color), one = v_set1(1);
    if (count < LK_N) {
        int32_t t[LK_N] = {0};
        for (int k = 0; k < count; k++) t[k] = mask[k];
        const vi coverage = v_lanes(t);
        if (!v_all(v_cmpgt(one, coverage))) v_store_n(dst, v_blend_a8(color, dst, coverage, count), count);
        return;
    }
    const int32_t whole = count - count % LK_N;
    const int overlap = whole != count;
    vi last = v_set1(0);
    int last_inked = 0;
    if (overlap) {
        const vi coverage = v_bytes(mask + count - LK_N);
        last_inked = !v_all(v_cmpgt(one, coverage));
        if (last_inked) last = v_blend_a8(color, dst + count - LK_N, coverage, LK_N);
    }
    for (int32_t i = 0; i < whole; i += LK_N) {
        const vi coverage = v_bytes(mask + i);
        if (v_all(v_cmpgt(one, coverage))) continue;
        v_store_n(dst + i, v_blend_a8(color, dst + i, coverage, LK_N), LK_N);
    }
    if (last_inked) v_store_n(dst + count - LK_N, last, LK_N);
}

/* a8_offset over pixels that all hold the context's base: the same arithmetic with the base in
 * place of the pixels loaded, and every pixel written (a step of clear coverage as the base),
 * so that a painter need not fill them first. Nothing at dst is read. A run longer than a step
 * ends with a whole step over its last pixels, writing some a second time with the same values. */
static void a8_on_base(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    const lk_context *c = r->context;
    const uint8_t *mask = c->src + (ptrdiff_t)fy * c->src_stride + fx;
    const vi color = v_set1((int32_t)c->color), base = v_set1((int32_t)c->base);
    if (count < LK_N) {
        int32_t t[LK_N] = {0};
        for (int k = 0; k < count; k++) t[k] = mask[k];
        v_store_n(dst, v_blend_a8_on(color, base, v_lanes(t)), count);
        return;
    }
    for (int32_t i = 0; i < count; i += LK_N) {
        const int32_t at = i <= count - LK_N ? i : count - LK_N;
        const vi coverage = v_bytes(mask + at);
        v_store_n(dst + at, v_none(coverage) ? base : v_blend_a8_on(color, base, coverage), LK_N);
    }
}

/* ---- Whole-pixel offsets of a8r8g8b8 pixels ---- */

/* `count` source pixels from (fx, fy) stored over or into the pixels at dst, times the opacity
 * (pixman's over_8888_8888 and src_8888_8888). Over at full opacity, a step of clear pixels
 * (the empty corners of a shape's store) leaves its pixels alone and a step of opaque ones is
 * copied, as pixman's SSE2 combiner does; both are what the arithmetic gives. The tail as
 * a8_offset's: a whole step over the last pixels, computed before the loop, stored after it. */
static void argb_offset(const lk_row *r, int32_t fx, int32_t fy, uint32_t *LK_RESTRICT dst, int32_t count) {
    const lk_context *c = r->context;
    const uint32_t *src = (const uint32_t *)(c->src + (ptrdiff_t)fy * c->src_stride) + fx;
    const int plain = c->op == LK_OP_OVER && c->opacity == 255;
    const vi alpha = v_set1((int32_t)0xff000000);
    if (count < LK_N) {
        v_put(c, dst, v_load_n(src, count), count);
        return;
    }
    const int32_t whole = count - count % LK_N;
    vi last = v_set1(0);
    if (whole != count) last = v_blend(c, dst + count - LK_N, v_load_n(src + count - LK_N, LK_N), LK_N);
    for (int32_t i = 0; i < whole; i += LK_N) {
        const vi s = v_load_n(src + i, LK_N);
        if (plain) {
            if (v_none(s)) continue;
            if (v_none(v_andnot(s, alpha))) {
                v_store_n(dst + i, s, LK_N);
                continue;
            }
        }
        v_put(c, dst + i, s, LK_N);
    }
    if (whole != count) v_store_n(dst + count - LK_N, last, LK_N);
}

static const lk_kernel_entry lk_simd_entries[] = {
    {LK_FORMAT_ARGB32, LK_MAP_AFFINE, LK_FILTER_BILINEAR, NULL, argb_affine_bilinear_edge,
     argb_affine_bilinear_inner_runs},
    {LK_FORMAT_ARGB32, LK_MAP_AFFINE, LK_FILTER_NEAREST, argb_affine_nearest, argb_affine_nearest},
    {LK_FORMAT_ARGB32, LK_MAP_PROJECTIVE, LK_FILTER_BILINEAR, argb_projective_bilinear, argb_projective_bilinear},
    {LK_FORMAT_ARGB32, LK_MAP_PROJECTIVE, LK_FILTER_NEAREST, argb_projective_nearest, argb_projective_nearest},
    {LK_FORMAT_A8, LK_MAP_AFFINE, LK_FILTER_BILINEAR, NULL, a8_affine_bilinear_edge,
     a8_affine_bilinear_inner_runs},
    {LK_FORMAT_A8, LK_MAP_AFFINE, LK_FILTER_NEAREST, a8_affine_nearest, a8_affine_nearest},
    {LK_FORMAT_A8, LK_MAP_PROJECTIVE, LK_FILTER_BILINEAR, a8_projective_bilinear, a8_projective_bilinear},
    {LK_FORMAT_A8, LK_MAP_PROJECTIVE, LK_FILTER_NEAREST, a8_projective_nearest, a8_projective_nearest},
    {LK_FORMAT_A8, LK_MAP_OFFSET, LK_FILTER_NEAREST, a8_offset, a8_offset},
    {LK_FORMAT_A8, LK_MAP_ON_BASE, LK_FILTER_NEAREST, a8_on_base, a8_on_base},
    {LK_FORMAT_ARGB32, LK_MAP_OFFSET, LK_FILTER_NEAREST, argb_offset, argb_offset},
};
