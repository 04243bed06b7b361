/* A deal in C: shuffle and deal, play to the end (random or greedy seats), and the scorer's
 * facts. Mirrors scopa.engine.state.deal, scopa.engine.players.play_out_random and
 * GreedyPlayer.value step by step, drawing the same numbers in the same order. */
#ifndef SCOPA_GAME_H
#define SCOPA_GAME_H

#include "mt.h"
#include "plays.h"

#define MAX_SEATS 6
#define SEVENS (1ULL << 6 | 1ULL << 16 | 1ULL << 26 | 1ULL << 36)
#define FULL ((1ULL << 40) - 1)

enum { RANDOM = 0, GREEDY = 1, MIXED = 2 };
/* MIXED: a random play with this chance, else the greedy one (MixedPlayer.EPSILON). */
#define MIXED_EPSILON 0.25

typedef struct {
    int n, dealer, turn, last, leftovers_to, redeals;
    mask_t hands[MAX_SEATS], piles[MAX_SEATS], table;
    int sweeps[MAX_SEATS], ace_sweeps[MAX_SEATS];
    int last_cleared; /* the seat that cleared the table with the last card (Scopone), or -1 */
    mask_t shown;     /* Cirulla: the cards of declared hands not played yet */
    int matta_as;     /* Cirulla (matta_play=declared): the rank the matta plays as, or -1 */
    int8_t declared[MAX_SEATS][14]; /* Cirulla: per seat, 1 cirulla / 2 decino per declaration */
    int ndeclared[MAX_SEATS];
    int8_t stock[40];
    int stock_pos, stock_len;
} Game;

/* Escoba: the dealer's sweeps from the starting table (15 = one, two fifteens = two). */
static int opening_fifteens(mask_t table) {
    int values[40], n = 0, total = 0;
    for (mask_t t = table; t; t &= t - 1) {
        values[n] = __builtin_ctzll(t) % 10 + 1;
        total += values[n++];
    }
    if (total == 15) return 1;
    if (total != 30 || n > 20) return 0;
    for (uint32_t pick = 1; pick < (1U << n); pick++) {
        int sum = 0;
        for (int k = 0; k < n; k++)
            if (pick >> k & 1) sum += values[k];
        if (sum == 15) return 2;
    }
    return 0;
}

/* Cirulla's opening table (cirulla.opening_sweeps): 15 -> 1, 30 -> 2, with low_table 9 or
 * less -> 3; the matta counts as whichever value scores more. */
static int opening_sweeps(mask_t table, int low_table) {
    int base = 0;
    for (mask_t t = table & ~(1ULL << MATTA); t; t &= t - 1) base += rank_of[__builtin_ctzll(t)] + 1;
    int first = table >> MATTA & 1 ? 1 : 0, last = table >> MATTA & 1 ? 10 : 0, best = 0;
    for (int v = first; v <= last; v++) {
        int total = base + v;
        if (total == 15) best = best > 1 ? best : 1;
        else if (total == 30) best = best > 2 ? best : 2;
        else if (low_table && total <= 9) best = 3;
    }
    return best;
}

enum { CIRULLA = 1, DECINO = 2 };

/* Cirulla: the declaration of a 3-card hand (cirulla.declaration) and the matta's rank. */
static int declaration(const Cfg *cfg, mask_t hand, int *matta_rank) {
    *matta_rank = -1;
    if (bits(hand) != 3) return 0;
    int wild = hand >> MATTA & 1, ranks[3], n = 0, total = wild;
    for (mask_t t = hand & ~(1ULL << MATTA); t; t &= t - 1) {
        ranks[n] = rank_of[__builtin_ctzll(t)];
        total += ranks[n++] + 1;
    }
    int same = 1;
    for (int i = 1; i < n; i++) same = same && ranks[i] == ranks[0];
    int decino = same && cfg->decino_points, cirulla = total <= 9 && cfg->cirulla_points;
    if (decino && (!cirulla || cfg->decino_points >= cfg->cirulla_points)) {
        *matta_rank = wild ? ranks[0] : -1;
        return DECINO;
    }
    if (cirulla) {
        *matta_rank = wild ? 0 : -1;
        return CIRULLA;
    }
    return 0;
}

