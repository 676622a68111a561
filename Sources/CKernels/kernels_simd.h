/*
 * The SIMD kernels, written once over a variant's primitives and included by each variant
 * (kernels_sse2.c: 4 pixels a step; kernels_avx2.c: 8). The including file defines:
 *
 *   LK_N, vi, LK_SIMD              lanes, the 32-bit integer vector, an always-inline qualifier
 *   v_set1 v_add v_sub v_and v_or v_andnot v_cmpgt v_srai v_srli v_slli        32-bit lanes
 *   v_add16 v_mullo16 v_mulhi16 v_srli16 v_avg16 v_adds8                       16/8-bit lanes
 *   v_select v_clamp                                                            blends
 *   v_from v_to v_load_n v_store_n v_all                                        memory, tests
 *   LK_FETCH_PAIRS LK_FETCH4_CHECKED LK_FETCH1 LK_FETCH1_CHECKED               a8r8g8b8 texels
 *   v_project                                                                   perspective
 *   LK_AFFINE_INNER_SAMPLE (optional)                                           a faster inner sample
 *   LK_TABLE                                                                    the table's name
 *
 * Every function computes exactly what the scalar definitions in kernels.h compute.
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

/* Stores `n` sampled pixels as the job's operator and opacity say. */
LK_SIMD void v_put(const lk_context *c, uint32_t *dst, vi s, int n) {
    if (c->opacity != 255) s = v_mul_un8(s, v_set1((int32_t)c->opacity * 0x10001));
    if (c->op == LK_OP_OVER) s = v_over(s, v_load_n(dst, n));
    v_store_n(dst, s, n);
}

/* Stores `n` A8 samples (coverage in the top byte): the color times the coverage, over. */
LK_SIMD void v_put_a8(const lk_context *c, uint32_t *dst, vi coverage, int n) {
    vi m = v_srli(coverage, 24);
    vi s = v_mul_un8(v_set1((int32_t)c->color), v_or(m, v_slli(m, 16)));
    v_store_n(dst, v_over(s, v_load_n(dst, n)), n);
}

/* Bilinear interpolation of two channels per 32-bit lane (16 bits each), with weights of
 * `bits` bits (one = 1 << bits; wx, wy in 0…one, in both halves of each lane):
 * Σ texel · wx · wy is formed without overflowing 16 bits by splitting the vertical sums V into
 * one · Vh + Vl, then truncated (bits 7: pixman's >> 14) or rounded (bits 8: + ½, >> 16). */
LK_SIMD vi v_lerp_halves(vi tl, vi tr, vi bl, vi br, vi wx, vi wy, int bits) {
    const vi one = v_set1((1 << bits) * 0x10001), low = v_set1(((1 << bits) - 1) * 0x10001);
    const vi iwx = v_sub(one, wx), iwy = v_sub(one, wy);
    vi vl = v_add16(v_mullo16(tl, iwy), v_mullo16(bl, wy));
    vi vr = v_add16(v_mullo16(tr, iwy), v_mullo16(br, wy));
    vi ph = v_add16(v_mullo16(v_srli16(vl, bits), iwx), v_mullo16(v_srli16(vr, bits), wx));
    vi pl = v_add16(v_mullo16(v_and(vl, low), iwx), v_mullo16(v_and(vr, low), wx));
    if (bits == 7) return v_srli16(v_add16(ph, v_srli16(pl, 7)), 7);
    /* (ph + (pl >> 8) + 128) >> 8, where the sum may need 17 bits: avg adds 128 and halves. */
    return v_srli16(v_avg16(v_add16(ph, v_srli16(pl, 8)), v_set1(127 * 0x10001)), 7);
}

