/*
 * CKernels: LayerKit's SIMD sampling kernels.
 *
 * Premultiplied a8r8g8b8 (native 32-bit words, alpha in the top byte) composites of a source
 * through an affine or projective map, where pixman's general paths are slow:
 *
 * - affine maps, bilinear or nearest: pixel for pixel what pixman 0.42 draws for the same
 *   16.16 fixed-point matrix (its stepping, its 7-bit interpolation weights, its rounding of
 *   the opacity and OVER arithmetic; repeat NONE, so transparent outside the source);
 * - projective maps (double precision, every pixel mapped from its own centre; transparent
 *   where w <= epsilon): bilinear with 8-bit weights, within one level of the exact sample;
 * - a8r8g8b8 sources with OVER or SRC and a constant opacity (pixman's 8-bit solid mask), or
 *   A8 coverage times a solid premultiplied color, OVER.
 *
 * Besides, the scan converter's rows of accumulation cells: edges' areas added into them, and
 * a row read out as coverage, blended in a color, or added into a coverage mask (see "Scan
 * conversion" below; scalar code with SSE2 runs, the same on every variant).
 *
 * Each composite writes only the pixels of its boxes and reads only pixels inside the source.
 * Every row is walked over its exact span: the pixels whose samples can be non-zero, solved
 * from the map (SRC clears the rest of the box).
 *
 * Code is chosen once at run time from a dispatch table per instruction set (scalar; SSE2, AVX2
 * and AVX-512 on x86-64, the last AVX2's table but for coverage over a known base), all bit for
 * bit identical: the widest the CPU has, except in unoptimized builds, where SSE2 runs faster.
 * LAYERKIT_KERNELS=scalar|sse2|avx2|avx512 in the environment forces one (read at first use);
 * lk_kernels_set_variant does it from code.
 */
#ifndef LAYERKIT_CKERNELS_H
#define LAYERKIT_CKERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An instruction set's kernels. AUTO means the process's choice (the best available, or what
 * LAYERKIT_KERNELS asks for). */
typedef enum lk_variant {
    LK_VARIANT_AUTO = 0,
    LK_VARIANT_SCALAR = 1,
    LK_VARIANT_SSE2 = 2,
    LK_VARIANT_AVX2 = 3,
    /* AVX2's kernels, and coverage over a known base through a palette with AVX-512 VBMI. */
    LK_VARIANT_AVX512 = 4,
} lk_variant;

typedef enum lk_operator {
    LK_OP_OVER = 0,
    LK_OP_SRC = 1,
} lk_operator;

typedef enum lk_filter {
    LK_FILTER_NEAREST = 0,
    LK_FILTER_BILINEAR = 1,
} lk_filter;

typedef enum lk_format {
    /* Premultiplied a8r8g8b8 words. */
    LK_FORMAT_ARGB32 = 0,
    /* 8-bit coverage, multiplied by the job's color (OVER only). */
    LK_FORMAT_A8 = 1,
} lk_format;

/* Destination pixels x1 <= x < x2, y1 <= y < y2 (pixman_box32_t's layout). */
typedef struct lk_box {
    int32_t x1, y1, x2, y2;
} lk_box;

