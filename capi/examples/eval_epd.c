/* Evaluates every position of EPD files through the C API and prints, per position, the numbers
 * `minkowski eval` prints: every trace row (White mg eg, Black mg eg), the phase, the endgame
 * evaluator and the total. The row names and their number come from the library at run time.
 *
 *   cc -O2 -Icapi/include capi/examples/eval_epd.c target/release/libminkowski_capi.a \
 *      -lm -lpthread -ldl -o eval_epd
 *   ./eval_epd --weights engine.toml epd/wac.epd
 *   ./eval_epd --call trusted epd/wac.epd
 *
 * --call chooses where the total comes from: "trace" (default: mk_trace_fen's summary),
 * "oneshot" (mk_evaluate on the position's bitboards), "checked" or "trusted" (an evaluator
 * handle's two calls, one handle for the whole run, so its pawn-king cache is in play),
 * "cached" or "keyed" (the handle's evaluation cache, keyed by the library or by a hash of the
 * FEN as a host's own key: each position twice, the second call a hit that must give the same
 * value), "bounded" (the bounded call with a window around the trace's total, which must give
 * it exactly, and windows 1,000 cp above and below it, which must fail low and high). The rows,
 * phase and endgame always come from the trace; the total must agree with `minkowski eval`
 * whichever call made it.
 *
 * Output, one line per position, fields separated by tabs:
 *   FEN  total=CP  phase=P  endgame=CODE|none  NAME=WMG WEG BMG BEG ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A C++ engine can forward-declare the position in its own headers (the struct tag is named). */
struct MkPosition;

#include "minkowski.h"

/* A host's own 64-bit key of a position, here FNV-1a of its FEN (an engine would use its
 * Zobrist key). */
static uint64_t fen_key(const char *fen) {
    uint64_t h = 14695981039346656037ull;
    for (const char *p = fen; *p; p++) h = (h ^ (uint64_t)(unsigned char)*p) * 1099511628211ull;
    return h;
}

/* The total through one of the evaluator's calls (see --call); MK_OK or the failing status. */
static int evaluate_with(MkEvaluator *ev, const char *call, const char *fen, const MkPosition *pos,
                         int32_t trace_total, int32_t *total) {
    int32_t first = 0, second = 0;
    int status = MK_ERR_ARGUMENT;
    if (strcmp(call, "checked") == 0) return mk_evaluator_evaluate(ev, pos, total);
    if (strcmp(call, "trusted") == 0) return mk_evaluator_evaluate_trusted(ev, pos, total);
    if (strcmp(call, "cached") == 0 || strcmp(call, "keyed") == 0) {
        int keyed = call[0] == 'k';
        for (int pass = 0; pass < 2; pass++) {
            int32_t *out = pass ? &second : &first;
            status = keyed ? mk_evaluator_evaluate_keyed(ev, pos, fen_key(fen), out)
                           : mk_evaluator_evaluate_cached(ev, pos, out);
            if (status != MK_OK) return status;
        }
        if (first != second) return MK_ERR_INTERNAL; /* a hit must give the stored value */
        *total = second;
        return MK_OK;
    }
    if (strcmp(call, "bounded") == 0) {
        int32_t t = trace_total, low = 0, high = 0;
        status = mk_evaluator_evaluate_bounded(ev, pos, t - 1, t + 1, total);
        if (status == MK_OK) status = mk_evaluator_evaluate_bounded(ev, pos, t + 1000, t + 1001, &low);
        if (status == MK_OK) status = mk_evaluator_evaluate_bounded(ev, pos, t - 1001, t - 1000, &high);
        if (status == MK_OK && (low > t + 1000 || high < t - 1000)) return MK_ERR_INTERNAL;
        return status;
    }
    return status;
}

/* The FEN part of an EPD line: its first four fields, or 0 if it has fewer. */
static int epd_fen(const char *line, char *fen, size_t size) {
    size_t len = 0;
    int fields = 0;
    const char *p = line;
    while (*p && fields < 4) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '\n' || *p == '\r') break;
        if (fields > 0 && len + 1 < size) fen[len++] = ' ';
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (len + 1 < size) fen[len++] = *p;
            p++;
        }
        fields++;
    }
    fen[len] = '\0';
    return fields == 4;
}

