#!/usr/bin/env bash
# Strength of Arbiter's engine against the Debian ladder (kept out of CI).
#
#   scripts/strength.sh [GAMES] [TC] [OPPONENT…]
#
# Plays GAMES games (default 100, in pairs with colours swapped) per opponent
# at TC (default 5+0.05) from docs/openings/balanced-8ply.epd, one thread per
# engine, one game at a time per opponent, niced. Opponents: sf1500 sf2000
# sf2400 gnuchess glaurung toga ethereal, and arbiter1400 arbiter1800
# arbiter2200 (our engine with UCI_LimitStrength against Stockfish at 1500,
# 2000 and 2000). Logs and PGN go to strength/<opponent>.{log,pgn}; the last
# line of each log is the result for docs/strength.md.
# Needs: apt-get install -y stockfish gnuchess glaurung toga2 ethereal-chess
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-100}
TC=${2:-5+0.05}
shift $(( $# > 2 ? 2 : $# )) || true
OPPONENTS=${*:-sf1500 sf2000 sf2400 gnuchess glaurung toga ethereal}
cargo build --release -p arbiter >/dev/null
mkdir -p strength
# A frozen copy, so that rebuilding during a long run changes nothing.
BIN=$PWD/strength/arbiter-$(git rev-parse --short HEAD)
[ -e "$BIN" ] || cp target/release/arbiter "$BIN"
ours="cmd=$BIN arg=uci name=Arbiter option.Hash=16"
sf() { echo "cmd=/usr/games/stockfish name=Stockfish-15.1-Elo$1 option.Threads=1 option.Hash=16 option.UCI_LimitStrength=true option.UCI_Elo=$1"; }
weak() { echo "cmd=$BIN arg=uci name=Arbiter-Elo$1 option.Hash=16 option.UCI_LimitStrength=true option.UCI_Elo=$1"; }
for opp in $OPPONENTS; do
  first=$ours
  case $opp in
    sf1500) other=$(sf 1500) ;;
    sf2000) other=$(sf 2000) ;;
    sf2400) other=$(sf 2400) ;;
    gnuchess) other="cmd=/usr/games/gnuchess arg=-u name=GNU-Chess-6.2.7 option.Hash=16 option.OwnBook=false" ;;
    glaurung) other="cmd=/usr/games/glaurung name=Glaurung-2.2 option.Threads=1 option.Hash=16 option.Ponder=false option.OwnBook=false" ;;
    toga) other="cmd=/usr/games/toga2 name=Toga-II-3.0 option.Hash=16 option.OwnBook=false" ;;
    ethereal) other="cmd=/usr/games/ethereal-chess name=Ethereal-12 option.Threads=1 option.Hash=16" ;;
    arbiter1400) first=$(weak 1400); other=$(sf 1500) ;;
    arbiter1800) first=$(weak 1800); other=$(sf 1500) ;;
    arbiter2200) first=$(weak 2200); other=$(sf 2000) ;;
    *) echo "unknown opponent $opp" >&2; exit 2 ;;
  esac
  rm -f "strength/$opp.pgn"
  # shellcheck disable=SC2086 # the engine words are meant to split
  nice -n 10 "$BIN" match --engine $first --engine $other \
    --tc "$TC" --games "$GAMES" --openings docs/openings/balanced-8ply.epd \
    --resign movecount=4 score=1000 --draw movenumber=40 movecount=10 score=5 \
    --margin 50 --event "Arbiter strength $opp" --pgn "strength/$opp.pgn" \
    > "strength/$opp.log" 2>&1
  tail -n 1 "strength/$opp.log"
done