typedef struct lk_job {
    /* Destination pixel (origin_x, origin_y): coordinates (boxes, and where the map is applied)
     * are the destination's, whatever part of it `dst` holds (a scratch row, say). */
    uint32_t *dst;
    int32_t origin_x, origin_y;
    int32_t dst_width, dst_height;
    /* Bytes from one destination row to the next (a multiple of 4). */
    int32_t dst_stride;

    const void *src;
    int32_t src_width, src_height;
    /* Bytes from one source row to the next. */
    int32_t src_stride;
    lk_format format;

    lk_operator op;
    lk_filter filter;
    /* Multiplies the source as pixman's 8-bit solid mask would (255: no mask). */
    uint8_t opacity;
    /* For LK_FORMAT_A8: the premultiplied color the coverage multiplies (before opacity). */
    uint32_t color;

    /* LK_FORMAT_A8 sources of at least 2x2, optionally: the same texels in vertical pairs
     * (lk_a8_pairs), from which affine bilinear rows read each pixel's 2x2 texels in one load
     * rather than two, `pairs` pointing at pair (0, 0). Pair (x, y), for x in −1 … src_width and
     * y in −1 … src_height − 1, is texel (x, y) then (x, y + 1), those outside the source 0, at
     * byte y · pairs_stride + 2 · x (pairs_stride at least 2 · (src_width + 2)). With the clear
     * border every sample that can draw reads its texels without a check, so rows whose
     * coverage reaches the source's edges take no edge path. NULL: none. The pixels drawn are the
     * same either way. */
    const void *pairs;
    int32_t pairs_stride;

    /* Affine composites, optionally (NULL: none): the box outside which the source is clear at
     * this job's faint level, as lk_texels_not_clear_box gives it (found once for a source that
     * does not change, where each composite would otherwise peel its clear border again). */
    const lk_box *texels;
    /* The faint level `texels` was found at (lk_texels_not_clear_box's `faint`). A box found at a
     * level above this job's own (lk_faint_coverage of its color times its opacity; 0 for
     * a8r8g8b8 sources) may leave out texels the job draws, so the job then peels its own. */
    uint32_t texels_faint;

    /* The pixels that may change; boxes are cut to the destination's pixels in `dst`. */
    const lk_box *boxes;
    int32_t box_count;

    lk_variant variant;
} lk_job;

/* Status of a composite. */
typedef enum lk_status {
    LK_OK = 0,
    /* A field is out of range (size, stride, format or operator); nothing was drawn. */
    LK_INVALID = 1,
} lk_status;

/* Composites through pixman's 16.16 fixed-point affine source transform (destination pixel
 * centres to source coordinates, column-vector convention): matrix = { m[0][0], m[0][1],
 * m[0][2], m[1][0], m[1][1], m[1][2] }, the last row being (0, 0, 1). */
lk_status lk_composite_affine(const lk_job *job, const int32_t matrix[6]);

/* Composites through a projective map from destination to source in the row-vector
 * convention: (X, Y, W) = (x, y, 1) * M with M = { m11, m12, m13, m21, m22, m23, m31, m32, m33 }
 * and source point (X / W, Y / W). Pixels whose W <= epsilon (on or behind the eye) are
 * transparent. Bilinear weights are rounded to 8 bits. */
lk_status lk_composite_projective(const lk_job *job, const double matrix[9], double epsilon);

/* Composites the job's color (times its opacity) through its A8 source placed with its pixel
 * (0, 0) at destination pixel (x, y), over: what pixman's over_n_8_8888 draws, bit for bit.
 * The filter is ignored (nothing is sampled between pixels). Only A8 jobs. */
lk_status lk_composite_a8_offset(const lk_job *job, int32_t x, int32_t y);

/* lk_composite_a8_offset where every pixel the source covers is `base`: writes, into every
 * pixel of the job's boxes that its A8 source placed with its pixel (0, 0) at destination pixel
 * (x, y) covers, the job's color (times its opacity) through the coverage there over `base`
 * (`base` itself where the coverage is 0), reading no destination pixel. The same arithmetic
 * as lk_composite_a8_offset's over a destination of `base`, so the same pixels bit for bit; a
 * painter that knows those pixels hold its background need not fill them first. Only A8 jobs. */
lk_status lk_composite_a8_on_base(const lk_job *job, int32_t x, int32_t y, uint32_t base);

/* Composites the job's a8r8g8b8 source placed with its pixel (0, 0) at destination pixel
 * (x, y), over or source, times the job's opacity: what pixman's over_8888_8888 and
 * src_8888_8888 (through a solid mask when the opacity is below 255) draw, bit for bit. The
 * filter is ignored. Only ARGB32 jobs. */