int main(int argc, char **argv) {
    if (mk_abi_version() != MK_ABI_VERSION) {
        fprintf(stderr, "eval_epd: library ABI %u, header %d\n", mk_abi_version(), MK_ABI_VERSION);
        return 2;
    }
    MkWeights *weights = NULL; /* NULL: the built-in weights */
    const char *call = "trace";
    int first = 1;
    while (first + 1 < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "--weights") == 0) {
            int status = mk_weights_load(argv[first + 1], &weights);
            if (status != MK_OK) {
                fprintf(stderr, "eval_epd: %s: %s\n", argv[first + 1], mk_status_name(status));
                return 2;
            }
        } else if (strcmp(argv[first], "--call") == 0) {
            call = argv[first + 1];
        } else {
            break;
        }
        first += 2;
    }
    static const char *const calls[] = {"trace", "oneshot", "checked", "trusted",
                                        "cached", "keyed", "bounded"};
    int known = 0;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) known |= strcmp(call, calls[i]) == 0;
    int use_trace = strcmp(call, "trace") == 0, use_oneshot = strcmp(call, "oneshot") == 0;
    if (first >= argc || !known) {
        fprintf(stderr, "usage: eval_epd [--weights engine.toml] "
                        "[--call trace|oneshot|checked|trusted|cached|keyed|bounded] FILE.epd...\n");
        return 2;
    }
    /* One evaluator for the whole run, as one search thread keeps one. */
    MkEvaluator *evaluator = mk_evaluator_new(weights);
    if (!evaluator) return 2;
    uint32_t count = mk_trace_row_count();
    MkTraceRow *rows = (MkTraceRow *)calloc(count ? count : 1, sizeof *rows); /* cast: also C++ */
    if (!rows) return 2;
    int failures = 0;
    for (int f = first; f < argc; f++) {
        FILE *in = fopen(argv[f], "r");
        if (!in) {
            perror(argv[f]);
            failures++;
            continue;
        }
        char line[4096], fen[256];
        while (fgets(line, sizeof line, in)) {
            if (!epd_fen(line, fen, sizeof fen)) continue;
            MkTraceSummary summary;
            int status = mk_trace_fen(weights, fen, rows, count, &summary);
            if (status != MK_OK) {
                printf("%s\terror=%s\n", fen, mk_status_name(status));
                failures++;
                continue;
            }
            int32_t total = summary.total;
            if (!use_trace) {
                MkPosition pos;
                status = mk_position_from_fen(fen, &pos);
                if (status == MK_OK) {
                    status = use_oneshot ? mk_evaluate(weights, &pos, &total)
                                         : evaluate_with(evaluator, call, fen, &pos, total, &total);
                }
                if (status != MK_OK) {
                    printf("%s\terror=%s\n", fen, mk_status_name(status));
                    failures++;
                    continue;
                }
            }
            printf("%s\ttotal=%d\tphase=%d\tendgame=%s", fen, total, summary.phase,
                   summary.endgame[0] ? summary.endgame : "none");
            for (uint32_t i = 0; i < count; i++) {
                printf("\t%s=%d %d %d %d", mk_trace_row_name(i), rows[i].white_mg,
                       rows[i].white_eg, rows[i].black_mg, rows[i].black_eg);
            }
            printf("\n");
        }
        fclose(in);
    }
    MkCacheStats stats;
    if (mk_evaluator_cache_stats(evaluator, &stats) == MK_OK && stats.eval_probes > 0) {
        fprintf(stderr, "eval_epd: evaluation cache %llu hits of %llu lookups\n",
                (unsigned long long)stats.eval_hits, (unsigned long long)stats.eval_probes);
    }
    free(rows);
    mk_evaluator_free(evaluator);
    mk_weights_free(weights);
    return failures ? 1 : 0;
}
