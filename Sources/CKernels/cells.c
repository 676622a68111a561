/*
 * The scan converter's rows of accumulation cells (LayerKit's Paths/RowSweep): edges add their
 * signed area into the cells, and the running sum of a row's cells, left to right, is its
 * coverage. The arithmetic is the Swift code's it replaced, operation for operation, in doubles
 * with no fused multiply-adds (kernels.h turns contraction off), so that the levels are the same
 * bit for bit; in C it runs without Swift's trapping conversions and checked indices, which cost
 * more than the arithmetic.
 */
#include "kernels.h"
#include <string.h>

/* Swift's min and max (ties pick the first and the second argument), which the arithmetic
 * follows so that signed zeros come out as they did. */
LK_INLINE double swift_min(double x, double y) { return y < x ? y : x; }
LK_INLINE double swift_max(double x, double y) { return y >= x ? y : x; }

/* Hides a double's origin from the optimizer (it stays in a register, no instruction). */
#if defined(__GNUC__) && LK_X86
#define LK_OPAQUE(v) __asm__("" : "+x"(v))
#else
#define LK_OPAQUE(v) ((void)0)
#endif

/* Far enough outside any area that moving an edge's end there changes nothing visible. */
static const double far_out = 1e18;

static int valid_row(const lk_cell_row *row) {
    if (!row || !row->cells || !row->touched || row->width < 0 || row->width > LK_MAX_CELL_ROW) return 0;
    const int64_t words = (row->width + 2 + 63) / 64;
    if (row->first_word > row->last_word) return 1;
    return row->first_word >= 0 && row->last_word < words;
}

/* A row while edges add area to it: lk_cell_row's fields in a local that no store into the cells
 * or bits can reach (lk_cell_row's words may alias `touched`), so that the compiler keeps the
 * range of words, and the width as a double, in registers; written back once at the end. */
typedef struct cell_writer {
    double *cells;
    uint64_t *touched;
    double width;
    int64_t first_word, last_word;
    /* Whether the range of words is kept (a constant wherever a writer is opened): without, the
     * row's range is all its words when the writer closes. */
    int tracks;
} cell_writer;

LK_INLINE cell_writer open_writer(const lk_cell_row *row, const int tracks) {
    const cell_writer w = {row->cells, row->touched, (double)row->width, row->first_word, row->last_word, tracks};
    return w;
}

/* The last of a row's words (its cells 0 … width + 1 marked by a bit each). */
LK_INLINE int64_t last_word_of(const lk_cell_row *row) { return (row->width + 1) >> 6; }

LK_INLINE void close_writer(lk_cell_row *row, const cell_writer *w) {
    if (w->tracks) {
        row->first_word = w->first_word;
        row->last_word = w->last_word;
    } else {
        row->first_word = 0;
        row->last_word = last_word_of(row);
    }
}

/* Notes that cells a … b received area. */
LK_INLINE void mark(cell_writer *row, int64_t a, int64_t b) {
    const int64_t wa = a >> 6, wb = b >> 6;
    if (row->tracks) {
        if (wa < row->first_word) row->first_word = wa;
        if (wb > row->last_word) row->last_word = wb;
    }
    const uint64_t from = ~(uint64_t)0 << (a & 63), through = ~(uint64_t)0 >> (63 - (b & 63));
    if (wa == wb) {
        row->touched[wa] |= from & through;
        return;
    }
    row->touched[wa] |= from;
    for (int64_t w = wa + 1; w < wb; w++) row->touched[w] = ~(uint64_t)0;
    row->touched[wb] |= through;
}

/* font-rs's accumulation of a line inside one row (0 <= x <= width): cell i receives the change
 * of coverage from column i − 1 to column i. */
