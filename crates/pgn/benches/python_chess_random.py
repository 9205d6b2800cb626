# Writes N seeded random games with python-chess (no comments, no clocks) for
# crates/pgn/benches/pgn_read.rs: python3 python_chess_random.py N SEED OUT.pgn
# Each game: random legal moves until checkmate, stalemate, insufficient
# material or a random length of 20-300 plies. Output is not committed.
import random, sys, chess, chess.pgn

n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
with open(out, "w") as f:
    for i in range(1, n + 1):
        board = chess.Board()
        for _ in range(rng.randint(20, 300)):
            moves = list(board.legal_moves)
            if not moves or board.is_insufficient_material():
                break
            board.push(rng.choice(moves))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = "Random game"
        game.headers["Round"] = str(i)
        game.headers["White"] = "python-chess"
        game.headers["Black"] = "python-chess"
        print(game, file=f, end="\n\n")
