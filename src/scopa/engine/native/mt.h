/* CPython's random.Random, word for word: MT19937 seeded by init_by_array from an int's
 * 32-bit words, random() from two words (genrand_res53), and shuffle as random.py does it
 * (_randbelow by getrandbits rejection). The same seed gives the same numbers in the same order.
 *
 * Speed-ups that do not change a single number:
 * - the words are twisted sixteen at a time as they are drawn (a deal draws a few hundred of
 *   the 624), in the same order and from the same inputs as CPython's all-at-once twist;
 * - a batch seeds sixteen generators at once in vectors (their seeding chains are serial, so
 *   side by side they overlap), and twists and tempers their first words in vectors too.
 */
#ifndef SCOPA_MT_H
#define SCOPA_MT_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MT_N 624
#define MT_M 397
#define MT_VEC 8   /* lanes in a vector */
#define MT_VECS 4  /* vectors side by side */
#define MT_LANES (MT_VEC * MT_VECS)
#define MT_READY 224 /* words twisted ahead for a batch (< N - M: from the seeded words) */

typedef struct {
    uint32_t *mt; /* word i at mt[i * stride]: own[] or a lane of seeded lanes */
    int stride;
    int pos;     /* the next word to twist (or read, when twisted) into buf */
    int twisted; /* 1: words pos..N-1 are already twisted (a state read from CPython) */
    const uint32_t *next; /* the next tempered word to draw; the one after is next[stride] */
    int next_stride;
    int avail; /* words left to draw from next (the last ones twisted) */
    uint32_t buf[16];
    uint32_t own[MT_N];
} MT;

static uint32_t mt_base[MT_N]; /* init_genrand(19650218): the start of every seeding */

static void mt_prepare(void) {
    mt_base[0] = 19650218U;
    for (int i = 1; i < MT_N; i++)
        mt_base[i] = 1812433253U * (mt_base[i - 1] ^ (mt_base[i - 1] >> 30)) + (uint32_t)i;
}

/* The seeding chains of MT_LANES generators side by side in vectors (GCC/Clang vector
 * extensions): word i of lane v * MT_VEC + e is st[i][v][e]. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define MT_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MT_CLONES
#endif

typedef uint32_t vec_t __attribute__((vector_size(4 * MT_VEC)));

typedef struct {
    vec_t st[MT_N][MT_VECS];
    vec_t ready[MT_READY][MT_VECS]; /* the first words, twisted and tempered */
    MT lane[MT_LANES];
} Lanes;

/* The seeding of the first `nv` vectors of lanes (a constant where it is inlined, so the loops
 * over them unroll). */