lk_status lk_composite_argb_offset(const lk_job *job, int32_t x, int32_t y);

/* One glyph's 8-bit coverage placed in an A8 mask: `height` rows of `width` bytes, `stride`
 * bytes apart, its top-left at pixel (x, y) (in the coordinates the mask is laid over). Rows
 * are read only within `width`, plus, where `stride` leaves 16 readable bytes from a step's
 * start, the rest of those 16 (whatever they hold is ignored). A null `coverage` is a glyph
 * without ink (a space): nothing is read and the other fields are ignored. */
typedef struct lk_glyph_blit {
    const uint8_t *coverage;
    int32_t stride;
    int32_t x, y;
    int32_t width, height;
} lk_glyph_blit;

/* Adds each glyph's coverage into the `width` x `height` A8 mask (rows `stride` bytes apart)
 * laid over pixels (mask_x, mask_y) … (mask_x + width − 1, mask_y + height − 1), in order, as
 * source-over combines coverage: m + g - m·g/255, the product rounded as pixman multiplies
 * ((t + (t >> 8)) >> 8, t = m·g + 128). Glyphs are clipped to the mask; only bytes of the
 * mask's rows are written, and those outside a glyph keep their value. When `inked` is not
 * null it receives the union of the glyphs' boxes inside the mask, in mask pixels (x1 >= x2
 * when none reaches it). `clear_x` is a promise: the mask's columns clear_x … width − 1 hold
 * zero in every row (width or more when nothing is known; a freshly cleared mask's is 0). A
 * glyph that starts right of it and of every glyph before it may then have its coverage
 * stored as it is (over(0, g) = g), which writes the same bytes; a broken promise makes the
 * bytes wrong, never touches memory outside the mask's rows. `variant` picks the code (AUTO,
 * or one not available here: the process's); every variant writes the same bytes. LK_INVALID,
 * writing nothing, for a null or undersized mask, or a glyph with coverage and a negative
 * size or a stride shorter than its width. */
lk_status lk_a8_add_glyphs(uint8_t *mask, int32_t mask_x, int32_t mask_y, int32_t width, int32_t height, int32_t stride,
                           int32_t clear_x, const lk_glyph_blit *glyphs, int32_t count, lk_box *inked, lk_variant variant);

/* Stores `pixel` into every pixel of the `count` boxes, cut to the destination, of a `width` x
 * `height` destination of 32-bit words at `dst` (rows `stride` bytes apart, a multiple of 4 and
 * at least 4 · width): what pixman_fill, and so pixman_image_fill_boxes for SRC (CLEAR: 0; OVER
 * of an opaque color), writes, bit for bit. Only the boxes' words are written, none read.
 * `variant` picks the code (AUTO, or one not available here: the process's); AVX-512 runs AVX2's
 * (no faster: the stores are the cost); every variant stores the same words. LK_INVALID, writing
 * nothing, for a null or misaligned `dst`, a negative size, a stride out of range, stride ·
 * height above INT32_MAX, or a negative count (or boxes missing for a positive one). */
lk_status lk_fill(uint32_t *dst, int32_t width, int32_t height, int32_t stride, uint32_t pixel, const lk_box *boxes,
                  int32_t count, lk_variant variant);

/* Writes the vertical pairs of a `width` x `height` A8 source (at least 2x2) into `pairs`, with
 * a clear border (see lk_job.pairs): height + 1 rows of `pairs_stride` bytes (at least
 * 2 · (width + 2)), row r holding, for x = −1 … width, texel (x, r − 1) then (x, r), texels
 * outside the source 0; pair (0, 0), which lk_job.pairs points at, is at byte pairs_stride + 2.
 * LK_INVALID, writing nothing, for sizes or strides out of range. */
lk_status lk_a8_pairs(const void *src, int32_t width, int32_t height, int32_t src_stride, void *pairs,
                      int32_t pairs_stride);