LK_INLINE void accumulate_between(cell_writer *row, double xa, double ya, double xb, double yb, double sign, double x0,
                                   double x1) {
    double *acc = row->cells;
    const double d = sign * (yb - ya);
    const int64_t x0i = (int64_t)x0;
    const double x0floor = (double)x0i;
    int64_t x1i = (int64_t)x1;
    if ((double)x1i < x1) x1i += 1;
    const double x1ceil = (double)x1i;
    if (x1i <= x0i + 1) {
        const double xmf = 0.5 * (xa + xb) - x0floor;
        acc[x0i] += d - d * xmf;
        acc[x0i + 1] += d * xmf;
        mark(row, x0i, x0i + 1);
        return;
    }
    const double s = 1 / (x1 - x0);
    const double x0f = x0 - x0floor;
    const double a0 = 0.5 * s * (1 - x0f) * (1 - x0f);
    const double x1f = x1 - x1ceil + 1;
    const double am = 0.5 * s * x1f * x1f;
    acc[x0i] += d * a0;
    if (x1i == x0i + 2) {
        acc[x0i + 1] += d * (1 - a0 - am);
    } else {
        const double a1 = s * (1.5 - x0f);
        acc[x0i + 1] += d * (a1 - a0);
        const double step = d * s;
        for (int64_t xi = x0i + 2; xi < x1i - 1; xi++) acc[xi] += step;
        const double a2 = a1 + (double)(x1i - x0i - 3) * s;
        acc[x1i - 1] += d * (1 - a2 - am);
    }
    acc[x1i] += d * am;
    mark(row, x0i, x1i);
}

LK_INLINE void accumulate(cell_writer *row, double xa, double ya, double xb, double yb, double sign) {
    accumulate_between(row, xa, ya, xb, yb, sign, swift_min(xa, xb), swift_max(xa, xb));
}

/* The edge's signed area between ya and yb (inside the row at row_top): parts left of the row
 * count wholly in its first cell, parts right of it not at all. 0 when an x is not a number. */
LK_INLINE int add_line(cell_writer *row, double xa, double xb, double ta, double tb, double sign) {
    const double w = row->width;
    /* Most edges lie inside the row, not along its ends: the cuts below leave those as they are.
     * Both ends in [0, w], one above 0 and one below w, told by the lesser and the greater end
     * (which accumulate needs anyway); xb == xb, because a NaN xb makes both xa. */
    const double x0 = swift_min(xa, xb), x1 = swift_max(xa, xb);
    if (x0 >= 0 && x1 <= w && x1 > 0 && x0 < w && xb == xb) {
        if (tb > ta) accumulate_between(row, xa, ta, xb, tb, sign, x0, x1);
        return 1;
    }
    /* A slope of 10^300 pixels a row overflows within the row: ends that far out are moved to
     * 10^18 pixels out, which changes where the edge crosses the row by 10^-15 of it. */
    if (__builtin_fabs(xa) > far_out) xa = xa < 0 ? -far_out : far_out;
    if (__builtin_fabs(xb) > far_out) xb = xb < 0 ? -far_out : far_out;
    if (xa != xa || xb != xb) return 0;
    if (xa <= 0 && xb <= 0) {
        row->cells[0] += sign * (tb - ta);
        mark(row, 0, 0);
        return 1;
    }
    if (xa >= w && xb >= w) return 1;
    if (xa < 0 || xb < 0) {
        const double t = ta + (tb - ta) * (0 - xa) / (xb - xa);
        row->cells[0] += xa < 0 ? sign * (t - ta) : sign * (tb - t);
        mark(row, 0, 0);
        if (xa < 0) {
            ta = t;
            xa = 0;
        } else {
            tb = t;
            xb = 0;
        }
    }
    if (xa > w || xb > w) {
        const double t = ta + (tb - ta) * (w - xa) / (xb - xa);
        if (xa > w) {
            ta = t;
            xa = w;
        } else {
            tb = t;
            xb = w;
        }
    }
    if (!(tb > ta)) return 1;
    /* The cuts leave both ends inside [0, w]; checked again so that the cells written exist
     * whatever the inputs. */
    if (!(xa >= 0 && xa <= w && xb >= 0 && xb <= w)) return 0;
    accumulate(row, xa, ta, xb, tb, sign);
    return 1;
}

/* x of the edge at y. */
LK_INLINE double edge_x(const lk_scan_edge *e, double y) { return e->xTop + (y - e->yTop) * e->slope; }