static inline __attribute__((always_inline)) void seed_vectors(Lanes *out,
                                                               const vec_t (*key)[MT_VECS],
                                                               int len, int ready, const int nv) {
    vec_t(*st)[MT_VECS] = out->st;
    vec_t prev[MT_VECS];
    for (int v = 0; v < nv; v++) prev[v] = mt_base[0] + (vec_t){0};
    int i = 1, j = 0;
    /* the first N - 1 steps read words 1..N-1 as init_genrand left them (mt_base), so the
     * state is not filled with them first */
    for (; i < MT_N; i++) {
        for (int v = 0; v < nv; v++) {
            prev[v] = (mt_base[i] ^ ((prev[v] ^ (prev[v] >> 30)) * 1664525U)) + key[j][v] +
                      (uint32_t)j;
            st[i][v] = prev[v];
        }
        j = j + 1 >= len ? 0 : j + 1;
    }
    for (int v = 0; v < nv; v++) st[0][v] = st[MT_N - 1][v];
    i = 1;
    for (int k = (MT_N > len ? MT_N : len) - (MT_N - 1); k; k--) {
        for (int v = 0; v < nv; v++) {
            prev[v] = (st[i][v] ^ ((prev[v] ^ (prev[v] >> 30)) * 1664525U)) + key[j][v] +
                      (uint32_t)j;
            st[i][v] = prev[v];
        }
        i++;
        j++;
        if (i >= MT_N) {
            for (int v = 0; v < nv; v++) st[0][v] = st[MT_N - 1][v];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        for (int v = 0; v < nv; v++) {
            prev[v] = (st[i][v] ^ ((prev[v] ^ (prev[v] >> 30)) * 1566083941U)) - (uint32_t)i;
            st[i][v] = prev[v];
        }
        i++;
        if (i >= MT_N) {
            for (int v = 0; v < nv; v++) st[0][v] = st[MT_N - 1][v];
            i = 1;
        }
    }
    for (int v = 0; v < nv; v++) st[0][v] = 0x80000000U + (vec_t){0};
    /* the first MT_READY words of the twist (each from words not twisted yet) */
    for (int kk = 0; ready && kk < MT_READY; kk++)
        for (int v = 0; v < nv; v++) {
            vec_t y = (st[kk][v] & 0x80000000U) | (st[kk + 1][v] & 0x7fffffffU);
            y = st[kk + MT_M][v] ^ (y >> 1) ^ (-(y & 1U) & 0x9908b0dfU);
            st[kk][v] = y;
            y ^= (y >> 11);
            y ^= (y << 7) & 0x9d2c5680U;
            y ^= (y << 15) & 0xefc60000U;
            out->ready[kk][v] = y ^ (y >> 18);
        }
}

MT_CLONES static void mt_seed_vectors(Lanes *out, const vec_t (*key)[MT_VECS], int len,
                                      int ready) {
    seed_vectors(out, key, len, ready, MT_VECS);
}

/* The same for the lanes of the first vector only (a batch of a few, one generator). */
MT_CLONES static void mt_seed_vector(Lanes *out, const vec_t (*key)[MT_VECS], int len,
                                     int ready) {
    seed_vectors(out, key, len, ready, 1);
}

/* Seed `lanes` (1 to MT_LANES) generators, each from its key (key[l][0..len-1], the same
 * length for all); lane l draws from out->lane[l]. */
static void mt_seed_lanes(Lanes *out, int lanes, const uint32_t key[][8], int len) {
    vec_t keys[8][MT_VECS];
    memset(keys, 0, sizeof keys);
    for (int l = 0; l < lanes; l++)
        for (int w = 0; w < len; w++) keys[w][l / MT_VEC][l % MT_VEC] = key[l][w];
    if (lanes <= MT_VEC) mt_seed_vector(out, (const vec_t(*)[MT_VECS])keys, len, 1);
    else mt_seed_vectors(out, (const vec_t(*)[MT_VECS])keys, len, 1);
    for (int l = 0; l < lanes; l++) {
        MT *g = &out->lane[l];
        g->mt = (uint32_t *)out->st + l;
        g->stride = MT_LANES;
        g->pos = MT_READY;
        g->twisted = 0;
        g->next = (const uint32_t *)out->ready + l;
        g->next_stride = MT_LANES;
        g->avail = MT_READY;
    }
}

/* Lanes hold vectors: 64-byte aligned memory (NULL when there is none). */
static Lanes *lanes_new(void) {
    void *p = NULL;
    return posix_memalign(&p, 64, sizeof(Lanes)) == 0 ? (Lanes *)p : NULL;
}

/* Seed one generator (an int's words as the key, as random.Random(int) does); -1: no memory. */
static int mt_seed(MT *g, const uint32_t *key, int len) {
    Lanes *tmp = lanes_new();
    if (!tmp) return -1;
    uint32_t keys[1][8];
    memcpy(keys[0], key, sizeof(uint32_t) * (size_t)len);
    vec_t keys_v[8][MT_VECS];
    memset(keys_v, 0, sizeof keys_v);
    for (int w = 0; w < len; w++) keys_v[w][0][0] = keys[0][w];
    mt_seed_vector(tmp, (const vec_t(*)[MT_VECS])keys_v, len, 0);
    for (int i = 0; i < MT_N; i++) g->own[i] = tmp->st[i][0][0];
    free(tmp);
    g->mt = g->own;
    g->stride = 1;
    g->pos = 0;
    g->twisted = 0;
    g->next = g->buf;
    g->next_stride = 1;
    g->avail = 0;
    return 0;
}

static inline uint32_t temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
}

