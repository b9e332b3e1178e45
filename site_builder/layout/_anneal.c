/* The optimizer's inner loop in C: `optimize.run_box`, step for step.
 *
 * `optimize.Search` (Python) is the reference: this file does the same
 * large-neighbourhood search with the same random draws, the same order of
 * spots and the same floating-point sums, so both give the same layout for
 * the same input (tests/test_anneal.py holds them equal). Only the speed
 * differs: about 80 times faster (tools/bench_engine.py), which the
 * optimizer spends on more steps.
 *
 * The board is a window of side x side cells with an empty border one cell
 * wide (W = side + 2 cells a row), as in `board.Board`: a cell is
 * row * W + col, rows and columns 1..side. Letters are small codes (1..255),
 * 0 for an empty cell; owner[d][cell] is the word of direction d through a
 * cell, or -1.
 *
 * Spots are found from the letters already on the board: for each position
 * of the word, each cell holding that letter and not yet in a word of the
 * direction tried (a list per direction and letter) gives one candidate
 * start, checked by the rules of `grid.Grid.check`, and kept once (a stamp per
 * start). Where a row or column fits in 64 bits (window side <= 62), the
 * check works on a bit per cell of the word's line (which cells hold a letter,
 * which a word of the direction); otherwise cell by cell. Both keep the same
 * spots, and the spots are sorted, so the order candidates come in is free.
 *
 * Build flags: -ffp-contract=off, so that no multiply-add is fused and every
 * sum rounds as Python's does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ rng */
/* SplitMix64, as rng.Rng */

typedef struct {
    uint64_t state;
} Rng;