LK_INLINE int add_edge(cell_writer *row, const lk_scan_edge *e, double ya, double yb, double row_top, double sign) {
    return add_line(row, edge_x(e, ya), edge_x(e, yb), ya - row_top, yb - row_top, sign);
}

lk_status lk_cell_row_add_chains(lk_cell_row *row, const lk_scan_edge *edges, const lk_chain_piece *pieces,
                                 int32_t count, double ya, double yb, double row_top) {
    if (!valid_row(row) || count < 0 || (count > 0 && (!edges || !pieces))) return LK_INVALID;
    if (!(ya >= row_top && yb <= row_top + 1)) return LK_INVALID;
    for (int32_t i = 0; i < count; i++)
        if (pieces[i].first < 0 || pieces[i].end < pieces[i].first) return LK_INVALID;
    cell_writer writer = open_writer(row, 1);
    lk_status status = LK_OK;
    for (int32_t i = 0; i < count; i++) {
        const double sign = pieces[i].sign;
        for (int64_t k = pieces[i].first; k < pieces[i].end; k++) {
            const lk_scan_edge *e = &edges[k];
            if (e->yTop >= yb) break;
            if (e->yBottom > ya && !add_edge(&writer, e, swift_max(ya, e->yTop), swift_min(yb, e->yBottom), row_top, sign))
                status = LK_INVALID;
        }
    }
    close_writer(row, &writer);
    return status;
}

/* Zeroes the cells the row's bits mark, and the bits. */
static void clear_row(lk_cell_row *row) {
    for (int64_t w = row->first_word; w <= row->last_word; w++) {
        uint64_t bits = row->touched[w];
        row->touched[w] = 0;
        while (bits != 0) {
            row->cells[(w << 6) + __builtin_ctzll(bits)] = 0;
            bits &= bits - 1;
        }
    }
    row->first_word = INT64_MAX;
    row->last_word = -1;
}

/* lk_cell_row_add_bounds after its checks: 1, 0 (the row cleared) or −1 (an x not a number).
 * Without `tracks` (lk_sweep_rows, whose rows are the path's bounds, so that its chains mark
 * most of their words anyway) the row's range of words becomes all of them, and no mark
 * compares its words with the range. */
LK_INLINE int32_t add_bounds_from(lk_cell_row *row, const lk_scan_edge *edges, const lk_chain_piece *chains,
                                  lk_scan_chain *scan_chains, const int32_t *active, int32_t count, int32_t even_odd,
                                  double ya, double yb, double row_top, const int tracks) {
    cell_writer writer = open_writer(row, tracks);
    double winding = 0, previous_high = 0;
    int inside = 0, invalid = 0;
    for (int32_t i = 0; i < count; i++) {
        /* The chain's piece: given, or (scan_chains) its cursor moved to the band's top. */
        int64_t from, to;
        double chain_sign;
        if (scan_chains) {
            lk_scan_chain *c = &scan_chains[active[i]];
            int64_t k = c->cursor;
            while (edges[k].yBottom <= ya) k++;
            c->cursor = k;
            from = k, to = c->end, chain_sign = c->direction;
        } else {
            from = chains[i].first, to = chains[i].end, chain_sign = chains[i].sign;
        }
        const int was_inside = inside;
        if (even_odd) {
            inside = !inside;
        } else {
            winding += chain_sign;
            inside = winding != 0;
        }
        const double sign = inside != was_inside ? (inside ? 1 : -1) : 0;
        /* The chain's least and greatest x in the band, as RowSweep measures them: at the band's
         * top and at each edge's bottom. */
        double low = 0, high = 0;
        int first = 1;
        for (int64_t k = from; k < to; k++) {
            const lk_scan_edge *e = &edges[k];
            if (e->yTop >= yb) break;
            if (!(e->yBottom > ya)) continue;
            const double y0 = swift_max(ya, e->yTop);
            double y1 = swift_min(yb, e->yBottom);
            /* An opaque y1: clang otherwise pairs the two ends' arithmetic into vectors, and the
             * shuffles that takes cost more instructions than they save. */
            LK_OPAQUE(y1);
            const double xa = edge_x(e, y0), xb = edge_x(e, y1);
            if (first) {
                low = high = xa;
                first = 0;
            }
            if (xb < low) low = xb;
            if (xb > high) high = xb;
            if (sign != 0 && !add_line(&writer, xa, xb, y0 - row_top, y1 - row_top, sign)) invalid = 1;
        }
        /* Neighbours that may share an x in the band, or are out of order: not for this path. The
         * margin keeps RowSweep's sort keys (x at the band's middle, which may lie a few units in
         * the last place outside the range measured at the edges' ends) in this order too. */
        if (first || (i > 0 && !(previous_high + 1e-9 + 1e-12 * (__builtin_fabs(previous_high) + __builtin_fabs(low)) <= low))) {
            close_writer(row, &writer);
            clear_row(row);
            return 0;
        }
        previous_high = high;
    }
    close_writer(row, &writer);
    return invalid ? -1 : 1;
}