/* The largest A8 coverage that OVER with `color` (premultiplied, times the opacity) draws as
 * nothing: pixman makes each channel c times a coverage t (c·t + 128)·257 >> 16, which is 0
 * while c·t <= 127. */
uint32_t lk_faint_coverage(uint32_t color);

/* The box of texels outside which a `width` x `height` source is clear (every byte zero; A8
 * coverage at most `faint` counts as clear, see lk_faint_coverage), into *box: empty (x1 = x2)
 * when every texel is. What affine composites peel for themselves, within a budget, when
 * lk_job.texels is NULL. LK_INVALID, leaving *box the whole source, for sizes or strides out
 * of range. */
lk_status lk_texels_not_clear_box(const void *src, int32_t width, int32_t height, int32_t src_stride, lk_format format,
                                  uint32_t faint, lk_box *box);

/* `v` rounded to the nearest whole number, halves away from zero (C's round), for |v| < 2^52
 * (the caller checks: beyond 2^63 the conversion is undefined): truncation and an exact
 * remainder, inlined, where Swift's conversion checks its range at every call. */
static inline int64_t lk_rounded_half_away(double v) {
    const int64_t whole = (int64_t)v;
    const double rest = v - (double)whole;
    return rest >= 0.5 ? whole + 1 : rest <= -0.5 ? whole - 1 : whole;
}

/* A premultiplied color times an 8-bit opacity, rounded as pixman multiplies by a mask: the
 * solid color an A8 composite's coverage multiplies. */
uint32_t lk_color_times_opacity(uint32_t color, uint8_t opacity);

/* ---- Scan conversion: rows of accumulation cells (LayerKit's RowSweep) ---- */

/* An edge cut to the rows of the area being scanned, in the area's coordinates, top to bottom:
 * x at y_top and its change per unit of y. (Fields spelled as Swift code spells them: LayerKit's
 * ScanEdge is this struct.) */
typedef struct lk_scan_edge {
    double yTop, yBottom;
    double xTop, slope;
} lk_scan_edge;

/* The widest row of cells a scan may use. */
#define LK_MAX_CELL_ROW (1 << 30)

/* One pixel row's accumulation cells: cell i holds the change of coverage from pixel i − 1 to
 * pixel i, and bit i % 64 of word i / 64 of `touched` says whether it received any area since
 * the row was last read. `cells` holds width + 2 doubles and `touched` (width + 65) / 64 words,
 * all zero to begin with; the words with a bit set lie between first_word and last_word (none
 * when last_word < first_word). */
typedef struct lk_cell_row {
    double *cells;
    uint64_t *touched;
    int64_t width;
    int64_t first_word, last_word;
} lk_cell_row;

/* Edges first … end − 1 of a monotone chain (top to bottom, each starting where the one before
 * ends), whose area a row receives times `sign`. */
typedef struct lk_chain_piece {
    int64_t first, end;
    double sign;
} lk_chain_piece;

/* Adds into the row at y = row_top (its pixels' top; its bottom is row_top + 1) the signed area,
 * times its sign, right of each edge of each of the `count` pieces between ya and yb, as font-rs
 * accumulates a line: exact areas per cell. Parts left of the row count wholly in its first
 * cell, parts right of it not at all; x beyond ±10^18 is moved to ±10^18. LK_INVALID, adding
 * nothing, for a row out of range (null buffers, a width out of 0 … LK_MAX_CELL_ROW, words out
 * of range), a piece with first > end or first < 0, or ya and yb outside the pixel row; and for
 * an edge whose x is not a number, which adds nothing (the others add theirs). */
lk_status lk_cell_row_add_chains(lk_cell_row *row, const lk_scan_edge *edges, const lk_chain_piece *pieces,
                                 int32_t count, double ya, double yb, double row_top);