/* Cirulla: every player declares the hand just dealt if it qualifies (board.declare). */
static void declare(const Cfg *cfg, Game *s) {
    s->matta_as = -1;
    for (int seat = 0; seat < s->n; seat++) {
        int rank, kind = declaration(cfg, s->hands[seat], &rank);
        if (!kind) continue;
        if (s->ndeclared[seat] < 14) s->declared[seat][s->ndeclared[seat]++] = (int8_t)kind;
        s->shown |= s->hands[seat];
        if (rank >= 0 && cfg->matta_declared) s->matta_as = rank;
    }
}

/* The seat after `seat` (no division: a modulo is slow). */
static inline int next_seat(int seat, int n) { return seat + 1 == n ? 0 : seat + 1; }

static void deal_round(Game *s, int size) {
    int pos = s->stock_pos;
    for (int k = 0, seat = next_seat(s->dealer, s->n); k < s->n; k++) {
        mask_t hand = 0;
        for (int c = 0; c < size; c++) hand |= 1ULL << s->stock[pos++];
        s->hands[seat] |= hand;
        seat = next_seat(seat, s->n);
    }
    s->stock_pos = pos;
}

static void deal_game(const Cfg *cfg, int n, int dealer, MT *g, Game *s) {
    int8_t deck[40];
    int pos, redeals = 0;
    for (;;) {
        for (int i = 0; i < 40; i++) deck[i] = (int8_t)i;
        mt_shuffle(g, deck, 40);
        memset(s->hands, 0, sizeof s->hands);
        s->table = 0;
        pos = 0;
        for (int p = 0; p < cfg->npackets; p++) {
            int packet = cfg->packets[p];
            if (packet < 0) {
                for (int c = 0; c < -packet; c++) s->table |= 1ULL << deck[pos++];
                continue;
            }
            for (int k = 0, seat = next_seat(dealer, n); k < n; k++, seat = next_seat(seat, n))
                for (int c = 0; c < packet; c++) s->hands[seat] |= 1ULL << deck[pos++];
        }
        int opening = 0;
        if (cfg->dealer_sweeps && s->table)
            opening = cfg->cirulla ? opening_sweeps(s->table, cfg->low_table)
                                   : opening_fifteens(s->table);
        int again = (cfg->kings_redeal && bits(s->table & rank_mask[9]) >= 3) ||
                    (cfg->aces_redeal && bits(s->table & ACES) >= 2);
        if (opening || !again) break;
        redeals++;
    }
    s->n = n;
    s->dealer = dealer;
    s->redeals = redeals;
    memcpy(s->stock, deck, 40);
    s->stock_pos = pos;
    s->stock_len = 40;
    memset(s->piles, 0, sizeof s->piles);
    memset(s->sweeps, 0, sizeof s->sweeps);
    memset(s->ace_sweeps, 0, sizeof s->ace_sweeps);
    s->last_cleared = -1;
    s->last = -1;
    s->leftovers_to = -1;
    s->shown = 0;
    s->matta_as = -1;
    memset(s->ndeclared, 0, sizeof s->ndeclared);
    if (cfg->dealer_sweeps && s->table) {
        int found = cfg->cirulla ? opening_sweeps(s->table, cfg->low_table)
                                 : opening_fifteens(s->table);
        if (found) {
            s->piles[dealer] = s->table;
            s->sweeps[dealer] = found;
            s->table = 0;
            s->last = dealer;
        }
    }
    s->turn = next_seat(dealer, n);
    if (cfg->cirulla) declare(cfg, s);
}

/* GreedyPlayer.sweep_danger: 1 when an unseen card could take all of `table` at once (a
 * card worth it, or making 15 with it in Escoba and Cirulla, or Cirulla's ace onto a table
 * without one). */