LK_INLINE int32_t add_bounds(lk_cell_row *row, const lk_scan_edge *edges, const lk_chain_piece *chains, int32_t count,
                             int32_t even_odd, double ya, double yb, double row_top, const int tracks) {
    return add_bounds_from(row, edges, chains, NULL, NULL, count, even_odd, ya, yb, row_top, tracks);
}

int32_t lk_cell_row_add_bounds(lk_cell_row *row, const lk_scan_edge *edges, const lk_chain_piece *chains, int32_t count,
                               int32_t even_odd, double ya, double yb, double row_top) {
    if (!valid_row(row) || count < 0 || (count > 0 && (!edges || !chains))) return -1;
    if (!(ya >= row_top && yb <= row_top + 1) || row->first_word <= row->last_word) return -1;
    for (int32_t i = 0; i < count; i++)
        if (chains[i].first < 0 || chains[i].end < chains[i].first) return -1;
    return add_bounds(row, edges, chains, count, even_odd, ya, yb, row_top, 1);
}

/* 8-bit coverage for an accumulated sum. Under even-odd a sum above 1 folds back (2 → 0), as
 * FreeType does. Rounded to the nearest integer by adding 1.5 · 2^52, whose unit in the last
 * place is 1, so that the integer lands in the low bits. */
LK_INLINE uint8_t level_of(double sum, int even_odd) {
    double c = __builtin_fabs(sum);
    if (c > 1) {
        if (even_odd) {
            /* c mod 2, exactly (as fmod): c / 2 and its truncation are exact, and so, by
             * Sterbenz's lemma, is the difference; from 2^53 on every double is even. */
            if (c >= 9007199254740992.0)
                c = c == __builtin_inf() ? c - c : 0;
            else
                c = c - 2 * (double)(int64_t)(c * 0.5);
            if (c > 1) c = 2 - c;
        } else {
            c = 1;
        }
    }
    const double t = c * 255 + 6755399441055744.0;
    uint64_t bits;
    memcpy(&bits, &t, sizeof bits);
    return (uint8_t)bits;
}

lk_status lk_cell_row_levels(lk_cell_row *row, int32_t even_odd, uint8_t *levels, lk_level_span *span) {
    if (!valid_row(row) || !levels || !span) return LK_INVALID;
    const int64_t width = row->width;
    span->lo = span->hi = (int32_t)width;
    span->tail = 0;
    if (row->first_word > row->last_word) return LK_OK;
    double *acc = row->cells;
    uint64_t *touched = row->touched;
    double sum = 0;
    /* The next pixel not yet written, and the first written. */
    int64_t x = -1, lo = width;
    uint8_t level = 0;
    for (int64_t w = row->first_word; w <= row->last_word; w++) {
        uint64_t bits = touched[w];
        if (bits == 0) continue;
        touched[w] = 0;
        const int64_t base = w << 6;
        do {
            const int64_t cell = base + __builtin_ctzll(bits);
            bits &= bits - 1;
            sum += acc[cell];
            acc[cell] = 0;
            if (cell >= width) continue;
            if (x < 0) {
                lo = x = cell;
            } else {
                /* The cells between touched ones received nothing: the level stays. */
                if (cell > x) memset(levels + x, level, (size_t)(cell - x));
            }
            level = level_of(sum, even_odd);
            levels[cell] = level;
            x = cell + 1;
        } while (bits != 0);
    }
    row->first_word = INT64_MAX;
    row->last_word = -1;
    if (x < 0) return LK_OK;
    span->lo = (int32_t)lo;
    span->hi = (int32_t)x;
    span->tail = x < width ? level : 0;
    return LK_OK;
}

