#ifndef LAYERKIT_CPNG_SHIM_H
#define LAYERKIT_CPNG_SHIM_H
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// libpng reports errors by longjmp. Swift frames must never be jumped over, so the whole decode
// runs in this one C function: libpng's longjmp lands back here, and Swift sees a status code.

// libpng's format and flag names are composite macros that Swift does not import.
static const png_uint_32 lk_png_format_bgra = PNG_FORMAT_BGRA;
static const png_uint_32 lk_png_format_argb = PNG_FORMAT_ARGB;
static const png_uint_32 lk_png_image_version = PNG_IMAGE_VERSION;

enum { LK_PNG_OK = 0, LK_PNG_CORRUPT = 1, LK_PNG_TOO_LARGE = 2, LK_PNG_NO_MEMORY = 3 };

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
    char message[160];
} lk_png_source;

static inline void lk_png_on_error(png_structp png, png_const_charp text) {
    lk_png_source *source = (lk_png_source *)png_get_error_ptr(png);
    strncpy(source->message, text ? text : "unknown libpng error", sizeof source->message - 1);
    source->message[sizeof source->message - 1] = 0;
    png_longjmp(png, 1);
}

static inline void lk_png_on_warning(png_structp png, png_const_charp text) {
    (void)png; (void)text;  // ancillary damage is skipped by libpng; nothing to report
}

static inline void lk_png_on_read(png_structp png, png_bytep out, size_t count) {
    lk_png_source *source = (lk_png_source *)png_get_io_ptr(png);
    if (source->size - source->offset < count) png_error(png, "unexpected end of data");
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

/// Decodes any PNG to straight-alpha 32-bit pixels with a8r8g8b8 bit layout in native byte
/// order, 8 bits a channel (16-bit samples rounded, low depths and palettes expanded, tRNS made
/// alpha, Adam7 undone). Checks the declared size against the limits before allocating; the
/// pixels are calloc'd and owned by the caller. Samples are taken as stored (no gamma change).
static inline int lk_png_decode(lk_png_source *source, png_uint_32 max_side, size_t max_pixels,
                                uint32_t **pixels_out, png_uint_32 *width_out, png_uint_32 *height_out) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, source, lk_png_on_error, lk_png_on_warning);
    if (!png) return LK_PNG_NO_MEMORY;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); return LK_PNG_NO_MEMORY; }

    // Everything that must survive a longjmp is volatile or lives in *source.
    uint32_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    volatile int status = LK_PNG_CORRUPT;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(pixels);
        png_destroy_read_struct(&png, &info, NULL);
        return status;
    }
    png_set_read_fn(png, source, lk_png_on_read);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);  // our own limits are checked below
    png_read_info(png, info);

    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    *width_out = width;
    *height_out = height;
    if (width > max_side || height > max_side || (size_t)width * height > max_pixels) {
        status = LK_PNG_TOO_LARGE;
        png_error(png, "image too large");
    }

    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    png_set_bgr(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
#else
    png_set_swap_alpha(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_BEFORE);
#endif
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row size after expansion");

    pixels = (uint32_t *)calloc((size_t)width * height, 4);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) {
        status = LK_PNG_NO_MEMORY;
        png_error(png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * width);
    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    *pixels_out = pixels;
    return LK_PNG_OK;
}
#endif