static double sweep_danger(const Cfg *cfg, const Game *s, mask_t table, mask_t hand) {
    int total = 0;
    for (mask_t t = table; t; t &= t - 1) total += rank_of[__builtin_ctzll(t)] + 1;
    int needs[3], n = 0;
    needs[n++] = cfg->fifteen ? 15 - total : total;
    if (cfg->cirulla) {
        needs[n++] = 15 - total;
        if (!(table & ACES)) needs[n++] = 1;
    }
    mask_t seen = hand | table;
    for (int k = 0; k < s->n; k++) seen |= s->piles[k];
    mask_t unseen = FULL & ~seen;
    for (int i = 0; i < n; i++)
        if (needs[i] >= 1 && needs[i] <= 10 && (unseen & rank_mask[needs[i] - 1])) return 1.0;
    return 0.0;
}

/* GreedyPlayer.value, with the same floating-point operations in the same order. */
static double greedy_value(const Cfg *cfg, const Game *s, int card, mask_t capture) {
    mask_t bit = 1ULL << card;
    mask_t table_after = capture ? s->table ^ capture : s->table | bit;
    mask_t hand_after = s->hands[s->turn] ^ bit;
    int others = 0;
    for (int k = 0; k < s->n; k++)
        if (k != s->turn && s->hands[k]) others = 1;
    int last_play = s->stock_pos == s->stock_len && !others && !hand_after;
    double score = 0.0;
    if (capture) {
        mask_t taken = capture | bit;
        score += 1.0 + 0.25 * bits(taken);
        score += 0.8 * bits(taken & COINS);
        score += 1.2 * bits(taken & SEVENS);
        score += (taken & SETTEBELLO_BIT) ? 3.0 : 0.0;
        if (!table_after && is_sweep(cfg, card, capture, last_play)) score += 10.0;
    } else {
        score -= 0.3 * (card % 10 + 1) / 10;
        score -= (bit & SEVENS) ? 1.0 : 0.0;
        score -= (bit & SETTEBELLO_BIT) ? 2.5 : 0.0;
        score -= (bit & COINS) ? 0.4 : 0.0;
    }
    if (table_after && !last_play) score -= 4.0 * sweep_danger(cfg, s, table_after, hand_after);
    return score;
}

/* The seat to move plays `card` taking `capture` (0: it lays the card down); `last_play`:
 * no card is left to play after it. The turn passes on. */
static inline void make_play(const Cfg *cfg, Game *s, int card, mask_t capture, int last_play) {
    int turn = s->turn;
    mask_t bit = 1ULL << card;
    s->hands[turn] ^= bit;
    if (s->shown & bit) {
        s->shown ^= bit;
        if (card == MATTA) s->matta_as = -1;
    }
    if (capture) {
        s->table ^= capture;
        s->piles[turn] |= capture | bit;
        s->last = turn;
        if (!s->table) switch (clear_kind(cfg, card, capture, last_play)) {
            case SWEEP:
                s->sweeps[turn]++;
                break;
            case ACE_SWEEP:
                s->ace_sweeps[turn]++;
                break;
            case LAST_CLEAR:
                s->last_cleared = turn;
                break;
            }
    } else {
        s->table |= bit;
    }
    s->turn = turn + 1 == s->n ? 0 : turn + 1;
}

/* The cards left on the table at the deal's end go to the last to capture (else the dealer). */
static inline void end_deal(Game *s) {
    if (s->table) {
        s->leftovers_to = s->last >= 0 ? s->last : s->dealer;
        s->piles[s->leftovers_to] |= s->table;
        s->table = 0;
    }
}

/* A new round dealt when the seat to move has no card left (Cirulla: then declared). */
static inline void hand_out_if_empty(const Cfg *cfg, Game *s) {
    if (!s->hands[s->turn]) {
        deal_round(s, cfg->hand_size);
        if (cfg->cirulla) declare(cfg, s);
    }
}

/* The cards still to be played: in the hands and the stock. */
static inline int cards_left(const Game *s) {
    int remaining = s->stock_len - s->stock_pos;
    for (int k = 0; k < s->n; k++) remaining += bits(s->hands[k]);
    return remaining;
}