/* RowSweep's band without crossings, when the chains are already in order: `chains` (each spanning
 * the band from ya to yb, pieces whose sign is the chain's direction, +1 or −1), left to right,
 * where no two neighbours can share an x in the band: each one's greatest x there (at the band's
 * top or an edge's bottom) at most the next one's least. Then the rule's inside begins (+1) or
 * ends (−1) at a chain where the winding number, summed left to right, becomes or stops being
 * non-zero (even-odd: at every chain), and those chains add their area times that sign, in
 * order, as lk_cell_row_add_chains adds it: returns 1. When the chains are not so (or one does
 * not reach into the band), returns 0 with the row as it was (empty), for the caller's general
 * path. −1, adding nothing, for arguments as lk_cell_row_add_chains refuses, or a row that is
 * not empty; and for an edge whose x is not a number, which adds nothing. */
int32_t lk_cell_row_add_bounds(lk_cell_row *row, const lk_scan_edge *edges, const lk_chain_piece *chains, int32_t count,
                               int32_t even_odd, double ya, double yb, double row_top);

/* A monotone chain cut to the rows being scanned (LayerKit's ScanChain): edges first … end − 1,
 * top to bottom, each starting where the one before ends, from yTop to yBottom; `cursor` is the
 * first that does not end above the row being swept; direction +1 where the outline runs down,
 * −1 where it runs up. */
typedef struct lk_scan_chain {
    int64_t first, end, cursor;
    double yTop, yBottom, direction;
} lk_scan_chain;

/* What a sweep's rows share (LayerKit's RowSweep): `edge_count` edges and `chain_count` chains,
 * `order` the chains in the order of the row where they begin, `next` the first of those not yet
 * admitted; `active` the `active_count` chains crossing the current row, in x order as far as
 * known; `pieces` room for `chain_count` pieces; rows with more than `maximum_chains` chains are
 * the caller's. */
typedef struct lk_sweep {
    const lk_scan_edge *edges;
    lk_scan_chain *chains;
    const int32_t *order;
    int32_t *active;
    lk_chain_piece *pieces;
    int64_t edge_count, chain_count, next, active_count, maximum_chains;
} lk_sweep;

/* Where lk_sweep_rows puts a row's coverage: blended as lk_cell_row_blend blends it into `pixels`
 * (the area's row 0, rows `pixels_per_row` apart) with `color` and `table` (filled for `color` by
 * lk_blend_table_fill, as lk_cell_row_blend requires), or, with `mask` set,
 * added as lk_cell_row_cover adds it into `mask` (rows `mask_stride` apart). */
typedef struct lk_sweep_target {
    uint32_t *pixels;
    int64_t pixels_per_row;
    uint32_t color;
    uint64_t *table;
    uint8_t *mask;
    int64_t mask_stride;
} lk_sweep_target;

/* RowSweep's loop over rows `*row_index` … `end` − 1 (the row whose top is y = r): per row, admits
 * the chains beginning above its bottom, drops those ended at its top, moves the others' cursors
 * to it; a row no chain crosses is skipped; a row in which none begins or ends, with at most
 * `maximum_chains` chains, whose chains lk_cell_row_add_bounds takes (in `active`'s order, signed
 * by their direction, over the whole row) is added that way and read out into the target. At
 * the first other row it stops, leaving `*row_index` there with its chains admitted and cursors
 * moved, and returns 1 (2 when lk_cell_row_add_bounds refused the row); at the end it returns 0
 * with `*row_index` = end. An edge whose x is not a number adds nothing. The cells must be
 * empty. −1, changing nothing, for a row out of range (see lk_cell_row_add_chains), null
 * pointers, counts out of range, or a target without pixels and table or mask (or whose table's
 * entries for levels 0 and 255 are not `color`'s); −1 also, with
 * the rows before it swept and `*row_index` at it, for a row where a chain to admit has edges
 * outside 0 … edge_count − 1 or a cursor outside them. */
int32_t lk_sweep_rows(lk_sweep *sweep, lk_cell_row *row, int32_t even_odd, int64_t *row_index, int64_t end,
                      const lk_sweep_target *target);

/* Where a row's coverage is: levels[lo … hi − 1] hold it, pixels left of lo have none, and those
 * from hi to the row's width have `tail`. */
