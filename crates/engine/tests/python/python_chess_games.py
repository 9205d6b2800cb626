#!/usr/bin/env python3
"""python-chess (a UCI client nobody here wrote) plays games against `arbiter uci`.

Usage: python_chess_games.py PATH/TO/arbiter

Checks that python-chess can drive the engine through the handshake, options,
`go` with clocks, `go movetime`, `go depth`, MultiPV analysis, pondering and a
Chess960 game, and that every move it returns is legal (python-chess raises
otherwise). Prints "N passed, N failed" and exits non-zero on failure.
"""
import sys
import chess
import chess.engine

ARBITER = sys.argv[1]
passed = failed = 0


def check(name, fn):
    global passed, failed
    try:
        fn()
        print(f"ok   {name}")
        passed += 1
    except Exception as e:  # noqa: BLE001 - report every failure
        print(f"FAIL {name}: {e!r}")
        failed += 1


def open_engine():
    return chess.engine.SimpleEngine.popen_uci([ARBITER, "uci"], timeout=20)


def play_game(white, black, board, limit_for, max_plies=120):
    engines = {chess.WHITE: white, chess.BLACK: black}
    plies = 0
    while not board.is_game_over(claim_draw=True) and plies < max_plies:
        result = engines[board.turn].play(board, limit_for(board))
        assert result.move in board.legal_moves, f"illegal {result.move} in {board.fen()}"
        board.push(result.move)
        plies += 1
    return board


def game_with_clocks():
    a, b = open_engine(), open_engine()
    try:
        a.configure({"Hash": 8, "Move Overhead": 5})
        clocks = {chess.WHITE: 3.0, chess.BLACK: 3.0}

        def limit(board):
            return chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                      white_inc=0.02, black_inc=0.02)
        board = play_game(a, b, chess.Board(), limit, max_plies=80)
        assert board.ply() > 0
    finally:
        a.quit()
        b.quit()


def game_movetime_and_depth():
    a, b = open_engine(), open_engine()
    try:
        board = play_game(a, b, chess.Board(),
                          lambda bd: chess.engine.Limit(time=0.03) if bd.turn else chess.engine.Limit(depth=4),
                          max_plies=60)
        assert board.ply() > 0
    finally:
        a.quit()
        b.quit()


def chess960_game():
    a, b = open_engine(), open_engine()
    try:
        # Position 418 (king on f1, rooks on b1 and h1): python-chess sets
        # UCI_Chess960 and expects king-takes-rook castling.
        board = chess.Board.from_chess960_pos(418)
        play_game(a, b, board, lambda bd: chess.engine.Limit(time=0.03), max_plies=60)
        assert board.ply() > 0
    finally:
        a.quit()
        b.quit()


def analysis_multipv_and_mate():
    e = open_engine()
    try:
        board = chess.Board("k7/8/2K5/8/8/8/8/7R w - - 0 1")
        info = e.analyse(board, chess.engine.Limit(depth=9))
        assert info["score"].relative == chess.engine.Mate(2), info
        infos = e.analyse(chess.Board(), chess.engine.Limit(depth=6), multipv=3)
        assert len(infos) == 3 and len({i["pv"][0] for i in infos}) == 3, infos
    finally:
        e.quit()


def ponder_and_limit_strength():
    e = open_engine()
    try:
        e.configure({"UCI_LimitStrength": True, "UCI_Elo": 1400})
        board = chess.Board()
        r = e.play(board, chess.engine.Limit(time=0.1), ponder=True)
        assert r.move in board.legal_moves
        board.push(r.move)
        if r.ponder is not None:
            assert r.ponder in board.legal_moves
            board.push(r.ponder)
        r2 = e.play(board, chess.engine.Limit(time=0.1))
        assert r2.move in board.legal_moves
    finally:
        e.quit()


check("game with clocks and increments", game_with_clocks)
check("game with movetime against depth", game_movetime_and_depth)
check("Chess960 game", chess960_game)
check("analysis: mate score and MultiPV", analysis_multipv_and_mate)
check("ponder and UCI_LimitStrength", ponder_and_limit_strength)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