/* ---- A solid color through a row's coverage ---- */

#if LK_X86
#include <emmintrin.h>
#endif

/* Each 8-bit channel of x times a (0 … 255) over 255, rounded as pixman rounds. */
LK_INLINE uint32_t mul_un8x4(uint32_t x, uint32_t a) { return lk_mul_un8x4(x, a); }

/* The table entry of coverage m (the table filled by lk_blend_table_fill). */
LK_INLINE uint64_t entry(const uint64_t *table, uint32_t m) { return table[m]; }

/* Whether a blend table's ends hold the color's entries (s = 0 at level 0, the color itself at
 * 255): a table not filled, or filled for another color, fails it (a cheap check, not a proof;
 * the callers fill the whole table with lk_blend_table_fill). */
LK_INLINE int table_holds(const uint64_t *table, uint32_t color) {
    return table[0] == (uint64_t)255 << 32 && table[255] == ((uint64_t)color | (uint64_t)(255 - (color >> 24)) << 32);
}

/* d · a + 128 in 16-bit lanes, times 257, high halves: d · a / 255 rounded as pixman rounds, for
 * every byte of d unpacked into a lane ((t · 257) >> 16 equals (t + (t >> 8)) >> 8 for every
 * t = d · a + 128, t < 65,153). */
#if LK_X86
LK_INLINE __m128i mul_un8_lanes(__m128i d16, __m128i a16) {
    return _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(d16, a16), _mm_set1_epi16(0x80)), _mm_set1_epi16(0x0101));
}
#endif

/* s over one pixel: s + d · inverse (a clear pixel, as in a fresh store, just takes s). In SSE2
 * the product is the four lanes' of mul_un8_lanes, a third of the scalar form's instructions. */
LK_INLINE void blend_pixel(uint32_t *p, uint64_t e) {
    const uint32_t s = (uint32_t)e, d = *p;
    if (d == 0) {
        *p = s;
        return;
    }
#if LK_X86
    const __m128i d16 = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)d), _mm_setzero_si128());
    const __m128i m = mul_un8_lanes(d16, _mm_set1_epi16((short)(e >> 32)));
    *p = s + (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(m, m));
#else
    *p = s + mul_un8x4(d, (uint32_t)(e >> 32));
#endif
}

lk_status lk_blend_table_fill(uint64_t *table, uint32_t color, lk_variant variant) {
    if (!table) return LK_INVALID;
    int m = 0;
#if LK_X86
    if (variant != LK_VARIANT_SCALAR) {
        /* Levels m … m + 3 a step: the color's channels in 16-bit lanes, twice, times levels m
         * and m + 1 in one register's four-lane halves and m + 2 and m + 3 in another's. */
        const __m128i zero = _mm_setzero_si128(), c4 = _mm_cvtsi32_si128((int)color);
        const __m128i c16 = _mm_unpacklo_epi64(_mm_unpacklo_epi8(c4, zero), _mm_unpacklo_epi8(c4, zero));
        const __m128i four = _mm_set1_epi16(4), full = _mm_set1_epi32(255);
        __m128i low = _mm_set_epi16(1, 1, 1, 1, 0, 0, 0, 0), high = _mm_set_epi16(3, 3, 3, 3, 2, 2, 2, 2);
        for (; m < 256; m += 4) {
            /* s for the four levels in the four 32-bit lanes, then 255 − alpha(s) beside each. */
            const __m128i s = _mm_packus_epi16(mul_un8_lanes(c16, low), mul_un8_lanes(c16, high));
            const __m128i inverse = _mm_sub_epi32(full, _mm_srli_epi32(s, 24));
            _mm_storeu_si128((__m128i *)(table + m), _mm_unpacklo_epi32(s, inverse));
            _mm_storeu_si128((__m128i *)(table + m + 2), _mm_unpackhi_epi32(s, inverse));
            low = _mm_add_epi16(low, four);
            high = _mm_add_epi16(high, four);
        }
    }
#else
    (void)variant;
#endif
    for (; m < 256; m++) {
        const uint32_t s = mul_un8x4(color, (uint32_t)m);
        table[m] = (uint64_t)s | (uint64_t)(255 - (s >> 24)) << 32;
    }
    return LK_OK;
}