typedef struct lk_level_span {
    int32_t lo, hi;
    uint8_t tail;
} lk_level_span;

/* Reads the row's coverage: the running sum of its cells, left to right, as 8-bit levels,
 * round(255 · min(|sum|, 1)) (under even-odd, `even_odd` not 0, |sum| above 1 folds back: 2 is
 * 0), into levels[span.lo … span.hi − 1], where lo is the first cell that received area and hi
 * one past the last below the width. `levels` needs room for the row's width. Clears the cells
 * and bits it reads (the row is ready for the next). LK_INVALID, changing nothing, for a row out
 * of range (see lk_cell_row_add_chains) or null `levels` or `span`. */
lk_status lk_cell_row_levels(lk_cell_row *row, int32_t even_odd, uint8_t *levels, lk_level_span *span);

/* Reads the row's coverage as lk_cell_row_levels does and composites a premultiplied color
 * through it over the row's `width` pixels at `dst`, as ColorBlendSink did in Swift: per pixel of
 * coverage m, s = color · m (each channel's product rounded as pixman multiplies), then
 * s + dst · (255 − alpha(s)), the sum as one 32-bit addition: what pixman's over_n_8_8888 draws,
 * bit for bit, for premultiplied colors and pixels. Pixels of coverage 0 are not written.
 * `table` holds the 256 entries lk_blend_table_fill fills for `color` (s and 255 − alpha(s) per
 * level), read only; filling it is the caller's (once per color, not per row), and the kernel
 * looks no level up but the table's. Clears the cells and bits it reads. LK_INVALID, changing
 * nothing, for a row out of range, a null `dst` or `table`, or a table whose entries for levels
 * 0 and 255 are not `color`'s (a cheap check that catches a table left unfilled or filled for
 * another color, not one filled wrongly in between). */
lk_status lk_cell_row_blend(lk_cell_row *row, int32_t even_odd, uint32_t *dst, uint32_t color, uint64_t *table);

/* Fills a blend table (256 entries, as lk_cell_row_blend and lk_sweep_rows require them) for a
 * premultiplied color, every level at once: entry m holds s = color · m (each channel rounded as
 * pixman multiplies) in its low 32 bits and 255 − alpha(s) above. LK_VARIANT_SCALAR works
 * them out one by one; any other variant two at a time in SSE2 lanes where it can (the same
 * entries). LK_INVALID for a null table. */
lk_status lk_blend_table_fill(uint64_t *table, uint32_t color, lk_variant variant);

/* Reads the row's coverage as lk_cell_row_levels does and adds it into the row's `width` bytes
 * of an 8-bit mask at `mask`, as source-over combines coverage: m + g − m·g/255, the product
 * rounded as pixman multiplies ((t + (t >> 8)) >> 8, t = m·g + 128). Bytes of coverage 0 are not
 * written. Clears the cells and bits it reads. LK_INVALID, changing nothing, for a row out of
 * range or a null `mask`. */
lk_status lk_cell_row_cover(lk_cell_row *row, int32_t even_odd, uint8_t *mask);

/* The variant AUTO stands for in this process. */
lk_variant lk_kernels_variant(void);

/* Whether this CPU (and build) can run a variant. */
int lk_kernels_variant_is_available(lk_variant variant);

/* Makes `variant` what AUTO stands for (AUTO: the best available again). Returns 0, changing
 * nothing, when the variant is not available. */
int lk_kernels_set_variant(lk_variant variant);

/* Tells the core that the calling thread is spinning, waiting for another thread to write
 * what it polls (x86's PAUSE, Arm's YIELD): the loop then stops flooding the core with loads it
 * will throw away when the write comes (a pipeline flush on x86), and leaves more of the core to
 * a second hardware thread sharing it — which, in a virtual machine, may be the very thread it
 * waits for. Nothing elsewhere. */
static inline void lk_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#ifdef __cplusplus
}
#endif

#endif
