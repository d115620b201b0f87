#!/usr/bin/env bash
# Seed corpora for the fuzz targets from the repository's own files (the corpora themselves are
# not committed: libFuzzer grows them in corpus/<target>).
set -euo pipefail
cd "$(dirname "$0")"
root=..
mkdir -p corpus/uci_line corpus/uci_loop corpus/fen corpus/epd_line corpus/engine_toml

# UCI: a GUI's handshake and game, Chess960, ponder, odd but valid lines.
i=0
while IFS= read -r line; do
    i=$((i + 1))
    printf '%s\n' "$line" > "corpus/uci_line/seed$i"
done <<'UCI'
uci
isready
ucinewgame
setoption name Hash value 16
setoption name UCI_Chess960 value true
setoption name Move Overhead value 30
setoption name Clear Hash
position startpos moves e2e4 e7e5 g1f3 b8c6
position fen rn2kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 1 moves c3d5
position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g1h1
go wtime 300000 btime 300000 winc 1000 binc 1000 movestogo 40
go ponder wtime 1000 btime 1000
go infinite searchmoves e2e4 d2d4
go depth 3 nodes 1000 mate 2 movetime 50
go perft 2
ponderhit
stop
debug on
d
eval
UCI
cat corpus/uci_line/seed* > corpus/uci_loop/game

# FEN and EPD: lines of the suites.
n=0
for f in "$root"/epd/*.epd; do
    head -n 20 "$f" | while IFS= read -r line; do
        n=$((n + 1))
        h=$(printf '%s' "$line" | md5sum | cut -c1-16)
        printf '%s\n' "$line" > "corpus/epd_line/$h"
        printf '%s 0 1' "$(printf '%s' "$line" | cut -d' ' -f1-4)" > "corpus/fen/$h"
    done
done

cp "$root/engine.toml" corpus/engine_toml/default
printf '[uci]\nHash = 64\nMultiPV = 2\n"Move Overhead" = 50\n\n[eval]\n' > corpus/engine_toml/small
echo "seeded: $(ls corpus/uci_line | wc -l) uci, $(ls corpus/fen | wc -l) fen, $(ls corpus/epd_line | wc -l) epd"

# capi: a legal position's 80 bytes (eight bitboards, castling/ep, rule50/side to move, little
# endian) followed by its FEN, for 200 suite positions; needs python-chess, skipped without it.
mkdir -p corpus/capi
python3 - "$root"/epd/wac.epd "$root"/epd/kbnk.epd <<'PY' || echo "capi seeds skipped (python-chess missing)"
import struct, sys
import chess
n = 0
for path in sys.argv[1:]:
    for line in open(path):
        fen = " ".join(line.split()[:4])
        try:
            b = chess.Board(fen + " 0 1")
        except ValueError:
            continue
        boards = [b.occupied_co[chess.WHITE], b.occupied_co[chess.BLACK], b.kings, b.queens,
                  b.rooks, b.bishops, b.knights, b.pawns]
        ep = b.ep_square or 0
        head = struct.pack("<8QIIII", *boards, int(b.castling_rights != 0), ep, 0, int(b.turn))
        with open(f"corpus/capi/seed{n}", "wb") as out:
            out.write(head + fen.encode())
        n += 1
        if n == 200:
            sys.exit(0)
PY
