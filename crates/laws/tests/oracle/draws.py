# Oracle for tests/differential_python.rs: python-chess (GPL-3.0, used only as
# an external test oracle) replays games given as "EDITION uci uci ..." lines
# on stdin and prints, per game, one code per ply:
#   halfmove_clock:threefold:fivefold:seventyfive:checkmate:stalemate
# threefold = the position on the board has appeared at least three times
# (python-chess is_repetition(3), positions compared with legal en passant only);
# fivefold = python-chess is_fivefold_repetition() for 2018/2023 ("at least five
# times"), and for 2014 the reading of Art. 9.6 a used by Arbiter: the same
# position at plies n-16, n-12, n-8, n-4 and n.
import sys
import chess

for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    edition, moves = parts[0], parts[1:]
    board = chess.Board()
    keys = [board._transposition_key()]
    codes = []
    for uci in moves:
        board.push_uci(uci)
        keys.append(board._transposition_key())
        n = len(keys) - 1
        if edition == "2014":
            five = n >= 16 and all(keys[n - 4 * k] == keys[n] for k in range(1, 5))
        else:
            five = board.is_fivefold_repetition()
        codes.append("%d:%d:%d:%d:%d:%d" % (
            board.halfmove_clock,
            board.is_repetition(3),
            five,
            board.is_seventyfive_moves(),
            board.is_checkmate(),
            board.is_stalemate(),
        ))
    print(" ".join(codes))
