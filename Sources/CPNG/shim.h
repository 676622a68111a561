#ifndef LAYERKIT_CPNG_SHIM_H
#define LAYERKIT_CPNG_SHIM_H
#include <png.h>
#include <zlib.h>
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
    // Where the last row goes, and whether it is there (see lk_png_on_row).
    uint32_t *pixels;
    png_uint_32 width, height;
    int interlaced;
    int complete;
} lk_png_source;

static inline void lk_png_on_error(png_structp png, png_const_charp text) {
    lk_png_source *source = (lk_png_source *)png_get_error_ptr(png);
    strncpy(source->message, text ? text : "unknown libpng error", sizeof source->message - 1);
    source->message[sizeof source->message - 1] = 0;
    png_longjmp(png, 1);
}

static inline void lk_png_on_warning(png_structp png, png_const_charp text) {
    // Ancillary damage is skipped by libpng; nothing to report. But a chunk over the chunk
    // allocation limit is only a warning to libpng: LayerKit refuses the file.
    if (text && strstr(text, "chunk data is too large") && png_get_io_chunk_type(png) != 0x49444154u /* IDAT */)
        png_error(png, "a chunk is larger than the decoding limit (PNGDecodingOptions.maximumAncillaryChunkBytes)");
}

/// Sees each row after every transformation (a user transform runs last). The image's last
/// row — the last row of a plain image, or the last row of the last Adam7 pass that has pixels —
/// is put in its place here, because libpng goes on, before placing it, to inflate whatever
/// compressed data trails the image (png_read_finish_IDAT: 4 GiB of it took 30 s). From then on
/// lk_png_on_read reads nothing more: the pixels are complete.
///
/// For an interlaced image the earlier passes are already combined into the rows when the last
/// pass's last row arrives; that row holds the pass's pixels only (every `dx`-th from `x0`), so
/// they are spread to their columns. The last pass with pixels is the seventh (whole odd rows)
/// for images two or more rows high; a one-row image ends on the sixth (odd columns of row 0),
/// and a 1x1 image on the first.
static inline void lk_png_on_row(png_structp png, png_row_infop row, png_bytep data) {
    lk_png_source *source = (lk_png_source *)png_get_io_ptr(png);
    png_uint_32 r = png_get_current_row_number(png);
    if (!source->interlaced) {
        if (r + 1 != source->height || row->rowbytes != (size_t)source->width * 4) return;
        memcpy(source->pixels + (size_t)r * source->width, data, row->rowbytes);
        source->complete = 1;
        return;
    }
    // Adam7: each pass's first column and row, and its steps.
    static const png_uint_32 x0[7] = {0, 4, 0, 2, 0, 1, 0}, dx[7] = {8, 8, 4, 4, 2, 2, 1};
    static const png_uint_32 y0[7] = {0, 0, 4, 0, 2, 0, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
    int last = 6;
    while (last > 0 && (source->width <= x0[last] || source->height <= y0[last])) last--;
    int pass = png_get_current_pass_number(png);
    if (pass != last) return;
    // With interlace handling on, libpng counts the image's rows in every pass (skipping those
    // not in the pass before any transformation): `r` is the row in the image.
    png_uint_32 last_row = y0[pass] + (source->height - 1 - y0[pass]) / dy[pass] * dy[pass];
    png_uint_32 columns = (source->width - x0[pass] + dx[pass] - 1) / dx[pass];
    if (r != last_row || row->rowbytes != (size_t)columns * 4) return;
    uint32_t *target = source->pixels + (size_t)r * source->width;
    for (png_uint_32 i = 0; i < columns; i++) memcpy(target + x0[pass] + i * dx[pass], data + (size_t)i * 4, 4);
    source->complete = 1;
}

static inline void lk_png_on_read(png_structp png, png_bytep out, size_t count) {
    lk_png_source *source = (lk_png_source *)png_get_io_ptr(png);
    if (source->complete) png_longjmp(png, 1);   // not an error: see lk_png_on_row
    if (source->size - source->offset < count) png_error(png, "unexpected end of data");
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

/// The CRC-32 of PNG chunks (ISO 3309, zlib's crc32), over any length.
static inline uint32_t lk_png_crc(const unsigned char *bytes, size_t count) {
    uLong crc = crc32(0L, Z_NULL, 0);
    while (count > 0) {
        uInt piece = count > 0x40000000u ? 0x40000000u : (uInt)count;
        crc = crc32(crc, bytes, piece);
        bytes += piece;
        count -= piece;
    }
    return (uint32_t)crc;
}

static inline uint32_t lk_png_be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/// Ends a decode whose pixels are all read, without reading what follows them: checks the CRC
/// of the chunk the image data ended in, then that the chunks after it are whole up to IEND,
/// reading only their headers. libpng's png_read_end would instead inflate whatever compressed
/// data trails the image (4 GiB of it took 30 s) and parse every ancillary chunk after it.
/// Returns NULL when the file is complete, else what is wrong.
static inline const char *lk_png_finish(const lk_png_source *source) {
    const unsigned char *data = source->data;
    size_t size = source->size, offset = 8, last = source->offset > 0 ? source->offset - 1 : 0;
    int past_image = 0;
    while (offset < size) {
        if (size - offset < 12) return "truncated chunk after the image data";
        size_t length = lk_png_be32(data + offset);
        if (length > 0x7fffffffu || size - offset - 12 < length) return "truncated chunk after the image data";
        const unsigned char *type = data + offset + 4;
        if (!past_image && last < offset + 12 + length) {
            // The chunk libpng was reading when the image was complete: its CRC was not checked.
            if (lk_png_crc(type, length + 4) != lk_png_be32(type + 4 + length)) return "IDAT: CRC error";
            past_image = 1;
        }
        if (memcmp(type, "IEND", 4) == 0) return past_image ? NULL : "IEND before the end of the image data";
        offset += 12 + length;
    }
    return "missing IEND chunk";
}

/// Decodes any PNG to straight-alpha 32-bit pixels with a8r8g8b8 bit layout in native byte
/// order, 8 bits a channel (16-bit samples rounded, low depths and palettes expanded, tRNS made
/// alpha, Adam7 undone). Checks the declared size against the limits before allocating; the
/// pixels are calloc'd and owned by the caller. Samples are taken as stored (no gamma change).
/// Ancillary chunks that carry no pixels (text, ICC profiles, suggested palettes, Exif,
/// unknown ones) are skipped without being stored; no chunk may make libpng allocate more than
/// `max_chunk_bytes`. Reading stops once the pixels are read (see lk_png_finish).
static inline int lk_png_decode(lk_png_source *source, png_uint_32 max_side, size_t max_pixels, size_t max_chunk_bytes,
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
        if (source->complete) goto finish;
        free(pixels);
        png_destroy_read_struct(&png, &info, NULL);
        return status;
    }
    png_set_read_fn(png, source, lk_png_on_read);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);  // our own limits are checked below
    png_set_chunk_malloc_max(png, max_chunk_bytes);
    png_set_chunk_cache_max(png, 64);
    static const png_byte unused[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0eXIf\0";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, unused, (int)(sizeof unused - 1) / 5);
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
    png_set_read_user_transform_fn(png, lk_png_on_row);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row size after expansion");

    pixels = (uint32_t *)calloc((size_t)width * height, 4);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) {
        status = LK_PNG_NO_MEMORY;
        png_error(png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * width);
    source->pixels = pixels;
    source->width = width;
    source->height = height;
    source->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    png_read_image(png, rows);
    free(rows);
    rows = NULL;
finish:
    rows = NULL;
    source->complete = 0;   // from here on, errors are errors again
    {
        const char *problem = lk_png_finish(source);
        if (problem) png_error(png, problem);
    }
    png_destroy_read_struct(&png, &info, NULL);
    *pixels_out = pixels;
    return LK_PNG_OK;
}
#endif
