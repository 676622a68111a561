/*
 * The scalar kernels: the definitions, one pixel at a time, that the SIMD variants reproduce
 * bit for bit; and the code that runs where there is no SIMD variant (aarch64 and others).
 */
#include "kernels.h"

static void argb_affine_bilinear(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    for (int32_t i = 0; i < count; i++)
        lk_store(dst + i, lk_affine_bilinear(c, fx + (int64_t)i * r->dfx, fy + (int64_t)i * r->dfy, 0),
                 c->op, c->opacity);
}

static void argb_affine_nearest(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    for (int32_t i = 0; i < count; i++)
        lk_store(dst + i, lk_affine_nearest(c, fx + (int64_t)i * r->dfx, fy + (int64_t)i * r->dfy, 0),
                 c->op, c->opacity);
}

static void argb_projective_bilinear(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    for (int32_t i = 0; i < count; i++)
        lk_store(dst + i, lk_projective_bilinear(c, r, r->px + i, 0), c->op, c->opacity);
}

static void argb_projective_nearest(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    for (int32_t i = 0; i < count; i++)
        lk_store(dst + i, lk_projective_nearest(c, r, r->px + i, 0), c->op, c->opacity);
}

static void a8_affine_bilinear(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    for (int32_t i = 0; i < count; i++)
        lk_store_a8(dst + i, lk_affine_bilinear(c, fx + (int64_t)i * r->dfx, fy + (int64_t)i * r->dfy, 1),
                    c->color);
}

static void a8_affine_nearest(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    for (int32_t i = 0; i < count; i++)
        lk_store_a8(dst + i, lk_affine_nearest(c, fx + (int64_t)i * r->dfx, fy + (int64_t)i * r->dfy, 1),
                    c->color);
}

static void a8_projective_bilinear(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    for (int32_t i = 0; i < count; i++)
        lk_store_a8(dst + i, lk_projective_bilinear(c, r, r->px + i, 1), c->color);
}

static void a8_projective_nearest(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    for (int32_t i = 0; i < count; i++)
        lk_store_a8(dst + i, lk_projective_nearest(c, r, r->px + i, 1), c->color);
}

static void a8_offset(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    const uint8_t *mask = c->src + (ptrdiff_t)fy * c->src_stride + fx;
    for (int32_t i = 0; i < count; i++) lk_store_a8(dst + i, (uint32_t)mask[i] << 24, c->color);
}

/* a8_offset over pixels that hold the base, which are not read. */
static void a8_on_base(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    const uint8_t *mask = c->src + (ptrdiff_t)fy * c->src_stride + fx;
    for (int32_t i = 0; i < count; i++) {
        uint32_t pixel = c->base;
        lk_store_a8(&pixel, (uint32_t)mask[i] << 24, c->color);
        dst[i] = pixel;
    }
}

static void argb_offset(const lk_row *r, int32_t fx, int32_t fy, uint32_t *dst, int32_t count) {
    const lk_context *c = r->context;
    const uint32_t *src = (const uint32_t *)(c->src + (ptrdiff_t)fy * c->src_stride) + fx;
    for (int32_t i = 0; i < count; i++) lk_store(dst + i, src[i], c->op, c->opacity);
}

/* Every pixel is checked, so one function serves as both `inner` and `edge`. */
static const lk_kernel_entry entries[] = {
    {LK_FORMAT_ARGB32, LK_MAP_AFFINE, LK_FILTER_BILINEAR, argb_affine_bilinear, argb_affine_bilinear},
    {LK_FORMAT_ARGB32, LK_MAP_AFFINE, LK_FILTER_NEAREST, argb_affine_nearest, argb_affine_nearest},
    {LK_FORMAT_ARGB32, LK_MAP_PROJECTIVE, LK_FILTER_BILINEAR, argb_projective_bilinear, argb_projective_bilinear},
    {LK_FORMAT_ARGB32, LK_MAP_PROJECTIVE, LK_FILTER_NEAREST, argb_projective_nearest, argb_projective_nearest},
    {LK_FORMAT_A8, LK_MAP_AFFINE, LK_FILTER_BILINEAR, a8_affine_bilinear, a8_affine_bilinear},
    {LK_FORMAT_A8, LK_MAP_AFFINE, LK_FILTER_NEAREST, a8_affine_nearest, a8_affine_nearest},
    {LK_FORMAT_A8, LK_MAP_PROJECTIVE, LK_FILTER_BILINEAR, a8_projective_bilinear, a8_projective_bilinear},
    {LK_FORMAT_A8, LK_MAP_PROJECTIVE, LK_FILTER_NEAREST, a8_projective_nearest, a8_projective_nearest},
    {LK_FORMAT_A8, LK_MAP_OFFSET, LK_FILTER_NEAREST, a8_offset, a8_offset},
    {LK_FORMAT_A8, LK_MAP_ON_BASE, LK_FILTER_NEAREST, a8_on_base, a8_on_base},
    {LK_FORMAT_ARGB32, LK_MAP_OFFSET, LK_FILTER_NEAREST, argb_offset, argb_offset},
};

const lk_kernel_table lk_scalar_table = {entries, (int)(sizeof entries / sizeof entries[0]), 1, NULL};