/* s over `count` pixels. */
static void blend_run(uint32_t *p, int64_t count, uint64_t e) {
    const uint32_t s = (uint32_t)e, inverse = (uint32_t)(e >> 32);
    int64_t i = 0;
    if (inverse == 0) {
        for (; i < count; i++) p[i] = s;
        return;
    }
#if LK_X86
    const __m128i zero = _mm_setzero_si128(), s4 = _mm_set1_epi32((int32_t)s);
    const __m128i a16 = _mm_set1_epi16((short)inverse);
    for (; i + 4 <= count; i += 4) {
        const __m128i d = _mm_loadu_si128((const __m128i *)(p + i));
        /* Four clear pixels (a fill's inside, drawn first into a cleared store) take s. */
        if (lk_all_zero16(d)) {
            _mm_storeu_si128((__m128i *)(p + i), s4);
            continue;
        }
        const __m128i lo = mul_un8_lanes(_mm_unpacklo_epi8(d, zero), a16);
        const __m128i hi = mul_un8_lanes(_mm_unpackhi_epi8(d, zero), a16);
        /* 32-bit sums, as the scalar code adds. */
        _mm_storeu_si128((__m128i *)(p + i), _mm_add_epi32(s4, _mm_packus_epi16(lo, hi)));
    }
    /* The last one to three pixels one at a time in the same lanes. */
    for (; i < count; i++) {
        const __m128i m = mul_un8_lanes(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)p[i]), zero), a16);
        p[i] = s + (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(m, m));
    }
#else
    for (; i < count; i++) p[i] = s + mul_un8x4(p[i], inverse);
#endif
}

/* ---- A row's coverage added into an 8-bit mask ---- */

/* Coverage g over `count` mask bytes. */
static void cover_run(uint8_t *p, int64_t count, uint32_t g) {
    if (g == 255) {
        memset(p, 255, (size_t)count);
        return;
    }
    int64_t i = 0;
#if LK_X86
    const __m128i g8 = _mm_set1_epi8((char)g);
    for (; i + 16 <= count; i += 16)
        _mm_storeu_si128((__m128i *)(p + i), lk_coverage_over16(_mm_loadu_si128((const __m128i *)(p + i)), g8));
#endif
    for (; i < count; i++) p[i] = lk_coverage_over(p[i], g);
}

/* ---- A row read out ---- */

/* Where a row's read-out goes: pixels blended with a color's levels (dst, color, table), or
 * coverage added over a mask. */
typedef struct lk_row_sink {
    uint32_t *dst;
    uint32_t color;
    uint64_t *table;
    uint8_t *mask;
} lk_row_sink;

/* `count` pixels from x at one level. */
LK_INLINE void sink_run(const lk_row_sink *s, const int cover, int64_t x, int64_t count, uint32_t level) {
    if (cover) cover_run(s->mask + x, count, level);
    else blend_run(s->dst + x, count, entry(s->table, level));
}

/* Pixel x at its own level. */
LK_INLINE void sink_pixel(const lk_row_sink *s, const int cover, int64_t x, uint32_t level) {
    if (cover) s->mask[x] = lk_coverage_over(s->mask[x], level);
    else blend_pixel(s->dst + x, entry(s->table, level));
}

/* Reads a row's cells out into the sink and clears them, for one rule and one sink (constants,
 * so that each gets its own loop): runs between touched cells take the level of the sum so far,
 * a touched cell its own. */