/* Play on until `stop` cards are left to play, the stock empty (0: to the deal's last play;
 * the leftovers are not given out); history (if not NULL) gets the plays. Returns the cards
 * left to play, -1 on no memory. */
static int play_until(const Cfg *cfg, Game *s, MT *g, const int8_t *strategy, Plays *buf,
                      Plays *history, int stop) {
    int remaining = cards_left(s);
    while (remaining && (remaining > stop || s->stock_pos < s->stock_len)) {
        int turn = s->turn;
        hand_out_if_empty(cfg, s);
        if (legal_plays(cfg, s->hands[turn], s->table, buf, s->matta_as) < 0) return -1;
        int pick = 0;
        int kind = strategy[turn];
        if (kind == MIXED) kind = mt_random(g) < MIXED_EPSILON ? RANDOM : GREEDY;
        if (kind == RANDOM) {
            pick = (int)(mt_random(g) * buf->len);
        } else {
            double best = greedy_value(cfg, s, buf->items[0].card, buf->items[0].capture);
            for (int k = 1; k < buf->len; k++) {
                double v = greedy_value(cfg, s, buf->items[k].card, buf->items[k].capture);
                if (v > best) {
                    best = v;
                    pick = k;
                }
            }
        }
        int card = buf->items[pick].card;
        mask_t capture = buf->items[pick].capture;
        remaining--;
        make_play(cfg, s, card, capture, !remaining);
        if (history && plays_push(history, card, capture) < 0) return -1;
    }
    return remaining;
}

/* Play the deal to its end; history (if not NULL) gets the plays. Returns -1 on no memory. */
static int play_out(const Cfg *cfg, Game *s, MT *g, const int8_t *strategy, Plays *buf,
                    Plays *history) {
    if (play_until(cfg, s, g, strategy, buf, history, 0) < 0) return -1;
    end_deal(s);
    return 0;
}

/* The scorer's packed facts per side (scopa.scoring.pack_sides), from tables and the key
 * layout given by Python (set_scoring), so they follow the scorer's. */
typedef struct {
    uint64_t coin_bits[1024];
    int best_primiera[1024], best_rank[1024], primiera_values[10];
    uint64_t top[4], alone[4]; /* cards, coins, primiera, sevens: the top bit, top | alone */
    uint64_t leftover, cleared;
    int aces_shift, sweeps_shift, cirulla_shift, decino_shift;
    int ready;
} Scoring;

static Scoring scoring;

static void side_keys(const mask_t *piles, const int *sweeps, const int *aces, int sides,
                      uint64_t *keys) {
    int facts[4][MAX_SEATS]; /* count, coin count, primiera, sevens */
    const Scoring *t = &scoring;
    for (int i = 0; i < sides; i++) {
        mask_t m = piles[i];
        int c = (int)(m & COINS);
        facts[0][i] = bits(m);
        facts[1][i] = bits((mask_t)c);
        int v0 = t->best_primiera[c];
        int total = v0, all = v0 != 0;
        for (int suit = 1; suit < 4; suit++) {
            int r = t->best_rank[(m >> (10 * suit)) & 0x3FF];
            int v = r >= 0 ? t->primiera_values[r] : 0;
            total += v;
            all = all && v != 0;
        }
        facts[2][i] = all ? total : 0;
        facts[3][i] = bits(m & SEVENS);
        keys[i] = t->coin_bits[c] | (uint64_t)sweeps[i] << t->sweeps_shift |
                  (uint64_t)aces[i] << t->aces_shift;
    }
    for (int f = 0; f < 4; f++) {
        int top = facts[f][0], count = 0, at = 0;
        for (int i = 1; i < sides; i++)
            if (facts[f][i] > top) top = facts[f][i];
        if (top <= 0) continue;
        for (int i = 0; i < sides; i++)
            if (facts[f][i] == top) count++, at = i;
        if (count == 1) {
            keys[at] |= t->alone[f];
            continue;
        }
        for (int i = 0; i < sides; i++)
            if (facts[f][i] == top) keys[i] |= t->top[f];
    }
}

#endif