LK_SIMD vi v_bilinear(vi tl, vi tr, vi bl, vi br, vi wx, vi wy, int bits) {
    const vi m = v_set1((int32_t)lk_rb_mask);
    vi rb = v_lerp_halves(v_and(tl, m), v_and(tr, m), v_and(bl, m), v_and(br, m), wx, wy, bits);
    vi ag = v_lerp_halves(v_and(v_srli(tl, 8), m), v_and(v_srli(tr, 8), m), v_and(v_srli(bl, 8), m),
                          v_and(v_srli(br, 8), m), wx, wy, bits);
    return v_or(rb, v_slli(ag, 8));
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

/* Affine edge pixels, whose texel left of/above the sample, (x0, y0), is in −1 … size − 1 (so
 * one of a pair may lie outside), of a source at least 2x2: the pairs at the nearest inner
 * position, each texel then moved to its place or dropped. Cheaper than four checked texels. */
LK_SIMD void v_fetch4_edge(const lk_context *c, vi x0, vi y0, int a8, vi *tl, vi *tr, vi *bl, vi *br) {
    vi px = v_clamp(x0, c->src_width - 2), py = v_clamp(y0, c->src_height - 2);
    vi a, b, d, e;
    if (a8) v_fetch4_scalar(c, px, py, 1, 0, &a, &b, &d, &e);
    else LK_FETCH_PAIRS(c, px, py, &a, &b, &d, &e);
    /* x0 = −1: the pair is texels 0 and 1, so left is clear and right is texel 0; x0 = width − 1:
     * the pair is width − 2 and width − 1, so left is the pair's right and right is clear. */
    const vi left = v_cmpgt(px, x0), right = v_cmpgt(x0, px);
    vi top_l = v_andnot(left, v_select(right, b, a)), top_r = v_andnot(right, v_select(left, a, b));
    vi bottom_l = v_andnot(left, v_select(right, e, d)), bottom_r = v_andnot(right, v_select(left, d, e));
    const vi up = v_cmpgt(py, y0), down = v_cmpgt(y0, py);
    *tl = v_andnot(up, v_select(down, bottom_l, top_l));
    *tr = v_andnot(up, v_select(down, bottom_r, top_r));
    *bl = v_andnot(down, v_select(up, top_l, bottom_l));
    *br = v_andnot(down, v_select(up, top_r, bottom_r));
}

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

/* Walks a run of `count` pixels `LK_N` at a time; BODY sees n, fx, fy and the pixels at dst + i. */
#define LK_AFFINE_RUN(...)                                                                             \
    const lk_context *c = r->context;                                                                 \
    uint32_t px = (uint32_t)r->fx, py = (uint32_t)r->fy;                                              \
    const uint32_t stepx = (uint32_t)r->dfx * LK_N, stepy = (uint32_t)r->dfy * LK_N;                  \
    for (int32_t i = 0; i < count; i += LK_N, px += stepx, py += stepy) {                             \
        const int n = count - i < LK_N ? count - i : LK_N;                                            \
        const vi fx = v_add(v_set1((int32_t)px), v_from(c->lane_dx[n - 1]));                          \
        const vi fy = v_add(v_set1((int32_t)py), v_from(c->lane_dy[n - 1]));                          \
        __VA_ARGS__                                                                                       \
    }

/* pixman's bilinear sample of inner pixels at 16.16 (fx, fy): a variant may bring its own. */
#ifndef LK_AFFINE_INNER_SAMPLE
LK_SIMD vi v_affine_inner_sample(const lk_context *c, vi fx, vi fy) {
    vi x0, y0, wx, wy, tl, tr, bl, br;
    v_affine_bilinear_coords(fx, fy, &x0, &y0, &wx, &wy);
    LK_FETCH_PAIRS(c, x0, y0, &tl, &tr, &bl, &br);
    return v_bilinear(tl, tr, bl, br, wx, wy, 7);
}
#define LK_AFFINE_INNER_SAMPLE v_affine_inner_sample
#endif

static void argb_affine_bilinear_inner(const lk_row *r, uint32_t *dst, int32_t count) {
    LK_AFFINE_RUN({ v_put(c, dst + i, LK_AFFINE_INNER_SAMPLE(c, fx, fy), n); })
}

static void argb_affine_bilinear_edge(const lk_row *r, uint32_t *dst, int32_t count) {
    const int pairs = r->context->src_width >= 2 && r->context->src_height >= 2;
    LK_AFFINE_RUN({
        vi x0, y0, wx, wy, tl, tr, bl, br;
        v_affine_bilinear_coords(fx, fy, &x0, &y0, &wx, &wy);
        if (pairs) v_fetch4_edge(c, x0, y0, 0, &tl, &tr, &bl, &br);
        else LK_FETCH4_CHECKED(c, x0, y0, &tl, &tr, &bl, &br);
        v_put(c, dst + i, v_bilinear(tl, tr, bl, br, wx, wy, 7), n);
    })
}

static void argb_affine_nearest(const lk_row *r, uint32_t *dst, int32_t count) {
    LK_AFFINE_RUN({
        const vi e = v_set1(1);
        v_put(c, dst + i, LK_FETCH1(c, v_srai(v_sub(fx, e), 16), v_srai(v_sub(fy, e), 16)), n);
    })
}

static void a8_affine_bilinear_inner(const lk_row *r, uint32_t *dst, int32_t count) {
    LK_AFFINE_RUN({
        vi x0, y0, wx, wy, tl, tr, bl, br;
        v_affine_bilinear_coords(fx, fy, &x0, &y0, &wx, &wy);
        v_fetch4_scalar(c, x0, y0, 1, 0, &tl, &tr, &bl, &br);
        v_put_a8(c, dst + i, v_bilinear(tl, tr, bl, br, wx, wy, 7), n);
    })
}

static void a8_affine_bilinear_edge(const lk_row *r, uint32_t *dst, int32_t count) {
    const int pairs = r->context->src_width >= 2 && r->context->src_height >= 2;
    LK_AFFINE_RUN({
        vi x0, y0, wx, wy, tl, tr, bl, br;
        v_affine_bilinear_coords(fx, fy, &x0, &y0, &wx, &wy);
        if (pairs) v_fetch4_edge(c, x0, y0, 1, &tl, &tr, &bl, &br);
        else v_fetch4_scalar(c, x0, y0, 1, 1, &tl, &tr, &bl, &br);
        v_put_a8(c, dst + i, v_bilinear(tl, tr, bl, br, wx, wy, 7), n);
    })
}

static void a8_affine_nearest(const lk_row *r, uint32_t *dst, int32_t count) {
    LK_AFFINE_RUN({
        const vi e = v_set1(1);
        v_put_a8(c, dst + i, v_fetch1_scalar(c, v_srai(v_sub(fx, e), 16), v_srai(v_sub(fy, e), 16), 1), n);
    })
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

static void argb_projective_bilinear(const lk_row *r, uint32_t *dst, int32_t count) {
    LK_PROJECTIVE_RUN({
        vi x0, y0, wx, wy, tl, tr, bl, br;
        v_project(c, r, r->px + i, 1, &x0, &y0, &wx, &wy);
        if (v_all_inner(c, x0, y0)) LK_FETCH_PAIRS(c, x0, y0, &tl, &tr, &bl, &br);
        else LK_FETCH4_CHECKED(c, x0, y0, &tl, &tr, &bl, &br);
        v_put(c, dst + i, v_bilinear(tl, tr, bl, br, wx, wy, 8), n);
    })
}

static void argb_projective_nearest(const lk_row *r, uint32_t *dst, int32_t count) {
    LK_PROJECTIVE_RUN({
        vi x0, y0, wx, wy;
        v_project(c, r, r->px + i, 0, &x0, &y0, &wx, &wy);
        v_put(c, dst + i, LK_FETCH1_CHECKED(c, x0, y0), n);
    })
}

static void a8_projective_bilinear(const lk_row *r, uint32_t *dst, int32_t count) {
    LK_PROJECTIVE_RUN({
        vi x0, y0, wx, wy, tl, tr, bl, br;
        v_project(c, r, r->px + i, 1, &x0, &y0, &wx, &wy);
        v_fetch4_scalar(c, x0, y0, 1, !v_all_inner(c, x0, y0), &tl, &tr, &bl, &br);
        v_put_a8(c, dst + i, v_bilinear(tl, tr, bl, br, wx, wy, 8), n);
    })
}

static void a8_projective_nearest(const lk_row *r, uint32_t *dst, int32_t count) {
    LK_PROJECTIVE_RUN({
        vi x0, y0, wx, wy;
        v_project(c, r, r->px + i, 0, &x0, &y0, &wx, &wy);
        v_put_a8(c, dst + i, v_fetch1_scalar(c, x0, y0, 1), n);
    })
}

static const lk_kernel_entry lk_simd_entries[] = {
    {LK_FORMAT_ARGB32, LK_MAP_AFFINE, LK_FILTER_BILINEAR, argb_affine_bilinear_inner, argb_affine_bilinear_edge},
    {LK_FORMAT_ARGB32, LK_MAP_AFFINE, LK_FILTER_NEAREST, argb_affine_nearest, argb_affine_nearest},
    {LK_FORMAT_ARGB32, LK_MAP_PROJECTIVE, LK_FILTER_BILINEAR, argb_projective_bilinear, argb_projective_bilinear},
    {LK_FORMAT_ARGB32, LK_MAP_PROJECTIVE, LK_FILTER_NEAREST, argb_projective_nearest, argb_projective_nearest},
    {LK_FORMAT_A8, LK_MAP_AFFINE, LK_FILTER_BILINEAR, a8_affine_bilinear_inner, a8_affine_bilinear_edge},
    {LK_FORMAT_A8, LK_MAP_AFFINE, LK_FILTER_NEAREST, a8_affine_nearest, a8_affine_nearest},
    {LK_FORMAT_A8, LK_MAP_PROJECTIVE, LK_FILTER_BILINEAR, a8_projective_bilinear, a8_projective_bilinear},
    {LK_FORMAT_A8, LK_MAP_PROJECTIVE, LK_FILTER_NEAREST, a8_projective_nearest, a8_projective_nearest},
};
