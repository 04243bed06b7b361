/* Legal plays on 40-bit masks, in exactly the order of scopa.engine.captures.Rules.plays:
 * cards by index; for each card its rank matches (table cards by index), else its sums (by
 * number of cards, then by their ranks ascending, then by card index, the order in which
 * itertools.combinations and the product of the ranks' choices come out), else a trail; an
 * optional capture adds the trail after the card's captures. */
#ifndef SCOPA_PLAYS_H
#define SCOPA_PLAYS_H

#include <stdint.h>
#include <stdlib.h>

typedef uint64_t mask_t;

#define ACES 0x40100401ULL /* the four aces: bits 0, 10, 20, 30 */
#define COINS 0x3FFULL
#define SETTEBELLO_BIT (1ULL << 6)

typedef struct {
    int fifteen;         /* capture rule: 0 rank then sum (Scopa), 1 fifteens (Escoba) */
    int fewest;          /* among sums only those of fewest cards (not with fifteens) */
    int ace_takes_all;   /* Scopa d'Assi */
    int ace_sweep;       /* the ace's take-all counts as a sweep */
    int optional;        /* a card that can capture may trail */
    int dealer_sweeps;   /* Escoba: starting fifteens are the dealer's sweeps */
    int last_play_sweep; /* the deal's last play can be a sweep */
    int kings_redeal;    /* deal again for 3 or 4 kings on the table */
    int hand_size, table_size, npackets;
    int packets[16];
} Cfg;

typedef struct {
    int8_t card;
    mask_t capture;
} Play;

typedef struct {
    Play *items;
    int len, cap;
} Plays;

static mask_t rank_mask[10];

static inline int plays_push(Plays *p, int card, mask_t capture) {
    if (p->len == p->cap) {
        int cap = p->cap ? p->cap * 2 : 256;
        Play *items = realloc(p->items, (size_t)cap * sizeof(Play));
        if (!items) return -1;
        p->items = items;
        p->cap = cap;
    }
    p->items[p->len].card = (int8_t)card;
    p->items[p->len].capture = capture;
    p->len++;
    return 0;
}

/* A sum's ranks: k[r] cards of rank r; ordered by (size, ranks ascending as nibbles). */
typedef struct {
    int size;
    uint64_t code;
    int8_t k[10];
} Pattern;

#define MAX_PATTERNS 1024

typedef struct {
    const int *count;
    int min_cards;
    Pattern *out;
    int n;
    int8_t k[10];
} Walk;

static void walk_ranks(Walk *w, int rank, int rest, int size) {
    if (rest == 0) {
        if (size >= w->min_cards && w->n < MAX_PATTERNS) {
            Pattern *p = &w->out[w->n++];
            p->size = size;
            p->code = 0;
            int at = 0;
            for (int r = 0; r < 10; r++) {
                p->k[r] = r < rank ? w->k[r] : 0;
                for (int c = 0; c < p->k[r]; c++, at++) p->code |= (uint64_t)r << (60 - 4 * at);
            }
        }
        return;
    }
    if (rank == 10 || rank + 1 > rest) return;
    int value = rank + 1;
    for (int k = 0; k <= w->count[rank] && k * value <= rest; k++) {
        w->k[rank] = (int8_t)k;
        walk_ranks(w, rank + 1, rest - k * value, size + k);
    }
    w->k[rank] = 0;
}

static int pattern_before(const Pattern *a, const Pattern *b) {
    return a->size != b->size ? a->size < b->size : a->code < b->code;
}

/* The k-of-m choices of a rank's table cards, in itertools.combinations order (positions). */
static uint8_t combos[5][5][6];
static int ncombos[5][5];

static void prepare_combos(void) {
    for (int m = 1; m <= 4; m++)
        for (int k = 1; k <= m; k++) {
            /* lexicographic order of position tuples = this recursive listing */
            int n = 0;
            for (int a = 0; a < m; a++) {
                if (k == 1) {
                    combos[m][k][n++] = (uint8_t)(1 << a);
                    continue;
                }
                for (int b = a + 1; b < m; b++) {
                    if (k == 2) {
                        combos[m][k][n++] = (uint8_t)(1 << a | 1 << b);
                        continue;
                    }
                    for (int c = b + 1; c < m; c++) {
                        if (k == 3) {
                            combos[m][k][n++] = (uint8_t)(1 << a | 1 << b | 1 << c);
                            continue;
                        }
                        for (int d = c + 1; d < m; d++)
                            combos[m][k][n++] = (uint8_t)(1 << a | 1 << b | 1 << c | 1 << d);
                    }
                }
            }
            ncombos[m][k] = n;
        }
}