static uint64_t next64(Rng *r)
{
    r->state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = r->state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double rnd(Rng *r) { return (double)(next64(r) >> 11) / 9007199254740992.0; }

static uint64_t below(Rng *r, uint64_t n)
{
    for (;;) {
        uint64_t x = next64(r);
        if (x <= UINT64_MAX - n) /* below 2**64 - n, so below 2**64 - (2**64 mod n): taken */
            return x % n;
        uint64_t rem = (UINT64_MAX % n + 1) % n; /* 2**64 mod n */
        if (rem == 0 || x < (uint64_t)0 - rem)
            return x % n;
    }
}

static void shuffle(Rng *r, int *items, int len)
{
    for (int i = len - 1; i > 0; i--) {
        int j = (int)below(r, (uint64_t)i + 1);
        int t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* ------------------------------------------------------------- settings */

typedef struct {
    double letter_weight, required_weight, noise_unit, growth, jitter, leaf_moves, overflow_start, overflow_end, compact;
    int random_min, random_span, retry_cap, margin, soft;
} Settings;

/* --------------------------------------------------------------- search */

typedef struct {
    int put, wid, start, d;
} LogEntry;

typedef struct {
    int cross, start, d;
} Spot;

typedef struct {
    int cell;
    uint16_t r, c; /* its row and column */
} FreeCell;

typedef struct {
    int required;
    double key; /* length plus a seeded jitter */
    int id;
} Order;

typedef struct {
    /* words */
    int nwords;
    int *len;
    unsigned char **code;
    int *required;
    /* board */
    int side, W, cells, cap, box; /* window side, size cap of a step, the box a result must fit */
    unsigned char *letters;
    int *owner[2];
    int *rowcnt, *colcnt;
    /* the cells holding each letter code that no word of direction d holds yet (the cells a word of
       direction d may cross): free[d][base[code] + i], i < nfree[d][code]; fat[d][cell] is the cell's
       index in its list, or -1 when the cell is in none. A code's list has room for every letter of
       that code in the words (each word is on the board at most once). */
    int ncodes;
    int *base, *nfree[2], *fat[2];
    FreeCell *free_[2];
    int *rowof, *colof; /* row and column of each cell */
    /* When a line of the window fits in 64 bits (W <= 64), a bit per cell of each line for direction d
       (rows for 0, columns for 1; bit = the cell's column or row): occ[d][line], the cells holding a
       letter; own[d][line], the cells a word of direction d holds. */
    int masks;
    uint64_t *occ[2], *own[2];
    int *pos, *dir; /* start cell and direction of each word, pos -1 when off the board */
    int occupied, nplaced;
    /* search */
    int total, req, floor;
    int origin_r, origin_c; /* grid row/col of window row/col 0 */
    Rng rng;
    Settings set;
    LogEntry *log;
    int nlog, caplog;
    Spot *spots;
    int *stamp[2];
    int gen;
    /* scratch, nwords each */
    int *scratch_a, *scratch_b, *scratch_c, *uf, *cells_of, *low_of;
    Order *order; /* repair's insertion order, 2 * nwords */
} Search;

static int step_of(const Search *s, int d) { return d ? s->W : 1; }

/* Take `cell` out of free[d] if it is there; its letter must still be on the board. */
static inline void free_out(Search *s, int d, int cell)
{
    int i = s->fat[d][cell];
    if (i < 0)
        return;
    int L = s->letters[cell];
    FreeCell *list = s->free_[d] + s->base[L];
    FreeCell last = list[--s->nfree[d][L]];
    list[i] = last; /* the list's last cell takes this one's place */
    s->fat[d][last.cell] = i;
    s->fat[d][cell] = -1;
}

/* Put `cell` (at row r, column c) in or out of free[d] as it now does or does not hold a letter no word
   of direction d holds. */
static inline void free_sync(Search *s, int d, int cell, int r, int c)
{
    if (!s->letters[cell] || s->owner[d][cell] != -1) {
        free_out(s, d, cell);
    } else if (s->fat[d][cell] < 0) {
        int L = s->letters[cell], i = s->nfree[d][L]++;
        s->free_[d][s->base[L] + i] = (FreeCell){cell, (uint16_t)r, (uint16_t)c};
        s->fat[d][cell] = i;
    }
}

/* Set (on) or clear the bits of `cell` (row r, column c) in the masks: occ in both directions when
   `letter`, own[d] always. */
static inline void masks_put(Search *s, int d, int r, int c, int letter, int on)
{
    uint64_t rbit = (uint64_t)1 << r, cbit = (uint64_t)1 << c;
    uint64_t *own = &s->own[d][d ? c : r], obit = d ? rbit : cbit;
    if (on) {
        *own |= obit;
        if (letter) {
            s->occ[0][r] |= cbit;
            s->occ[1][c] |= rbit;
        }
    } else {
        *own &= ~obit;
        if (letter) {
            s->occ[0][r] &= ~cbit;
            s->occ[1][c] &= ~rbit;
        }
    }
}

static void board_place(Search *s, int w, int start, int d)
{
    int step = step_of(s, d), n = s->len[w];
    const unsigned char *code = s->code[w];
    int cell = start, r = s->rowof[start], c = s->colof[start];
    for (int j = 0; j < n; j++, cell += step, r += d, c += 1 - d) {
        int fresh = !s->letters[cell];
        if (fresh) {
            s->letters[cell] = code[j];
            s->occupied++;
            s->rowcnt[r]++;
            s->colcnt[c]++;
        }
        s->owner[d][cell] = w;
        /* a new letter joins free[1 - d]; an old one leaves free[d]; nothing else changes */
        free_sync(s, fresh ? 1 - d : d, cell, r, c);
        if (s->masks)
            masks_put(s, d, r, c, fresh, 1);
    }
    s->pos[w] = start;
    s->dir[w] = d;
    s->nplaced++;
}

static void board_remove(Search *s, int w)
{
    int d = s->dir[w], step = step_of(s, d), n = s->len[w];
    int *other = s->owner[1 - d];
    int cell = s->pos[w], r = s->rowof[cell], c = s->colof[cell];
    for (int j = 0; j < n; j++, cell += step, r += d, c += 1 - d) {
        s->owner[d][cell] = -1;
        int gone = other[cell] == -1;
        if (gone) {
            free_out(s, 0, cell);
            free_out(s, 1, cell);
            s->letters[cell] = 0;
            s->occupied--;
            s->rowcnt[r]--;
            s->colcnt[c]--;
        } else {
            free_sync(s, d, cell, r, c);
        }
        if (s->masks)
            masks_put(s, d, r, c, gone, 0);
    }
    s->pos[w] = -1;
    s->nplaced--;
}

static int log_push(Search *s, int put, int w, int start, int d)
{
    if (s->nlog == s->caplog) {
        int cap = s->caplog * 2;
        LogEntry *grown = realloc(s->log, sizeof(LogEntry) * cap);
        if (!grown)
            return -1;
        s->log = grown;
        s->caplog = cap;
    }
    s->log[s->nlog++] = (LogEntry){put, w, start, d};
    return 0;
}

static int put(Search *s, int w, int start, int d)
{
    if (log_push(s, 1, w, start, d))
        return -1;
    board_place(s, w, start, d);
    s->total += s->len[w];
    s->req += s->required[w];
    return 0;
}

static int take(Search *s, int w)
{
    if (log_push(s, 0, w, s->pos[w], s->dir[w]))
        return -1;
    board_remove(s, w);
    s->total -= s->len[w];
    s->req -= s->required[w];
    return 0;
}

static void undo(Search *s)
{
    while (s->nlog) {
        LogEntry e = s->log[--s->nlog];
        if (e.put) {
            board_remove(s, e.wid);
            s->total -= s->len[e.wid];
            s->req -= s->required[e.wid];
        } else {
            board_place(s, e.wid, e.start, e.d);
            s->total += s->len[e.wid];
            s->req += s->required[e.wid];
        }
    }
}

/* (min row, min col, max row, max col) of the letters, in cell rows/cols; the board must not be empty */
static void bounds(const Search *s, int *r0, int *c0, int *r1, int *c1)
{
    int W = s->W, a = 0, b = W - 1;
    while (!s->rowcnt[a])
        a++;
    while (!s->rowcnt[b])
        b--;
    *r0 = a;
    *r1 = b;
    a = 0;
    b = W - 1;
    while (!s->colcnt[a])
        a++;
    while (!s->colcnt[b])
        b--;
    *c0 = a;
    *c1 = b;
}

static int crossings(const Search *s) { return s->total - s->occupied; }

/* required answers, letters and crossings, less `charge` per row and column past the box and
   `compact` per row and column of the letters' bounding box (the same sums as `Search.score`) */
static double score(const Search *s, double charge)
{
    double score = s->set.required_weight * s->req + s->set.letter_weight * s->total + crossings(s);
    if (charge != 0.0 || s->set.compact != 0.0) {
        long rows = 0, cols = 0;
        if (s->occupied) {
            int r0, c0, r1, c1;
            bounds(s, &r0, &c0, &r1, &c1);
            rows = r1 - r0 + 1;
            cols = c1 - c0 + 1;
        }
        long over = (rows > s->box ? rows - s->box : 0) + (cols > s->box ? cols - s->box : 0);
        score -= charge * over + s->set.compact * (double)(rows + cols);
    }
    return score;
}

typedef struct {
    long v[5];
} Key;

static Key key_of(const Search *s)
{
    long rows = 0, cols = 0;
    if (s->occupied) {
        int r0, c0, r1, c1;
        bounds(s, &r0, &c0, &r1, &c1);
        rows = r1 - r0 + 1;
        cols = c1 - c0 + 1;
    }
    Key k = {{s->req, s->total, crossings(s), -(rows * cols), -(rows > cols ? rows : cols)}};
    return k;
}

static int key_cmp(const Key *a, const Key *b, int upto)
{
    for (int i = 0; i < upto; i++)
        if (a->v[i] != b->v[i])
            return a->v[i] < b->v[i] ? -1 : 1;
    return 0;
}

/* ---------------------------------------------------------------- rules */

static int spot_cmp(const void *pa, const void *pb)
{
    const Spot *a = pa, *b = pb;
    if (a->cross != b->cross)
        return a->cross < b->cross ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->d - b->d;
}

/* Small arrays are sorted by insertion, larger ones by qsort: every key sorted here is unique (spots by
   start and direction, words by id), so both give the one sorted order. */
#define SMALL_SORT 16
#define INSERTION_SORT(type, a, n, cmp)                                                                     \
    for (int i_ = 1; i_ < (n); i_++) {                                                                    \
        type x_ = (a)[i_];                                                                                \
        int j_ = i_;                                                                                      \
        for (; j_ > 0 && cmp(&(a)[j_ - 1], &x_) > 0; j_--)                                                \
            (a)[j_] = (a)[j_ - 1];                                                                        \
        (a)[j_] = x_;                                                                                     \
    }

static void sort_spots(Spot *a, int n)
{
    if (n > SMALL_SORT)
        qsort(a, n, sizeof(Spot), spot_cmp);
    else
        INSERTION_SORT(Spot, a, n, spot_cmp)
}

/* Whether a listed cell's row or column falls outside [rlo, rlo + rspan] x [clo, clo + cspan] (unsigned:
   one comparison a bound); 0 or 1, so that the caller may join it to other tests without a branch. */
static inline int off_range(const FreeCell *f, unsigned rlo, unsigned rspan, unsigned clo, unsigned cspan)
{
    return ((unsigned)f->r - rlo > rspan) | ((unsigned)f->c - clo > cspan);
}

/* Every valid spot for word w, sorted by (crossings, start, direction), as `Board.spots`;
   box[4] receives the letters' bounds (see `bounds`) for the caller. The board must not be empty. */
static int find_spots(Search *s, int w, int box[4])
{
    int n = s->len[w], cap = s->cap, side = s->side, W = s->W;
    const unsigned char *code = s->code[w];
    bounds(s, &box[0], &box[1], &box[2], &box[3]);
    if (n > cap)
        return 0;
    int r0 = box[0], c0 = box[1], r1 = box[2], c1 = box[3];
    /* starts that keep the letters' box within cap x cap, and the word inside the window:
       [d][0..3] = row lo, row hi, col lo, col hi */
    int lim[2][4] = {
        {r1 - cap + 1, r0 + cap - 1, c1 - cap + 1, c0 + cap - n},
        {r1 - cap + 1, r0 + cap - n, c1 - cap + 1, c0 + cap - 1},
    };
    int hi_row[2] = {side, side - n + 1}, hi_col[2] = {side - n + 1, side};
    for (int d = 0; d < 2; d++) {
        if (lim[d][0] < 1) lim[d][0] = 1;
        if (lim[d][2] < 1) lim[d][2] = 1;
        if (lim[d][1] > hi_row[d]) lim[d][1] = hi_row[d];
        if (lim[d][3] > hi_col[d]) lim[d][3] = hi_col[d];
    }
    if (++s->gen == INT32_MAX) {
        memset(s->stamp[0], 0, sizeof(int) * s->cells);
        memset(s->stamp[1], 0, sizeof(int) * s->cells);
        s->gen = 1;
    }
    int gen = s->gen, count = 0;
    const unsigned char *letters = s->letters;
    /* the order candidates come in does not matter: the spots are sorted */
    for (int d = 0; d < 2; d++) {
        if (lim[d][1] < lim[d][0] || lim[d][3] < lim[d][2])
            continue; /* no start in range */
        int step = d ? W : 1, perp = d ? 1 : W;
        const int *owner = s->owner[d], *nfree = s->nfree[d];
        int *stamp = s->stamp[d];
        for (int j = 0; j < n; j++) {
            /* the start is j cells back: its row and column within lim[d], as unsigned ranges on the cell's */
            unsigned rlo = (unsigned)(lim[d][0] + (d ? j : 0)), rspan = (unsigned)(lim[d][1] - lim[d][0]);
            unsigned clo = (unsigned)(lim[d][2] + (d ? 0 : j)), cspan = (unsigned)(lim[d][3] - lim[d][2]);
            const FreeCell *list = s->free_[d] + s->base[code[j]];
            int m = nfree[code[j]];
            if (s->masks) {
                /* the same rules on the line's bits: no blocked cell under the word, no letter just
                   before or after it, and the letters under it (crossable, as not blocked) the word's */
                const uint64_t *occ = s->occ[d], *own = s->own[d];
                uint64_t run = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1; /* (a shift by 64 is undefined) */
                for (int i = 0; i < m; i++) {
                    int cell = list[i].cell, r = list[i].r, c = list[i].c;
                    /* one test for all: the start's range, then (meaningful only within it) the bits;
                       line is a row or column of the window's inside either way */
                    int outside = off_range(&list[i], rlo, rspan, clo, cspan);
                    int line = d ? c : r, first = (d ? r : c) - j; /* the word's cells: bits first..first+n-1 */
                    uint64_t under = run << (first & 63), here = occ[line];
                    /* blocked: a letter a word of direction d holds, or an empty cell with a letter beside it */
                    uint64_t blocked = (here & own[line]) | (~here & (occ[line - 1] | occ[line + 1]));
                    if (outside | ((blocked & under) != 0) | ((here & ((under << 1) | (under >> 1)) & ~under) != 0))
                        continue;
                    int start = cell - j * step, cross = 0, ok = 1;
                    for (uint64_t held = here & under; held; held &= held - 1) {
                        int k = __builtin_ctzll(held) - first;
                        if (letters[start + k * step] != code[k]) {
                            ok = 0;
                            break;
                        }
                        cross++;
                    }
                    if (!ok || cross == n || stamp[start] == gen)
                        continue;
                    stamp[start] = gen;
                    s->spots[count++] = (Spot){cross, start, d};
                }
                continue;
            }
            for (int i = 0; i < m; i++) {
                int cell = list[i].cell;
                if (off_range(&list[i], rlo, rspan, clo, cspan))
                    continue;
                int start = cell - j * step;
                if (stamp[start] == gen)
                    continue;
                stamp[start] = gen;
                if (letters[start - step] || letters[start + n * step])
                    continue;
                int cross = 0, ok = 1, at = start;
                for (int k = 0; k < n; k++, at += step) {
                    unsigned char here = letters[at];
                    if (here) {
                        if (here != code[k] || owner[at] != -1) {
                            ok = 0;
                            break;
                        }
                        cross++;
                    } else if (letters[at - perp] || letters[at + perp]) {
                        ok = 0;
                        break;
                    }
                }
                if (ok && cross < n)
                    s->spots[count++] = (Spot){cross, start, d};
            }
        }
    }
    sort_spots(s->spots, count);
    return count;
}

static int crossings_of(const Search *s, int w)
{
    int d = s->dir[w], step = step_of(s, d), cell = s->pos[w], out = 0;
    const int *other = s->owner[1 - d];
    for (int j = 0; j < s->len[w]; j++, cell += step)
        out += other[cell] != -1;
    return out;
}

/* --------------------------------------------------------------- repair */

/* 1 placed, 0 no spot, -1 error */
static int insert(Search *s, int w)
{
    int n = s->len[w];
    if (n > s->box)
        return 0; /* longer than the box: it may never be in a result, so never in a step's layout */
    if (!s->nplaced) { /* n <= box <= cap: the first word always fits */
        int side = s->side;
        return put(s, w, (side / 2 + 1) * s->W + (side - n) / 2 + 1, 0) ? -1 : 1;
    }
    int box[4];
    int count = find_spots(s, w, box);
    if (!count)
        return 0;
    int r0 = box[0], c0 = box[1], r1 = box[2], c1 = box[3], W = s->W;
    double best_score = -INFINITY;
    int best = 0;
    uint64_t bits = 0;
    for (int k = 0; k < count; k++) {
        if (!(k & 7))
            bits = next64(&s->rng);
        const Spot *p = &s->spots[k];
        int sr = p->start / W, sc = p->start % W;
        int er = p->d ? sr + n - 1 : sr, ec = p->d ? sc : sc + n - 1;
        int grow = (r0 > sr ? r0 - sr : 0) + (er > r1 ? er - r1 : 0) + (c0 > sc ? c0 - sc : 0) + (ec > c1 ? ec - c1 : 0);
        double v = (double)p->cross + s->set.noise_unit * (double)(bits & 255) - s->set.growth * (double)grow;
        bits >>= 8;
        if (v > best_score) {
            best_score = v;
            best = k;
        }
    }
    return put(s, w, s->spots[best].start, s->spots[best].d) ? -1 : 1;
}

/* required first, then the longer (jittered) length, then the lower id: `Search.insert_order` */
static int order_cmp(const void *pa, const void *pb)
{
    const Order *a = pa, *b = pb;
    if (a->required != b->required)
        return a->required > b->required ? -1 : 1;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    return a->id < b->id ? -1 : (a->id > b->id);
}

static void sort_orders(Order *a, int n)
{
    if (n > SMALL_SORT)
        qsort(a, n, sizeof(Order), order_cmp);
    else
        INSERTION_SORT(Order, a, n, order_cmp)
}

/* Insert the words of `pending` (ascending ids) that fit: required first, then longest with a jitter.
   `pending` is reordered in place. Returns 0, or -1 on error. */
static int repair(Search *s, int *pending, int np)
{
    Order *order = s->order;
    for (int i = 0; i < np; i++) {
        int w = pending[i];
        order[i] = (Order){s->required[w], (double)s->len[w] + rnd(&s->rng) * s->set.jitter, w};
    }
    sort_orders(order, np);
    for (int i = 0; i < np; i++)
        pending[i] = order[i].id;
    int *left = s->scratch_c;
    for (int pass = 0; pass < 2; pass++) {
        int nleft = 0;
        for (int i = 0; i < np; i++) {
            int r = insert(s, pending[i]);
            if (r < 0)
                return -1;
            if (!r)
                left[nleft++] = pending[i];
        }
        if (!nleft || nleft == np)
            break;
        memcpy(pending, left, sizeof(int) * nleft);
        np = nleft;
    }
    return 0;
}

/* -------------------------------------------------------------- destroy */

static int uf_find(int *uf, int x)
{
    while (uf[x] != x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

/* Words outside the largest connected piece (by cells; ties to the piece with the lowest cell), ascending.
   The pieces come from the crossings alone (each joins an across word and a down word, so the across
   words' cells find them all); which word ends up a piece's root does not matter, as no two pieces
   share their lowest cell. Uses scratch_c. */
static int stranded(Search *s, int *out)
{
    if (s->nplaced <= 1)
        return 0;
    int nw = s->nwords, *uf = s->uf, *cells = s->cells_of, *low = s->low_of, *own = s->scratch_c;
    const int *down = s->owner[1];
    for (int w = 0; w < nw; w++)
        uf[w] = w;
    for (int w = 0; w < nw; w++) {
        if (s->pos[w] < 0)
            continue;
        own[w] = s->len[w];
        if (s->dir[w])
            continue;
        int cell = s->pos[w], root = uf_find(uf, w);
        for (int j = 0; j < s->len[w]; j++, cell++) {
            int other = down[cell];
            if (other != -1) {
                own[w]--; /* a crossing cell counts once: for its down word */
                int b = uf_find(uf, other);
                if (b != root)
                    uf[b] = root; /* w's root stays its root */
            }
        }
    }
    int pieces = 0;
    for (int w = 0; w < nw; w++) {
        if (s->pos[w] < 0)
            continue;
        int root = uf_find(uf, w);
        uf[w] = root;
        if (root == w)
            pieces++;
    }
    if (pieces <= 1)
        return 0;
    for (int w = 0; w < nw; w++) {
        cells[w] = 0;
        low[w] = INT32_MAX;
    }
    for (int w = 0; w < nw; w++) {
        if (s->pos[w] < 0)
            continue;
        int root = uf[w];
        cells[root] += own[w];
        if (s->pos[w] < low[root])
            low[root] = s->pos[w];
    }
    int main = -1;
    for (int w = 0; w < nw; w++) {
        if (s->pos[w] < 0 || uf[w] != w)
            continue;
        if (main < 0 || cells[w] > cells[main] || (cells[w] == cells[main] && low[w] < low[main]))
            main = w;
    }
    int k = 0;
    for (int w = 0; w < nw; w++)
        if (s->pos[w] >= 0 && uf[w] != main)
            out[k++] = w;
    return k;
}

static int int_cmp(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}

static void sort_ints(int *a, int n)
{
    if (n > SMALL_SORT)
        qsort(a, n, sizeof(int), int_cmp);
    else
        INSERTION_SORT(int, a, n, int_cmp)
}

static int pick_leaves(Search *s, int *out)
{
    int k = 0;
    for (int w = 0; w < s->nwords; w++)
        if (s->pos[w] >= 0 && crossings_of(s, w) <= 1)
            out[k++] = w;
    shuffle(&s->rng, out, k);
    int take_n = 2 + (int)below(&s->rng, 5);
    if (take_n > k)
        take_n = k;
    sort_ints(out, take_n);
    return take_n;
}

static int pick_random(Search *s, int *out)
{
    int k = 0;
    for (int w = 0; w < s->nwords; w++)
        if (s->pos[w] >= 0)
            out[k++] = w;
    shuffle(&s->rng, out, k);
    int take_n = s->set.random_min + (int)below(&s->rng, (uint64_t)s->set.random_span);
    if (take_n > k)
        take_n = k;
    sort_ints(out, take_n);
    return take_n;
}

/* Whether a word taken out this step left two letters side by side that no one word holds. */
static int strays(const Search *s)
{
    for (int i = 0; i < s->nlog; i++) {
        const LogEntry *e = &s->log[i];
        if (e->put)
            continue;
        int step = step_of(s, e->d), cell = e->start;
        const int *own = s->owner[e->d];
        for (int j = 0; j < s->len[e->wid] - 1; j++, cell += step) {
            int nxt = cell + step;
            if (s->letters[cell] && s->letters[nxt]) {
                int held = own[cell];
                if (held == -1 || held != own[nxt])
                    return 1;
            }
        }
    }
    return 0;
}

/* ----------------------------------------------------------------- step */

static int step(Search *s, double temperature, double charge)
{
    int nw = s->nwords;
    double before = score(s, charge);
    s->nlog = 0;
    int *victims = s->scratch_a, *pending = s->scratch_b;
    int nv = rnd(&s->rng) < s->set.leaf_moves ? pick_leaves(s, victims) : pick_random(s, victims);
    int np = 0;
    for (int w = 0; w < nw; w++)
        if (s->pos[w] < 0)
            pending[np++] = w;
    if (np > s->set.retry_cap) {
        shuffle(&s->rng, pending, np);
        np = s->set.retry_cap;
    }
    /* The board is one piece between steps. Taking out words that each crossed at most one other
       cannot cut it (a path through a word enters and leaves by two crossings), so the union-find
       is needed only when a victim crossed two or more. */
    int cuts = 0;
    for (int i = 0; i < nv && !cuts; i++)
        cuts = crossings_of(s, victims[i]) >= 2;
    for (int i = 0; i < nv; i++)
        if (take(s, victims[i]))
            return -1;
    for (int i = 0; i < nv; i++)
        pending[np++] = victims[i];
    int ns = cuts ? stranded(s, victims) : 0; /* the victims are in pending now: reuse their array */
    for (int i = 0; i < ns; i++) {
        if (take(s, victims[i]))
            return -1;
        pending[np++] = victims[i];
    }
    sort_ints(pending, np);
    if (repair(s, pending, np))
        return -1;
    if (strays(s) || s->nplaced < s->floor) {
        undo(s);
        return 0;
    }
    double delta = score(s, charge) - before;
    if (delta >= 0 || rnd(&s->rng) < exp(delta / temperature))
        return 0;
    undo(s);
    return 0;
}

/* Move the words to the middle of the window when they reach its edge. */
static void recenter(Search *s)
{
    if (!s->nplaced)
        return;
    int r0, c0, r1, c1, side = s->side, W = s->W;
    bounds(s, &r0, &c0, &r1, &c1);
    if (r0 > 1 && c0 > 1 && r1 < side && c1 < side)
        return;
    int dr = r0 - 1 - (side - (r1 - r0 + 1)) / 2;
    int dc = c0 - 1 - (side - (c1 - c0 + 1)) / 2;
    int nw = s->nwords, *starts = s->scratch_a;
    for (int w = 0; w < nw; w++) {
        starts[w] = s->pos[w];
        if (s->pos[w] >= 0)
            board_remove(s, w);
    }
    for (int w = 0; w < nw; w++)
        if (starts[w] >= 0)
            board_place(s, w, starts[w] - dr * W - dc, s->dir[w]);
    s->origin_r += dr;
    s->origin_c += dc;
}

/* Take `w` out, and any word whose cells it alone kept from forming a stray run (as Search.take_clean). */
static int take_clean(Search *s, int w)
{
    int *stack = s->scratch_a, top = 0;
    stack[top++] = w;
    while (top) {
        int x = stack[--top];
        if (x < 0 || s->pos[x] < 0)
            continue;
        int d = s->dir[x], step = step_of(s, d), cell = s->pos[x];
        if (take(s, x))
            return -1;
        int kept_before = 0;
        for (int j = 0; j < s->len[x]; j++, cell += step) {
            int kept = s->letters[cell] != 0;
            if (kept && kept_before && top < 2 * s->nwords + 2 * s->cells)
                stack[top++] = s->owner[1 - d][cell];
            kept_before = kept;
        }
    }
    return 0;
}

/* Take out words until no two letters side by side lack a word holding both (after loading). */
static int mend(Search *s)
{
    for (;;) {
        int found = -1, fd = 0;
        for (int cell = 0; cell < s->cells - s->W && found < 0; cell++) {
            if (!s->letters[cell])
                continue;
            for (int d = 0; d < 2; d++) {
                int nxt = cell + step_of(s, d);
                if (s->letters[nxt]) {
                    int here = s->owner[d][cell];
                    if (here == -1 || here != s->owner[d][nxt]) {
                        found = cell;
                        fd = d;
                        break;
                    }
                }
            }
        }
        if (found < 0)
            return 0;
        int nxt = found + step_of(s, fd);
        int holder = s->owner[1 - fd][nxt];
        if (take_clean(s, holder != -1 ? holder : s->owner[fd][nxt]))
            return -1;
    }
}

/* ------------------------------------------------------------- python */

static void search_free(Search *s)
{
    if (!s)
        return;
    if (s->code)
        for (int w = 0; w < s->nwords; w++)
            free(s->code[w]);
    free(s->code);
    free(s->len);
    free(s->required);
    free(s->letters);
    free(s->owner[0]);
    free(s->owner[1]);
    free(s->rowcnt);
    free(s->colcnt);
    free(s->base);
    for (int d = 0; d < 2; d++) {
        free(s->free_[d]);
        free(s->nfree[d]);
        free(s->fat[d]);
    }
    free(s->rowof);
    free(s->colof);
    for (int d = 0; d < 2; d++) {
        free(s->occ[d]);
        free(s->own[d]);
    }
    free(s->pos);
    free(s->dir);
    free(s->log);
    free(s->spots);
    free(s->stamp[0]);
    free(s->stamp[1]);
    free(s->scratch_a);
    free(s->scratch_b);
    free(s->scratch_c);
    free(s->uf);
    free(s->cells_of);
    free(s->low_of);
    free(s->order);
    free(s);
}

/* uses[code]: how many letters of that code the words have, for code < ncodes */
static Search *search_new(int nwords, int side, int cap, int ncodes, const size_t *uses)
{
    Search *s = calloc(1, sizeof(Search));
    if (!s)
        return NULL;
    s->nwords = nwords;
    s->side = side;
    s->cap = cap;
    s->W = side + 2;
    s->cells = s->W * s->W;
    int n = nwords > 0 ? nwords : 1, cells = s->cells;
    s->len = calloc(n, sizeof(int));
    s->code = calloc(n, sizeof(unsigned char *));
    s->required = calloc(n, sizeof(int));
    s->letters = calloc(cells, 1);
    s->owner[0] = malloc(sizeof(int) * cells);
    s->owner[1] = malloc(sizeof(int) * cells);
    s->rowcnt = calloc(s->W, sizeof(int));
    s->colcnt = calloc(s->W, sizeof(int));
    s->ncodes = ncodes;
    s->base = malloc(sizeof(int) * ncodes);
    size_t room = 0;
    if (s->base)
        for (int L = 0; L < ncodes; L++) {
            s->base[L] = (int)room;
            room += uses[L] < (size_t)cells ? uses[L] : (size_t)cells;
        }
    int lists_ok = 1;
    for (int d = 0; d < 2; d++) {
        s->free_[d] = malloc(sizeof(FreeCell) * (room ? room : 1));
        s->nfree[d] = calloc(ncodes, sizeof(int));
        s->fat[d] = malloc(sizeof(int) * cells);
        lists_ok = lists_ok && s->free_[d] && s->nfree[d] && s->fat[d];
    }
    s->rowof = malloc(sizeof(int) * cells);
    s->colof = malloc(sizeof(int) * cells);
    s->masks = s->W <= 64;
    for (int d = 0; d < 2 && s->masks; d++) {
        s->occ[d] = calloc(s->W, sizeof(uint64_t));
        s->own[d] = calloc(s->W, sizeof(uint64_t));
        lists_ok = lists_ok && s->occ[d] && s->own[d];
    }
    s->pos = malloc(sizeof(int) * n);
    s->dir = calloc(n, sizeof(int));
    s->caplog = 4 * n + 64;
    s->log = malloc(sizeof(LogEntry) * s->caplog);
    s->spots = malloc(sizeof(Spot) * 2 * cells);
    s->stamp[0] = calloc(cells, sizeof(int));
    s->stamp[1] = calloc(cells, sizeof(int));
    /* pending may hold every word plus victims and stranded ones, each at most once: 2n suffices */
    /* scratch_a also serves take_clean's stack: at most one entry per letter of a word taken, 2 a cell */
    s->scratch_a = malloc(sizeof(int) * (2 * (size_t)n + 2 * (size_t)cells));
    s->scratch_b = malloc(sizeof(int) * 2 * n);
    s->scratch_c = malloc(sizeof(int) * 2 * n);
    s->uf = malloc(sizeof(int) * n);
    s->cells_of = malloc(sizeof(int) * n);
    s->low_of = malloc(sizeof(int) * n);
    s->order = malloc(sizeof(Order) * 2 * (size_t)n);
    if (!s->len || !s->code || !s->required || !s->letters || !s->owner[0] || !s->owner[1] || !s->rowcnt ||
        !s->colcnt || !s->base || !lists_ok || !s->rowof || !s->colof || !s->pos || !s->dir || !s->log || !s->spots || !s->stamp[0] || !s->stamp[1] ||
        !s->scratch_a || !s->scratch_b || !s->scratch_c || !s->uf || !s->cells_of || !s->low_of || !s->order) {
        search_free(s);
        return NULL;
    }
    for (int i = 0; i < cells; i++) {
        s->owner[0][i] = s->owner[1][i] = -1;
        s->fat[0][i] = s->fat[1][i] = -1;
        s->rowof[i] = i / s->W;
        s->colof[i] = i % s->W;
    }
    for (int w = 0; w < n; w++)
        s->pos[w] = -1;
    return s;
}

static PyObject *snapshot(const Search *s)
{
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    for (int w = 0; w < s->nwords; w++) {
        if (s->pos[w] < 0)
            continue;
        int r = s->pos[w] / s->W - 1 + s->origin_r, c = s->pos[w] % s->W - 1 + s->origin_c;
        PyObject *item = Py_BuildValue("(iiii)", w, r, c, s->dir[w]);
        if (!item || PyList_Append(out, item)) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return out;
}

PyDoc_STRVAR(run_box_doc,
    "run_box(words, required, side, cap, origin, placed, rng_state, steps, probe, need, t_start, t_end, settings)\n"
    "--\n\n"
    "Anneal inside a cap x cap box on a side x side window, as optimize.run_box does in Python.\n\n"
    "words: bytes of letter codes (1-255) per word; required: 0/1 per word; origin: grid (row, col) of\n"
    "the window's top-left cell; placed: (word, row, col, direction) in grid rows/cols, inside the window;\n"
    "need: (required, letters) a smaller box must reach by step `probe`, or None; settings: (letter weight,\n"
    "required weight, noise unit, growth, jitter, leaf share, random min, random span, retry cap, margin).\n"
    "Returns (best key, best placements as (word, row, col, direction), steps used, rng state).");

static PyObject *py_run_box(PyObject *self, PyObject *args)
{
    PyObject *words, *required, *placed, *need;
    int side, cap, origin_r, origin_c, steps, probe;
    unsigned long long rng_state;
    double t_start, t_end;
    Settings set;
    if (!PyArg_ParseTuple(args, "OOii(ii)OKiiOdd(dddddddddiiiii)", &words, &required, &side, &cap, &origin_r,
                          &origin_c, &placed, &rng_state, &steps, &probe, &need, &t_start, &t_end,
                          &set.letter_weight, &set.required_weight, &set.noise_unit, &set.growth, &set.jitter,
                          &set.leaf_moves, &set.overflow_start, &set.overflow_end, &set.compact, &set.random_min,
                          &set.random_span, &set.retry_cap, &set.margin, &set.soft))
        return NULL;
    if (!PyList_Check(words) || !PyList_Check(required) || !PyList_Check(placed)) {
        PyErr_SetString(PyExc_TypeError, "words, required and placed must be lists");
        return NULL;
    }
    Py_ssize_t nw = PyList_GET_SIZE(words);
    if (PyList_GET_SIZE(required) != nw || side < 1 || side > 4000 || cap < 1 || cap > side || nw > 1000000 ||
        set.random_span < 1 || set.retry_cap < 0 || set.soft < 0) {
        PyErr_SetString(PyExc_ValueError, "run_box: inconsistent arguments");
        return NULL;
    }
    int has_need = need != Py_None;
    long need_req = 0, need_total = 0;
    if (has_need && !PyArg_ParseTuple(need, "ll", &need_req, &need_total))
        return NULL;
    int ncodes = 1; /* letter codes in use: 1..ncodes-1 */
    size_t uses[256] = {0};
    for (Py_ssize_t w = 0; w < nw; w++) {
        PyObject *b = PyList_GET_ITEM(words, w);
        if (!PyBytes_Check(b)) {
            PyErr_SetString(PyExc_TypeError, "run_box: words must be bytes");
            return NULL;
        }
        const unsigned char *buf = (const unsigned char *)PyBytes_AS_STRING(b);
        for (Py_ssize_t j = 0; j < PyBytes_GET_SIZE(b); j++) {
            if (buf[j] >= ncodes)
                ncodes = buf[j] + 1;
            uses[buf[j]]++;
        }
    }
    Search *s = search_new((int)nw, side, cap, ncodes, uses);
    if (!s)
        return PyErr_NoMemory();
    s->rng.state = rng_state;
    s->set = set;
    s->origin_r = origin_r;
    s->origin_c = origin_c;
    s->box = cap;
    for (Py_ssize_t w = 0; w < nw; w++) {
        PyObject *b = PyList_GET_ITEM(words, w);
        char *buf;
        Py_ssize_t n;
        if (PyBytes_AsStringAndSize(b, &buf, &n) < 0)
            goto fail;
        if (n < 1) { /* a word longer than the box is fine: it finds no spot, and waits */
            PyErr_SetString(PyExc_ValueError, "run_box: empty word");
            goto fail;
        }
        s->len[w] = (int)n;
        s->code[w] = malloc(n);
        if (!s->code[w]) {
            PyErr_NoMemory();
            goto fail;
        }
        memcpy(s->code[w], buf, n);
        for (Py_ssize_t j = 0; j < n; j++)
            if (!s->code[w][j]) {
                PyErr_SetString(PyExc_ValueError, "run_box: letter code 0");
                goto fail;
            }
        long r = PyLong_AsLong(PyList_GET_ITEM(required, w));
        if (r == -1 && PyErr_Occurred())
            goto fail;
        s->required[w] = r != 0;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(placed); i++) {
        int w, r, c, d;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(placed, i), "iiii", &w, &r, &c, &d))
            goto fail;
        if (w < 0 || w >= nw || s->pos[w] >= 0 || (d != 0 && d != 1)) {
            PyErr_SetString(PyExc_ValueError, "run_box: bad placement");
            goto fail;
        }
        int wr = r - origin_r, wc = c - origin_c, n = s->len[w];
        int er = d ? wr + n - 1 : wr, ec = d ? wc : wc + n - 1;
        if (wr < 0 || wc < 0 || er >= side || ec >= side) {
            PyErr_SetString(PyExc_ValueError, "run_box: a placement lies outside the window");
            goto fail;
        }
        int start = (wr + 1) * s->W + wc + 1, step = step_of(s, d);
        for (int j = 0; j < n; j++) { /* a cell's letter is always one of a word's through it (see free_) */
            int cell = start + j * step;
            if (s->owner[d][cell] != -1 || (s->letters[cell] && s->letters[cell] != s->code[w][j])) {
                PyErr_SetString(PyExc_ValueError, "run_box: two placements disagree on a cell");
                goto fail;
            }
        }
        board_place(s, w, start, d);
        s->total += n;
        s->req += s->required[w];
    }
    /* the start may have lost words (shrinking): no stray runs, and one piece, before anything else */
    s->nlog = 0;
    if (mend(s))
        goto nomem;
    int *pending = s->scratch_b, np = stranded(s, pending);
    for (int i = 0; i < np; i++)
        if (take(s, pending[i]))
            goto nomem;
    np = 0;
    for (int w = 0; w < s->nwords; w++)
        if (s->pos[w] < 0)
            pending[np++] = w;
    if (repair(s, pending, np))
        goto nomem;
    s->floor = s->nplaced < 2 ? s->nplaced : 2;
    Key best_key = key_of(s);
    PyObject *best = snapshot(s);
    if (!best)
        goto fail;
    if (set.soft) /* steps may now take a little more than the box, at a charge */
        s->cap = cap + set.soft < side ? cap + set.soft : side;
    double t_ratio = t_end / t_start, o_ratio = set.overflow_end / set.overflow_start;
    Key need_key = {{need_req, need_total, 0, 0, 0}};
    int used = steps;
    for (int i = 0; i < steps; i++) {
        if (i == probe && has_need && key_cmp(&best_key, &need_key, 2) < 0) {
            used = i;
            break;
        }
        double charge = set.soft ? set.overflow_start * pow(o_ratio, (double)i / steps) : 0.0;
        if (step(s, t_start * pow(t_ratio, (double)i / steps), charge)) {
            Py_DECREF(best);
            goto nomem;
        }
        if (set.margin)
            recenter(s);
        Key k = key_of(s);
        if (key_cmp(&k, &best_key, 5) > 0 && -k.v[4] <= cap) {
            best_key = k;
            PyObject *now = snapshot(s);
            if (!now) {
                Py_DECREF(best);
                goto fail;
            }
            Py_SETREF(best, now);
        }
        if ((i & 1023) == 1023 && PyErr_CheckSignals()) {
            Py_DECREF(best);
            goto fail;
        }
    }
    PyObject *result = Py_BuildValue("((lllll)NiK)", best_key.v[0], best_key.v[1], best_key.v[2], best_key.v[3],
                                     best_key.v[4], best, used, (unsigned long long)s->rng.state);
    search_free(s);
    return result;
nomem:
    PyErr_NoMemory();
fail:
    search_free(s);
    return NULL;
}

static PyMethodDef methods[] = {
    {"run_box", py_run_box, METH_VARARGS, run_box_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_anneal", "The optimizer's inner loop in C (see optimize.run_box).", -1, methods,
};

PyMODINIT_FUNC PyInit__anneal(void) { return PyModule_Create(&module); }