/* Twist (or read) the next words of the state, in order, and temper them into buf. */
static void mt_refill(MT *g) {
    int kk = g->pos, s = g->stride, n = MT_N - kk < 16 ? MT_N - kk : 16;
    uint32_t *cur = g->mt + (size_t)kk * (size_t)s;
    if (g->twisted) {
        for (int w = 0; w < n; w++, cur += s) g->buf[w] = temper(*cur);
    } else {
        for (int w = 0; w < n; w++, kk++, cur += s) {
            uint32_t next = kk + 1 < MT_N ? cur[s] : g->mt[0];
            uint32_t far = kk < MT_N - MT_M ? cur[MT_M * s] : cur[(MT_M - MT_N) * s];
            uint32_t y = (*cur & 0x80000000U) | (next & 0x7fffffffU);
            y = far ^ (y >> 1) ^ (-(y & 1U) & 0x9908b0dfU);
            *cur = y;
            g->buf[w] = temper(y);
        }
    }
    kk = g->pos + n;
    g->pos = kk == MT_N ? 0 : kk;
    if (kk == MT_N) g->twisted = 0;
    g->next = g->buf;
    g->next_stride = 1;
    g->avail = n;
}

static inline uint32_t mt_next(MT *g) {
    if (!g->avail) mt_refill(g);
    uint32_t word = *g->next;
    g->next += g->next_stride;
    g->avail--;
    return word;
}

/* random.random() */
static inline double mt_random(MT *g) {
    uint32_t a = mt_next(g) >> 5, b = mt_next(g) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.shuffle(x): for i from len - 1 down to 1, swap x[i] with x[_randbelow(i + 1)].
 *
 * Written as one loop over the words drawn, without a branch on each draw (a rejected draw,
 * one in three or so, would cost a mispredicted branch): a word below i + 1 swaps and moves
 * on to i - 1; a word rejected by _randbelow swaps x[i] with itself and stays at i. */
static inline void mt_shuffle(MT *g, int8_t *x, int len) {
    int i = len - 1;
    while (i > 0) {
        uint32_t n = (uint32_t)i + 1;
        uint32_t r = mt_next(g) >> __builtin_clz(n); /* getrandbits(n.bit_length()) */
        int taken = r < n;
        int j = i + (((int)r - i) & -taken); /* r if taken, else i (no branch) */
        int8_t t = x[i];
        x[i] = x[j];
        x[j] = t;
        i -= taken;
    }
}

/* CPython's state as getstate() gives it: 624 words and the index of the next word. */
static void mt_import(MT *g, const uint32_t *words, int index) {
    memcpy(g->own, words, sizeof g->own);
    g->mt = g->own;
    g->stride = 1;
    g->avail = 0;
    g->pos = index >= MT_N ? 0 : index;
    g->twisted = index < MT_N;
}

/* The state in CPython's form: the words twisted up to the next one to draw (twisting the
 * rest of the round, as CPython twists all 624 at once), and that word's index. */
static int mt_export(MT *g, uint32_t *words) {
    int index; /* the next word to draw */
    if (g->avail) {
        index = (g->pos ? g->pos : MT_N) - g->avail;
    } else if (g->pos == 0 && !g->twisted) {
        index = MT_N; /* a whole round drawn (or none yet): CPython twists at the next draw */
    } else {
        index = g->pos;
    }
    while (g->pos != 0) mt_refill(g); /* twist the rest of the round */
    g->twisted = 1;
    g->pos = index == MT_N ? 0 : index;
    if (index == MT_N) g->twisted = 0;
    g->avail = 0;
    for (int i = 0; i < MT_N; i++) words[i] = g->mt[i * g->stride];
    return index;
}

#endif