static int expand(Plays *out, int card, mask_t table, const Pattern *p, int rank, mask_t taken) {
    while (rank < 10 && p->k[rank] == 0) rank++;
    if (rank == 10) return plays_push(out, card, taken);
    mask_t cards = table & rank_mask[rank];
    int m = __builtin_popcountll(cards);
    int k = p->k[rank];
    if (k == m) return expand(out, card, table, p, rank + 1, taken | cards);
    mask_t bits[4];
    for (int b = 0; b < m; b++) {
        bits[b] = cards & -cards;
        cards ^= bits[b];
    }
    for (int c = 0; c < ncombos[m][k]; c++) {
        mask_t pick = 0;
        for (int b = 0; b < m; b++)
            if (combos[m][k][c] >> b & 1) pick |= bits[b];
        if (expand(out, card, table, p, rank + 1, taken | pick) < 0) return -1;
    }
    return 0;
}

/* The sums of table cards worth `target` that a card takes; returns how many were added. */
static int add_sums(Plays *out, int card, mask_t table, const int *count, int target,
                    int min_cards, int fewest) {
    Pattern pats[MAX_PATTERNS];
    Walk w = {count, min_cards, pats, 0, {0}};
    walk_ranks(&w, 0, target, 0);
    for (int a = 1; a < w.n; a++) { /* insertion sort: a handful of patterns */
        Pattern p = pats[a];
        int b = a - 1;
        while (b >= 0 && pattern_before(&p, &pats[b])) {
            pats[b + 1] = pats[b];
            b--;
        }
        pats[b + 1] = p;
    }
    int before = out->len;
    for (int a = 0; a < w.n; a++) {
        if (fewest && pats[a].size != pats[0].size) break;
        if (expand(out, card, table, &pats[a], 0, 0) < 0) return -1;
    }
    return out->len - before;
}

/* Every legal play of `hand` on `table`, appended to `out` (emptied first). */
static int legal_plays(const Cfg *cfg, mask_t hand, mask_t table, Plays *out) {
    out->len = 0;
    int count[10];
    int have_count = 0;
    while (hand) {
        mask_t low = hand & -hand;
        hand ^= low;
        int card = __builtin_ctzll(low);
        int rank = card % 10;
        int found = 0;
        if (cfg->fifteen) {
            if (!have_count) {
                for (int r = 0; r < 10; r++) count[r] = __builtin_popcountll(table & rank_mask[r]);
                have_count = 1;
            }
            found = add_sums(out, card, table, count, 14 - rank, 1, 0);
        } else {
            mask_t match = table & rank_mask[rank];
            if (match) {
                while (match) {
                    mask_t one = match & -match;
                    match ^= one;
                    if (plays_push(out, card, one) < 0) return -1;
                    found++;
                }
            } else if (rank == 0 && cfg->ace_takes_all) {
                if (plays_push(out, card, table) < 0) return -1;
                found = table ? 1 : -2; /* the take-all of an empty table is the trail */
            } else if (table) {
                if (!have_count) {
                    for (int r = 0; r < 10; r++)
                        count[r] = __builtin_popcountll(table & rank_mask[r]);
                    have_count = 1;
                }
                found = add_sums(out, card, table, count, rank + 1, 2, cfg->fewest);
            }
        }
        if (found < 0 && found != -2) return -1;
        if (found == 0 || (found > 0 && cfg->optional))
            if (plays_push(out, card, 0) < 0) return -1;
    }
    return 0;
}

/* Whether a capture that leaves the table empty is a sweep. */
static inline int is_sweep(const Cfg *cfg, int card, mask_t capture, int last_play) {
    if (last_play && !cfg->last_play_sweep) return 0;
    return !cfg->ace_takes_all || cfg->ace_sweep || card % 10 != 0 || (capture & ACES) != 0;
}

#endif