LK_INLINE void read_row(lk_cell_row *row, const int even_odd, const int cover, const lk_row_sink *sink) {
    const int64_t width = row->width;
    double *acc = row->cells;
    uint64_t *touched = row->touched;
    double sum = 0;
    /* The next pixel not yet written, and the coverage since the last cell read. */
    int64_t x = 0;
    uint32_t level = 0;
    for (int64_t w = row->first_word; w <= row->last_word; w++) {
        uint64_t bits = touched[w];
        if (bits == 0) continue;
        touched[w] = 0;
        const int64_t base = w << 6;
        do {
            const int64_t cell = base + __builtin_ctzll(bits);
            bits &= bits - 1;
            if (cell > x && x < width) {
                const int64_t end = cell < width ? cell : width;
                if (level != 0) sink_run(sink, cover, x, end - x, level);
                x = end;
            }
            sum += acc[cell];
            acc[cell] = 0;
            if (cell >= width) continue;
            level = level_of(sum, even_odd);
            if (level != 0) sink_pixel(sink, cover, cell, level);
            x = cell + 1;
        } while (bits != 0);
    }
    row->first_word = INT64_MAX;
    row->last_word = -1;
    if (x < width && level != 0) sink_run(sink, cover, x, width - x, level);
}

lk_status lk_cell_row_blend(lk_cell_row *row, int32_t even_odd, uint32_t *dst, uint32_t color, uint64_t *table) {
    if (!valid_row(row) || !dst || !table || !table_holds(table, color)) return LK_INVALID;
    if (row->first_word > row->last_word) return LK_OK;
    const lk_row_sink sink = {dst, color, table, NULL};
    if (even_odd)
        read_row(row, 1, 0, &sink);
    else
        read_row(row, 0, 0, &sink);
    return LK_OK;
}

lk_status lk_cell_row_cover(lk_cell_row *row, int32_t even_odd, uint8_t *mask) {
    if (!valid_row(row) || !mask) return LK_INVALID;
    if (row->first_word > row->last_word) return LK_OK;
    const lk_row_sink sink = {NULL, 0, NULL, mask};
    if (even_odd)
        read_row(row, 1, 1, &sink);
    else
        read_row(row, 0, 1, &sink);
    return LK_OK;
}

/* ---- Rows of a sweep, from chains to pixels ---- */

LK_INLINE int32_t sweep_rows(lk_sweep *sweep, lk_cell_row *row, const int even_odd, int64_t *row_index, int64_t end,
                             const lk_sweep_target *target, const int cover);

#define LK_SWEEP_ROWS(name, even_odd, cover)                                                                        \
    static __attribute__((noinline)) int32_t name(lk_sweep *sweep, lk_cell_row *row, int64_t *row_index, int64_t end, \
                                                  const lk_sweep_target *target) {                                 \
        return sweep_rows(sweep, row, even_odd, row_index, end, target, cover);                                    \
    }
LK_SWEEP_ROWS(sweep_rows_blend_nz, 0, 0)
LK_SWEEP_ROWS(sweep_rows_blend_eo, 1, 0)
LK_SWEEP_ROWS(sweep_rows_cover_nz, 0, 1)
LK_SWEEP_ROWS(sweep_rows_cover_eo, 1, 1)

int32_t lk_sweep_rows(lk_sweep *sweep, lk_cell_row *row, int32_t even_odd, int64_t *row_index, int64_t end,
                      const lk_sweep_target *target) {
    if (!sweep || !valid_row(row) || !row_index || !target || row->first_word <= row->last_word) return -1;
    if (sweep->chain_count < 0 || sweep->edge_count < 0 || sweep->next < 0 || sweep->next > sweep->chain_count ||
        sweep->active_count < 0 || sweep->active_count > sweep->next || sweep->maximum_chains < 0 ||
        sweep->maximum_chains > INT32_MAX)
        return -1;
    if (sweep->chain_count > 0 && (!sweep->edges || !sweep->chains || !sweep->order || !sweep->active || !sweep->pieces))
        return -1;
    const int cover = target->mask != NULL;
    if (!cover && (!target->pixels || !target->table || !table_holds(target->table, target->color))) return -1;
    if (cover) return even_odd ? sweep_rows_cover_eo(sweep, row, row_index, end, target)
                               : sweep_rows_cover_nz(sweep, row, row_index, end, target);
    return even_odd ? sweep_rows_blend_eo(sweep, row, row_index, end, target)
                    : sweep_rows_blend_nz(sweep, row, row_index, end, target);
}

