/* Legal plays on 40-bit masks, in exactly the order of scopa.engine.captures.Rules.plays:
 * cards by index; for each card its rank matches (table cards by index), else its sums (by
 * number of cards, then by their ranks ascending, then by card index, the order in which
 * itertools.combinations and the product of the ranks' choices come out), else a trail; an
 * optional capture adds the trail after the card's captures. */
#ifndef SCOPA_PLAYS_H
#define SCOPA_PLAYS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t mask_t;

/* popcount: the instruction where the build targets it, else a few shifts and adds (the
 * library call gcc makes otherwise is several times slower). */
static inline int bits(mask_t x) {
#if defined(__POPCNT__) || !defined(__x86_64__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

#define ACES 0x40100401ULL /* the four aces: bits 0, 10, 20, 30 */
#define COINS 0x3FFULL
#define SETTEBELLO_BIT (1ULL << 6)
#define MATTA 16 /* Cirulla's matta: the 7 of cups */

typedef struct {
    int fifteen;         /* capture rule: 0 rank then sum (Scopa), 1 fifteens (Escoba) */
    int fewest;          /* among sums only those of fewest cards (not with fifteens) */
    int ace_takes_all;   /* Scopa d'Assi */
    int ace_sweep;       /* the ace's take-all counts as a sweep */
    int optional;        /* a card that can capture may trail */
    int dealer_sweeps;   /* Escoba: starting fifteens are the dealer's sweeps */
    int last_play_sweep; /* the deal's last play can be a sweep */
    int last_apart;      /* a clear with the deal's last card is recorded apart (Scopone) */
    int cirulla;         /* capture rule: Cirulla's (the ace's take-all, then simple captures
                            and fifteens freely) */
    int low_table, aces_redeal, matta_declared, cirulla_points, decino_points;
    int kings_redeal;    /* deal again for 3 or 4 kings on the table */
    int hand_size, table_size, npackets;
    int packets[16];
} Cfg;

typedef struct {
    int32_t card; /* not a char type: a store through a char may alias anything, and the
                     compiler would then reload every field after each play is added */
    mask_t capture;
} Play;

/* Sum patterns already worked out, by the table's count per rank and the target (as the
 * Python engine caches them): a direct-mapped table of small entries (at most CACHED
 * patterns; nine in ten lookups of a random deal hit). */
#define CACHE_SLOTS 16384
#define CACHED 2

typedef struct {
    uint64_t tag;       /* 0 = empty; the lookup in bits 0-38 and 63 (see add_sums), then
                           bits 40-41: how many patterns; 42-51 and 52-61: their ranks */
    uint32_t k[CACHED]; /* three bits per rank: how many cards of it the sum takes; bit 31:
                           it takes all the table's cards of its ranks (one capture) */
} Cached;

#define CACHED_DATA (((1ULL << 22) - 1) << 40) /* the tag's bits that are not the lookup */
#define TAKES_ALL (1U << 31)

typedef struct {
    Play *items;
    int len, cap;
    Cached *cache; /* CACHE_SLOTS entries, or NULL */
} Plays;

static mask_t rank_mask[10];
static int8_t rank_of[64];         /* card index -> rank (0 = ace ... 9 = king) */
/* A suit's 10-bit mask -> one per rank, three bits each (bits 0-29), and its aces to 5s as
 * base-5 digits (bits 32-43): summed over the four suits, the table's count of each rank and
 * the index of its aces to 5s in low_reach. */
static uint64_t rank_spread[1024];
#define COUNTS_KEY 0x3FFFFFFFULL /* the counts per rank, three bits each */

/* The values from 1 to 10 that table cards of ranks ace to 5 reach, by the table's count of
 * each (c0 + 5 c1 + 25 c2 + 125 c3 + 625 c4): bit v of the low half for sums of at least one
 * card, of the high half for sums of at least two (see scopa_reach). */
static uint32_t low_reach[3125];
/* cross[a][h]: the sums of one of the values 1-4 in a (bits 0-3) and one of 6-9 in h, to 10 */
static uint16_t cross[16][16];

static void prepare_ranks(void) {
    for (int c = 0; c < 64; c++) rank_of[c] = (int8_t)(c % 10);
    for (int r = 0; r < 10; r++)
        rank_mask[r] = 1ULL << r | 1ULL << (10 + r) | 1ULL << (20 + r) | 1ULL << (30 + r);
    for (int m = 0; m < 1024; m++) {
        rank_spread[m] = 0;
        for (int r = 0, digit = 1; r < 10; r++, digit *= 5)
            if (m >> r & 1)
                rank_spread[m] += 1ULL << (3 * r) | (r < 5 ? (uint64_t)digit << 32 : 0);
    }
    for (int a = 0; a < 16; a++)
        for (int h = 0; h < 16; h++) {
            cross[a][h] = 0;
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    if ((a >> i & 1) && (h >> j & 1) && i + 1 + j + 6 <= 10)
                        cross[a][h] |= (uint16_t)(1U << (i + 1 + j + 6));
        }
    for (int i = 0; i < 3125; i++) {
        uint32_t one = 0, two = 0; /* as reachable() does it, card by card */
        for (int r = 0, rest = i; r < 5; r++, rest /= 5)
            for (int c = 0; c < rest % 5; c++) {
                two = (two | one << (r + 1)) & 0x7FF;
                one = (one | 1U << (r + 1) | one << (r + 1)) & 0x7FF;
            }
        low_reach[i] = one | two << 16;
    }
}

static inline int plays_push(Plays *p, int card, mask_t capture) {
    if (p->len == p->cap) {
        int cap = p->cap ? p->cap * 2 : 256;
        Play *items = realloc(p->items, (size_t)cap * sizeof(Play));
        if (!items) return -1;
        p->items = items;
        p->cap = cap;
    }
    p->items[p->len].card = card;
    p->items[p->len].capture = capture;
    p->len++;
    return 0;
}

/* A sum's ranks: k[r] cards of rank r; ordered by (size, ranks ascending as nibbles). */
typedef struct {
    int size;
    uint64_t code;
    int8_t k[10];
    int nparts;         /* the ranks taken, ascending: */
    int8_t part_rank[10]; /* rank */
    int8_t part_k[10];    /* how many cards of it */
} Pattern;

#define MAX_PATTERNS 1024

typedef struct {
    const int *count;
    int min_cards;
    Pattern *out;
    int n;
    int8_t k[10];
    int counts[10];
    uint64_t key;  /* the counts, three bits per rank */
    int prepared;  /* counts, ranks and reach worked out */
    int ranks[10], nranks; /* the ranks present on the table, ascending */
    int reach[11];         /* reach[i]: the value of all the table's cards of ranks[i..] */
} Walk;

static void record(Walk *w, int size) {
    if (size < w->min_cards || w->n >= MAX_PATTERNS) return;
    Pattern *p = &w->out[w->n++];
    p->size = size;
    p->code = 0;
    int at = 0;
    p->nparts = 0;
    for (int r = 0; r < 10; r++) {
        p->k[r] = w->k[r];
        if (!p->k[r]) continue;
        p->part_rank[p->nparts] = (int8_t)r;
        p->part_k[p->nparts++] = p->k[r];
        for (int c = 0; c < p->k[r]; c++, at++) p->code |= (uint64_t)r << (60 - 4 * at);
    }
}

static void walk_ranks(Walk *w, int at, int rest, int size) {
    if (rest == 0) {
        record(w, size);
        return;
    }
    if (at == w->nranks || w->reach[at] < rest) return;
    int rank = w->ranks[at], value = rank + 1;
    if (value > rest) return;
    for (int k = 0; k <= w->count[rank] && k * value <= rest; k++) {
        w->k[rank] = (int8_t)k;
        walk_ranks(w, at + 1, rest - k * value, size + k);
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

static int expand(Plays *out, int card, mask_t table, const Pattern *p, int part, mask_t taken) {
    if (part == p->nparts) return plays_push(out, card, taken);
    int rank = p->part_rank[part];
    mask_t cards = table & rank_mask[rank];
    int m = bits(cards);
    int k = p->part_k[part];
    if (k == m) return expand(out, card, table, p, part + 1, taken | cards);
    mask_t bits[4];
    for (int b = 0; b < m; b++) {
        bits[b] = cards & -cards;
        cards ^= bits[b];
    }
    for (int c = 0; c < ncombos[m][k]; c++) {
        mask_t pick = 0;
        for (int b = 0; b < m; b++)
            if (combos[m][k][c] >> b & 1) pick |= bits[b];
        if (expand(out, card, table, p, part + 1, taken | pick) < 0) return -1;
    }
    return 0;
}

/* The four suits' rank_spread added (no loop over the cards, so no branch to mispredict). */
static inline uint64_t table_counts(mask_t table) {
    return rank_spread[table & 0x3FF] + rank_spread[table >> 10 & 0x3FF] +
           rank_spread[table >> 20 & 0x3FF] + rank_spread[table >> 30 & 0x3FF];
}

/* The table's count of cards per rank, three bits per rank (the sums' cache key). */
static inline uint64_t rank_key(mask_t table) { return table_counts(table) & COUNTS_KEY; }

/* What the walk over one table's sums needs: its count per rank, the ranks present, their
 * values. */
static void prepare_walk(Walk *w, mask_t table) {
    w->nranks = 0;
    memset(w->k, 0, sizeof w->k);
    memset(w->counts, 0, sizeof w->counts);
    for (mask_t t = table; t; t &= t - 1) w->counts[rank_of[__builtin_ctzll(t)]]++;
    for (int r = 0; r < 10; r++)
        if (w->counts[r]) w->ranks[w->nranks++] = r;
    w->count = w->counts;
    w->reach[w->nranks] = 0;
    for (int i = w->nranks - 1; i >= 0; i--)
        w->reach[i] = w->reach[i + 1] + w->counts[w->ranks[i]] * (w->ranks[i] + 1);
}

/* The rank patterns of the sums worth `target`, sorted (and the fewest only, if asked). */
static int sum_patterns(Walk *w, Pattern *pats, int target, int min_cards, int fewest) {
    w->min_cards = min_cards;
    w->out = pats;
    w->n = 0;
    walk_ranks(w, 0, target, 0);
    for (int a = 1; a < w->n; a++) { /* insertion sort: a handful of patterns */
        Pattern p = pats[a];
        int b = a - 1;
        while (b >= 0 && pattern_before(&p, &pats[b])) {
            pats[b + 1] = pats[b];
            b--;
        }
        pats[b + 1] = p;
    }
    int n = w->n;
    if (fewest)
        for (n = 1; n < w->n && pats[n].size == pats[0].size; n++) continue;
    return n;
}

/* The sums of table cards worth `target` that a card takes; returns how many were added. */
static int add_sums(Plays *out, int card, mask_t table, Walk *w, int target, int min_cards,
                    int fewest) {
    Pattern pats[MAX_PATTERNS];
    int n;
    uint64_t tag = w->key | (uint64_t)target << 30 | (uint64_t)min_cards << 35 |
                   (uint64_t)fewest << 38 | 1ULL << 63;
    Cached *slot = NULL;
    if (out->cache) {
        uint64_t h = tag * 0x9E3779B97F4A7C15ULL;
        slot = &out->cache[h >> (64 - 14)];
    }
    int before = out->len;
    if (slot && (slot->tag & ~CACHED_DATA) == tag) {
        n = (int)(slot->tag >> 40 & 3);
        for (int a = 0; a < n; a++) {
            uint32_t packed = slot->k[a];
            if (packed & TAKES_ALL) { /* the usual case: one capture, no expanding */
                mask_t ranks = slot->tag >> (42 + 10 * a) & 0x3FF;
                if (plays_push(out, card, table & (ranks | ranks << 10 | ranks << 20 |
                                                   ranks << 30)) < 0)
                    return -1;
                continue;
            }
            Pattern *p = &pats[a];
            p->nparts = 0;
            while (packed) {
                int r = __builtin_ctz(packed) / 3;
                p->part_rank[p->nparts] = (int8_t)r;
                p->part_k[p->nparts++] = (int8_t)(packed >> (3 * r) & 7);
                packed &= ~(7U << (3 * r));
            }
            if (expand(out, card, table, p, 0, 0) < 0) return -1;
        }
        return out->len - before;
    }
    if (!w->prepared) prepare_walk(w, table), w->prepared = 1;
    n = sum_patterns(w, pats, target, min_cards, fewest);
    if (slot && n <= CACHED) {
        slot->tag = tag | (uint64_t)n << 40;
        for (int a = 0; a < n; a++) {
            uint32_t packed = 0, ranks = 0, all = TAKES_ALL;
            for (int r = 0; r < 10; r++) {
                packed |= (uint32_t)pats[a].k[r] << (3 * r);
                if (pats[a].k[r]) ranks |= 1U << r;
                if (pats[a].k[r] && pats[a].k[r] != w->counts[r]) all = 0;
            }
            slot->k[a] = packed | all;
            slot->tag |= (uint64_t)ranks << (42 + 10 * a);
        }
    }
    for (int a = 0; a < n; a++)
        if (expand(out, card, table, &pats[a], 0, 0) < 0) return -1;
    return out->len - before;
}

/* The values that sums of at least one and of at least two table cards reach (bit v = v). */
static void reachable(mask_t table, uint32_t *one, uint32_t *two) {
    uint32_t r1 = 0, r2 = 0;
    for (mask_t t = table; t; t &= t - 1) {
        int v = rank_of[__builtin_ctzll(t)] + 1;
        r2 = (r2 | r1 << v) & 0x7FFF;
        r1 = (r1 | 1U << v | r1 << v) & 0x7FFF;
    }
    *one = r1;
    *two = r2;
}

/* The values from 2 to 10 that sums of at least two table cards reach (bit v = v), for
 * Scopa's rule (a card takes a sum worth its value, at most 10); `counts` is
 * table_counts(table). Without a loop over the cards: a sum of 10 or less holds at most one
 * card of 6 to 9 and no king, so it is a sum of aces to 5s (looked up by their counts), alone
 * or with one of them (a sum of 1 to 4 of them, and one 6 to 9 present). */
static inline uint32_t scopa_reach(uint64_t counts, mask_t table) {
    uint32_t low = low_reach[counts >> 32];
    mask_t ranks = table | table >> 10 | table >> 20 | table >> 30; /* bit r: rank r present */
    return (low >> 16 | cross[low >> 1 & 0xF][ranks >> 5 & 0xF]) & 0x7FF;
}

/* Cirulla: the plays of card `card` played as rank `rank` (Rules._cirulla_card): the ace's
 * take-all (an ace on the table excepted), or its rank matches else its sums, and then its
 * fifteens; how many (0: it trails). */
static int cirulla_card(const Cfg *cfg, Plays *out, int card, int rank, mask_t table, Walk *w,
                        int *have_key, uint32_t reach1, uint32_t reach2) {
    if (rank == 0 && !(table & ACES)) {
        if (plays_push(out, card, table) < 0) return -1;
        return table ? 1 : -2;
    }
    int before = out->len;
    mask_t match = table & rank_mask[rank];
    if (match) {
        for (; match; match &= match - 1)
            if (plays_push(out, card, match & -match) < 0) return -1;
    } else if (reach2 >> (rank + 1) & 1) {
        if (!*have_key) w->key = rank_key(table), *have_key = 1;
        if (add_sums(out, card, table, w, rank + 1, 2, cfg->fewest) < 0) return -1;
    }
    if (reach1 >> (14 - rank) & 1) {
        if (!*have_key) w->key = rank_key(table), *have_key = 1;
        if (add_sums(out, card, table, w, 14 - rank, 1, 0) < 0) return -1;
    }
    return out->len - before;
}

/* Room for `need` plays in out->items. */
static inline int plays_reserve(Plays *p, int need) {
    if (need <= p->cap) return 0;
    int cap = p->cap ? p->cap : 256;
    while (cap < need) cap *= 2;
    Play *items = realloc(p->items, (size_t)cap * sizeof(Play));
    if (!items) return -1;
    p->items = items;
    p->cap = cap;
    return 0;
}

/* A card adds at most four plays besides its sums (three rank matches and a trail). */
#define ROOM (4 * 40)

/* Scopa's rule (Scopa, Scopone, Scopa d'Assi), the common case: per card its rank matches,
 * else the ace's take-all (Scopa d'Assi), else its sums of two or more cards; then a trail if
 * it takes nothing, or always where capturing is optional. The plays other than sums are
 * written straight into out->items (room made first: no check per play). */
static int scopa_plays(const Cfg *cfg, mask_t hand, mask_t table, Plays *out) {
    const int optional = cfg->optional, ace_takes_all = cfg->ace_takes_all;
    if (plays_reserve(out, ROOM) < 0) return -1;
    Play *items = out->items;
    int len = 0, have_key = 0;
    uint32_t reach2 = 0;
    Walk w;
    w.prepared = 0;
    while (hand) {
        int card = __builtin_ctzll(hand), rank = rank_of[card], takes = 0;
        hand &= hand - 1;
        mask_t match = table & rank_mask[rank];
        if (match) {
            takes = 1;
            do {
                items[len].card = card;
                items[len++].capture = match & -match;
                match &= match - 1;
            } while (match);
        } else if (ace_takes_all && rank == 0) {
            items[len].card = card;
            items[len++].capture = table;
            if (!table) continue; /* the take-all of an empty table is the trail */
            takes = 1;
        } else if (table) {
            if (!have_key) {
                uint64_t counts = table_counts(table);
                w.key = counts & COUNTS_KEY, have_key = 1;
                reach2 = scopa_reach(counts, table);
            }
            if (reach2 >> (rank + 1) & 1) {
                out->len = len;
                takes = add_sums(out, card, table, &w, rank + 1, 2, cfg->fewest);
                if (takes < 0 || plays_reserve(out, out->len + ROOM) < 0) return -1;
                items = out->items;
                len = out->len;
            }
        }
        if (!takes || optional) {
            items[len].card = card;
            items[len++].capture = 0;
        }
    }
    out->len = len;
    return 0;
}

/* Every legal play of `hand` on `table`, appended to `out` (emptied first). */
static int legal_plays(const Cfg *cfg, mask_t hand, mask_t table, Plays *out, int matta_as) {
    out->len = 0;
    if (!cfg->cirulla && !cfg->fifteen) return scopa_plays(cfg, hand, table, out);
    Walk w;
    int have_count = 0;
    w.prepared = 0;
    uint32_t reach1 = 0, reach2 = 0;
    if (table) reachable(table, &reach1, &reach2);
    while (hand) {
        mask_t low = hand & -hand;
        hand ^= low;
        int card = __builtin_ctzll(low);
        int rank = rank_of[card];
        int found = 0;
        if (cfg->cirulla) {
            if (card == MATTA && matta_as >= 0) rank = matta_as;
            found = cirulla_card(cfg, out, card, rank, table, &w, &have_count, reach1, reach2);
        } else if (reach1 >> (14 - rank) & 1) { /* fifteens (Escoba) */
            if (!have_count) w.key = rank_key(table), have_count = 1;
            found = add_sums(out, card, table, &w, 14 - rank, 1, 0);
        }
        if (found < 0 && found != -2) return -1;
        if (found == 0 || (found > 0 && cfg->optional))
            if (plays_push(out, card, 0) < 0) return -1;
    }
    return 0;
}

enum { NOTHING = 0, SWEEP = 1, ACE_SWEEP = 2, LAST_CLEAR = 3 };

/* What a capture that leaves the table empty counts as (Rules.clear_kind). */
static inline int clear_kind(const Cfg *cfg, int card, mask_t capture, int last_play) {
    if (last_play) return cfg->last_apart ? LAST_CLEAR : cfg->last_play_sweep ? SWEEP : NOTHING;
    if (cfg->ace_takes_all && card % 10 == 0 && !(capture & ACES)) return ACE_SWEEP;
    return SWEEP;
}

/* Whether such a capture scores a sweep under the variant's own options (Rules.is_sweep). */
static inline int is_sweep(const Cfg *cfg, int card, mask_t capture, int last_play) {
    switch (clear_kind(cfg, card, capture, last_play)) {
    case LAST_CLEAR:
        return cfg->last_play_sweep;
    case ACE_SWEEP:
        return cfg->ace_sweep;
    default:
        return clear_kind(cfg, card, capture, last_play) == SWEEP;
    }
}

#endif
