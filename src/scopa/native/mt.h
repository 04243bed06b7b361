/* CPython's random.Random, word for word: MT19937 seeded by init_by_array from an int's
 * 32-bit words, random() from two words (genrand_res53), _randbelow by getrandbits rejection
 * and shuffle as random.py does it. The same seed gives the same numbers in the same order.
 *
 * Two speed-ups that do not change a single number:
 * - the words are twisted one at a time as they are drawn (a deal draws a few hundred of the
 *   624), in the same order and from the same inputs as CPython's all-at-once twist;
 * - seeding several generators at once interleaves their (serial) seeding chains, so the
 *   processor works on them side by side.
 */
#ifndef SCOPA_MT_H
#define SCOPA_MT_H

#include <stdint.h>
#include <string.h>

#define MT_N 624
#define MT_M 397
#define MT_LANES 8

typedef struct {
    uint32_t mt[MT_N];
    int pos;     /* the next word to draw */
    int twisted; /* 1: words pos..N-1 are already twisted (a state read from CPython) */
} MT;

static uint32_t mt_base[MT_N]; /* init_genrand(19650218): the start of every seeding */

static void mt_prepare(void) {
    mt_base[0] = 19650218U;
    for (int i = 1; i < MT_N; i++)
        mt_base[i] = 1812433253U * (mt_base[i - 1] ^ (mt_base[i - 1] >> 30)) + (uint32_t)i;
}

/* Seed `lanes` generators, each from its key (key[l][0..len-1], the same length for all). */
static void mt_seed_lanes(MT *out, int lanes, const uint32_t key[][8], int len) {
    uint32_t prev[MT_LANES];
    for (int l = 0; l < lanes; l++) {
        memcpy(out[l].mt, mt_base, sizeof mt_base);
        prev[l] = mt_base[0];
        out[l].pos = 0;
        out[l].twisted = 0;
    }
    int i = 1, j = 0;
    for (int k = MT_N > len ? MT_N : len; k; k--) {
        for (int l = 0; l < lanes; l++) {
            uint32_t p = prev[l];
            uint32_t v = (out[l].mt[i] ^ ((p ^ (p >> 30)) * 1664525U)) + key[l][j] + (uint32_t)j;
            out[l].mt[i] = v;
            prev[l] = v;
        }
        i++;
        j++;
        if (i >= MT_N) {
            for (int l = 0; l < lanes; l++) out[l].mt[0] = out[l].mt[MT_N - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        for (int l = 0; l < lanes; l++) {
            uint32_t p = prev[l];
            uint32_t v = (out[l].mt[i] ^ ((p ^ (p >> 30)) * 1566083941U)) - (uint32_t)i;
            out[l].mt[i] = v;
            prev[l] = v;
        }
        i++;
        if (i >= MT_N) {
            for (int l = 0; l < lanes; l++) {
                out[l].mt[0] = out[l].mt[MT_N - 1];
                prev[l] = out[l].mt[0];
            }
            i = 1;
        }
    }
    for (int l = 0; l < lanes; l++) out[l].mt[0] = 0x80000000U;
}

static inline uint32_t mt_next(MT *g) {
    int kk = g->pos;
    uint32_t *mt = g->mt;
    uint32_t y;
    if (g->twisted) {
        y = mt[kk];
    } else {
        int next = kk + 1 == MT_N ? 0 : kk + 1;
        int far = kk + MT_M < MT_N ? kk + MT_M : kk + MT_M - MT_N;
        y = (mt[kk] & 0x80000000U) | (mt[next] & 0x7fffffffU);
        y = mt[far] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        mt[kk] = y;
    }
    if (++g->pos == MT_N) {
        g->pos = 0;
        g->twisted = 0;
    }
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random() */
static inline double mt_random(MT *g) {
    uint32_t a = mt_next(g) >> 5, b = mt_next(g) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random._randbelow(n) for 0 < n < 2**32 (getrandbits(k) with k = n.bit_length()) */
static inline uint32_t mt_below(MT *g, uint32_t n) {
    int k = 32 - __builtin_clz(n);
    uint32_t r = mt_next(g) >> (32 - k);
    while (r >= n) r = mt_next(g) >> (32 - k);
    return r;
}

/* random.shuffle(x) */
static inline void mt_shuffle(MT *g, int8_t *x, int len) {
    for (int i = len - 1; i > 0; i--) {
        int j = (int)mt_below(g, (uint32_t)(i + 1));
        int8_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* CPython's state as getstate() gives it: 624 words and the index of the next word. */
static void mt_import(MT *g, const uint32_t *words, int index) {
    memcpy(g->mt, words, sizeof g->mt);
    if (index >= MT_N) {
        g->pos = 0;
        g->twisted = 0;
    } else {
        g->pos = index;
        g->twisted = 1;
    }
}

/* The state in CPython's form (finishing the twist of the words not drawn yet). */
static int mt_export(MT *g, uint32_t *words) {
    if (g->twisted || g->pos == 0) {
        memcpy(words, g->mt, sizeof g->mt);
        return g->twisted ? g->pos : MT_N;
    }
    int pos = g->pos;
    while (g->pos != 0) (void)mt_next(g); /* twists the rest in order; pos wraps to 0 */
    g->pos = pos;
    g->twisted = 1;
    memcpy(words, g->mt, sizeof g->mt);
    return pos;
}

#endif