/* lk_sweep_rows after its checks, for one rule and one target (constants, so that each gets a
 * function of its own, whose registers no other rule's or target's code shares). */
LK_INLINE int32_t sweep_rows(lk_sweep *sweep, lk_cell_row *row, const int even_odd, int64_t *row_index, int64_t end,
                             const lk_sweep_target *target_pointer, const int cover) {
    /* The target's fields in a local that no store into the pixels can reach (they might alias
     * *target_pointer), so that rows do not read them again. */
    const lk_sweep_target target_copy = *target_pointer, *const target = &target_copy;
    const lk_scan_edge *const edges = sweep->edges;
    lk_scan_chain *const chains = sweep->chains;
    const int32_t *const order = sweep->order;
    int32_t *const active = sweep->active;
    lk_chain_piece *const pieces = sweep->pieces;
    const int64_t chain_count = sweep->chain_count;
    int64_t next = sweep->next, active_count = sweep->active_count;
    int32_t result = 0;
    int64_t r = *row_index;
    /* The least bottom of the active chains, as of the last row that admitted or dropped chains
     * (−∞ before the first): a row above it that admits none is crossed whole by every active
     * chain, so it needs no admitting, dropping or checking for cuts, only the cursors moved. */
    double least_bottom = -__builtin_inf();
    for (; r < end; r++) {
        const double top = (double)r, bottom = top + 1;
        if (bottom <= least_bottom && !(next < chain_count && chains[order[next]].yTop < bottom)) {
            if (active_count == 0) continue;
            /* The cursors are moved as the chains are added. */
            if (add_bounds_from(row, edges, NULL, chains, active, (int32_t)active_count, even_odd, top, bottom, top, 0) == 0) {
                result = 2;
                goto done;
            }
            goto read;
        }
        while (next < chain_count && chains[order[next]].yTop < bottom) {
            const lk_scan_chain *c = &chains[order[next]];
            if (c->first < 0 || c->end > sweep->edge_count || c->first >= c->end || c->cursor < c->first ||
                c->cursor >= c->end) {
                result = -1;
                goto done;
            }
            active[active_count++] = order[next++];
        }
        /* Drop the chains that ended, move the others' cursors to this row, and see whether any
         * begins or ends inside it. */
        int64_t kept = 0;
        int cut = 0;
        least_bottom = __builtin_inf();
        for (int64_t i = 0; i < active_count; i++) {
            lk_scan_chain *c = &chains[active[i]];
            if (!(c->yBottom > top)) continue;
            if (c->yBottom < least_bottom) least_bottom = c->yBottom;
            int64_t k = c->cursor;
            while (edges[k].yBottom <= top) k++;
            c->cursor = k;
            if (c->yTop > top || c->yBottom < bottom) cut = 1;
            /* The chain's piece for add_bounds, while it is at hand (unused if the row is cut). */
            pieces[kept].first = k;
            pieces[kept].end = c->end;
            pieces[kept].sign = c->direction;
            active[kept++] = active[i];
        }
        active_count = kept;
        if (active_count == 0) continue;
        if (cut || active_count > sweep->maximum_chains) {
            result = 1;
            goto done;
        }
        /* (An edge whose x is not a number, which the scan's edges never have, adds nothing.) */
        if (add_bounds(row, edges, pieces, (int32_t)active_count, even_odd, top, bottom, top, 0) == 0) {
            result = 2;
            goto done;
        }
    read:
        if (cover) {
            const lk_row_sink s = {NULL, 0, NULL, target->mask + r * target->mask_stride};
            read_row(row, even_odd, 1, &s);
        } else {
            const lk_row_sink s = {target->pixels + r * target->pixels_per_row, target->color, target->table, NULL};
            read_row(row, even_odd, 0, &s);
        }
    }
done:
    sweep->next = next;
    sweep->active_count = active_count;
    *row_index = r;
    return result;
}
