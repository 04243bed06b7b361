/* Deals counted by their scorer's facts: the packed keys per side of a finished deal, and a
 * table of them (included by methods.h and wasm.c: no Python here). */
#ifndef SCOPA_FACTS_H
#define SCOPA_FACTS_H

#include "game.h"

/* The scorer's 14 constants, as both builds receive them (set_scoring): each side's top and
 * alone bits for the four one-holder facts, the leftovers' and the last clear's bits, and the
 * shifts of the aces', sweeps', Cirulla's and decino's counts. The scorer is ready after. */
static void scoring_constants(const uint64_t c[14]) {
    for (int f = 0; f < 4; f++) {
        scoring.top[f] = c[2 * f];
        scoring.alone[f] = c[2 * f + 1];
    }
    scoring.leftover = c[8];
    scoring.cleared = c[9];
    scoring.aces_shift = (int)c[10];
    scoring.sweeps_shift = (int)c[11];
    scoring.cirulla_shift = (int)c[12];
    scoring.decino_shift = (int)c[13];
    scoring.ready = 1;
}

typedef struct {
    uint64_t keys[MAX_SEATS];
    int8_t leader;
    long long count;
} Tally;

typedef struct {
    Tally *slots;
    size_t cap, used;
} Tallies;

static size_t tally_hash(const Tally *t, int sides) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)t->leader;
    for (int i = 0; i < sides; i++) h = (h ^ t->keys[i]) * 1099511628211ULL;
    return (size_t)(h ^ (h >> 29));
}

static int tally_add(Tallies *tab, const Tally *t, int sides);

static int tally_grow(Tallies *tab, int sides) {
    Tallies bigger = {calloc(tab->cap * 2, sizeof(Tally)), tab->cap * 2, 0};
    if (!bigger.slots) return -1;
    for (size_t i = 0; i < tab->cap; i++)
        if (tab->slots[i].count && tally_add(&bigger, &tab->slots[i], sides) < 0) return -1;
    free(tab->slots);
    *tab = bigger;
    return 0;
}

static int tally_add(Tallies *tab, const Tally *t, int sides) {
    if ((tab->used + 1) * 2 > tab->cap && tally_grow(tab, sides) < 0) return -1;
    size_t i = tally_hash(t, sides) & (tab->cap - 1);
    for (;; i = (i + 1) & (tab->cap - 1)) {
        Tally *slot = &tab->slots[i];
        if (!slot->count) {
            *slot = *t;
            tab->used++;
            return 0;
        }
        if (slot->leader == t->leader &&
            !memcmp(slot->keys, t->keys, sizeof(uint64_t) * (size_t)sides)) {
            slot->count += t->count;
            return 0;
        }
    }
}

/* The scorer's packed facts of a finished deal per side (partners pooled: Match.side_deal). */
static void deal_facts(const Game *s, const int *team_of, int sides, Tally *t) {
    mask_t piles[MAX_SEATS] = {0};
    int sweeps[MAX_SEATS] = {0}, aces[MAX_SEATS] = {0}, kinds[MAX_SEATS][3] = {{0}};
    for (int k = 0; k < s->n; k++) {
        piles[team_of[k]] |= s->piles[k];
        sweeps[team_of[k]] += s->sweeps[k];
        aces[team_of[k]] += s->ace_sweeps[k];
        for (int j = 0; j < s->ndeclared[k]; j++) kinds[team_of[k]][s->declared[k][j]]++;
    }
    memset(t->keys, 0, sizeof t->keys);
    side_keys(piles, sweeps, aces, sides, t->keys);
    for (int i = 0; i < sides; i++)
        t->keys[i] |= (uint64_t)kinds[i][CIRULLA] << scoring.cirulla_shift |
                      (uint64_t)kinds[i][DECINO] << scoring.decino_shift;
    if (s->leftovers_to >= 0) t->keys[team_of[s->leftovers_to]] |= scoring.leftover;
    if (s->last_cleared >= 0) t->keys[team_of[s->last_cleared]] |= scoring.cleared;
}

/* Seed the lanes for deals k0, k0 + 1, ... (at most MT_LANES, before `end`), deal k by the
 * key (k, *prefix); answers how many lanes. */
static inline int seed_deals(Lanes *lanes, long long k0, long long end, const mask_t *prefix,
                             int plen) {
    uint32_t key[MT_LANES][8];
    int n = (int)(end - k0 < MT_LANES ? end - k0 : MT_LANES);
    for (int l = 0; l < n; l++) {
        key[l][0] = (uint32_t)(k0 + l);
        for (int w = 0; w < plen; w++) key[l][w + 1] = (uint32_t)prefix[w];
    }
    mt_seed_lanes(lanes, n, key, plen + 1);
    return n;
}

/* Play `count` deals out from `start`, deal k from the key (k, *prefix), the seats playing
 * `strategy`, and count the scorer's facts of each distinct outcome in `tab` (made here; the
 * caller frees tab->slots, also on failure). `cache`: the plays' cache to use. Answers 0, or
 * -1 out of memory. The rollouts of both builds (methods.h with the GIL released, wasm.c). */
static int rollout_tallies(const Cfg *cfg, const Game *start, const int8_t *strategy,
                           const mask_t *prefix, int plen, long long count, const int *team_of,
                           int sides, Cached *cache, Tallies *tab) {
    size_t cap = 16; /* over twice the distinct outcomes there can be, up to 1024 */
    while (cap < 1024 && (long long)cap < 2 * count) cap *= 2;
    *tab = (Tallies){calloc(cap, sizeof(Tally)), cap, 0};
    Lanes *lanes = lanes_new();
    Plays buf = {NULL, 0, 0, cache};
    int failed = !tab->slots || !lanes || !cache;
    for (long long k0 = 0; k0 < count && !failed; k0 += MT_LANES) {
        int n = seed_deals(lanes, k0, count, prefix, plen);
        for (int l = 0; l < n && !failed; l++) {
            Game s = *start;
            if (play_out(cfg, &s, &lanes->lane[l], strategy, &buf, NULL) < 0) {
                failed = 1;
                break;
            }
            Tally t;
            deal_facts(&s, team_of, sides, &t);
            t.leader = 0;
            t.count = 1;
            if (tally_add(tab, &t, sides) < 0) failed = 1;
        }
    }
    free(buf.items);
    free(lanes);
    return failed ? -1 : 0;
}

#endif
