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
 * handle's two calls, one handle for the whole run, so its pawn-king cache is in play). The rows,
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
    int use_trace = strcmp(call, "trace") == 0, use_oneshot = strcmp(call, "oneshot") == 0;
    int use_checked = strcmp(call, "checked") == 0, use_trusted = strcmp(call, "trusted") == 0;
    if (first >= argc || !(use_trace || use_oneshot || use_checked || use_trusted)) {
        fprintf(stderr, "usage: eval_epd [--weights engine.toml] "
                        "[--call trace|oneshot|checked|trusted] FILE.epd...\n");
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
                    if (use_oneshot) status = mk_evaluate(weights, &pos, &total);
                    if (use_checked) status = mk_evaluator_evaluate(evaluator, &pos, &total);
                    if (use_trusted) status = mk_evaluator_evaluate_trusted(evaluator, &pos, &total);
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
    free(rows);
    mk_evaluator_free(evaluator);
    mk_weights_free(weights);
    return failures ? 1 : 0;
}
